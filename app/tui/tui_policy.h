/* tui_policy: P on Compare (issue 45): the same step under a
 * jax.checkpoint policy, a stored routine, as a reference point.  It is
 * scored alone; its total becomes a budget row, fitted with the others;
 * the chart marks its point (P) and the line under the table puts it
 * beside the plan found at its memory, as `sweep --policy` does. */
#ifndef RS_TUI_POLICY_H
#define RS_TUI_POLICY_H

#include "tui/tui_state.h"

/* Asks for the routine, scores it and adds its row (or marks the row of
 * that budget already there); the status says what went wrong. */
void tui_policy_add(tui_t *t);

/* When the selected row is a policy's, its line at row y ("policy R:
 * 3.45 GiB, adds +7.78G over the baseline; the plan here adds +20.1G,
 * 2.58x"); returns the rows drawn (0 or 1). */
int tui_policy_line(tui_t *t, int y);

#endif
