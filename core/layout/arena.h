/* arena: buffers in one arena and what every layout of them must respect.
 * A buffer lives over an inclusive step span; two buffers conflict when
 * their spans overlap, and conflicting buffers must not overlap in
 * [offset, offset + aligned size). */
#ifndef RS_ARENA_H
#define RS_ARENA_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

typedef struct arena_buf {
    int64_t size;   /* bytes, >= 0, before alignment */
    int64_t start;  /* inclusive span */
    int64_t end;
} arena_buf_t;

/* size rounded up to a multiple of alignment (>= 1); -1 on overflow. */
int64_t arena_align(int64_t size, int64_t alignment);

/* out[i]: buffer i's aligned size; RS_EINPUT when one overflows. */
int arena_align_sizes(const arena_buf_t *bufs, int32_t n, int64_t alignment, int64_t *out, rs_error_t *err);

/* The max-live lower bound: the largest sum of aligned sizes live at one
 * step; *peak_step (may be NULL) gets the first step where it is reached
 * (0 when n == 0). */
int64_t arena_max_live(const arena_buf_t *bufs, int32_t n, int64_t alignment, int64_t *peak_step);

/* Checks a layout: every offset a non-negative multiple of the alignment and
 * no two conflicting buffers overlapping.  Returns true when valid, else
 * false with *a, *b set to an offending pair (b == -1 for a bad offset). */
bool arena_check(const arena_buf_t *bufs, int32_t n, int64_t alignment, const int64_t *offsets,
                 int32_t *a, int32_t *b);

#endif
