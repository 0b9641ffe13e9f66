#include "cli/policy_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower/score.h"
#include "model/units.h"
#include "text.h"
#include "util/path.h"

int policy_out_score(const cmdline_t *c, policy_point_t **out, int *n, rs_error_t *err)
{
    *out = NULL;
    *n = 0;
    if (c->n_policies == 0)
        return RS_OK;
    policy_point_t *pts = calloc((size_t)c->n_policies, sizeof *pts);
    if (!pts)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    /* the plain step's preferences name its nodes, not the policy program's */
    cmdline_t pc = *c;
    pc.inlines = NULL;
    pc.n_inlines = 0;
    pc.remats = NULL;
    pc.n_remats = 0;
    int rc = RS_OK;
    for (int k = 0; k < c->n_policies && !rc; k++) {
        target_t t;
        if ((rc = target_open(&pc, c->policies[k], &t, err)))
            break;
        rc = score_lowering(t.lowering, t.prefs, &t.cfg, &pts[k].fp, NULL, err);
        pts[k].routine = strdup(t.routine->name);
        pts[k].label = path_tail(c->policies[k], 2);
        if (!rc && !pts[k].routine)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        snprintf(pts[k].budget, sizeof pts[k].budget, "%lld", (long long)pts[k].fp.total);
        target_free(&t);
        *n = k + 1;
    }
    if (rc) {
        policy_out_free(pts, *n);
        *n = 0;
        return rc;
    }
    *out = pts;
    return RS_OK;
}

void policy_out_free(policy_point_t *p, int n)
{
    for (int k = 0; p && k < n; k++)
        free(p[k].routine);
    free(p);
}

/* ours over the policy's added compute: "0.92x", "-" when the policy adds none
 * (within the budget only: a missed budget is no plan at that memory) */
static const char *ratio(int64_t ours, int64_t policy, char *buf, size_t n)
{
    if (policy <= 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.2fx", (double)ours / (double)policy);
    return buf;
}

void policy_out_print(const target_t *t, fit_plan_t *const *plans, const frontier_result_t *frs, int first,
                      const policy_point_t *pts, int n)
{
    (void)t;
    printf("\nagainst the policies (each the same step under a jax.checkpoint policy, scored alone; its total is "
           "the budget):\n");
    int w = 6;
    for (int k = 0; k < n; k++)
        if ((int)strlen(text_shown(pts[k].label)) > w)
            w = (int)strlen(text_shown(pts[k].label));
    printf("%-*s %10s %13s   %10s %13s %-6s", w, "policy", "total", "adds", "two-round", "adds", "within");
    if (frs)
        printf("   %10s %13s %-6s %7s", "frontier", "adds", "within", "vs it");
    printf("\n");
    for (int k = 0; k < n; k++) {
        const fit_plan_t *p = plans[first + k];
        int64_t base = p->baseline.compute, pol = pts[k].fp.compute - base;
        char a[32], b[32], x[40], y[40];
        units_format_bytes(pts[k].fp.total, a, sizeof a);
        units_format_bytes(p->final.total, b, sizeof b);
        printf("%-*s %10s %13s   %10s %13s %-6s", w, text_shown(pts[k].label), a, text_signed_flops(pol, x, sizeof x), b,
               text_signed_flops(p->final.compute - base, y, sizeof y), p->within_budget ? "yes" : "no");
        if (frs) {
            const frontier_result_t *f = &frs[first + k];
            char r[16];
            units_format_bytes(f->final.total, b, sizeof b);
            printf("   %10s %13s %-6s %7s", b, text_signed_flops(f->final.compute - base, y, sizeof y),
                   f->within_budget ? "yes" : "no",
                   f->within_budget ? ratio(f->final.compute - base, pol, r, sizeof r) : "missed");
        }
        printf("\n");
    }
}

void policy_out_json(json_t *j, fit_plan_t *const *plans, const frontier_result_t *frs, int first,
                     const policy_point_t *pts, int n)
{
    json_arr_begin(j, "policies");
    for (int k = 0; k < n; k++) {
        const fit_plan_t *p = plans[first + k];
        int64_t base = p->baseline.compute;
        json_obj_begin(j, NULL);
        json_str(j, "routine", pts[k].routine);
        json_str(j, "file", pts[k].label);
        json_footprint(j, "footprint", &pts[k].fp);
        json_int(j, "added_compute", pts[k].fp.compute - base);
        json_int(j, "budget_index", first + k);
        json_int(j, "two_round_added_compute", p->final.compute - base);
        if (frs)
            json_int(j, "frontier_added_compute", frs[first + k].final.compute - base);
        json_obj_end(j);
    }
    json_arr_end(j);
}
