/* cand: flip candidates and the exact relief-per-cost order (DESIGN §4). */
#ifndef RS_CAND_H
#define RS_CAND_H

#include <stdint.h>

#include "lower/live.h"
#include "lower/lower.h"
#include "lower/virtualizer.h"
#include "util/error.h"

typedef enum flip_dir { FLIP_INLINE = 0, FLIP_MATERIALIZE = 1 } flip_dir_t;

typedef struct flip_candidate {
    int32_t node;
    uint8_t dir;         /* flip_dir_t */
    int64_t cost_bound;  /* FLIP_INLINE: cost(N) * max(1, R(N)), saturating; else 0 */
} flip_candidate_t;

/* Lists, in definition order, every non-resident, non-@output, non-@pinned
 * node of l with its direction under placement p (liveness lv of p gives
 * R(N)).  *out is a new array (free()); *n its length. */
int flip_candidates(const lowering_t *l, const placement_t *p, const liveness_t *lv,
                    flip_candidate_t **out, int32_t *n, rs_error_t *err);

/* Sorts c[0..n) cheapest first (cost bound ascending, then definition
 * order) and returns how many of them the cap keeps (the first ones; all
 * when cap < 0): fit's candidate cut (DESIGN §5 step 1). */
int32_t flip_candidates_cut(flip_candidate_t *c, int32_t n, int32_t cap);

/* Compares ra/ca with rb/cb exactly (ca, cb > 0; ra, rb any int64): <0, 0,
 * >0.  A continued-fraction descent with floor division: no
 * cross-multiplication, no floating point, no overflow. */
int compare_relief_ratio(int64_t ra, int64_t ca, int64_t rb, int64_t cb);

const char *flip_dir_name(flip_dir_t d);

#endif
