/* tui_fit_why: Enter on the Fit screen — why the selected candidate of the
 * shown plan ended as it did (trace_explain), what its flip added, where
 * it came from, and the events that decided it, in an overlay. */
#ifndef RS_TUI_FIT_WHY_H
#define RS_TUI_FIT_WHY_H

#include "tui/tui_state.h"

/* The Why overlay of t->plan's candidate t->fit_sel (nothing when the plan
 * has no candidates); Esc closes it. */
void tui_fit_why(tui_t *t);

#endif
