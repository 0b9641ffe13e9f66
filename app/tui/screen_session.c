/* The Session screen: routines and profiles in the store; open a routine,
 * pick the profile, edit bindings, import a file. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "text.h"
#include "tui.h"
#include "units.h"

#define LIST_Y 3

/* Baseline footprint of routine row i under its own bindings (cached). */
static int64_t routine_total(tui_t *t, int i)
{
    if (!t->routine_total || t->routine_total[i] != -1)
        return t->routine_total ? t->routine_total[i] : -2;
    char *src = NULL, *name = NULL;
    size_t len;
    routine_t *r = NULL;
    bindings_t b = { 0 };
    lowering_t *l = NULL;
    footprint_t fp;
    rs_error_t err;
    int64_t total = -2;
    if (!library_routine_source(t->store, t->routines[i].id, &src, &len, &name, &err) &&
        !routine_parse(name, src, len, &r, &err) && !routine_bindings(r, NULL, 0, &b, &err) &&
        !lower_routine(r, &b, &l, &err)) {
        score_config_t cfg;
        score_config_default(&cfg);
        if (!score_lowering(l, NULL, &cfg, &fp, NULL, &err)) {
            total = fp.total;
            if (t->routine_buffers)
                t->routine_buffers[i] = fp.buffers;
        }
    }
    lower_free(l);
    bindings_free(&b);
    routine_free(r);
    free(src);
    free(name);
    t->routine_total[i] = total;
    return total;
}

static int list_rows(const tui_t *t) { return t->rows - LIST_Y - 8; }

static void clamp(int *sel, int *top, int n, int rows)
{
    if (*sel >= n)
        *sel = n - 1;
    if (*sel < 0)
        *sel = 0;
    if (*sel < *top)
        *top = *sel;
    if (rows > 0 && *sel >= *top + rows)
        *top = *sel - rows + 1;
    if (*top < 0)
        *top = 0;
}

void screen_session_draw(tui_t *t)
{
    int lw = t->cols * 3 / 5, rw = t->cols - lw - 1;
    int rows = list_rows(t);
    bool on_r = t->session_pane == 0;
    tui_putf(t, 2, 1, lw - 1, (on_r ? t->attr[T_SELECTED] : t->attr[T_NORMAL]) | A_BOLD,
             " Routines (%d) ", t->n_routines);
    tui_putf(t, LIST_Y, 1, lw - 1, t->attr[T_DIM], "%-24s %6s %7s %12s", "name", "steps", "buffers", "baseline");
    clamp(&t->sel_routine, &t->top_routine, t->n_routines, rows);
    for (int k = 0; k < rows && t->top_routine + k < t->n_routines; k++) {
        int i = t->top_routine + k;
        int64_t tot = routine_total(t, i);
        char b[32];
        if (tot >= 0)
            units_format_bytes(tot, b, sizeof b);
        else
            snprintf(b, sizeof b, tot == -2 ? "error" : "...");
        unsigned a = (i == t->sel_routine && on_r) ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        bool is_open = t->open && strcmp(t->open_name, t->routines[i].name) == 0;
        tui_putf(t, LIST_Y + 1 + k, 1, lw - 1, a, "%s%-23.23s %6d %7d %12s", is_open ? "*" : " ",
                 t->routines[i].name, (int)t->routines[i].steps,
                 t->routine_buffers ? (int)t->routine_buffers[i] : 0, b);
    }
    if (!t->n_routines)
        tui_put(t, LIST_Y + 1, 2, lw - 2, t->attr[T_DIM], "(none: press i to import samples/ or a file)");
    /* profiles: "none" first */
    int x = lw + 1;
    tui_putf(t, 2, x, rw, (!on_r ? t->attr[T_SELECTED] : t->attr[T_NORMAL]) | A_BOLD, " Profiles (%d) ",
             t->n_profiles);
    tui_putf(t, LIST_Y, x, rw, t->attr[T_DIM], "%-22s %10s %6s", "name", "memory", "align");
    clamp(&t->sel_profile, &t->top_profile, t->n_profiles + 1, rows);
    for (int k = 0; k < rows && t->top_profile + k <= t->n_profiles; k++) {
        int i = t->top_profile + k; /* 0 is "none" */
        unsigned a = (i == t->sel_profile && !on_r) ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        bool active = (i == 0 && t->profile < 0) || (i > 0 && t->profile == i - 1);
        if (i == 0) {
            tui_putf(t, LIST_Y + 1 + k, x, rw, a, "%s%-21s %10s %6s", active ? "*" : " ", "(none)", "-", "1");
            continue;
        }
        const profile_t *p = &t->profiles[i - 1];
        char m[32], name[160];
        units_format_bytes(p->memory_bytes, m, sizeof m);
        tui_putf(t, LIST_Y + 1 + k, x, rw, a, "%s%-21.21s %10s %6lld", active ? "*" : " ",
                 text_escape(p->name, name, sizeof name), m,
                 (long long)p->alignment);
    }
    /* the open routine, its bindings and footprint */
    int y = t->rows - 7;
    tui_put(t, y, 1, t->cols - 2, t->attr[T_DIM], "────────────────────────────────────────────────────────────────");
    tui_putf(t, y + 1, 1, t->cols - 2, t->attr[T_NORMAL], "bindings: %s   (b edits, e.g. B=512)",
             t->binds[0] ? t->binds : "(the routine's own)");
    if (t->open) {
        char tot[32], lp[32];
        units_format_bytes(t->arena.fp.total, tot, sizeof tot);
        units_format_bytes(t->arena.fp.live_peak, lp, sizeof lp);
        tui_putf(t, y + 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD,
                 "open: %s  arena %s (%lld B)  max live %s  %d buffers  peak @ step %d  compute %lld", t->open_name,
                 tot, (long long)t->arena.fp.total, lp, (int)t->arena.fp.buffers, (int)t->arena.fp.peak_step,
                 (long long)t->arena.fp.compute);
        tui_putf(t, y + 3, 1, t->cols - 2, t->attr[T_DIM], "alignment %lld, max inline depth %d%s%s",
                 (long long)t->tgt.cfg.alignment, (int)t->tgt.cfg.max_inline_depth,
                 t->tgt.has_profile ? ", profile " : "", t->tgt.has_profile ? t->tgt.profile.name : "");
    } else {
        tui_put(t, y + 2, 1, t->cols - 2, t->attr[T_DIM], "no routine open: Enter opens the selected one");
    }
}

static void reopen(tui_t *t)
{
    if (t->open) {
        char name[128];
        snprintf(name, sizeof name, "%s", t->open_name);
        tui_open_routine(t, name);
    }
}

int screen_session_key(tui_t *t, action_t a, int key)
{
    (void)key;
    int *sel = t->session_pane == 0 ? &t->sel_routine : &t->sel_profile;
    int n = t->session_pane == 0 ? t->n_routines : t->n_profiles + 1;
    int page = list_rows(t) > 1 ? list_rows(t) - 1 : 1;
    switch (a) {
    case ACT_UP: *sel -= *sel > 0; return KEY_REDRAW;
    case ACT_DOWN: *sel += *sel + 1 < n; return KEY_REDRAW;
    case ACT_PGUP: *sel = *sel > page ? *sel - page : 0; return KEY_REDRAW;
    case ACT_PGDN: *sel = *sel + page < n ? *sel + page : n - 1; return KEY_REDRAW;
    case ACT_TOP: *sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: *sel = n ? n - 1 : 0; return KEY_REDRAW;
    case ACT_NEXT_PANE:
    case ACT_LEFT:
    case ACT_RIGHT: t->session_pane ^= 1; return KEY_REDRAW;
    case ACT_PROFILE: t->session_pane = 1; return KEY_REDRAW;
    case ACT_OPEN:
        if (t->session_pane == 1) {
            t->profile = t->sel_profile - 1;
            tui_status(t, false, "profile: %s", t->profile >= 0 ? t->profiles[t->profile].name : "none");
            reopen(t);
            return KEY_REDRAW;
        }
        if (t->n_routines && tui_open_routine(t, t->routines[t->sel_routine].name))
            t->screen = SCR_ARENA;
        return KEY_REDRAW;
    case ACT_BINDINGS: {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", t->binds);
        if (tui_prompt(t, "bindings (K=V ...): ", buf, sizeof buf, false)) {
            char old[256];
            snprintf(old, sizeof old, "%s", t->binds);
            snprintf(t->binds, sizeof t->binds, "%s", buf);
            if (t->open) {
                char name[128];
                snprintf(name, sizeof name, "%s", t->open_name);
                if (!tui_open_routine(t, name)) {
                    char msg[512];
                    snprintf(msg, sizeof msg, "%s", t->status);
                    snprintf(t->binds, sizeof t->binds, "%s", old);
                    tui_open_routine(t, name);
                    tui_status(t, true, "%s", msg);
                }
            }
        }
        return KEY_REDRAW;
    }
    case ACT_IMPORT: {
        char buf[512] = "";
        if (tui_prompt(t, "import (Tab completes): ", buf, sizeof buf, true) && buf[0]) {
            rs_error_t err;
            const char *paths[1] = { buf };
            if (import_paths(t->cli, t->store, paths, 1, NULL, &err)) {
                char msg[1024];
                error_format(&err, msg, sizeof msg);
                tui_status(t, true, "%s", msg);
            } else {
                tui_reload(t);
                tui_status(t, false, "imported %s: %d routines, %d profiles", buf, t->n_routines, t->n_profiles);
            }
        }
        return KEY_REDRAW;
    }
    case ACT_SEARCH: {
        char buf[64] = "";
        if (tui_prompt(t, "routine: ", buf, sizeof buf, false))
            for (int i = 0; i < t->n_routines; i++)
                if (strstr(t->routines[i].name, buf)) {
                    t->session_pane = 0;
                    t->sel_routine = i;
                    snprintf(t->search, sizeof t->search, "%s", buf);
                    break;
                }
        return KEY_REDRAW;
    }
    case ACT_SEARCH_NEXT:
        for (int k = 1; k <= t->n_routines && t->search[0]; k++) {
            int i = (t->sel_routine + k) % t->n_routines;
            if (strstr(t->routines[i].name, t->search)) {
                t->sel_routine = i;
                break;
            }
        }
        return KEY_REDRAW;
    default:
        return KEY_UNHANDLED;
    }
}

int screen_session_click(tui_t *t, int y, int x)
{
    int lw = t->cols * 3 / 5;
    int row = y - LIST_Y - 1;
    if (row < 0 || row >= list_rows(t))
        return KEY_HANDLED;
    if (x < lw) {
        t->session_pane = 0;
        if (t->top_routine + row < t->n_routines)
            t->sel_routine = t->top_routine + row;
    } else {
        t->session_pane = 1;
        if (t->top_profile + row <= t->n_profiles)
            t->sel_profile = t->top_profile + row;
    }
    return KEY_REDRAW;
}
