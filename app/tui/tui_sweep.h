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
/* Fits the rows that have no plan as one search (every row when they are
 * no longer current: tui_sweep_current) with a progress bar saying each
 * stage ("Compare: 4 budgets on bert: round one, shared 500/9324 scorings",
 * "...: budget 2 of 4: 50%: round two 12/9324 tries at most"; the count is
 * of the budgets fitted), then the best rows when shown; rows fitted before
 * on what is open keep their plans (and best rows).  ^C keeps every row
 * fitted, in this search (each the plan a fit of its budget alone gives)
 * or before; a row it left unfitted says so: RS_ECANCELED.  The status
 * says what the search fitted and kept. */
int tui_sweep_run(tui_t *t);
/* A on Compare: the rows the cap alone kept out of reach (text_cap_hides:
 * within says "no, cap") fitted again with every candidate, as one search;
 * the other rows, and t->cap for the fits that follow, stay.  The status
 * says so when there is no such row.  As tui_sweep_run otherwise. */
int tui_sweep_refit_all(tui_t *t);
/* The best row of every row that has none (x on rows already fitted),
 * each exact search up to 3 s, with a progress bar; ^C keeps what was found. */
void tui_sweep_best(tui_t *t);

#endif
