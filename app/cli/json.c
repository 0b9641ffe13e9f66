#include "cli/json.h"

#include <math.h>

#include "lower/score.h"
#include "model/routine.h"
#include "util/utf8.h"

void json_init(json_t *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->first[0] = true;
}

/* s as a JSON string.  JSON must be UTF-8: a byte that is not is written
 * \u00XX, the byte read as Latin-1 (so a script can tell which bytes the
 * name held: a real U+0080 to U+00FF arrives as UTF-8, never escaped);
 * C0 and C1 controls and DEL are escaped too, so the JSON is safe to show
 * on a terminal. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        size_t len = utf8_seq_len((const char *)p, 4);
        if (len == 0 || *p == 0x7f || utf8_is_c1((const char *)p, len)) {
            fprintf(f, "\\u%04x", len == 2 ? p[1] : *p);
            p += len ? len - 1 : 0;
            continue;
        }
        if (len > 1) {
            fwrite(p, 1, len, f);
            p += len - 1;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void prefix(json_t *j, const char *key)
{
    if (!j->first[j->depth])
        fputs(", ", j->f);
    j->first[j->depth] = false;
    if (key) {
        put_string(j->f, key);
        fputs(": ", j->f);
    }
}

static void nest(json_t *j, const char *key, char c)
{
    prefix(j, key);
    fputc(c, j->f);
    if (j->depth < 63)
        j->depth++;
    j->first[j->depth] = true;
}

void json_obj_begin(json_t *j, const char *key) { nest(j, key, '{'); }

void json_null(json_t *j, const char *key)
{
    prefix(j, key);
    fputs("null", j->f);
}
void json_arr_begin(json_t *j, const char *key) { nest(j, key, '['); }

void json_obj_end(json_t *j)
{
    fputc('}', j->f);
    j->depth--;
}

void json_arr_end(json_t *j)
{
    fputc(']', j->f);
    j->depth--;
}

void json_int(json_t *j, const char *key, int64_t v)
{
    prefix(j, key);
    fprintf(j->f, "%lld", (long long)v);
}

void json_str(json_t *j, const char *key, const char *s)
{
    prefix(j, key);
    put_string(j->f, s);
}

void json_bool(json_t *j, const char *key, bool v)
{
    prefix(j, key);
    fputs(v ? "true" : "false", j->f);
}

void json_double(json_t *j, const char *key, double v)
{
    prefix(j, key);
    if (isfinite(v))
        fprintf(j->f, "%.17g", v);
    else
        fputs("null", j->f);
}

void json_finish(json_t *j) { fputc('\n', j->f); }

void json_footprint(json_t *j, const char *key, const footprint_t *f)
{
    json_obj_begin(j, key);
    json_int(j, "total", f->total);
    json_int(j, "live_peak", f->live_peak);
    json_int(j, "peak_step", f->peak_step);
    json_int(j, "buffers", f->buffers);
    json_int(j, "compute", f->compute);
    json_obj_end(j);
}

void json_inline_nodes(json_t *j, const char *key, const routine_t *r, const uint8_t *is_inline, int32_t n)
{
    json_arr_begin(j, key);
    for (int32_t i = 0; i < n; i++)
        if (is_inline[i])
            json_str(j, NULL, r->nodes[i].name);
    json_arr_end(j);
}

void json_node_origin(json_t *j, const routine_t *r, int32_t i)
{
    const routine_node_t *nd = r && i >= 0 ? &r->nodes[i] : NULL;
    if (!nd || (!nd->origin->hlo && !nd->origin->op_name && !nd->origin->source && !nd->origin->function))
        return;
    json_str(j, "hlo", nd && nd->origin->hlo ? nd->origin->hlo : "");
    json_str(j, "op_name", nd && nd->origin->op_name ? nd->origin->op_name : "");
    json_str(j, "source", nd && nd->origin->source ? nd->origin->source : "");
    json_str(j, "function", nd && nd->origin->function ? nd->origin->function : "");
}
