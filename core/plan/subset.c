#include "plan/subset.h"

#include <stdlib.h>
#include <string.h>

#include "layout/arena.h"
#include "plan/cand.h"
#include "util/checked.h"

static int cmp3(int64_t a, int64_t b) { return (a > b) - (a < b); }

int subset_compare(const subset_goal_t *g, const subset_scored_t *a, const subset_scored_t *b)
{
    int r;
    if (g->minimize) {
        r = cmp3(a->fp.total, b->fp.total);
        if (!r)
            r = cmp3(a->fp.compute, b->fp.compute);
    } else {
        bool fa = a->fp.total <= g->budget, fb = b->fp.total <= g->budget;
        if (fa != fb)
            return fa ? -1 : 1;
        if (fa) {
            r = cmp3(a->fp.compute, b->fp.compute);
            if (!r)
                r = cmp3(a->fp.total, b->fp.total);
        } else {
            r = cmp3(a->fp.total, b->fp.total);
            if (!r)
                r = cmp3(a->fp.compute, b->fp.compute);
        }
    }
    if (r)
        return r;
    for (int32_t i = 0; i < a->n && i < b->n; i++)
        if (a->nodes[i] != b->nodes[i])
            return cmp3(a->nodes[i], b->nodes[i]);
    return cmp3(a->n, b->n);
}

bool subset_bound_loses(const subset_goal_t *g, int64_t compute_lb, int64_t total_lb, const footprint_t *best)
{
    if (g->minimize)
        return total_lb > best->total || (total_lb >= best->total && compute_lb > best->compute);
    if (best->total <= g->budget) {
        if (total_lb > g->budget)
            return true;
        return compute_lb > best->compute || (compute_lb >= best->compute && total_lb > best->total);
    }
    if (total_lb <= g->budget)
        return false; /* it may fit, and any fitting subset beats best */
    return total_lb > best->total || (total_lb >= best->total && compute_lb > best->compute);
}

void subset_scorer_free(subset_scorer_t *s)
{
    if (s->own_cell)
        reuse_cell_free(s->cell);
    free(s->base);
    free(s->prefs);
    lower_free(s->l);
    free(s->cands);
    free(s->in);
    free(s->maybe);
    free(s->list_a);
    free(s->list_b);
    free(s->state);
    free(s->dmin);
    free(s->dmax);
    free(s->last);
    free(s->reads);
    free(s->diff);
    memset(s, 0, sizeof *s);
}

static int subset_lower(void *ud, lowering_t **out, const char **name, rs_error_t *err)
{
    const subset_scorer_t *s = ud;
    *name = s->owner.name ? s->owner.name : s->ctx->routine->name;
    return lower_routine(s->ctx->routine, s->ctx->bindings, out, err);
}

/* audit: kept for the callers; an audit is now a scope (reuse_with_audit)
 * that every cell in it honours, so the flag itself changes nothing. */
int subset_scorer_init(subset_scorer_t *s, const fit_context_t *ctx, const char *name, bool audit, rs_error_t *err)
{
    memset(s, 0, sizeof *s);
    if (!ctx->cfg.aliasing)
        return error_set(err, RS_EINPUT, "--no-aliasing", 0, 0,
                         "fit needs buffer_aliasing on: with it off every buffer spans the whole routine, "
                         "so no flip can relieve anything");
    s->ctx = ctx;
    s->owner = fit_owner(ctx, name);
    s->n_nodes = ctx->routine->n_nodes;
    size_t nn = (size_t)s->n_nodes + 1;
    s->thunk = (reuse_thunk_t){ subset_lower, s };
    s->cell = reuse_cell_new();
    s->own_cell = s->cell != NULL;
    s->base = calloc(nn, 1);
    s->prefs = calloc(nn, 1);
    s->state = calloc(nn, 1);
    s->dmin = calloc(nn, sizeof *s->dmin);
    s->dmax = calloc(nn, sizeof *s->dmax);
    s->last = calloc(nn, sizeof *s->last);
    s->reads = calloc(nn, sizeof *s->reads);
    if (!s->cell || !s->base || !s->prefs || !s->state || !s->dmin || !s->dmax || !s->last || !s->reads)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    fit_context_prefs(ctx, s->base);
    int rc = reuse_cell_lowering(s->cell, &s->owner, &s->thunk, &s->l, NULL, err);
    if (rc)
        return rc;
    if (!(s->diff = calloc((size_t)s->l->n_steps + 2, sizeof *s->diff)))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    score_detail_t d;
    flip_candidate_t *fc = NULL;
    int32_t n_fc = 0;
    rc = score_lowering(s->l, s->base, &ctx->cfg, &s->baseline, &d, err);
    if (!rc)
        rc = flip_candidates(s->l, &d.place, &d.live, &fc, &n_fc, err);
    score_detail_free(&d);
    if (rc)
        return rc;
    /* flip_candidates lists in definition order, which is index order */
    for (int32_t i = 0; i < n_fc; i++)
        if (fc[i].dir == FLIP_INLINE)
            fc[s->n_cands++].node = fc[i].node;
    size_t nk = (size_t)s->n_cands + 1;
    s->cands = malloc(nk * sizeof *s->cands);
    s->list_a = malloc(nk * sizeof *s->list_a);
    s->list_b = malloc(nk * sizeof *s->list_b);
    s->in = calloc(nn, 1);
    s->maybe = calloc(nn, 1);
    if (!s->cands || !s->list_a || !s->list_b || !s->in || !s->maybe) {
        free(fc);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int32_t i = 0; i < s->n_cands; i++)
        s->cands[i] = fc[i].node;
    free(fc);
    return RS_OK;
}

int subset_score(subset_scorer_t *s, const int32_t *nodes, int32_t n, footprint_t *fp, rs_error_t *err)
{
    lowering_t *l;
    int rc = reuse_cell_lowering(s->cell, &s->owner, &s->thunk, &l, NULL, err);
    if (rc)
        return rc;
    memcpy(s->prefs, s->base, (size_t)s->n_nodes);
    for (int32_t i = 0; i < n; i++)
        s->prefs[nodes[i]] = 1;
    rc = score_lowering(l, s->prefs, &s->ctx->cfg, fp, NULL, err);
    lower_free(l);
    return rc;
}

/* ---- the bound ------------------------------------------------------------

   Why it holds.  Fix a branch: every subset T with IN ⊆ T ⊆ IN ∪ MAYBE.
   The virtualizer (§2) makes node i inline under T iff i is preferred (the
   context's preferences, @inline, or T), legal (not resident, @output,
   @pinned or accumulated) and depth_T(i) = 1 + max over the arguments b of
   i's definition that are inline under T of depth_T(b) is at most the
   limit.  We classify each node, in index order (an argument's index is
   below its reader's), as MAT, INL or EITHER, with depth bounds dmin, dmax,
   and claim for every T of the branch: MAT nodes are materialized under T,
   INL nodes inline, and an inline node's depth lies in [dmin, dmax].  By
   induction on the index: the inline arguments of i under T include every
   INL argument and lie among the INL and EITHER ones, so depth_T(i) lies in
   [1 + max over INL args of dmin, 1 + max over INL or EITHER args of dmax].
   A node no T prefers, or illegal, is MAT; dmin above the limit makes it
   MAT (rejected under every T); preferred by every T (not just by MAYBE)
   with dmax within the limit makes it INL; anything else is EITHER.  Note
   that this holds although placement is not monotone in T: adding a flip
   can deepen a chain and push a later node over the depth limit, which is
   why a plain "compute(IN) is a bound" would be wrong.

   Reads.  R_T(i) = Σ over the steps s reading i (with repeats) of (o =
   owner(s) inline ? R_T(o) : 1), and the last effective read L_T(i) = max
   over them of (o inline ? L_T(o) : s).  An inline owner has a single
   definition after i's, so o > i, and in reverse index order we bound each
   term from below by the least it can be: MAT owner 1 and s; INL owner
   Rlb(o) and Llb(o); EITHER owner min(1, Rlb(o)) and min(s, Llb(o)).  A max
   and a (saturating) sum of terms each at least its bound are at least the
   max and sum of the bounds, so R_T(i) >= Rlb(i) and L_T(i) >= Llb(i).  Note
   that R and L are not monotone in the inline set either: an inline owner
   nobody reads has R = 0 and L = -1, so inlining it can lower the compute
   and shorten spans; the min() terms are what keep the bound valid there.

   Compute.  footprint.compute = Σ over steps s of t × cost(s), t = 1 for a
   materialized owner and R_T(owner) for an inline one; the bound takes t =
   1, Rlb, min(1, Rlb) for MAT, INL, EITHER owners.  sat_mul and sat_add are
   monotone in non-negative arguments, so compute_lb <= compute(T).

   Total.  Every MAT node is a buffer under T with start = its first
   definition (0 when resident) and end >= max(last definition, Llb) (S-1
   when resident or @output), so at every step the live aligned bytes of T
   are at least the MAT nodes' over those shorter spans.  A layout gives the
   buffers live at a step disjoint ranges below its height, so total(T) >=
   live_peak(T) >= total_lb.  EITHER and INL nodes are left out (they may be
   inline). */

enum { ST_MAT, ST_INL, ST_EITHER };

static bool legal_inline(const lowering_t *l, int32_t i)
{
    return lower_role(l, i) == LOWER_CANDIDATE && l->ndefs[i] <= 1;
}

void subset_bound(subset_scorer_t *s, const uint8_t *in, const uint8_t *maybe, int64_t *compute_lb,
                  int64_t *total_lb)
{
    const lowering_t *l = s->l;
    int32_t N = l->n_nodes, S = l->n_steps, limit = s->ctx->cfg.max_inline_depth;
    uint8_t *st = s->state;
    for (int32_t i = 0; i < N; i++) {
        st[i] = ST_MAT;
        bool every = s->base[i] || (l->flags[i] & FLAG_INLINE) || in[i];
        if (!(every || maybe[i]) || !legal_inline(l, i))
            continue;
        int32_t lo = 0, hi = 0, d = l->first_def[i];
        for (int32_t a = l->arg_off[d]; a < l->arg_off[d + 1]; a++) {
            int32_t b = l->args[a];
            if (st[b] == ST_INL && s->dmin[b] > lo)
                lo = s->dmin[b];
            if (st[b] != ST_MAT && s->dmax[b] > hi)
                hi = s->dmax[b];
        }
        s->dmin[i] = 1 + lo;
        s->dmax[i] = 1 + hi;
        if (s->dmin[i] > limit)
            continue;
        st[i] = every && s->dmax[i] <= limit ? ST_INL : ST_EITHER;
    }
    for (int32_t i = N - 1; i >= 0; i--) {
        int64_t r = 0;
        int32_t last = -1;
        for (int32_t k = l->rd_off[i]; k < l->rd_off[i + 1]; k++) {
            int32_t step = l->rd_step[k], o = l->step_owner[step];
            int64_t tr = 1;
            int32_t tl = step;
            if (st[o] == ST_INL) {
                tr = s->reads[o];
                tl = s->last[o];
            } else if (st[o] == ST_EITHER) {
                tr = s->reads[o] < 1 ? s->reads[o] : 1;
                tl = s->last[o] < step ? s->last[o] : step;
            }
            r = sat_add(r, tr);
            if (tl > last)
                last = tl;
        }
        s->reads[i] = r;
        s->last[i] = last;
    }
    int64_t compute = 0;
    for (int32_t step = 0; step < S; step++) {
        int32_t o = l->step_owner[step];
        int64_t t = st[o] == ST_INL ? s->reads[o] : st[o] == ST_EITHER && s->reads[o] < 1 ? s->reads[o] : 1;
        compute = sat_add(compute, sat_mul(t, l->step_cost[step]));
    }
    *compute_lb = compute;
    int32_t final_step = S > 0 ? S - 1 : 0;
    memset(s->diff, 0, ((size_t)S + 2) * sizeof *s->diff);
    for (int32_t i = 0; i < N; i++) {
        if (st[i] != ST_MAT)
            continue;
        int64_t a = arena_align(l->bytes[i], s->ctx->cfg.alignment);
        if (a <= 0)
            continue; /* zero bytes, or an overflow the scoring reports */
        bool resident = lower_is_resident(l, i);
        int32_t start = resident ? 0 : l->first_def[i];
        int32_t end = resident ? final_step : l->last_def[i];
        if (s->last[i] > end)
            end = s->last[i];
        if (resident || (l->flags[i] & FLAG_OUTPUT))
            end = final_step;
        if (!checked_add(s->diff[start], a, &s->diff[start]) || !checked_sub(s->diff[end + 1], a, &s->diff[end + 1])) {
            *total_lb = 0; /* sizes beyond int64: no bound rather than a wrong one */
            return;
        }
    }
    int64_t live = 0, peak = 0;
    for (int32_t step = 0; step <= final_step; step++) {
        if (!checked_add(live, s->diff[step], &live)) {
            *total_lb = 0;
            return;
        }
        if (live > peak)
            peak = live;
    }
    *total_lb = peak;
}
