/* relayout_build: a reference laid out from scratch: the order, the §3
 * offsets (bestfit's), and every buffer's cover profile. */
#include <stdlib.h>
#include <string.h>

#include "layout/bestfit.h"
#include "layout/relayout_int.h"
#include "util/checked.h"
#include "util/vec.h"

/* ---- from scratch ------------------------------------------------------------- */

typedef struct order_key {
    int64_t size, len, start;
    int32_t id;
} order_key_t;

static int cmp_key(const void *pa, const void *pb)
{
    const order_key_t *a = pa, *b = pb;
    if (a->id == b->id)
        return 0;
    return rl_before(a->size, a->len, a->start, a->id, b->size, b->len, b->start, b->id) ? -1 : 1;
}

void relayout_build_free(relayout_t *r)
{
    relayout_index_free(&r->ix);
    free(r->lo);
    free(r->hi);
    free(r->pos);
    free(r->order);
    free(r->prof);
    free(r->bprof);
    free(r->fprof);
    free(r->cprof);
    free(r->pool);
    free(r->off);
    free(r->full);
    free(r->full_order);
    free(r->full_rank);
    free(r->next_full);
    r->lo = r->hi = r->pos = r->order = r->full_order = r->full_rank = r->next_full = NULL;
    r->prof = r->bprof = r->fprof = r->cprof = NULL;
    r->full_leaves = r->full_cap = 0;
    r->pool = NULL;
    r->off = NULL;
    r->full = NULL;
    r->pool_n = r->pool_cap = r->n_order = r->n_full = 0;
    r->pool_live = 0;
}

/* The order and positions of the present buffers with bytes: given (the
 * new order of a run through the engine, made by merging: on t24's
 * Minimize fit the sort was 2.6 % of it), else sorted. */
static int build_order(relayout_t *r, const int32_t *given, int32_t n_given)
{
    int32_t n = r->n, m = 0;
    if (given) {
        for (int32_t i = 0; i < n; i++)
            r->pos[i] = -1;
        for (int32_t k = 0; k < n_given; k++) {
            r->order[k] = given[k];
            r->pos[given[k]] = k;
        }
        r->n_order = n_given;
        return 0;
    }
    order_key_t *keys = malloc((n ? (size_t)n : 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (int32_t i = 0; i < n; i++) {
        r->pos[i] = -1;
        if (r->present[i] && r->size[i] > 0)
            keys[m++] = (order_key_t){ r->size[i], rl_span_len(r->start[i], r->end[i]), r->start[i], i };
    }
    qsort(keys, (size_t)m, sizeof *keys, cmp_key);
    for (int32_t k = 0; k < m; k++) {
        r->order[k] = keys[k].id;
        r->pos[keys[k].id] = k;
    }
    r->n_order = m;
    free(keys);
    return 0;
}

/* The §3 offsets, from bestfit (the buffers in id order, as a layout of
 * them from scratch takes them). */
static int build_offsets(relayout_t *r, rs_error_t *err)
{
    int32_t n = r->n, m = 0;
    size_t nn = n ? (size_t)n : 1;
    arena_buf_t *bufs = malloc(nn * sizeof *bufs);
    int32_t *ids = malloc(nn * sizeof *ids), *order = malloc(nn * sizeof *order);
    int64_t *offs = malloc(nn * sizeof *offs);
    bestfit_t *p = NULL;
    int rc = bufs && ids && order && offs ? RS_OK : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; !rc && i < n; i++) {
        r->off[i] = r->present[i] ? 0 : -1;
        if (r->present[i]) {
            bufs[m] = (arena_buf_t){ r->raw[i], r->start[i], r->end[i] };
            ids[m++] = i;
        }
    }
    if (!rc)
        rc = bestfit_new(bufs, m, r->alignment, &p, err);
    if (!rc) {
        bestfit_greedy_order(p, order);
        rc = bestfit_run(p, order, offs, &r->height, err);
    }
    for (int32_t k = 0; !rc && k < m; k++)
        r->off[ids[k]] = offs[k];
    bestfit_free(p);
    free(bufs);
    free(ids);
    free(order);
    free(offs);
    return rc;
}

int relayout_full_index(relayout_t *r)
{
    size_t nn = r->n ? (size_t)r->n : 1;
    free(r->full_order);
    free(r->next_full);
    r->full_order = malloc(nn * sizeof *r->full_order);
    r->next_full = malloc((nn + 1) * sizeof *r->next_full);
    if (!r->full || !r->full_rank) {
        r->full = malloc(nn);
        r->full_rank = malloc(nn * sizeof *r->full_rank);
    }
    if (!r->full_order || !r->next_full || !r->full || !r->full_rank)
        return -1;
    r->span_lo = INT64_MAX;
    r->span_hi = INT64_MIN;
    for (int32_t k = 0; k < r->n_order; k++) {
        int32_t id = r->order[k];
        if (r->start[id] < r->span_lo)
            r->span_lo = r->start[id];
        if (r->end[id] > r->span_hi)
            r->span_hi = r->end[id];
    }
    r->n_full = 0;
    for (int32_t id = 0; id < r->n; id++) {
        r->full[id] = 0;
        r->full_rank[id] = -1;
    }
    for (int32_t k = 0; k < r->n_order; k++) {
        int32_t id = r->order[k];
        if (r->start[id] <= r->span_lo && r->end[id] >= r->span_hi) {
            r->full[id] = 1;
            r->full_rank[id] = r->n_full;
            r->full_order[r->n_full++] = k;
        }
    }
    r->next_full[r->n_order] = r->n_order;
    for (int32_t k = r->n_order - 1; k >= 0; k--)
        r->next_full[k] = r->full[r->order[k]] ? k : r->next_full[k + 1];
    return 0;
}

/* Every buffer's profile, made in the order over a tree of the time
 * index's shape whose nodes count the placements made so far: stab[k]
 * those whose span covers node k canonically, at[k] those starting under
 * it.  A buffer's conflicting placements before it are the stab lists on
 * the path to its start (a leaf: every start is one) and the at lists over
 * the starts in (start, end], so its profile is the sum of those few
 * counted lists and the full buffers before it: the counts adding each
 * placement gives, without visiting the placements.  (Visiting them cost
 * the square of the buffers on long-lived routines: 62 % of a 96-layer
 * transformer's Minimize fit went to it.) */
typedef struct count_tree {
    rl_list_t *stab, *at;
    int32_t nodes;
} count_tree_t;

static void count_tree_free(count_tree_t *t)
{
    for (int32_t k = 0; k < t->nodes; k++) {
        free(t->stab[k].v);
        free(t->at[k].v);
    }
    free(t->stab);
    free(t->at);
}

/* Adds id's placement to the lists that hold it. */
static int count_tree_add(const relayout_t *r, count_tree_t *t, int32_t id, int32_t *nodes)
{
    int64_t lo = r->off[id], hi = r->off[id] + r->size[id];
    int32_t k = relayout_index_cover(&r->ix, r->lo[id], r->hi[id], nodes);
    for (int32_t i = 0; i < k; i++)
        if (relayout_cover_add(&t->stab[nodes[i]], lo, hi))
            return -1;
    k = relayout_index_path(&r->ix, r->lo[id], nodes);
    for (int32_t i = 0; i < k; i++)
        if (relayout_cover_add(&t->at[nodes[i]], lo, hi))
            return -1;
    return 0;
}

/* The lists whose sum is id's profile (without the full buffers), the
 * empty ones left out, into lists; how many. */
static int32_t count_tree_lists(const relayout_t *r, const count_tree_t *t, int32_t id, int32_t *path,
                                int32_t *nodes, const rl_list_t **lists)
{
    const rl_index_t *ix = &r->ix;
    int32_t m = 0;
    int32_t np = relayout_index_path(ix, r->lo[id], path);
    for (int32_t i = 0; i < np; i++)
        if (t->stab[path[i]].n)
            lists[m++] = &t->stab[path[i]];
    int32_t nc = relayout_index_cover(ix, r->lo[id] + 1, r->hi[id], nodes);
    for (int32_t i = 0; i < nc; i++)
        if (t->at[nodes[i]].n)
            lists[m++] = &t->at[nodes[i]];
    return m;
}

int relayout_build_profiles(relayout_t *r)
{
    int32_t depth = relayout_index_depth(&r->ix);
    int32_t *path = malloc((size_t)(depth + 1) * sizeof *path);
    int32_t *nodes = malloc((size_t)(2 * depth + 2) * sizeof *nodes);
    const rl_list_t **lists = malloc((size_t)(3 * depth + 4) * sizeof *lists);
    count_tree_t t = { calloc((size_t)r->ix.nodes, sizeof *t.stab), calloc((size_t)r->ix.nodes, sizeof *t.at),
                       r->ix.nodes };
    rl_list_t sum = { 0 }, fl = { 0 }, ta = { 0 }, tb = { 0 };
    int rc = path && nodes && lists && t.stab && t.at ? relayout_full_profiles(r) : -1;
    for (int32_t k = 0; k < r->n_order && !rc; k++) {
        int32_t id = r->order[k];
        if (r->full[id])
            continue;
        int32_t m = count_tree_lists(r, &t, id, path, nodes, lists);
        rc = relayout_full_prefix(r, relayout_full_before(r, 2 * (int64_t)k), INT64_MIN, INT64_MAX, &fl, &ta, &tb);
        if (!rc && fl.n)
            lists[m++] = &fl;
        if (!rc)
            rc = relayout_cover_sum(lists, m, &sum, NULL);
        if (!rc)
            rc = relayout_pool_put(r, &r->prof[id], sum.v, sum.n);
        if (!rc)
            rc = count_tree_add(r, &t, id, nodes);
    }
    if (t.stab && t.at)
        count_tree_free(&t);
    else {
        free(t.stab);
        free(t.at);
    }
    free(path);
    free(nodes);
    free(lists);
    free(sum.v);
    free(fl.v);
    free(ta.v);
    free(tb.v);
    return rc ? -1 : 0;
}

/* The order, offsets and height of r's buffers; profiles and index not
 * made (r->lazy). */
static int build_placement(relayout_t *r, const int64_t *off, int64_t height, const int32_t *order, int32_t n_order,
                           rs_error_t *err)
{
    /* the pool's memory is kept (emptied): a fit builds its references
     * thousands of times, and a pool grown afresh each time copied the
     * profiles at every doubling */
    rl_seg_t *pool = r->pool;
    int32_t pool_cap = r->pool_cap;
    r->pool = NULL;
    relayout_build_free(r);
    r->pool = pool;
    r->pool_cap = pool_cap;
    size_t nn = r->n ? (size_t)r->n : 1;
    r->lo = malloc(nn * sizeof *r->lo);
    r->hi = malloc(nn * sizeof *r->hi);
    r->pos = malloc(nn * sizeof *r->pos);
    r->order = malloc(nn * sizeof *r->order);
    r->prof = calloc(nn, sizeof *r->prof);
    r->bprof = calloc(nn, sizeof *r->bprof);
    r->off = malloc(nn * sizeof *r->off);
    if (!r->lo || !r->hi || !r->pos || !r->order || !r->prof || !r->bprof || !r->off || build_order(r, order, n_order))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)r->n);
    if (off) {
        memcpy(r->off, off, nn * sizeof *r->off);
        r->height = height;
    } else {
        int rc = build_offsets(r, err);
        if (rc)
            return rc;
    }
    r->n_top = 0;
    for (int32_t k = 0; k < r->n_order; k++) {
        int32_t id = r->order[k];
        r->n_top += r->off[id] + r->size[id] == r->height;
    }
    r->lazy = true;
    r->runs_lazy = 0;
    return RS_OK;
}

int relayout_materialize(relayout_t *r)
{
    if (!r->lazy)
        return 0;
    if (relayout_full_index(r) || relayout_index_build(r) || relayout_build_profiles(r))
        return -1;
    r->lazy = false;
    return 0;
}

int relayout_build(relayout_t *r, const int64_t *off, int64_t height, const int32_t *order, int32_t n_order, bool lazy,
                   rs_error_t *err)
{
    int rc = build_placement(r, off, height, order, n_order, err);
    if (!rc && !lazy && relayout_materialize(r))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory laying out %d buffers", (int)r->n);
    return rc;
}
