/* tui_frontier: DESIGN §14's frontier planner on the Fit screen (F): run
 * at the fit's budget (or Minimize), seeded with its flips, with a
 * progress bar; its answer and flips in the table's place, its §14
 * schedule (copies, recompute steps) as the arena the Fit pane and the
 * Arena screen draw while it is shown. */
#ifndef RS_TUI_FRONTIER_H
#define RS_TUI_FRONTIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/floor.h"
#include "tui/keymap.h"
#include "tui/tui_state.h"

/* F: searches the frontier plan of t->plan once per fit (a progress bar;
 * ^C or Esc stops it with the best found, the FRONTIER_DEFAULT_SECONDS
 * limit too) and shows it; again, hides it or shows it again.  The status
 * says what was done. */
void tui_frontier_toggle(tui_t *t);
/* Drops the frontier plan with its schedule (a new fit, a closed one). */
void tui_frontier_free(tui_t *t);
/* Whether the frontier plan has the same flips as t->plan (all inline). */
bool tui_frontier_same(const tui_t *t);

/* The frontier plan's answer and its flips in the planner's order, from
 * row y (the table's heading row) in columns [1, lw), rows rows below the
 * heading. */
void tui_frontier_draw(tui_t *t, int y, int lw, int rows);
/* The frontier table's keys (Up, Down, PgUp, PgDn, first, last); false
 * when a is none of them. */
bool tui_frontier_key(tui_t *t, action_t a, int rows);
/* Enter on the frontier table: the selected flip's buffer (a remat
 * flip's copy) selected in the frontier plan's schedule for the Arena's
 * details, said in the status; false (said) when it has none (inline). */
bool tui_frontier_select(tui_t *t);
/* The heading above the frontier plan's arena in w columns at (y, x). */
void tui_frontier_arena_head(tui_t *t, int y, int x, int w);

/* Buffer b of arena a as the step list and details name it: a copy (§14)
 * is its node's name with the copy mark (′, ' in ASCII); name is the
 * buffer's name otherwise. */
const char *tui_frontier_label(const tui_t *t, const arena_view_t *a, int b, const char *name, char *buf, size_t n);
/* Whether buffer b of a is a §14 copy. */
bool tui_frontier_is_copy(const arena_view_t *a, int b);
/* The details' rows of buffer b of a when the frontier plan's schedule is
 * shown: what a copy is (its recompute step, its node's first span) and
 * the flip of its node; returns the next row. */
int tui_frontier_details(tui_t *t, const arena_view_t *a, int b, int y, int x, int w);
/* The legend's rows for a §14 schedule with copies (the copy's glyph and mark);
 * returns the next row. */
int tui_frontier_legend(tui_t *t, const arena_view_t *a, int y, int x, int w);
/* The bytes live at step s of a by role (lower_role_t, as the step list's
 * roles), when a is the frontier plan's schedule: its buffers, copies
 * counted as their nodes; false (role untouched) for another arena. */
bool tui_frontier_roles(const tui_t *t, const arena_view_t *a, int64_t s, int64_t role[FLOOR_ROLES]);
/* What step s of a is, for the step list's heading: " recomputes NAME"
 * for a recompute step, "" otherwise. */
const char *tui_frontier_step_note(const tui_t *t, const arena_view_t *a, int64_t s, char *buf, size_t n);

#endif
