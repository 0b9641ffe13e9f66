/* replay: a stored plan as the fit_plan_t its fit returned, read back from
 * its stored events and flips — no fit runs — so the stepper replays it
 * event by event as after the fit itself. */
#ifndef RS_REPLAY_H
#define RS_REPLAY_H

#include "model/routine.h"
#include "plan/fit.h"
#include "plans.h"

/* The plan sp (loaded with its events) on r, the routine it was fitted on
 * (node names are looked up in it): footprints, budget, cap, counts and
 * counters from the plan's row, flips and events from theirs, the
 * candidates and each event's accepted_n derived from the events
 * (trace_complete).  RS_EINPUT when r lacks a node the plan names or the
 * events are not one fit's trace; RS_ENOMEM.  Free with fit_plan_free. */
int replay_plan(const stored_plan_t *sp, const routine_t *r, fit_plan_t **out, rs_error_t *err);

#endif
