/* relayout: references and workspaces, and one run against a reference
 * (relayout.h): what changed, the new order, the cascade through it
 * (relayout_cascade.c), and the layout from scratch when that is cheaper.
 * Rebasing is relayout_rebase.c. */
#include "layout/relayout.h"

#include <stdlib.h>
#include <string.h>

#include "layout/bestfit.h"
#include "layout/relayout_int.h"
#include "util/checked.h"
#include "util/vec.h"

/* ---- the reference ------------------------------------------------------- */

void relayout_free(relayout_t *r)
{
    if (!r)
        return;
    relayout_build_free(r);
    free(r->present);
    free(r->raw);
    free(r->size);
    free(r->start);
    free(r->end);
    free(r);
}

/* Sets r's buffers from (bufs, present): aligned sizes, the total. */
int relayout_set_buffers(relayout_t *r, const arena_buf_t *bufs, const uint8_t *present, rs_error_t *err)
{
    int64_t total = 0;
    for (int32_t i = 0; i < r->n; i++) {
        r->present[i] = present ? present[i] != 0 : 1;
        r->raw[i] = bufs[i].size;
        r->start[i] = bufs[i].start;
        r->end[i] = bufs[i].end;
        r->size[i] = 0;
        if (!r->present[i])
            continue;
        if (bufs[i].size < 0 || bufs[i].end < bufs[i].start)
            return error_set(err, RS_EINPUT, NULL, 0, 0, "buffer %d: negative size or empty span", (int)i);
        if ((r->size[i] = arena_align(bufs[i].size, r->alignment)) < 0)
            return error_set(err, RS_EINPUT, NULL, 0, 0, "buffer %d: size overflows when aligned", (int)i);
        if (!checked_add(total, r->size[i], &total))
            return error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
    }
    r->total = total;
    return RS_OK;
}

int relayout_new(const arena_buf_t *bufs, const uint8_t *present, int32_t n, int64_t alignment, relayout_t **out,
                 rs_error_t *err)
{
    return relayout_new_placed(bufs, present, n, alignment, NULL, 0, out, err);
}

int relayout_new_placed(const arena_buf_t *bufs, const uint8_t *present, int32_t n, int64_t alignment,
                        const int64_t *off, int64_t height, relayout_t **out, rs_error_t *err)
{
    *out = NULL;
    if (alignment < 1)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "alignment must be at least 1");
    relayout_t *r = calloc(1, sizeof *r);
    size_t nn = n ? (size_t)n : 1;
    if (r) {
        r->n = n;
        r->alignment = alignment;
        r->present = malloc(nn);
        r->raw = malloc(nn * sizeof *r->raw);
        r->size = malloc(nn * sizeof *r->size);
        r->start = malloc(nn * sizeof *r->start);
        r->end = malloc(nn * sizeof *r->end);
    }
    if (!r || !r->present || !r->raw || !r->size || !r->start || !r->end) {
        relayout_free(r);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)n);
    }
    int rc = relayout_set_buffers(r, bufs, present, err);
    if (!rc)
        rc = relayout_build(r, off, height, NULL, 0, false, err);
    if (rc) {
        relayout_free(r);
        return rc;
    }
    *out = r;
    return RS_OK;
}

int64_t relayout_height(const relayout_t *r) { return r->height; }

void relayout_ref_offsets(const relayout_t *r, int64_t *out) { memcpy(out, r->off, (size_t)r->n * sizeof *out); }

/* ---- the workspace ---------------------------------------------------------- */

void relayout_work_free(relayout_work_t *w)
{
    if (!w)
        return;
    free(w->chg);
    free(w->cidx);
    free(w->mark);
    free(w->dhead);
    free(w->moved);
    free(w->noff);
    free(w->built);
    free(w->wp);
    free(w->bbuilt);
    free(w->wb);
    free(w->bits);
    free(w->deltas);
    free(w->cn);
    free(w->placed);
    free(w->touched);
    free(w->movedl);
    free(w->changed);
    free(w->pool);
    free(w->prof.v);
    free(w->sum.v);
    free(w->scratch.v);
    for (int k = 0; k < 4; k++)
        free(w->lx[k].v);
    free(w->wlo);
    free(w->whi);
    free(w->edges);
    free(w->path);
    free(w->nodes);
    free(w->fbufs);
    free(w->fpresent);
    free(w->foff);
    relayout_engine_free(w);
    free(w);
}

int relayout_work_new(int32_t n, relayout_work_t **out, rs_error_t *err)
{
    *out = NULL;
    relayout_work_t *w = calloc(1, sizeof *w);
    size_t nn = n ? (size_t)n : 1;
    if (w) {
        w->n = n;
        w->n_eorder = -1;
        w->chg = calloc(nn, sizeof *w->chg);
        w->cidx = malloc(nn * sizeof *w->cidx);
        w->mark = calloc(nn, sizeof *w->mark);
        w->dhead = malloc(nn * sizeof *w->dhead);
        w->moved = calloc(nn, sizeof *w->moved);
        w->noff = malloc(nn * sizeof *w->noff);
        w->built = calloc(nn, sizeof *w->built);
        w->wp = malloc(nn * sizeof *w->wp);
        w->bbuilt = calloc(nn, sizeof *w->bbuilt);
        w->wb = malloc(nn * sizeof *w->wb);
        w->wlo = malloc(nn * sizeof *w->wlo);
        w->whi = malloc(nn * sizeof *w->whi);
        w->bits = calloc(nn / 64 + 1, sizeof *w->bits);
        w->placed = malloc(nn * sizeof *w->placed);
        w->touched = malloc(nn * sizeof *w->touched);
        w->movedl = malloc(nn * sizeof *w->movedl);
        w->changed = malloc(nn * sizeof *w->changed);
        w->path = malloc(70 * sizeof *w->path);
        w->nodes = malloc(140 * sizeof *w->nodes);
    }
    if (!w || !w->chg || !w->cidx || !w->mark || !w->dhead || !w->moved || !w->noff || !w->built || !w->wp || !w->bbuilt || !w->wb || !w->wlo || !w->whi ||
        !w->bits || !w->placed || !w->touched || !w->movedl || !w->changed || !w->path || !w->nodes) {
        relayout_work_free(w);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    *out = w;
    return RS_OK;
}

void relayout_work_stats(const relayout_work_t *w, relayout_stats_t *out) { *out = w->stats; }

const int32_t *relayout_changed(const relayout_work_t *w, int32_t *n)
{
    *n = w->n_cn;
    return w->changed;
}

static void next_epoch(relayout_work_t *w)
{
    if (++w->epoch == 0) { /* wrapped: every stamp is stale, forget them */
        size_t nn = w->n ? (size_t)w->n : 1;
        memset(w->chg, 0, nn * sizeof *w->chg);
        memset(w->mark, 0, nn * sizeof *w->mark);
        memset(w->moved, 0, nn * sizeof *w->moved);
        memset(w->built, 0, nn * sizeof *w->built);
        memset(w->bbuilt, 0, nn * sizeof *w->bbuilt);
        w->epoch = 1;
    }
}

static int cmp_placed_key(const rl_new_t *a, const rl_new_t *b)
{
    return rl_before(a->size, a->len, a->start, a->id, b->size, b->len, b->start, b->id) ? -1 : 1;
}

static int cmp_placed_qsort(const void *pa, const void *pb)
{
    const rl_new_t *a = *(const rl_new_t *const *)pa, *b = *(const rl_new_t *const *)pb;
    return a == b ? 0 : cmp_placed_key(a, b);
}

/* Sorts w->placed by the changed buffers' keys: by insertion when a few
 * (a cascade's), else by qsort (too many changed for a cascade). */
static int sort_placed(relayout_work_t *w)
{
    if (w->n_placed <= 32) {
        for (int32_t i = 1; i < w->n_placed; i++) {
            int32_t x = w->placed[i], j = i;
            while (j > 0 && cmp_placed_key(&w->cn[x], &w->cn[w->placed[j - 1]]) < 0) {
                w->placed[j] = w->placed[j - 1];
                j--;
            }
            w->placed[j] = x;
        }
        return 0;
    }
    const rl_new_t **v = malloc((size_t)w->n_placed * sizeof *v);
    if (!v)
        return -1;
    for (int32_t i = 0; i < w->n_placed; i++)
        v[i] = &w->cn[w->placed[i]];
    qsort(v, (size_t)w->n_placed, sizeof *v, cmp_placed_qsort);
    for (int32_t i = 0; i < w->n_placed; i++)
        w->placed[i] = (int32_t)(v[i] - w->cn);
    free(v);
    return 0;
}

/* The reference positions whose buffers come before e in the new order. */
static int32_t slot_of(const relayout_t *r, const rl_new_t *e)
{
    int32_t lo = 0, hi = r->n_order;
    while (lo < hi) {
        int32_t m = lo + (hi - lo) / 2, id = r->order[m];
        if (rl_before(r->size[id], rl_span_len(r->start[id], r->end[id]), r->start[id], id, e->size, e->len, e->start,
                      e->id))
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* Finds what differs from the reference into w->cn; RS_EINPUT for a bad
 * buffer; sets w->full when a layout from scratch is the way. */
static int diff(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                rs_error_t *err)
{
    int64_t total = r->total;
    for (int32_t id = 0; id < r->n; id++) {
        uint8_t p = present ? present[id] != 0 : 1;
        if (p == r->present[id] &&
            (!p || (bufs[id].size == r->raw[id] && bufs[id].start == r->start[id] && bufs[id].end == r->end[id])))
            continue;
        if (p && (bufs[id].size < 0 || bufs[id].end < bufs[id].start))
            return error_set(err, RS_EINPUT, NULL, 0, 0, "buffer %d: negative size or empty span", (int)id);
        if (w->n_cn == w->cap_cn && vec_reserve((void **)&w->cn, &w->cap_cn, (int64_t)w->n_cn + 1, sizeof *w->cn))
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        rl_new_t *e = &w->cn[w->n_cn];
        memset(e, 0, sizeof *e);
        e->id = id;
        e->present = p;
        e->raw = bufs[id].size;
        e->start = bufs[id].start;
        e->end = bufs[id].end;
        e->len = rl_span_len(e->start, e->end);
        e->size = p ? arena_align(e->raw, r->alignment) : 0;
        w->chg[id] = w->epoch;
        w->cidx[id] = w->n_cn;
        w->changed[w->n_cn++] = id;
        if (e->size < 0 || !checked_sub(total, r->size[id], &total) || !checked_add(total, e->size, &total))
            w->full = w->overflow = true; /* let the layout from scratch say what overflows */
    }
    if (w->n_cn > 64 + r->n_order / 8) {
        w->full = true;
        w->stats.too_many++;
    }
    return RS_OK;
}

/* The high-water mark of the run (w->cn placed, w->movedl re-placed). */
static int64_t run_height(const relayout_t *r, const relayout_work_t *w)
{
    int64_t lost = 0, top = 0;
    for (int32_t k = 0; k < w->n_cn; k++) {
        int32_t id = w->cn[k].id;
        if (r->pos[id] >= 0 && r->off[id] + r->size[id] == r->height)
            lost++;
    }
    for (int32_t k = 0; k < w->n_moved; k++) {
        int32_t id = w->movedl[k];
        if (r->off[id] + r->size[id] == r->height)
            lost++;
        if (w->noff[id] + r->size[id] > top)
            top = w->noff[id] + r->size[id];
    }
    for (int32_t k = 0; k < w->n_placed; k++) {
        const rl_new_t *e = &w->cn[w->placed[k]];
        if (e->off + e->size > top)
            top = e->off + e->size;
    }
    if (lost < r->n_top)
        return top > r->height ? top : r->height;
    for (int32_t k = 0; k < r->n_order; k++) { /* every buffer at the top went: look again */
        int32_t id = r->order[k];
        if (!rl_changed(w, id) && rl_cur_off(r, w, id) + r->size[id] > top)
            top = rl_cur_off(r, w, id) + r->size[id];
    }
    return top;
}

/* Where a run gave up: the new order's buffers before the one it was
 * handling are placed exactly (each was handled after all that comes
 * before it, or nothing before it changed), so the layout from scratch
 * keeps them and places only the rest.  upto_pos < 0: nothing is known. */
typedef struct rl_stop {
    int32_t upto_pos; /* the reference positions before it, less the changed buffers */
    int32_t upto_ci;  /* the first upto_ci changed buffers in the new order */
} rl_stop_t;

/* pin[k] and offs[k] (over the present buffers, in id order: k is the
 * bestfit's index) for the buffers before stop. */
static void pin_prefix(const relayout_t *r, const relayout_work_t *w, rl_stop_t stop, const int32_t *compact,
                       bool *pin, int64_t *offs)
{
    for (int32_t q = 0; q < stop.upto_pos && q < r->n_order; q++) {
        int32_t id = r->order[q];
        if (!rl_changed(w, id)) {
            pin[compact[id]] = true;
            offs[compact[id]] = rl_cur_off(r, w, id);
        }
    }
    for (int32_t k = 0; k < stop.upto_ci; k++) {
        const rl_new_t *e = &w->cn[w->placed[k]];
        pin[compact[e->id]] = true;
        offs[compact[e->id]] = e->off;
    }
}

/* The reference positions before every changed buffer's old and new
 * place: what no change reaches. */
static rl_stop_t untouched_prefix(const relayout_t *r, const relayout_work_t *w)
{
    int32_t upto = w->n_placed ? w->cn[w->placed[0]].slot : r->n_order;
    for (int32_t k = 0; k < w->n_cn; k++) {
        int32_t pos = r->pos[w->cn[k].id];
        if (pos >= 0 && pos < upto)
            upto = pos;
    }
    return (rl_stop_t){ upto, 0 };
}

/* The §3 greedy over the new state (kept whole for a rebase), around the
 * buffers before stop. */
static int run_full(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                    rl_stop_t stop, rs_error_t *err)
{
    if (!w->overflow)
        return relayout_run_engine(r, w, bufs, present, stop.upto_pos, stop.upto_ci, err);
    w->stats.full++;
    size_t nn = r->n ? (size_t)r->n : 1;
    if (!w->fbufs) {
        w->fbufs = malloc(nn * sizeof *w->fbufs);
        w->fpresent = malloc(nn);
        w->foff = malloc(nn * sizeof *w->foff);
        if (!w->fbufs || !w->fpresent || !w->foff) {
            w->full = true;
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    int32_t m = 0;
    int32_t *compact = malloc(nn * sizeof *compact); /* id -> bestfit's index */
    for (int32_t i = 0; compact && i < r->n; i++) {
        w->fpresent[i] = present ? present[i] != 0 : 1;
        w->foff[i] = w->fpresent[i] ? 0 : -1;
        compact[i] = -1;
        if (w->fpresent[i]) {
            compact[i] = m;
            w->fbufs[m++] = bufs[i];
        }
    }
    size_t mm = m ? (size_t)m : 1;
    int32_t *order = malloc(mm * sizeof *order);
    int64_t *offs = malloc(mm * sizeof *offs);
    bool *pin = calloc(mm, sizeof *pin);
    bestfit_t *p = NULL;
    int rc = !compact || !order || !offs || !pin ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory")
                                                 : bestfit_new(w->fbufs, m, r->alignment, &p, err);
    if (!rc) {
        if (stop.upto_pos >= 0)
            pin_prefix(r, w, stop, compact, pin, offs);
        bestfit_greedy_order(p, order);
        rc = bestfit_run_pinned(p, order, pin, offs, &w->height, err);
    }
    w->fmoved = 0;
    for (int32_t i = 0, k = 0; !rc && i < r->n; i++)
        if (w->fpresent[i]) {
            w->foff[i] = offs[k++];
            w->fmoved += r->pos[i] >= 0 && !rl_changed(w, i) && w->foff[i] != r->off[i];
        }
    memcpy(w->fbufs, bufs, (size_t)r->n * sizeof *bufs);
    w->full = true; /* after pin_prefix, which reads the run's state */
    bestfit_free(p);
    free(compact);
    free(order);
    free(offs);
    free(pin);
    return rc;
}

/* Runs a lazy reference takes without a rebase before it makes its
 * profiles: one scored again and again (try after try not taken) pays
 * them once for its cascades. */
#define RL_LAZY_RUNS 2

int relayout_prepare(relayout_t *r, rs_error_t *err)
{
    if (!r->lazy || ++r->runs_lazy <= RL_LAZY_RUNS)
        return RS_OK;
    if (relayout_materialize(r))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)r->n);
    return RS_OK;
}

int relayout_run(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                 int64_t *height, rs_error_t *err)
{
    /* a unit is a delta handed on or a placement visited, some 10-20 ns:
     * the budget is about what the layout from scratch costs */
    return relayout_run_budget(r, w, bufs, present, 16 * (int64_t)r->n_order + 4096, height, err);
}

int relayout_run_budget(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                        int64_t budget, int64_t *height, rs_error_t *err)
{
    *height = 0;
    if (w->n != r->n)
        return error_set(err, RS_EINVAL, NULL, 0, 0, "relayout work for %d buffers handed %d", (int)w->n, (int)r->n);
    next_epoch(w);
    w->n_eorder = -1;
    w->ref = r;
    w->version = r->version;
    w->full = w->overflow = false;
    w->n_cn = w->n_deltas = w->n_placed = w->n_touched = w->n_moved = w->pool_n = 0;
    w->stats.scorings++;
    w->budget = budget;
    int rc = diff(r, w, bufs, present, err);
    if (rc)
        return rc;
    /* the changed buffers' slots in the new order (the engine's layout
     * from scratch merges its order from them too) */
    for (int32_t k = 0; k < w->n_cn && !w->overflow; k++) {
        rl_new_t *e = &w->cn[k];
        if (e->present && e->size > 0) {
            e->slot = slot_of(r, e);
            w->placed[w->n_placed++] = k;
        }
    }
    if ((rc = sort_placed(w)))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (r->lazy && !w->full) { /* no profiles to cascade through */
        rc = run_full(r, w, bufs, present, untouched_prefix(r, w), err);
        *height = w->height;
        return rc;
    }
    /* the full buffers form a chain when none of them changed and every
     * changed buffer stays within the steps they cover */
    w->chain = r->n_full > 0;
    w->full_moved = w->full_touched = 0;
    for (int32_t k = 0; k < w->n_cn && w->chain; k++) {
        const rl_new_t *e = &w->cn[k];
        if (r->full[e->id] || (e->present && e->size > 0 && (e->start < r->span_lo || e->end > r->span_hi)))
            w->chain = false;
    }
    bool ok = !w->full;
    for (int32_t k = 0; k < w->n_cn && ok; k++) { /* the old placements go */
        int32_t id = w->cn[k].id;
        if (r->pos[id] < 0)
            continue;
        rl_delta_t d = { r->off[id], r->off[id] + r->size[id], 0, 0, -1, 0 };
        int64_t t = 2 * (int64_t)r->pos[id];
        ok = relayout_push(r, w, r->start[id], r->end[id], t, &d) && relayout_chain_event(r, w, t, &d);
    }
    /* the new order: the reference positions with deltas, and the changed
     * buffers between them; each handled after all that comes before it */
    int32_t ci = 0, from = 0, words = r->n_order / 64 + 1;
    rl_stop_t stop = { -1, 0 };
    while (ok) {
        int32_t q = r->n_order;
        for (int32_t wd = from >> 6; wd < words; wd++) {
            uint64_t b = w->bits[wd] & (wd == from >> 6 ? ~(uint64_t)0 << (from & 63) : ~(uint64_t)0);
            if (b) {
                q = wd * 64 + __builtin_ctzll(b);
                break;
            }
        }
        if (ci < w->n_placed && w->cn[w->placed[ci]].slot <= q) {
            stop = (rl_stop_t){ w->cn[w->placed[ci]].slot, ci };
            ok = relayout_handle_changed(r, w, ci);
            ci++;
            continue;
        }
        if (q >= r->n_order)
            break;
        w->bits[q >> 6] &= ~((uint64_t)1 << (q & 63));
        from = q + 1;
        int32_t id = r->order[q];
        stop = (rl_stop_t){ q, ci };
        ok = w->chain && r->full[id] ? relayout_handle_full(r, w, id, ci) : relayout_handle_clean(r, w, id, ci);
    }
    if (!ok) { /* gave up: clear what is left marked and lay out from scratch */
        memset(w->bits, 0, (size_t)words * sizeof *w->bits);
        w->stats.gave_up += !w->full;
        rc = run_full(r, w, bufs, present, stop, err);
        *height = w->height;
        return rc;
    }
    w->height = run_height(r, w);
    w->stats.deltas += w->n_deltas;
    *height = w->height;
    return RS_OK;
}

void relayout_offsets(const relayout_t *r, const relayout_work_t *w, int64_t *out)
{
    if (w->full) {
        memcpy(out, w->foff, (size_t)r->n * sizeof *out);
        return;
    }
    memcpy(out, r->off, (size_t)r->n * sizeof *out);
    for (int32_t k = 0; k < w->n_moved; k++)
        out[w->movedl[k]] = w->noff[w->movedl[k]];
    for (int32_t k = 0; k < w->n_cn; k++) {
        const rl_new_t *e = &w->cn[k];
        out[e->id] = !e->present ? -1 : e->size > 0 ? e->off : 0;
    }
}
