/* frontier_seed: policy-like starting points for the frontier planner
 * (DESIGN §14, issue 45), built the way a `jax.checkpoint` policy is: every
 * eligible node cheap to recompute per byte it holds is remat-flipped, the
 * dear ones (matrix products, cuBLAS calls costed as dots) kept, for a few
 * thresholds of FLOPs per byte.  Internal to core/plan: frontier.c rids
 * each seed of its harmful flips, brings it to the budget (its greedy),
 * prunes it (its local search) and keeps the best by §14's objective. */
#ifndef RS_FRONTIER_SEED_H
#define RS_FRONTIER_SEED_H

#include <stdint.h>

#include "lower/lower.h"

/* The thresholds tried, in FLOPs per byte, lowest first: elementwise ops
 * and their fusions cost about one FLOP per element (under 1 per byte in
 * bf16/f32), reductions and softmax-like fusions a few to tens, attention
 * products with a small head dimension about a hundred, the large matrix
 * products thousands. */
enum { FRONTIER_SEED_COUNT = 5 };
extern const int64_t frontier_seed_fpb[FRONTIER_SEED_COUNT];

/* Writes into out (room for n_elig), in elig's order, the nodes of
 * elig[0..n_elig) that are not skip[node] (skip may be NULL) and whose
 * cost is at most max_fpb FLOPs per byte of their buffer (cost <= max_fpb
 * x bytes, in integers; a node of 0 bytes is left out); returns how many.
 * A higher threshold's list holds a lower one's. */
int32_t frontier_seed_threshold(const lowering_t *l, const int32_t *elig, int32_t n_elig, const uint8_t *skip,
                                int64_t max_fpb, int32_t *out);

#endif
