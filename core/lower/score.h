/* score: one scoring of a lowering under a set of inline preferences:
 * virtualize -> liveness -> arena layout -> footprint (DESIGN §3). */
#ifndef RS_SCORE_H
#define RS_SCORE_H

#include <stdbool.h>
#include <stdint.h>

#include "layout/layout.h"
#include "lower/live.h"
#include "lower/lower.h"
#include "lower/virtualizer.h"
#include "util/error.h"

typedef struct footprint {
    int64_t total;      /* the arena's high-water mark */
    int64_t live_peak;  /* max over steps of live aligned bytes (a lower bound) */
    int32_t peak_step;  /* first step where live_peak is reached */
    int32_t buffers;    /* materialized buffers */
    int64_t compute;
} footprint_t;

typedef struct score_config {
    int64_t alignment;         /* >= 1 */
    int32_t max_inline_depth;  /* >= 0 */
    bool aliasing;             /* buffer_aliasing; off: every buffer spans the routine */
    layout_strategy_t layout;
    bool log_memory_budget;    /* fit's callers log the candidates the cap drops (the trace has them always) */
} score_config_t;

/* Alignment 1, depth 8, aliasing on, greedy: the profile-less defaults. */
void score_config_default(score_config_t *c);

/* What a scoring computed along the way, for tables and drawing. */
typedef struct score_detail {
    placement_t place;
    liveness_t live;
    int64_t *aligned;  /* per node; 0 for inline nodes */
    int64_t *offset;   /* per node; -1 for inline nodes */
} score_detail_t;

/* Scores l with prefs (per node, may be NULL) on top of the default policy.
 * detail may be NULL; when given it is initialized here (free it with
 * score_detail_free, also after an error). */
int score_lowering(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg,
                   footprint_t *out, score_detail_t *detail, rs_error_t *err);

void score_detail_free(score_detail_t *d);

#endif
