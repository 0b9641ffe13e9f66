/* live: liveness with transitive inline substitution, and recompute
 * multiplicities R(N), exec(N) and the total compute (DESIGN §2). */
#ifndef RS_LIVE_H
#define RS_LIVE_H

#include <stdint.h>

#include "lower/lower.h"
#include "lower/virtualizer.h"
#include "util/error.h"

typedef struct liveness {
    int32_t n_nodes;
    int32_t *start;     /* inclusive step span of each materialized node; */
    int32_t *end;       /* -1/-1 for inline nodes */
    int32_t *last_read; /* last effective read step, -1 when never read */
    int64_t *reads;     /* R(N), saturating at INT64_MAX */
    int64_t *exec;      /* exec(N) */
    int64_t compute;    /* footprint.compute */
} liveness_t;

/* Computes liveness of l under p into out (initialized here; free with
 * live_free).  Linear in the size of the lowering.  RS_EINPUT at the
 * node whose recompute takes the total compute past 64 bits (nothing to
 * free then). */
int live_compute(const lowering_t *l, const placement_t *p, liveness_t *out, rs_error_t *err);

void live_free(liveness_t *lv);

#endif
