/* The Arena screen: buffers at their offsets over their live spans, the
 * peak, the budget line, the live-bytes curve, and the selected buffer's
 * details. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "tui.h"
#include "units.h"

#define DETAILS_W 36

static const char *ROLE_NAMES[ROLE_COUNT] = { "resident", "intermediate (pinned)", "output", "candidate",
                                              "rejected preference" };

static void details(tui_t *t, int y, int x, int w)
{
    if (!t->arena.n)
        return;
    const view_buf_t *b = &t->arena.bufs[t->sel_buf];
    const lowering_t *l = t->tgt.lowering;
    const routine_t *r = t->tgt.routine;
    int32_t i = b->node;
    tui_putf(t, y++, x, w, t->attr[T_SELECTED], " %s ", r->nodes[i].name);
    const char *op = l->kind[i] == NODE_DEF ? r->steps[l->first_def[i]].op : l->kind[i] == NODE_INPUT ? "input" : "param";
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "op      %s%s", op, l->ndefs[i] > 1 ? " (accumulated)" : "");
    char shape[96] = "[";
    size_t sw = 1;
    for (int32_t k = l->dim_off[i]; k < l->dim_off[i + 1] && sw < sizeof shape - 24; k++)
        sw += (size_t)snprintf(shape + sw, sizeof shape - sw, "%s%lld", k > l->dim_off[i] ? ", " : "",
                               (long long)l->dims[k]);
    snprintf(shape + sw, sizeof shape - sw, "]");
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "shape   %s %s", shape, dtype_name((dtype_t)r->nodes[i].dtype));
    char by[32], al[32];
    units_format_bytes(l->bytes[i], by, sizeof by);
    units_format_bytes(b->size, al, sizeof al);
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "bytes   %s (%lld B)", by, (long long)l->bytes[i]);
    if (b->size != l->bytes[i])
        tui_putf(t, y++, x, w, t->attr[T_DIM], "        aligned %s", al);
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "span    steps %lld-%lld", (long long)b->start, (long long)b->end);
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "offset  %lld", (long long)b->offset);
    tui_putf(t, y++, x, w, t->attr[role_attr_slot(b->role)], "role    %s", ROLE_NAMES[b->role]);
    /* readers: the nodes whose steps read it */
    char rd[256] = "";
    size_t rw = 0;
    int shown = 0, total = 0;
    int32_t last = -1;
    for (int32_t k = l->rd_off[i]; k < l->rd_off[i + 1]; k++) {
        int32_t owner = l->step_owner[l->rd_step[k]];
        if (owner == last)
            continue;
        last = owner;
        total++;
        if (shown < 6 && rw < sizeof rd - 40) {
            rw += (size_t)snprintf(rd + rw, sizeof rd - rw, "%s%s%s", shown ? ", " : "", r->nodes[owner].name,
                                   t->det.place.is_inline[owner] ? "*" : "");
            shown++;
        }
    }
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "readers %s%s", total ? rd : "(none)", total > shown ? ", ..." : "");
    if (total && rw && strchr(rd, '*'))
        tui_put(t, y++, x, w, t->attr[T_DIM], "        * inline: read through it");
    for (int32_t k = 0; k < t->n_cand; k++)
        if (t->cand[k].node == i && t->cand[k].dir == FLIP_INLINE) {
            tui_putf(t, y++, x, w, t->attr[T_NORMAL], "cost    %lld (recompute bound)", (long long)t->cand[k].cost_bound);
            break;
        }
    if (t->plan) {
        const fit_cand_t *c = trace_cand(t->plan, i);
        if (c && c->solo >= 0) {
            char rel[32];
            units_format_bytes(c->relief < 0 ? -c->relief : c->relief, rel, sizeof rel);
            tui_putf(t, y++, x, w, t->attr[T_NORMAL], "solo    relief %s%s (rank %d)", c->relief < 0 ? "-" : "", rel,
                     (int)c->rank);
            tui_putf(t, y++, x, w, t->attr[T_NORMAL], "fit     %s", fit_status_name((fit_status_t)c->status));
        }
    }
    y++;
    tui_put(t, y++, x, w, t->attr[T_DIM], "legend");
    static const char *gu[ROLE_COUNT] = { "▒", "▞", "▓", "█", "╳" };
    static const char *ga[ROLE_COUNT] = { ":", "&", "@", "#", "x" };
    for (int k = 0; k < ROLE_COUNT; k++) {
        tui_put(t, y, x + 1, 1, t->attr[role_attr_slot((uint8_t)k)], t->utf8 ? gu[k] : ga[k]);
        tui_put(t, y++, x + 3, w - 3, t->attr[T_DIM], ROLE_NAMES[k]);
    }
}

void screen_arena_draw(tui_t *t)
{
    if (!t->open)
        return;
    int w = t->cols - DETAILS_W - 1;
    tui_draw_arena(t, &t->arena, 2, 0, t->rows - 5, w, t->sel_buf, true);
    details(t, 2, w + 1, DETAILS_W);
}

/* The buffer of node name, or -1. */
static int find_buf(const tui_t *t, const char *name, int from)
{
    for (int32_t k = 0; k < t->arena.n; k++) {
        int32_t i = (from + k) % t->arena.n;
        if (strstr(t->tgt.routine->nodes[t->arena.bufs[i].node].name, name))
            return i;
    }
    return -1;
}

static void zoom(tui_t *t, int dir)
{
    int64_t s0 = t->view_step0, s1 = t->view_step1, steps = t->arena.steps;
    if (s1 <= s0) {
        s0 = 0;
        s1 = steps;
    }
    int64_t span = s1 - s0, centre;
    const view_buf_t *b = t->arena.n ? &t->arena.bufs[t->sel_buf] : NULL;
    centre = b && b->start >= s0 && b->start < s1 ? (b->start + b->end) / 2 : (s0 + s1) / 2;
    int64_t ns = dir > 0 ? span / 2 : span * 2;
    if (ns < 4)
        ns = span < 4 ? span : 4;
    if (ns >= steps) {
        t->view_step0 = t->view_step1 = 0;
        return;
    }
    int64_t a = centre - ns / 2;
    if (a < 0)
        a = 0;
    if (a + ns > steps)
        a = steps - ns;
    t->view_step0 = a;
    t->view_step1 = a + ns;
}

static void pan(tui_t *t, int dir)
{
    if (t->view_step1 <= t->view_step0)
        return;
    int64_t span = t->view_step1 - t->view_step0, d = span / 4 > 0 ? span / 4 : 1;
    int64_t a = t->view_step0 + (dir > 0 ? d : -d);
    if (a < 0)
        a = 0;
    if (a + span > t->arena.steps)
        a = t->arena.steps - span;
    t->view_step0 = a;
    t->view_step1 = a + span;
}

/* L's cycle: the contract, the fast one, the search. */
static arena_strategy_t next_layout(arena_strategy_t s)
{
    return s == ARENA_GREEDY ? ARENA_TIMELINE : s == ARENA_TIMELINE ? ARENA_TIGHT : ARENA_GREEDY;
}

int screen_arena_key(tui_t *t, action_t a, int key)
{
    (void)key;
    if (!t->open)
        return KEY_UNHANDLED;
    int n = t->arena.n;
    switch (a) {
    case ACT_UP: t->sel_buf = n ? (t->sel_buf + n - 1) % n : 0; return KEY_REDRAW;
    case ACT_DOWN: t->sel_buf = n ? (t->sel_buf + 1) % n : 0; return KEY_REDRAW;
    case ACT_TOP: t->sel_buf = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->sel_buf = n ? n - 1 : 0; return KEY_REDRAW;
    case ACT_PGUP: t->sel_buf = t->sel_buf >= 10 ? t->sel_buf - 10 : 0; return KEY_REDRAW;
    case ACT_PGDN: t->sel_buf = t->sel_buf + 10 < n ? t->sel_buf + 10 : (n ? n - 1 : 0); return KEY_REDRAW;
    case ACT_ZOOM_IN: zoom(t, 1); return KEY_REDRAW;
    case ACT_ZOOM_OUT: zoom(t, -1); return KEY_REDRAW;
    case ACT_ZOOM_RESET: t->view_step0 = t->view_step1 = 0; return KEY_REDRAW;
    case ACT_LEFT: pan(t, -1); return KEY_REDRAW;
    case ACT_RIGHT: pan(t, 1); return KEY_REDRAW;
    case ACT_SET_BUDGET: {
        char buf[64] = "";
        if (tui_prompt(t, "budget line (48MiB, 60%, device, none): ", buf, sizeof buf, false)) {
            budget_spec_t spec;
            rs_error_t err;
            int64_t bytes;
            bool minimize;
            if (strcmp(buf, "none") == 0 || !buf[0])
                t->budget = -1;
            else if (units_parse_budget(buf, "budget", &spec, &err) ||
                     units_budget_resolve(&spec, t->arena.fp.total,
                                          t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1, &bytes, &minimize,
                                          &err))
                tui_status(t, true, "%s", err.msg);
            else
                t->budget = minimize ? -1 : bytes;
        }
        return KEY_REDRAW;
    }
    case ACT_LAYOUT:
        tui_set_layout(t, next_layout(t->tgt.cfg.layout));
        return KEY_REDRAW;
    case ACT_RUN_FIT: {
        char buf[64] = "";
        if (tui_prompt(t, "fit to budget (48MiB, 60%, device, minimize): ", buf, sizeof buf, false) && buf[0] &&
            tui_run_fit(t, buf))
            t->screen = SCR_FIT;
        return KEY_REDRAW;
    }
    case ACT_SEARCH: {
        char buf[64] = "";
        if (tui_prompt(t, "node: ", buf, sizeof buf, false) && buf[0]) {
            int i = find_buf(t, buf, 0);
            snprintf(t->search, sizeof t->search, "%s", buf);
            if (i >= 0)
                t->sel_buf = i;
            else
                tui_status(t, true, "no materialized buffer matches '%s'", buf);
        }
        return KEY_REDRAW;
    }
    case ACT_SEARCH_NEXT: {
        int i = t->search[0] ? find_buf(t, t->search, t->sel_buf + 1) : -1;
        if (i >= 0)
            t->sel_buf = i;
        return KEY_REDRAW;
    }
    default:
        return KEY_UNHANDLED;
    }
}

int screen_arena_click(tui_t *t, int y, int x)
{
    if (!t->open)
        return KEY_HANDLED;
    /* map the click back through the same grid the arena drew */
    int w = t->cols - DETAILS_W - 1, h = t->rows - 5;
    int curve_h = h >= 18 ? 4 : 2, grid_h = h - 2 - curve_h - 1, grid_w = w - 6;
    int gx = x - 6, gy = y - 3;
    if (gx < 0 || gy < 0 || gx >= grid_w || gy >= grid_h)
        return KEY_HANDLED;
    int64_t s0 = t->view_step0, s1 = t->view_step1;
    if (s1 <= s0) {
        s0 = 0;
        s1 = t->arena.steps;
    }
    int64_t top = t->arena.fp.total > 0 ? t->arena.fp.total : 1;
    if (t->budget > top)
        top = t->budget + t->budget / 16 + 1;
    view_grid_t g;
    if (view_grid_build(t->arena.bufs, t->arena.n, s0, s1, 0, top, grid_w, grid_h, &g))
        return KEY_HANDLED;
    int32_t b = g.cell[(size_t)gy * (size_t)grid_w + (size_t)gx];
    if (b >= 0)
        t->sel_buf = b;
    view_grid_free(&g);
    return KEY_REDRAW;
}
