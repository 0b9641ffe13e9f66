/* tui_arena: drawing an arena: the aggregated grid of buffers with the
 * offset axis, the peak marker, the budget line, and the live-bytes curve
 * (braille or blocks) with the lower bound and the high-water mark. */
#include "tui/tui_arena.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "tui/tui_draw.h"

/* ---- the arena -------------------------------------------------------------------- */

int tui_arena_score(const target_t *tgt, const uint8_t *prefs, score_detail_t *det, arena_view_t *a, rs_error_t *err)
{
    score_detail_free(det);
    tui_arena_free(a);
    int rc = score_lowering(tgt->lowering, prefs, &tgt->cfg, &a->fp, det, err);
    if (rc)
        return rc;
    if (view_buffers(tgt->lowering, det, &a->bufs, &a->n))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    a->steps = tgt->lowering->n_steps > 0 ? tgt->lowering->n_steps : 1;
    a->live = view_live_bytes(a->bufs, a->n, a->steps);
    return a->live ? RS_OK : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
}

const arena_view_t *tui_arena_shown(const tui_t *t)
{
    return t->show_frontier && t->fr_arena.bufs ? &t->fr_arena : &t->arena;
}

void tui_arena_free(arena_view_t *a)
{
    free(a->bufs);
    free(a->live);
    free(a->diff);
    free(a->gone);
    free(a->recompute);
    memset(a, 0, sizeof *a);
}

static const char *role_glyph(const tui_t *t, uint8_t role)
{
    static const char *u[ROLE_COUNT] = { "▒", "▞", "▓", "█", "╳" };
    static const char *a[ROLE_COUNT] = { ":", "&", "@", "#", "x" };
    return t->utf8 ? u[role] : a[role];
}

/* A filled area in braille: two samples a cell, four levels a row. */
static void draw_braille(tui_t *t, int y, int x, int h, int w, const int64_t *half, int64_t top)
{
    static const unsigned left[4] = { 0x40, 0x04, 0x02, 0x01 }, right[4] = { 0x80, 0x20, 0x10, 0x08 };
    for (int c = 0; c < w; c++) {
        int64_t lv[2];
        for (int k = 0; k < 2; k++) { /* anything live shows: one dot at least */
            lv[k] = top > 0 ? (int64_t)((__int128)half[2 * c + k] * h * 4 / top) : 0;
            if (lv[k] == 0 && half[2 * c + k] > 0)
                lv[k] = 1;
        }
        for (int r = 0; r < h; r++) {
            unsigned bits = 0;
            for (int k = 0; k < 2; k++) {
                int64_t dots = lv[k] - (int64_t)(h - 1 - r) * 4;
                for (int d = 0; d < 4 && d < dots; d++)
                    bits |= k ? right[d] : left[d];
            }
            if (!bits)
                continue;
            char g[4] = { (char)0xE2, (char)(0xA0 + (bits >> 6)), (char)(0x80 + (bits & 0x3F)), 0 };
            tui_put(t, y + r, x + c, 1, t->attr[T_CURVE], g);
        }
    }
}

/* A filled curve column of height frac (0..1) over h rows, bottom up. */
static void draw_curve(tui_t *t, int y, int x, int h, int w, const int64_t *cols, int64_t top)
{
    static const char *blocks[9] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
    for (int c = 0; c < w; c++) {
        int64_t eighths = top > 0 ? (int64_t)((__int128)cols[c] * h * 8 / top) : 0;
        if (eighths == 0 && cols[c] > 0) /* anything live shows: an eighth at least */
            eighths = 1;
        for (int r = 0; r < h; r++) {
            int64_t level = eighths - (int64_t)(h - 1 - r) * 8; /* this row's share, 0..8 */
            if (level <= 0)
                continue;
            if (level > 8)
                level = 8;
            const char *g = t->utf8 ? blocks[level] : (level >= 6 ? "#" : level >= 3 ? ":" : ".");
            tui_put(t, y + r, x + c, 1, t->attr[T_CURVE], g);
        }
    }
}

/* Where an arena's parts go in an h x w rectangle: the header row, the
 * peak marker row, the grid, the step axis, the curve and its legend.  The
 * drawing and the mouse share it, so a click lands on the cell drawn. */
typedef struct arena_geom {
    int axis_w, curve_h, grid_y, grid_h, grid_w;
    int64_t s0, s1, top;
} arena_geom_t;

static bool arena_geom(const tui_t *t, const arena_view_t *a, int64_t budget, int h, int w, bool curve, arena_geom_t *g)
{
    if (h < 7 || w < 16 || !a->bufs)
        return false;
    g->axis_w = 6;
    g->curve_h = curve ? (h >= 18 ? 4 : 2) : 0;
    g->grid_y = 2;
    g->grid_h = h - 3 - (curve ? g->curve_h + 1 : 0);
    g->grid_w = w - g->axis_w;
    g->s0 = t->view_step0;
    g->s1 = t->view_step1;
    if (g->s1 <= g->s0) {
        g->s0 = 0;
        g->s1 = a->steps;
    }
    g->top = a->fp.total > 0 ? a->fp.total : 1;
    if (a->gone_top > g->top) /* the first plan's buffers fit above the second's */
        g->top = a->gone_top;
    if (budget > g->top)
        g->top = budget + budget / 16 + 1;
    return g->grid_h >= 1;
}

int tui_arena_buffer_at(const tui_t *t, const arena_view_t *a, int64_t budget, int h, int w, bool curve, int dy,
                        int dx)
{
    arena_geom_t ge;
    if (!arena_geom(t, a, budget, h, w, curve, &ge))
        return -1;
    int gx = dx - ge.axis_w, gy = dy - ge.grid_y;
    if (gx < 0 || gy < 0 || gx >= ge.grid_w || gy >= ge.grid_h)
        return -1;
    view_grid_t g;
    if (view_grid_build(a->bufs, a->n, ge.s0, ge.s1, 0, ge.top, ge.grid_w, ge.grid_h, &g))
        return -1;
    int32_t b = g.cell[(size_t)gy * (size_t)ge.grid_w + (size_t)gx];
    view_grid_free(&g);
    return b;
}

void tui_draw_arena(tui_t *t, const arena_view_t *a, int64_t budget, int y, int x, int h, int w, int selected,
                    bool curve)
{
    arena_geom_t ge;
    if (!arena_geom(t, a, budget, h, w, curve, &ge))
        return;
    int axis_w = ge.axis_w, curve_h = ge.curve_h, grid_h = ge.grid_h, grid_w = ge.grid_w;
    int64_t s0 = ge.s0, s1 = ge.s1, top = ge.top;
    view_grid_t g, gg; /* gg: the first plan's gone buffers, on the same grid */
    if (view_grid_build(a->bufs, a->n, s0, s1, 0, top, grid_w, grid_h, &g))
        return;
    bool gone = a->n_gone > 0 && view_grid_build(a->gone, a->n_gone, s0, s1, 0, top, grid_w, grid_h, &gg) == RS_OK;
    /* the header row, then the peak marker alone on its row: nothing is
     * drawn over other text */
    char scale[64], rowb[32];
    view_scale_text(&g, scale, sizeof scale);
    units_format_bytes((top + grid_h - 1) / grid_h, rowb, sizeof rowb);
    /* the budget's value on the header row, right-aligned where it fits
     * (over the grid it would hide buffers): the header says less first */
    int budget_row = budget >= 0 ? view_offset_row(&g, budget) : -1, taken = 0;
    char blbl[48] = "";
    int blen = 0;
    if (budget_row >= 0) {
        char bb[32];
        units_format_bytes(budget, bb, sizeof bb);
        blen = snprintf(blbl, sizeof blbl, "%s budget %s", tui_glyph(t, "──", "--"), bb) - (t->utf8 ? 4 : 0);
    }
    char head[160];
    int room = blen ? w - 2 - blen : w;
    int hl = snprintf(head, sizeof head, "steps %lld-%lld  (%s, row = %s)", (long long)s0, (long long)s1 - 1, scale,
                      rowb);
    if (hl > room) /* narrow: the row height goes first, the axis labels say it */
        hl = snprintf(head, sizeof head, "steps %lld-%lld (%s)", (long long)s0, (long long)s1 - 1, scale);
    if (hl > room) /* narrower: the step axis says the rest */
        snprintf(head, sizeof head, "steps %lld-%lld", (long long)s0, (long long)s1 - 1);
    tui_put(t, y, x, w, t->attr[T_DIM], head);
    if (blen && (int)strlen(head) + 2 + blen <= w) {
        tui_put(t, y, x + w - blen, blen, t->attr[T_BUDGET], blbl);
        taken = blen + 1;
    }
    /* the floor (DESIGN §13) the same way, left of the budget's: a
     * dashed line, no plan's arena goes below it; where it shares the
     * budget's row the budget's line is drawn */
    int floor_row = a->has_floor && a->floor.bytes > 0 ? view_offset_row(&g, a->floor.bytes) : -1;
    if (floor_row >= 0 && floor_row == budget_row)
        floor_row = -1;
    if (floor_row >= 0) {
        char lbl[48], fb[32];
        units_format_bytes(a->floor.bytes, fb, sizeof fb);
        int len = snprintf(lbl, sizeof lbl, "%s floor %s", tui_glyph(t, "╌╌", "=="), fb);
        int ulen = len - (t->utf8 ? 4 : 0);
        if ((int)strlen(head) + 2 + ulen + taken <= w)
            tui_put(t, y, x + w - taken - ulen, ulen, t->attr[T_PEAK], lbl);
    }
    int px0, px1, pc = -1;
    if (view_step_cols(&g, a->fp.peak_step, &px0, &px1)) {
        pc = (px0 + px1) / 2; /* over the middle of the peak step */
        char lbl[48];
        int mx = x + axis_w + pc;
        /* right of the mark, else left of it; narrower, fewer words, never none */
        static const char *const forms[] = { "peak @ step %lld", "peak @%lld", "@%lld" };
        for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
            int len = snprintf(lbl, sizeof lbl, forms[f], (long long)a->fp.peak_step);
            int lx = mx + 2 + len <= x + w ? mx + 2 : mx - 1 - len;
            if (lx >= x) {
                tui_put(t, y + 1, lx, len, t->attr[T_PEAK], lbl);
                break;
            }
        }
        tui_put(t, y + 1, mx, 1, t->attr[T_PEAK], tui_glyph(t, "▼", "v"));
    }
    /* the step cursor (the inspector's step): its middle column, reversed */
    int cx0, cx1, cc = -1;
    if (t->inspect && a == tui_arena_shown(t) && view_step_cols(&g, t->step_cursor, &cx0, &cx1))
        cc = (cx0 + cx1) / 2;
    y += ge.grid_y - 1; /* rows below count from the grid's first row, y + 1 */
    /* the grid, with the offset axis on the left */
    const view_buf_t *sel = selected >= 0 && selected < a->n ? &a->bufs[selected] : NULL;
    for (int r = 0; r < grid_h; r++) {
        int64_t oa = (int64_t)((__int128)top * (grid_h - 1 - r) / grid_h);
        /* a row is labelled with its bottom, but the budget's and the
         * floor's rows with their own bytes: a 190 MiB budget drawn on a row
         * labelled "182M" read as a budget of 182 */
        if (r == budget_row || r == floor_row || r % 4 == 0 || r == grid_h - 1) {
            char lbl[16];
            if (r == budget_row || r == floor_row) /* three digits, as the legend says it ("12.6M", not "13M") */
                view_axis_bytes_fine(r == budget_row ? budget : a->floor.bytes, lbl, sizeof lbl);
            else
                view_axis_bytes(r == grid_h - 1 ? 0 : oa, lbl, sizeof lbl);
            tui_putf(t, y + 1 + r, x, axis_w - 1,
                     r == budget_row ? t->attr[T_BUDGET] : r == floor_row ? t->attr[T_PEAK] : t->attr[T_DIM], "%5s",
                     lbl);
        }
        if (r == budget_row)
            tui_put(t, y + 1 + r, x + axis_w - 1, 1, t->attr[T_BUDGET], tui_glyph(t, "┼", "+"));
        else if (r == floor_row)
            tui_put(t, y + 1 + r, x + axis_w - 1, 1, t->attr[T_PEAK], tui_glyph(t, "╪", "="));
        else
            tui_put(t, y + 1 + r, x + axis_w - 1, 1, t->attr[T_DIM], tui_glyph(t, "│", "|"));
        for (int c = 0; c < grid_w; c++) {
            int32_t b = g.cell[(size_t)r * (size_t)grid_w + (size_t)c];
            if (r == budget_row && b < 0) {
                tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_BUDGET], tui_glyph(t, "─", "-"));
                continue;
            }
            if (r == floor_row && b < 0) {
                tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_PEAK], tui_glyph(t, "╌", "="));
                continue;
            }
            if (b < 0 && gone && gg.cell[(size_t)r * (size_t)grid_w + (size_t)c] >= 0) {
                tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_ACCEPTED], tui_glyph(t, "░", "."));
                continue;
            }
            if (b < 0 && c == cc) {
                tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_SELECTED], tui_glyph(t, "┊", ":"));
                continue;
            }
            if (b < 0) {
                if (c == pc)
                    tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_PEAK] | A_DIM, tui_glyph(t, "┊", ":"));
                continue;
            }
            bool more = a->diff && (a->diff[b] == VIEW_NEW || a->diff[b] == VIEW_EXTENDED);
            bool copy = b >= a->n - a->n_copies; /* DESIGN §14: a copy, its own rectangle */
            unsigned attr = (sel && &a->bufs[b] == sel) ? t->attr[T_SELECTED]
                            : more || copy              ? t->attr[T_HELD]
                                                        : t->attr[role_attr_slot(a->bufs[b].role)];
            if (r == budget_row)
                attr = t->attr[T_BUDGET];
            else if (r == floor_row)
                attr = t->attr[T_PEAK];
            if (c == cc)
                attr |= A_REVERSE;
            tui_put(t, y + 1 + r, x + axis_w + c, 1, attr,
                    more ? "+" : copy ? tui_glyph(t, "▚", "%") : role_glyph(t, a->bufs[b].role));
        }
    }
    /* the step axis: each step labelled once, where it starts */
    int ay = y + 1 + grid_h;
    int lcol[256];
    int64_t lstep[256];
    int nl = view_step_labels(&g, lcol, lstep, 256);
    for (int k = 0; k < nl; k++)
        tui_putf(t, ay, x + axis_w + lcol[k], grid_w - lcol[k], t->attr[T_DIM], "%s%lld", tui_glyph(t, "╵", "'"),
                 (long long)lstep[k]);
    /* the live-bytes curve with the two marks labelled */
    if (curve) {
        view_grid_t g2; /* twice the columns, for braille's two samples a cell */
        if (t->braille && t->utf8 && view_grid_build(NULL, 0, s0, s1, 0, top, 2 * grid_w, 1, &g2) == RS_OK) {
            int64_t *half = view_live_columns(&g2, a->live, a->steps);
            if (half)
                draw_braille(t, ay + 1, x + axis_w, curve_h, grid_w, half, top);
            free(half);
            view_grid_free(&g2);
        } else {
            int64_t *cols = view_live_columns(&g, a->live, a->steps);
            if (cols) {
                draw_curve(t, ay + 1, x + axis_w, curve_h, grid_w, cols, top);
                free(cols);
            }
        }
        char lp[32], tt[32], xb[32], v[8][320];
        units_format_bytes(a->fp.live_peak, lp, sizeof lp);
        units_format_bytes(a->fp.total, tt, sizeof tt);
        const char *bar = tui_glyph(t, "│", "|");
        double over = a->fp.live_peak ? 100.0 * (double)(a->fp.total - a->fp.live_peak) / (double)a->fp.live_peak : 0.0;
        /* the frontier plan's schedule says whose footprint it is */
        const char *whose = a == &t->fr_arena ? "frontier plan: " : "";
        snprintf(v[0], sizeof v[0], "%slive bytes: max live %s (lower bound) %s arena %s (%+.2f%%, %s)", whose, lp, bar,
                 tt, over, layout_strategy_name(t->tgt.cfg.layout));
        snprintf(v[1], sizeof v[1], "%smax live %s %s arena %s (%+.2f%%)", whose, lp, bar, tt, over);
        snprintf(v[2], sizeof v[2], "%smax live %s %s arena %s", whose, lp, bar, tt);
        snprintf(v[3], sizeof v[3], "%slive %s %s %s", a == &t->fr_arena ? "frontier " : "", lp, bar, tt);
        snprintf(v[4], sizeof v[4], "max live %s", lp);
        snprintf(v[5], sizeof v[5], "live %s", lp);
        /* XLA's allocation (its memory-usage report's Total bytes) beside the dump (§10), first while it fits */
        int nv = 6;
        const char *vs[8] = { v[0], v[1], v[2], v[3], v[4], v[5] };
        if (t->tgt.xla_bytes >= 0) {
            units_format_bytes(t->tgt.xla_bytes, xb, sizeof xb);
            snprintf(v[6], sizeof v[6], "%.160s %s XLA's allocation %s", v[0], bar, xb);
            snprintf(v[7], sizeof v[7], "%.160s %s XLA alloc %s", v[1], bar, xb);
            memmove(vs + 2, vs, 6 * sizeof *vs);
            vs[0] = v[6];
            vs[1] = v[7];
            nv = 8;
        }
        tui_put_fit(t, ay + 1 + curve_h, x, w, t->attr[T_DIM], vs, nv);
    }
    if (gone)
        view_grid_free(&gg);
    view_grid_free(&g);
}

