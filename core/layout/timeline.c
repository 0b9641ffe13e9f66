#include "layout/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/vec.h"

typedef struct gap {
    int64_t lo, hi; /* [lo, hi); the last one is open above (hi == INT64_MAX) */
} gap_t;

typedef struct birth {
    int64_t start, end, size;
    int32_t id;
} birth_t;

typedef struct death {
    int64_t end;
    int32_t id;
} death_t;

static int cmp_birth(const void *pa, const void *pb)
{
    const birth_t *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1; /* starting together: the longest-lived first */
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int cmp_death(const void *pa, const void *pb)
{
    const death_t *a = pa, *b = pb;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

/* The free space: sorted disjoint gaps, the last open above. */
typedef struct free_list {
    gap_t *v;
    int32_t n, cap;
} free_list_t;

/* The smallest gap that holds size (the lowest on a tie); the open one when
 * no other does. */
static int32_t best_gap(const free_list_t *f, int64_t size)
{
    int32_t best = f->n - 1;
    int64_t best_len = INT64_MAX;
    for (int32_t i = 0; i + 1 < f->n; i++) {
        int64_t len = f->v[i].hi - f->v[i].lo;
        if (len >= size && len < best_len) {
            best_len = len;
            best = i;
            if (len == size)
                break;
        }
    }
    return best;
}

static void take(free_list_t *f, int32_t i, int64_t size)
{
    if (f->v[i].hi != INT64_MAX && f->v[i].hi - f->v[i].lo == size) {
        memmove(f->v + i, f->v + i + 1, (size_t)(f->n - i - 1) * sizeof *f->v);
        f->n--;
    } else
        f->v[i].lo += size;
}

/* Frees [lo, hi), merging with the gaps it touches; false when out of memory. */
static bool give_back(free_list_t *f, int64_t lo, int64_t hi)
{
    int32_t a = 0, b = f->n;
    while (a < b) { /* the first gap above it */
        int32_t m = a + (b - a) / 2;
        if (f->v[m].lo < hi)
            a = m + 1;
        else
            b = m;
    }
    int32_t i = a; /* f->v[i].lo >= hi: the open gap is always above */
    bool joins_below = i > 0 && f->v[i - 1].hi == lo, joins_above = f->v[i].lo == hi;
    if (joins_below && joins_above) {
        f->v[i - 1].hi = f->v[i].hi;
        memmove(f->v + i, f->v + i + 1, (size_t)(f->n - i - 1) * sizeof *f->v);
        f->n--;
    } else if (joins_below)
        f->v[i - 1].hi = hi;
    else if (joins_above)
        f->v[i].lo = lo;
    else {
        if (vec_reserve((void **)&f->v, &f->cap, (int64_t)f->n + 1, sizeof *f->v))
            return false;
        memmove(f->v + i + 1, f->v + i, (size_t)(f->n - i) * sizeof *f->v);
        f->v[i] = (gap_t){ lo, hi };
        f->n++;
    }
    return true;
}

int timeline_layout(const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t *offsets, int64_t *height,
                 rs_error_t *err)
{
    size_t nn = n ? (size_t)n : 1;
    birth_t *births = malloc(nn * sizeof *births);
    death_t *deaths = malloc(nn * sizeof *deaths);
    free_list_t f = { 0 };
    int rc = RS_OK;
    *height = 0;
    if (!births || !deaths || vec_reserve((void **)&f.v, &f.cap, 1, sizeof *f.v)) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    f.v[f.n++] = (gap_t){ 0, INT64_MAX };
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        offsets[i] = 0; /* where a buffer of no size stays */
        if (aligned[i] > 0) {
            deaths[m] = (death_t){ bufs[i].end, i };
            births[m++] = (birth_t){ bufs[i].start, bufs[i].end, aligned[i], i };
        }
    }
    qsort(births, (size_t)m, sizeof *births, cmp_birth);
    qsort(deaths, (size_t)m, sizeof *deaths, cmp_death);
    for (int32_t k = 0, gone = 0; k < m; k++) {
        const birth_t *b = &births[k];
        /* dead before this step, so born before it too: already placed */
        for (; gone < m && deaths[gone].end < b->start; gone++) {
            int32_t id = deaths[gone].id;
            if (!give_back(&f, offsets[id], offsets[id] + aligned[id])) {
                rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
                goto done;
            }
        }
        int32_t g = best_gap(&f, b->size);
        int64_t end;
        if (!checked_add(f.v[g].lo, b->size, &end) || end == INT64_MAX) {
            rc = error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
            goto done;
        }
        offsets[b->id] = f.v[g].lo;
        take(&f, g, b->size);
        if (end > *height)
            *height = end;
    }
done:
    free(births);
    free(deaths);
    free(f.v);
    return rc;
}
