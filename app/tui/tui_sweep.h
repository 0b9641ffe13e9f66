/* tui_sweep: Compare's rows made on a worker with a progress bar: every
 * budget fitted as one search, the best row of each (x), and whether the
 * rows there are still those of what is open (tui_compare_key). */
#ifndef RS_TUI_SWEEP_H
#define RS_TUI_SWEEP_H

#include <stdbool.h>

#include "tui/tui_state.h"

/* Whether Compare's rows were fitted on what is open now: the same
 * tui_compare_key, nothing asking for a new search. */
bool tui_sweep_current(const tui_t *t);
/* Fits every budget as one search with a progress bar saying each stage
 * ("Compare: 4 budgets on bert: round one, shared 500/9324 scorings",
 * "...: budget 2 of 4: 50%: round two 12/9324 tries at most"), then the best rows when shown;
 * the rows there were go once it is done (their best rows stay while they
 * are current).  ^C keeps the rows when they are still current (a row it
 * left unfitted says so), else drops them: RS_ECANCELED. */
int tui_sweep_run(tui_t *t);
/* The best row of every row that has none (x on rows already fitted),
 * each exact search up to 3 s, with a progress bar; ^C keeps what was found. */
void tui_sweep_best(tui_t *t);

#endif
