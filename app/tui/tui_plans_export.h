/* tui_plans_export: e on the Plans screen — the chosen plans exported to
 * CSV (plans, flips, events, layout, origins, frontier) or as SVG pictures. */
#ifndef RS_TUI_PLANS_EXPORT_H
#define RS_TUI_PLANS_EXPORT_H

#include "plans.h"
#include "tui/tui_state.h"

/* Asks for a path (its name suggests what to write) and what, then writes
 * pick[0..n) on a worker: one file, or one a plan for a layout or a
 * picture of several (export_plan_path).  Refuses the session store,
 * asks before overwriting, and says what it wrote in the status line.
 * The caller keeps pick. */
void tui_plans_export(tui_t *t, const stored_plan_t **pick, int n);

#endif
