/* Fuzz target: the routine parser, then the whole score pipeline (bindings,
 * lowering, virtualizer, liveness, layout, footprint, candidates) and a
 * small fit on whatever parses. */
#include <stdint.h>
#include <stdlib.h>

#include "lower/score.h"
#include "model/routine.h"
#include "plan/cand.h"
#include "plan/fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Up to 4 MiB reaches the parser, so a long line (a million terms) is
     * in reach and a parse that is not linear in its input times out; only
     * what is small goes on through the planner, which is not linear. */
    if (size > 1 << 22)
        return 0;
    routine_t *r;
    rs_error_t err;
    if (routine_parse("fuzz.routine", (const char *)data, size, &r, &err)) {
        if (err.code != RS_EINPUT && err.code != RS_ENOMEM)
            abort();
        return 0;
    }
    if (size > 1 << 16) {
        routine_free(r);
        return 0;
    }
    bindings_t b;
    lowering_t *l = NULL;
    if (!routine_bindings(r, NULL, 0, &b, &err)) {
        if (!lower_routine(r, &b, &l, &err) && l->n_nodes < 2000) {
            score_config_t cfg;
            score_config_default(&cfg);
            cfg.max_inline_depth = 3;
            footprint_t fp;
            score_detail_t d;
            if (!score_lowering(l, NULL, &cfg, &fp, &d, &err)) {
                if (fp.total < fp.live_peak) /* the lower bound is a lower bound */
                    abort();
                flip_candidate_t *c;
                int32_t n;
                if (!flip_candidates(l, &d.place, &d.live, &c, &n, &err))
                    free(c);
                fit_context_t *ctx;
                if (n <= 24 && !fit_context_root(r, &b, &cfg, NULL, 0, &ctx, &err)) {
                    fit_options_t opt = { .max_candidates = 6, .device_bytes = -1, .threads = 1 };
                    opt.budget.kind = BUDGET_MINIMIZE;
                    fit_plan_t *p;
                    if (!fit_run(&opt, ctx, NULL, &p, &err)) {
                        int64_t sum = 0;
                        for (int32_t i = 0; i < p->n_flips; i++)
                            sum += p->flips[i].relief;
                        if (sum != p->baseline.total - p->final.total)
                            abort(); /* the reliefs sum exactly */
                        fit_plan_free(p);
                    }
                    fit_context_free(ctx);
                }
            }
            score_detail_free(&d);
        }
        lower_free(l);
        bindings_free(&b);
    }
    routine_free(r);
    return 0;
}
