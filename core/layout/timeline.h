/* timeline: a layout in time order, as an allocator would make it if it knew
 * when each buffer dies: buffers are taken by start (the longest-lived
 * first among those starting together), each into the smallest free gap
 * that holds it, and their space is freed after their last step.  Fast
 * (no conflict queries) and, on routines whose buffers die in about the
 * order they were made, tighter than the greedy; on others much looser. */
#ifndef RS_TIMELINE_H
#define RS_TIMELINE_H

#include <stdint.h>

#include "layout/arena.h"
#include "util/error.h"

/* Lays bufs out in time order; offsets and *height as layout_run's
 * (aligned sizes given, one per buffer). */
int timeline_layout(const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t *offsets, int64_t *height,
                 rs_error_t *err);

#endif
