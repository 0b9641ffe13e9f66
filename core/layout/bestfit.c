/* bestfit: the engine of the greedy layout (DESIGN §3). */
#include "layout/bestfit.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/sorted.h"
/* ---- greedy ------------------------------------------------------------ */

/* A segment tree over the distinct span endpoints.  Each node keeps two
 * offset profiles, each the union of the [offset, offset + size) ranges of
 * a set of placed buffers, as sorted disjoint intervals: `own` for the
 * buffers whose span covers the node (its canonical nodes) and `sub` for the
 * buffers whose span meets the node's range.  A query's conflicts are then
 * the union of `own` of the nodes it cuts across and `sub` of the nodes it
 * covers.  A tight packing makes these unions short, so a query costs far
 * less than the number of conflicting buffers. */
typedef struct span_ref {
    int64_t lo, hi; /* [lo, hi) in offset */
} span_ref_t;

typedef struct ilist {
    span_ref_t *v;
    int32_t n, cap;
} ilist_t;

typedef struct greedy {
    int64_t *aligned;
    int32_t *lo, *hi;   /* leaf range of each buffer */
    int32_t leaves;
    ilist_t *own, *sub;
    span_ref_t *u; /* a query's union, built list by list: nu pieces */
    int32_t nu, cap_u;
    bool oom;
} greedy_t;

/* Opens a hole at v[i] of v[0..n) (which has room for n + 1) by
 * shifting v[i..n) up one.  A node's list is short (a few pieces) and
 * gets millions of them, so a loop that carries one piece along costs
 * less than a call to memmove.  (Not so for a query's union: opening its
 * pieces by this loop cost more instructions than memmove.) */
static inline void pieces_open(span_ref_t *v, int32_t i, int32_t n, span_ref_t s)
{
    for (int32_t k = i; k < n; k++) {
        span_ref_t t = v[k];
        v[k] = s;
        s = t;
    }
    v[n] = s;
}

/* Closes v[i..j) of v[0..n) by shifting v[j..n) down to i, a piece at a
 * time (the ranges overlap; each piece is read before it is written). */
static inline void pieces_close(span_ref_t *v, int32_t i, int32_t j, int32_t n)
{
    for (int32_t k = j; k < n; k++) {
        span_ref_t t = v[k];
        v[i++] = t;
    }
}

/* Adds [a, b) to the union l, merging what it overlaps or touches.  Most
 * lists hold a few pieces, and a new piece meets one or two: the first
 * piece it reaches is found by a scan while the list is short, by binary
 * search past that, and the pieces it merges by a scan from there. */
static void ilist_add(ilist_t *l, int64_t a, int64_t b, bool *oom)
{
    int32_t n = l->n, i = 0;
    if (n <= 16) {
        while (i < n && l->v[i].hi < a) /* first interval ending at or after a */
            i++;
    } else {
        int32_t hi = n;
        while (i < hi) {
            int32_t m = i + (hi - i) / 2;
            if (l->v[m].hi < a)
                i = m + 1;
            else
                hi = m;
        }
    }
    int32_t j = i;
    while (j < n && l->v[j].lo <= b) /* first interval starting after b */
        j++;
    if (i == j) {
        if (n == l->cap) {
            int32_t ncap = l->cap ? l->cap * 2 : 2; /* most lists stay short: millions of them */
            span_ref_t *nv = realloc(l->v, (size_t)ncap * sizeof *nv);
            if (!nv) {
                *oom = true;
                return;
            }
            l->v = nv;
            l->cap = ncap;
        }
        pieces_open(l->v, i, n, (span_ref_t){ a, b });
        l->n = n + 1;
        return;
    }
    span_ref_t merged = { a < l->v[i].lo ? a : l->v[i].lo, b > l->v[j - 1].hi ? b : l->v[j - 1].hi };
    l->v[i] = merged;
    if (j > i + 1) {
        pieces_close(l->v, i + 1, j, n);
        l->n = n - (j - i - 1);
    }
}

/* A leaf is covered by every span that meets it, so its `sub` would
 * repeat its `own`: leaves keep `own` only (half the lists). */
static const ilist_t *covered_list(const greedy_t *g, int32_t node, int32_t nl, int32_t nr)
{
    return nl == nr ? &g->own[node] : &g->sub[node];
}

/* The tree's nodes are walked with a stack, not by recursion: a node, its
 * leaf range.  A path holds under 32 nodes (leaves < 2^31) and a walk
 * keeps at most two a level. */
typedef struct walk {
    int32_t node, nl, nr;
} walk_t;

enum { WALK_MAX = 2 * 32 + 2 };

/* Adds [a, b) to the lists of the nodes leaves [l, r] meet: `sub` of each
 * one met, `own` of each one covered canonically. */
static void seg_insert(greedy_t *g, int32_t l, int32_t r, int64_t a, int64_t b)
{
    walk_t st[WALK_MAX];
    int32_t sp = 0;
    st[sp++] = (walk_t){ 1, 0, g->leaves - 1 };
    while (sp > 0) {
        walk_t w = st[--sp];
        if (w.nl != w.nr)
            ilist_add(&g->sub[w.node], a, b, &g->oom);
        if (l <= w.nl && w.nr <= r) {
            ilist_add(&g->own[w.node], a, b, &g->oom);
            continue;
        }
        int32_t mid = w.nl + (w.nr - w.nl) / 2;
        if (r > mid)
            st[sp++] = (walk_t){ 2 * w.node + 1, mid + 1, w.nr };
        if (l <= mid)
            st[sp++] = (walk_t){ 2 * w.node, w.nl, mid };
    }
}

/* First index of l at or after from whose interval ends after cur (the
 * intervals are disjoint and sorted, so their ends ascend too). */
static int32_t skip_covered(const ilist_t *l, int32_t from, int64_t cur)
{
    int32_t lo = from, hi = l->n;
    while (lo < hi) {
        int32_t m = lo + (hi - lo) / 2;
        if (l->v[m].hi <= cur)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* Adds the profile l to the query's union.  A query meets 8-13 lists
 * holding several times the pieces of their union (about 8), so the union
 * is built list by list in a small array, in place: a list's pieces that
 * fall inside a piece of the union are jumped over by binary search, and
 * only what is new is inserted or widens a piece.  (A heap merge of all
 * the lists at once popped every piece on unpredictable branches.) */
static void absorb(greedy_t *g, const ilist_t *l)
{
    int32_t nb = l->n;
    if (nb == 0)
        return;
    int64_t need = (int64_t)g->nu + nb;
    if (need > g->cap_u) {
        int32_t ncap = g->cap_u ? g->cap_u : 64;
        while (ncap < need)
            ncap *= 2;
        span_ref_t *nu = realloc(g->u, (size_t)ncap * sizeof *nu);
        if (!nu) {
            g->oom = true;
            return;
        }
        g->u = nu;
        g->cap_u = ncap;
    }
    span_ref_t *u = g->u;
    const span_ref_t *b = l->v;
    if (g->nu == 0) {
        memcpy(u, b, (size_t)nb * sizeof *b);
        g->nu = nb;
        return;
    }
    int32_t n = g->nu, i = 0, j = 0;
    while (j < nb) {
        span_ref_t s = b[j];
        while (i < n && u[i].hi < s.lo)
            i++;
        if (i == n) { /* the rest lies above the union */
            memcpy(u + n, b + j, (size_t)(nb - j) * sizeof *b);
            n += nb - j;
            break;
        }
        if (s.hi < u[i].lo) { /* in the gap under u[i] */
            memmove(u + i + 1, u + i, (size_t)(n - i) * sizeof *u);
            u[i++] = s;
            n++;
            j++;
            continue;
        }
        if (s.lo < u[i].lo)
            u[i].lo = s.lo;
        if (s.hi > u[i].hi) { /* widens u[i] over the pieces it now meets */
            u[i].hi = s.hi;
            int32_t k = i + 1;
            while (k < n && u[k].lo <= u[i].hi) {
                if (u[k].hi > u[i].hi)
                    u[i].hi = u[k].hi;
                k++;
            }
            if (k > i + 1) {
                pieces_close(u, i + 1, k, n);
                n -= k - i - 1;
            }
        }
        j++;
        if (j < nb && b[j].hi <= u[i].hi)
            j = skip_covered(l, j + 1, u[i].hi);
    }
    g->nu = n;
}

/* Gathers into the union the lists leaves [l, r] meet: `own` of each
 * node cut across, the covered list of each node covered; a node whose
 * covered list is empty has nothing under it and is skipped. */
static void seg_query(greedy_t *g, int32_t l, int32_t r)
{
    walk_t st[WALK_MAX];
    int32_t sp = 0;
    st[sp++] = (walk_t){ 1, 0, g->leaves - 1 };
    while (sp > 0) {
        walk_t w = st[--sp];
        const ilist_t *c = covered_list(g, w.node, w.nl, w.nr);
        if (c->n == 0)
            continue;
        if (l <= w.nl && w.nr <= r) {
            absorb(g, c);
            continue;
        }
        if (g->own[w.node].n)
            absorb(g, &g->own[w.node]);
        int32_t mid = w.nl + (w.nr - w.nl) / 2;
        if (r > mid)
            st[sp++] = (walk_t){ 2 * w.node + 1, mid + 1, w.nr };
        if (l <= mid)
            st[sp++] = (walk_t){ 2 * w.node, w.nl, mid };
    }
}

/* Best fit among the gaps of the query's union: the smallest gap that fits
 * (lowest offset on a tie), else the top of it. */
static int64_t best_fit(const greedy_t *g, int64_t size)
{
    const span_ref_t *u = g->u;
    int64_t cur = 0, best_off = -1, best_gap = INT64_MAX;
    for (int32_t i = 0; i < g->nu; i++) {
        if (u[i].lo > cur) {
            int64_t gap = u[i].lo - cur;
            if (gap >= size && gap < best_gap) {
                best_gap = gap;
                best_off = cur;
                if (gap == size)
                    break; /* nothing fits tighter, and later gaps lie higher */
            }
        }
        cur = u[i].hi;
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

struct bestfit {
    greedy_t g;
    int32_t n, nodes;
    int32_t *order;  /* the greedy order, sorted once (not in an engine) */
    int64_t *coords; /* an engine's leaves: the starts a buffer may take */
    int32_t n_coords;
};

void bestfit_free(bestfit_t *p)
{
    if (!p)
        return;
    greedy_t *g = &p->g;
    if (g->own)
        for (int32_t i = 0; i < p->nodes; i++)
            free(g->own[i].v);
    if (g->sub)
        for (int32_t i = 0; i < p->nodes; i++)
            free(g->sub[i].v);
    free(g->own);
    free(g->sub);
    free(g->aligned);
    free(g->lo);
    free(g->hi);
    free(g->u);
    free(p->order);
    free(p->coords);
    free(p);
}

/* The tree over m leaves, empty. */
static bool tree_new(bestfit_t *p, int32_t m)
{
    greedy_t *g = &p->g;
    g->leaves = m > 0 ? m : 1;
    /* the tree halves ranges at their middle: depth ceil(log2 leaves), so
     * its node indices stay below twice the next power of two */
    p->nodes = 2;
    while (p->nodes < 2 * g->leaves)
        p->nodes *= 2;
    g->own = calloc((size_t)p->nodes, sizeof *g->own);
    g->sub = calloc((size_t)p->nodes, sizeof *g->sub);
    return g->own && g->sub;
}

int bestfit_new(const arena_buf_t *bufs, int32_t n, int64_t alignment, bestfit_t **out, rs_error_t *err)
{
    *out = NULL;
    bestfit_t *p = calloc(1, sizeof *p);
    if (!p)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    p->n = n;
    greedy_t *g = &p->g;
    size_t nn = n ? (size_t)n : 1;
    int64_t *coords = malloc(nn * sizeof *coords);
    /* the sort keys live only until the order is known: a million buffers
     * would otherwise keep 32 MB of them through the run */
    order_key_t *keys = malloc(nn * sizeof *keys);
    p->order = malloc(nn * sizeof *p->order);
    g->aligned = malloc(nn * sizeof *g->aligned);
    g->lo = malloc(nn * sizeof *g->lo);
    g->hi = malloc(nn * sizeof *g->hi);
    int rc = RS_OK;
    if (!coords || !keys || !p->order || !g->aligned || !g->lo || !g->hi) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)n);
        goto done;
    }
    if ((rc = arena_align_sizes(bufs, n, alignment, g->aligned, err)))
        goto done;
    for (int32_t i = 0; i < n; i++) {
        coords[i] = bufs[i].start;
        int64_t span;
        if (!checked_sub(bufs[i].end, bufs[i].start, &span))
            span = INT64_MAX;
        keys[i] = (order_key_t){ g->aligned[i], span, bufs[i].start, i };
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_order);
    for (int32_t i = 0; i < n; i++)
        p->order[i] = keys[i].index;
    free(keys);
    keys = NULL;
    /* The leaves are the distinct span starts only: two inclusive spans
     * meet exactly when the later of their starts lies in both, so a span
     * reduced to the starts it holds keeps every conflict and no other,
     * with half the leaves of all endpoints. */
    int32_t m = sorted_unique(coords, n);
    for (int32_t i = 0; i < n; i++) {
        g->lo[i] = sorted_last_le(coords, m, bufs[i].start);
        g->hi[i] = sorted_last_le(coords, m, bufs[i].end);
    }
    if (!tree_new(p, m))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)n);
done:
    free(coords);
    free(keys);
    if (rc) {
        bestfit_free(p);
        return rc;
    }
    *out = p;
    return RS_OK;
}

void bestfit_greedy_order(const bestfit_t *p, int32_t *order)
{
    memcpy(order, p->order, (size_t)p->n * sizeof *order);
}

const int64_t *bestfit_aligned(const bestfit_t *p) { return p->g.aligned; }

/* Puts buffer id at off in the trees; false when the top overflows: reaches
 * INT64_MAX, which every layout keeps for "open above" (timeline's last
 * gap, tight's "none found"), so all three refuse the same heights. */
static bool occupy(greedy_t *g, int32_t id, int64_t off, int64_t *top)
{
    int64_t end;
    if (!checked_add(off, g->aligned[id], &end) || end == INT64_MAX)
        return false;
    if (end > *top)
        *top = end;
    seg_insert(g, g->lo[id], g->hi[id], off, end);
    return true;
}

/* Empties the trees but keeps their memory: searches and engines reuse
 * them. */
static void tree_clear(bestfit_t *p)
{
    greedy_t *g = &p->g;
    for (int32_t i = 0; i < p->nodes; i++)
        g->own[i].n = g->sub[i].n = 0;
    g->oom = false;
}

/* Places buffer id (with bytes) at its best fit among those in the trees. */
static int place(bestfit_t *p, int32_t id, int64_t *offsets, int64_t *top, rs_error_t *err)
{
    greedy_t *g = &p->g;
    g->nu = 0;
    seg_query(g, g->lo[id], g->hi[id]);
    offsets[id] = g->oom ? 0 : best_fit(g, g->aligned[id]);
    if (!occupy(g, id, offsets[id], top))
        return error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
    if (g->oom)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)p->n);
    return RS_OK;
}

int bestfit_run_pinned(bestfit_t *p, const int32_t *order, const bool *pinned, int64_t *offsets, int64_t *height,
                      rs_error_t *err)
{
    greedy_t *g = &p->g;
    tree_clear(p);
    int64_t top = 0;
    for (int32_t id = 0; pinned && id < p->n; id++)
        if (pinned[id] && g->aligned[id] > 0 && !occupy(g, id, offsets[id], &top))
            return error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
    for (int32_t k = 0; k < p->n; k++) {
        int32_t id = order[k];
        if (pinned && pinned[id])
            continue;
        if (g->aligned[id] == 0) {
            offsets[id] = 0; /* occupies nothing, conflicts with nothing */
            continue;
        }
        int rc = place(p, id, offsets, &top, err);
        if (rc)
            return rc;
    }
    *height = top;
    return RS_OK;
}

int bestfit_run(bestfit_t *p, const int32_t *order, int64_t *offsets, int64_t *height, rs_error_t *err)
{
    return bestfit_run_pinned(p, order, NULL, offsets, height, err);
}

/* ---- an engine kept across layouts ------------------------------------------ */

int bestfit_engine_new(int32_t n, const int64_t *coords, int32_t m, bestfit_t **out, rs_error_t *err)
{
    *out = NULL;
    bestfit_t *p = calloc(1, sizeof *p);
    size_t nn = n ? (size_t)n : 1, mm = m ? (size_t)m : 1;
    if (p) {
        p->n = n;
        p->g.aligned = calloc(nn, sizeof *p->g.aligned);
        p->g.lo = calloc(nn, sizeof *p->g.lo);
        p->g.hi = calloc(nn, sizeof *p->g.hi);
        p->coords = malloc(mm * sizeof *p->coords);
    }
    if (!p || !p->g.aligned || !p->g.lo || !p->g.hi || !p->coords || !tree_new(p, m)) {
        bestfit_free(p);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)n);
    }
    if (m)
        memcpy(p->coords, coords, (size_t)m * sizeof *coords);
    p->n_coords = m;
    *out = p;
    return RS_OK;
}

bool bestfit_engine_set(bestfit_t *p, int32_t id, int64_t aligned, int64_t start, int64_t end)
{
    greedy_t *g = &p->g;
    if (aligned == 0) { /* placed nowhere: its span does not matter */
        g->aligned[id] = 0;
        return true;
    }
    /* the leaves are starts: a span holding the starts of its leaf range
     * meets exactly the spans whose later start it holds, which needs its
     * own start among the leaves (extra leaves change nothing) */
    if (p->n_coords == 0)
        return false;
    int32_t lo = sorted_last_le(p->coords, p->n_coords, start);
    if (p->coords[lo] != start)
        return false;
    g->aligned[id] = aligned;
    g->lo[id] = lo;
    g->hi[id] = sorted_last_le(p->coords, p->n_coords, end);
    return true;
}

int bestfit_engine_place(bestfit_t *p, const int32_t *order, int32_t n, int32_t n_pinned, int64_t *offsets,
                         int64_t *height, rs_error_t *err)
{
    greedy_t *g = &p->g;
    tree_clear(p);
    int64_t top = 0;
    for (int32_t k = 0; k < n_pinned && k < n; k++)
        if (!occupy(g, order[k], offsets[order[k]], &top))
            return error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
    for (int32_t k = n_pinned; k < n; k++) {
        int rc = place(p, order[k], offsets, &top, err);
        if (rc)
            return rc;
    }
    *height = top;
    return RS_OK;
}
