/* screen_arena: the Arena screen, the open routine's buffers at their
 * offsets over their spans.  The loop (tui.c) calls it; it calls the
 * services, never another screen. */
#ifndef RS_SCREEN_ARENA_H
#define RS_SCREEN_ARENA_H

#include "tui/keymap.h"
#include "tui/tui_state.h"

/* Draws the screen between the tab bar and the status line. */
void screen_arena_draw(tui_t *t);
/* Handles key, action a on this screen; returns KEY_* flags (KEY_UNHANDLED:
 * the loop's to handle). */
int screen_arena_key(tui_t *t, action_t a, int key);
/* Mouse: a click at (y, x) on the screen; returns KEY_* flags. */
int screen_arena_click(tui_t *t, int y, int x);

#endif
