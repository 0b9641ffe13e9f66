/* bestfit: best-fit placement of buffers in a given order — the engine of
 * the greedy layout, exposed so searches over orders (tight) can reuse its
 * prepared structures across thousands of placements. */
#ifndef RS_BESTFIT_H
#define RS_BESTFIT_H

#include <stdbool.h>
#include <stdint.h>

#include "layout/arena.h"
#include "util/error.h"

typedef struct bestfit bestfit_t;

/* Prepares to place bufs (aligned sizes, the span index). */
int bestfit_new(const arena_buf_t *bufs, int32_t n, int64_t alignment, bestfit_t **out, rs_error_t *err);
void bestfit_free(bestfit_t *p);

/* Places every buffer in order (a permutation of 0..n-1): each at the
 * smallest gap among the conflicting buffers placed before it that fits
 * (lowest offset on a tie), else on top.  Fills offsets and *height. */
int bestfit_run(bestfit_t *p, const int32_t *order, int64_t *offsets, int64_t *height, rs_error_t *err);

/* bestfit_run with some buffers held where they are: those with pinned[i]
 * keep offsets[i] (taken as given, not checked against each other) and
 * the rest go around them in order. */
int bestfit_run_pinned(bestfit_t *p, const int32_t *order, const bool *pinned, int64_t *offsets, int64_t *height,
                      rs_error_t *err);

/* DESIGN §3's order: aligned size, span length descending, then start,
 * then index ascending. */
void bestfit_greedy_order(const bestfit_t *p, int32_t *order);

/* Aligned sizes, per buffer. */
const int64_t *bestfit_aligned(const bestfit_t *p);

#endif
