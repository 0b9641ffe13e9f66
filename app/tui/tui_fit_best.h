/* tui_fit_best: the best (x) or improved (I) plan beside the two-round one
 * on the Fit screen, in its pane and (D) in full in a popup. */
#ifndef RS_TUI_FIT_BEST_H
#define RS_TUI_FIT_BEST_H

#include "tui/tui_state.h"

/* Draws t->best's answer beside t->plan (both set, t->best.kind not
 * BEST_NONE) in the pane from row y to row bottom (exclusive), columns x
 * to x + w: the two-round plan's sentence, the best plan's, the flips
 * that differ and "(D lists all)" when any of it was cut.  Returns the
 * row below what it drew: the best plan's arena (when t->best.found) goes
 * from there to bottom. */
int tui_fit_best_draw(tui_t *t, int y, int x, int w, int bottom);
/* D on Fit: the whole answer in a popup (both sentences, then every flip
 * that differs, one a line, or "no flip differs"); when no best plan is
 * shown beside t->plan, an error status saying x and I find one. */
void tui_fit_best_popup(tui_t *t);

#endif
