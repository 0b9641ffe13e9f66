/* save: recording fits and sweeps in the session store (fit --save,
 * sweep --save): the routine, the profile, then the plans, in one
 * transaction. */
#ifndef RS_SAVE_H
#define RS_SAVE_H

#include "cli/cli.h"
#include "plan/fit.h"
#include "target.h"

/* Saves plans[0..n) made on t's routine.  sweep_budgets is the sweep's
 * budget list, or NULL for a single fit.  ids[i] gets each plan's id. */
int save_plans(const cli_t *c, target_t *t, fit_plan_t *const *plans, const int64_t *elapsed_us, int n,
               const char *sweep_budgets, int64_t *ids, rs_error_t *err);

/* The same, with audits[i] the record of what --audit found in plans[i]
 * (audits NULL, or an entry NULL: not audited). */
int save_plans_audited(const cli_t *c, target_t *t, fit_plan_t *const *plans, const int64_t *elapsed_us, int n,
                       const char *sweep_budgets, char *const *audits, int64_t *ids, rs_error_t *err);

#endif
