/* fit_outlook: what a fit faces before it runs and what its plan records of
 * it: the candidate cap, and the floors of DESIGN §13 (floor.c computes
 * them; the plan's and the outlook's come from the same cut). */
#include <stdlib.h>
#include <string.h>

#include "plan/fit_int.h"

int32_t fit_cap(const fit_options_t *opt, bool minimize)
{
    return opt->max_candidates >= 0 ? opt->max_candidates : minimize ? -1 : 32;
}

int fit_check_aliasing(const fit_context_t *ctx, rs_error_t *err)
{
    if (ctx->cfg.aliasing)
        return RS_OK;
    return error_set(err, RS_EINPUT, "--no-aliasing", 0, 0,
                     "fit needs buffer_aliasing on: with it off every buffer spans the whole routine, "
                     "so no flip can relieve anything");
}

int fit_floors(fit_plan_t *p, const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, rs_error_t *err)
{
    floor_fit_t f;
    int rc = floor_of_fit(l, prefs, cfg, p->cap, &f, err);
    if (rc)
        return rc;
    p->floor = f.floor;
    p->floor_cap = f.cap;
    return RS_OK;
}

int fit_outlook(const fit_options_t *opt, const fit_context_t *ctx, fit_outlook_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int rc = fit_check_aliasing(ctx, err);
    if (rc)
        return rc;
    lowering_t *l = NULL;
    uint8_t *prefs = calloc((size_t)ctx->routine->n_nodes + 1, 1);
    if (!prefs)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    fit_context_prefs(ctx, prefs);
    out->minimize = opt->budget.kind == BUDGET_MINIMIZE;
    out->cap = fit_cap(opt, out->minimize);
    rc = lower_routine(ctx->routine, ctx->bindings, &l, err);
    if (!rc)
        rc = floor_of_fit(l, prefs, &ctx->cfg, out->cap, &out->floors, err);
    if (!rc)
        rc = units_budget_resolve(&opt->budget, out->floors.baseline.total, opt->device_bytes, &out->budget,
                                  &out->minimize, err);
    if (!rc && !out->minimize && out->floors.baseline.total <= out->budget) {
        /* fit returns at once: it cuts nothing */
        out->cap = -1;
        out->floors.dropped = 0;
        out->floors.cap = out->floors.floor;
    }
    lower_free(l);
    free(prefs);
    return rc;
}
