#include "cli/frontier_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/answer_out.h"
#include "model/units.h"
#include "text.h"

int frontier_out_wanted(const cmdline_t *c, bool *on, rs_error_t *err)
{
    *on = false;
    if (!c->planner || strcmp(c->planner, "two-round") == 0)
        return RS_OK;
    if (strcmp(c->planner, "frontier") == 0) {
        *on = true;
        return RS_OK;
    }
    return error_set(err, RS_EINPUT, "--planner", 0, 0, "expected two-round or frontier, found '%s'", c->planner);
}

/* ^C on the progress bar stops the search with the best found */
static int interrupted(void *pg) { return progress_stopped(pg); }

int frontier_out_run(const cmdline_t *c, const fit_plan_t *p, const fit_context_t *ctx, const progress_t *pg,
                     frontier_result_t *out, double *seconds, rs_error_t *err)
{
    return frontier_plan_run(p, ctx, c->time_limit, c->iterations > 0 ? c->iterations : 0, pg ? interrupted : NULL,
                             (void *)pg, out, seconds, err);
}

void frontier_out_json(json_t *j, const fit_plan_t *p, const frontier_result_t *f, double seconds)
{
    json_obj_begin(j, "frontier");
    json_footprint(j, "final", &f->final);
    json_arr_begin(j, "flips");
    for (int32_t k = 0; k < f->n_flips; k++) {
        json_obj_begin(j, NULL);
        json_str(j, "node", p->routine->nodes[f->flips[k].node].name);
        json_str(j, "kind", frontier_kind_name((frontier_kind_t)f->flips[k].kind));
        json_int(j, "relief", f->flips[k].relief);
        json_int(j, "recompute", f->flips[k].recompute);
        json_obj_end(j);
    }
    json_arr_end(j);
    /* DESIGN §13's groups by where the nodes came from, both kinds together */
    fit_flip_t *ff = calloc((size_t)f->n_flips + 1, sizeof *ff);
    if (ff) {
        for (int32_t k = 0; k < f->n_flips; k++)
            ff[k] = (fit_flip_t){ .relief = f->flips[k].relief, .recompute = f->flips[k].recompute,
                                  .node = f->flips[k].node };
        answer_flips_t a = { .r = p->routine, .f = ff, .n = f->n_flips, .recompute_known = true,
                             .baseline = f->baseline };
        answer_out_json_origins(j, &a);
        free(ff);
    }
    json_int(j, "explored", f->explored);
    json_bool(j, "within_budget", f->within_budget);
    json_bool(j, "stopped", f->stopped);
    json_bool(j, "seeds_cut", f->seeds_cut);
    json_double(j, "seconds", seconds);
    json_obj_end(j);
}

void frontier_out_print(const target_t *t, const fit_plan_t *p, const frontier_result_t *f, double seconds)
{
    char a[32], fl[32], r[192];
    int32_t n_remat = 0;
    for (int32_t k = 0; k < f->n_flips; k++)
        n_remat += f->flips[k].kind == FRONTIER_REMAT;
    printf("\nfrontier (DESIGN §14): %d flips, %d of them remat (recompute once); %lld scorings, %.3f s%s\n",
           (int)f->n_flips, (int)n_remat, (long long)f->explored, seconds,
           f->seeds_cut ? ", the policy-like seeds stopped by the time limit (the search before them finished)"
           : f->stopped ? ", stopped by the time limit"
                        : "");
    units_format_bytes(f->final.total, a, sizeof a);
    units_format_flops(f->final.compute, fl, sizeof fl);
    printf("  final      %-10s (%lld B), compute %s (%lld FLOPs)\n", a, (long long)f->final.total, fl,
           (long long)f->final.compute);
    text_recompute(f->final.compute - f->baseline.compute, f->baseline.compute,
                   t->has_profile ? t->profile.flops_per_s : 0, text_shown(t->profile.name), r, sizeof r);
    printf("  recompute  %s\n", r);
    int64_t dc = (f->final.compute - f->baseline.compute) - (p->final.compute - p->baseline.compute);
    printf("  vs two-round: footprint %+lld B, added compute %+lld FLOPs; within budget: %s\n",
           (long long)(f->final.total - p->final.total), (long long)dc, f->within_budget ? "yes" : "no");
    for (int32_t k = 0; k < f->n_flips; k++) {
        units_format_bytes(f->flips[k].relief < 0 ? -f->flips[k].relief : f->flips[k].relief, a, sizeof a);
        units_format_flops(f->flips[k].recompute < 0 ? -f->flips[k].recompute : f->flips[k].recompute, fl,
                           sizeof fl);
        char origin[1024], shown[1024];
        routine_node_origin(p->routine, f->flips[k].node, origin, sizeof origin);
        printf("  %-6s %-24s relief %s%-10s recompute %s%-12s %s\n",
               frontier_kind_name((frontier_kind_t)f->flips[k].kind),
               text_shown(p->routine->nodes[f->flips[k].node].name), f->flips[k].relief < 0 ? "-" : "", a,
               f->flips[k].recompute < 0 ? "-" : "+", fl, text_escape(origin, shown, sizeof shown));
    }
}

void frontier_out_curve(const target_t *t, fit_plan_t *const *plans, const char *const *asked,
                        const frontier_result_t *frs, int n)
{
    bool timed = t->has_profile && t->profile.flops_per_s > 0;
    printf("\nfrontier planner (DESIGN §14: inline and remat flips):\n%-22s %12s %12s %12s %-6s %6s %12s%s\n",
           "budget", "final", "recompute", "two-round", "within", "remat", "scorings", timed ? "  time on profile" : "");
    for (int i = 0; i < n; i++) {
        const fit_plan_t *p = plans[i];
        const frontier_result_t *f = &frs[i];
        char bud[48], b[32], x[32], y[32], tm[32];
        units_format_budget(asked[i], p->minimize, p->budget, bud, sizeof bud);
        units_format_bytes(f->final.total, b, sizeof b);
        int64_t add = f->final.compute - f->baseline.compute, add5 = p->final.compute - p->baseline.compute;
        units_format_flops(add < 0 ? -add : add, x, sizeof x);
        units_format_flops(add5 < 0 ? -add5 : add5, y, sizeof y);
        int32_t n_remat = 0;
        for (int32_t k = 0; k < f->n_flips; k++)
            n_remat += f->flips[k].kind == FRONTIER_REMAT;
        printf("%-22s %12s %s%11s %s%11s %-6s %6d %12lld", bud, b, add < 0 ? "-" : "+", x, add5 < 0 ? "-" : "+", y,
               f->within_budget ? "yes" : "no", (int)n_remat, (long long)f->explored);
        if (timed) {
            units_format_seconds(profile_seconds(&t->profile, f->final.compute), tm, sizeof tm);
            printf("  %s", tm);
        }
        printf("\n");
    }
}
