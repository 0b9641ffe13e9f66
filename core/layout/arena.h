/* arena: laying buffers out in one arena.  A buffer lives over an inclusive
 * step span; two buffers conflict when their spans overlap, and conflicting
 * buffers must not overlap in [offset, offset + aligned size). */
#ifndef RS_ARENA_H
#define RS_ARENA_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

typedef struct arena_buf {
    int64_t size;   /* bytes, >= 0, before alignment */
    int64_t start;  /* inclusive span */
    int64_t end;
} arena_buf_t;

typedef enum arena_strategy {
    ARENA_GREEDY = 0, /* DESIGN §3, a contract: best-fit by size, span, start, index */
    ARENA_TIGHT = 1,  /* a search, never worse than the other two (core/tight.h), ARENA_TIGHT_BUDGET */
    ARENA_TIMELINE = 2, /* in time order, best fit into the gaps the dead leave (core/timeline.h) */
} arena_strategy_t;

/* tight's budget when arena_layout runs it (a fit's scorings): a hundredth
 * of the default, so one scoring searches for some 30 ms at most */
#define ARENA_TIGHT_BUDGET 20

/* The strategies' names, for messages. */
#define ARENA_STRATEGY_NAMES "greedy, timeline or tight"

/* The strategy named s ("greedy", "timeline", "tight"), or -1. */
int arena_strategy_parse(const char *s);
const char *arena_strategy_name(arena_strategy_t s);

/* size rounded up to a multiple of alignment (>= 1); -1 on overflow. */
int64_t arena_align(int64_t size, int64_t alignment);

/* Lays out n buffers with strategy s: fills offsets[n] (multiples of the
 * alignment) and *height (the high-water mark).  Deterministic: the result
 * depends only on the inputs.  RS_EINPUT when an aligned size or an offset
 * would overflow. */
int arena_layout(const arena_buf_t *bufs, int32_t n, int64_t alignment, arena_strategy_t s,
                 int64_t *offsets, int64_t *height, rs_error_t *err);

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
