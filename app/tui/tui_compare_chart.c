#include "tui/tui_compare_chart.h"

#include <curses.h>
#include <stdio.h>

#include "model/units.h"
#include "tui/tui_draw.h"
#include "view.h"

double tui_overhead(const fit_plan_t *p, int64_t c)
{
    return p->baseline.compute ? 100.0 * (double)(c - p->baseline.compute) / (double)p->baseline.compute : 0.0;
}

static double overhead(const fit_plan_t *p) { return tui_overhead(p, p->final.compute); }

enum { CHART_MAX_COLS = 1024 }; /* the floor label's search looks at no more */

/* The chart row of footprint v (lo <= v <= lo + span) among ch rows, 0 the
 * top: the nearest one, as the axis's ticks are read (a truncation drew a
 * point up to a row below its value). */
static int chart_row(int64_t v, int64_t lo, int64_t span, int ch)
{
    v = v < lo ? lo : v - lo > span ? lo + span : v;
    __int128 up = ((__int128)(v - lo) * (ch - 1) * 2 + span) / (2 * (__int128)span);
    return ch - 1 - (int)up;
}

/* The chart column of recompute overhead over (0 <= over <= max_over)
 * among cw columns: the nearest one, as the rows. */
static int chart_col(double over, double max_over, int cw)
{
    return (int)((over > max_over ? max_over : over) / max_over * (cw - 1) + 0.5);
}

/* Where each fitted row's digit goes on the chart (cw columns, ch rows):
 * rows at one point go side by side in row order ("1234", starting left of
 * the point when it is near the right edge), so none hides. */
static void place_rows(const tui_t *t, double max_over, int64_t lo, int64_t span, int cw, int ch, int *row_x,
                       int *row_y)
{
    int raw_x[TUI_MAX_BUDGETS], raw_y[TUI_MAX_BUDGETS];
    for (int i = 0; i < t->n_cmp_rows; i++) {
        const fit_plan_t *p = t->cmp_rows[i].plan;
        if (p) {
            raw_x[i] = chart_col(overhead(p), max_over, cw);
            raw_y[i] = chart_row(p->final.total, lo, span, ch);
        }
    }
    int n_placed = 0, placed[TUI_MAX_BUDGETS];
    for (int i = 0; i < t->n_cmp_rows; i++) {
        if (!t->cmp_rows[i].plan)
            continue;
        int rank = 0, group = 0;
        for (int j = 0; j < t->n_cmp_rows; j++)
            if (t->cmp_rows[j].plan && raw_x[j] == raw_x[i] && raw_y[j] == raw_y[i]) {
                rank += j < i;
                group++;
            }
        int cx = (raw_x[i] < cw - group ? raw_x[i] : cw - group) + rank, cy = raw_y[i];
        cx = cx < 0 ? 0 : cx;
        for (int off = 0; off < cw; off++) { /* that cell, else right of it, else left (at the right edge) */
            int at = cx + off < cw ? cx + off : cx - (off - (cw - 1 - cx));
            bool taken = false;
            for (int k = 0; k < n_placed && !taken; k++)
                taken = row_y[placed[k]] == cy && row_x[placed[k]] == at;
            if (!taken && at >= 0) {
                cx = at;
                break;
            }
        }
        row_x[i] = cx;
        row_y[i] = cy;
        placed[n_placed++] = i;
    }
}

/* The rightmost start of len free cells among taken[0..n), -1 when none. */
static int free_run(const bool *taken, int n, int len)
{
    for (int at = n - len; at >= 0; at--) {
        int c = 0;
        while (c < len && !taken[at + c])
            c++;
        if (c == len)
            return at;
    }
    return -1;
}

void tui_compare_chart(tui_t *t, int y, int x, int h, int w)
{
    if (h < 4 || w < 30)
        return;
    double max_over = 0;
    int64_t max_fp = 0, min_fp = INT64_MAX;
    for (int i = 0; i < t->n_cmp_rows; i++) {
        const fit_plan_t *p = t->cmp_rows[i].plan;
        if (!p)
            continue;
        if (overhead(p) > max_over)
            max_over = overhead(p);
        max_fp = p->final.total > max_fp ? p->final.total : max_fp;
        min_fp = p->final.total < min_fp ? p->final.total : min_fp;
        const compare_row_t *r = &t->cmp_rows[i];
        if (r->policy[0]) { /* and the policies' points */
            double po = tui_overhead(p, r->policy_fp.compute);
            max_over = po > max_over ? po : max_over;
            max_fp = r->policy_fp.total > max_fp ? r->policy_fp.total : max_fp;
            min_fp = r->policy_fp.total < min_fp ? r->policy_fp.total : min_fp;
        }
        const best_plan_t *b = &t->cmp_rows[i].best;
        if (t->cmp_show_best && b->found) { /* the axes span the best rows too */
            double bo = tui_overhead(p, b->final.compute);
            max_over = bo > max_over ? bo : max_over;
            max_fp = b->final.total > max_fp ? b->final.total : max_fp;
            min_fp = b->final.total < min_fp ? b->final.total : min_fp;
        }
    }
    if (max_fp <= 0)
        return;
    if (max_over <= 0)
        max_over = 1;
    /* the floor (DESIGN §13: no row's footprint is below it) on the axis too */
    const floor_t *fl = NULL;
    for (int i = 0; i < t->n_cmp_rows && !fl; i++)
        fl = t->cmp_rows[i].plan ? &t->cmp_rows[i].plan->floor : NULL;
    if (fl && fl->bytes > 0 && fl->bytes < min_fp)
        min_fp = fl->bytes;
    /* the y axis spans the footprints shown (a point at each end), not 0..max */
    int64_t lo = min_fp, span = max_fp - min_fp;
    if (span == 0) {
        lo = min_fp / 2;
        span = max_fp - lo > 0 ? max_fp - lo : 1;
    }
    tui_put(t, y, x, w, t->attr[T_DIM],
            "final footprint (up) vs recompute overhead (right); the digit is the row, P a policy's step");
    int ch = h - 2;
    /* the footprint axis: its ends and a tick every four rows or so, each
     * with as many digits as tell it from its neighbours ("1.20G" and
     * "1.23G", where a tenth printed both "1.2G") */
    int nt = ch >= 9 ? (ch - 1) / 4 + 1 : 2;
    nt = nt > 6 ? 6 : nt;
    int64_t tv[6];
    int trow[6];
    char tl[6][16];
    for (int k = 0; k < nt; k++) {
        int up = (int)((int64_t)k * (ch - 1) / (nt - 1)); /* rows above the bottom one */
        trow[k] = ch - 1 - up;
        tv[k] = lo + (int64_t)((__int128)span * up / (ch - 1 > 0 ? ch - 1 : 1));
    }
    view_axis_labels(tv, nt, tl);
    int aw = 5;
    for (int k = 0; k < nt; k++)
        aw = tui_cols(tl[k]) > aw ? tui_cols(tl[k]) : aw;
    int cw = w - aw - 3, px = x + aw + 2; /* the plot's width and first column */
    if (cw < 20)
        return;
    for (int r = 0; r < ch; r++)
        tui_put(t, y + 1 + r, px - 1, 1, t->attr[T_DIM], tui_glyph(t, "│", "|"));
    for (int k = 0; k < nt; k++)
        tui_putf(t, y + 1 + trow[k], x, aw, t->attr[T_DIM], "%*s", aw, tl[k]);
    tui_hline(t, y + 1 + ch, px, cw, t->attr[T_DIM]);
    tui_put(t, y + 1 + ch, px, 3, t->attr[T_DIM], "+0%");
    char right[24];
    int rl = snprintf(right, sizeof right, "+%.3g%%", max_over);
    tui_put(t, y + 1 + ch, px + cw - rl, rl, t->attr[T_DIM], right);
    if (cw >= 40) { /* and the middle of the overhead axis */
        int ml = snprintf(right, sizeof right, "+%.3g%%", max_over / 2);
        tui_put(t, y + 1 + ch, px + (cw - 1) / 2 - ml / 2, ml, t->attr[T_DIM], right);
    }
    /* the points first, so the floor's label can go where none is */
    int star_x[TUI_MAX_BUDGETS], star_y[TUI_MAX_BUDGETS], n_stars = 0;
    for (int i = 0; t->cmp_show_best && i < t->n_cmp_rows; i++) { /* best plans as '*' */
        const compare_row_t *r = &t->cmp_rows[i];
        const best_plan_t *b = &r->best;
        if (!r->plan || !b->found)
            continue;
        double over = tui_overhead(r->plan, b->final.compute);
        int64_t bt = b->final.total > max_fp ? max_fp : b->final.total < lo ? lo : b->final.total;
        star_x[n_stars] = chart_col(over, max_over, cw);
        star_y[n_stars++] = chart_row(bt, lo, span, ch);
    }
    int row_x[TUI_MAX_BUDGETS], row_y[TUI_MAX_BUDGETS];
    place_rows(t, max_over, lo, span, cw, ch, row_x, row_y);
    if (fl && fl->bytes > 0) { /* a dashed line, the points over it, its label beside them */
        int fy = chart_row(fl->bytes, lo, span, ch);
        char lbl[48], fb[32];
        units_format_bytes(fl->bytes, fb, sizeof fb);
        int ll = snprintf(lbl, sizeof lbl, " floor %s ", fb);
        for (int c = 0; c < cw; c++)
            tui_put(t, y + 1 + fy, px + c, 1, t->attr[T_PEAK], tui_glyph(t, "╌", "="));
        bool taken[CHART_MAX_COLS] = { false };
        int tw = cw < CHART_MAX_COLS ? cw : CHART_MAX_COLS;
        for (int k = 0; k < n_stars; k++)
            if (star_y[k] == fy && star_x[k] < tw)
                taken[star_x[k]] = true;
        for (int i = 0; i < t->n_cmp_rows; i++)
            if (t->cmp_rows[i].plan && row_y[i] == fy && row_x[i] < tw)
                taken[row_x[i]] = true;
        int at = free_run(taken, tw, ll);
        tui_put(t, y + 1 + fy, px + (at >= 0 ? at : tw - ll), ll, t->attr[T_PEAK], lbl);
    }
    for (int k = 0; k < n_stars; k++)
        tui_put(t, y + 1 + star_y[k], px + star_x[k], 1, t->attr[T_HELD] | A_BOLD, "*");
    for (int i = 0; i < t->n_cmp_rows; i++) { /* a policy's point as P, under the rows' digits */
        const compare_row_t *r = &t->cmp_rows[i];
        if (r->plan && r->policy[0])
            tui_put(t, y + 1 + chart_row(r->policy_fp.total, lo, span, ch),
                    px + chart_col(tui_overhead(r->plan, r->policy_fp.compute), max_over, cw), 1,
                    t->attr[T_HELD] | A_BOLD, "P");
    }
    for (int i = 0; i < t->n_cmp_rows; i++) /* the rows on top of the stars */
        if (t->cmp_rows[i].plan)
            tui_putf(t, y + 1 + row_y[i], px + row_x[i], 1,
                     i == t->cmp_sel ? t->attr[T_SELECTED] : t->attr[T_ACCEPTED], "%d", (i + 1) % 10);
}

