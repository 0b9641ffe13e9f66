#include "cli/frontier_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/answer_out.h"
#include "plan/answer.h"
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

frontier_shown_t frontier_out_shown(const target_t *t, const fit_plan_t *p, const frontier_result_t *f,
                                    double seconds)
{
    return (frontier_shown_t){ .r = p->routine, .flips = f->flips, .n_flips = f->n_flips, .baseline = f->baseline,
                               .final = f->final, .two_round = p->final, .explored = f->explored,
                               .within_budget = f->within_budget, .stopped = f->stopped, .seeds_cut = f->seeds_cut,
                               .adopted = f->adopted, .seconds = seconds, .flops_per_s = t->has_profile ? t->profile.flops_per_s : 0,
                               .profile = t->has_profile ? t->profile.name : "" };
}

int frontier_out_stored(const stored_plan_t *p, const routine_t *r, frontier_shown_t *v, rs_error_t *err)
{
    const stored_frontier_t *f = &p->frontier;
    frontier_flip_t *flips = NULL;
    rs_error_t ignored;
    if (r && frontiers_flips(f, r, &flips, &ignored))
        r = NULL; /* a name not in the routine: names alone */
    const char **names = NULL;
    if (!r) {
        flips = calloc((size_t)f->n_flips + 1, sizeof *flips);
        names = calloc((size_t)f->n_flips + 1, sizeof *names);
        for (int32_t k = 0; flips && names && k < f->n_flips; k++) {
            flips[k] = (frontier_flip_t){ .relief = f->flips[k].relief, .recompute = f->flips[k].recompute,
                                          .node = -1, .kind = (uint8_t)f->flips[k].kind };
            names[k] = f->flips[k].node;
        }
        if (!flips || !names) {
            free(flips);
            free(names);
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    *v = (frontier_shown_t){ .r = r, .names = names, .flips = flips, .n_flips = f->n_flips, .baseline = p->baseline,
                             .final = f->final, .two_round = p->final, .explored = f->explored,
                             .within_budget = f->within_budget, .stopped = f->stopped, .seeds_cut = f->seeds_cut,
                             .seconds = (double)f->elapsed_us / 1e6, .flops_per_s = p->flops_per_s,
                             .profile = p->profile };
    return RS_OK;
}

void frontier_out_stored_free(frontier_shown_t *v)
{
    free((void *)v->flips);
    free((void *)v->names);
    memset(v, 0, sizeof *v);
}

/* v's flips as §13's answers take them (node -1 when named alone); a new
 * array (free()), NULL when out of memory. */
static fit_flip_t *as_fit_flips(const frontier_shown_t *v)
{
    fit_flip_t *ff = calloc((size_t)v->n_flips + 1, sizeof *ff);
    for (int32_t k = 0; ff && k < v->n_flips; k++)
        ff[k] = (fit_flip_t){ .relief = v->flips[k].relief, .recompute = v->flips[k].recompute,
                              .node = v->r ? v->flips[k].node : -1 };
    return ff;
}

static const char *flip_node(const frontier_shown_t *v, int32_t k)
{
    return v->r ? v->r->nodes[v->flips[k].node].name : v->names[k];
}

void frontier_out_json(json_t *j, const frontier_shown_t *v)
{
    json_obj_begin(j, "frontier");
    json_footprint(j, "final", &v->final);
    json_arr_begin(j, "flips");
    for (int32_t k = 0; k < v->n_flips; k++) {
        json_obj_begin(j, NULL);
        json_str(j, "node", flip_node(v, k));
        json_str(j, "kind", frontier_kind_name((frontier_kind_t)v->flips[k].kind));
        json_int(j, "relief", v->flips[k].relief);
        json_int(j, "recompute", v->flips[k].recompute);
        json_obj_end(j);
    }
    json_arr_end(j);
    /* DESIGN §13's groups by where the nodes came from, both kinds together */
    fit_flip_t *ff = as_fit_flips(v);
    if (ff) {
        answer_flips_t a = { .r = v->r, .f = ff, .names = v->names, .n = v->n_flips, .recompute_known = true,
                             .baseline = v->baseline };
        answer_out_json_origins(j, &a);
        free(ff);
    }
    json_int(j, "explored", v->explored);
    json_bool(j, "within_budget", v->within_budget);
    json_bool(j, "stopped", v->stopped);
    json_bool(j, "seeds_cut", v->seeds_cut);
    if (v->adopted)
        json_bool(j, "adopted", true);
    json_double(j, "seconds", v->seconds);
    json_obj_end(j);
}

/* DESIGN §13's groups in the user's terms, both kinds: "train_step.py:110
 * (conv): recompute 3 of the values it makes at every read; relief 34.1
 * MiB, +466 MFLOPs". */
static void print_origins(const frontier_shown_t *v)
{
    fit_flip_t *ff = as_fit_flips(v);
    int32_t *group_of = calloc((size_t)v->n_flips + 1, sizeof *group_of);
    answer_origin_t *g = NULL;
    int32_t n = 0;
    rs_error_t err;
    if (ff && group_of && v->n_flips > 0 && answer_by_origin(v->r, ff, v->n_flips, &g, &n, group_of, &err) == RS_OK) {
        printf("  by origin, what to do with the values each line makes (biggest relief first):\n");
        for (int32_t k = 0; k < n; k++) {
            int32_t once = 0, every = 0;
            for (int32_t i = 0; i < v->n_flips; i++)
                if (group_of[i] == k)
                    v->flips[i].kind == FRONTIER_REMAT ? once++ : every++;
            char a[32], fl[40], shown[512];
            units_format_bytes(g[k].relief < 0 ? -g[k].relief : g[k].relief, a, sizeof a);
            printf("    %s%s%s%s: recompute ", text_escape(g[k].origin, shown, sizeof shown),
                   g[k].function ? " (" : "", g[k].function ? text_shown(g[k].function) : "", g[k].function ? ")" : "");
            if (once)
                printf("%s once, before its later reads", text_count(once, "value", NULL));
            if (once && every)
                printf(", ");
            if (every)
                printf("%s at every read", text_count(every, "value", NULL));
            printf("; relief %s%s, %s\n", g[k].relief < 0 ? "-" : "", a,
                   text_signed_flops(g[k].recompute, fl, sizeof fl));
        }
    }
    free(g);
    free(ff);
    free(group_of);
}

void frontier_out_print(const frontier_shown_t *v)
{
    char a[32], fl[32], r[192];
    int32_t n_remat = 0;
    for (int32_t k = 0; k < v->n_flips; k++)
        n_remat += v->flips[k].kind == FRONTIER_REMAT;
    printf("\nfrontier (DESIGN §14): %d flips, %d of them remat (recompute once); %lld scorings, %.3f s%s\n",
           (int)v->n_flips, (int)n_remat, (long long)v->explored, v->seconds,
           v->seeds_cut ? ", the policy-like seeds stopped by the time limit (the search before them finished)"
           : v->stopped ? ", stopped by the time limit"
                        : "");
    if (v->adopted)
        printf("  (the plan another budget's search found: better at this budget than this one's own)\n");
    units_format_bytes(v->final.total, a, sizeof a);
    units_format_flops(v->final.compute, fl, sizeof fl);
    printf("  final      %-10s (%lld B), compute %s (%lld FLOPs)\n", a, (long long)v->final.total, fl,
           (long long)v->final.compute);
    text_recompute(v->final.compute - v->baseline.compute, v->baseline.compute, v->flops_per_s,
                   text_shown(v->profile), r, sizeof r);
    printf("  recompute  %s\n", r);
    int64_t dc = (v->final.compute - v->baseline.compute) - (v->two_round.compute - v->baseline.compute);
    printf("  vs two-round: footprint %+lld B, added compute %+lld FLOPs; within budget: %s\n",
           (long long)(v->final.total - v->two_round.total), (long long)dc, v->within_budget ? "yes" : "no");
    for (int32_t k = 0; k < v->n_flips; k++) {
        const frontier_flip_t *x = &v->flips[k];
        units_format_bytes(x->relief < 0 ? -x->relief : x->relief, a, sizeof a);
        units_format_flops(x->recompute < 0 ? -x->recompute : x->recompute, fl, sizeof fl);
        char origin[1024] = "", shown[1024];
        if (v->r)
            routine_node_origin(v->r, x->node, origin, sizeof origin);
        printf("  %-6s %-24s relief %s%-10s recompute %s%-12s %s\n", frontier_kind_name((frontier_kind_t)x->kind),
               text_shown(flip_node(v, k)), x->relief < 0 ? "-" : "", a, x->recompute < 0 ? "-" : "+", fl,
               text_escape(origin, shown, sizeof shown));
    }
    if (v->r)
        print_origins(v);
}

int frontier_out_adopt(fit_plan_t *const *plans, frontier_result_t *frs, int n, rs_error_t *err)
{
    int *from = calloc((size_t)n + 1, sizeof *from);
    frontier_result_t *was = calloc((size_t)n + 1, sizeof *was);
    int rc = from && was ? RS_OK : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < n && !rc; i++) { /* chosen among the searches' own plans, before any is replaced */
        from[i] = i;
        for (int j = 0; j < n; j++)
            if (frontier_better(plans[i]->minimize, plans[i]->budget, &frs[j].final, &frs[from[i]].final))
                from[i] = j;
    }
    /* the chosen plans copied first: a budget whose plan goes to another may take a third's itself */
    for (int i = 0; i < n && !rc; i++)
        if (from[i] != i)
            rc = frontier_adopt(&was[i], &frs[from[i]], plans[i]->minimize, plans[i]->budget, err);
    for (int i = 0; i < n && !rc; i++)
        if (from[i] != i)
            rc = frontier_adopt(&frs[i], &was[i], plans[i]->minimize, plans[i]->budget, err);
    for (int i = 0; was && i < n; i++)
        free(was[i].flips);
    free(was);
    free(from);
    return rc;
}

void frontier_out_curve(const target_t *t, fit_plan_t *const *plans, const char *const *asked,
                        const frontier_result_t *frs, int n)
{
    bool timed = t->has_profile && t->profile.flops_per_s > 0;
    printf("\nfrontier planner (DESIGN §14: inline and remat flips):\n%-22s %12s %12s %12s %-6s %6s %12s%s\n",
           "budget", "final", "recompute", "two-round", "within", "remat", "scorings",
           timed ? "  its time at the profile's peak FLOP/s" : "");
    for (int i = 0; i < n; i++) {
        const fit_plan_t *p = plans[i];
        const frontier_result_t *f = &frs[i];
        char bud[48], b[32], x[40], y[40], tm[32];
        int64_t added = f->final.compute - f->baseline.compute;
        units_format_budget(asked[i], p->minimize, p->budget, bud, sizeof bud);
        units_format_bytes(f->final.total, b, sizeof b);
        text_signed_flops(added, x, sizeof x);
        text_signed_flops(p->final.compute - p->baseline.compute, y, sizeof y);
        int32_t n_remat = 0;
        for (int32_t k = 0; k < f->n_flips; k++)
            n_remat += f->flips[k].kind == FRONTIER_REMAT;
        printf("%-22s %12s %12s %12s %-6s %6d %12lld", bud, b, x, y, f->within_budget ? "yes" : "no", (int)n_remat,
               (long long)f->explored);
        if (timed) { /* the recompute's, as the two-round table's time column (the step's whole read as added) */
            units_format_seconds(profile_seconds(&t->profile, added < 0 ? -added : added), tm, sizeof tm);
            printf("  %s%s", added < 0 ? "-" : "+", tm);
        }
        printf("%s\n", f->adopted ? "  (another budget's search found it)" : "");
    }
}
