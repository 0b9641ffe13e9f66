/* floor: the bytes no plan can go below, and whose bytes are live at a step
 * (DESIGN §13).  A flip only removes a candidate's buffer and lengthens
 * others' spans, so the buffers that are no flip candidate (resident,
 * @output, @pinned, @into) stay with at least their baseline spans: the
 * largest total of them live at one step bounds every plan's footprint. */
#ifndef RS_FLOOR_H
#define RS_FLOOR_H

#include <stdint.h>

#include "lower/lower.h"
#include "lower/score.h"
#include "util/error.h"

/* role[] of this module is indexed by lower_role_t. */
#define FLOOR_ROLES 4

typedef struct floor {
    int64_t bytes;              /* the largest aligned total live at one step */
    int64_t role[FLOOR_ROLES];  /* those bytes at step by role; candidate: the held ones (the cap's dropped) */
    int32_t step;               /* the first step where it is reached */
    int32_t reserved;           /* 0 */
} floor_t;

/* The aligned bytes of the buffers of scoring d (of l under cfg) live at
 * step, by role (lower_role): role[] sums to the live total at step, and at
 * the footprint's peak_step to its live_peak.  Spans are as the scoring
 * laid them out (the whole routine with buffer_aliasing off). */
void floor_split_at(const lowering_t *l, const score_detail_t *d, const score_config_t *cfg, int32_t step,
                    int64_t role[FLOOR_ROLES]);

/* The floor of scoring d: over its buffers that are no flip candidate,
 * and the nodes with held[i] != 0 (held may be NULL; a held node that is
 * inline has no buffer and adds nothing), the largest aligned total live at
 * one step, the first such step, and the roles there.  RS_ENOMEM only. */
int floor_compute(const lowering_t *l, const score_detail_t *d, const score_config_t *cfg, const uint8_t *held,
                  floor_t *out, rs_error_t *err);

/* What a fit of l from the context preferences prefs faces (DESIGN §13). */
typedef struct floor_fit {
    footprint_t baseline;
    floor_t floor;       /* the buffers no flip removes */
    floor_t cap;         /* and the Inline candidates the cap drops; = floor when it drops none */
    int32_t candidates;  /* Inline candidates of the baseline */
    int32_t dropped;     /* of them, over the cap */
} floor_fit_t;

/* Scores l with prefs under cfg, lists the baseline's Inline candidates,
 * keeps the cap's cheapest as fit does (flip_candidates_cut; cap < 0 keeps
 * all) and computes both floors.  Errors are the scoring's. */
int floor_of_fit(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, int32_t cap, floor_fit_t *out,
                 rs_error_t *err);

/* "resident", "output", "pinned", "candidate": the keys of DESIGN §13's
 * peak_by_role. */
const char *floor_role_name(lower_role_t r);

#endif
