/* screen_compare: the Compare screen, a row per budget, fitted as one
 * search.  The loop (tui.c) calls it; it calls the services, never another
 * screen. */
#ifndef RS_SCREEN_COMPARE_H
#define RS_SCREEN_COMPARE_H

#include "tui/keymap.h"
#include "tui/tui_state.h"

/* Draws the screen between the tab bar and the status line. */
void screen_compare_draw(tui_t *t);
/* Handles key, action a on this screen; returns KEY_* flags (KEY_UNHANDLED:
 * the loop's to handle). */
int screen_compare_key(tui_t *t, action_t a, int key);

#endif
