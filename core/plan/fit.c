#include "plan/fit.h"

#include <stdlib.h>
#include <string.h>

#include "plan/cand.h"
#include "plan/fit_int.h"

/* ---- contexts ------------------------------------------------------------ */

static int context_new(const fit_context_t *parent, const routine_t *r, const bindings_t *b,
                       const score_config_t *cfg, const int32_t *prefs, int32_t n, fit_context_t **out,
                       rs_error_t *err)
{
    *out = NULL;
    fit_context_t *c = calloc(1, sizeof *c);
    if (!c || !(c->prefs = malloc((n ? (size_t)n : 1) * sizeof *prefs))) {
        free(c);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    c->parent = parent;
    c->routine = r;
    c->bindings = b;
    c->cfg = *cfg;
    if (n)
        memcpy(c->prefs, prefs, (size_t)n * sizeof *prefs);
    c->n_prefs = n;
    *out = c;
    return RS_OK;
}

int fit_context_root(const routine_t *r, const bindings_t *b, const score_config_t *cfg, const int32_t *prefs,
                     int32_t n_prefs, fit_context_t **out, rs_error_t *err)
{
    return context_new(NULL, r, b, cfg, prefs, n_prefs, out, err);
}

int fit_context_child(const fit_context_t *ctx, const fit_plan_t *p, fit_context_t **out, rs_error_t *err)
{
    int32_t *nodes = malloc((p->n_flips ? (size_t)p->n_flips : 1) * sizeof *nodes);
    if (!nodes)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; i < p->n_flips; i++)
        nodes[i] = p->flips[i].node;
    int rc = context_new(ctx, ctx->routine, ctx->bindings, &ctx->cfg, nodes, p->n_flips, out, err);
    free(nodes);
    return rc;
}

void fit_context_free(fit_context_t *c)
{
    if (!c)
        return;
    free(c->prefs);
    free(c);
}

void fit_context_prefs(const fit_context_t *c, uint8_t *out)
{
    for (; c; c = c->parent)
        for (int32_t i = 0; i < c->n_prefs; i++)
            out[c->prefs[i]] = 1;
}

reuse_owner_t fit_owner(const fit_context_t *ctx, const char *name)
{
    return (reuse_owner_t){ ctx, ctx->routine, ctx->bindings, name };
}

/* ---- scoring -------------------------------------------------------------- */

/* The thunk a fit hands its reuse cell. */
static int fit_lower(void *ud, lowering_t **out, const char **name, rs_error_t *err)
{
    const search_t *s = ud;
    *name = s->opt->name ? s->opt->name : s->ctx->routine->name;
    return lower_routine(s->ctx->routine, s->ctx->bindings, out, err);
}

/* score(context + extra[0..n)), through the reuse cell.  Thread-safe. */
int fit_score_set(search_t *s, const int32_t *extra, int32_t n, footprint_t *fp, rs_error_t *err)
{
    lowering_t *l;
    int rc = s->opt->relower ? lower_routine(s->ctx->routine, s->ctx->bindings, &l, err)
                             : reuse_cell_lowering(s->cell, &s->owner, &s->thunk, &l, NULL, err);
    if (rc)
        return rc;
    uint8_t *prefs = malloc((size_t)s->n_nodes + 1);
    if (!prefs) {
        lower_free(l);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    memcpy(prefs, s->base_prefs, (size_t)s->n_nodes);
    for (int32_t i = 0; i < n; i++)
        prefs[extra[i]] = 1;
    rc = score_lowering(l, prefs, &s->ctx->cfg, fp, NULL, err);
    free(prefs);
    lower_free(l);
    return rc;
}

/* ---- fit ------------------------------------------------------------------- */

static int candidates_of_baseline(search_t *s, flip_candidate_t **out, int32_t *n, rs_error_t *err)
{
    lowering_t *l;
    int rc = reuse_cell_lowering(s->cell, &s->owner, &s->thunk, &l, NULL, err);
    if (rc)
        return rc;
    footprint_t fp;
    score_detail_t d;
    rc = score_lowering(l, s->base_prefs, &s->ctx->cfg, &fp, &d, err);
    if (!rc) {
        s->plan->baseline = fp;
        rc = flip_candidates(l, &d.place, &d.live, out, n, err);
    }
    score_detail_free(&d);
    lower_free(l);
    if (rc)
        return rc;
    int32_t m = 0; /* only the Inline direction is a demotion */
    for (int32_t i = 0; i < *n; i++)
        if ((*out)[i].dir == FLIP_INLINE)
            (*out)[m++] = (*out)[i];
    *n = m;
    return RS_OK;
}

static int plan_search(search_t *s, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    const fit_options_t *opt = s->opt;
    flip_candidate_t *cand = NULL;
    int32_t n_cand = 0;
    int rc = candidates_of_baseline(s, &cand, &n_cand, err);
    if (rc)
        return rc;
    fit_event_t ev = fit_event(EV_BASELINE, 0, -1);
    ev.cur = p->baseline.total;
    if ((rc = fit_emit(s, ev, NULL, 0, err)))
        goto done;
    bool minimize;
    if ((rc = units_budget_resolve(&opt->budget, p->baseline.total, opt->device_bytes, &p->budget, &minimize, err)))
        goto done;
    p->minimize = minimize;
    p->final = p->baseline;
    if (!minimize && p->baseline.total <= p->budget) {
        ev = fit_event(EV_BUDGET_MET, 0, -1);
        ev.cur = p->baseline.total;
        rc = fit_emit(s, ev, NULL, 0, err);
        goto done;
    }
    /* step 1: keep the cap's cheapest */
    p->cap = fit_cap(opt, minimize);
    int32_t kept = flip_candidates_cut(cand, n_cand, p->cap);
    p->dropped = n_cand - kept;
    p->cands = calloc((size_t)(n_cand ? n_cand : 1), sizeof *p->cands);
    int32_t *nodes = malloc((size_t)(kept ? kept : 1) * sizeof *nodes);
    int64_t *solo = malloc((size_t)(kept ? kept : 1) * sizeof *solo);
    ranked_t *order = malloc((size_t)(kept ? kept : 1) * sizeof *order);
    if (!p->cands || !nodes || !solo || !order) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        goto done2;
    }
    for (int32_t i = 0; i < n_cand && !rc; i++) {
        ev = fit_event(i < kept ? EV_KEPT : EV_DROPPED, 1, cand[i].node);
        ev.cost = cand[i].cost_bound;
        rc = fit_emit(s, ev, NULL, 0, err);
        if (i < kept)
            nodes[i] = cand[i].node;
    }
    /* step 2: round one */
    s->progress_total = 2 * kept;
    if (!rc)
        rc = fit_score_solo(s, nodes, kept, solo, err);
    p->considered = kept;
    for (int32_t i = 0; i < kept && !rc; i++) {
        order[i] = (ranked_t){ nodes[i], p->baseline.total - solo[i], cand[i].cost_bound };
        ev = fit_event(EV_SOLO, 1, nodes[i]);
        ev.alone = solo[i];
        ev.cur = p->baseline.total;
        ev.relief = order[i].relief;
        ev.cost = cand[i].cost_bound;
        rc = fit_emit(s, ev, NULL, 0, err);
    }
    if (rc)
        goto done2;
    qsort(order, (size_t)kept, sizeof *order, fit_cmp_ranked);
    for (int32_t i = 0; i < kept; i++) {
        int32_t k = 0;
        while (nodes[k] != order[i].node)
            k++;
        p->cands[i] = (fit_cand_t){ .node = order[i].node, .rank = i + 1, .cost = order[i].cost, .solo = solo[k],
                                    .relief = order[i].relief, .status = ST_PENDING };
        s->cand_of[order[i].node] = i;
    }
    for (int32_t i = kept; i < n_cand; i++) {
        p->cands[i] = (fit_cand_t){ .node = cand[i].node, .cost = cand[i].cost_bound, .solo = -1, .status = ST_DROPPED };
        s->cand_of[cand[i].node] = i;
    }
    p->n_cands = n_cand;
    for (int32_t i = 0; i < kept && !rc; i++) {
        ev = fit_event(EV_ORDER, 1, order[i].node);
        ev.rank = i + 1;
        ev.relief = order[i].relief;
        ev.cost = order[i].cost;
        rc = fit_emit(s, ev, NULL, 0, err);
    }
    /* step 3: round two */
    if (!rc)
        rc = fit_round_two(s, order, kept, err);
done2:
    free(nodes);
    free(solo);
    free(order);
done:
    free(cand);
    return rc;
}

int fit_run(const fit_options_t *opt, const fit_context_t *ctx, reuse_cell_t *cell, fit_plan_t **out,
            rs_error_t *err)
{
    *out = NULL;
    int rc = fit_check_aliasing(ctx, err);
    if (rc)
        return rc;
    search_t s = { .opt = opt, .ctx = ctx, .owner = fit_owner(ctx, opt->name), .n_nodes = ctx->routine->n_nodes };
    s.thunk = (reuse_thunk_t){ fit_lower, &s };
    reuse_cell_t *own_cell = NULL;
    if (!cell) {
        cell = own_cell = reuse_cell_new();
        if (!cell)
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    s.cell = cell;
    s.plan = calloc(1, sizeof *s.plan);
    s.base_prefs = calloc((size_t)s.n_nodes + 1, 1);
    s.cand_of = malloc(((size_t)s.n_nodes + 1) * sizeof *s.cand_of);
    if (!s.plan || !s.base_prefs || !s.cand_of) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    } else {
        for (int32_t i = 0; i < s.n_nodes; i++)
            s.cand_of[i] = -1;
        fit_context_prefs(ctx, s.base_prefs);
        s.plan->routine = ctx->routine;
        s.plan->cap = -1;
        s.plan->budget = -1;
        rc = plan_search(&s, err);
    }
    if (!rc) {
        fit_plan_t *p = s.plan;
        p->within_budget = p->minimize || p->final.total <= p->budget;
        fit_event_t ev = fit_event(EV_END, 2, -1);
        ev.cur = p->final.total;
        rc = fit_emit(&s, ev, NULL, 0, err);
        reuse_cell_counters(cell, &p->reused, &p->lowered);
        if (!rc) /* from the baseline's lowering, past the counters: the floors are no scoring of the search */
            rc = fit_floors(p, reuse_cell_snapshot(cell), s.base_prefs, &ctx->cfg, err);
    }
    free(s.base_prefs);
    free(s.cand_of);
    reuse_cell_free(own_cell);
    if (rc) {
        fit_plan_free(s.plan);
        return rc;
    }
    *out = s.plan;
    return RS_OK;
}
