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

/* An engine for a series of layouts of changing sets over ids 0..n-1 (a
 * relayout work's layouts from scratch): it keeps its tree and the tree's
 * memory from layout to layout, and only the buffers that changed are set
 * again.  Its leaves are coords[0..m) (ascending, distinct): every start a
 * buffer may take, so that a change never rebuilds the tree.  Every id
 * starts with no bytes. */
int bestfit_engine_new(int32_t n, const int64_t *coords, int32_t m, bestfit_t **out, rs_error_t *err);

/* Sets id's aligned size (0: placed nowhere) and inclusive span.  False
 * (nothing set) when it has bytes and start is not among the leaves: the
 * engine must be made again with it. */
bool bestfit_engine_set(bestfit_t *p, int32_t id, int64_t aligned, int64_t start, int64_t end);

/* Occupies order[0..n_pinned) at offsets[id] (taken as given), then places
 * order[n_pinned..n) in turn as bestfit_run does; every id of order has
 * bytes.  Fills offsets[id] of the placed ones and *height. */
int bestfit_engine_place(bestfit_t *p, const int32_t *order, int32_t n, int32_t n_pinned, int64_t *offsets,
                         int64_t *height, rs_error_t *err);

/* Aligned sizes, per buffer. */
const int64_t *bestfit_aligned(const bestfit_t *p);

#endif
