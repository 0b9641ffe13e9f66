/* tui_compare_chart: Compare's chart, final footprint (up) against
 * recompute overhead (right): a digit per fitted row, '*' for a best plan
 * (x), 'P' for a policy's point (P: the same step under a jax.checkpoint
 * policy, scored alone), the floor as a dashed line. */
#ifndef RS_TUI_COMPARE_CHART_H
#define RS_TUI_COMPARE_CHART_H

#include "plan/fit.h"
#include "tui/tui_state.h"

/* The compute c over p's baseline compute, in percent of it (0 when the
 * baseline computes nothing). */
double tui_overhead(const fit_plan_t *p, int64_t c);

/* Draws the chart of t's Compare rows in h rows and w columns at (y, x);
 * nothing when that is too small to read. */
void tui_compare_chart(tui_t *t, int y, int x, int h, int w);

#endif
