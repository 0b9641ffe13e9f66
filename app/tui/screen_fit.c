/* The Fit stepper: run fit to a typed budget, then step through its events
 * with the candidates' statuses, the arena at that event, and the sentence
 * explaining it; Enter asks why of a node. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "save.h"
#include "trace.h"
#include "tui.h"
#include "units.h"

#define LEFT_W 56
#define TABLE_Y 4

static int table_rows(const tui_t *t) { return t->rows - TABLE_Y - 6; }

static theme_slot_t status_slot(uint8_t st)
{
    switch ((fit_status_t)st) {
    case ST_ACCEPTED:
    case ST_COMMITTED: return T_ACCEPTED;
    case ST_HELD: return T_HELD;
    case ST_DISCARDED:
    case ST_DROPPED: return T_DISCARDED;
    case ST_REJECTED: return T_REJECTED;
    default: return T_NORMAL;
    }
}

/* Re-scores the arena for the flips accepted at the current event. */
static void event_arena(tui_t *t)
{
    int32_t acc = view_accepted_at(t->plan, t->event);
    if (acc == t->ev_accepted && t->ev_arena.bufs)
        return;
    uint8_t *prefs = calloc((size_t)t->tgt.routine->n_nodes + 1, 1);
    if (!prefs)
        return;
    fit_context_prefs(t->ctx, prefs);
    for (int32_t k = 0; k < acc && k < t->plan->n_flips; k++)
        prefs[t->plan->flips[k].node] = 1;
    if (tui_score(t, prefs, &t->ev_det, &t->ev_arena))
        t->ev_accepted = acc;
    free(prefs);
}

static void wrap2(tui_t *t, int y, const char *s, unsigned attr)
{
    int w = t->cols - 2;
    size_t len = strlen(s);
    if ((int)len <= w) {
        tui_put(t, y, 1, w, attr, s);
        return;
    }
    int cut = w;
    while (cut > w / 2 && s[cut] != ' ')
        cut--;
    char first[1024];
    snprintf(first, sizeof first, "%.*s", cut, s);
    tui_put(t, y, 1, w, attr, first);
    tui_put(t, y + 1, 3, w - 2, attr, s + cut + (s[cut] == ' '));
}

void screen_fit_draw(tui_t *t)
{
    if (!t->plan) {
        tui_put(t, 3, 2, t->cols - 4, t->attr[T_NORMAL] | A_BOLD, "No fit yet.");
        tui_put(t, 5, 2, t->cols - 4, t->attr[T_NORMAL],
                "Press b and type a budget: 48MiB, 1.5GB, 60% (of the baseline), device (the profile's memory),");
        tui_put(t, 6, 2, t->cols - 4, t->attr[T_NORMAL], "or minimize. ^C cancels a running fit.");
        return;
    }
    const fit_plan_t *p = t->plan;
    const routine_t *r = t->tgt.routine;
    if (t->event >= p->n_events)
        t->event = p->n_events - 1;
    if (t->event < 0)
        t->event = 0;
    const fit_event_t *e = &p->events[t->event];
    char base[32], fin[32], bud[48];
    units_format_bytes(p->baseline.total, base, sizeof base);
    units_format_bytes(p->final.total, fin, sizeof fin);
    if (p->minimize)
        snprintf(bud, sizeof bud, "minimize");
    else
        units_format_bytes(p->budget, bud, sizeof bud);
    tui_putf(t, 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD,
             "fit %s: %s -> %s, %d flips, %s   event %d/%d  round %d  %s", bud, base, fin, (int)p->n_flips,
             p->within_budget ? "within budget" : "NOT within budget", (int)t->event + 1, (int)p->n_events,
             (int)e->round, trace_kind_name((fit_event_kind_t)e->kind));
    /* the candidates in round-one order, with their status at this event */
    uint8_t *status = calloc((size_t)p->n_cands + 1, 1);
    if (status)
        view_statuses_at(p, t->event, status);
    tui_putf(t, 3, 1, LEFT_W, t->attr[T_DIM], "%3s %-12s %9s %10s %6s  %-9s", "rk", "candidate", "solo", "cost",
             "B/op", "status");
    int rows = table_rows(t);
    if (t->fit_sel >= p->n_cands)
        t->fit_sel = p->n_cands - 1;
    if (t->fit_sel < 0)
        t->fit_sel = 0;
    if (t->fit_sel < t->fit_top)
        t->fit_top = t->fit_sel;
    if (rows > 0 && t->fit_sel >= t->fit_top + rows)
        t->fit_top = t->fit_sel - rows + 1;
    for (int k = 0; k < rows && t->fit_top + k < p->n_cands; k++) {
        int i = t->fit_top + k;
        const fit_cand_t *c = &p->cands[i];
        char solo[32] = "-", ratio[16] = "-";
        if (c->solo >= 0) {
            char b[24];
            units_format_bytes(c->relief < 0 ? -c->relief : c->relief, b, sizeof b);
            snprintf(solo, sizeof solo, "%s%s", c->relief < 0 ? "-" : "", b);
            snprintf(ratio, sizeof ratio, "%.3g", (double)c->relief / (double)c->cost);
        }
        uint8_t st = status ? status[i] : c->status;
        bool here = e->node == c->node;
        unsigned a = i == t->fit_sel ? t->attr[T_SELECTED] : t->attr[status_slot(st)];
        if (here && i != t->fit_sel)
            a |= A_BOLD | A_UNDERLINE;
        char rank[8];
        snprintf(rank, sizeof rank, c->rank ? "%d" : "-", (int)c->rank);
        tui_putf(t, TABLE_Y + k, 1, LEFT_W, a, "%3s %-12.12s %9s %10lld %6.6s %s%-9s", rank, r->nodes[c->node].name,
                 solo, (long long)c->cost, ratio, here ? tui_glyph(t, "▶", ">") : " ",
                 fit_status_name((fit_status_t)st));
    }
    free(status);
    /* the arena for the flips accepted so far */
    event_arena(t);
    int32_t acc = view_accepted_at(p, t->event);
    char cur[32];
    units_format_bytes(t->ev_arena.fp.total, cur, sizeof cur);
    tui_putf(t, 3, LEFT_W + 2, t->cols - LEFT_W - 3, t->attr[T_DIM], "arena with %d accepted flip%s: %s",
             (int)acc, acc == 1 ? "" : "s", cur);
    tui_draw_arena(t, &t->ev_arena, 4, LEFT_W + 2, t->rows - 10, t->cols - LEFT_W - 3, -1, true);
    /* the sentence, with the scores it compared */
    char text[1024];
    trace_describe(p, t->event, text, sizeof text);
    tui_put(t, t->rows - 5, 1, t->cols - 2, t->attr[T_DIM], "────────────────────────────────────────");
    wrap2(t, t->rows - 4, text, t->attr[T_NORMAL] | A_BOLD);
}

static void follow(tui_t *t)
{
    const fit_event_t *e = &t->plan->events[t->event];
    if (e->node < 0)
        return;
    for (int32_t k = 0; k < t->plan->n_cands; k++)
        if (t->plan->cands[k].node == e->node)
            t->fit_sel = k;
}

static void step_to(tui_t *t, int dir, int kind)
{
    for (int32_t i = t->event + dir; i >= 0 && i < t->plan->n_events; i += dir)
        if (kind < 0 || t->plan->events[i].kind == kind || (kind == EV_ACCEPT && t->plan->events[i].kind == EV_COMMIT_GROUP)) {
            t->event = i;
            follow(t);
            return;
        }
    tui_status(t, false, "no %s event %s", kind < 0 ? "" : trace_kind_name((fit_event_kind_t)kind),
               dir > 0 ? "after this" : "before this");
}

static void why(tui_t *t)
{
    if (!t->plan->n_cands)
        return;
    int32_t node = t->plan->cands[t->fit_sel].node;
    int32_t n = trace_chain(t->plan, node, NULL, 0);
    int32_t *chain = malloc(((size_t)n + 1) * sizeof *chain);
    char **lines = calloc((size_t)n + 4, sizeof *lines);
    if (!chain || !lines) {
        free(chain);
        free(lines);
        return;
    }
    trace_chain(t->plan, node, chain, n);
    char buf[1024];
    trace_explain(t->plan, node, buf, sizeof buf);
    int m = 0;
    lines[m++] = strdup(buf);
    lines[m++] = strdup("");
    for (int32_t k = 0; k < n; k++) {
        char text[900];
        trace_describe(t->plan, chain[k], text, sizeof text);
        snprintf(buf, sizeof buf, "%4d  r%d %-13s %s", (int)chain[k] + 1, (int)t->plan->events[chain[k]].round,
                 trace_kind_name((fit_event_kind_t)t->plan->events[chain[k]].kind), text);
        lines[m++] = strdup(buf);
    }
    char title[160];
    snprintf(title, sizeof title, "Why: %s", t->tgt.routine->nodes[node].name);
    tui_overlay(t, title, lines, m);
    for (int i = 0; i < m; i++)
        free(lines[i]);
    free(lines);
    free(chain);
}

static void save(tui_t *t)
{
    char label[128] = "";
    if (!tui_prompt(t, "save plan, label (optional): ", label, sizeof label, false))
        return;
    cli_t c = *t->cli;
    c.label = label[0] ? label : NULL;
    target_t tmp = t->tgt;
    tmp.store = t->store;
    int64_t elapsed = 0, id = 0;
    rs_error_t err;
    fit_plan_t *plans[1] = { t->plan };
    if (save_plans(&c, &tmp, plans, &elapsed, 1, NULL, &id, &err))
        tui_status(t, true, "%s", err.msg);
    else
        tui_status(t, false, "saved as plan %lld", (long long)id);
}

int screen_fit_key(tui_t *t, action_t a, int key)
{
    (void)key;
    if (a == ACT_RUN_FIT) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", t->plan ? t->budget_text : "");
        if (tui_prompt(t, "fit to budget (48MiB, 60%, device, minimize): ", buf, sizeof buf, false) && buf[0])
            tui_run_fit(t, buf);
        return KEY_REDRAW;
    }
    if (!t->plan)
        return KEY_UNHANDLED;
    int page = table_rows(t) > 1 ? table_rows(t) - 1 : 1;
    switch (a) {
    case ACT_NEXT_EVENT: step_to(t, 1, -1); return KEY_REDRAW;
    case ACT_PREV_EVENT: step_to(t, -1, -1); return KEY_REDRAW;
    case ACT_NEXT_ACCEPT: step_to(t, 1, EV_ACCEPT); return KEY_REDRAW;
    case ACT_PREV_ACCEPT: step_to(t, -1, EV_ACCEPT); return KEY_REDRAW;
    case ACT_FIRST_EVENT: t->event = 0; return KEY_REDRAW;
    case ACT_LAST_EVENT: t->event = t->plan->n_events - 1; return KEY_REDRAW;
    case ACT_ROUND_TWO:
        for (int32_t i = 0; i < t->plan->n_events; i++)
            if (t->plan->events[i].round == 2) {
                t->event = i;
                follow(t);
                break;
            }
        return KEY_REDRAW;
    case ACT_UP: t->fit_sel -= t->fit_sel > 0; return KEY_REDRAW;
    case ACT_DOWN: t->fit_sel += t->fit_sel + 1 < t->plan->n_cands; return KEY_REDRAW;
    case ACT_PGUP: t->fit_sel = t->fit_sel > page ? t->fit_sel - page : 0; return KEY_REDRAW;
    case ACT_PGDN: t->fit_sel = t->fit_sel + page < t->plan->n_cands ? t->fit_sel + page : t->plan->n_cands - 1; return KEY_REDRAW;
    case ACT_TOP: t->fit_sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->fit_sel = t->plan->n_cands ? t->plan->n_cands - 1 : 0; return KEY_REDRAW;
    case ACT_WHY: why(t); return KEY_REDRAW;
    case ACT_SAVE_PLAN: save(t); return KEY_REDRAW;
    case ACT_SEARCH:
    case ACT_SEARCH_NEXT: {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", t->search);
        if (a == ACT_SEARCH && (!tui_prompt(t, "candidate: ", buf, sizeof buf, false) || !buf[0]))
            return KEY_REDRAW;
        snprintf(t->search, sizeof t->search, "%s", buf);
        for (int32_t k = 1; k <= t->plan->n_cands; k++) {
            int32_t i = (t->fit_sel + (a == ACT_SEARCH ? k - 1 : k)) % t->plan->n_cands;
            if (strstr(t->tgt.routine->nodes[t->plan->cands[i].node].name, buf)) {
                t->fit_sel = i;
                return KEY_REDRAW;
            }
        }
        tui_status(t, true, "no candidate matches '%s'", buf);
        return KEY_REDRAW;
    }
    default:
        return KEY_UNHANDLED;
    }
}

int screen_fit_click(tui_t *t, int y, int x)
{
    if (!t->plan || x > LEFT_W)
        return KEY_HANDLED;
    int row = y - TABLE_Y;
    if (row >= 0 && row < table_rows(t) && t->fit_top + row < t->plan->n_cands)
        t->fit_sel = t->fit_top + row;
    return KEY_REDRAW;
}
