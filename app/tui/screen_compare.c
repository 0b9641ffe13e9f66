/* Compare budgets: a row per budget, all fitted as one search (one reuse
 * cell); final footprint, flips, recompute and its estimated time, within
 * budget; a footprint-vs-recompute chart; the flips that change between a
 * budget and the one above it. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tui.h"
#include "units.h"

#define TABLE_Y 3

static double overhead(const fit_plan_t *p)
{
    return p->baseline.compute ? 100.0 * (double)(p->final.compute - p->baseline.compute) / (double)p->baseline.compute
                               : 0.0;
}

/* Fits every budget as one search. */
static void run_all(tui_t *t)
{
    for (int i = 0; i < TUI_MAX_BUDGETS; i++) {
        fit_plan_free(t->cmp[i]);
        t->cmp[i] = NULL;
    }
    t->cmp_reused = t->cmp_lowered = 0;
    t->cmp_stale = false;
    if (!t->open || !t->n_budgets)
        return;
    fit_context_t *ctx = NULL;
    rs_error_t err;
    if (target_context(&t->tgt, &ctx, &err)) {
        tui_status(t, true, "%s", err.msg);
        return;
    }
    fit_options_t opt = { .name = "compare", .max_candidates = -1,
                          .device_bytes = t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1 };
    reuse_owner_t owner = fit_owner(ctx, opt.name);
    reuse_cell_t *cell = reuse_cell_new(&owner, false);
    tui_put(t, t->rows - 2, 0, t->cols, t->attr[T_NORMAL] | A_BOLD, "fitting every budget as one search...");
    refresh();
    for (int i = 0; cell && i < t->n_budgets; i++) {
        if (units_parse_budget(t->budgets[i], "budget", &opt.budget, &err) ||
            fit_run(&opt, ctx, cell, &t->cmp[i], &err)) {
            tui_status(t, true, "%s: %s", t->budgets[i], err.msg);
            t->cmp[i] = NULL;
        }
    }
    if (cell)
        reuse_cell_counters(cell, &t->cmp_reused, &t->cmp_lowered);
    reuse_cell_free(cell);
    fit_context_free(ctx);
}

static void chart(tui_t *t, int y, int x, int h, int w)
{
    if (h < 4 || w < 20)
        return;
    double max_over = 0;
    int64_t max_fp = 0;
    for (int i = 0; i < t->n_budgets; i++)
        if (t->cmp[i]) {
            if (overhead(t->cmp[i]) > max_over)
                max_over = overhead(t->cmp[i]);
            if (t->cmp[i]->final.total > max_fp)
                max_fp = t->cmp[i]->final.total;
        }
    if (max_fp <= 0)
        return;
    if (max_over <= 0)
        max_over = 1;
    tui_put(t, y, x, w, t->attr[T_DIM], "final footprint (up) vs recompute overhead (right); the digit is the row");
    int ch = h - 2, cw = w - 8;
    for (int r = 0; r < ch; r++)
        tui_put(t, y + 1 + r, x + 6, 1, t->attr[T_DIM], tui_glyph(t, "│", "|"));
    char lbl[16];
    view_axis_bytes(max_fp, lbl, sizeof lbl);
    tui_putf(t, y + 1, x, 6, t->attr[T_DIM], "%5s", lbl);
    tui_put(t, y + ch, x, 6, t->attr[T_DIM], "    0");
    for (int c = 0; c < cw; c++)
        tui_put(t, y + 1 + ch, x + 7 + c, 1, t->attr[T_DIM], tui_glyph(t, "─", "-"));
    tui_putf(t, y + 1 + ch, x + 7 + cw - 10, 10, t->attr[T_DIM], "+%.1f%%", max_over);
    for (int i = 0; i < t->n_budgets; i++) {
        if (!t->cmp[i])
            continue;
        int cx = (int)(overhead(t->cmp[i]) / max_over * (cw - 1));
        int cy = ch - 1 - (int)((double)t->cmp[i]->final.total / (double)max_fp * (ch - 1));
        tui_putf(t, y + 1 + cy, x + 7 + cx, 1, i == t->cmp_sel ? t->attr[T_SELECTED] : t->attr[T_ACCEPTED], "%d",
                 (i + 1) % 10);
    }
}

static bool has_flip(const fit_plan_t *p, int32_t node)
{
    for (int32_t k = 0; p && k < p->n_flips; k++)
        if (p->flips[k].node == node)
            return true;
    return false;
}

void screen_compare_draw(tui_t *t)
{
    if (!t->open)
        return;
    if (t->cmp_stale)
        run_all(t);
    tui_putf(t, 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD,
             "%d budget%s on %s, one search: reuse %lld/%lld   (a adds, d removes)", t->n_budgets,
             t->n_budgets == 1 ? "" : "s", t->open_name, (long long)t->cmp_reused, (long long)t->cmp_lowered);
    tui_putf(t, TABLE_Y, 1, t->cols - 2, t->attr[T_DIM], "%2s %-12s %12s %15s %6s %11s %12s %7s", "#", "budget", "final",
             "final B", "flips", "recompute", "est. time", "within");
    for (int i = 0; i < t->n_budgets; i++) {
        const fit_plan_t *p = t->cmp[i];
        unsigned a = i == t->cmp_sel ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        if (!p) {
            tui_putf(t, TABLE_Y + 1 + i, 1, t->cols - 2, a, "%2d %-12s %12s", i + 1, t->budgets[i], "(error)");
            continue;
        }
        char fin[32], est[32] = "-";
        units_format_bytes(p->final.total, fin, sizeof fin);
        if (t->tgt.has_profile && t->tgt.profile.flops_per_s > 0)
            snprintf(est, sizeof est, "+%.3g s", profile_seconds(&t->tgt.profile, p->final.compute - p->baseline.compute));
        tui_putf(t, TABLE_Y + 1 + i, 1, t->cols - 2, a, "%2d %-12s %12s %15lld %6d %+10.3f%% %12s %7s", i + 1,
                 t->budgets[i], fin, (long long)p->final.total, (int)p->n_flips, overhead(p), est,
                 p->within_budget ? "yes" : "no");
    }
    int y = TABLE_Y + 2 + (t->n_budgets ? t->n_budgets : 1);
    if (t->n_budgets && t->cmp[t->cmp_sel]) {
        const fit_plan_t *p = t->cmp[t->cmp_sel], *q = t->cmp_sel > 0 ? t->cmp[t->cmp_sel - 1] : NULL;
        char line[1024];
        size_t w = (size_t)snprintf(line, sizeof line, "row %d vs %s: ", t->cmp_sel + 1,
                                    t->cmp_sel > 0 ? "the row above" : "the baseline");
        int shown = 0;
        for (int32_t k = 0; k < p->n_flips && w < sizeof line - 64; k++)
            if (!has_flip(q, p->flips[k].node))
                w += (size_t)snprintf(line + w, sizeof line - w, "%s+%s", shown++ ? " " : "",
                                      t->tgt.routine->nodes[p->flips[k].node].name);
        for (int32_t k = 0; q && k < q->n_flips && w < sizeof line - 64; k++)
            if (!has_flip(p, q->flips[k].node))
                w += (size_t)snprintf(line + w, sizeof line - w, "%s-%s", shown++ ? " " : "",
                                      t->tgt.routine->nodes[q->flips[k].node].name);
        if (!shown)
            snprintf(line + w, sizeof line - w, "the same flips");
        tui_put(t, y, 1, t->cols - 2, t->attr[T_NORMAL], line);
    }
    chart(t, y + 2, 1, t->rows - y - 5, t->cols - 2);
}

int screen_compare_key(tui_t *t, action_t a, int key)
{
    (void)key;
    if (!t->open)
        return KEY_UNHANDLED;
    switch (a) {
    case ACT_ADD_BUDGET: {
        if (t->n_budgets >= TUI_MAX_BUDGETS) {
            tui_status(t, true, "at most %d budgets", TUI_MAX_BUDGETS);
            return KEY_REDRAW;
        }
        char buf[48] = "";
        if (tui_prompt(t, "add budget (48MiB, 60%, device, minimize): ", buf, sizeof buf, false) && buf[0]) {
            budget_spec_t spec;
            rs_error_t err;
            if (units_parse_budget(buf, "budget", &spec, &err)) {
                tui_status(t, true, "%s", err.msg);
                return KEY_REDRAW;
            }
            snprintf(t->budgets[t->n_budgets++], sizeof t->budgets[0], "%s", buf);
            t->cmp_sel = t->n_budgets - 1;
            run_all(t);
        }
        return KEY_REDRAW;
    }
    case ACT_REMOVE_BUDGET:
        if (!t->n_budgets)
            return KEY_REDRAW;
        fit_plan_free(t->cmp[t->cmp_sel]);
        for (int i = t->cmp_sel; i + 1 < t->n_budgets; i++) {
            memcpy(t->budgets[i], t->budgets[i + 1], sizeof t->budgets[i]);
            t->cmp[i] = t->cmp[i + 1];
        }
        t->cmp[--t->n_budgets] = NULL;
        if (t->cmp_sel >= t->n_budgets && t->cmp_sel > 0)
            t->cmp_sel--;
        run_all(t);
        return KEY_REDRAW;
    case ACT_UP: t->cmp_sel -= t->cmp_sel > 0; return KEY_REDRAW;
    case ACT_DOWN: t->cmp_sel += t->cmp_sel + 1 < t->n_budgets; return KEY_REDRAW;
    case ACT_TOP: t->cmp_sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->cmp_sel = t->n_budgets ? t->n_budgets - 1 : 0; return KEY_REDRAW;
    default: return KEY_UNHANDLED;
    }
}
