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

static int res_push(hp_t *p, entry_map_t *m, int32_t v, const ins_t *in)
{
    if (m->budget-- <= 0)
        return hlo_fail_at(p, in->at, "tuples here expand to more operands than the file has bytes (nested too "
                                  "repetitively)");
    if (vec_reserve((void **)&m->res, &m->cap_res, (int64_t)m->n_res + 1, sizeof *m->res))
        return hlo_oom(p);
    m->res[m->n_res++] = v;
    return RS_OK;
}

/* The names of a node's arguments, and what donation did to it: what the
 * line of one node needs beyond its instruction. */
typedef struct line_ctx {
    const char *names;     /* every node's name, NUL-separated */
    const size_t *name_at; /* node -> its name in names */
    const uint8_t *output;
    const int64_t *cut;
    const int32_t *into;
} line_ctx_t;

/* Node j's §1 line (instruction in): `input`/`param`, or a definition with
 * its arguments resolved, its flags and where it came from. */
static int put_node(hp_t *p, const comp_t *c, entry_map_t *m, strbuf_t *b, const line_ctx_t *x, int32_t j,
                    const ins_t *in)
{
    int rc = RS_OK;
    const char *nm = x->names + x->name_at[j];
    char shape[64 * 22 + 8];
    size_t sw = 0;
    shape[sw++] = '[';
    /* an array keeps its dims unless donation left part of it (a tuple, or
     * an odd leaf): then its bytes are what is left */
    bool dims = in->array && (x->cut[j] == 0 || x->into[j] >= 0);
    if (dims)
        for (int32_t d = 0; d < in->ndims; d++)
            sw += (size_t)snprintf(shape + sw, sizeof shape - sw, "%s%lld", d ? ", " : "",
                                   (long long)p->dims[in->dim_off + d]);
    else
        sw += (size_t)snprintf(shape + sw, sizeof shape - sw, "%lld", (long long)(in->bytes - x->cut[j]));
    snprintf(shape + sw, sizeof shape - sw, "] %s", dims ? dtype_name((dtype_t)in->dtype) : "u8");
    if (in->cls == OPC_PARAMETER || in->cls == OPC_CONSTANT) {
        strbuf_printf(b, "%s %s %s", in->cls == OPC_PARAMETER ? "input" : "param", nm, shape);
    } else {
        strbuf_printf(b, "%s = ", nm);
        for (size_t i = 0; i < in->op.len; i++)
            strbuf_printf(b, "%c", p->s[in->op.off + i] == '-' ? '_' : p->s[in->op.off + i]);
        strbuf_printf(b, "(");
        int32_t na = 0;
        for (int32_t a = 0; a < in->nopd && !rc; a++) {
            int32_t o = p->opds[in->opd_off + a] - c->first;
            for (int32_t r = 0; r < m->res_len[o] && !rc; r++) {
                if (m->budget-- <= 0)
                    rc = hlo_fail_at(p, in->at, "tuples here expand to more operands than the file has bytes "
                                            "(nested too repetitively)");
                else
                    strbuf_printf(b, "%s%s", na++ ? ", " : "", x->names + x->name_at[m->res[m->res_off[o] + r]]);
            }
        }
        strbuf_printf(b, ") %s cost=%lld", shape, (long long)(in->cost < 1 ? 1 : in->cost));
    }
    if (x->output[j])
        strbuf_printf(b, " @output");
    if (in->pinned && in->cls != OPC_PARAMETER && in->cls != OPC_CONSTANT)
        strbuf_printf(b, " @pinned");
    if (x->into[j] >= 0)
        strbuf_printf(b, " @into(%s)", x->names + x->name_at[x->into[j]]);
    strbuf_printf(b, " hlo=\"");
    put_chars(b, p->s + in->name.off, in->name.len, false);
    strbuf_printf(b, "\"");
    if (in->op_name.len) {
        strbuf_printf(b, " op_name=\"");
        put_chars(b, p->s + in->op_name.off, in->op_name.len, true);
        strbuf_printf(b, "\"");
    }
    if (in->source_file.len || in->source_line >= 0) {
        strbuf_printf(b, " source=\"");
        put_chars(b, p->s + in->source_file.off, in->source_file.len, true);
        if (in->source_line >= 0)
            strbuf_printf(b, ":%lld", (long long)in->source_line);
        strbuf_printf(b, "\"");
    }
    strbuf_printf(b, "\n");
    return rc;
}

int hlo_emit_entry(hp_t *p, const comp_t *c, strbuf_t *b, int32_t **node_ins, int32_t *n_nodes,
                   routine_donation_t *don)
{
    entry_map_t m = { 0 };
    int32_t n = c->n;
    m.node = malloc(((size_t)n + 1) * sizeof *m.node);
    m.res_off = malloc(((size_t)n + 1) * sizeof *m.res_off);
    m.res_len = malloc(((size_t)n + 1) * sizeof *m.res_len);
    m.tsrc = malloc(((size_t)n + 1) * sizeof *m.tsrc);
    *node_ins = malloc(((size_t)n + 1) * sizeof **node_ins);
    uint8_t *output = calloc((size_t)n + 1, 1);
    int64_t *cut = calloc((size_t)n + 1, sizeof *cut);
    int32_t *into = malloc(((size_t)n + 1) * sizeof *into);
    int32_t *order = malloc(((size_t)n + 1) * sizeof *order);
    uint8_t *put = calloc((size_t)n + 1, 1);
    strmap_t *used = strmap_new();
    m.budget = (int64_t)p->len + 4096;
    int rc = RS_OK;
    memset(don, 0, sizeof *don);
    if (!m.node || !m.res_off || !m.res_len || !m.tsrc || !*node_ins || !output || !cut || !into || !order || !put ||
        !used)
        rc = hlo_oom(p);
    int32_t nn = 0, root = n - 1;
    for (int32_t k = 0; k < n; k++)
        if (p->ins[c->first + k].root)
            root = k;
    char name[560];
    char sane[512];
    /* pass 1: nodes and resolutions */
    for (int32_t k = 0; k < n && !rc; k++) {
        const ins_t *in = &p->ins[c->first + k];
        m.node[k] = -1;
        m.tsrc[k] = -1;
        m.res_off[k] = m.n_res;
        m.res_len[k] = 0;
        int32_t o0 = in->nopd ? p->opds[in->opd_off] - c->first : -1;
        switch (in->cls) {
        case OPC_AFTER_ALL:
            break;
        case OPC_ALIAS_FIRST:
            if (o0 >= 0) {
                m.res_off[k] = m.res_off[o0];
                m.res_len[k] = m.res_len[o0];
                m.tsrc[k] = m.tsrc[o0];
            }
            break;
        case OPC_GTE:
            if (o0 >= 0 && m.tsrc[o0] >= 0) {
                const ins_t *t = &p->ins[c->first + m.tsrc[o0]];
                if (in->index >= t->nopd) {
                    rc = hlo_fail_at(p, in->at, "index=%lld of a tuple of %d", (long long)in->index, (int)t->nopd);
                    break;
                }
                int32_t src = p->opds[t->opd_off + in->index] - c->first;
                m.res_off[k] = m.res_off[src];
                m.res_len[k] = m.res_len[src];
                m.tsrc[k] = m.tsrc[src];
            } else if (o0 >= 0) {
                m.res_off[k] = m.res_off[o0];
                m.res_len[k] = m.res_len[o0];
            }
            break;
        case OPC_TUPLE:
            m.tsrc[k] = k;
            for (int32_t a = 0; a < in->nopd && !rc; a++) {
                int32_t o = p->opds[in->opd_off + a] - c->first;
                for (int32_t r = 0; r < m.res_len[o] && !rc; r++)
                    rc = res_push(p, &m, m.res[m.res_off[o] + r], in);
            }
            m.res_len[k] = m.n_res - m.res_off[k];
            break;
        default:
            m.node[k] = nn;
            (*node_ins)[nn++] = k;
            m.res_off[k] = m.n_res;
            rc = res_push(p, &m, m.node[k], in);
            m.res_len[k] = 1;
        }
    }
    /* what ROOT resolves to is @output; what it donates loses its bytes */
    for (int32_t r = 0; !rc && n && r < m.res_len[root]; r++)
        output[m.res[m.res_off[root] + r]] = 1;
    for (int32_t j = 0; !rc && j < nn; j++)
        into[j] = -1;
    if (!rc)
        rc = hlo_donate(p, c, &m, root, *node_ins, nn, cut, into, don);
    sanitize(p->s + p->module.off, p->module.len, sane, sizeof sane);
    if (don->pairs)
        strbuf_printf(b, "# donated (input_output_alias): %d of %d outputs, %lld bytes written into their "
                         "parameters\n", (int)don->donated, (int)don->pairs, (long long)don->bytes);
    strbuf_printf(b, "routine %s\n", sane);
    /* pass 2: names, sanitised, a clash taking _2, _3, ... in text order */
    strbuf_t names;
    strbuf_init(&names);
    size_t *name_at = malloc(((size_t)nn + 1) * sizeof *name_at);
    if (!rc && !name_at)
        rc = hlo_oom(p);
    for (int32_t j = 0; j < nn && !rc; j++) {
        const ins_t *in = &p->ins[c->first + (*node_ins)[j]];
        sanitize(p->s + in->name.off, in->name.len, sane, sizeof sane);
        snprintf(name, sizeof name, "%s", sane);
        for (int suffix = 2; strmap_get(used, name, strlen(name)) >= 0; suffix++)
            snprintf(name, sizeof name, "%s_%d", sane, suffix);
        name_at[j] = names.len;
        strbuf_printf(&names, "%s%c", name, 0);
        if (names.oom || strmap_put(used, name, strlen(name), j) != 0)
            rc = hlo_oom(p);
    }
    /* pass 3: the lines, in text order but for a parameter that a node
     * before it is written into: §1's @into names an input above it, so
     * that parameter's line moves up to just before the node's */
    line_ctx_t x = { names.s, name_at, output, cut, into };
    int32_t e = 0;
    for (int32_t j = 0; j < nn && !rc; j++) {
        if (put[j])
            continue;
        int32_t first[2] = { into[j] > j && !put[into[j]] ? into[j] : -1, j };
        for (int k = 0; k < 2 && !rc; k++)
            if (first[k] >= 0) {
                put[first[k]] = 1;
                order[e++] = first[k];
                rc = put_node(p, c, &m, b, &x, first[k], &p->ins[c->first + (*node_ins)[first[k]]]);
            }
    }
    /* the routine numbers its nodes in the order of their lines */
    for (int32_t k = 0; !rc && k < nn; k++)
        order[k] = (*node_ins)[order[k]];
    if (!rc)
        memcpy(*node_ins, order, (size_t)nn * sizeof **node_ins);
    strbuf_free(&names);
    free(name_at);
    if (!rc && b->oom)
        rc = hlo_oom(p);
    *n_nodes = nn;
    free(m.node);
    free(m.res_off);
    free(m.res_len);
    free(m.tsrc);
    free(m.res);
    free(output);
    free(cut);
    free(into);
    free(order);
    free(put);
    strmap_free(used);
    return rc;
}
