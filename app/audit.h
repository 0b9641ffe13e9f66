/* audit: the check `fit --audit` and `sweep --audit` run every reuse
 * through (DESIGN §6): the reused lowering against a fresh one, every
 * field a scoring consumes, each difference kept as a line naming the
 * node, the field and both values. */
#ifndef RS_AUDIT_H
#define RS_AUDIT_H

#include <pthread.h>
#include <stdint.h>

#include "plan/fit.h"
#include "util/strbuf.h"

/* Lines kept per audit; the count goes on past it. */
#define AUDIT_MAX_LINES 1000

typedef struct audit {
    pthread_mutex_t lock;  /* the check runs on round one's workers too */
    int64_t checked;       /* reuses checked */
    int64_t differences;
    strbuf_t lines;        /* "reuse N: node X (step S): field[i]: reused A, fresh B\n" ... */
} audit_t;

void audit_init(audit_t *a);
void audit_free(audit_t *a);

/* The check (a reuse_audit_fn; ud is an audit_t). */
void audit_check(void *ud, const lowering_t *reused, const lowering_t *fresh);

/* fit_run under the check a (NULL: no audit). */
int audit_fit_run(audit_t *a, const fit_options_t *opt, const fit_context_t *ctx, reuse_cell_t *cell,
                  fit_plan_t **out, rs_error_t *err);

/* fit_sweep of budgets[0..n) with each plan's reuses checked into its own
 * audit audits[i] (NULL: no audit); elapsed_us[i] gets how long each plan
 * took after the one before (the first: with the baseline and round one);
 * opt's own plan_done, if any, is still called after each plan. */
int audit_sweep_run(audit_t *audits, const fit_options_t *opt, const budget_spec_t *budgets, int32_t n,
                    const fit_context_t *ctx, reuse_cell_t *cell, fit_plan_t **plans, int64_t *elapsed_us,
                    rs_error_t *err);

/* The plan's record of a: "N reuses checked, D differences\n" then the
 * lines (and a line for those past AUDIT_MAX_LINES).  NULL when out of
 * memory; the caller frees it. */
char *audit_record(const audit_t *a);

#endif
