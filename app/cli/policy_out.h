/* policy_out: `sweep --policy FILE` (issue 45): the same step under a
 * `jax.checkpoint` policy as a reference point.  Each policy program is
 * scored as the tool scores the plain step (the same profile and config,
 * no preferences); its total becomes one more budget of the sweep, and the
 * policy's (total, added compute) is printed beside the plans the sweep
 * found at that total: the question a JAX user asks, "does the planner
 * beat my policy at its own memory?". */
#ifndef RS_POLICY_OUT_H
#define RS_POLICY_OUT_H

#include "cli/json.h"
#include "cmdline.h"
#include "plan/fit.h"
#include "plan/frontier.h"
#include "target.h"

typedef struct policy_point {
    char *routine;      /* the policy program's routine name */
    const char *label;  /* what the table calls it: the file's last two parts as given ("llama_remat/after.hlo") */
    footprint_t fp;     /* its footprint, scored alone */
    char budget[24];    /* its total as a budget ("3963207680"), the sweep's text for it */
} policy_point_t;

/* Scores each of c's --policy files (or stored names) with c's profile and
 * config and no preferences.  *out (free with policy_out_free) gets n
 * points, in the order given; RS_EINPUT as target_open and score_lowering
 * give it, naming the file. */
int policy_out_score(const cmdline_t *c, policy_point_t **out, int *n, rs_error_t *err);
void policy_out_free(policy_point_t *p, int n);

/* The table after the sweep: per policy, its total and the compute it adds
 * over plans[i]'s baseline (plans[first + k] is the sweep's plan at
 * policy k's total), §5's plan there and, when frs is not NULL, the
 * frontier plan's, with the frontier's added compute over the policy's. */
void policy_out_print(const target_t *t, fit_plan_t *const *plans, const frontier_result_t *frs, int first,
                      const policy_point_t *pts, int n);

/* sweep --json's "policies": one object a policy (routine, file,
 * footprint, added_compute, budget_index, and the plans' added compute
 * there). */
void policy_out_json(json_t *j, fit_plan_t *const *plans, const frontier_result_t *frs, int first,
                     const policy_point_t *pts, int n);

#endif
