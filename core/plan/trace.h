/* trace: reading a fit's event trace: one sentence per event, the chain of
 * events about one node, and "why" that node ended as it did. */
#ifndef RS_TRACE_H
#define RS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/fit.h"
#include "util/strbuf.h"

/* "baseline", "kept", "dropped", "solo", "order", "try", "accept", "hold",
 * "commit-group", "discard-group", "reject", "budget-met", "end". */
const char *trace_kind_name(fit_event_kind_t k);
/* "", "worse-alone", "not-below-current", "harmful", "left-over". */
const char *trace_reason_name(fit_reason_t r);
/* "pending", "accepted", "held", "committed", "discarded", "rejected", "dropped". */
const char *fit_status_name(fit_status_t s);

/* The kind and the reason named name (the two above read back), -1 when
 * name is none of them. */
int trace_kind_parse(const char *name);
int trace_reason_parse(const char *name);

/* Completes a plan read back from its trace (a stored plan): with its
 * events (kinds, nodes, members, scores), flips, footprints and counts
 * set, derives what fit_run also made from them: each event's accepted_n
 * and the candidates (the kept in round-one order with their solo score,
 * rank and final status, then the dropped), so the plan replays as the
 * fit returned it.  RS_EINPUT when the events are not one fit's trace (a
 * node out of range, a flip the events do not accept in that order);
 * RS_ENOMEM. */
int trace_complete(fit_plan_t *p, rs_error_t *err);

/* One sentence for event i of p, with the scores it compared: replaces
 * out's text with the whole of it and returns it; NULL when out of
 * memory.  A group of up to three is named, a bigger one counted ("the
 * 712 held flips"): its members are the event's (group_off, group_n). */
const char *trace_describe(const fit_plan_t *p, int32_t i, strbuf_t *out);

/* The indices of the events of p about node (its own, the groups it was in,
 * and the tries that scored it as a held member), in order; writes at most
 * cap of them and returns how many there are. */
int32_t trace_chain(const fit_plan_t *p, int32_t node, int32_t *chain, int32_t cap);

/* One sentence on why node ended as it did in p ("h accepted in round two:
 * relieved 16.0 MiB on top of {dh, da}; ranked 3rd by relief per cost
 * (1.28 B/FLOP); it added 12.6 MFLOPs of recompute (cost bound 12.6
 * MFLOPs)"); a flip of the plan ends with the recompute it added.  Like
 * trace_describe: out's text replaced, returned, NULL out of memory. */
const char *trace_explain(const fit_plan_t *p, int32_t node, strbuf_t *out);

/* The members of the group trace_explain counts rather than names (more
 * than three): "the load-bearing group of 712 flips: {a, b, ...}" or "the
 * 40 flips accepted before h: {...}", said once after the explanation and
 * its events; "" when it names them or speaks of no group.  As
 * trace_explain: out's text replaced, returned, NULL out of memory. */
const char *trace_explain_group(const fit_plan_t *p, int32_t node, strbuf_t *out);

/* The fit_cand_t of node in p, or NULL when it was no candidate. */
const fit_cand_t *trace_cand(const fit_plan_t *p, int32_t node);

/* What round two made of a candidate by some event of the trace. */
typedef enum trace_r2_kind {
    R2_NOT_YET,     /* round two has not tried it (yet) */
    R2_TRYING,      /* tried, its verdict is a later event */
    R2_ACCEPTED,    /* relief = cur - alone */
    R2_COMMITTED,   /* in a load-bearing group: a held member carries relief 0,
                     * the candidate that closed it cur - with */
    R2_HELD,        /* alone = cur: held, speculatively */
    R2_REJECTED,    /* reason: worse alone, or with the group not below current */
    R2_DISCARDED,   /* reason: its held group was harmful, or left over at the end */
    R2_DROPPED,     /* over the candidate cap: never scored */
    R2_NOT_REACHED  /* the budget was met before its turn */
} trace_r2_kind_t;

typedef struct trace_r2 {
    int64_t relief;  /* R2_ACCEPTED, R2_COMMITTED */
    int32_t event;   /* the event that settled it (or its try); -1 none */
    uint8_t kind;    /* trace_r2_kind_t */
    uint8_t reason;  /* fit_reason_t: R2_REJECTED, R2_DISCARDED */
    bool closer;     /* R2_COMMITTED: it closed the group */
} trace_r2_t;

/* Round two's verdict on every candidate of p (out is indexed like
 * p->cands) after events 0..upto inclusive (-1: before any), read from the
 * events alone.  RS_OK, or RS_ENOMEM with out untouched. */
int trace_round_two_at(const fit_plan_t *p, int32_t upto, trace_r2_t *out);

/* A verdict as table text: "+10.0 MiB", "+0 group", "held", "worse alone",
 * "not yet", ...; narrow keeps it within 11 columns, else within 16. */
void trace_round_two_text(const trace_r2_t *v, bool narrow, char *buf, size_t n);

#endif
