/* canon: a depth-first search over canonical layouts (each buffer at the
 * lowest floor of its leftmost lowest section), pruned where a section's
 * floor plus what is still to go over it passes the capacity.  Finds
 * perfect packings the greedy cannot. */
#ifndef RS_CANON_H
#define RS_CANON_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"

#define CANON_VARIANTS 4

/* Tries to lay bufs out within cap (aligned sizes given) in at most budget
 * search nodes; true with offsets filled.  variant (0..CANON_VARIANTS-1)
 * picks the order candidates are tried in: by size, span, area, end.
 * *nodes accumulates the nodes used.  stop, when not NULL, is asked now
 * and then whether to give up. */
bool canon_fit(const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t cap, int variant, int64_t budget,
               int (*stop)(void *), void *stop_ud, int64_t *offsets, int64_t *nodes);

#endif
