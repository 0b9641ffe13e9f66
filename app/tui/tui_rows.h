/* tui_rows: Compare's rows, t->cmp_rows[0..n_cmp_rows), each added,
 * cleared, swapped and removed whole (the budget, the plan, the best
 * plan, the time, the saved flag never part), the selection and the mark
 * following their rows.  The rows past n_cmp_rows are all zero. */
#ifndef RS_TUI_ROWS_H
#define RS_TUI_ROWS_H

#include <stdbool.h>

#include "tui/tui_state.h"

/* Appends a row for budget (as typed; cut at 47 bytes), not fitted yet.
 * False, nothing added, when there are TUI_MAX_BUDGETS rows. */
bool tui_rows_add(tui_t *t, const char *budget);
/* Row r's fit goes: its plan is freed (and with it its time and saved
 * flag), its best plan too unless keep_best; the budget stays. */
void tui_rows_clear(compare_row_t *r, bool keep_best);
/* Rows i and j (both < n_cmp_rows) change places; the selection and the
 * mark go with their rows. */
void tui_rows_swap(tui_t *t, int i, int j);
/* Row i (< n_cmp_rows) is freed and goes; the ones below move up, the
 * mark follows its row (on row i it goes), the selection too (on row i it
 * stays at i, the row that moved up, or the new last row). */
void tui_rows_remove(tui_t *t, int i);
/* Every row is freed: no rows, none selected or marked (the session's end). */
void tui_rows_free(tui_t *t);

#endif
