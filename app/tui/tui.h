/* tui: the full-screen interface: the terminal (set up, restored on any
 * signal), the event loop that dispatches keys and clicks to the screen
 * shown, the tab bar and the status bar.  The state every screen shares is
 * tui_state.h; only cmd_tui calls this. */
#ifndef RS_TUI_H
#define RS_TUI_H

#include "cmdline.h"

/* Runs the TUI on the command line c (its store, theme, files, config);
 * returns the exit status. */
int tui_run(const cmdline_t *c);

#endif
