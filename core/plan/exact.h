/* exact: the best plan of DESIGN §12 (`fit --exact`): over every subset of
 * the baseline's Inline flip candidates (no cap), the best by §12's
 * objective, each subset scored exactly as fit scores (virtualizer and
 * layout included), found by a branch and bound whose answer equals
 * exhaustive enumeration. */
#ifndef RS_EXACT_H
#define RS_EXACT_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/fit.h"
#include "plan/subset.h"
#include "util/error.h"

/* Polled after every scoring; nonzero stops the search with the best found.
 * When it is called, the result's counters (exact: explored; improve:
 * scored, moves) are those of the search so far: a front end may read
 * them to tell how far it is. */
typedef int (*plan_stop_fn)(void *ud);

typedef struct exact_options {
    subset_goal_t goal;
    const int32_t *hint;   /* a subset to start from (the two-round plan's flips), may be NULL; */
    int32_t n_hint;        /* it only speeds the search: the answer does not depend on it */
    plan_stop_fn stop;     /* may be NULL */
    void *stop_ud;
    bool audit;            /* the search's reuse cell audits every reuse */
} exact_options_t;

typedef struct exact_result {
    bool found;            /* false: no subset fits the budget (proved when proved) */
    footprint_t baseline;
    footprint_t final;     /* the best subset's footprint when found */
    int32_t *flips;        /* the best subset, node indices ascending */
    int32_t n_flips;
    int32_t n_cands;       /* the candidates searched over */
    bool proved;           /* false when stop ended the search first */
    int64_t explored;      /* subsets scored (the baseline included) */
    int64_t reused, lowered; /* the search's reuse counters */
} exact_result_t;

/* The best plan for ctx under opt->goal.  Errors: RS_EINPUT when
 * buffer_aliasing is off; a scoring's error.  Free out with
 * exact_result_free (also after an error). */
int exact_run(const exact_options_t *opt, const fit_context_t *ctx, exact_result_t *out, rs_error_t *err);
void exact_result_free(exact_result_t *r);

#endif
