/* rescore: scorings against a reference scoring (rescore.h). */
#include "lower/rescore.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/vec.h"

struct rescore {
    score_config_t cfg;
    bool incremental;   /* greedy, aliasing on, sizes that add up in 64 bits */
    int32_t n;          /* nodes */
    int32_t steps;      /* at least 1 */
    int64_t *aligned;   /* per node */
    relayout_t *lay;
    uint8_t *present;   /* the reference's materialized nodes */
    int32_t *start, *end;
    int64_t *live;      /* live aligned bytes per step */
    int64_t *tmax;      /* a max tree over live: the value and its first step */
    int32_t *targ;
    int32_t leaves;
};

struct rescore_work {
    const rescore_t *ref;
    relayout_work_t *lay;
    arena_buf_t *bufs;  /* the last scoring's buffers */
    uint8_t *present;
    bool incremental;   /* the last scoring went through the layout's run */
    struct edge {
        int32_t step;
        int64_t delta;
    } *edges;
    int32_t cap_edges;
};

/* ---- max-live from the reference's live bytes --------------------------- */

static void tree_build(rescore_t *ref)
{
    for (int32_t i = 0; i < ref->leaves; i++) {
        ref->tmax[ref->leaves + i] = i < ref->steps ? ref->live[i] : INT64_MIN;
        ref->targ[ref->leaves + i] = i;
    }
    for (int32_t k = ref->leaves - 1; k >= 1; k--) {
        int32_t a = 2 * k, b = 2 * k + 1, c = ref->tmax[b] > ref->tmax[a] ? b : a; /* ties: the first */
        ref->tmax[k] = ref->tmax[c];
        ref->targ[k] = ref->targ[c];
    }
}

/* The largest live bytes over steps [a, b] and the first step holding it. */
static void tree_query(const rescore_t *ref, int32_t k, int32_t nl, int32_t nr, int32_t a, int32_t b, int64_t *best,
                       int32_t *at)
{
    if (b < nl || nr < a || ref->tmax[k] <= *best)
        return;
    if (a <= nl && nr <= b) {
        *best = ref->tmax[k];
        *at = ref->targ[k];
        return;
    }
    int32_t mid = nl + (nr - nl) / 2;
    tree_query(ref, 2 * k, nl, mid, a, b, best, at);
    tree_query(ref, 2 * k + 1, mid + 1, nr, a, b, best, at);
}

static int cmp_edge(const void *pa, const void *pb)
{
    const struct edge *a = pa, *b = pb;
    return (a->step > b->step) - (a->step < b->step);
}

/* arena_max_live of the new state: the reference's live bytes plus, over
 * the pieces between the changed buffers' span ends, what they change. */
static int max_live(const rescore_t *ref, rescore_work_t *w, const int32_t *changed, int32_t n_changed,
                    int64_t *peak, int32_t *peak_step)
{
    int32_t m = 0;
    if (vec_reserve((void **)&w->edges, &w->cap_edges, 4 * (int64_t)n_changed + 2, sizeof *w->edges))
        return -1;
    for (int32_t k = 0; k < n_changed; k++) {
        int32_t i = changed[k];
        int64_t a = ref->aligned[i];
        if (a <= 0)
            continue;
        if (ref->present[i]) {
            w->edges[m++] = (struct edge){ ref->start[i], -a };
            w->edges[m++] = (struct edge){ ref->end[i] + 1, a };
        }
        if (w->present[i]) {
            w->edges[m++] = (struct edge){ (int32_t)w->bufs[i].start, a };
            w->edges[m++] = (struct edge){ (int32_t)w->bufs[i].end + 1, -a };
        }
    }
    qsort(w->edges, (size_t)m, sizeof *w->edges, cmp_edge);
    int64_t best = 0, d = 0;
    int32_t at = 0, x = 0, j = 0;
    while (x < ref->steps) {
        while (j < m && w->edges[j].step <= x)
            d += w->edges[j++].delta;
        int32_t y = j < m && w->edges[j].step < ref->steps ? w->edges[j].step : ref->steps;
        int64_t v = INT64_MIN;
        int32_t s = x;
        tree_query(ref, 1, 0, ref->leaves - 1, x, y - 1, &v, &s);
        if (v + d > best) { /* strictly: the first step of the peak, as arena_max_live */
            best = v + d;
            at = s;
        }
        x = y;
    }
    *peak = best;
    *peak_step = at;
    return 0;
}

/* ---- the reference ---------------------------------------------------------- */

void rescore_free(rescore_t *ref)
{
    if (!ref)
        return;
    relayout_free(ref->lay);
    free(ref->aligned);
    free(ref->present);
    free(ref->start);
    free(ref->end);
    free(ref->live);
    free(ref->tmax);
    free(ref->targ);
    free(ref);
}

/* The reference's state for the incremental path; false (and nothing
 * kept) when the sizes overflow or memory runs out: then every scoring is
 * from scratch, which gives the same answer. */
static bool reference_state(rescore_t *ref, const lowering_t *l, const score_detail_t *d, int64_t total)
{
    int32_t N = l->n_nodes;
    size_t nn = N ? (size_t)N : 1;
    ref->aligned = malloc(nn * sizeof *ref->aligned);
    ref->present = malloc(nn);
    ref->start = malloc(nn * sizeof *ref->start);
    ref->end = malloc(nn * sizeof *ref->end);
    ref->live = calloc((size_t)ref->steps + 1, sizeof *ref->live);
    ref->leaves = 1;
    while (ref->leaves < ref->steps)
        ref->leaves *= 2;
    ref->tmax = malloc(2 * (size_t)ref->leaves * sizeof *ref->tmax);
    ref->targ = malloc(2 * (size_t)ref->leaves * sizeof *ref->targ);
    arena_buf_t *bufs = malloc(nn * sizeof *bufs);
    if (!ref->aligned || !ref->present || !ref->start || !ref->end || !ref->live || !ref->tmax || !ref->targ || !bufs) {
        free(bufs);
        return false;
    }
    int64_t sum = 0;
    for (int32_t i = 0; i < N; i++) {
        ref->aligned[i] = arena_align(l->bytes[i], ref->cfg.alignment);
        /* every subset of the buffers then sums without saturating: the
         * live bytes and the arena's top stay exact */
        if (ref->aligned[i] < 0 || !checked_add(sum, ref->aligned[i], &sum)) {
            free(bufs);
            return false;
        }
        ref->present[i] = !d->place.is_inline[i];
        ref->start[i] = ref->present[i] ? d->live.start[i] : 0;
        ref->end[i] = ref->present[i] ? d->live.end[i] : 0;
        bufs[i] = (arena_buf_t){ l->bytes[i], ref->start[i], ref->end[i] };
        if (ref->present[i]) {
            ref->live[ref->start[i]] += ref->aligned[i];
            ref->live[ref->end[i] + 1] -= ref->aligned[i];
        }
    }
    for (int32_t s = 1; s <= ref->steps; s++)
        ref->live[s] += ref->live[s - 1];
    tree_build(ref);
    rs_error_t e; /* the scoring's greedy offsets: not laid out twice */
    bool ok = relayout_new_placed(bufs, ref->present, N, ref->cfg.alignment, d->offset, total, &ref->lay, &e) == RS_OK;
    free(bufs);
    return ok;
}

int rescore_new(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, footprint_t *out,
                rescore_t **refp, rs_error_t *err)
{
    return rescore_new_detail(l, prefs, cfg, out, NULL, refp, err);
}

int rescore_new_detail(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, footprint_t *out,
                       score_detail_t *detail, rescore_t **refp, rs_error_t *err)
{
    *refp = NULL;
    if (detail)
        memset(detail, 0, sizeof *detail);
    rescore_t *ref = calloc(1, sizeof *ref);
    if (!ref)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    ref->cfg = *cfg;
    ref->n = l->n_nodes;
    ref->steps = l->n_steps > 0 ? l->n_steps : 1;
    score_detail_t d;
    int rc = score_lowering(l, prefs, cfg, out, &d, err);
    if (!rc && cfg->layout == LAYOUT_GREEDY && cfg->aliasing) {
        ref->incremental = reference_state(ref, l, &d, out->total);
        if (!ref->incremental) { /* keep nothing half made */
            relayout_free(ref->lay);
            ref->lay = NULL;
        }
    }
    if (detail)
        *detail = d;
    else
        score_detail_free(&d);
    if (rc) {
        rescore_free(ref);
        return rc;
    }
    *refp = ref;
    return RS_OK;
}

/* ---- scorings ------------------------------------------------------------------ */

void rescore_work_free(rescore_work_t *w)
{
    if (!w)
        return;
    relayout_work_free(w->lay);
    free(w->bufs);
    free(w->present);
    free(w->edges);
    free(w);
}

int rescore_work_new(const rescore_t *ref, rescore_work_t **out, rs_error_t *err)
{
    *out = NULL;
    rescore_work_t *w = calloc(1, sizeof *w);
    if (!w)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    w->ref = ref;
    if (ref->incremental) {
        size_t nn = ref->n ? (size_t)ref->n : 1;
        w->bufs = malloc(nn * sizeof *w->bufs);
        w->present = malloc(nn);
        int rc = !w->bufs || !w->present ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory")
                                         : relayout_work_new(ref->n, &w->lay, err);
        if (rc) {
            rescore_work_free(w);
            return rc;
        }
    }
    *out = w;
    return RS_OK;
}

void rescore_work_stats(const rescore_work_t *w, relayout_stats_t *out)
{
    if (w->lay)
        relayout_work_stats(w->lay, out);
    else
        memset(out, 0, sizeof *out);
}

/* The incremental scoring; RS_EINPUT asks for the scoring from scratch,
 * which says what is wrong exactly as score_lowering does. */
static int score_incremental(const rescore_t *ref, rescore_work_t *w, const lowering_t *l, const uint8_t *prefs,
                             footprint_t *out, rs_error_t *err)
{
    placement_t place;
    liveness_t live;
    memset(&live, 0, sizeof live);
    int rc = virtualizer_run(l, prefs, ref->cfg.max_inline_depth, &place, err);
    if (!rc)
        rc = live_compute(l, &place, &live, err);
    int32_t buffers = 0;
    for (int32_t i = 0; !rc && i < ref->n; i++) {
        w->present[i] = !place.is_inline[i];
        w->bufs[i] = w->present[i] ? (arena_buf_t){ l->bytes[i], live.start[i], live.end[i] }
                                   : (arena_buf_t){ l->bytes[i], ref->start[i], ref->end[i] };
        buffers += w->present[i];
    }
    int64_t height = 0;
    if (!rc) {
        rs_error_t e;
        if (relayout_run(ref->lay, w->lay, w->bufs, w->present, &height, &e))
            rc = RS_EINPUT; /* an overflow, or memory: let the scoring from scratch tell */
    }
    if (!rc) {
        int32_t n_changed;
        const int32_t *changed = relayout_changed(w->lay, &n_changed);
        int64_t peak;
        int32_t peak_step;
        if (max_live(ref, w, changed, n_changed, &peak, &peak_step))
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory scoring");
        else
            *out = (footprint_t){ height, peak, peak_step, buffers, live.compute };
    }
    virtualizer_free(&place);
    live_free(&live);
    return rc;
}

int rescore_score(const rescore_t *ref, rescore_work_t *w, const lowering_t *l, const uint8_t *prefs,
                  footprint_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    w->incremental = false;
    if (w->ref != ref)
        return error_set(err, RS_EINVAL, NULL, 0, 0, "rescore: a work scores against the reference it was made for");
    if (ref->incremental && l->n_nodes == ref->n) {
        rs_error_t e;
        error_clear(&e);
        int rc = score_incremental(ref, w, l, prefs, out, &e);
        if (rc != RS_EINPUT) {
            if (rc && err)
                *err = e;
            w->incremental = !rc;
            return rc;
        }
    }
    return score_lowering(l, prefs, &ref->cfg, out, NULL, err);
}

int rescore_prepare(rescore_t *ref, rs_error_t *err)
{
    return ref->incremental ? relayout_prepare(ref->lay, err) : RS_OK;
}

int rescore_rebase(rescore_t *ref, rescore_work_t *w, rs_error_t *err)
{
    if (w->ref != ref)
        return error_set(err, RS_EINVAL, NULL, 0, 0, "rescore: a work rebases the reference it was made for");
    if (!ref->incremental)
        return RS_OK; /* nothing kept: every scoring is from scratch */
    if (!w->incremental)
        return error_set(err, RS_EINVAL, NULL, 0, 0, "rescore rebase: the work's last scoring did not go through it");
    int32_t n_changed;
    const int32_t *changed = relayout_changed(w->lay, &n_changed);
    int rc = relayout_rebase(ref->lay, w->lay, err);
    if (rc)
        return rc;
    for (int32_t k = 0; k < n_changed; k++) {
        int32_t i = changed[k];
        int64_t a = ref->aligned[i];
        if (ref->present[i])
            for (int32_t s = ref->start[i]; s <= ref->end[i]; s++)
                ref->live[s] -= a;
        ref->present[i] = w->present[i];
        ref->start[i] = (int32_t)w->bufs[i].start;
        ref->end[i] = (int32_t)w->bufs[i].end;
        if (ref->present[i])
            for (int32_t s = ref->start[i]; s <= ref->end[i]; s++)
                ref->live[s] += a;
    }
    tree_build(ref);
    w->incremental = false; /* a rebase consumes the scoring */
    return RS_OK;
}
