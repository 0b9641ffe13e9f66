/* hlo_emit: the third pass of the HLO reader: the ENTRY's aliases
 * resolved and written as §1 text. */
#include "model/hlo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routine.h"
#include "util/utf8.h"
#include "util/vec.h"

/* ---- the ENTRY as §1 text ------------------------------------------------- */

/* How many bytes at s (n left) go into a §1 string as they are: printable
 * ASCII but the quote and backslash, or a valid UTF-8 sequence that is not
 * a C1 control; 0 for a byte to escape. */
static size_t plain_len(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    if (c < 0x80)
        return c >= 0x20 && c != '"' && c != '\\' && c != 0x7f;
    size_t len = utf8_seq_len(s, n);
    return utf8_is_c1(s, len) ? 0 : len;
}

/* s[0..n) escaped for a §1 string (the quotes are the caller's); with
 * hlo_escapes, the HLO printer's C escapes are decoded first.  Controls
 * and bytes that are not UTF-8 are \xHH: the text is valid UTF-8, safe to
 * show, and reads back to the same bytes. */
static void put_chars(strbuf_t *b, const char *s, size_t n, bool hlo_escapes)
{
    for (size_t i = 0; i < n; i++) {
        /* a run that needs no escaping goes in whole */
        size_t run = i, plain;
        while (run < n && run - i < (1u << 30) && (plain = plain_len(s + run, n - run)) > 0)
            run += plain;
        if (run > i) {
            strbuf_printf(b, "%.*s", (int)(run - i), s + i);
            i = run - 1;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        if (hlo_escapes && c == '\\' && i + 1 < n) {
            /* the HLO printer's C escapes, decoded first */
            char e = s[++i];
            if (e == 'n')
                c = '\n';
            else if (e == 't')
                c = '\t';
            else if (e == 'r')
                c = '\r';
            else if (e >= '0' && e <= '7') {
                int v = e - '0';
                for (int k = 0; k < 2 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; k++)
                    v = v * 8 + (s[++i] - '0');
                c = (unsigned char)v;
            } else
                c = (unsigned char)e;
        }
        if (c == '"' || c == '\\')
            strbuf_printf(b, "\\%c", c);
        else if (c == '\n')
            strbuf_printf(b, "\\n");
        else if (c == '\t')
            strbuf_printf(b, "\\t");
        else if (c < 0x20 || c >= 0x7f)
            strbuf_printf(b, "\\x%02x", c);
        else
            strbuf_printf(b, "%c", c);
    }
}

/* A §1 identifier from an HLO name: [A-Za-z0-9_.] kept, the rest '_'. */
static void sanitize(const char *s, size_t n, char *out, size_t cap)
{
    size_t w = 0;
    if (n && !hlo_name_start((unsigned char)s[0]) && w + 1 < cap)
        out[w++] = '_';
    for (size_t i = 0; i < n && w + 1 < cap; i++) {
        char c = s[i];
        bool keep = hlo_name_start((unsigned char)c) || (c >= '0' && c <= '9') || c == '.';
        out[w++] = keep ? c : '_';
    }
    if (!w)
        out[w++] = '_';
    out[w] = 0;
}

/* What the lines of the nodes need beyond the map: every node's name,
 * what donation did to it. */
typedef struct line_ctx {
    const char *names;     /* every node's name, NUL-separated */
    const size_t *name_at; /* node -> its name in names */
    const int64_t *cut;
    const int32_t *into;
} line_ctx_t;

/* Node j's shape on its lines: its dims and type unless donation left
 * part of it (or it holds no one array): then its bytes, as u8. */
static void node_shape(const cmap_t *m, const line_ctx_t *x, int32_t j, char *shape, size_t cap)
{
    const mnode_t *nd = &m->nodes[j];
    size_t sw = 0;
    shape[sw++] = '[';
    bool dims = nd->array && (x->cut[j] == 0 || x->into[j] >= 0);
    if (dims)
        for (int32_t d = 0; d < nd->ndims; d++)
            sw += (size_t)snprintf(shape + sw, cap - sw, "%s%lld", d ? ", " : "", (long long)m->dims[nd->dim_off + d]);
    else
        sw += (size_t)snprintf(shape + sw, cap - sw, "%lld", (long long)(nd->bytes - x->cut[j]));
    snprintf(shape + sw, cap - sw, "] %s", dims ? dtype_name((dtype_t)nd->dtype) : "u8");
}

static void put_op(const hp_t *p, strbuf_t *b, const mstep_t *st)
{
    static const char *OPS[] = { NULL, "scratch", "leaf", "work", "async_start", "async_update", "async_done" };
    const ins_t *in = &p->ins[st->ins];
    const char *named = OPS[st->op];
    if (!named && in->cls == OPC_ASYNC_START)
        named = OPS[MOP_ASYNC_START];
    else if (!named && in->cls == OPC_ASYNC_UPDATE)
        named = OPS[MOP_ASYNC_UPDATE];
    else if (!named && in->cls == OPC_ASYNC_DONE)
        named = OPS[MOP_ASYNC_DONE];
    if (named) {
        strbuf_printf(b, "%s", named);
        return;
    }
    for (size_t i = 0; i < in->op.len; i++)
        strbuf_printf(b, "%c", p->s[in->op.off + i] == '-' ? '_' : p->s[in->op.off + i]);
}

/* Where node j's instruction came from: hlo= op_name= source= function=. */
static int put_origin(hp_t *p, strbuf_t *b, const ins_t *in)
{
    slice_t file, func;
    int64_t line;
    int rc = hlo_frame_origin(p, in, &file, &func, &line);
    if (rc)
        return rc;
    strbuf_printf(b, " hlo=\"");
    put_chars(b, p->s + in->name.off, in->name.len, false);
    strbuf_printf(b, "\"");
    if (in->op_name.len) {
        strbuf_printf(b, " op_name=\"");
        put_chars(b, p->s + in->op_name.off, in->op_name.len, true);
        strbuf_printf(b, "\"");
    }
    if (in->source_file.len || in->source_line >= 0) {
        /* printed by the older metadata: wins for the file and line */
        file = in->source_file;
        line = in->source_line;
    }
    if (file.len || line >= 0) {
        strbuf_printf(b, " source=\"");
        put_chars(b, p->s + file.off, file.len, true);
        if (line >= 0)
            strbuf_printf(b, ":%lld", (long long)line);
        strbuf_printf(b, "\"");
    }
    if (func.len) {
        strbuf_printf(b, " function=\"");
        put_chars(b, p->s + func.off, func.len, true);
        strbuf_printf(b, "\"");
    }
    return RS_OK;
}

/* Step s's line: node j's first definition with its flags and origin, or
 * a further definition (`+=`). */
static int put_step(hp_t *p, const cmap_t *m, strbuf_t *b, const line_ctx_t *x, int32_t s)
{
    const mstep_t *st = &m->steps[s];
    const mnode_t *nd = &m->nodes[st->node];
    char shape[64 * 22 + 8];
    node_shape(m, x, st->node, shape, sizeof shape);
    strbuf_printf(b, "%s %s ", x->names + x->name_at[st->node], st->accum ? "+=" : "=");
    put_op(p, b, st);
    strbuf_printf(b, "(");
    for (int32_t a = 0; a < st->nargs; a++)
        strbuf_printf(b, "%s%s", a ? ", " : "", x->names + x->name_at[m->args[st->arg_off + a]]);
    strbuf_printf(b, ") %s cost=%lld", shape, (long long)(st->cost < 1 ? 1 : st->cost));
    if (!st->accum) {
        if (nd->output)
            strbuf_printf(b, " @output");
        if (nd->pinned)
            strbuf_printf(b, " @pinned");
        if (x->into[st->node] >= 0)
            strbuf_printf(b, " @into(%s)", x->names + x->name_at[x->into[st->node]]);
        int rc = put_origin(p, b, &p->ins[nd->ins]);
        if (rc)
            return rc;
    }
    strbuf_printf(b, "\n");
    return RS_OK;
}

/* A parameter's or constant's line: `input`/`param` with its origin. */
static int put_resident(hp_t *p, const cmap_t *m, strbuf_t *b, const line_ctx_t *x, int32_t j)
{
    const mnode_t *nd = &m->nodes[j];
    char shape[64 * 22 + 8];
    node_shape(m, x, j, shape, sizeof shape);
    strbuf_printf(b, "%s %s %s", nd->kind == MN_PARAM ? "input" : "param", x->names + x->name_at[j], shape);
    if (nd->output)
        strbuf_printf(b, " @output");
    int rc = put_origin(p, b, &p->ins[nd->ins]);
    strbuf_printf(b, "\n");
    return rc;
}

/* The §1 name of node j: its instruction's, sanitised, with what the rule
 * that added it says (.scratch, .K, .work). */
static void base_name(const hp_t *p, const mnode_t *nd, char *out, size_t cap)
{
    const ins_t *in = &p->ins[nd->ins];
    char sane[480];
    sanitize(p->s + in->name.off, in->name.len, sane, sizeof sane);
    if (nd->kind == MN_SCRATCH)
        snprintf(out, cap, "%s.scratch", sane);
    else if (nd->kind == MN_WORK)
        snprintf(out, cap, "%s.work", sane);
    else if (nd->kind == MN_LEAF)
        snprintf(out, cap, "%s.%d", sane, (int)nd->leaf);
    else
        snprintf(out, cap, "%s", sane);
}

int hlo_emit_entry(hp_t *p, cmap_t *m, strbuf_t *b, int32_t **node_ins, routine_donation_t *don)
{
    int32_t nn = m->n_nodes;
    int64_t *cut = calloc((size_t)nn + 1, sizeof *cut);
    int32_t *into = malloc(((size_t)nn + 1) * sizeof *into);
    int32_t *order = malloc(((size_t)nn + 1) * sizeof *order);
    uint8_t *put = calloc((size_t)nn + 1, 1);
    size_t *name_at = malloc(((size_t)nn + 1) * sizeof *name_at);
    *node_ins = malloc(((size_t)nn + 1) * sizeof **node_ins);
    strmap_t *used = strmap_new();
    strbuf_t names;
    strbuf_init(&names);
    memset(don, 0, sizeof *don);
    int rc = RS_OK;
    if (!cut || !into || !order || !put || !name_at || !*node_ins || !used)
        rc = hlo_oom(p);
    for (int32_t j = 0; !rc && j < nn; j++)
        into[j] = -1;
    if (!rc)
        rc = hlo_donate(p, m, cut, into, don);
    char sane[512], name[560];
    sanitize(p->s + p->module.off, p->module.len, sane, sizeof sane);
    if (don->pairs)
        strbuf_printf(b, "# donated (input_output_alias): %d of %d outputs, %lld bytes written into their "
                         "parameters\n", (int)don->donated, (int)don->pairs, (long long)don->bytes);
    strbuf_printf(b, "routine %s\n", sane);
    /* the order of the lines: the map's, but for a parameter that a node
     * before it is written into: §1's @into names an input above it, so
     * that parameter's line moves up to just before the node's */
    int32_t e = 0;
    for (int32_t q = 0; q < m->n_seq && !rc; q++) {
        int32_t sq = m->seq[q];
        int32_t j = sq < 0 ? -sq - 1 : m->steps[sq].accum ? -1 : m->steps[sq].node;
        if (j < 0 || put[j])
            continue;
        if (into[j] >= 0 && !put[into[j]]) {
            put[into[j]] = 1;
            order[e++] = into[j];
        }
        put[j] = 1;
        order[e++] = j;
    }
    /* names, sanitised, a clash taking _2, _3, ... in the lines' order */
    for (int32_t k = 0; k < e && !rc; k++) {
        int32_t j = order[k];
        base_name(p, &m->nodes[j], sane, sizeof sane);
        snprintf(name, sizeof name, "%s", sane);
        for (int suffix = 2; strmap_get(used, name, strlen(name)) >= 0; suffix++)
            snprintf(name, sizeof name, "%s_%d", sane, suffix);
        name_at[j] = names.len;
        strbuf_printf(&names, "%s%c", name, 0);
        if (names.oom || strmap_put(used, name, strlen(name), j) != 0)
            rc = hlo_oom(p);
    }
    /* the lines */
    line_ctx_t x = { names.s, name_at, cut, into };
    memset(put, 0, (size_t)nn + 1);
    for (int32_t q = 0; q < m->n_seq && !rc; q++) {
        int32_t sq = m->seq[q];
        if (sq < 0) {
            int32_t j = -sq - 1;
            if (!put[j]) {
                put[j] = 1;
                rc = put_resident(p, m, b, &x, j);
            }
            continue;
        }
        int32_t j = m->steps[sq].node, moved = into[j];
        if (!m->steps[sq].accum && moved >= 0 && !put[moved]) {
            put[moved] = 1;
            rc = put_resident(p, m, b, &x, moved);
        }
        put[j] = 1;
        if (!rc)
            rc = put_step(p, m, b, &x, sq);
    }
    for (int32_t k = 0; !rc && k < e; k++)
        (*node_ins)[k] = m->nodes[order[k]].ins;
    if (!rc && (b->oom || e != nn))
        rc = b->oom ? hlo_oom(p) : hlo_fail_at(p, p->module_at, "internal: %d of %d nodes written", (int)e, (int)nn);
    strbuf_free(&names);
    free(name_at);
    free(cut);
    free(into);
    free(order);
    free(put);
    strmap_free(used);
    return rc;
}
