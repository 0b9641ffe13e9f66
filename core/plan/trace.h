/* trace: reading a fit's event trace: one sentence per event, the chain of
 * events about one node, and "why" that node ended as it did. */
#ifndef RS_TRACE_H
#define RS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/fit.h"

/* "baseline", "kept", "dropped", "solo", "order", "try", "accept", "hold",
 * "commit-group", "discard-group", "reject", "budget-met", "end". */
const char *trace_kind_name(fit_event_kind_t k);
/* "", "worse-alone", "not-below-current", "harmful", "left-over". */
const char *trace_reason_name(fit_reason_t r);
/* "pending", "accepted", "held", "committed", "discarded", "rejected", "dropped". */
const char *fit_status_name(fit_status_t s);

/* One sentence for event i of p, with the scores it compared. */
void trace_describe(const fit_plan_t *p, int32_t i, char *buf, size_t n);

/* The indices of the events of p about node (its own, the groups it was in,
 * and the tries that scored it as a held member), in order; writes at most
 * cap of them and returns how many there are. */
int32_t trace_chain(const fit_plan_t *p, int32_t node, int32_t *chain, int32_t cap);

/* One sentence on why node ended as it did in p ("h accepted in round two:
 * relieved 16.0 MiB on top of {dh, da}; ranked 3rd by relief per cost
 * (1.28 B/op)"). */
void trace_explain(const fit_plan_t *p, int32_t node, char *buf, size_t n);

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
