/* replay: a stored plan as the fit_plan_t its fit returned, read back from
 * its stored events and flips — no fit runs — so the stepper replays it
 * event by event as after the fit itself. */
#ifndef RS_REPLAY_H
#define RS_REPLAY_H

#include "lower/lower.h"
#include "lower/score.h"
#include "model/routine.h"
#include "plan/fit.h"
#include "plans.h"

/* The plan sp (loaded with its events) on l's routine, the one it was
 * fitted on (node names are looked up in it), lowered under the plan's
 * bindings, with its context's preferences prefs (per node) and config
 * cfg: footprints, budget, cap, counts and counters from the plan's row,
 * flips (with their recompute when the plan stored it, else 0) and events
 * from theirs, the candidates and each event's accepted_n derived from
 * the events (trace_complete), the floors computed again from l (DESIGN
 * §13: they are not stored; one scoring, no search).  RS_EINPUT when the
 * routine lacks a node the plan names or the events are not one fit's
 * trace; RS_ENOMEM.  Free with fit_plan_free. */
int replay_plan(const stored_plan_t *sp, const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg,
                fit_plan_t **out, rs_error_t *err);

#endif
