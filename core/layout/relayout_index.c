/* relayout_index: a reference's time index (relayout_int.h): the tree over
 * the distinct span starts, its lists of buffers, the walks over the
 * buffers meeting a span before or after a position, and the pool of
 * profiles. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "layout/relayout_int.h"
#include "util/vec.h"

/* ---- the tree ------------------------------------------------------------- */

static void cover_rec(const rl_index_t *ix, int32_t node, int32_t nl, int32_t nr, int32_t l, int32_t r,
                      int32_t *out, int32_t *k)
{
    if (r < nl || nr < l)
        return;
    if (l <= nl && nr <= r) {
        out[(*k)++] = node;
        return;
    }
    int32_t mid = nl + (nr - nl) / 2;
    cover_rec(ix, 2 * node, nl, mid, l, r, out, k);
    cover_rec(ix, 2 * node + 1, mid + 1, nr, l, r, out, k);
}

int32_t relayout_index_cover(const rl_index_t *ix, int32_t l, int32_t r, int32_t *out)
{
    int32_t k = 0;
    if (l <= r)
        cover_rec(ix, 1, 0, ix->leaves - 1, l, r, out, &k);
    return k;
}

int32_t relayout_index_path(const rl_index_t *ix, int32_t leaf, int32_t *out)
{
    int32_t k = 0, node = 1, nl = 0, nr = ix->leaves - 1;
    for (;;) {
        out[k++] = node;
        if (nl == nr)
            return k;
        int32_t mid = nl + (nr - nl) / 2;
        if (leaf <= mid) {
            node = 2 * node;
            nr = mid;
        } else {
            node = 2 * node + 1;
            nl = mid + 1;
        }
    }
}

int32_t relayout_index_depth(const rl_index_t *ix)
{
    int32_t d = 1;
    for (int32_t w = 1; w < ix->leaves; w *= 2)
        d++;
    return d + 1;
}

int32_t relayout_index_first_gt(const rl_index_t *ix, int64_t v)
{
    int32_t lo = 0, hi = ix->leaves;
    while (lo < hi) {
        int32_t m = lo + (hi - lo) / 2;
        if (ix->coords[m] <= v)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

int32_t relayout_index_last_le(const rl_index_t *ix, int64_t v) { return relayout_index_first_gt(ix, v) - 1; }

/* ---- the index -------------------------------------------------------------- */

void relayout_index_free(rl_index_t *ix)
{
    for (int32_t i = 0; ix->stab && i < ix->nodes; i++)
        free(ix->stab[i].v);
    for (int32_t i = 0; ix->at && i < ix->nodes; i++)
        free(ix->at[i].v);
    free(ix->stab);
    free(ix->at);
    free(ix->coords);
    memset(ix, 0, sizeof *ix);
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

/* The first index of l whose id's position is not below p. */
static int32_t ids_lower_bound(const rl_ids_t *l, const int32_t *pos, int32_t p)
{
    int32_t lo = 0, hi = l->n;
    while (lo < hi) {
        int32_t m = lo + (hi - lo) / 2;
        if (pos[l->v[m]] < p)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* Inserts id into l by position (ascending). */
static int ids_insert(rl_ids_t *l, const int32_t *pos, int32_t id)
{
    if (vec_reserve((void **)&l->v, &l->cap, (int64_t)l->n + 1, sizeof *l->v))
        return -1;
    int32_t p = pos[id];
    if (l->n == 0 || pos[l->v[l->n - 1]] < p) {
        l->v[l->n++] = id;
        return 0;
    }
    int32_t lo = ids_lower_bound(l, pos, p);
    memmove(l->v + lo + 1, l->v + lo, (size_t)(l->n - lo) * sizeof *l->v);
    l->v[lo] = id;
    l->n++;
    return 0;
}

static void ids_remove(rl_ids_t *l, const int32_t *pos, int32_t id, int32_t p)
{
    int32_t lo = ids_lower_bound(l, pos, p);
    if (lo < l->n && l->v[lo] == id) {
        memmove(l->v + lo, l->v + lo + 1, (size_t)(l->n - lo - 1) * sizeof *l->v);
        l->n--;
    }
}

int relayout_index_insert(relayout_t *r, int32_t id)
{
    if (r->full[id]) /* they meet every buffer: the chain and fprof stand for them */
        return 0;
    rl_index_t *ix = &r->ix;
    int32_t nodes[130];
    int32_t k = relayout_index_cover(ix, r->lo[id], r->hi[id], nodes);
    for (int32_t i = 0; i < k; i++)
        if (ids_insert(&ix->stab[nodes[i]], r->pos, id))
            return -1;
    k = relayout_index_path(ix, r->lo[id], nodes);
    for (int32_t i = 0; i < k; i++)
        if (ids_insert(&ix->at[nodes[i]], r->pos, id))
            return -1;
    return 0;
}

void relayout_index_remove(relayout_t *r, int32_t id, int32_t pos)
{
    if (r->full[id])
        return;
    rl_index_t *ix = &r->ix;
    int32_t nodes[130];
    /* the lists are ordered by r->pos, which still holds the old positions
     * of everything but id: search by the position id had */
    int32_t saved = r->pos[id];
    r->pos[id] = pos;
    int32_t k = relayout_index_cover(ix, r->lo[id], r->hi[id], nodes);
    for (int32_t i = 0; i < k; i++)
        ids_remove(&ix->stab[nodes[i]], r->pos, id, pos);
    k = relayout_index_path(ix, r->lo[id], nodes);
    for (int32_t i = 0; i < k; i++)
        ids_remove(&ix->at[nodes[i]], r->pos, id, pos);
    r->pos[id] = saved;
}

/* The coordinates (distinct starts of the ordered buffers) and the tree's
 * shape; every list empty. */
static int index_shape(relayout_t *r)
{
    rl_index_t *ix = &r->ix;
    relayout_index_free(ix);
    int32_t m = r->n_order;
    ix->coords = malloc((m ? (size_t)m : 1) * sizeof *ix->coords);
    if (!ix->coords)
        return -1;
    for (int32_t k = 0; k < m; k++)
        ix->coords[k] = r->start[r->order[k]];
    qsort(ix->coords, (size_t)m, sizeof *ix->coords, cmp_i64);
    int32_t u = 0;
    for (int32_t k = 0; k < m; k++)
        if (u == 0 || ix->coords[u - 1] != ix->coords[k])
            ix->coords[u++] = ix->coords[k];
    if (u == 0)
        ix->coords[u++] = 0;
    ix->leaves = u;
    ix->nodes = 2;
    while (ix->nodes < 2 * ix->leaves)
        ix->nodes *= 2;
    ix->stab = calloc((size_t)ix->nodes, sizeof *ix->stab);
    ix->at = calloc((size_t)ix->nodes, sizeof *ix->at);
    if (!ix->stab || !ix->at)
        return -1;
    for (int32_t k = 0; k < m; k++) {
        int32_t id = r->order[k];
        r->lo[id] = relayout_index_last_le(ix, r->start[id]);
        r->hi[id] = relayout_index_last_le(ix, r->end[id]);
    }
    return 0;
}

int relayout_index_build(relayout_t *r)
{
    if (index_shape(r))
        return -1;
    for (int32_t k = 0; k < r->n_order; k++)
        if (relayout_index_insert(r, r->order[k]))
            return -1;
    return 0;
}

/* ---- the pool of profiles -------------------------------------------------- */

int relayout_pool_put(relayout_t *r, rl_prof_t *slot, const rl_seg_t *v, int32_t n)
{
    /* v may lie in the pool itself (a profile copied to another slot) */
    bool inside = n && r->pool && v >= r->pool && v < r->pool + r->pool_n;
    ptrdiff_t at = inside ? v - r->pool : 0;
    if (vec_reserve((void **)&r->pool, &r->pool_cap, (int64_t)r->pool_n + n + 1, sizeof *r->pool))
        return -1;
    if (inside)
        v = r->pool + at;
    r->pool_live -= slot->n;
    if (n)
        memcpy(r->pool + r->pool_n, v, (size_t)n * sizeof *v);
    *slot = (rl_prof_t){ r->pool_n, n };
    r->pool_n += n;
    r->pool_live += n;
    return 0;
}

/* ---- walks ------------------------------------------------------------------ */

int relayout_index_walk(const relayout_t *r, int64_t a, int64_t b, int64_t t, bool after, int32_t *path,
                        int32_t *nodes, relayout_visit_fn fn, void *ud)
{
    const rl_index_t *ix = &r->ix;
    const int32_t *pos = r->pos;
    int32_t leaf = relayout_index_last_le(ix, a);
    int32_t np = leaf >= 0 ? relayout_index_path(ix, leaf, path) : 0;
    int32_t f = relayout_index_first_gt(ix, a), l2 = relayout_index_last_le(ix, b);
    int32_t nc = relayout_index_cover(ix, f, l2, nodes);
    for (int32_t k = 0; k < np + nc; k++) {
        bool stab = k < np;
        const rl_ids_t *l = stab ? &ix->stab[path[k]] : &ix->at[nodes[k - np]];
        if (after) {
            for (int32_t i = l->n - 1; i >= 0; i--) {
                int32_t id = l->v[i];
                if (2 * (int64_t)pos[id] <= t)
                    break;
                if ((!stab || r->end[id] >= a) && fn(ud, id))
                    return 1;
            }
        } else {
            for (int32_t i = 0; i < l->n; i++) {
                int32_t id = l->v[i];
                if (2 * (int64_t)pos[id] >= t)
                    break;
                if ((!stab || r->end[id] >= a) && fn(ud, id))
                    return 1;
            }
        }
    }
    return 0;
}

