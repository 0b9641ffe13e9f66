/* The Fit screen's g: the flips by origin (DESIGN §13) in the candidate
 * table's place, and an origin's flips (Enter). */
#include "tui/tui_fit_origins.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "plan/answer.h"
#include "tui/tui_answer.h"
#include "tui/tui_draw.h"
#include "tui/tui_model.h"
#include "tui/tui_widgets.h"

/* The held members of load-bearing groups among p's flips (each carries
 * 0: its group's relief and recompute are on the flip that closed it,
 * DESIGN §13), and how many groups; closer (n_flips) from answer_groups,
 * or NULL. */
static int32_t held_members(const fit_plan_t *p, int32_t *closer, int32_t *groups)
{
    *groups = 0;
    int32_t members = closer ? answer_groups(p->flips, p->n_flips, closer) : 0;
    for (int32_t i = 0; members && i < p->n_flips; i++)
        *groups += closer[i] == i;
    return members;
}

static int32_t count_held(const int32_t *closer, int32_t n, int32_t c)
{
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++)
        k += closer[i] == c && i != c;
    return k;
}

void tui_fit_origins_draw(tui_t *t, int y, int lw, int rows, bool wide)
{
    const fit_plan_t *p = t->plan;
    int32_t n = 0, *group_of = malloc(((size_t)p->n_flips + 1) * sizeof *group_of);
    answer_origin_t *g = group_of ? tui_answer_origins(p, &n, group_of) : NULL;
    tui_answer_marks_t fm;
    tui_answer_marks(p, &fm);
    int ow = lw - (wide ? 51 : 30);
    if (wide)
        tui_putf(t, y - 1, 1, lw, t->attr[T_DIM], "%3s %-*s %5s %10s %15s %12s", "#", ow, "origin (g: candidates)", "flips",
                 "relief", "relief B", "recompute");
    else
        tui_putf(t, y - 1, 1, lw, t->attr[T_DIM], "%3s %-*s %5s %10s %7s%s", "#", ow, "origin (g: candidates)", "flips",
                 "relief", "added", "");
    if (!n)
        tui_put(t, y, 5, lw - 4, t->attr[T_DIM], "(no flips: the plan flips nothing)");
    /* an origin of held members alone reads "0 B": said under the table,
     * or a user drops the lines a group's relief needs (the walk did) */
    int32_t *closer = malloc(((size_t)p->n_flips + 1) * sizeof *closer), groups = 0;
    int32_t members = held_members(p, closer, &groups);
    free(closer);
    if (members && rows > 3) {
        char note[256];
        snprintf(note, sizeof note,
                 "%d of the %d flips are held members of %d load-bearing group%s: 0 B each here, the group's "
                 "relief is on the origin of the flip that closed it (Enter lists them)",
                 (int)members, (int)p->n_flips, (int)groups, groups == 1 ? "" : "s");
        int nr = tui_prose_rows(note, lw - 1, 2);
        nr = nr < rows / 2 ? nr : rows / 2;
        rows -= nr;
        tui_put_prose(t, y + rows, 1, lw - 1, nr, 2, t->attr[T_DIM], note, NULL);
    }
    if (t->org_sel >= n)
        t->org_sel = n ? n - 1 : 0;
    if (t->org_sel < t->org_top)
        t->org_top = t->org_sel;
    if (rows > 0 && t->org_sel >= t->org_top + rows)
        t->org_top = t->org_sel - rows + 1;
    for (int k = 0; k < rows && t->org_top + k < n; k++) {
        int i = t->org_top + k;
        int32_t bad = 0;
        for (int32_t f = 0; fm.unpaid && f < p->n_flips; f++)
            bad += group_of[f] == i && fm.unpaid[f];
        char rel[32], rb[32], rec[40], fl[32];
        units_format_bytes(g[i].relief, rel, sizeof rel);
        if (wide) {
            units_format_flops(g[i].recompute, fl, sizeof fl);
            snprintf(rec, sizeof rec, "+%s", fl);
        } else {
            tui_flops_short(g[i].recompute, false, rec, sizeof rec);
        }
        unsigned a = i == t->org_sel ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        tui_fill(t, y + k, 1, lw, a);
        tui_putf(t, y + k, 1, 4, a, "%3d ", i + 1);
        char org[512]; /* the function travels with the source (§10) */
        snprintf(org, sizeof org, g[i].function ? "%s (%s)" : "%s", g[i].origin, g[i].function);
        tui_put_left_cut(t, y + k, 5, ow, a, org);
        if (wide)
            tui_putf(t, y + k, 5 + ow, lw - 4 - ow, a, " %5d %10s %15s %12s%c", (int)g[i].flips, rel,
                     tui_bytes(g[i].relief, 15, rb, sizeof rb), rec, bad ? '!' : ' ');
        else
            tui_putf(t, y + k, 5 + ow, lw - 4 - ow, a, " %5d %10s %7s%c", (int)g[i].flips, rel, rec,
                     bad ? '!' : ' ');
    }
    tui_answer_marks_free(&fm);
    free(g);
    free(group_of);
}

/* Enter on an origin: its flips, in acceptance order, as the CLI's table
 * says them ('!' where a flip does not pay); Esc back. */
static void origin_flips(tui_t *t)
{
    const fit_plan_t *p = t->plan;
    int32_t n = 0, *group_of = malloc(((size_t)p->n_flips + 1) * sizeof *group_of);
    answer_origin_t *g = group_of ? tui_answer_origins(p, &n, group_of) : NULL;
    char **lines = calloc((size_t)p->n_flips + 4, sizeof *lines);
    tui_answer_marks_t fm;
    tui_answer_marks(p, &fm);
    if (g && lines && t->org_sel < n) {
        const answer_origin_t *o = &g[t->org_sel];
        char buf[1024], rel[32], rec[40], fl[32], cost[32];
        int m = 0;
        units_format_bytes(o->relief, rel, sizeof rel);
        units_format_flops(o->recompute, fl, sizeof fl);
        snprintf(buf, sizeof buf, "%d flip%s, relief %s (%lld B), recompute +%s", (int)o->flips, o->flips == 1 ? "" : "s",
                 rel, (long long)o->relief, fl);
        lines[m++] = strdup(buf);
        int32_t *closer = malloc(((size_t)p->n_flips + 1) * sizeof *closer), groups = 0;
        if (held_members(p, closer, &groups)) {
            int32_t held = 0, closes = 0;
            for (int32_t f = 0; f < p->n_flips; f++)
                if (group_of[f] == t->org_sel) {
                    held += closer[f] >= 0 && closer[f] != f;
                    closes += closer[f] == f;
                }
            if (held || closes) {
                snprintf(buf, sizeof buf,
                         "%d held member%s of a load-bearing group (0 B each: its group's relief is on the flip that "
                         "closed it, \"in #N\"), %d closing one (\"closes N\": the group's relief)",
                         (int)held, held == 1 ? "" : "s", (int)closes);
                lines[m++] = strdup(buf);
            }
        }
        /* the name column as wide as the origin's longest name needs, up
         * to what the overlay's row leaves (its 72 columns at 80: a fixed
         * 17 let longer names push the row onto two); the exact bytes go
         * first when even that is too narrow for the names */
        int nw = 4, text_w = t->cols - 8;
        for (int32_t f = 0; f < p->n_flips; f++)
            if (group_of[f] == t->org_sel) {
                int c = tui_cols(t->tgt.routine->nodes[p->flips[f].node].name);
                nw = c > nw ? c : nw;
            }
        bool exact = text_w - 55 >= nw || text_w - 55 >= 20;
        int most = text_w - (exact ? 55 : 43);
        nw = nw < most ? nw : most > 4 ? most : 4;
        char head[64];
        tui_clip(t, "node", nw, head, sizeof head);
        if (exact)
            snprintf(buf, sizeof buf, "%4s  %s %10s %11s %12s %12s", "#", head, "relief", "relief B", "cost bound",
                     "recompute");
        else
            snprintf(buf, sizeof buf, "%4s  %s %10s %12s %12s", "#", head, "relief", "cost bound", "recompute");
        lines[m++] = strdup(buf);
        for (int32_t f = 0; f < p->n_flips; f++) {
            if (group_of[f] != t->org_sel)
                continue;
            const fit_flip_t *x = &p->flips[f];
            char name[512];
            tui_clip_name(t, t->tgt.routine->nodes[x->node].name, nw, name, sizeof name);
            units_format_bytes(x->relief, rel, sizeof rel);
            units_format_flops(x->cost, cost, sizeof cost);
            units_format_flops(x->recompute, fl, sizeof fl);
            snprintf(rec, sizeof rec, "+%s", fl);
            char mark = fm.unpaid && fm.unpaid[f] ? '!' : ' ';
            if (exact)
                snprintf(buf, sizeof buf, "%4d%c %s %10s %11lld %12s %12s", (int)f + 1, mark, name, rel,
                         (long long)x->relief, cost, rec);
            else
                snprintf(buf, sizeof buf, "%4d%c %s %10s %12s %12s", (int)f + 1, mark, name, rel, cost, rec);
            size_t len = strlen(buf);
            if (closer && closer[f] == f) /* after the numbers: a row that wraps keeps them in line */
                snprintf(buf + len, sizeof buf - len, "  closes %d", (int)count_held(closer, p->n_flips, f));
            else if (closer && closer[f] >= 0)
                snprintf(buf + len, sizeof buf - len, "  in #%d", (int)closer[f] + 1);
            lines[m++] = strdup(buf);
        }
        free(closer);
        char title[600];
        snprintf(title, sizeof title, o->function ? "Origin: %.400s (%.100s)" : "Origin: %.500s", o->origin, o->function);
        tui_overlay(t, title, lines, m);
        for (int i = 0; i < m; i++)
            free(lines[i]);
    }
    tui_answer_marks_free(&fm);
    free(lines);
    free(g);
    free(group_of);
}

bool tui_fit_origins_key(tui_t *t, action_t a, int rows)
{
    int page = rows > 1 ? rows - 1 : 1;
    switch (a) {
    case ACT_UP: t->org_sel -= t->org_sel > 0; return true;
    case ACT_DOWN: t->org_sel++; return true; /* the draw clamps it */
    case ACT_PGUP: t->org_sel = t->org_sel > page ? t->org_sel - page : 0; return true;
    case ACT_PGDN: t->org_sel += page; return true;
    case ACT_TOP: t->org_sel = 0; return true;
    case ACT_BOTTOM: t->org_sel = INT32_MAX / 2; return true;
    case ACT_WHY: origin_flips(t); return true;
    default: return false;
    }
}
