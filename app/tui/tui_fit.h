/* tui_fit: the plan on the Fit screen: fit runs on the open routine with
 * a progress bar, a plan shown there from elsewhere (a Compare row, a
 * stored plan replayed), the best or improved plan beside it, the
 * candidate cap, saving. */
#ifndef RS_TUI_FIT_H
#define RS_TUI_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "best.h"
#include "plan/fit.h"
#include "tui/tui_state.h"

/* Before a change that drops the fit on the Fit screen (a profile,
 * bindings, a layout): when it is not saved, asks first (false: the user
 * keeps it).  what (n bytes) receives what to say after the change:
 * "; dropped the fit to 60% (f fits again)" ("; closed the saved fit"), "" with no fit. */
bool tui_fit_may_go(tui_t *t, const char *change, char *what, size_t n);
/* Before what ("a fit to 4GB", "row 2 (60%)") replaces the fit on the Fit
 * screen with next (NULL: not known yet): when that fit is not saved and
 * next is not the same plan, asks first; false (the status says the fit
 * was kept) when the user keeps it. */
bool tui_fit_may_replace(tui_t *t, const char *what, const fit_plan_t *next);
/* After p was saved: when it is the plan the Fit screen shows (a Compare
 * row Enter opened, saved from Compare), that fit is saved too. */
void tui_plan_saved(tui_t *t, const fit_plan_t *p);
/* Drops the plan on the Fit screen with its context, event arena and the
 * best plan beside it (Compare's rows stay: they are Compare's). */
void tui_fit_close(tui_t *t);

/* The budget a Fit prompt offers: the one typed at the last prompt when it
 * was not fitted (tui_fit_ask), else the shown fit's (or the budget line's),
 * else the last fit's on any routine ("60%" means the same share of every
 * routine), else the config file's memory_budget (DESIGN §11), else none. */
void tui_budget_offer(const tui_t *t, char *buf, size_t n);
/* Runs fit for budget text on the open routine with a progress bar (^C
 * cancels); replaces t->plan. */
bool tui_run_fit(tui_t *t, const char *budget);
/* Shows stored plan id (its routine open under its bindings, profile,
 * config and preferences), fitted under budget, in the Fit screen from its
 * stored events, without fitting (a progress bar while they load; ^C
 * stops): the status says "plan N replayed from the store (no fit)".
 * RS_OK, else the status says why: RS_ECANCELED, RS_EINPUT (the stored
 * trace is not one this routine replays: the caller may fit it again). */
int tui_replay_plan(tui_t *t, int64_t id, const char *budget);
/* Shows a copy of plan, fitted on the open routine under budget (Compare's
 * rows), in the Fit screen as if tui_run_fit had just made it, without
 * fitting again; what names it in the status line. */
bool tui_show_plan(tui_t *t, const fit_plan_t *plan, int64_t elapsed_us, const char *budget, const char *what);
/* Searches for the best (BEST_EXACT) or improved plan of t->plan with a
 * progress bar (^C stops with what was found) and shows it beside it. */
void tui_best_run(tui_t *t, best_kind_t kind);
/* Drops the best or improved plan shown beside t->plan, with its arena. */
void tui_best_free(tui_t *t);
/* Asks for the candidate cap of the fits that follow (t->cap, Compare's rows
 * too, which it marks stale) and keeps it in the store with the session;
 * false when cancelled or not a cap. */
bool tui_set_cap(tui_t *t);
/* Sets the cap of the fits that follow to cap (-1 the default, INT32_MAX
 * all) as C does: Compare's rows marked stale, kept in the store, said. */
void tui_cap_set(tui_t *t, int32_t cap);
/* The cap C chose in the store's last session into t->cap_offer, which
 * C's prompt offers while this session has set none ("" when none was
 * chosen, or the default).  The fits keep the default until C is
 * answered: a choice made for one step is not imposed on the next. */
void tui_recall_cap(tui_t *t);
/* Asks for a label (prompt) and stores p, fitted on the open routine in
 * elapsed_us under budget (as typed: "60%"), as a plan, the one Plans
 * selects next, with gap (the best or improved plan shown beside it; NULL
 * or kind 0: none) as its gap (DESIGN §12); the status says "WHAT saved as
 * plan N" and, with a gap, what it holds: ", with the best plan x found
 * beside it (6.41 MiB, 254 KiB less)".
 * False when cancelled or on error (the status says). */
bool tui_save_plan(tui_t *t, fit_plan_t *p, int64_t elapsed_us, const char *budget, const best_plan_t *gap,
                   const char *prompt, const char *what);

#endif
