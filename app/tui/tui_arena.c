/* tui_arena: drawing an arena: the aggregated grid of buffers with the
 * offset axis, the peak marker, the budget line, and the live-bytes curve
 * (braille or blocks) with the lower bound and the high-water mark. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "units.h"

/* ---- the arena -------------------------------------------------------------------- */

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
        for (int k = 0; k < 2; k++)
            lv[k] = top > 0 ? (int64_t)((__int128)half[2 * c + k] * h * 4 / top) : 0;
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

void tui_draw_arena(tui_t *t, const arena_view_t *a, int y, int x, int h, int w, int selected, bool curve)
{
    if (h < 6 || w < 20 || !a->bufs)
        return;
    int axis_w = 6;
    int curve_h = curve ? (h >= 18 ? 4 : 2) : 0;
    int grid_h = h - 2 - (curve ? curve_h + 1 : 0);
    int grid_w = w - axis_w;
    int64_t s0 = t->view_step0, s1 = t->view_step1;
    if (s1 <= s0) {
        s0 = 0;
        s1 = a->steps;
    }
    int64_t top = a->fp.total > 0 ? a->fp.total : 1;
    if (t->budget > top)
        top = t->budget + t->budget / 16 + 1;
    view_grid_t g;
    if (grid_h < 1 || view_grid_build(a->bufs, a->n, s0, s1, 0, top, grid_w, grid_h, &g))
        return;
    /* top axis: the steps shown and the peak marker */
    int64_t cs0, cs1;
    view_col_steps(&g, 0, &cs0, &cs1);
    char scale[64];
    units_format_bytes((top + grid_h - 1) / grid_h, scale, sizeof scale);
    tui_putf(t, y, x, w, t->attr[T_DIM], "steps %lld-%lld  (col = %lld step%s, row = %s)", (long long)s0,
             (long long)s1 - 1, (long long)(cs1 - cs0), cs1 - cs0 == 1 ? "" : "s", scale);
    int pc = view_step_col(&g, a->fp.peak_step);
    if (pc >= 0) {
        /* the marker over the peak column, its label beside it where it fits */
        char lbl[48];
        int mx = x + axis_w + pc;
        int len = snprintf(lbl, sizeof lbl, "peak @ step %d", (int)a->fp.peak_step);
        int lx = mx + 2 + len <= x + w ? mx + 2 : mx - 1 - len;
        if (lx >= x)
            tui_put(t, y, lx, len, t->attr[T_PEAK], lbl);
        tui_put(t, y, mx, 1, t->attr[T_PEAK], tui_glyph(t, "▼", "v"));
    }
    /* the grid, with the offset axis on the left */
    int budget_row = t->budget >= 0 ? view_offset_row(&g, t->budget) : -1;
    const view_buf_t *sel = selected >= 0 && selected < a->n ? &a->bufs[selected] : NULL;
    for (int r = 0; r < grid_h; r++) {
        int64_t oa = (int64_t)((__int128)top * (grid_h - 1 - r) / grid_h);
        if (r % 4 == 0 || r == grid_h - 1) {
            char lbl[16];
            view_axis_bytes(r == grid_h - 1 ? 0 : oa, lbl, sizeof lbl);
            tui_putf(t, y + 1 + r, x, axis_w - 1, t->attr[T_DIM], "%5s", lbl);
        }
        tui_put(t, y + 1 + r, x + axis_w - 1, 1, t->attr[T_DIM], tui_glyph(t, "│", "|"));
        for (int c = 0; c < grid_w; c++) {
            int32_t b = g.cell[(size_t)r * (size_t)grid_w + (size_t)c];
            if (r == budget_row && b < 0) {
                tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_BUDGET], tui_glyph(t, "─", "-"));
                continue;
            }
            if (b < 0) {
                if (c == pc)
                    tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_PEAK] | A_DIM, tui_glyph(t, "┊", ":"));
                continue;
            }
            unsigned attr = (sel && &a->bufs[b] == sel) ? t->attr[T_SELECTED] : t->attr[role_attr_slot(a->bufs[b].role)];
            if (r == budget_row)
                attr = t->attr[T_BUDGET];
            tui_put(t, y + 1 + r, x + axis_w + c, 1, attr, role_glyph(t, a->bufs[b].role));
        }
    }
    if (budget_row >= 0) {
        char lbl[48], bb[32];
        units_format_bytes(t->budget, bb, sizeof bb);
        snprintf(lbl, sizeof lbl, " budget %s ", bb);
        tui_put(t, y + 1 + budget_row, x + w - (int)strlen(lbl), (int)strlen(lbl), t->attr[T_BUDGET], lbl);
    }
    /* the bottom axis */
    int ay = y + 1 + grid_h;
    for (int c = 0; c < grid_w; c += 12) {
        int64_t sa, sb;
        view_col_steps(&g, c, &sa, &sb);
        tui_putf(t, ay, x + axis_w + c, 11, t->attr[T_DIM], "%s%lld", tui_glyph(t, "╵", "'"), (long long)sa);
    }
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
        char lp[32], tt[32];
        units_format_bytes(a->fp.live_peak, lp, sizeof lp);
        units_format_bytes(a->fp.total, tt, sizeof tt);
        tui_putf(t, ay + 1 + curve_h, x, w, t->attr[T_DIM],
                 "live bytes: max live %s (lower bound) %s arena %s (%+.2f%%, %s)", lp,
                 tui_glyph(t, "│", "|"), tt,
                 a->fp.live_peak ? 100.0 * (double)(a->fp.total - a->fp.live_peak) / (double)a->fp.live_peak : 0.0,
                 arena_strategy_name(t->tgt.cfg.layout));
    }
    view_grid_free(&g);
}

