/* canon: a complete search over canonical layouts after MiniMalloc: buffers
 * go at the lowest offset the placed ones leave them, in non-decreasing
 * offset order, pruned by section capacity, gap dominance and independent
 * pieces of time.  Finds (or rules out) packings the greedy cannot. */
#ifndef RS_CANON_H
#define RS_CANON_H

#include <stdbool.h>
#include <stdint.h>

#include "layout/arena.h"

#define CANON_VARIANTS 3

typedef enum canon_result {
    CANON_FOUND,       /* offsets filled, every buffer within cap */
    CANON_INFEASIBLE,  /* proven: no layout fits within cap */
    CANON_GAVE_UP      /* the step budget ran out, or stop said so */
} canon_result_t;

typedef struct canon canon_t;

/* A search over bufs (aligned sizes given; both must outlive it), set up
 * once for any number of capacities; NULL when out of memory. */
canon_t *canon_new(const arena_buf_t *bufs, const int64_t *aligned, int32_t n);
void canon_free(canon_t *c);

/* Tries to lay the buffers out within cap in at most budget steps, taking
 * turns between CANON_VARIANTS buffer preorders with a step limit that
 * doubles.  Deterministic for a given budget (unless stop ends it): each
 * run starts from the same state.  budget and *work (accumulated) count
 * steps of the search, a deterministic measure of its time.  stop, when
 * not NULL, is asked now and then whether to give up. */
canon_result_t canon_run(canon_t *c, int64_t cap, int64_t budget, int (*stop)(void *), void *stop_ud,
                         int64_t *offsets, int64_t *work);

/* canon_new, canon_run and canon_free in one (CANON_GAVE_UP when out of
 * memory). */
canon_result_t canon_fit(const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t cap, int64_t budget,
                         int (*stop)(void *), void *stop_ud, int64_t *offsets, int64_t *work);

#endif
