/* tui_fit_origins: g on the Fit screen — the shown plan's flips grouped by
 * origin (answer_by_origin: biggest relief first, '!' where a flip does
 * not pay) in the candidate table's place; Enter lists an origin's flips. */
#ifndef RS_TUI_FIT_ORIGINS_H
#define RS_TUI_FIT_ORIGINS_H

#include <stdbool.h>

#include "tui/keymap.h"
#include "tui/tui_state.h"

/* Draws t->plan's origins table: its header on row y - 1, rows rows from
 * row y, lw columns from column 1 (wide: every column at full width);
 * clamps t->org_sel and t->org_top to what it shows. */
void tui_fit_origins_draw(tui_t *t, int y, int lw, int rows, bool wide);

/* The origins table's keys (moving, Enter: the selected origin's flips in
 * an overlay) for a table of rows rows; false for a key it leaves to the
 * screen. */
bool tui_fit_origins_key(tui_t *t, action_t a, int rows);

#endif
