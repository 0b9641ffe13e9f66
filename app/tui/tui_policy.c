#include "tui/tui_policy.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "text.h"
#include "tui/tui_draw.h"
#include "tui/tui_model.h"
#include "tui/tui_rows.h"
#include "tui/tui_sweep.h"
#include "tui/tui_widgets.h"

void tui_policy_add(tui_t *t)
{
    char name[128] = "";
    if (!tui_prompt(t, "the same step under a jax.checkpoint policy (a stored routine): ", name, sizeof name, false) ||
        !name[0])
        return;
    footprint_t fp;
    rs_error_t err;
    if (tui_score_routine(t, name, &fp, &err)) {
        tui_error(t, name, &err);
        return;
    }
    char budget[32];
    snprintf(budget, sizeof budget, "%lld", (long long)fp.total);
    int at = -1;
    for (int i = 0; i < t->n_cmp_rows && at < 0; i++)
        if (t->cmp_rows[i].plan && !t->cmp_rows[i].plan->minimize && t->cmp_rows[i].plan->budget == fp.total)
            at = i;
    if (at < 0) {
        if (!tui_rows_add(t, budget)) {
            tui_status(t, true, "at most %d budgets", TUI_MAX_BUDGETS);
            return;
        }
        at = t->n_cmp_rows - 1;
    }
    compare_row_t *r = &t->cmp_rows[at];
    snprintf(r->policy, sizeof r->policy, "%s", name);
    r->policy_fp = fp;
    t->cmp_sel = at;
    if (!r->plan && tui_sweep_run(t) != RS_ECANCELED && !t->cmp_rows[at].plan)
        tui_rows_remove(t, at); /* a budget that cannot be fitted is no row: the status says why */
}

int tui_policy_line(tui_t *t, int y)
{
    if (!t->n_cmp_rows)
        return 0;
    const compare_row_t *r = &t->cmp_rows[t->cmp_sel];
    if (!r->policy[0] || !r->plan)
        return 0;
    const fit_plan_t *p = r->plan;
    int64_t base = p->baseline.compute, pol = r->policy_fp.compute - base, ours = p->final.compute - base;
    char tot[32], a[40], b[40], ratio[48] = "", line[512];
    units_format_bytes(r->policy_fp.total, tot, sizeof tot);
    if (p->within_budget && pol > 0)
        snprintf(ratio, sizeof ratio, ", %.2fx the policy's", (double)ours / (double)pol);
    snprintf(line, sizeof line, "P policy %s: %s, adds %s over the baseline; the plan at its memory adds %s%s%s",
             text_shown(r->policy), tot, text_signed_flops(pol, a, sizeof a), text_signed_flops(ours, b, sizeof b),
             ratio, p->within_budget ? "" : " and misses it");
    tui_put(t, y, 1, t->cols - 2, t->attr[T_HELD], line);
    return 1;
}
