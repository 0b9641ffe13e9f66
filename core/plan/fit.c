#include "plan/fit.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/cand.h"
#include "util/vec.h"

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

/* ---- the search ---------------------------------------------------------- */

/* a run of plan->members */
typedef struct range {
    int32_t off, n;
} range_t;

typedef struct search {
    const fit_options_t *opt;
    const fit_context_t *ctx;
    reuse_cell_t *cell;
    reuse_owner_t owner;
    reuse_thunk_t thunk;     /* what the cell calls to lower */
    fit_plan_t *plan;
    int32_t n_nodes;
    uint8_t *base_prefs;     /* the context's preferences */
    int32_t cap_events, cap_members, cap_flips;
    range_t recent[2];       /* the last two member lists stored, newest first */
    int32_t *cand_of;        /* node -> index in plan->cands, -1 */
    int32_t progress_done, progress_total;
} search_t;

/* Where an event's members go: the range of an earlier event holding the
 * same list, or one at the end of plan->members that the list extends (only
 * the new tail is appended), else a fresh copy.  The accepted and held
 * lists only grow between resets, so a trace stays linear in its events
 * instead of repeating every list in full (a Minimize fit of a 48-layer
 * transformer: 2 MB of copies before). */
static int place_members(search_t *s, const int32_t *members, int32_t n, int32_t *off, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    for (int r = 0; r < 2; r++) {
        range_t *g = &s->recent[r];
        if (g->n == n && (n == 0 || memcmp(p->members + g->off, members, (size_t)n * sizeof *members) == 0)) {
            *off = g->off;
            return RS_OK;
        }
        if (g->n < n && g->off + g->n == p->n_members &&
            (g->n == 0 || memcmp(p->members + g->off, members, (size_t)g->n * sizeof *members) == 0)) {
            if (vec_reserve((void **)&p->members, &s->cap_members, g->off + n, sizeof *p->members))
                return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            memcpy(p->members + p->n_members, members + g->n, (size_t)(n - g->n) * sizeof *members);
            p->n_members = g->off + n;
            g->n = n;
            *off = g->off;
            return RS_OK;
        }
    }
    if (vec_reserve((void **)&p->members, &s->cap_members, p->n_members + n, sizeof *p->members))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(p->members + p->n_members, members, (size_t)n * sizeof *members);
    s->recent[1] = s->recent[0]; /* the older of the two gives way */
    s->recent[0] = (range_t){ p->n_members, n };
    *off = p->n_members;
    p->n_members += n;
    return RS_OK;
}

static int emit(search_t *s, fit_event_t ev, const int32_t *members, int32_t n_members, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    if (vec_reserve((void **)&p->events, &s->cap_events, p->n_events + 1, sizeof *p->events))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int32_t off = 0;
    int rc = n_members ? place_members(s, members, n_members, &off, err) : RS_OK;
    if (rc)
        return rc;
    ev.group_off = off;
    ev.group_n = n_members;
    ev.accepted_n = p->n_flips;
    p->events[p->n_events++] = ev;
    return RS_OK;
}

/* The thunk a fit hands its reuse cell. */
static int fit_lower(void *ud, lowering_t **out, const char **name, rs_error_t *err)
{
    const search_t *s = ud;
    *name = s->opt->name ? s->opt->name : s->ctx->routine->name;
    return lower_routine(s->ctx->routine, s->ctx->bindings, out, err);
}

/* score(context + extra[0..n)), through the reuse cell.  Thread-safe. */
static int score_set(search_t *s, const int32_t *extra, int32_t n, footprint_t *fp, rs_error_t *err)
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

static fit_event_t event(fit_event_kind_t kind, int round, int32_t node)
{
    return (fit_event_t){ .kind = (uint8_t)kind, .round = (uint8_t)round, .node = node, .alone = -1, .with = -1,
                          .cur = -1 };
}

static int add_flip(search_t *s, int32_t node, int64_t relief, int64_t cost, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    if (vec_reserve((void **)&p->flips, &s->cap_flips, p->n_flips + 1, sizeof *p->flips))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    p->flips[p->n_flips++] = (fit_flip_t){ .node = node, .relief = relief, .cost = cost };
    return RS_OK;
}

static int report(search_t *s, rs_error_t *err)
{
    s->progress_done++;
    if (s->opt->progress && s->opt->progress(s->opt->progress_ud, s->progress_done, s->progress_total))
        return error_set(err, RS_ECANCELED, NULL, 0, 0, "fit cancelled");
    return RS_OK;
}

/* ---- step 1: the candidate cut ------------------------------------------ */

static int cmp_cheapest(const void *pa, const void *pb)
{
    const flip_candidate_t *a = pa, *b = pb;
    if (a->cost_bound != b->cost_bound)
        return a->cost_bound < b->cost_bound ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

/* ---- step 2: round one, solo scorings on all cores ------------------------ */

typedef struct round_one {
    search_t *s;
    const reuse_scope_t *scope; /* the caller's, inherited by the workers */
    const int32_t *nodes;
    int64_t *solo;
    footprint_t *fps;
    int32_t n;
    atomic_int next;
    atomic_int done;
    atomic_int failed;
    pthread_mutex_t err_lock;
    int rc;
    int32_t rc_index;     /* the lowest failing index wins, for determinism */
    rs_error_t err;
} round_one_t;

static void round_one_work(round_one_t *r, bool report_progress)
{
    for (;;) {
        if (atomic_load(&r->failed))
            return;
        int32_t i = atomic_fetch_add(&r->next, 1);
        if (i >= r->n)
            return;
        rs_error_t e;
        error_clear(&e);
        int rc = score_set(r->s, &r->nodes[i], 1, &r->fps[i], &e);
        if (!rc) {
            r->solo[i] = r->fps[i].total;
            atomic_fetch_add(&r->done, 1);
        }
        /* progress is reported from the calling thread only, so a TUI's
         * callback never runs on a worker */
        const fit_options_t *opt = r->s->opt;
        if (!rc && report_progress && opt->progress &&
            opt->progress(opt->progress_ud, atomic_load(&r->done), r->s->progress_total))
            rc = error_set(&e, RS_ECANCELED, NULL, 0, 0, "fit cancelled");
        if (rc) {
            pthread_mutex_lock(&r->err_lock);
            if (!r->rc || i < r->rc_index) {
                r->rc = rc;
                r->rc_index = i;
                r->err = e;
            }
            pthread_mutex_unlock(&r->err_lock);
            atomic_store(&r->failed, 1);
            return;
        }
    }
}

static int round_one_worker(void *arg)
{
    round_one_work(arg, false);
    return 0;
}

static void *round_one_thread(void *arg)
{
    round_one_t *r = arg;
    reuse_with_scope(r->scope, round_one_worker, r);
    return NULL;
}

static int score_solo(search_t *s, const int32_t *nodes, int32_t n, int64_t *solo, rs_error_t *err)
{
    round_one_t r = { .s = s, .scope = reuse_scope_current(), .nodes = nodes, .solo = solo, .n = n };
    r.fps = malloc((n ? (size_t)n : 1) * sizeof *r.fps);
    if (!r.fps)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    atomic_init(&r.next, 0);
    atomic_init(&r.done, 0);
    atomic_init(&r.failed, 0);
    pthread_mutex_init(&r.err_lock, NULL);
    int32_t threads = s->opt->threads;
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int32_t)cores : 1;
    }
    if (threads > n)
        threads = n;
    if (threads > 64)
        threads = 64;
    /* the baseline scoring already filled the reuse cell: workers only copy */
    int rc = RS_OK;
    pthread_t tid[64];
    int32_t started = 0;
    for (int32_t t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, round_one_thread, &r) == 0)
            started++;
    round_one_work(&r, true);
    for (int32_t t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    if (r.rc) {
        if (err)
            *err = r.err;
        rc = r.rc;
    }
    s->progress_done = n;
    pthread_mutex_destroy(&r.err_lock);
    free(r.fps);
    return rc;
}

typedef struct ranked {
    int32_t node;
    int64_t relief, cost;
} ranked_t;

static int relief_class(int64_t relief) { return relief > 0 ? 0 : relief < 0 ? 1 : 2; }

/* Positive reliefs by ratio descending, then negative ones likewise, zero
 * last; ties by cost bound ascending, then definition order. */
static int cmp_ranked(const void *pa, const void *pb)
{
    const ranked_t *a = pa, *b = pb;
    int ca = relief_class(a->relief), cb = relief_class(b->relief);
    if (ca != cb)
        return ca - cb;
    if (ca != 2) {
        int r = compare_relief_ratio(b->relief, b->cost, a->relief, a->cost);
        if (r)
            return r;
    }
    if (a->cost != b->cost)
        return a->cost < b->cost ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

/* ---- step 3: round two ---------------------------------------------------- */

typedef struct round_two {
    int32_t *accepted; /* A */
    int32_t n_acc;
    int32_t *held;     /* H */
    int32_t n_held;
    int32_t *scratch;  /* A + H + c */
    int64_t cur;
    footprint_t cur_fp;
} round_two_t;

static void set_status(search_t *s, int32_t node, fit_status_t st)
{
    int32_t k = s->cand_of[node];
    if (k >= 0)
        s->plan->cands[k].status = (uint8_t)st;
}

static int accept(search_t *s, round_two_t *t, const ranked_t *c, int64_t alone, const footprint_t *fp,
                  rs_error_t *err)
{
    fit_event_t ev = event(EV_ACCEPT, 2, c->node);
    ev.relief = t->cur - alone;
    ev.cur = t->cur;
    ev.alone = alone;
    ev.cost = c->cost;
    int rc = emit(s, ev, t->accepted, t->n_acc, err);
    if (!rc)
        rc = add_flip(s, c->node, t->cur - alone, c->cost, err);
    if (rc)
        return rc;
    t->accepted[t->n_acc++] = c->node;
    t->cur = alone;
    t->cur_fp = *fp;
    set_status(s, c->node, ST_ACCEPTED);
    return RS_OK;
}

/* The H-empty rule: accept, hold, or reject c on its own. */
static int judge_alone(search_t *s, round_two_t *t, const ranked_t *c, int64_t alone, const footprint_t *fp,
                       rs_error_t *err)
{
    if (alone < t->cur)
        return accept(s, t, c, alone, fp, err);
    if (alone == t->cur) {
        t->held[t->n_held++] = c->node;
        set_status(s, c->node, ST_HELD);
        fit_event_t ev = event(EV_HOLD, 2, c->node);
        ev.alone = alone;
        ev.cur = t->cur;
        ev.cost = c->cost;
        return emit(s, ev, t->held, t->n_held, err);
    }
    set_status(s, c->node, ST_REJECTED);
    fit_event_t ev = event(EV_REJECT, 2, c->node);
    ev.reason = WHY_WORSE_ALONE;
    ev.alone = alone;
    ev.cur = t->cur;
    ev.cost = c->cost;
    return emit(s, ev, NULL, 0, err);
}

/* Discards H; node, alone and with are the try that showed it harmful (-1
 * at the end). */
static int discard_group(search_t *s, round_two_t *t, fit_reason_t why, int32_t node, int64_t alone, int64_t with,
                         rs_error_t *err)
{
    for (int32_t i = 0; i < t->n_held; i++)
        set_status(s, t->held[i], ST_DISCARDED);
    fit_event_t ev = event(EV_DISCARD_GROUP, 2, node);
    ev.reason = (uint8_t)why;
    ev.cur = t->cur;
    ev.alone = alone;
    ev.with = with;
    int rc = emit(s, ev, t->held, t->n_held, err);
    t->n_held = 0;
    return rc;
}

static int try_candidate(search_t *s, round_two_t *t, const ranked_t *c, rs_error_t *err)
{
    footprint_t fa, fw;
    memcpy(t->scratch, t->accepted, (size_t)t->n_acc * sizeof *t->scratch);
    t->scratch[t->n_acc] = c->node;
    int rc = score_set(s, t->scratch, t->n_acc + 1, &fa, err);
    if (rc)
        return rc;
    int64_t alone = fa.total, with = -1;
    if (t->n_held) {
        memcpy(t->scratch + t->n_acc, t->held, (size_t)t->n_held * sizeof *t->scratch);
        t->scratch[t->n_acc + t->n_held] = c->node;
        if ((rc = score_set(s, t->scratch, t->n_acc + t->n_held + 1, &fw, err)))
            return rc;
        with = fw.total;
    }
    fit_event_t ev = event(EV_TRY, 2, c->node);
    ev.alone = alone;
    ev.with = with;
    ev.cur = t->cur;
    ev.cost = c->cost;
    if ((rc = emit(s, ev, t->held, t->n_held, err)))
        return rc;
    if (!t->n_held)
        return judge_alone(s, t, c, alone, &fa, err);
    if (with < alone && with < t->cur) {
        /* load-bearing: the held flips carry 0, c the whole relief */
        fit_event_t cg = event(EV_COMMIT_GROUP, 2, c->node);
        cg.relief = t->cur - with;
        cg.with = with;
        cg.alone = alone;
        cg.cur = t->cur;
        cg.cost = c->cost;
        if ((rc = emit(s, cg, t->held, t->n_held, err)))
            return rc;
        for (int32_t i = 0; i < t->n_held; i++) {
            int32_t k = s->cand_of[t->held[i]];
            if ((rc = add_flip(s, t->held[i], 0, s->plan->cands[k].cost, err)))
                return rc;
            t->accepted[t->n_acc++] = t->held[i];
            set_status(s, t->held[i], ST_COMMITTED);
        }
        if ((rc = add_flip(s, c->node, t->cur - with, c->cost, err)))
            return rc;
        t->accepted[t->n_acc++] = c->node;
        set_status(s, c->node, ST_COMMITTED);
        t->n_held = 0;
        t->cur = with;
        t->cur_fp = fw;
        return RS_OK;
    }
    if (with < alone) {
        set_status(s, c->node, ST_REJECTED);
        fit_event_t rj = event(EV_REJECT, 2, c->node);
        rj.reason = WHY_NOT_BELOW_CUR;
        rj.alone = alone;
        rj.with = with;
        rj.cur = t->cur;
        rj.cost = c->cost;
        return emit(s, rj, t->held, t->n_held, err);
    }
    if (with > alone && (rc = discard_group(s, t, WHY_HARMFUL, c->node, alone, with, err)))
        return rc;
    /* harmful (now discarded) or neutral (still held): c on its own */
    return judge_alone(s, t, c, alone, &fa, err);
}

static int round_two_run(search_t *s, const ranked_t *order, int32_t n, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    round_two_t t = { 0 };
    size_t sz = (size_t)(n ? n : 1) * 2 + 1;
    t.accepted = malloc(sz * sizeof *t.accepted);
    t.held = malloc(sz * sizeof *t.held);
    t.scratch = malloc(sz * sizeof *t.scratch);
    t.cur = p->baseline.total;
    t.cur_fp = p->baseline;
    int rc = (!t.accepted || !t.held || !t.scratch) ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory") : 0;
    bool met = false;
    for (int32_t i = 0; i < n && !rc; i++) {
        if (!p->minimize && t.cur <= p->budget) {
            met = true;
            break;
        }
        rc = try_candidate(s, &t, &order[i], err);
        if (!rc)
            rc = report(s, err);
    }
    if (!rc && t.n_held)
        rc = discard_group(s, &t, WHY_LEFT_OVER, -1, -1, -1, err);
    if (!rc && !p->minimize && (met || t.cur <= p->budget)) {
        fit_event_t ev = event(EV_BUDGET_MET, 2, -1);
        ev.cur = t.cur;
        rc = emit(s, ev, NULL, 0, err);
    }
    p->final = t.cur_fp;
    free(t.accepted);
    free(t.held);
    free(t.scratch);
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
    fit_event_t ev = event(EV_BASELINE, 0, -1);
    ev.cur = p->baseline.total;
    if ((rc = emit(s, ev, NULL, 0, err)))
        goto done;
    bool minimize;
    if ((rc = units_budget_resolve(&opt->budget, p->baseline.total, opt->device_bytes, &p->budget, &minimize, err)))
        goto done;
    p->minimize = minimize;
    p->final = p->baseline;
    if (!minimize && p->baseline.total <= p->budget) {
        ev = event(EV_BUDGET_MET, 0, -1);
        ev.cur = p->baseline.total;
        rc = emit(s, ev, NULL, 0, err);
        goto done;
    }
    /* step 1: keep the cap's cheapest */
    p->cap = opt->max_candidates >= 0 ? opt->max_candidates : minimize ? -1 : 32;
    qsort(cand, (size_t)n_cand, sizeof *cand, cmp_cheapest);
    int32_t kept = p->cap < 0 || p->cap > n_cand ? n_cand : p->cap;
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
        ev = event(i < kept ? EV_KEPT : EV_DROPPED, 1, cand[i].node);
        ev.cost = cand[i].cost_bound;
        rc = emit(s, ev, NULL, 0, err);
        if (i < kept)
            nodes[i] = cand[i].node;
    }
    /* step 2: round one */
    s->progress_total = 2 * kept;
    if (!rc)
        rc = score_solo(s, nodes, kept, solo, err);
    p->considered = kept;
    for (int32_t i = 0; i < kept && !rc; i++) {
        order[i] = (ranked_t){ nodes[i], p->baseline.total - solo[i], cand[i].cost_bound };
        ev = event(EV_SOLO, 1, nodes[i]);
        ev.alone = solo[i];
        ev.cur = p->baseline.total;
        ev.relief = order[i].relief;
        ev.cost = cand[i].cost_bound;
        rc = emit(s, ev, NULL, 0, err);
    }
    if (rc)
        goto done2;
    qsort(order, (size_t)kept, sizeof *order, cmp_ranked);
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
        ev = event(EV_ORDER, 1, order[i].node);
        ev.rank = i + 1;
        ev.relief = order[i].relief;
        ev.cost = order[i].cost;
        rc = emit(s, ev, NULL, 0, err);
    }
    /* step 3: round two */
    if (!rc)
        rc = round_two_run(s, order, kept, err);
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
    if (!ctx->cfg.aliasing)
        return error_set(err, RS_EINPUT, "--no-aliasing", 0, 0,
                         "fit needs buffer_aliasing on: with it off every buffer spans the whole routine, "
                         "so no flip can relieve anything");
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
    int rc;
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
        fit_event_t ev = event(EV_END, 2, -1);
        ev.cur = p->final.total;
        rc = emit(&s, ev, NULL, 0, err);
        reuse_cell_counters(cell, &p->reused, &p->lowered);
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

/* A copy of n elements of size bytes at a (NULL for none). */
static void *dup_array(const void *a, int32_t n, size_t size, bool *ok)
{
    if (!a || n <= 0)
        return NULL;
    void *c = malloc((size_t)n * size);
    if (c)
        memcpy(c, a, (size_t)n * size);
    *ok = *ok && c;
    return c;
}

int fit_plan_copy(const fit_plan_t *p, fit_plan_t **out, rs_error_t *err)
{
    *out = NULL;
    fit_plan_t *c = malloc(sizeof *c);
    if (!c)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    *c = *p;
    bool ok = true;
    c->flips = dup_array(p->flips, p->n_flips, sizeof *p->flips, &ok);
    c->events = dup_array(p->events, p->n_events, sizeof *p->events, &ok);
    c->members = dup_array(p->members, p->n_members, sizeof *p->members, &ok);
    c->cands = dup_array(p->cands, p->n_cands, sizeof *p->cands, &ok);
    if (!ok) {
        fit_plan_free(c);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    *out = c;
    return RS_OK;
}

void fit_plan_free(fit_plan_t *p)
{
    if (!p)
        return;
    free(p->flips);
    free(p->events);
    free(p->members);
    free(p->cands);
    free(p);
}
