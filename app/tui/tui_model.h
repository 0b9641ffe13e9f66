/* tui_model: the session behind the screens: the store's lists, the open
 * routine (under per-routine bindings and the chosen profile) opened and
 * scored with a progress bar, the layout it is scored with. */
#ifndef RS_TUI_MODEL_H
#define RS_TUI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/layout.h"
#include "tui/tui_state.h"

/* What Compare's rows depend on, as text: the open routine (its name and
 * source), its bindings, the profile, the scoring config (layout,
 * alignment, ...), the context's preferences and the candidate cap.  The
 * rows are fitted again only when it changes. */
void tui_compare_key(const tui_t *t, char *buf, size_t n);

/* Reloads the session lists and the stored plans from the store. */
void tui_reload(tui_t *t);

/* The bindings chosen for routine (b, or a re-run plan's), "" for its own. */
const char *tui_binds_of(const tui_t *t, const char *routine);
/* Sets them (the next open of routine uses them); false when out of memory. */
bool tui_binds_set(tui_t *t, const char *routine, const char *binds);
/* Whether routine name opens with its bindings (tui_binds_of); the error is
 * shown when not.  Nothing else changes. */
bool tui_check_binds(tui_t *t, const char *name);

/* Stored routine name (its bindings and the session's profile, as it would
 * open) scored alone under the open routine's configuration, with no
 * preferences: its baseline footprint. */
int tui_score_routine(const tui_t *t, const char *name, footprint_t *fp, rs_error_t *err);
/* Opens routine name under its bindings and the chosen profile (read,
 * lowered and scored with a progress bar, tui_wait.h); the routine open
 * before stays when it fails or ^C stops it: false, the status says. */
bool tui_open_routine(tui_t *t, const char *name);
/* The same under a stored plan's scoring config ("alignment=1 ...") and
 * context preferences (space-separated node names; one the routine lacks
 * is passed over), laid out with them in the one wait. */
bool tui_open_routine_as(tui_t *t, const char *name, const char *config, const char *prefs);
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
/* Closes the open routine and what was fitted on it. */
void tui_close_routine(tui_t *t);
/* Scores prefs on the open routine into a; det receives the detail. */
bool tui_score(tui_t *t, const uint8_t *prefs, score_detail_t *det, arena_view_t *a);
/* Lays the open routine out with strategy s from now on (fits too): the
 * arena rescored (with a progress bar), then the plans fitted with the
 * other one closed; ^C keeps the layout and the plans as they were. */
void tui_set_layout(tui_t *t, layout_strategy_t s);

#endif
