/* hlo: the HLO text reader of DESIGN §10.  One pass over the text tokenises
 * it (newlines are blanks, as in XLA's own lexer) into computations and
 * instructions, keeping what the mapping needs: shapes, operands, a few
 * attributes and the metadata.  A second pass costs the computations
 * (callees first, an explicit stack), a third resolves the ENTRY's aliases
 * and writes the §1 text. */
#include "model/hlo.h"
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>



/* ---- entry points ----------------------------------------------------------- */

static void hp_free(hp_t *p)
{
    for (int32_t i = 0; i < p->n_comps; i++)
        strmap_free(p->comps[i].names);
    free(p->comps);
    free(p->ins);
    free(p->dims);
    free(p->opds);
    free(p->opd_sel);
    free(p->sels);
    free(p->oto);
    free(p->post);
    hlo_frames_free(p);
    free(p->refs);
    free(p->alias);
    free(p->alias_path);
    strmap_free(p->comp_names);
}

/* Each node's and step's HLO line and column, from its instruction:
 * (*lines)[0..n_nodes) the nodes', then m->n_steps the steps'. */
static int locate(hp_t *p, const char *text, size_t len, const comp_t *entry, const cmap_t *m, const int32_t *node_ins,
                  int32_t **lines, int32_t **cols, int32_t *n_nodes)
{
    int32_t nn = m->n_nodes, n = nn + m->n_steps;
    int32_t *il = malloc(((size_t)entry->n + 1) * sizeof *il), *ic = malloc(((size_t)entry->n + 1) * sizeof *ic);
    *lines = malloc(((size_t)n + 1) * sizeof **lines);
    *cols = malloc(((size_t)n + 1) * sizeof **cols);
    if (!il || !ic || !*lines || !*cols) {
        free(il);
        free(ic);
        free(*lines);
        free(*cols);
        *lines = *cols = NULL;
        return hlo_oom(p);
    }
    /* columns counted on from the previous instruction's on the same line:
     * the whole file may be one line */
    size_t at = 0, ls = (size_t)-1;
    int col = 1;
    for (int32_t k = 0; k < entry->n; k++) {
        loc_t l = p->ins[entry->first + k].at;
        if (l.line_start != ls) {
            ls = at = l.line_start;
            col = 1;
        }
        for (; at < l.pos; at++)
            if (((unsigned char)text[at] & 0xC0) != 0x80)
                col++;
        il[k] = l.line;
        ic[k] = col;
    }
    (void)len;
    for (int32_t j = 0; j < nn; j++) {
        (*lines)[j] = il[node_ins[j] - entry->first];
        (*cols)[j] = ic[node_ins[j] - entry->first];
    }
    for (int32_t s = 0; s < m->n_steps; s++) {
        (*lines)[nn + s] = il[m->steps[s].ins - entry->first];
        (*cols)[nn + s] = ic[m->steps[s].ins - entry->first];
    }
    *n_nodes = nn;
    free(il);
    free(ic);
    return RS_OK;
}

/* hlo_convert, also giving each node's and step's HLO line and column. */
static int convert(const char *path, const char *text, size_t len, char **out, size_t *out_len, int32_t **lines,
                   int32_t **cols, int32_t *n_nodes, routine_donation_t *don, bool *scheduled, rs_error_t *err)
{
    *out = NULL;
    *out_len = 0;
    hp_t p = { .path = path, .s = text, .len = len, .line = 1, .err = err };
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = p.line_start = 3;
    const char *nul = memchr(text, 0, len);
    if (nul) {
        /* find its line for the location */
        for (size_t i = 0; i < (size_t)(nul - text); i++)
            if (lex_line_ends(text, len, i)) {
                p.line++;
                p.line_start = i + 1;
            }
        p.pos = (size_t)(nul - text);
        return hlo_fail_at(&p, hlo_here(&p), "NUL byte in a text file (is this an HLO dump?)");
    }
    int rc = (p.comp_names = strmap_new()) ? RS_OK : hlo_oom(&p);
    if (!rc)
        rc = hlo_parse_module(&p);
    *scheduled = p.scheduled;
    if (!rc)
        rc = hlo_cost_calls(&p);
    strbuf_t b;
    strbuf_init(&b);
    int32_t *node_ins = NULL;
    const comp_t *entry = NULL;
    cmap_t m = { 0 };
    for (int32_t i = 0; !rc && i < p.n_comps; i++)
        if (p.comps[i].entry)
            entry = &p.comps[i];
    if (!rc)
        rc = hlo_map_work(&p);
    if (!rc)
        rc = hlo_map(&p, entry, false, &m);
    if (!rc) {
        const char *base = strrchr(path, '/');
        strbuf_printf(&b, "# %s as a routine (DESIGN §10): the HLO module's ENTRY computation, one line a node\n",
                      base ? base + 1 : path);
        rc = hlo_emit_entry(&p, &m, &b, &node_ins, don);
    }
    if (!rc && lines)
        rc = locate(&p, text, len, entry, &m, node_ins, lines, cols, n_nodes);
    hlo_map_free(&m);
    free(node_ins);
    hp_free(&p);
    if (rc) {
        strbuf_free(&b);
        return rc;
    }
    *out = b.s;
    *out_len = b.len;
    return RS_OK;
}

int hlo_convert(const char *path, const char *text, size_t len, char **out, size_t *out_len, rs_error_t *err)
{
    routine_donation_t don;
    bool scheduled;
    return convert(path, text, len, out, out_len, NULL, NULL, NULL, &don, &scheduled, err);
}

int hlo_read(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err)
{
    *out = NULL;
    char *rt;
    size_t rl;
    int32_t *lines = NULL, *cols = NULL, nn = 0;
    routine_donation_t don;
    bool scheduled = false;
    int rc = convert(path, text, len, &rt, &rl, &lines, &cols, &nn, &don, &scheduled, err);
    if (rc)
        return rc;
    rc = routine_parse(path, rt, rl, out, err);
    free(rt);
    if (!rc && (*out)->n_nodes != nn)
        rc = error_set(err, RS_EINPUT, path, 0, 0, "internal: the HLO reader wrote %d nodes, the routine has %d",
                       (int)nn, (int)(*out)->n_nodes);
    if (!rc) {
        routine_t *r = *out;
        r->format = ROUTINE_HLO;
        r->donation = don;
        r->hlo_scheduled = scheduled;
        for (int32_t i = 0; i < r->n_nodes; i++) {
            r->nodes[i].line = lines[i];
            r->nodes[i].col = cols[i];
        }
        for (int32_t s = 0; s < r->n_steps; s++) {
            r->steps[s].line = lines[nn + s];
            r->steps[s].col = cols[nn + s];
        }
    } else {
        routine_free(*out);
        *out = NULL;
    }
    free(lines);
    free(cols);
    return rc;
}

int hlo_read_any(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err)
{
    return hlo_sniff(text, len) ? hlo_read(path, text, len, out, err) : routine_parse(path, text, len, out, err);
}
