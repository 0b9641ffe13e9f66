/* frontier_out: `fit --planner frontier` and `sweep --planner frontier`
 * (DESIGN §14) on the command line: the planner run beside §5's plan at
 * the same budget (seeded with it), its JSON key "frontier" and its text. */
#ifndef RS_FRONTIER_OUT_H
#define RS_FRONTIER_OUT_H

#include <stdbool.h>

#include "cli/json.h"
#include "cli/progress.h"
#include "cmdline.h"
#include "frontier_plan.h"
#include "plan/fit.h"
#include "plan/frontier.h"
#include "target.h"

/* RS_OK and *on when c asks for the frontier planner (--planner frontier),
 * *on false for two-round or none; RS_EINPUT for another name. */
int frontier_out_wanted(const cmdline_t *c, bool *on, rs_error_t *err);

/* Runs the frontier planner for p's budget on ctx, seeded with p's flips,
 * within c's --time-limit (else FRONTIER_DEFAULT_SECONDS) and --iterations
 * (scorings), stopping with the best found when ^C was asked on pg (may be
 * NULL).  *seconds gets the time it took.  Free out with
 * frontier_result_free. */
int frontier_out_run(const cmdline_t *c, const fit_plan_t *p, const fit_context_t *ctx, const progress_t *pg,
                     frontier_result_t *out, double *seconds, rs_error_t *err);

/* fit --json's "frontier" key. */
void frontier_out_json(json_t *j, const fit_plan_t *p, const frontier_result_t *f, double seconds);

/* The plan as text, beside §5's. */
void frontier_out_print(const target_t *t, const fit_plan_t *p, const frontier_result_t *f, double seconds);

/* sweep --planner frontier's curve: per budget, the frontier plan's total,
 * added compute (and its time on the profile) beside §5's. */
void frontier_out_curve(const target_t *t, fit_plan_t *const *plans, const char *const *asked,
                        const frontier_result_t *frs, int n);

#endif
