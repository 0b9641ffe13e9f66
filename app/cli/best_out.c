#include "cli/best_out.h"

#include <stdio.h>

#include "model/units.h"
#include "text.h"

int best_out_run(const cmdline_t *c, const fit_plan_t *p, const fit_context_t *ctx,
                 int (*watch)(void *ud, const best_tally_t *t), void *ud, best_plan_t out[2], rs_error_t *err)
{
    out[0] = (best_plan_t){ 0 };
    out[1] = (best_plan_t){ 0 };
    int rc = RS_OK;
    best_limits_t lim = { c->time_limit, c->iterations > 0 ? c->iterations : 0 };
    if (c->exact)
        rc = best_run_watched(BEST_EXACT, p, ctx, lim, c->audit, watch, ud, &out[0], err);
    if (!rc && c->improve)
        rc = best_run_watched(BEST_IMPROVED, p, ctx, lim, c->audit, watch, ud, &out[1], err);
    return rc;
}

const best_plan_t *best_out_gap(const best_plan_t out[2])
{
    return out[0].kind ? &out[0] : out[1].kind ? &out[1] : NULL;
}

void best_out_json(json_t *j, const fit_plan_t *p, const best_plan_t *b)
{
    if (!b->kind)
        return;
    json_obj_begin(j, best_kind_name(b->kind));
    if (b->found)
        json_footprint(j, "final", &b->final);
    else
        json_null(j, "final");
    json_arr_begin(j, "flips");
    for (int32_t i = 0; i < b->n_flips; i++)
        json_str(j, NULL, p->routine->nodes[b->flips[i]].name);
    json_arr_end(j);
    if (b->kind == BEST_EXACT) {
        json_bool(j, "proved", b->proved);
        json_int(j, "explored", b->explored);
    } else {
        json_int(j, "moves", b->moves);
        json_bool(j, "local_optimum", b->proved);
        json_int(j, "scored", b->explored);
    }
    json_int(j, "candidates", b->n_cands);
    json_double(j, "seconds", (double)b->elapsed_us / 1e6);
    json_obj_end(j);
}

void best_out_print(const fit_plan_t *p, const best_plan_t *b)
{
    if (!b->kind)
        return;
    char a[32];
    if (b->kind == BEST_EXACT)
        printf("\nexact: the best plan, %s (%s scored, %s, %.3f s)\n",
               b->proved ? "proved" : "NOT proved: the time limit stopped the search",
               text_count(b->explored, "subset", NULL), text_count(b->n_cands, "candidate", NULL),
               (double)b->elapsed_us / 1e6);
    else
        printf("\nimproved: %s from the two-round plan, %s (%lld scored, %.3f s)\n", text_count(b->moves, "move", NULL),
               b->proved ? "a local optimum" : "stopped by the time limit", (long long)b->explored,
               (double)b->elapsed_us / 1e6);
    if (!b->found) { /* only a search that finished may say none exists */
        printf(b->kind == BEST_EXACT && b->proved ? "  no subset of the candidates fits the budget (proved)\n"
                                                  : "  none found within the budget before the search stopped (not "
                                                    "proved)\n");
        return;
    }
    char fl[32], dfl[32];
    int64_t dc = b->final.compute - p->final.compute;
    units_format_bytes(b->final.total, a, sizeof a);
    units_format_flops(b->final.compute, fl, sizeof fl);
    units_format_flops(dc < 0 ? -dc : dc, dfl, sizeof dfl);
    printf("  final      %-10s (%lld B), compute %s (%lld FLOPs)\n", a, (long long)b->final.total, fl,
           (long long)b->final.compute);
    printf("  vs two-round: footprint %+lld B, compute %s%s (%+lld FLOPs)\n", (long long)(b->final.total - p->final.total),
           dc < 0 ? "-" : "+", dfl, (long long)dc);
    printf("  flips (%d):", (int)b->n_flips);
    for (int32_t i = 0; i < b->n_flips; i++)
        printf(" %s", p->routine->nodes[b->flips[i]].name);
    printf("\n  differ:");
    int shown = 0;
    for (int32_t i = 0; i < b->n_flips; i++)
        if (!best_plan_has(p, b->flips[i]))
            printf(" +%s", p->routine->nodes[b->flips[i]].name), shown++;
    for (int32_t i = 0; i < p->n_flips; i++)
        if (!best_has(b, p->flips[i].node))
            printf(" -%s", p->routine->nodes[p->flips[i].node].name), shown++;
    printf("%s\n", shown ? "" : " none");
}
