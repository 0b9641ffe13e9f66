/* screen_plans: the Plans screen, the stored plans.  The loop (tui.c)
 * calls it; it calls the services, never another screen. */
#ifndef RS_SCREEN_PLANS_H
#define RS_SCREEN_PLANS_H

#include "tui/keymap.h"
#include "tui/tui_state.h"

/* Draws the screen between the tab bar and the status line. */
void screen_plans_draw(tui_t *t);
/* Handles key, action a on this screen; returns KEY_* flags (KEY_UNHANDLED:
 * the loop's to handle). */
int screen_plans_key(tui_t *t, action_t a, int key);
/* Mouse: a click at (y, x) on the screen; returns KEY_* flags. */
int screen_plans_click(tui_t *t, int y, int x);

#endif
