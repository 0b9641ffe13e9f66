/* layout: a strategy's name to the layout it makes.  Dispatches to the
 * three strategies (the greedy of bestfit.h, timeline.h, tight.h), so each
 * of them depends on arena.h only, never on each other through here. */
#ifndef RS_LAYOUT_H
#define RS_LAYOUT_H

#include <stdint.h>

#include "layout/arena.h"
#include "util/error.h"

typedef enum layout_strategy {
    LAYOUT_GREEDY = 0, /* DESIGN §3, a contract: best-fit by size, span, start, index */
    LAYOUT_TIGHT = 1,  /* a search, never worse than the other two (tight.h), LAYOUT_TIGHT_BUDGET */
    LAYOUT_TIMELINE = 2, /* in time order, best fit into the gaps the dead leave (timeline.h) */
} layout_strategy_t;

/* tight's budget when layout_run runs it (a fit's scorings): a hundredth
 * of the default, so one scoring searches for some 30 ms at most */
#define LAYOUT_TIGHT_BUDGET 20

/* The strategies' names, for messages. */
#define LAYOUT_STRATEGY_NAMES "greedy, timeline or tight"

/* The strategy named s ("greedy", "timeline", "tight"), or -1. */
int layout_strategy_parse(const char *s);
const char *layout_strategy_name(layout_strategy_t s);

/* Lays out n buffers with strategy s: fills offsets[n] (multiples of the
 * alignment) and *height (the high-water mark).  Deterministic: the result
 * depends only on the inputs.  RS_EINPUT when an aligned size or an offset
 * would overflow. */
int layout_run(const arena_buf_t *bufs, int32_t n, int64_t alignment, layout_strategy_t s,
                 int64_t *offsets, int64_t *height, rs_error_t *err);

#endif
