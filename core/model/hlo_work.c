/* hlo_work: the working memory of the computations a `while`, a
 * `conditional` or a pinned `call` runs (DESIGN §10): each mapped as a
 * callee, callees first, its live peak at alignment 1. */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

/* A callee's live peak at alignment 1: its parameters, constants and
 * outputs hold nothing; each other node is live from its first definition
 * to its last definition or read. */
static int callee_peak(hp_t *p, const cmap_t *m, int64_t *peak)
{
    int64_t *delta = calloc((size_t)m->n_steps + 2, sizeof *delta);
    if (!delta)
        return hlo_oom(p);
    for (int32_t j = 0; j < m->n_nodes; j++) {
        const mnode_t *nd = &m->nodes[j];
        if (nd->kind == MN_PARAM || nd->kind == MN_CONST || nd->output || nd->first < 0)
            continue;
        delta[nd->first] = sat_add(delta[nd->first], nd->bytes);
        delta[nd->last + 1] = sat_add(delta[nd->last + 1], -nd->bytes);
    }
    int64_t live = 0;
    *peak = 0;
    for (int32_t s = 0; s < m->n_steps; s++) {
        live = sat_add(live, delta[s]);
        if (live > *peak)
            *peak = live;
    }
    free(delta);
    return RS_OK;
}

/* Marks the callees of computation c that need their working memory. */
static void mark_callees(hp_t *p, const comp_t *c)
{
    for (int32_t k = 0; k < c->n; k++) {
        const ins_t *in = &p->ins[c->first + k];
        if (!(in->cls == OPC_WHILE || in->cls == OPC_CONDITIONAL || (in->cls == OPC_CALL && in->pinned)))
            continue;
        for (int32_t r = 0; r < in->nref; r++) {
            int32_t ci = strmap_get(p->comp_names, p->s + p->refs[in->ref_off + r].off, p->refs[in->ref_off + r].len);
            if (ci >= 0)
                p->comps[ci].needs_work = true;
        }
    }
}

int hlo_map_work(hp_t *p)
{
    /* which need it, callers first (the reverse of p->post) ... */
    for (int32_t i = p->n_comps - 1; i >= 0; i--) {
        const comp_t *c = &p->comps[p->post[i]];
        if (c->entry || c->needs_work)
            mark_callees(p, c);
    }
    /* ... then each, callees first */
    for (int32_t i = 0; i < p->n_comps; i++) {
        comp_t *c = &p->comps[p->post[i]];
        if (!c->needs_work || c->entry)
            continue;
        cmap_t m;
        int rc = hlo_map(p, c, true, &m);
        if (!rc)
            rc = callee_peak(p, &m, &c->work);
        hlo_map_free(&m);
        if (rc)
            return rc;
    }
    return RS_OK;
}
