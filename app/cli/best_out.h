/* best_out: `fit --exact` / `fit --improve` on the command line: running
 * them beside a fit, their JSON (DESIGN §12's "exact" and "improved" keys)
 * and their text. */
#ifndef RS_BEST_OUT_H
#define RS_BEST_OUT_H

#include "best.h"
#include "cmdline.h"
#include "cli/json.h"
#include "plan/fit.h"

/* Runs what c asks (--exact into out[0], --improve into out[1]; the other
 * kind is left BEST_NONE) beside p, telling watch(ud) at every poll (may
 * be NULL; nonzero stops the search with what it found).  Free both with
 * best_plan_free. */
int best_out_run(const cmdline_t *c, const fit_plan_t *p, const fit_context_t *ctx,
                 int (*watch)(void *ud, const best_tally_t *t), void *ud, best_plan_t out[2], rs_error_t *err);

/* The "exact" or "improved" key of fit --json for b (nothing for BEST_NONE). */
void best_out_json(json_t *j, const fit_plan_t *p, const best_plan_t *b);

/* b beside p as text: footprint, recompute, and the flips that differ. */
void best_out_print(const fit_plan_t *p, const best_plan_t *b);

/* The gap a saved plan records: the exact plan when run, else the improved. */
const best_plan_t *best_out_gap(const best_plan_t out[2]);

#endif
