/* frontier_plan: DESIGN §14's frontier planner run for both front ends
 * (`fit --planner frontier`, the Fit screen's F): at a §5 plan's budget
 * (or Minimize), seeded with its flips, within a time limit. */
#ifndef RS_FRONTIER_PLAN_H
#define RS_FRONTIER_PLAN_H

#include <stdint.h>

#include "plan/fit.h"
#include "plan/frontier.h"
#include "util/error.h"

/* The frontier planner's time limit when none is given (--time-limit). */
#define FRONTIER_DEFAULT_SECONDS 30.0

/* Runs the frontier planner for p's budget (or Minimize) on ctx, seeded
 * with p's flips, within limit_s seconds (<= 0: FRONTIER_DEFAULT_SECONDS)
 * and max_scorings (0: none), stopping with the best found once stop(ud)
 * (may be NULL) says so.  The search stops at three quarters of the limit:
 * the plan's reliefs take one scoring with a layout per flip after it.
 * *seconds gets the time it took.  Free out with frontier_result_free
 * (also after an error). */
int frontier_plan_run(const fit_plan_t *p, const fit_context_t *ctx, double limit_s, int64_t max_scorings,
                      int (*stop)(void *ud), void *ud, frontier_result_t *out, double *seconds, rs_error_t *err);

#endif
