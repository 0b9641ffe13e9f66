/* save: recording fits and sweeps in the session store (fit --save,
 * sweep --save, S in the TUI): the routine, the profile, then the plans,
 * in one transaction; and a plan's gap to the best or improved plan. */
#ifndef RS_SAVE_H
#define RS_SAVE_H

#include "best.h"
#include "cmdline.h"
#include "plan/fit.h"
#include "plan/frontier.h"
#include "target.h"

/* What to save with plans[0..n): budgets[i] is the budget plans[i] was
 * asked for, as typed ("60%"; NULL: unknown); sweep_budgets the sweep's
 * budget list, or NULL for single fits; audits[i] what --audit found in
 * plans[i] (audits NULL, or an entry NULL: not audited). */
typedef struct save_extra {
    const char *const *budgets;
    const char *sweep_budgets;
    char *const *audits;
    /* may be NULL: frontiers[i] the frontier plan (DESIGN §14) run beside
     * plans[i], which took frontier_seconds[i] */
    const frontier_result_t *frontiers;
    const double *frontier_seconds;
    /* may be NULL: how far the save is, in each plan's events in turn
     * (plans.h); nonzero stops it with RS_ECANCELED and nothing saved */
    int (*progress)(void *ud, int64_t done, int64_t total);
    void *progress_ud;
} save_extra_t;

/* Saves plans[0..n) made on t's routine, with x (NULL: nothing more), all
 * or nothing (one transaction).  ids[i] gets each plan's id. */
int save_plans(const cmdline_t *c, target_t *t, fit_plan_t *const *plans, const int64_t *elapsed_us, int n,
               const save_extra_t *x, int64_t *ids, rs_error_t *err);

/* Records b, run beside p, as saved plan plan_id's gap in t's store (the
 * exact or improved plan DESIGN §12 keeps with it). */
int save_gap(target_t *t, const fit_plan_t *p, int64_t plan_id, const best_plan_t *b, rs_error_t *err);

#endif
