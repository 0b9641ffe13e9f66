/* tight: a search for tighter layouts than the greedy's: iterated greedy
 * over placement orders, moving the buffers that set the height earlier,
 * from the greedy's own order (so never worse than it).  Deterministic for a
 * given iteration budget; a stop callback (a time limit) may end it sooner. */
#ifndef RS_TIGHT_H
#define RS_TIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"

typedef struct tight_options {
    int64_t max_iterations;       /* placements to try (the sweep gets 50 nodes each); <= 0: 2,000 */
    uint64_t seed;                /* the search's pseudo-random moves */
    int (*stop)(void *ud);        /* nonzero ends the search (checked every few placements) */
    void *stop_ud;
} tight_options_t;

typedef struct tight_stats {
    int64_t iterations;           /* placements made */
    int64_t greedy_height;        /* where it started */
    int64_t lower_bound;          /* max-live */
    bool optimal;                 /* reached the lower bound: nothing can be tighter */
} tight_stats_t;

/* Lays bufs out as tightly as the search finds; offsets and *height as
 * arena_layout's. */
int tight_layout(const arena_buf_t *bufs, int32_t n, int64_t alignment, const tight_options_t *o, int64_t *offsets,
                 int64_t *height, tight_stats_t *stats, rs_error_t *err);

#endif
