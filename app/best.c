#include "best.h"

#include <stdlib.h>
#include <string.h>

#include "monotime.h"
#include "plan/exact.h"
#include "plan/improve.h"

typedef struct deadline {
    int64_t t0_us, at_us;      /* at: INT64_MAX: none */
    int64_t scorings, max_scorings; /* polled once a scoring; max 0: none */
    int (*cancel)(void *ud);   /* best_run_cancellable's */
    int (*watch)(void *ud, const best_tally_t *t);
    void *ud;
    best_tally_t tally;
    const int64_t *scored, *moves; /* the running search's own counters (exact.h: current at each poll) */
} deadline_t;

static int past_deadline(void *ud)
{
    deadline_t *d = ud;
    int64_t now = monotime_us();
    bool past = (d->max_scorings > 0 && ++d->scorings >= d->max_scorings) || now >= d->at_us;
    if (d->cancel && d->cancel(d->ud))
        past = true;
    if (d->watch) { /* told every scoring, the last one too */
        d->tally.scored = d->scored ? *d->scored : 0;
        d->tally.moves = d->moves ? *d->moves : 0;
        d->tally.elapsed_us = now - d->t0_us;
        past = d->watch(d->ud, &d->tally) || past;
    }
    return past;
}

const char *best_kind_name(best_kind_t k) { return k == BEST_EXACT ? "exact" : k == BEST_IMPROVED ? "improved" : ""; }

int best_run(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim, bool audit,
             best_plan_t *out, rs_error_t *err)
{
    return best_run_cancellable(kind, p, ctx, lim, audit, NULL, NULL, out, err);
}

static int run(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim, bool audit,
               deadline_t *dl, best_plan_t *out, rs_error_t *err);

int best_run_cancellable(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim,
                         bool audit, int (*cancel)(void *ud), void *ud, best_plan_t *out, rs_error_t *err)
{
    deadline_t d = { .cancel = cancel, .ud = ud };
    return run(kind, p, ctx, lim, audit, &d, out, err);
}

int best_run_watched(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim, bool audit,
                     int (*watch)(void *ud, const best_tally_t *t), void *ud, best_plan_t *out, rs_error_t *err)
{
    deadline_t d = { .watch = watch, .ud = ud };
    return run(kind, p, ctx, lim, audit, &d, out, err);
}

static int run(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim, bool audit,
               deadline_t *dl, best_plan_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    int64_t t0 = monotime_us();
    double secs = lim.seconds > 0 ? lim.seconds : lim.scorings > 0 ? 0 : BEST_DEFAULT_SECONDS;
    deadline_t d = *dl;
    d.t0_us = t0;
    d.at_us = secs > 0 ? t0 + (int64_t)(secs * 1e6) : INT64_MAX;
    d.max_scorings = lim.scorings > 0 ? lim.scorings : 0;
    d.tally = (best_tally_t){ .kind = kind, .limit_us = secs > 0 ? (int64_t)(secs * 1e6) : 0,
                              .max_scorings = d.max_scorings };
    subset_goal_t goal = { p->minimize, p->budget };
    int32_t *start = malloc((p->n_flips ? (size_t)p->n_flips : 1) * sizeof *start);
    if (!start)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; i < p->n_flips; i++)
        start[i] = p->flips[i].node;
    int rc;
    if (kind == BEST_EXACT) {
        exact_options_t o = { .goal = goal, .hint = start, .n_hint = p->n_flips, .stop = past_deadline,
                              .stop_ud = &d, .audit = audit };
        exact_result_t r;
        d.scored = &r.explored;
        rc = exact_run(&o, ctx, &r, err);
        if (!rc) {
            out->found = r.found;
            out->final = r.final;
            out->flips = r.flips;
            out->n_flips = r.n_flips;
            out->proved = r.proved;
            out->explored = r.explored;
            out->n_cands = r.n_cands;
            r.flips = NULL;
        }
        exact_result_free(&r);
    } else {
        improve_options_t o = { .goal = goal, .start = start, .n_start = p->n_flips, .stop = past_deadline,
                                .stop_ud = &d, .audit = audit };
        improve_result_t r;
        d.scored = &r.scored;
        d.moves = &r.moves;
        rc = improve_run(&o, ctx, &r, err);
        if (!rc) {
            out->found = true;
            out->final = r.final;
            out->flips = r.flips;
            out->n_flips = r.n_flips;
            out->proved = r.local_optimum;
            out->explored = r.scored;
            out->moves = r.moves;
            out->n_cands = r.n_cands;
            r.flips = NULL;
        }
        improve_result_free(&r);
    }
    d.scored = d.moves = NULL; /* they lived in the branches above */
    free(start);
    out->elapsed_us = monotime_us() - t0;
    return rc;
}

void best_plan_free(best_plan_t *b)
{
    free(b->flips);
    memset(b, 0, sizeof *b);
}

bool best_has(const best_plan_t *b, int32_t node)
{
    for (int32_t i = 0; b && i < b->n_flips; i++)
        if (b->flips[i] == node)
            return true;
    return false;
}

bool best_plan_has(const fit_plan_t *p, int32_t node)
{
    for (int32_t i = 0; p && i < p->n_flips; i++)
        if (p->flips[i].node == node)
            return true;
    return false;
}
