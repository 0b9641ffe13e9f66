/* tui_model: the session behind the screens: the store's lists, the open
 * routine (under per-routine bindings and the chosen profile) and its
 * scoring, fit runs with a progress bar, the plan shown on Fit, saving. */
#ifndef RS_TUI_MODEL_H
#define RS_TUI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "best.h"
#include "layout/layout.h"
#include "plan/fit.h"
#include "tui/tui_state.h"

/* A monotonic clock in microseconds. */
int64_t tui_now_us(void);

/* Reloads the session lists and the stored plans from the store. */
void tui_reload(tui_t *t);

/* The bindings chosen for routine (b, or a re-run plan's), "" for its own. */
const char *tui_binds_of(const tui_t *t, const char *routine);
/* Sets them (the next open of routine uses them); false when out of memory. */
bool tui_binds_set(tui_t *t, const char *routine, const char *binds);
/* Whether routine name opens with its bindings (tui_binds_of); the error is
 * shown when not.  Nothing else changes. */
bool tui_check_binds(tui_t *t, const char *name);
/* Opens routine row i of the session list under the current bindings and
 * profile (re-scores); false with a status message on error. */
bool tui_open_routine(tui_t *t, const char *name);
/* Renames routine from to to in the store — the versions imported from
 * path, its latest's file (two dumps of one module name come apart; a
 * routine edited in one file goes whole); its plans stay with it, their
 * contexts hold its rows — and wherever the session holds the name: its
 * bindings, the open routine.  *renamed counts the versions.  False with
 * the error in the status. */
bool tui_rename_routine(tui_t *t, const char *from, const char *path, const char *to, int *renamed);
/* The profile the Session list chose (an index, -1 none), remembered in
 * the store for the next session; the open routine is re-scored under it.
 * False when the user keeps an unsaved fit it would drop. */
bool tui_choose_profile(tui_t *t, int profile);
/* The profile the store remembers from the last session, when the list
 * has it, selected -- unless the config file names one, which wins (the
 * status then says what was chosen last time). */
void tui_recall_profile(tui_t *t);
/* Before a change that drops the fit on the Fit screen (a profile,
 * bindings, a layout): when it is not saved, asks first (false: the user
 * keeps it).  what (n bytes) receives what to say after the change:
 * "; dropped the fit to 60% (f fits again)" ("; dropped the saved fit"), "" with no fit. */
bool tui_fit_may_go(tui_t *t, const char *change, char *what, size_t n);
/* After p was saved: when it is the plan the Fit screen shows (a Compare
 * row Enter opened, saved from Compare), that fit is saved too. */
void tui_plan_saved(tui_t *t, const fit_plan_t *p);
/* Closes the open routine and what was fitted on it. */
void tui_close_routine(tui_t *t);
/* Scores prefs on the open routine into a; det receives the detail. */
bool tui_score(tui_t *t, const uint8_t *prefs, score_detail_t *det, arena_view_t *a);
/* Lays the open routine out with strategy s from now on (fits too): the
 * plans fitted with the other one are closed, the arena rescored. */
void tui_set_layout(tui_t *t, layout_strategy_t s);

/* The budget a Fit prompt offers: the shown fit's (or the budget line's),
 * else the last fit's on any routine ("60%" means the same share of every
 * routine), else the config file's memory_budget (DESIGN §11), else none. */
void tui_budget_offer(const tui_t *t, char *buf, size_t n);
/* Runs fit for budget text on the open routine with a progress bar (^C
 * cancels); replaces t->plan. */
bool tui_run_fit(tui_t *t, const char *budget);
/* Shows a copy of plan, fitted on the open routine under budget (Compare's
 * rows), in the Fit screen as if tui_run_fit had just made it, without
 * fitting again; what names it in the status line. */
bool tui_show_plan(tui_t *t, const fit_plan_t *plan, int64_t elapsed_us, const char *budget, const char *what);
/* Drops the best or improved plan shown beside t->plan, with its arena. */
void tui_best_free(tui_t *t);
/* Asks for the candidate cap of the fits that follow (t->cap, Compare's rows
 * too, which it marks stale); false when cancelled or not a cap. */
bool tui_set_cap(tui_t *t);
/* Asks for a label (prompt) and stores p, fitted on the open routine in
 * elapsed_us under budget (as typed: "60%"), as a plan, the one Plans
 * selects next, with gap (the best or improved plan shown beside it; NULL
 * or kind 0: none) as its gap; the status says "WHAT saved as plan N".
 * False when cancelled or on error (the status says). */
bool tui_save_plan(tui_t *t, fit_plan_t *p, int64_t elapsed_us, const char *budget, const best_plan_t *gap,
                   const char *prompt, const char *what);

#endif
