#include "frontier_plan.h"

#include <stdlib.h>

#include "monotime.h"

typedef struct deadline {
    int64_t until_us;
    int (*stop)(void *ud); /* ^C stops the search too (may be NULL) */
    void *ud;
} deadline_t;

static int past(void *ud)
{
    const deadline_t *d = ud;
    return monotime_us() >= d->until_us || (d->stop && d->stop(d->ud));
}

int frontier_plan_run(const fit_plan_t *p, const fit_context_t *ctx, double limit_s, int64_t max_scorings,
                      int (*stop)(void *ud), void *ud, frontier_result_t *out, double *seconds, rs_error_t *err)
{
    int32_t *seed = malloc(((size_t)p->n_flips + 1) * sizeof *seed);
    if (!seed)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t k = 0; k < p->n_flips; k++)
        seed[k] = p->flips[k].node;
    int64_t t0 = monotime_us();
    double limit = limit_s > 0 ? limit_s : FRONTIER_DEFAULT_SECONDS;
    deadline_t d = { t0 + (int64_t)(limit * 0.75e6), stop, ud };
    frontier_options_t o = { .minimize = p->minimize, .budget = p->budget, .seed = seed, .n_seed = p->n_flips,
                             .max_scorings = max_scorings > 0 ? max_scorings : 0, .stop = past, .stop_ud = &d };
    int rc = frontier_run(&o, ctx, out, err);
    *seconds = (double)(monotime_us() - t0) / 1e6;
    free(seed);
    return rc;
}
