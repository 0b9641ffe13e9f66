/* best: `fit --exact` and `fit --improve` (DESIGN §12) for both front ends:
 * each run under a time limit beside a two-round plan, with one result
 * shape the CLI prints, the TUI draws and the store records as the plan's
 * gap. */
#ifndef RS_BEST_H
#define RS_BEST_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/fit.h"
#include "util/error.h"

/* The time limit when none is given: a search that cannot finish still
 * answers (with the best found, not proved). */
#define BEST_DEFAULT_SECONDS 10.0

typedef enum best_kind { BEST_NONE = 0, BEST_EXACT, BEST_IMPROVED } best_kind_t;

typedef struct best_plan {
    best_kind_t kind;
    bool found;           /* exact: a subset fits the budget; improved: always */
    footprint_t final;
    int32_t *flips;       /* node indices ascending */
    int32_t n_flips;
    bool proved;          /* exact: the search finished; improved: a local optimum was reached */
    int64_t explored;     /* subsets scored */
    int64_t moves;        /* improved: moves taken */
    int32_t n_cands;      /* the candidates searched over */
    int64_t elapsed_us;
} best_plan_t;

/* When a search stops with the best found: after seconds (wall time:
 * the result depends on the machine), or after scorings scorings (the
 * same result everywhere).  Both <= 0: BEST_DEFAULT_SECONDS; scorings
 * alone: no time limit. */
typedef struct best_limits {
    double seconds;
    int64_t scorings;
} best_limits_t;

/* Runs kind beside p (its budget; improve starts from its flips) on ctx
 * within lim.  Free out with best_plan_free (also after an error). */
int best_run(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim, bool audit,
             best_plan_t *out, rs_error_t *err);
/* The same, also stopping (with what was found, not proved) as soon as
 * cancel(ud) returns nonzero: a front end's ^C.  cancel may be NULL. */
int best_run_cancellable(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim,
                         bool audit, int (*cancel)(void *ud), void *ud, best_plan_t *out, rs_error_t *err);

/* How far a search is, each time it polls (after every scoring). */
typedef struct best_tally {
    best_kind_t kind;
    int64_t scored;        /* subsets scored (exact), neighbours scored (improve) */
    int64_t moves;         /* improve: moves taken so far */
    int64_t elapsed_us;
    int64_t limit_us;      /* the time limit; 0: none */
    int64_t max_scorings;  /* the scoring limit; 0: none */
} best_tally_t;

/* The same as best_run_cancellable, telling watch(ud, tally) at every
 * poll; a nonzero return stops the search with what was found (not
 * proved).  watch may be NULL. */
int best_run_watched(best_kind_t kind, const fit_plan_t *p, const fit_context_t *ctx, best_limits_t lim, bool audit,
                     int (*watch)(void *ud, const best_tally_t *t), void *ud, best_plan_t *out, rs_error_t *err);
void best_plan_free(best_plan_t *b);

/* "exact" or "improved" ("" for none). */
const char *best_kind_name(best_kind_t k);

/* Whether node is among b's flips / p's flips. */
bool best_has(const best_plan_t *b, int32_t node);
bool best_plan_has(const fit_plan_t *p, int32_t node);

#endif
