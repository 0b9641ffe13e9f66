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
#include "plans.h"
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

/* A frontier plan to print, run now or stored (show): its flips name
 * nodes of r, or, when r is NULL (a stored plan whose routine was not
 * rebuilt), names[k] is flip k's node. */
typedef struct frontier_shown {
    const routine_t *r;
    const char *const *names;
    const frontier_flip_t *flips;
    int32_t n_flips;
    footprint_t baseline, final;
    footprint_t two_round;   /* §5's plan at the same budget */
    int64_t explored;
    bool within_budget, stopped, seeds_cut;
    bool adopted;            /* another budget's search found it (a sweep) */
    double seconds;
    int64_t flops_per_s;     /* of the profile, 0 when none */
    const char *profile;     /* its name, "" when none */
} frontier_shown_t;

/* The view of f, run beside p on t. */
frontier_shown_t frontier_out_shown(const target_t *t, const fit_plan_t *p, const frontier_result_t *f,
                                    double seconds);

/* The view of stored plan p's frontier plan (p->frontier.present): its
 * flips' nodes found in r (p's routine rebuilt), or by name alone when r
 * is NULL or a name is not one of r's.  RS_ENOMEM; free v's arrays with
 * frontier_out_stored_free. */
int frontier_out_stored(const stored_plan_t *p, const routine_t *r, frontier_shown_t *v, rs_error_t *err);
void frontier_out_stored_free(frontier_shown_t *v);

/* fit --json's (and show --json's) "frontier" key. */
void frontier_out_json(json_t *j, const frontier_shown_t *v);

/* The plan as text, beside §5's. */
void frontier_out_print(const frontier_shown_t *v);

/* After a sweep's searches: each budget takes the best plan any of them
 * found by its own objective (frontier_adopt), so the curve never shows a
 * plan that another budget's plan beats; plans[i] is budget i's §5 plan. */
int frontier_out_adopt(fit_plan_t *const *plans, frontier_result_t *frs, int n, rs_error_t *err);

/* sweep --planner frontier's curve: per budget, the frontier plan's total,
 * added compute (and its time on the profile) beside §5's. */
void frontier_out_curve(const target_t *t, fit_plan_t *const *plans, const char *const *asked,
                        const frontier_result_t *frs, int n);

#endif
