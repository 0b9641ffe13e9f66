/* remat: DESIGN §14's scoring, a plan of inline flips (§2) and remat flips
 * (recompute once).  The virtualizer settles the inline preferences as
 * score_lowering does; then each remat flip, in descending node index,
 * splits its node's reads at the largest gap of (d, u1, ..., uk) and
 * inserts a recompute step, defining a copy, just before the later reads;
 * steps are renumbered, and liveness, compute and the §3 layout follow the
 * new schedule.  With no remat flip it is score_lowering's footprint
 * exactly. */
#ifndef RS_REMAT_H
#define RS_REMAT_H

#include <stdint.h>

#include "lower/lower.h"
#include "lower/score.h"
#include "lower/virtualizer.h"
#include "util/error.h"

/* Why a remat flip asked for was not applied. */
typedef enum remat_skip {
    REMAT_APPLIED = 0,
    REMAT_NOT_MATERIALIZED, /* resident, or inline under the plan */
    REMAT_NOT_CANDIDATE,    /* @output, @pinned, @into or accumulated */
    REMAT_NO_READ,          /* no effective read */
    REMAT_FIRST_GAP         /* the largest gap is the one before u1 */
} remat_skip_t;

/* One applied remat flip: node N's copy, defined at the recompute step. */
typedef struct remat_copy {
    int32_t node;
    int32_t step;        /* the recompute step, new numbering (= the copy's start) */
    int32_t end;         /* the copy's last read, uk */
    int64_t offset;      /* in the §3 layout */
} remat_copy_t;

typedef struct remat_detail {
    placement_t place;
    int32_t n_steps;     /* S', the steps after renumbering */
    int32_t *start, *end;/* per node, new numbering; -1/-1 for inline nodes */
    int64_t *offset;     /* per node; -1 for inline nodes */
    int64_t *aligned;    /* per node; 0 for inline nodes */
    uint8_t *skip;       /* per node: remat_skip_t for the nodes asked for, else 0 */
    remat_copy_t *copies;/* ascending node index */
    int32_t n_copies;
    int32_t *step_orig;  /* per new step: its number before (an original step), or -1 for a recompute step */
    int32_t *step_node;  /* per new step: the node it defines (a recompute step: the node it recomputes) */
} remat_detail_t;

/* Scores l under inline preferences prefs and remat flips remat (one byte
 * per node each, either may be NULL) with cfg: the footprint of DESIGN §14
 * (compute adds each applied node's cost once per recompute step).  A remat
 * flip that cannot apply is left out, its reason in detail->skip.  detail may
 * be NULL; when given it is initialized here (free it with
 * remat_detail_free, also after an error).  Errors are score_lowering's. */
int remat_score(const lowering_t *l, const uint8_t *prefs, const uint8_t *remat, const score_config_t *cfg,
                footprint_t *out, remat_detail_t *detail, rs_error_t *err);

/* remat_score without the layout (most of a scoring's time): the same
 * spans, copies, live_peak, peak_step, buffers and compute; out->total and
 * every offset -1. */
int remat_score_spans(const lowering_t *l, const uint8_t *prefs, const uint8_t *remat, const score_config_t *cfg,
                      footprint_t *out, remat_detail_t *detail, rs_error_t *err);

void remat_detail_free(remat_detail_t *d);

/* "applied", "not materialized", "not a candidate", "no read", "first gap". */
const char *remat_skip_name(remat_skip_t s);

#endif
