/* tui_arena: an arena drawn in a rectangle of the screen: the grid of
 * buffers (view_grid_build) with the offset axis, the peak marker, the
 * budget line and the live-bytes curve; where a click lands in it; and
 * freeing an arena_view_t. */
#ifndef RS_TUI_ARENA_H
#define RS_TUI_ARENA_H

#include <stdbool.h>
#include <stdint.h>

#include "theme.h"
#include "tui/tui_state.h"

/* The theme slot of a buffer role. */
static inline theme_slot_t role_attr_slot(uint8_t role) { return (theme_slot_t)(T_RESIDENT + role); }

/* Draws an arena (grid, peak, the line of budget bytes (-1: none), curve)
 * in the rectangle. */
void tui_draw_arena(tui_t *t, const arena_view_t *a, int64_t budget, int y, int x, int h, int w, int selected,
                    bool curve);
/* The buffer drawn at (dy, dx) inside the same rectangle, or -1. */
int tui_arena_buffer_at(const tui_t *t, const arena_view_t *a, int64_t budget, int h, int w, bool curve, int dy,
                        int dx);
/* Scores prefs on tgt's lowering into a (freed first) as the screens draw
 * it, det receiving the detail; touches nothing but its arguments (work
 * on a worker thread, tui_wait.h) and says an error in err. */
int tui_arena_score(const target_t *tgt, const uint8_t *prefs, score_detail_t *det, arena_view_t *a, rs_error_t *err);
/* The arena the Arena screen shows: the frontier plan's schedule while
 * Fit shows that plan (F), else the open routine's. */
const arena_view_t *tui_arena_shown(const tui_t *t);
/* Frees what a holds and zeroes it. */
void tui_arena_free(arena_view_t *a);

#endif
