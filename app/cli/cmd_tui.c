/* `rematscope [FILE...]` / `rematscope tui`: the full-screen interface. */
#include "cli/cli.h"
#include "tui/tui.h"

int cmd_tui(const cmdline_t *c) { return tui_run(c); }
