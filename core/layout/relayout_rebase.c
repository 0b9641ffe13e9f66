/* relayout_rebase: a work's last run made the reference (relayout.h). */
#include <stdlib.h>
#include <string.h>

#include "layout/relayout_int.h"
#include "util/checked.h"
#include "util/vec.h"

/* The pool again with only the live profiles, in id order.  It is made
 * with room to grow to the size that compacts it next (twice the live
 * profiles and some): made to fit, the next rebase's first profile
 * reallocated it, copying every live one again (on t96 Minimize the
 * rebases' reallocs were a tenth of the fit). */
static int compact_pool(relayout_t *r)
{
    int64_t cap = 2 * r->pool_live + 4096 + 1;
    if (cap > INT32_MAX)
        cap = INT32_MAX;
    if (cap < r->pool_live + 1)
        return -1;
    rl_seg_t *np = malloc((size_t)cap * sizeof *np);
    if (!np)
        return -1;
    int32_t at = 0;
    int32_t nt = 2 * r->full_leaves;
    for (int32_t k = 0; k < 2 * r->n + 2 * nt; k++) {
        rl_prof_t *slot = k < r->n ? &r->prof[k] : k < 2 * r->n ? &r->bprof[k - r->n]
                          : k < 2 * r->n + nt ? &r->fprof[k - 2 * r->n] : &r->cprof[k - 2 * r->n - nt];
        if (slot->n)
            memcpy(np + at, r->pool + slot->off, (size_t)slot->n * sizeof *np);
        slot->off = at;
        at += slot->n;
    }
    free(r->pool);
    r->pool = np;
    r->pool_n = at;
    r->pool_cap = (int32_t)cap;
    r->pool_live = at;
    return 0;
}

/* A run from scratch that put more of the buffers it did not change
 * elsewhere than this would have cost a cascade past its budget (that of
 * a run that gave up is more): the next run from its state likely will
 * too, and the profiles a rebase makes would not be used.  On the BERT
 * step's round two at 60 % every try gives up; in its Minimize fit the
 * runs alternate between hundreds of buffers moved and a handful. */
static bool moved_much(const relayout_t *r, const relayout_work_t *w)
{
    return w->fmoved > r->n_order / 16 + 8;
}

static int rebase_full(relayout_t *r, relayout_work_t *w, rs_error_t *err)
{
    bool lazy = moved_much(r, w);
    int rc = relayout_set_buffers(r, w->fbufs, w->fpresent, err);
    if (!rc) /* the run's own layout from scratch: not made twice */
        rc = relayout_build(r, w->foff, w->height, w->n_eorder >= 0 && w->eorder ? w->eorder : NULL, w->n_eorder, lazy, err);
    return rc;
}

/* The ids of r's full buffers, in order, into a new array (*n of them). */
static int32_t *full_ids(const relayout_t *r, int32_t *n)
{
    int32_t *ids = malloc(((size_t)r->n_full + 1) * sizeof *ids);
    if (ids)
        for (int32_t f = 0; f < r->n_full; f++)
            ids[f] = r->order[r->full_order[f]];
    *n = r->n_full;
    return ids;
}

/* The changed buffers' new fields, order, positions and index entries,
 * and the full buffers again (*full_changed when their set changed). */
static int rebase_changed(relayout_t *r, relayout_work_t *w, bool *full_changed)
{
    int32_t n_old, *old = full_ids(r, &n_old);
    if (!old)
        return -1;
    for (int32_t k = 0; k < w->n_cn; k++) { /* out of the index by their old positions */
        int32_t id = w->cn[k].id;
        if (r->pos[id] >= 0)
            relayout_index_remove(r, id, r->pos[id]);
    }
    int32_t *order = malloc(((size_t)r->n_order + (size_t)w->n_placed + 1) * sizeof *order);
    if (!order) {
        free(old);
        return -1;
    }
    int32_t m = 0, pk = 0;
    for (int32_t q = 0; q <= r->n_order; q++) {
        while (pk < w->n_placed && w->cn[w->placed[pk]].slot <= q)
            order[m++] = w->cn[w->placed[pk++]].id;
        if (q < r->n_order && !rl_changed(w, r->order[q]))
            order[m++] = r->order[q];
    }
    free(r->order);
    r->order = order;
    r->n_order = m;
    for (int32_t k = 0; k < w->n_cn; k++) {
        const rl_new_t *e = &w->cn[k];
        r->total += e->size - r->size[e->id];
        r->present[e->id] = e->present;
        r->raw[e->id] = e->raw;
        r->size[e->id] = e->size;
        r->start[e->id] = e->start;
        r->end[e->id] = e->end;
        r->off[e->id] = !e->present ? -1 : e->size > 0 ? e->off : 0;
        r->pos[e->id] = -1;
        r->pool_live -= r->prof[e->id].n;
        r->prof[e->id] = (rl_prof_t){ 0, 0 };
        if (e->present && e->size > 0 && relayout_pool_put(r, &r->prof[e->id], w->pool + e->prof_off, e->prof_n)) {
            free(old);
            return -1;
        }
    }
    for (int32_t k = 0; k < m; k++)
        r->pos[order[k]] = k;
    if (relayout_full_index(r)) {
        free(old);
        return -1;
    }
    bool rebuild = n_old != r->n_full;
    for (int32_t f = 0; f < n_old && !rebuild; f++)
        rebuild = old[f] != r->order[r->full_order[f]];
    free(old);
    *full_changed = rebuild;
    for (int32_t k = 0; k < w->n_placed && !rebuild; k++) {
        const rl_new_t *e = &w->cn[w->placed[k]];
        int32_t leaf = relayout_index_last_le(&r->ix, e->start);
        rebuild = leaf < 0 || r->ix.coords[leaf] != e->start;
    }
    if (rebuild) /* a start the tree has no leaf for, or other full buffers */
        return relayout_index_build(r);
    for (int32_t k = 0; k < w->n_placed; k++) {
        int32_t id = w->cn[w->placed[k]].id;
        r->lo[id] = relayout_index_last_le(&r->ix, r->start[id]);
        r->hi[id] = relayout_index_last_le(&r->ix, r->end[id]);
        if (relayout_index_insert(r, id))
            return -1;
    }
    return 0;
}

int relayout_rebase(relayout_t *r, relayout_work_t *w, rs_error_t *err)
{
    if (w->ref != r || w->version != r->version)
        return error_set(err, RS_EINVAL, NULL, 0, 0, "relayout rebase: the work's last run was against another reference");
    r->version++;
    w->version = -1;
    /* A run that gave up for the full layout is rebuilt from that layout.
     * Running its cascade to the end instead cost more on the 13.5k-step
     * BERT dump (116 s against 103 s CPU for a fit over every candidate)
     * and held every delta of it at once: 1.1 GiB peak against 180 MiB. */
    if (w->full)
        return rebase_full(r, w, err);
    if (r->lazy) /* its runs all lay out from scratch */
        return error_set(err, RS_EINVAL, NULL, 0, 0, "relayout rebase: a cascade against a reference without profiles");
    /* the profiles of the clean buffers with deltas: built in the run, or
     * their deltas applied now (the run showed their counts stay known);
     * in a chain, a full buffer's deltas are to its between counts */
    /* the full buffers whose between counts or placement changed: their
     * trees' nodes are made again above them */
    int32_t n_ranks = 0, n_again = 0;
    int32_t *ranks = malloc(2 * ((size_t)r->n_full + 1) * sizeof *ranks);
    int32_t *again = malloc(((size_t)r->n_full + 1) * sizeof *again); /* between counts to make from the order */
    if (!ranks || !again) {
        free(ranks);
        free(again);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int32_t k = 0; k < w->n_touched; k++) {
        int32_t id = w->touched[k];
        int rc = 0;
        if (r->full[id]) {
            if (!w->chain || w->dhead[id] < 0)
                continue;
            ranks[n_ranks++] = r->full_rank[id];
            if (w->bbuilt[id] == w->epoch)
                rc = relayout_pool_put(r, &r->bprof[id], w->pool + w->wb[id].off, w->wb[id].n);
            else
                again[n_again++] = r->full_rank[id];
        } else if (w->built[id] == w->epoch) {
            rc = relayout_pool_put(r, &r->prof[id], w->pool + w->wp[id].off, w->wp[id].n);
        } else if ((rc = relayout_apply_deltas(w, id, r->pool + r->prof[id].off, r->prof[id].n)) == 0) {
            rc = relayout_pool_put(r, &r->prof[id], w->prof.v, w->prof.n);
        }
        if (rc) {
            free(ranks);
            free(again);
            return error_set(err, rc < 0 ? RS_ENOMEM : RS_EINVAL, NULL, 0, 0,
                             rc < 0 ? "out of memory" : "relayout rebase: a cover count went unknown");
        }
    }
    for (int32_t k = 0; k < w->n_moved; k++) {
        int32_t id = w->movedl[k];
        r->off[id] = w->noff[id];
        if (r->full[id] && w->chain)
            ranks[n_ranks++] = r->full_rank[id];
    }
    bool full_changed = false;
    if (w->n_cn && rebase_changed(r, w, &full_changed)) {
        free(ranks);
        free(again);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int rc = 0;
    if (full_changed) { /* buffers that were full have no profile of their own */
        rc = relayout_build_profiles(r);
    } else if (!w->chain) {
        rc = relayout_full_profiles(r);
    } else {
        for (int32_t k = 0; k < n_again && !rc; k++)
            rc = relayout_full_between(r, again[k], &w->scratch);
        if (!rc)
            rc = relayout_full_update(r, ranks, n_ranks);
    }
    free(ranks);
    free(again);
    if (rc)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    r->height = w->height;
    r->n_top = 0;
    for (int32_t k = 0; k < r->n_order; k++) {
        int32_t id = r->order[k];
        r->n_top += r->off[id] + r->size[id] == r->height;
    }
    if (r->pool_n > 2 * r->pool_live + 4096 && compact_pool(r))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    return RS_OK;
}
