/* tight: a search for tighter layouts than the greedy's, never worse than
 * it or the timeline layout: above 2,048 buffers, windows of time where
 * the height is made re-packed by the canonical search (canon.h) with the
 * rest laid around them; iterated greedy over placement orders (the
 * buffers that set the height move earlier); then, up to 2,048 buffers,
 * the canonical search over all of them probing capacities from max-live
 * up, which can prove a height optimal.  Deterministic for a given budget; a stop callback (a time
 * limit) may end it sooner. */
#ifndef RS_TIGHT_H
#define RS_TIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "layout/arena.h"
#include "util/error.h"

typedef struct tight_options {
    int64_t max_iterations;       /* the budget: a tenth of it in greedy runs (scaled by 2,048 / buffers
                                     above 2,048 buffers), the canonical search the rest in steps;
                                     <= 0: 2,000 */
    uint64_t seed;                /* the search's pseudo-random moves */
    int (*stop)(void *ud);        /* nonzero ends the search (checked every few placements) */
    void *stop_ud;
} tight_options_t;

typedef struct tight_stats {
    int64_t iterations;           /* placements made */
    int64_t greedy_height;        /* where it started */
    int64_t timeline_height;      /* the other start (timeline.h) */
    int64_t lower_bound;          /* max-live */
    int64_t probes;               /* capacities the canonical search tried */
    int64_t windows;              /* windows of time it re-packed (above 2,048 buffers) */
    int64_t search_work;          /* its steps */
    int64_t proven_bound;         /* no layout is lower than this (0: none proven beyond max-live) */
    bool optimal;                 /* reached max-live or proven_bound: nothing can be tighter */
} tight_stats_t;

/* Lays bufs out as tightly as the search finds; offsets and *height as
 * layout_run's. */
int tight_layout(const arena_buf_t *bufs, int32_t n, int64_t alignment, const tight_options_t *o, int64_t *offsets,
                 int64_t *height, tight_stats_t *stats, rs_error_t *err);

#endif
