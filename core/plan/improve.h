/* improve: `fit --improve` (DESIGN §12), a deterministic local search from
 * a plan's flips over the baseline's Inline candidates (no cap): add or
 * remove one flip, or swap one for another, each neighbour scored exactly
 * as fit scores; only a strictly better plan by §12's objective is taken,
 * so it never ends worse than it started. */
#ifndef RS_IMPROVE_H
#define RS_IMPROVE_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/exact.h"
#include "plan/fit.h"
#include "plan/subset.h"
#include "util/error.h"

typedef struct improve_options {
    subset_goal_t goal;
    const int32_t *start;  /* the plan to start from (the two-round plan's flips); */
    int32_t n_start;       /* nodes that are not candidates are left out */
    plan_stop_fn stop;     /* may be NULL; polled after every scoring */
    void *stop_ud;
    bool audit;
} improve_options_t;

typedef struct improve_result {
    footprint_t start;     /* the start's footprint */
    footprint_t final;
    int32_t *flips;        /* node indices ascending */
    int32_t n_flips;
    int32_t n_cands;
    int64_t moves;         /* improving moves taken */
    int64_t scored;        /* neighbours scored (the start included) */
    int64_t skipped;       /* neighbours the bound showed no better, not scored */
    bool local_optimum;    /* no neighbour is better; false when stopped first */
} improve_result_t;

/* Improves opt->start for ctx.  The moves: first every single flip added or
 * removed (candidates in index order), the best of them taken; when none
 * is better, swaps (one flip out, one in, both in index order), the first
 * better taken; repeated until neither finds one.  Deterministic while stop
 * never fires.  Free out with improve_result_free (also after an error). */
int improve_run(const improve_options_t *opt, const fit_context_t *ctx, improve_result_t *out, rs_error_t *err);
void improve_result_free(improve_result_t *r);

#endif
