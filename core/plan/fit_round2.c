/* fit_round2: round two of DESIGN §5: the candidates in round one's order,
 * each accepted, held speculatively, committed with the held group, or
 * rejected; a group shown harmful is discarded. */
#include <stdlib.h>
#include <string.h>

#include "plan/fit_int.h"
#include "util/vec.h"

/* ---- step 3: round two ---------------------------------------------------- */

static int report(search_t *s, rs_error_t *err)
{
    s->progress_done++;
    if (s->opt->progress && s->opt->progress(s->opt->progress_ud, s->progress_done, s->progress_total))
        return error_set(err, RS_ECANCELED, NULL, 0, 0, "fit cancelled");
    return RS_OK;
}

typedef struct round_two {
    fit_group_t *g;    /* the tries made so far for this candidate list */
    int32_t at;        /* this try's index */
    bool fresh;        /* it was scored now (not taken from g): the references follow it */
    int32_t ran_slot[2]; /* the slot each scoring of the try ran against (-1: none) */
    int32_t *ran[2];   /* and its flips, sorted */
    int32_t n_ran[2];
    int32_t *target;   /* scratch: a state the references should have */
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
    fit_event_t ev = fit_event(EV_ACCEPT, 2, c->node);
    ev.relief = t->cur - alone;
    ev.cur = t->cur;
    ev.alone = alone;
    ev.cost = c->cost;
    int rc = fit_emit(s, ev, t->accepted, t->n_acc, err);
    if (!rc)
        rc = fit_add_flip(s, c->node, t->cur - alone, c->cost, fp->compute - t->cur_fp.compute, err);
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
        fit_event_t ev = fit_event(EV_HOLD, 2, c->node);
        ev.alone = alone;
        ev.cur = t->cur;
        ev.cost = c->cost;
        return fit_emit(s, ev, t->held, t->n_held, err);
    }
    set_status(s, c->node, ST_REJECTED);
    fit_event_t ev = fit_event(EV_REJECT, 2, c->node);
    ev.reason = WHY_WORSE_ALONE;
    ev.alone = alone;
    ev.cur = t->cur;
    ev.cost = c->cost;
    return fit_emit(s, ev, NULL, 0, err);
}

/* Discards H; node, alone and with are the try that showed it harmful (-1
 * at the end). */
static int discard_group(search_t *s, round_two_t *t, fit_reason_t why, int32_t node, int64_t alone, int64_t with,
                         rs_error_t *err)
{
    for (int32_t i = 0; i < t->n_held; i++)
        set_status(s, t->held[i], ST_DISCARDED);
    fit_event_t ev = fit_event(EV_DISCARD_GROUP, 2, node);
    ev.reason = (uint8_t)why;
    ev.cur = t->cur;
    ev.alone = alone;
    ev.with = with;
    int rc = fit_emit(s, ev, t->held, t->n_held, err);
    t->n_held = 0;
    return rc;
}

static int cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* dst = the flips a[0..na) and b[0..nb), sorted. */
static int32_t sorted_set(int32_t *dst, const int32_t *a, int32_t na, const int32_t *b, int32_t nb)
{
    if (na) /* a or b may be NULL when empty */
        memcpy(dst, a, (size_t)na * sizeof *a);
    if (nb)
        memcpy(dst + na, b, (size_t)nb * sizeof *b);
    qsort(dst, (size_t)(na + nb), sizeof *dst, cmp_i32);
    return na + nb;
}

/* How many flips two sorted sets differ in. */
static int64_t set_distance(const int32_t *a, int32_t na, const int32_t *b, int32_t nb)
{
    int64_t d = 0;
    int32_t i = 0, j = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && a[i] < b[j]))
            i++, d++;
        else if (i == na || b[j] < a[i])
            j++, d++;
        else
            i++, j++;
    }
    return d;
}

static bool same_set(const int32_t *a, int32_t na, const int32_t *b, int32_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, (size_t)na * sizeof *a) == 0);
}

/* The slot nearest the flips p[0..n) (-1: none). */
static int32_t nearest(const fit_group_t *g, const int32_t *p, int32_t n, int64_t *dist)
{
    int32_t best = -1;
    *dist = INT64_MAX;
    for (int32_t k = 0; k < g->n_slots; k++) {
        int64_t d = set_distance(g->slot[k].state, g->slot[k].n_state, p, n);
        if (d < *dist) {
            *dist = d;
            best = k;
        }
    }
    return best;
}

/* score(base + flips) against the nearest reference, kept as scoring kind
 * (0 alone, 1 with) of this try. */
static int score_near(search_t *s, round_two_t *t, int kind, const int32_t *flips, int32_t n, footprint_t *fp,
                      rs_error_t *err)
{
    t->n_ran[kind] = sorted_set(t->ran[kind], flips, n, NULL, 0);
    int64_t dist;
    int32_t k = nearest(t->g, t->ran[kind], n, &dist);
    t->ran_slot[kind] = k;
    fit_slot_t *sl = k >= 0 ? &t->g->slot[k] : NULL;
    int rc = sl ? rescore_prepare(sl->ref, err) : RS_OK;
    return rc ? rc : fit_score_set(s, sl ? sl->ref : NULL, sl ? sl->work[kind] : NULL, flips, n, fp, err);
}

/* score(A + c) and, with a group held, score(A + H + c): made now against
 * the nearest references, or the ones an earlier budget of the sweep made
 * (the same, as the trajectory is). */
static int score_try(search_t *s, round_two_t *t, const ranked_t *c, footprint_t *fa, footprint_t *fw, rs_error_t *err)
{
    fit_group_t *g = t->g;
    t->fresh = t->at >= g->n_tries;
    t->ran_slot[0] = t->ran_slot[1] = -1;
    if (!t->fresh) {
        *fa = g->tries[t->at].alone;
        *fw = g->tries[t->at].with;
        return RS_OK;
    }
    if (t->n_acc)
        memcpy(t->scratch, t->accepted, (size_t)t->n_acc * sizeof *t->scratch);
    t->scratch[t->n_acc] = c->node;
    int rc = score_near(s, t, 0, t->scratch, t->n_acc + 1, fa, err);
    if (rc)
        return rc;
    memset(fw, 0, sizeof *fw);
    if (t->n_held) {
        memcpy(t->scratch + t->n_acc, t->held, (size_t)t->n_held * sizeof *t->scratch);
        if (g->n_slots == 1) { /* a second reference, at A + H, for the with scorings */
            int32_t n = sorted_set(t->target, t->accepted, t->n_acc, t->held, t->n_held);
            if (set_distance(g->slot[0].state, g->slot[0].n_state, t->target, n) > 1 &&
                (rc = fit_slot_new(s, g, t->target, n, err)))
                return rc;
        }
        t->scratch[t->n_acc + t->n_held] = c->node;
        if ((rc = score_near(s, t, 1, t->scratch, t->n_acc + t->n_held + 1, fw, err)))
            return rc;
    }
    if (vec_reserve((void **)&g->tries, &g->cap_tries, (int64_t)g->n_tries + 1, sizeof *g->tries))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    g->tries[g->n_tries++] = (fit_try_t){ *fa, *fw, t->n_held > 0, 0 };
    return RS_OK;
}

/* ---- the references follow A and A + H ---------------------------------- */

static bool slot_is(const fit_slot_t *sl, const int32_t *a, int32_t na)
{
    return same_set(sl->state, sl->n_state, a, na);
}

static int set_state(fit_slot_t *sl, const int32_t *a, int32_t n, rs_error_t *err)
{
    if (vec_reserve((void **)&sl->state, &sl->cap_state, (int64_t)n + 1, sizeof *sl->state))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (n)
        memcpy(sl->state, a, (size_t)n * sizeof *a);
    sl->n_state = n;
    return RS_OK;
}

/* Brings a reference to the state target[0..n) after a fresh try: the
 * slot a scoring of the try at that state ran against is rebased to it;
 * else a slot holding neither of the states wanted is scored there (from
 * the baseline's lowering: no scoring of the search's) and rebased.
 * other[0..no) is the other state wanted (kept where a slot holds it). */
static int follow(search_t *s, round_two_t *t, const int32_t *target, int32_t n, const int32_t *other, int32_t no,
                  bool have_other, rs_error_t *err)
{
    fit_group_t *g = t->g;
    for (int32_t k = 0; k < g->n_slots; k++)
        if (slot_is(&g->slot[k], target, n))
            return RS_OK;
    for (int kind = 0; kind < 2; kind++) {
        int32_t k = t->ran_slot[kind];
        if (k < 0 || !same_set(t->ran[kind], t->n_ran[kind], target, n) ||
            (have_other && slot_is(&g->slot[k], other, no)))
            continue;
        int rc = rescore_rebase(g->slot[k].ref, g->slot[k].work[kind], err);
        return rc ? rc : set_state(&g->slot[k], target, n, err);
    }
    for (int32_t k = 0; k < g->n_slots; k++) { /* a free slot: score it there */
        fit_slot_t *sl = &g->slot[k];
        if (have_other && slot_is(sl, other, no))
            continue;
        uint8_t *prefs = malloc((size_t)s->n_nodes + 1);
        if (!prefs)
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        memcpy(prefs, s->base_prefs, (size_t)s->n_nodes);
        for (int32_t i = 0; i < n; i++)
            prefs[target[i]] = 1;
        footprint_t fp;
        int rc = rescore_prepare(sl->ref, err);
        if (!rc)
            rc = rescore_score(sl->ref, sl->work[0], s->sh->base, prefs, &fp, err);
        free(prefs);
        if (!rc)
            rc = rescore_rebase(sl->ref, sl->work[0], err);
        return rc ? rc : set_state(sl, target, n, err);
    }
    return RS_OK;
}

/* After a fresh try: references at score(A) and, while a group is held,
 * score(A + H). */
static int follow_state(search_t *s, round_two_t *t, int32_t *t2, rs_error_t *err)
{
    if (!t->fresh || !t->g->n_slots)
        return RS_OK;
    int32_t n1 = sorted_set(t->target, t->accepted, t->n_acc, NULL, 0);
    int32_t n2 = t->n_held ? sorted_set(t2, t->accepted, t->n_acc, t->held, t->n_held) : 0;
    int rc = follow(s, t, t->target, n1, t2, n2, t->n_held > 0, err);
    if (!rc && t->n_held)
        rc = follow(s, t, t2, n2, t->target, n1, true, err);
    return rc;
}

static int try_candidate(search_t *s, round_two_t *t, const ranked_t *c, rs_error_t *err)
{
    footprint_t fa, fw;
    int rc = score_try(s, t, c, &fa, &fw, err);
    if (rc)
        return rc;
    int64_t alone = fa.total, with = t->n_held ? fw.total : -1;
    fit_event_t ev = fit_event(EV_TRY, 2, c->node);
    ev.alone = alone;
    ev.with = with;
    ev.cur = t->cur;
    ev.cost = c->cost;
    if ((rc = fit_emit(s, ev, t->held, t->n_held, err)))
        return rc;
    if (!t->n_held)
        return judge_alone(s, t, c, alone, &fa, err);
    if (with < alone && with < t->cur) {
        /* load-bearing: the held flips carry 0, c the whole relief and recompute */
        fit_event_t cg = fit_event(EV_COMMIT_GROUP, 2, c->node);
        cg.relief = t->cur - with;
        cg.with = with;
        cg.alone = alone;
        cg.cur = t->cur;
        cg.cost = c->cost;
        if ((rc = fit_emit(s, cg, t->held, t->n_held, err)))
            return rc;
        for (int32_t i = 0; i < t->n_held; i++) {
            int32_t k = s->cand_of[t->held[i]];
            if ((rc = fit_add_flip(s, t->held[i], 0, s->plan->cands[k].cost, 0, err)))
                return rc;
            t->accepted[t->n_acc++] = t->held[i];
            set_status(s, t->held[i], ST_COMMITTED);
        }
        if ((rc = fit_add_flip(s, c->node, t->cur - with, c->cost, fw.compute - t->cur_fp.compute, err)))
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
        fit_event_t rj = fit_event(EV_REJECT, 2, c->node);
        rj.reason = WHY_NOT_BELOW_CUR;
        rj.alone = alone;
        rj.with = with;
        rj.cur = t->cur;
        rj.cost = c->cost;
        return fit_emit(s, rj, t->held, t->n_held, err);
    }
    if (with > alone && (rc = discard_group(s, t, WHY_HARMFUL, c->node, alone, with, err)))
        return rc;
    /* harmful (now discarded) or neutral (still held): c on its own */
    return judge_alone(s, t, c, alone, &fa, err);
}

int fit_round_two(search_t *s, const ranked_t *order, int32_t n, fit_group_t *g, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    round_two_t t = { .g = g };
    size_t sz = (size_t)(n ? n : 1) * 2 + 1;
    t.accepted = malloc(sz * sizeof *t.accepted);
    t.held = malloc(sz * sizeof *t.held);
    t.scratch = malloc(sz * sizeof *t.scratch);
    t.ran[0] = malloc(sz * sizeof *t.ran[0]);
    t.ran[1] = malloc(sz * sizeof *t.ran[1]);
    t.target = malloc(sz * sizeof *t.target);
    int32_t *t2 = malloc(sz * sizeof *t2);
    t.cur = p->baseline.total;
    t.cur_fp = p->baseline;
    int rc = (!t.accepted || !t.held || !t.scratch || !t.ran[0] || !t.ran[1] || !t.target || !t2)
                 ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory")
                 : 0;
    bool met = false;
    for (int32_t i = 0; i < n && !rc; i++) {
        if (!p->minimize && t.cur <= p->budget) {
            met = true;
            break;
        }
        t.at = i;
        rc = try_candidate(s, &t, &order[i], err);
        if (!rc)
            rc = follow_state(s, &t, t2, err);
        if (!rc)
            rc = report(s, err);
    }
    if (!rc && t.n_held)
        rc = discard_group(s, &t, WHY_LEFT_OVER, -1, -1, -1, err);
    if (!rc && !p->minimize && (met || t.cur <= p->budget)) {
        if (met) /* tries were left: round two ends here, after t.at + 1 of n */
            fit_stage(s, FIT_STAGE_BUDGET_MET, t.at + 1);
        fit_event_t ev = fit_event(EV_BUDGET_MET, 2, -1);
        ev.cur = t.cur;
        rc = fit_emit(s, ev, NULL, 0, err);
    }
    p->final = t.cur_fp;
    free(t.accepted);
    free(t.held);
    free(t.scratch);
    free(t.ran[0]);
    free(t.ran[1]);
    free(t.target);
    free(t2);
    return rc;
}
