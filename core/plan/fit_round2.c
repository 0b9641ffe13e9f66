/* fit_round2: round two of DESIGN §5: the candidates in round one's order,
 * each accepted, held speculatively, committed with the held group, or
 * rejected; a group shown harmful is discarded. */
#include <stdlib.h>
#include <string.h>

#include "plan/fit_int.h"

/* ---- step 3: round two ---------------------------------------------------- */

static int report(search_t *s, rs_error_t *err)
{
    s->progress_done++;
    if (s->opt->progress && s->opt->progress(s->opt->progress_ud, s->progress_done, s->progress_total))
        return error_set(err, RS_ECANCELED, NULL, 0, 0, "fit cancelled");
    return RS_OK;
}

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

static int try_candidate(search_t *s, round_two_t *t, const ranked_t *c, rs_error_t *err)
{
    footprint_t fa, fw;
    memcpy(t->scratch, t->accepted, (size_t)t->n_acc * sizeof *t->scratch);
    t->scratch[t->n_acc] = c->node;
    int rc = fit_score_set(s, t->scratch, t->n_acc + 1, &fa, err);
    if (rc)
        return rc;
    int64_t alone = fa.total, with = -1;
    if (t->n_held) {
        memcpy(t->scratch + t->n_acc, t->held, (size_t)t->n_held * sizeof *t->scratch);
        t->scratch[t->n_acc + t->n_held] = c->node;
        if ((rc = fit_score_set(s, t->scratch, t->n_acc + t->n_held + 1, &fw, err)))
            return rc;
        with = fw.total;
    }
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

int fit_round_two(search_t *s, const ranked_t *order, int32_t n, rs_error_t *err)
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
        fit_event_t ev = fit_event(EV_BUDGET_MET, 2, -1);
        ev.cur = t.cur;
        rc = fit_emit(s, ev, NULL, 0, err);
    }
    p->final = t.cur_fp;
    free(t.accepted);
    free(t.held);
    free(t.scratch);
    return rc;
}
