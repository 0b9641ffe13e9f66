/* Plans: the stored plans, sortable by column and filterable; mark two to
 * diff; export the marked (or selected) ones to CSV; delete with
 * confirmation; Enter re-runs one in the fit stepper. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "rebuild.h"
#include "text.h"
#include "tui.h"
#include "units.h"

#define TABLE_Y 4
enum { COL_ID, COL_LABEL, COL_ROUTINE, COL_BUDGET, COL_FINAL, COL_FLIPS, COL_WITHIN, COL_CREATED, N_COLS };
static const char *COL_NAMES[N_COLS] = { "id", "label", "routine", "budget", "final", "flips", "within", "created" };

static tui_t *sort_t; /* qsort has no context argument */

static int cmp_plans(const void *pa, const void *pb)
{
    const stored_plan_t *a = &sort_t->plans[*(const int *)pa], *b = &sort_t->plans[*(const int *)pb];
    int r = 0;
    switch (sort_t->sort_col) {
    case COL_LABEL: r = strcmp(a->label, b->label); break;
    case COL_ROUTINE: r = strcmp(a->routine, b->routine); break;
    case COL_BUDGET: r = (a->budget_bytes > b->budget_bytes) - (a->budget_bytes < b->budget_bytes); break;
    case COL_FINAL: r = (a->final.total > b->final.total) - (a->final.total < b->final.total); break;
    case COL_FLIPS: r = (a->n_flips > b->n_flips) - (a->n_flips < b->n_flips); break;
    case COL_WITHIN: r = (int)a->within_budget - (int)b->within_budget; break;
    case COL_CREATED: r = strcmp(a->created_at, b->created_at); break;
    default: break;
    }
    if (!r)
        r = (a->id > b->id) - (a->id < b->id);
    return sort_t->sort_rev ? -r : r;
}

/* The visible rows: filtered by the search text, sorted. */
static void order(tui_t *t)
{
    t->n_order = 0;
    for (int i = 0; i < t->n_plans; i++) {
        const stored_plan_t *p = &t->plans[i];
        if (t->search[0] && !strstr(p->label, t->search) && !strstr(p->routine, t->search))
            continue;
        t->order[t->n_order++] = i;
    }
    sort_t = t;
    qsort(t->order, (size_t)t->n_order, sizeof *t->order, cmp_plans);
    if (t->plan_sel >= t->n_order)
        t->plan_sel = t->n_order ? t->n_order - 1 : 0;
}

static int rows(const tui_t *t) { return t->rows - TABLE_Y - 4; }

void screen_plans_draw(tui_t *t)
{
    if (!t->order)
        return;
    order(t);
    int marked = 0;
    for (int i = 0; i < t->n_plans; i++)
        marked += t->marked[i];
    tui_putf(t, 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD,
             "%d plans%s%s%s, %d marked; sorted by %s%s   (s sort, / filter, Space mark, D diff, e export, x delete)",
             t->n_order, t->search[0] ? " matching '" : "", t->search, t->search[0] ? "'" : "", marked,
             COL_NAMES[t->sort_col], t->sort_rev ? " (reversed)" : "");
    tui_putf(t, TABLE_Y - 1, 1, t->cols - 2, t->attr[T_DIM], "  %5s  %-18s %-22s %-10s %11s %6s %6s  %s", "id",
             "label", "routine", "budget", "final", "flips", "within", "created");
    int n = rows(t);
    if (t->plan_sel < t->plan_top)
        t->plan_top = t->plan_sel;
    if (n > 0 && t->plan_sel >= t->plan_top + n)
        t->plan_top = t->plan_sel - n + 1;
    for (int k = 0; k < n && t->plan_top + k < t->n_order; k++) {
        int i = t->order[t->plan_top + k];
        const stored_plan_t *p = &t->plans[i];
        char bud[32], fin[32], label[64], rname[64];
        if (strcmp(p->budget_kind, "minimize") == 0)
            snprintf(bud, sizeof bud, "minimize");
        else
            units_format_bytes(p->budget_bytes, bud, sizeof bud);
        units_format_bytes(p->final.total, fin, sizeof fin);
        text_escape(p->label, label, sizeof label);
        snprintf(rname, sizeof rname, "%s v%d", p->routine, (int)p->routine_version);
        unsigned a = t->plan_top + k == t->plan_sel ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        tui_putf(t, TABLE_Y + k, 1, t->cols - 2, a, "%s %5lld  %-18.18s %-22.22s %-10s %11s %6d %6s  %s",
                 t->marked[i] ? tui_glyph(t, "●", "*") : " ", (long long)p->id, label, rname, bud, fin,
                 (int)p->n_flips, p->within_budget ? "yes" : "no", p->created_at);
    }
    if (!t->n_plans)
        tui_put(t, TABLE_Y, 3, t->cols - 4, t->attr[T_DIM], "(no plans: run a fit and press S to save it)");
}

static const stored_plan_t *selected(const tui_t *t)
{
    return t->n_order ? &t->plans[t->order[t->plan_sel]] : NULL;
}

/* The plans to act on: the marked ones, else the selected one. */
static int chosen(const tui_t *t, const stored_plan_t **out, int max)
{
    int n = 0;
    for (int k = 0; k < t->n_order && n < max; k++)
        if (t->marked[t->order[k]])
            out[n++] = &t->plans[t->order[k]];
    if (!n && selected(t))
        out[n++] = selected(t);
    return n;
}

static void diff(tui_t *t)
{
    const stored_plan_t *pick[2];
    int n = 0;
    for (int k = 0; k < t->n_order && n < 2; k++)
        if (t->marked[t->order[k]])
            pick[n++] = &t->plans[t->order[k]];
    if (n == 1 && selected(t) && selected(t) != pick[0])
        pick[n++] = selected(t);
    if (n < 2) {
        tui_status(t, true, "mark two plans with Space (or one, and select the other)");
        return;
    }
    stored_plan_t full[2];
    rs_error_t err;
    if (plans_load(t->store, pick[0]->id, false, &full[0], &err)) {
        tui_status(t, true, "%s", err.msg);
        return;
    }
    if (plans_load(t->store, pick[1]->id, false, &full[1], &err)) {
        stored_plan_free(&full[0]);
        tui_status(t, true, "%s", err.msg);
        return;
    }
    char *lines[64];
    int m = 0;
    char buf[512], a[64], b[64];
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "", (snprintf(a, sizeof a, "plan %lld", (long long)full[0].id), a),
             (snprintf(b, sizeof b, "plan %lld", (long long)full[1].id), b));
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "routine", full[0].routine, full[1].routine);
    lines[m++] = strdup(buf);
    for (int k = 0; k < 2; k++) {
        if (strcmp(full[k].budget_kind, "minimize") == 0)
            snprintf(k ? b : a, 64, "minimize");
        else
            units_format_bytes(full[k].budget_bytes, k ? b : a, 64);
    }
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "budget", a, b);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26lld %26lld", "baseline B", (long long)full[0].baseline.total,
             (long long)full[1].baseline.total);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26lld %26lld", "final B", (long long)full[0].final.total,
             (long long)full[1].final.total);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26lld %26lld", "recompute ops", (long long)(full[0].final.compute - full[0].baseline.compute),
             (long long)(full[1].final.compute - full[1].baseline.compute));
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26d %26d", "flips", (int)full[0].n_flips, (int)full[1].n_flips);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "within budget", full[0].within_budget ? "yes" : "no",
             full[1].within_budget ? "yes" : "no");
    lines[m++] = strdup(buf);
    lines[m++] = strdup("");
    for (int k = 0; k < 2; k++) {
        size_t w = (size_t)snprintf(buf, sizeof buf, "only in plan %lld:", (long long)full[k].id);
        int shown = 0;
        for (int32_t i = 0; i < full[k].n_flips && w < sizeof buf - 40; i++) {
            bool other = false;
            for (int32_t j = 0; j < full[1 - k].n_flips && !other; j++)
                other = strcmp(full[k].flips[i].node, full[1 - k].flips[j].node) == 0;
            if (!other)
                w += (size_t)snprintf(buf + w, sizeof buf - w, " %s", full[k].flips[i].node), shown++;
        }
        if (!shown)
            snprintf(buf + w, sizeof buf - w, " none");
        lines[m++] = strdup(buf);
    }
    tui_overlay(t, "Diff", lines, m);
    for (int i = 0; i < m; i++)
        free(lines[i]);
    stored_plan_free(&full[0]);
    stored_plan_free(&full[1]);
}

static void export_chosen(tui_t *t)
{
    const stored_plan_t *pick[256];
    int n = chosen(t, pick, 256);
    if (!n)
        return;
    char path[512] = "plans.csv", what[32] = "plans";
    if (!tui_prompt(t, "export to (Tab completes): ", path, sizeof path, true) || !path[0] ||
        !tui_prompt(t, "what (plans, flips, events, layout): ", what, sizeof what, false))
        return;
    int w = export_what_parse(what);
    if (w < 0) {
        tui_status(t, true, "expected plans, flips, events or layout");
        return;
    }
    stored_plan_t *full = calloc((size_t)n, sizeof *full);
    rs_error_t err;
    int rc = full ? RS_OK : RS_ENOMEM, loaded = 0;
    for (; !rc && loaded < n; loaded++)
        rc = plans_load(t->store, pick[loaded]->id, w == EXPORT_EVENTS, &full[loaded], &err);
    if (rc)
        loaded--;
    if (!rc)
        rc = export_plans(t->store, full, n, (export_what_t)w, path, &err);
    if (rc)
        tui_status(t, true, "%s", err.msg);
    else
        tui_status(t, false, "wrote %d plan%s (%s) to %s", n, n == 1 ? "" : "s", what, path);
    for (int i = 0; i < loaded; i++)
        stored_plan_free(&full[i]);
    free(full);
}

/* Re-runs a stored plan in the fit stepper: its routine, bindings, profile,
 * config and preferences, then its budget and cap (fit is deterministic, so
 * this is the same plan). */
static void open_plan(tui_t *t)
{
    const stored_plan_t *p = selected(t);
    if (!p)
        return;
    snprintf(t->binds, sizeof t->binds, "%s", p->bindings);
    t->profile = -1;
    for (int i = 0; i < t->n_profiles; i++)
        if (strcmp(t->profiles[i].name, p->profile) == 0)
            t->profile = i;
    if (!tui_open_routine(t, p->routine))
        return;
    rs_error_t err;
    if (rebuild_config_parse(p->config, &t->tgt.cfg, &err)) {
        tui_status(t, true, "%s", err.msg);
        return;
    }
    memset(t->tgt.prefs, 0, (size_t)t->tgt.routine->n_nodes);
    char prefs[4096];
    snprintf(prefs, sizeof prefs, "%s", p->prefs);
    char *save = NULL;
    for (char *tok = strtok_r(prefs, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        int32_t id = routine_find_node(t->tgt.routine, tok);
        if (id >= 0)
            t->tgt.prefs[id] = 1;
    }
    tui_score(t, t->tgt.prefs, &t->det, &t->arena);
    char budget[48];
    if (strcmp(p->budget_kind, "minimize") == 0)
        snprintf(budget, sizeof budget, "minimize");
    else
        snprintf(budget, sizeof budget, "%lld", (long long)p->budget_bytes);
    t->fit_cap = p->cap;
    if (tui_run_fit(t, budget)) {
        t->screen = SCR_FIT;
        if (t->plan->final.total != p->final.total)
            tui_status(t, true, "re-run of plan %lld gives %lld B, not the %lld B it recorded", (long long)p->id,
                       (long long)t->plan->final.total, (long long)p->final.total);
        else
            tui_status(t, false, "plan %lld re-run: the same %d flips", (long long)p->id, (int)t->plan->n_flips);
    }
}

int screen_plans_key(tui_t *t, action_t a, int key)
{
    (void)key;
    int page = rows(t) > 1 ? rows(t) - 1 : 1;
    switch (a) {
    case ACT_UP: t->plan_sel -= t->plan_sel > 0; return KEY_REDRAW;
    case ACT_DOWN: t->plan_sel += t->plan_sel + 1 < t->n_order; return KEY_REDRAW;
    case ACT_PGUP: t->plan_sel = t->plan_sel > page ? t->plan_sel - page : 0; return KEY_REDRAW;
    case ACT_PGDN: t->plan_sel = t->plan_sel + page < t->n_order ? t->plan_sel + page : (t->n_order ? t->n_order - 1 : 0); return KEY_REDRAW;
    case ACT_TOP: t->plan_sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->plan_sel = t->n_order ? t->n_order - 1 : 0; return KEY_REDRAW;
    case ACT_SORT: t->sort_col = (t->sort_col + 1) % N_COLS; return KEY_REDRAW;
    case ACT_SORT_REVERSE: t->sort_rev = !t->sort_rev; return KEY_REDRAW;
    case ACT_MARK:
        if (t->n_order) {
            t->marked[t->order[t->plan_sel]] = !t->marked[t->order[t->plan_sel]];
            t->plan_sel += t->plan_sel + 1 < t->n_order;
        }
        return KEY_REDRAW;
    case ACT_SEARCH: {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", t->search);
        if (tui_prompt(t, "filter (label or routine; empty clears): ", buf, sizeof buf, false))
            snprintf(t->search, sizeof t->search, "%s", buf);
        return KEY_REDRAW;
    }
    case ACT_DIFF: diff(t); return KEY_REDRAW;
    case ACT_EXPORT: export_chosen(t); return KEY_REDRAW;
    case ACT_DELETE: {
        const stored_plan_t *p = selected(t);
        if (!p)
            return KEY_REDRAW;
        char q[96];
        snprintf(q, sizeof q, "delete plan %lld?", (long long)p->id);
        int64_t id = p->id;
        if (tui_confirm(t, q)) {
            rs_error_t err;
            int rc = store_begin(t->store, &err);
            if (!rc)
                rc = plans_delete(t->store, id, &err);
            if (!rc)
                rc = store_commit(t->store, &err);
            else
                store_rollback(t->store);
            if (rc)
                tui_status(t, true, "%s", err.msg);
            else
                tui_status(t, false, "deleted plan %lld", (long long)id);
            tui_reload(t);
        }
        return KEY_REDRAW;
    }
    case ACT_OPEN: open_plan(t); return KEY_REDRAW;
    default: return KEY_UNHANDLED;
    }
}

int screen_plans_click(tui_t *t, int y, int x)
{
    (void)x;
    int row = y - TABLE_Y;
    if (row >= 0 && row < rows(t) && t->plan_top + row < t->n_order)
        t->plan_sel = t->plan_top + row;
    return KEY_REDRAW;
}
