/* tui_picture: E on the Arena writes what is on screen as the SVG
 * picture the command line writes. */
#ifndef RS_TUI_PICTURE_H
#define RS_TUI_PICTURE_H

#include "tui/tui_state.h"

/* Asks for a path and writes the open routine's arena as on screen (the
 * steps in view, the budget line) as an SVG picture. */
void tui_export_svg(tui_t *t);

#endif
