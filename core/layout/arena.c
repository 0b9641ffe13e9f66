#include "layout/arena.h"

#include <stdlib.h>

#include "util/checked.h"
int64_t arena_align(int64_t size, int64_t alignment)
{
    if (alignment <= 1)
        return size;
    int64_t r = size % alignment;
    if (r == 0)
        return size;
    int64_t out;
    return checked_add(size, alignment - r, &out) ? out : -1;
}

int arena_align_sizes(const arena_buf_t *bufs, int32_t n, int64_t alignment, int64_t *out, rs_error_t *err)
{
    for (int32_t i = 0; i < n; i++)
        if ((out[i] = arena_align(bufs[i].size, alignment)) < 0)
            return error_set(err, RS_EINPUT, NULL, 0, 0, "buffer %d: size overflows when aligned", (int)i);
    return RS_OK;
}

/* ---- max-live ---------------------------------------------------------- */

typedef struct event {
    int64_t t;
    int64_t delta;
} event_t;

static int cmp_event(const void *pa, const void *pb)
{
    const event_t *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    /* frees (at end+1) before allocations at the same time: spans are inclusive */
    return (a->delta > b->delta) - (a->delta < b->delta);
}

int64_t arena_max_live(const arena_buf_t *bufs, int32_t n, int64_t alignment, int64_t *peak_step)
{
    if (peak_step)
        *peak_step = 0;
    if (n <= 0)
        return 0;
    event_t *ev = malloc((size_t)n * 2 * sizeof *ev);
    if (!ev)
        return -1;
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t sz = arena_align(bufs[i].size, alignment);
        if (sz <= 0)
            continue;
        ev[m++] = (event_t){ bufs[i].start, sz };
        ev[m++] = (event_t){ bufs[i].end == INT64_MAX ? INT64_MAX : bufs[i].end + 1, -sz };
    }
    qsort(ev, (size_t)m, sizeof *ev, cmp_event);
    int64_t cur = 0, best = 0, at = 0;
    for (int32_t i = 0; i < m; i++) {
        cur = sat_add(cur, ev[i].delta);
        /* only a time's last event leaves a meaningful total */
        if ((i + 1 == m || ev[i + 1].t != ev[i].t) && cur > best) {
            best = cur;
            at = ev[i].t;
        }
    }
    free(ev);
    if (peak_step)
        *peak_step = at;
    return best;
}

/* ---- checking ---------------------------------------------------------- */

typedef struct chk {
    int64_t start, end, lo, hi;
    int32_t id;
} chk_t;

static int cmp_chk(const void *pa, const void *pb)
{
    const chk_t *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

bool arena_check(const arena_buf_t *bufs, int32_t n, int64_t alignment, const int64_t *offsets,
                 int32_t *a, int32_t *b)
{
    *a = *b = -1;
    chk_t *c = malloc((n ? (size_t)n : 1) * sizeof *c);
    if (!c)
        return false;
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        if (offsets[i] < 0 || (alignment > 1 && offsets[i] % alignment != 0)) {
            *a = i;
            free(c);
            return false;
        }
        int64_t sz = arena_align(bufs[i].size, alignment);
        if (sz > 0)
            c[m++] = (chk_t){ bufs[i].start, bufs[i].end, offsets[i], offsets[i] + sz, i };
    }
    qsort(c, (size_t)m, sizeof *c, cmp_chk);
    /* sweep by start; compare each with the buffers still live (quadratic in
     * the live count only) */
    bool ok = true;
    for (int32_t i = 0; i < m && ok; i++)
        for (int32_t j = i + 1; j < m && c[j].start <= c[i].end; j++)
            if (c[j].lo < c[i].hi && c[i].lo < c[j].hi) {
                *a = c[i].id;
                *b = c[j].id;
                ok = false;
                break;
            }
    free(c);
    return ok;
}
