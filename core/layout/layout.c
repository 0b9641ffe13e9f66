#include "layout/layout.h"

#include <stdlib.h>
#include <string.h>

#include "layout/bestfit.h"
#include "layout/tight.h"
#include "layout/timeline.h"
int layout_strategy_parse(const char *s)
{
    if (strcmp(s, "greedy") == 0)
        return LAYOUT_GREEDY;
    if (strcmp(s, "tight") == 0)
        return LAYOUT_TIGHT;
    if (strcmp(s, "timeline") == 0)
        return LAYOUT_TIMELINE;
    return -1;
}

const char *layout_strategy_name(layout_strategy_t s)
{
    return s == LAYOUT_TIGHT ? "tight" : s == LAYOUT_TIMELINE ? "timeline" : "greedy";
}

static int layout_greedy(const arena_buf_t *bufs, int32_t n, int64_t alignment, int64_t *offsets,
                         int64_t *height, rs_error_t *err)
{
    bestfit_t *p;
    int rc = bestfit_new(bufs, n, alignment, &p, err);
    if (rc)
        return rc;
    int32_t *order = malloc((n ? (size_t)n : 1) * sizeof *order);
    if (!order)
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    else {
        bestfit_greedy_order(p, order);
        rc = bestfit_run(p, order, offsets, height, err);
    }
    free(order);
    bestfit_free(p);
    return rc;
}

static int layout_timeline(const arena_buf_t *bufs, int32_t n, int64_t alignment, int64_t *offsets, int64_t *height,
                        rs_error_t *err)
{
    int64_t *aligned = malloc((n > 0 ? (size_t)n : 1) * sizeof *aligned);
    if (!aligned)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = arena_align_sizes(bufs, n, alignment, aligned, err);
    if (!rc)
        rc = timeline_layout(bufs, aligned, n, offsets, height, err);
    free(aligned);
    return rc;
}

int layout_run(const arena_buf_t *bufs, int32_t n, int64_t alignment, layout_strategy_t s,
                 int64_t *offsets, int64_t *height, rs_error_t *err)
{
    *height = 0;
    if (alignment < 1)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "alignment must be at least 1");
    for (int32_t i = 0; i < n; i++)
        if (bufs[i].size < 0 || bufs[i].end < bufs[i].start)
            return error_set(err, RS_EINPUT, NULL, 0, 0, "buffer %d: negative size or empty span", (int)i);
    switch (s) {
    case LAYOUT_GREEDY:
        return layout_greedy(bufs, n, alignment, offsets, height, err);
    case LAYOUT_TIGHT: {
        /* a scoring's share: a fit runs thousands of layouts */
        tight_options_t o = { .max_iterations = LAYOUT_TIGHT_BUDGET };
        tight_stats_t st;
        return tight_layout(bufs, n, alignment, &o, offsets, height, &st, err);
    }
    case LAYOUT_TIMELINE:
        return layout_timeline(bufs, n, alignment, offsets, height, err);
    }
    return error_set(err, RS_EINVAL, NULL, 0, 0, "unknown layout strategy");
}
