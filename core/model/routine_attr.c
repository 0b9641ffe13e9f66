/* routine_attr: what follows a §1 statement's shape: the flags
 * (`@output @pinned @inline @into(X)`, DESIGN §1) and where a node came
 * from (`hlo= op_name= source=`, quoted strings with escapes). */
#include "model/routine_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* `@into(X)` after its name: X kept in *into (NULL: an input or param's
 * line, where it is an error). */
static int parse_into(parse_t *p, int col, into_ref_t *into)
{
    if (!into)
        return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                         "@into belongs on a definition (NAME = OP(ARGS) [DIMS] @into(X)), not on an input or param");
    if (into->name)
        return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col, "@into given twice");
    if (!lex_accept(&p->lx, "("))
        return routine_expected(p, "'(' and an input's name after @into");
    lex_skip_ws(&p->lx);
    into->col = lex_col(&p->lx);
    into->flag_col = col;
    if (!lex_ident(&p->lx, &into->name, &into->len))
        return routine_expected(p, "the name of an input declared above, in @into(...)");
    return lex_accept(&p->lx, ")") ? RS_OK : routine_expected(p, "')' closing @into(...)");
}

int routine_parse_flags(parse_t *p, uint8_t *flags, into_ref_t *into)
{
    while (lex_accept(&p->lx, "@")) {
        const char *f;
        size_t fl;
        int col = lex_col(&p->lx) - 1;
        if (!lex_ident(&p->lx, &f, &fl))
            return routine_expected(p, "a flag name after '@' (output, pinned, inline, into)");
        int rc = RS_OK;
        if (fl == 6 && memcmp(f, "output", 6) == 0)
            *flags |= FLAG_OUTPUT;
        else if (fl == 6 && memcmp(f, "pinned", 6) == 0)
            *flags |= FLAG_PINNED;
        else if (fl == 6 && memcmp(f, "inline", 6) == 0)
            *flags |= FLAG_INLINE;
        else if (fl == 4 && memcmp(f, "into", 4) == 0)
            rc = parse_into(p, col, into);
        else
            return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                             "unknown flag '@%.*s' (expected @output, @pinned, @inline or @into(X))", (int)fl, f);
        if (rc)
            return rc;
        if ((*flags & FLAG_INLINE) && into && into->name)
            return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                             "@into and @inline on one node: a node written into an input's buffer is never inline");
    }
    return RS_OK;
}

/* Records that node is written into input's buffer (nodes come in
 * ascending order, so the list stays sorted). */
int routine_add_into(parse_t *p, int32_t node, int32_t input)
{
    routine_t *r = p->r;
    if (vec_reserve((void **)&r->into, &p->cap_into, (int64_t)r->n_into + 1, sizeof *r->into))
        return routine_oom(p);
    r->into[r->n_into++] = (routine_into_t){ node, input };
    return RS_OK;
}

/* A double-quoted string at the cursor (after blanks), unescaped into the
 * routine's strings: \\ \" \n \t and \xHH. */
static int parse_string(parse_t *p, char **out)
{
    lex_t *lx = &p->lx;
    lex_skip_ws(lx);
    if (!lex_accept(lx, "\""))
        return routine_expected(p, "a double-quoted string");
    int open_col = lex_col(lx) - 1;
    size_t b = lx->pos;
    char *s = malloc(lx->len - b + 1);
    if (!s)
        return routine_oom(p);
    size_t n = 0;
    for (;;) {
        if (lx->pos >= lx->len) {
            free(s);
            return error_set(p->err, RS_EINPUT, p->r->path, lx->line, open_col, "unterminated string");
        }
        char c = lx->s[lx->pos++];
        if (c == '"')
            break;
        if (c != '\\') {
            s[n++] = c;
            continue;
        }
        char e = lx->pos < lx->len ? lx->s[lx->pos++] : 0;
        int hi, lo;
        if (e == '\\' || e == '"')
            s[n++] = e;
        else if (e == 'n')
            s[n++] = '\n';
        else if (e == 't')
            s[n++] = '\t';
        else if (e == 'x' && lx->pos + 2 <= lx->len && (hi = hexval(lx->s[lx->pos])) >= 0 &&
                 (lo = hexval(lx->s[lx->pos + 1])) >= 0) {
            s[n++] = (char)(hi * 16 + lo);
            lx->pos += 2;
        } else {
            free(s);
            return error_set(p->err, RS_EINPUT, p->r->path, lx->line, lex_col_at(lx, lx->pos - (e ? 2 : 1)),
                             "unknown escape in a string (expected \\\\ \\\" \\n \\t or \\xHH)");
        }
    }
    *out = strpool_dup(&p->r->strings, s, n);
    free(s);
    return *out ? RS_OK : routine_oom(p);
}

/* `hlo="..."`, `op_name="..."`, `source="..."`, `function="..."` (where a node came from) if
 * the word w[0..wl) names one: *took true and the value is stored in nd's
 * fields (given once each). */
int routine_parse_origin(parse_t *p, const char *w, size_t wl, int col, char **fields[4], bool *took)
{
    static const char *NAMES[4] = { "hlo", "op_name", "source", "function" };
    *took = false;
    for (int k = 0; k < 4; k++) {
        if (strlen(NAMES[k]) != wl || memcmp(NAMES[k], w, wl) != 0)
            continue;
        if (*fields[k])
            return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col, "%s= given twice", NAMES[k]);
        if (!lex_accept(&p->lx, "="))
            return routine_expected(p, "'=' and a quoted string");
        *took = true;
        return parse_string(p, fields[k]);
    }
    return RS_OK;
}

/* Most nodes say nothing of where they came from and share one empty
 * origin; the rest get theirs in the routine's strings. */
int routine_set_origin(parse_t *p, routine_node_t *nd, char *origin[4])
{
    if (!origin[0] && !origin[1] && !origin[2] && !origin[3])
        return RS_OK;
    routine_origin_t *o = strpool_alloc(&p->r->strings, sizeof *o, _Alignof(routine_origin_t));
    if (!o)
        return routine_oom(p);
    *o = (routine_origin_t){ origin[0], origin[1], origin[2], origin[3] };
    nd->origin = o;
    return RS_OK;
}

/* The input `@into(X)` names on node name's line: X must be an input
 * declared above (DESIGN §1), anything else is an error at X. */
int routine_resolve_into(parse_t *p, const into_ref_t *into, const char *name, size_t nlen, int32_t *input)
{
    const routine_t *r = p->r;
    int n = (int)(into->len > 80 ? 80 : into->len);
    if (into->len == nlen && memcmp(into->name, name, nlen) == 0)
        return error_set(p->err, RS_EINPUT, r->path, p->lx.line, into->col,
                         "@into(%.*s) names the node itself (expected an input declared above)", n, into->name);
    int32_t x = strmap_get(r->node_map, into->name, into->len);
    if (x < 0) {
        int32_t later = routine_later_definition(p, into->name, into->len);
        if (later > 0)
            return error_set(p->err, RS_EINPUT, r->path, p->lx.line, into->col,
                             "@into(%.*s) names a node declared later, at line %d (expected an input declared above)",
                             n, into->name, (int)later);
        return error_set(p->err, RS_EINPUT, r->path, p->lx.line, into->col,
                         "unknown name '%.*s' in @into (expected an input declared above)", n, into->name);
    }
    if (r->nodes[x].kind != NODE_INPUT)
        return error_set(p->err, RS_EINPUT, r->path, p->lx.line, into->col,
                         "@into(%.*s) names %s (line %d), not an input: only an input's buffer takes a result", n,
                         into->name, r->nodes[x].kind == NODE_PARAM ? "a param" : "a computed node",
                         (int)r->nodes[x].line);
    *input = x;
    return RS_OK;
}

static int by_input(const void *a, const void *b)
{
    const routine_into_t *x = a, *y = b;
    if (x->input != y->input)
        return x->input < y->input ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

int routine_index_into(parse_t *p)
{
    routine_t *r = p->r;
    if (!r->n_into)
        return RS_OK;
    r->into_by_input = malloc((size_t)r->n_into * sizeof *r->into_by_input);
    if (!r->into_by_input)
        return routine_oom(p);
    memcpy(r->into_by_input, r->into, (size_t)r->n_into * sizeof *r->into);
    qsort(r->into_by_input, (size_t)r->n_into, sizeof *r->into_by_input, by_input);
    return RS_OK;
}
