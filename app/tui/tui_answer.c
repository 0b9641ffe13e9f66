#include "tui/tui_answer.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "text.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_model.h"
#include "tui/tui_widgets.h"

bool tui_answer_floor(tui_t *t)
{
    if (!t->open || !t->arena.bufs)
        return false;
    if (t->arena.has_floor)
        return true;
    rs_error_t err;
    if (floor_compute(t->tgt.lowering, &t->det, &t->tgt.cfg, NULL, &t->arena.floor, &err))
        return false;
    t->arena.has_floor = true;
    return true;
}

/* The floors the fit of budget would face, as tui_run_fit would run it
 * (the cap C set, the profile's memory); false when there is nothing to
 * say: no byte budget, or one fit will refuse with its own error. */
static bool outlook_of(tui_t *t, const char *budget, fit_outlook_t *o)
{
    fit_options_t opt = { .max_candidates = t->fit_cap >= 0 ? t->fit_cap : t->cap,
                          .device_bytes = t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1 };
    fit_context_t *ctx = NULL;
    rs_error_t err;
    if (units_parse_budget(budget, "budget", &opt.budget, &err) || opt.budget.kind == BUDGET_MINIMIZE ||
        target_context(&t->tgt, &ctx, &err))
        return false;
    bool ok = fit_outlook(&opt, ctx, o, &err) == RS_OK && !o->minimize;
    fit_context_free(ctx);
    return ok;
}

bool tui_answer_ask_fit(tui_t *t, char *buf, size_t n)
{
    char label[160] = "fit to budget (48MiB, 60%, device, minimize): ";
    if (tui_answer_floor(t)) {
        char fl[32];
        units_format_bytes(t->arena.floor.bytes, fl, sizeof fl);
        snprintf(label, sizeof label, "fit to budget (floor %s; 48MiB, 60%%, device, minimize): ", fl);
    }
    tui_budget_offer(t, buf, n);
    if (!tui_prompt(t, label, buf, n, false) || !buf[0])
        return false;
    fit_outlook_t o;
    char said[1024];
    int below = t->open && outlook_of(t, buf, &o) ? text_floor_below(o.budget, &o.floors, said, sizeof said) : 0;
    if (!below)
        return true;
    /* what holds the floor, on the rows over the question */
    char why[1100];
    snprintf(why, sizeof why, "%s%s", said, below == 2 ? " (C sets the cap: all considers every one)" : "");
    /* the whole of it, on as many rows as it takes up to half the screen:
     * cut, it lost its last words, the ones that say what to do */
    int rows = tui_prose_rows(why, t->cols, 2), most = t->rows / 2 - 2;
    rows = rows > most ? most : rows < 3 ? 3 : rows;
    for (int y = t->rows - 2 - rows; y < t->rows - 2; y++)
        tui_fill(t, y, 0, t->cols, t->attr[T_ERROR]);
    tui_put_prose(t, t->rows - 2 - rows, 0, t->cols, rows, 2, t->attr[T_ERROR], why, NULL);
    char q[128];
    snprintf(q, sizeof q, "fit to %.60s anyway?", buf);
    /* the cap alone holds it: one key fits with every candidate (C all, then
     * f again, was the way, and the walk did not find it) */
    int ch = below == 2 ? tui_ask(t, q, "(y/n; a: with every candidate, as C all)", "yna") : tui_confirm(t, q) ? 'y' : 0;
    if (ch == 'a')
        tui_cap_set(t, INT32_MAX);
    if (ch == 'y' || ch == 'a')
        return true;
    /* the reason in short: the question above said it whole, and at 80
     * columns the whole of it was cut after "the floor under the cap, …" */
    char bud[32], fl[32];
    units_format_bytes(o.budget, bud, sizeof bud);
    units_format_bytes(below == 2 ? o.floors.cap.bytes : o.floors.floor.bytes, fl, sizeof fl);
    if (below == 2)
        tui_status(t, false, "not fitted: %s is below the floor under the cap, %s (C sets the cap: all considers "
                   "every one)", bud, fl);
    else
        tui_status(t, false, "not fitted: %s is below the floor, %s: no plan can reach it", bud, fl);
    return false;
}

void tui_answer_cap_line(tui_t *t, int y, int32_t cap, const char *budgets, int64_t floor_bytes, const char *how)
{
    char fl[32], v[3][512];
    units_format_bytes(floor_bytes, fl, sizeof fl);
    snprintf(v[0], sizeof v[0], "the cap of %d keeps %.200s out of reach; every candidate reaches down to %s: %s",
             (int)cap, budgets, fl, how);
    snprintf(v[1], sizeof v[1], "the cap of %d keeps %.200s out of reach (every candidate: %s): %s", (int)cap,
             budgets, fl, how);
    snprintf(v[2], sizeof v[2], "cap %d: %.200s out of reach; %s", (int)cap, budgets, how);
    tui_put_fit(t, y, 1, t->cols - 2, t->attr[T_ERROR], (const char *const[]){ v[0], v[1], v[2] }, 3);
}

int64_t tui_answer_recompute(const fit_plan_t *p)
{
    int64_t sum = 0;
    for (int32_t i = 0; i < p->n_flips; i++)
        sum += p->flips[i].recompute;
    return sum;
}

int64_t tui_answer_stored_recompute(const stored_plan_t *p)
{
    if (!p->recompute_known)
        return p->final.compute - p->baseline.compute;
    int64_t sum = 0;
    for (int32_t i = 0; i < p->n_flips; i++)
        sum += p->flips[i].recompute;
    return sum;
}

void tui_answer_marks(const fit_plan_t *p, tui_answer_marks_t *m)
{
    m->flip_of = malloc(((size_t)p->routine->n_nodes + 1) * sizeof *m->flip_of);
    m->unpaid = calloc((size_t)p->n_flips + 1, 1);
    for (int32_t i = 0; m->flip_of && i < p->routine->n_nodes; i++)
        m->flip_of[i] = -1;
    for (int32_t k = 0; m->flip_of && k < p->n_flips; k++)
        m->flip_of[p->flips[k].node] = k;
    if (m->unpaid)
        answer_unpaid(p->flips, p->n_flips, p->baseline.total, p->baseline.compute, m->unpaid);
}

void tui_answer_marks_free(tui_answer_marks_t *m)
{
    free(m->flip_of);
    free(m->unpaid);
    m->flip_of = NULL;
    m->unpaid = NULL;
}

answer_origin_t *tui_answer_origins(const fit_plan_t *p, int32_t *n, int32_t *group_of)
{
    answer_origin_t *g = NULL;
    rs_error_t err;
    *n = 0;
    if (!p->n_flips || answer_by_origin(p->routine, p->flips, p->n_flips, &g, n, group_of, &err))
        return NULL;
    return g;
}
