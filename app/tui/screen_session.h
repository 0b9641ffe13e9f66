/* screen_session: the Session screen, the routines and profiles in the
 * store.  The loop (tui.c) calls it; it calls the services, never another
 * screen. */
#ifndef RS_SCREEN_SESSION_H
#define RS_SCREEN_SESSION_H

#include "tui/keymap.h"
#include "tui/tui_state.h"

/* Before a draw: scores the baselines of the routines the list shows that
 * have none yet, on a worker with a progress bar (^C leaves the rest
 * unscored, drawn "-"); the draw itself never reads the store. */
void screen_session_prepare(tui_t *t);
/* Draws the screen between the tab bar and the status line. */
void screen_session_draw(tui_t *t);
/* Handles key, action a on this screen; returns KEY_* flags (KEY_UNHANDLED:
 * the loop's to handle). */
int screen_session_key(tui_t *t, action_t a, int key);
/* Mouse: a click at (y, x) on the screen; returns KEY_* flags. */
int screen_session_click(tui_t *t, int y, int x);

#endif
