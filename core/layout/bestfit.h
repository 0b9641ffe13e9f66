/* placer: best-fit placement of buffers in a given order — the engine of
 * the greedy layout, exposed so searches over orders (tight) can reuse its
 * prepared structures across thousands of placements. */
#ifndef RS_PLACER_H
#define RS_PLACER_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"

typedef struct placer placer_t;

/* Prepares to place bufs (aligned sizes, the span index). */
int placer_new(const arena_buf_t *bufs, int32_t n, int64_t alignment, placer_t **out, rs_error_t *err);
void placer_free(placer_t *p);

/* Places every buffer in order (a permutation of 0..n-1): each at the
 * smallest gap among the conflicting buffers placed before it that fits
 * (lowest offset on a tie), else on top.  Fills offsets and *height. */
int placer_run(placer_t *p, const int32_t *order, int64_t *offsets, int64_t *height, rs_error_t *err);

/* placer_run with some buffers held where they are: those with pinned[i]
 * keep offsets[i] (taken as given, not checked against each other) and
 * the rest go around them in order. */
int placer_run_pinned(placer_t *p, const int32_t *order, const bool *pinned, int64_t *offsets, int64_t *height,
                      rs_error_t *err);

/* DESIGN §3's order: aligned size, span length descending, then start,
 * then index ascending. */
void placer_greedy_order(const placer_t *p, int32_t *order);

/* Aligned sizes, per buffer. */
const int64_t *placer_aligned(const placer_t *p);

#endif
