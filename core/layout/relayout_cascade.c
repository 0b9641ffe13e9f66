/* relayout_cascade: how a change reaches the buffers after it in one run
 * (relayout_int.h): deltas handed on, profiles re-made, buffers re-placed,
 * the chain of the full buffers. */
#include <stdlib.h>
#include <string.h>

#include "layout/relayout_int.h"
#include "util/checked.h"
#include "util/vec.h"

/* ---- one run ------------------------------------------------------------------ */

/* Records d for clean buffer id; false when the run has done as much work
 * as a layout from scratch (or memory ran out). */
/* Marks clean buffer id to be looked at (its bit), with no deltas yet. */
static void mark(const relayout_t *r, relayout_work_t *w, int32_t id)
{
    if (w->mark[id] == w->epoch)
        return;
    w->mark[id] = w->epoch;
    w->dhead[id] = -1;
    w->touched[w->n_touched++] = id;
    int32_t p = r->pos[id];
    w->bits[p >> 6] |= (uint64_t)1 << (p & 63);
}

static bool add_delta(const relayout_t *r, relayout_work_t *w, int32_t id, const rl_delta_t *d)
{
    if (--w->budget < 0)
        return false;
    if (w->n_deltas == w->cap_deltas &&
        vec_reserve((void **)&w->deltas, &w->cap_deltas, (int64_t)w->n_deltas + 1, sizeof *w->deltas))
        return false;
    mark(r, w, id);
    rl_delta_t *nd = &w->deltas[w->n_deltas];
    *nd = *d;
    nd->next = w->dhead[id];
    w->dhead[id] = w->n_deltas++;
    return true;
}

typedef struct visit {
    const relayout_t *r;
    relayout_work_t *w;
    const rl_delta_t *d;
} visit_t;

static int push_one(void *ud, int32_t id)
{
    visit_t *v = ud;
    if (rl_changed(v->w, id) || (v->w->chain && v->r->full[id]))
        return 0;
    return add_delta(v->r, v->w, id, v->d) ? 0 : 1;
}

/* Hands d to every clean buffer meeting [a, b] whose position p has 2p > t
 * (later in the new order than what changed); the full buffers get it
 * through their chain (chain_event).  False to give up. */
bool relayout_push(const relayout_t *r, relayout_work_t *w, int64_t a, int64_t b, int64_t t, const rl_delta_t *d)
{
    visit_t v = { r, w, d };
    if (relayout_index_walk(r, a, b, t, true, w->path, w->nodes, push_one, &v))
        return false;
    if (!w->chain) /* the index leaves the full buffers out: they meet all */
        for (int32_t f = relayout_full_before(r, t + 1); f < r->n_full; f++) {
            int32_t id = r->order[r->full_order[f]]; /* out of the chain a changed span may leave theirs */
            if (!rl_changed(w, id) && r->start[id] <= b && a <= r->end[id] && !add_delta(r, w, id, d))
                return false;
        }
    return true;
}

static int gather_one(void *ud, int32_t id)
{
    visit_t *v = ud;
    if (--v->w->budget < 0)
        return 1;
    if (rl_changed(v->w, id))
        return 0;
    int64_t o = rl_cur_off(v->r, v->w, id);
    return relayout_cover_add(&v->w->prof, o, o + v->r->size[id]) ? 1 : 0;
}

/* w->prof = the cover profile of the buffers of the new state meeting
 * [a, b] and before the threshold: clean ones at positions p with 2p < t,
 * and the first n_placed changed ones.  False to give up. */
static bool enumerate(const relayout_t *r, relayout_work_t *w, int64_t a, int64_t b, int64_t t, int32_t n_placed)
{
    w->prof.n = 0;
    w->stats.enumerated++;
    visit_t v = { r, w, NULL };
    if (relayout_index_walk(r, a, b, t, false, w->path, w->nodes, gather_one, &v))
        return false;
    for (int32_t k = 0; k < n_placed; k++) {
        const rl_new_t *e = &w->cn[w->placed[k]];
        if (e->start <= b && a <= e->end && relayout_cover_add(&w->prof, e->off, e->off + e->size))
            return false;
    }
    /* the full buffers before t: their prefix counts, unless some moved or
     * changed in this run */
    int32_t nf = relayout_full_before(r, t);
    if (w->chain && !w->full_moved) {
        rl_list_t *fl = &w->lx[0];
        if (relayout_full_prefix(r, nf, INT64_MIN, INT64_MAX, fl, &w->lx[2], &w->lx[3]))
            return false;
        const rl_list_t *two[2] = { fl, &w->prof };
        if (relayout_cover_sum(two, 2, &w->sum, NULL))
            return false;
        rl_list_t x = w->prof;
        w->prof = w->sum;
        w->sum = x;
        return true;
    }
    for (int32_t f = 0; f < nf; f++) {
        int32_t id = r->order[r->full_order[f]];
        if (rl_changed(w, id) || r->start[id] > b || a > r->end[id])
            continue;
        int64_t o = rl_cur_off(r, w, id);
        if (relayout_cover_add(&w->prof, o, o + r->size[id]))
            return false;
    }
    return true;
}

/* A change at new-order point t (2p for reference position p, 2s - 1 for a
 * changed buffer in slot s) reaches the first full buffer after it, with
 * d (NULL: only that its chain must be looked at).  False to give up. */
bool relayout_chain_event(const relayout_t *r, relayout_work_t *w, int64_t t, const rl_delta_t *d)
{
    if (!w->chain)
        return true;
    int32_t p = (int32_t)((t + 2) / 2); /* the first position p with 2p > t (t >= -1) */
    int32_t q = p <= r->n_order ? r->next_full[p] : r->n_order;
    if (q >= r->n_order)
        return true;
    int32_t id = r->order[q];
    if (d)
        return add_delta(r, w, id, d);
    mark(r, w, id);
    return true;
}

/* Keeps w->prof in the work's pool; -1 when out of memory. */
static int keep_profile(relayout_work_t *w, int32_t *off, int32_t *n)
{
    if (vec_reserve((void **)&w->pool, &w->pool_cap, (int64_t)w->pool_n + w->prof.n + 1, sizeof *w->pool))
        return -1;
    if (w->prof.n)
        memcpy(w->pool + w->pool_n, w->prof.v, (size_t)w->prof.n * sizeof *w->pool);
    *off = w->pool_n;
    *n = w->prof.n;
    w->pool_n += w->prof.n;
    return 0;
}

/* id's profile in the reference: kept, or (a full buffer's) made from its
 * checkpoint into w->lx[1]; NULL when out of memory. */
static const rl_seg_t *ref_profile(const relayout_t *r, relayout_work_t *w, int32_t id, int32_t *n)
{
    if (!r->full[id]) {
        *n = r->prof[id].n;
        return r->pool + r->prof[id].off;
    }
    if (relayout_full_c(r, r->full_rank[id], INT64_MIN, INT64_MAX, &w->lx[1], &w->lx[2], &w->lx[3]))
        return NULL;
    *n = w->lx[1].n;
    return w->lx[1].v ? w->lx[1].v : (const rl_seg_t *)w;
}

/* Whether id's deltas leave the union of its profile v[0..n) as it was:
 * every placement taken off lies where at least two cover (and no two
 * taken off overlap), every one added where the union already is. */
static bool union_kept(const relayout_work_t *w, int32_t id, const rl_seg_t *v, int32_t n)
{
    int32_t taken = 0;
    for (int32_t k = w->dhead[id]; k >= 0; k = w->deltas[k].next) {
        const rl_delta_t *d = &w->deltas[k];
        if (d->rlo < d->rhi) {
            if (++taken > 8 || !relayout_cover_has(v, n, d->rlo, d->rhi, 2))
                return false;
            for (int32_t q = w->deltas[k].next; q >= 0; q = w->deltas[q].next)
                if (w->deltas[q].rlo < d->rhi && d->rlo < w->deltas[q].rhi)
                    return false;
        }
        if (d->alo < d->ahi && !relayout_cover_has(v, n, d->alo, d->ahi, 1))
            return false;
    }
    return true;
}

/* w->prof = the profile v[0..n) with id's deltas.  1 when a count became
 * unknown, -1 when out of memory. */
int relayout_apply_deltas(relayout_work_t *w, int32_t id, const rl_seg_t *v, int32_t n)
{
    int32_t m = 0;
    for (int32_t k = w->dhead[id]; k >= 0; k = w->deltas[k].next) {
        if (vec_reserve((void **)&w->edges, &w->cap_edges, (int64_t)m + 4, sizeof *w->edges))
            return -1;
        const rl_delta_t *d = &w->deltas[k];
        if (d->rlo < d->rhi) {
            w->edges[m++] = (rl_edge_t){ d->rlo, 1, 0 };
            w->edges[m++] = (rl_edge_t){ d->rhi, -1, 0 };
        }
        if (d->alo < d->ahi) {
            w->edges[m++] = (rl_edge_t){ d->alo, 0, 1 };
            w->edges[m++] = (rl_edge_t){ d->ahi, 0, -1 };
        }
    }
    relayout_edges_sort(w->edges, m);
    return relayout_cover_apply(v, n, w->edges, m, &w->prof);
}

/* A clean buffer with deltas: re-placed when its union changed, and its
 * change handed on when it moved.  False to give up. */
bool relayout_handle_clean(const relayout_t *r, relayout_work_t *w, int32_t id, int32_t n_placed)
{
    w->stats.checked++;
    int32_t n;
    const rl_seg_t *v = ref_profile(r, w, id, &n);
    if (!v)
        return false;
    if (union_kept(w, id, v, n))
        return true;
    int rc = relayout_apply_deltas(w, id, v, n);
    w->stats.unknown += rc > 0;
    if (rc < 0 || (rc > 0 && !enumerate(r, w, r->start[id], r->end[id], 2 * (int64_t)r->pos[id], n_placed)))
        return false;
    int64_t off = relayout_cover_fit(w->prof.v, w->prof.n, r->size[id]);
    if (keep_profile(w, &w->wp[id].off, &w->wp[id].n))
        return false;
    w->built[id] = w->epoch;
    if (off == r->off[id])
        return true; /* landed where it was: the cascade stops here */
    w->stats.moved++;
    w->moved[id] = w->epoch;
    w->noff[id] = off;
    w->movedl[w->n_moved++] = id;
    rl_delta_t d = { r->off[id], r->off[id] + r->size[id], off, off + r->size[id], -1, 0 };
    int64_t t = 2 * (int64_t)r->pos[id];
    return relayout_push(r, w, r->start[id], r->end[id], t, &d) && relayout_chain_event(r, w, t, &d);
}

/* The profile v[0..n) with the window [lo, hi) taken from win, into out. */
static int compose(const rl_seg_t *v, int32_t n, const rl_seg_t *win, int32_t nwin, int64_t lo, int64_t hi,
                   rl_list_t *out)
{
    out->n = 0;
    if (relayout_cover_slice(v, n, INT64_MIN, lo, out) || relayout_cover_slice(win, nwin, lo, hi, out) ||
        relayout_cover_slice(v, n, hi, INT64_MAX, out))
        return -1;
    return 0;
}

/* A full buffer whose chain is to be looked at: its profile is the
 * previous full buffer's plus the counts of what lies between them (with
 * the deltas that came between).  Both differ from the reference only in
 * a window of offsets, so only the window is summed; the chain goes on
 * while the union over the window differs from the reference's (the
 * union is what places a buffer).  False to give up. */
bool relayout_handle_full(const relayout_t *r, relayout_work_t *w, int32_t id, int32_t n_placed)
{
    w->stats.checked++;
    w->full_touched++;
    int32_t f = r->full_rank[id], p = r->pos[id];
    int32_t prev = f > 0 ? r->order[r->full_order[f - 1]] : -1;
    bool prev_win = prev >= 0 && w->built[prev] == w->epoch;
    int64_t t = 2 * (int64_t)p, lo = prev_win ? w->wlo[prev] : INT64_MAX, hi = prev_win ? w->whi[prev] : INT64_MIN;
    for (int32_t k = w->dhead[id]; k >= 0; k = w->deltas[k].next) {
        const rl_delta_t *d = &w->deltas[k];
        if (d->rlo < d->rhi) {
            lo = d->rlo < lo ? d->rlo : lo;
            hi = d->rhi > hi ? d->rhi : hi;
        }
        if (d->alo < d->ahi) {
            lo = d->alo < lo ? d->alo : lo;
            hi = d->ahi > hi ? d->ahi : hi;
        }
    }
    if (lo >= hi)
        return true;
    const rl_seg_t *bv = r->pool + r->bprof[id].off;
    int32_t bn = r->bprof[id].n;
    if (w->dhead[id] >= 0) {
        int rc = relayout_apply_deltas(w, id, bv, bn);
        if (rc < 0)
            return false;
        if (rc > 0) { /* the counts between went unknown: its profile from its conflicts */
            if (!enumerate(r, w, r->start[id], r->end[id], t, n_placed))
                return false;
            lo = INT64_MIN;
            hi = INT64_MAX;
            goto windowed;
        }
        if (keep_profile(w, &w->wb[id].off, &w->wb[id].n))
            return false;
        w->bbuilt[id] = w->epoch;
        bv = w->pool + w->wb[id].off;
        bn = w->wb[id].n;
    }
    w->budget -= 8;
    rl_list_t *x = &w->lx[0];
    x->n = 0; /* the previous one's, over the window (none before the first) */
    if (f > 0 && relayout_full_c(r, f - 1, lo, hi, x, &w->lx[2], &w->lx[3]))
        return false;
    {
        /* the previous profile now: its own window, the reference around it */
        rl_list_t *pl = &w->sum;
        pl->n = 0;
        if (prev_win) {
            if (relayout_cover_slice(x->v, x->n, lo, w->wlo[prev], pl) ||
                relayout_cover_slice(w->pool + w->wp[prev].off, w->wp[prev].n, w->wlo[prev], w->whi[prev], pl) ||
                relayout_cover_slice(x->v, x->n, w->whi[prev], hi, pl))
                return false;
        } else if (relayout_cover_slice(x->v, x->n, lo, hi, pl)) {
            return false;
        }
        w->scratch.n = 0;
        if (relayout_cover_slice(bv, bn, lo, hi, &w->scratch))
            return false;
        const rl_list_t *two[2] = { pl, &w->scratch };
        if (relayout_cover_sum(two, 2, &w->prof, NULL))
            return false;
        w->budget -= w->prof.n + pl->n;
        if (w->budget < 0)
            return false;
    }
    /* the reference over the window: the previous one's and the between counts */
    w->scratch.n = 0;
    if (relayout_cover_slice(r->pool + r->bprof[id].off, r->bprof[id].n, lo, hi, &w->scratch))
        return false;
    {
        const rl_list_t *two[2] = { x, &w->scratch };
        if (relayout_cover_sum(two, 2, &w->sum, NULL))
            return false;
    }
    goto compare;
windowed:
    if (relayout_full_c(r, f, lo, hi, &w->sum, &w->lx[2], &w->lx[3]))
        return false;
compare:
    /* the same union: it stays, and so do the next ones' unions (their
     * counts may differ: a rebase makes them again from the between
     * counts) */
    if (relayout_cover_same_union(w->prof.v, w->prof.n, w->sum.v, w->sum.n))
        return true;
    if (keep_profile(w, &w->wp[id].off, &w->wp[id].n))
        return false;
    w->built[id] = w->epoch;
    w->wlo[id] = lo;
    w->whi[id] = hi;
    if (!relayout_chain_event(r, w, t, NULL))
        return false;
    int32_t rn;
    const rl_seg_t *rv = ref_profile(r, w, id, &rn);
    if (!rv || compose(rv, rn, w->pool + w->wp[id].off, w->wp[id].n, lo, hi, &w->prof))
        return false;
    int64_t off = relayout_cover_fit(w->prof.v, w->prof.n, r->size[id]);
    if (off == r->off[id])
        return true;
    w->stats.moved++;
    w->full_moved++;
    w->moved[id] = w->epoch;
    w->noff[id] = off;
    w->movedl[w->n_moved++] = id;
    rl_delta_t d = { r->off[id], r->off[id] + r->size[id], off, off + r->size[id], -1, 0 };
    return relayout_push(r, w, r->start[id], r->end[id], t, &d) && relayout_chain_event(r, w, t, &d);
}

/* A changed buffer present with bytes: placed from its conflicts, handed
 * on to the clean buffers after it. */
bool relayout_handle_changed(const relayout_t *r, relayout_work_t *w, int32_t k)
{
    rl_new_t *e = &w->cn[w->placed[k]];
    int64_t t = 2 * (int64_t)e->slot - 1;
    if (!enumerate(r, w, e->start, e->end, t, k))
        return false;
    e->off = relayout_cover_fit(w->prof.v, w->prof.n, e->size);
    if (keep_profile(w, &e->prof_off, &e->prof_n))
        return false;
    rl_delta_t d = { 0, 0, e->off, e->off + e->size, -1, 0 };
    return relayout_push(r, w, e->start, e->end, t, &d) && relayout_chain_event(r, w, t, &d);
}
