/* trace: reading a fit's event trace: one sentence per event, the chain of
 * events about one node, and "why" that node ended as it did. */
#ifndef RS_TRACE_H
#define RS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "fit.h"

/* "baseline", "kept", "dropped", "solo", "order", "try", "accept", "hold",
 * "commit-group", "discard-group", "reject", "budget-met", "end". */
const char *trace_kind_name(fit_event_kind_t k);
/* "", "worse-alone", "not-below-current", "harmful", "left-over". */
const char *trace_reason_name(fit_reason_t r);
/* "pending", "accepted", "held", "committed", "discarded", "rejected", "dropped". */
const char *fit_status_name(fit_status_t s);

/* One sentence for event i of p, with the scores it compared. */
void trace_describe(const fit_plan_t *p, int32_t i, char *buf, size_t n);

/* The indices of the events of p about node (its own, and the groups it was
 * in), in order; writes at most cap of them and returns how many there are. */
int32_t trace_chain(const fit_plan_t *p, int32_t node, int32_t *chain, int32_t cap);

/* One sentence on why node ended as it did in p ("h accepted in round two:
 * relieved 16.0 MiB on top of {dh, da}; ranked 3rd by relief per cost
 * (1.28 B/op)"). */
void trace_explain(const fit_plan_t *p, int32_t node, char *buf, size_t n);

/* The fit_cand_t of node in p, or NULL when it was no candidate. */
const fit_cand_t *trace_cand(const fit_plan_t *p, int32_t node);

#endif
