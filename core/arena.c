#include "arena.h"

#include <stdlib.h>
#include <string.h>

#include "checked.h"

int arena_strategy_parse(const char *s)
{
    if (strcmp(s, "greedy") == 0)
        return ARENA_GREEDY;
    return -1;
}

const char *arena_strategy_name(arena_strategy_t s)
{
    (void)s;
    return "greedy";
}

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

/* ---- greedy ------------------------------------------------------------ */

/* A segment tree over the distinct span endpoints.  Each placed buffer is
 * stored in its canonical nodes (`own`) and in every node visited on the
 * way to them (`sub`), so a query reports exactly the placed buffers whose
 * spans meet the query span: `own` of the nodes it cuts across, `sub` of the
 * nodes it covers.  Work is proportional to the conflicts found, not to n. */
typedef struct ivec {
    int32_t *v;
    int32_t n, cap;
} ivec_t;

typedef struct seg {
    int32_t leaves;
    ivec_t *own, *sub;
} seg_t;

typedef struct span_ref {
    int64_t lo, hi; /* [lo, hi) in offset */
} span_ref_t;

typedef struct greedy {
    const arena_buf_t *bufs;
    int64_t *aligned;
    int32_t *lo, *hi;   /* leaf range of each buffer */
    int64_t *offsets;
    int32_t *stamp;
    int32_t query;
    seg_t seg;
    span_ref_t *found;
    int32_t n_found, cap_found;
    bool oom;
} greedy_t;

static void ivec_push(ivec_t *v, int32_t x, bool *oom)
{
    if (v->n == v->cap) {
        int32_t ncap = v->cap ? v->cap * 2 : 4;
        int32_t *nv = realloc(v->v, (size_t)ncap * sizeof *nv);
        if (!nv) {
            *oom = true;
            return;
        }
        v->v = nv;
        v->cap = ncap;
    }
    v->v[v->n++] = x;
}

static void seg_insert(greedy_t *g, int32_t node, int32_t nl, int32_t nr, int32_t l, int32_t r, int32_t id)
{
    if (r < nl || nr < l)
        return;
    ivec_push(&g->seg.sub[node], id, &g->oom);
    if (l <= nl && nr <= r) {
        ivec_push(&g->seg.own[node], id, &g->oom);
        return;
    }
    int32_t mid = nl + (nr - nl) / 2;
    seg_insert(g, 2 * node, nl, mid, l, r, id);
    seg_insert(g, 2 * node + 1, mid + 1, nr, l, r, id);
}

static void report(greedy_t *g, const ivec_t *v)
{
    for (int32_t k = 0; k < v->n; k++) {
        int32_t id = v->v[k];
        if (g->stamp[id] == g->query)
            continue;
        g->stamp[id] = g->query;
        if (g->n_found == g->cap_found) {
            int32_t ncap = g->cap_found ? g->cap_found * 2 : 64;
            span_ref_t *nf = realloc(g->found, (size_t)ncap * sizeof *nf);
            if (!nf) {
                g->oom = true;
                return;
            }
            g->found = nf;
            g->cap_found = ncap;
        }
        g->found[g->n_found++] = (span_ref_t){ g->offsets[id], g->offsets[id] + g->aligned[id] };
    }
}

static void seg_query(greedy_t *g, int32_t node, int32_t nl, int32_t nr, int32_t l, int32_t r)
{
    if (r < nl || nr < l || g->seg.sub[node].n == 0)
        return;
    if (l <= nl && nr <= r) {
        report(g, &g->seg.sub[node]);
        return;
    }
    report(g, &g->seg.own[node]);
    int32_t mid = nl + (nr - nl) / 2;
    seg_query(g, 2 * node, nl, mid, l, r);
    seg_query(g, 2 * node + 1, mid + 1, nr, l, r);
}

static int cmp_span_ref(const void *pa, const void *pb)
{
    const span_ref_t *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Best fit among the gaps between the found offset ranges: the smallest gap
 * that fits (lowest offset on a tie), else the top of them all. */
static int64_t best_fit(span_ref_t *f, int32_t n, int64_t size)
{
    qsort(f, (size_t)n, sizeof *f, cmp_span_ref);
    int64_t cur = 0, best_off = -1, best_gap = INT64_MAX;
    for (int32_t k = 0; k < n; k++) {
        if (f[k].lo > cur) {
            int64_t gap = f[k].lo - cur;
            if (gap >= size && gap < best_gap) {
                best_gap = gap;
                best_off = cur;
            }
        }
        if (f[k].hi > cur)
            cur = f[k].hi;
    }
    return best_off >= 0 ? best_off : cur;
}

typedef struct order_key {
    int64_t aligned, span, start;
    int32_t index;
} order_key_t;

static int cmp_order(const void *pa, const void *pb)
{
    const order_key_t *a = pa, *b = pb;
    if (a->aligned != b->aligned)
        return a->aligned > b->aligned ? -1 : 1;
    if (a->span != b->span)
        return a->span > b->span ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

static int32_t leaf_of(const int64_t *coords, int32_t m, int64_t t)
{
    int32_t lo = 0, hi = m - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (coords[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void greedy_free(greedy_t *g, int32_t nodes)
{
    if (g->seg.own)
        for (int32_t i = 0; i < nodes; i++) {
            free(g->seg.own[i].v);
            free(g->seg.sub[i].v);
        }
    free(g->seg.own);
    free(g->seg.sub);
    free(g->aligned);
    free(g->lo);
    free(g->hi);
    free(g->stamp);
    free(g->found);
}

static int layout_greedy(const arena_buf_t *bufs, int32_t n, int64_t alignment, int64_t *offsets,
                         int64_t *height, rs_error_t *err)
{
    greedy_t g = { .bufs = bufs, .offsets = offsets };
    size_t nn = n ? (size_t)n : 1;
    int64_t *coords = malloc(nn * 2 * sizeof *coords);
    order_key_t *order = malloc(nn * sizeof *order);
    g.aligned = malloc(nn * sizeof *g.aligned);
    g.lo = malloc(nn * sizeof *g.lo);
    g.hi = malloc(nn * sizeof *g.hi);
    g.stamp = malloc(nn * sizeof *g.stamp);
    int32_t nodes = 0;
    int rc = RS_OK;
    if (!coords || !order || !g.aligned || !g.lo || !g.hi || !g.stamp) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)n);
        goto done;
    }
    for (int32_t i = 0; i < n; i++) {
        g.aligned[i] = arena_align(bufs[i].size, alignment);
        if (g.aligned[i] < 0) {
            rc = error_set(err, RS_EINPUT, NULL, 0, 0, "buffer %d: size overflows when aligned", (int)i);
            goto done;
        }
        coords[2 * i] = bufs[i].start;
        coords[2 * i + 1] = bufs[i].end;
        int64_t span;
        if (!checked_sub(bufs[i].end, bufs[i].start, &span))
            span = INT64_MAX;
        order[i] = (order_key_t){ g.aligned[i], span, bufs[i].start, i };
        g.stamp[i] = -1;
        offsets[i] = 0;
    }
    qsort(coords, (size_t)n * 2, sizeof *coords, cmp_i64);
    int32_t m = 0;
    for (int32_t i = 0; i < 2 * n; i++)
        if (m == 0 || coords[m - 1] != coords[i])
            coords[m++] = coords[i];
    for (int32_t i = 0; i < n; i++) {
        g.lo[i] = leaf_of(coords, m, bufs[i].start);
        g.hi[i] = leaf_of(coords, m, bufs[i].end);
    }
    g.seg.leaves = m > 0 ? m : 1;
    nodes = 4 * g.seg.leaves;
    g.seg.own = calloc((size_t)nodes, sizeof *g.seg.own);
    g.seg.sub = calloc((size_t)nodes, sizeof *g.seg.sub);
    if (!g.seg.own || !g.seg.sub) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)n);
        goto done;
    }
    qsort(order, (size_t)n, sizeof *order, cmp_order);
    int64_t top = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t id = order[k].index;
        if (g.aligned[id] == 0) {
            offsets[id] = 0; /* occupies nothing, conflicts with nothing */
            continue;
        }
        g.query = k;
        g.n_found = 0;
        seg_query(&g, 1, 0, g.seg.leaves - 1, g.lo[id], g.hi[id]);
        int64_t off = best_fit(g.found, g.n_found, g.aligned[id]);
        int64_t end;
        if (!checked_add(off, g.aligned[id], &end)) {
            rc = error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
            goto done;
        }
        offsets[id] = off;
        if (end > top)
            top = end;
        seg_insert(&g, 1, 0, g.seg.leaves - 1, g.lo[id], g.hi[id], id);
        if (g.oom) {
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)n);
            goto done;
        }
    }
    *height = top;
done:
    greedy_free(&g, nodes);
    free(coords);
    free(order);
    return rc;
}

int arena_layout(const arena_buf_t *bufs, int32_t n, int64_t alignment, arena_strategy_t s,
                 int64_t *offsets, int64_t *height, rs_error_t *err)
{
    *height = 0;
    if (alignment < 1)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "alignment must be at least 1");
    for (int32_t i = 0; i < n; i++)
        if (bufs[i].size < 0 || bufs[i].end < bufs[i].start)
            return error_set(err, RS_EINPUT, NULL, 0, 0, "buffer %d: negative size or empty span", (int)i);
    switch (s) {
    case ARENA_GREEDY:
        return layout_greedy(bufs, n, alignment, offsets, height, err);
    }
    return error_set(err, RS_EINVAL, NULL, 0, 0, "unknown layout strategy");
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
