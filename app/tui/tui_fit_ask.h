/* tui_fit_ask: the Fit prompt of the Arena and Fit screens (f, b): the
 * budget asked (with the floor's question) and fitted, and the budget
 * typed kept for the next prompt when it was not fitted. */
#ifndef RS_TUI_FIT_ASK_H
#define RS_TUI_FIT_ASK_H

#include <stdbool.h>

#include "tui/tui_state.h"

/* Asks for a budget (tui_answer_ask_fit) and runs fit on it (tui_run_fit);
 * true when a fit was installed.  A budget typed (not the one offered) and
 * not fitted (n to the floor's question, Esc, a cancel, an error) is what
 * the next prompt offers (tui_budget_offer). */
bool tui_fit_ask(tui_t *t);

#endif
