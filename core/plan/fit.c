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

int fit_score_set(search_t *s, const rescore_t *ref, rescore_work_t *work, const int32_t *extra, int32_t n,
                  footprint_t *fp, rs_error_t *err)
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
    rc = ref && work ? rescore_score(ref, work, l, prefs, fp, err) : score_lowering(l, prefs, &s->ctx->cfg, fp, NULL, err);
    free(prefs);
    lower_free(l);
    return rc;
}

void fit_stage(const search_t *s, fit_stage_t stage, int32_t n)
{
    if (s->opt->stage)
        s->opt->stage(s->opt->stage_ud, stage, s->plan_index, s->progress_done, n);
}

/* ---- what the budgets share ------------------------------------------------ */

/* Whether scorings go through references (the greedy's incremental path;
 * other layouts score from scratch either way). */
static bool incremental(const search_t *s)
{
    return !s->opt->full_scoring && s->ctx->cfg.layout == LAYOUT_GREEDY;
}

/* The baseline scoring (its lowering kept for references), round one's
 * reference, and the Inline candidates, cheapest first. */
static int shared_baseline(search_t *s, rs_error_t *err)
{
    fit_shared_t *sh = s->sh;
    int rc = reuse_cell_lowering(s->cell, &s->owner, &s->thunk, &sh->base, NULL, err);
    if (rc)
        return rc;
    score_detail_t d;
    rc = incremental(s) ? rescore_new_detail(sh->base, s->base_prefs, &s->ctx->cfg, &sh->baseline, &d, &sh->ref1, err)
                        : score_lowering(sh->base, s->base_prefs, &s->ctx->cfg, &sh->baseline, &d, err);
    if (!rc)
        rc = flip_candidates(sh->base, &d.place, &d.live, &sh->cand, &sh->n_cand, err);
    score_detail_free(&d);
    if (rc)
        return rc;
    int32_t m = 0; /* only the Inline direction is a demotion */
    for (int32_t i = 0; i < sh->n_cand; i++)
        if (sh->cand[i].dir == FLIP_INLINE)
            sh->cand[m++] = sh->cand[i];
    sh->n_cand = m;
    flip_candidates_cut(sh->cand, m, -1); /* cheapest first: each budget's cut is a prefix */
    return RS_OK;
}

/* The cap's cheapest kept for budget spec, or -1 when the budget needs no
 * round one (met by the baseline) or cannot be resolved (its plan says
 * why). */
static int32_t kept_for(const search_t *s, const budget_spec_t *spec)
{
    int64_t bytes;
    bool minimize;
    rs_error_t e;
    if (units_budget_resolve(spec, s->sh->baseline.total, s->opt->device_bytes, &bytes, &minimize, &e))
        return -1;
    if (!minimize && s->sh->baseline.total <= bytes)
        return -1;
    int32_t cap = fit_cap(s->opt, minimize);
    return cap < 0 || cap > s->sh->n_cand ? s->sh->n_cand : cap;
}

/* Solo scores for the first `upto` candidates (round one, once). */
static int shared_solos(search_t *s, int32_t upto, rs_error_t *err)
{
    fit_shared_t *sh = s->sh;
    if (upto <= sh->n_solo)
        return RS_OK;
    int64_t *solo = realloc(sh->solo, (size_t)upto * sizeof *solo);
    int32_t *nodes = malloc((size_t)upto * sizeof *nodes);
    if (!solo || !nodes) {
        if (solo)
            sh->solo = solo;
        free(nodes);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    sh->solo = solo;
    for (int32_t i = sh->n_solo; i < upto; i++)
        nodes[i - sh->n_solo] = sh->cand[i].node;
    int rc = fit_score_solo(s, nodes, upto - sh->n_solo, solo + sh->n_solo, err);
    if (!rc)
        sh->n_solo = upto;
    free(nodes);
    return rc;
}

static int cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

int fit_slot_new(search_t *s, fit_group_t *g, const int32_t *flips, int32_t n, rs_error_t *err)
{
    fit_slot_t *sl = &g->slot[g->n_slots];
    memset(sl, 0, sizeof *sl);
    int rc = RS_OK;
    if (s->sh->ref1) { /* the first takes over round one's reference (the baseline) */
        sl->ref = s->sh->ref1;
        s->sh->ref1 = NULL;
    } else {
        uint8_t *prefs = malloc((size_t)s->n_nodes + 1);
        if (!prefs)
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        memcpy(prefs, s->base_prefs, (size_t)s->n_nodes);
        for (int32_t i = 0; i < n; i++)
            prefs[flips[i]] = 1;
        footprint_t fp;
        rc = rescore_new(s->sh->base, prefs, &s->ctx->cfg, &fp, &sl->ref, err);
        free(prefs);
    }
    if (!rc && !(rc = rescore_work_new(sl->ref, &sl->work[0], err)))
        rc = rescore_work_new(sl->ref, &sl->work[1], err);
    if (!rc && !(sl->state = malloc(((size_t)n + 1) * sizeof *sl->state)))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc) {
        if (n)
            memcpy(sl->state, flips, (size_t)n * sizeof *flips);
        qsort(sl->state, (size_t)n, sizeof *sl->state, cmp_i32);
        sl->n_state = sl->cap_state = n;
    }
    g->n_slots++; /* freed with the group, made whole or not */
    return rc;
}

void fit_group_free(fit_group_t *g)
{
    for (int32_t i = 0; i < g->n_slots; i++) {
        rescore_work_free(g->slot[i].work[0]);
        rescore_work_free(g->slot[i].work[1]);
        rescore_free(g->slot[i].ref);
        free(g->slot[i].state);
    }
    free(g->tries);
}

/* The round-two group of candidate lists of kept candidates; its first
 * reference is round one's (or the baseline again). */
static int shared_group(search_t *s, int32_t kept, fit_group_t **out, rs_error_t *err)
{
    fit_shared_t *sh = s->sh;
    for (int32_t i = 0; i < sh->n_groups; i++)
        if (sh->groups[i].kept == kept) {
            *out = &sh->groups[i];
            return RS_OK;
        }
    fit_group_t *ng = realloc(sh->groups, ((size_t)sh->n_groups + 1) * sizeof *ng);
    if (!ng)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    sh->groups = ng;
    fit_group_t *g = &ng[sh->n_groups++];
    memset(g, 0, sizeof *g);
    g->kept = kept;
    *out = g;
    return incremental(s) ? fit_slot_new(s, g, NULL, 0, err) : RS_OK;
}

static void shared_free(fit_shared_t *sh)
{
    lower_free(sh->base);
    free(sh->cand);
    free(sh->solo);
    rescore_free(sh->ref1);
    for (int32_t i = 0; i < sh->n_groups; i++)
        fit_group_free(&sh->groups[i]);
    free(sh->groups);
}

/* ---- fit ------------------------------------------------------------------- */

/* One budget's plan into s->plan; most_kept is the largest round one any
 * budget from this one on needs (so round one runs once, for all). */
static int plan_search(search_t *s, const budget_spec_t *spec, int32_t most_kept, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    const fit_options_t *opt = s->opt;
    fit_shared_t *sh = s->sh;
    const flip_candidate_t *cand = sh->cand;
    int32_t n_cand = sh->n_cand;
    p->baseline = sh->baseline;
    fit_event_t ev = fit_event(EV_BASELINE, 0, -1);
    ev.cur = p->baseline.total;
    int rc = fit_emit(s, ev, NULL, 0, err);
    if (rc)
        return rc;
    bool minimize;
    if ((rc = units_budget_resolve(spec, p->baseline.total, opt->device_bytes, &p->budget, &minimize, err)))
        return rc;
    p->minimize = minimize;
    p->final = p->baseline;
    if (!minimize && p->baseline.total <= p->budget) {
        fit_stage(s, FIT_STAGE_BUDGET_MET, 0);
        ev = fit_event(EV_BUDGET_MET, 0, -1);
        ev.cur = p->baseline.total;
        return fit_emit(s, ev, NULL, 0, err);
    }
    /* step 1: keep the cap's cheapest */
    p->cap = fit_cap(opt, minimize);
    int32_t kept = p->cap < 0 || p->cap > n_cand ? n_cand : p->cap;
    p->dropped = n_cand - kept;
    p->cands = calloc((size_t)(n_cand ? n_cand : 1), sizeof *p->cands);
    ranked_t *order = malloc((size_t)(kept ? kept : 1) * sizeof *order);
    if (!p->cands || !order) {
        free(order);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int32_t i = 0; i < n_cand && !rc; i++) {
        ev = fit_event(i < kept ? EV_KEPT : EV_DROPPED, 1, cand[i].node);
        ev.cost = cand[i].cost_bound;
        rc = fit_emit(s, ev, NULL, 0, err);
    }
    /* step 2: round one (scored once for the sweep) */
    int32_t solos = sh->n_solo >= kept ? 0 : (most_kept > kept ? most_kept : kept) - sh->n_solo;
    s->progress_total = s->progress_done + solos + kept;
    if (!rc && solos > 0)
        fit_stage(s, FIT_STAGE_ROUND_ONE, solos);
    if (!rc)
        rc = shared_solos(s, most_kept > kept ? most_kept : kept, err);
    p->considered = kept;
    const int64_t *solo = sh->solo;
    for (int32_t i = 0; i < kept && !rc; i++) {
        order[i] = (ranked_t){ cand[i].node, p->baseline.total - solo[i], cand[i].cost_bound };
        ev = fit_event(EV_SOLO, 1, cand[i].node);
        ev.alone = solo[i];
        ev.cur = p->baseline.total;
        ev.relief = order[i].relief;
        ev.cost = cand[i].cost_bound;
        rc = fit_emit(s, ev, NULL, 0, err);
    }
    if (rc) {
        free(order);
        return rc;
    }
    qsort(order, (size_t)kept, sizeof *order, fit_cmp_ranked);
    for (int32_t i = 0; i < n_cand; i++) /* the kept ones' solo scores, by node */
        s->cand_of[cand[i].node] = i;
    for (int32_t i = 0; i < kept; i++) {
        int32_t k = s->cand_of[order[i].node];
        p->cands[i] = (fit_cand_t){ .node = order[i].node, .rank = i + 1, .cost = order[i].cost, .solo = solo[k],
                                    .relief = order[i].relief, .status = ST_PENDING };
    }
    for (int32_t i = 0; i < kept; i++)
        s->cand_of[order[i].node] = i;
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
    fit_group_t *g = NULL;
    if (!rc)
        rc = shared_group(s, kept, &g, err);
    if (!rc)
        fit_stage(s, FIT_STAGE_ROUND_TWO, kept);
    if (!rc)
        rc = fit_round_two(s, order, kept, g, err);
    free(order);
    return rc;
}

/* A fresh plan for s, and what a plan's search keeps per plan reset. */
static int plan_begin(search_t *s, rs_error_t *err)
{
    s->plan = calloc(1, sizeof *s->plan);
    if (!s->plan)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    s->plan->routine = s->ctx->routine;
    s->plan->cap = -1;
    s->plan->budget = -1;
    s->cap_events = s->cap_members = s->cap_flips = 0;
    memset(s->recent, 0, sizeof s->recent);
    for (int32_t i = 0; i < s->n_nodes; i++)
        s->cand_of[i] = -1;
    return RS_OK;
}

static int plan_end(search_t *s, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    p->within_budget = p->minimize || p->final.total <= p->budget;
    fit_event_t ev = fit_event(EV_END, 2, -1);
    ev.cur = p->final.total;
    int rc = fit_emit(s, ev, NULL, 0, err);
    reuse_cell_counters(s->cell, &p->reused, &p->lowered);
    return rc;
}

int fit_sweep(const fit_options_t *opt, const budget_spec_t *budgets, int32_t n, const fit_context_t *ctx,
              reuse_cell_t *cell, fit_plan_t **plans, rs_error_t *err)
{
    for (int32_t i = 0; i < n; i++)
        plans[i] = NULL;
    int rc = fit_check_aliasing(ctx, err);
    if (rc)
        return rc;
    fit_shared_t sh = { 0 };
    search_t s = { .opt = opt, .ctx = ctx, .owner = fit_owner(ctx, opt->name), .n_nodes = ctx->routine->n_nodes,
                   .sh = &sh };
    s.thunk = (reuse_thunk_t){ fit_lower, &s };
    reuse_cell_t *own_cell = NULL;
    if (!cell) {
        cell = own_cell = reuse_cell_new();
        if (!cell)
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    s.cell = cell;
    s.base_prefs = calloc((size_t)s.n_nodes + 1, 1);
    s.cand_of = malloc(((size_t)s.n_nodes + 1) * sizeof *s.cand_of);
    int32_t *most = malloc(((size_t)n + 1) * sizeof *most);
    rc = !s.base_prefs || !s.cand_of || !most ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory") : RS_OK;
    if (!rc) {
        fit_context_prefs(ctx, s.base_prefs);
        fit_stage(&s, FIT_STAGE_BASELINE, 0);
        rc = shared_baseline(&s, err);
    }
    /* the most any budget from i on needs of round one */
    for (int32_t i = n - 1; !rc && i >= 0; i--) {
        int32_t k = kept_for(&s, &budgets[i]);
        most[i] = i + 1 < n && most[i + 1] > k ? most[i + 1] : k;
    }
    for (int32_t i = 0; i < n && !rc; i++) {
        s.plan_index = i;
        if (!(rc = plan_begin(&s, err)))
            rc = plan_search(&s, &budgets[i], most[i], err);
        if (!rc)
            rc = plan_end(&s, err);
        if (!rc) /* from the baseline's lowering, past the counters: the floors are no scoring of the search */
            rc = fit_floors(s.plan, sh.base, s.base_prefs, &ctx->cfg, err);
        plans[i] = s.plan;
        s.plan = NULL;
        if (!rc && opt->plan_done)
            opt->plan_done(opt->plan_done_ud, i, plans[i]);
    }
    if (rc)
        for (int32_t i = 0; i < n; i++) {
            fit_plan_free(plans[i]);
            plans[i] = NULL;
        }
    shared_free(&sh);
    free(most);
    free(s.base_prefs);
    free(s.cand_of);
    reuse_cell_free(own_cell);
    return rc;
}

int fit_run(const fit_options_t *opt, const fit_context_t *ctx, reuse_cell_t *cell, fit_plan_t **out,
            rs_error_t *err)
{
    return fit_sweep(opt, &opt->budget, 1, ctx, cell, out, err);
}
