/* relayout_full: the full buffers' profiles, kept small.  A full
 * buffer's profile is the previous one's plus the counts of the buffers
 * between them (its between counts, a piece or two), so those are kept for
 * every full buffer, and a profile is a prefix sum over them: a tree over
 * the full buffers' ranks keeps each node's sum, so a profile over a
 * window of offsets is a few sums of a few pieces, and a rebase redoes only
 * the nodes above the between counts that changed.  The same for the full
 * buffers alone (what every other buffer's profile holds of them). */
#include <stdlib.h>
#include <string.h>

#include "layout/relayout_int.h"
#include "util/vec.h"

int32_t relayout_full_before(const relayout_t *r, int64_t t)
{
    int32_t lo = 0, hi = r->n_full;
    while (lo < hi) {
        int32_t m = lo + (hi - lo) / 2;
        if (2 * (int64_t)r->full_order[m] < t)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

static int32_t full_id(const relayout_t *r, int32_t f) { return r->order[r->full_order[f]]; }

/* out += the pieces of v within [lo, hi); a and b are scratch. */
static int add_slice(const rl_seg_t *v, int32_t n, int64_t lo, int64_t hi, rl_list_t *out, rl_list_t *a, rl_list_t *b)
{
    a->n = 0;
    if (relayout_cover_slice(v, n, lo, hi, a))
        return -1;
    if (!a->n)
        return 0;
    if (!out->n) {
        rl_list_t x = *out;
        *out = *a;
        *a = x;
        return 0;
    }
    const rl_list_t *two[2] = { out, a };
    if (relayout_cover_sum(two, 2, b, NULL))
        return -1;
    rl_list_t x = *out;
    *out = *b;
    *b = x;
    return 0;
}

/* out = the sum of tree's leaves [0, upto) over [lo, hi). */
static int prefix_sum(const relayout_t *r, const rl_prof_t *tree, int32_t upto, int64_t lo, int64_t hi,
                      rl_list_t *out, rl_list_t *a, rl_list_t *b)
{
    out->n = 0;
    /* the canonical nodes of [0, upto): walk down from the root */
    int32_t node = 1, nl = 0, width = r->full_leaves;
    while (upto > nl && width > 0) {
        if (upto >= nl + width) { /* the whole node */
            if (add_slice(r->pool + tree[node].off, tree[node].n, lo, hi, out, a, b))
                return -1;
            break;
        }
        width /= 2;
        if (upto > nl + width) { /* the left child whole, then the right */
            if (add_slice(r->pool + tree[2 * node].off, tree[2 * node].n, lo, hi, out, a, b))
                return -1;
            node = 2 * node + 1;
            nl += width;
        } else {
            node = 2 * node;
        }
    }
    return 0;
}

int relayout_full_c(const relayout_t *r, int32_t f, int64_t lo, int64_t hi, rl_list_t *out, rl_list_t *a, rl_list_t *b)
{
    return prefix_sum(r, r->cprof, f + 1, lo, hi, out, a, b);
}

int relayout_full_prefix(const relayout_t *r, int32_t nf, int64_t lo, int64_t hi, rl_list_t *out, rl_list_t *a,
                         rl_list_t *b)
{
    return prefix_sum(r, r->fprof, nf, lo, hi, out, a, b);
}

int relayout_full_between(relayout_t *r, int32_t f, rl_list_t *b)
{
    int32_t p = r->full_order[f], from = f ? r->full_order[f - 1] : 0;
    b->n = 0;
    for (int32_t k = from; k < p; k++) {
        int32_t w = r->order[k];
        if (relayout_cover_add(b, r->off[w], r->off[w] + r->size[w]))
            return -1;
    }
    return relayout_pool_put(r, &r->bprof[full_id(r, f)], b->v, b->n);
}

/* Node k of both trees from its children (a leaf from its full buffer). */
static int make_node(relayout_t *r, int32_t k, rl_list_t *s, rl_list_t *one)
{
    if (k >= r->full_leaves) {
        int32_t f = k - r->full_leaves;
        one->n = 0;
        const rl_prof_t *bp = f < r->n_full ? &r->bprof[full_id(r, f)] : NULL;
        if (f < r->n_full) {
            int32_t id = full_id(r, f);
            if (relayout_cover_add(one, r->off[id], r->off[id] + r->size[id]))
                return -1;
        }
        if (relayout_pool_put(r, &r->cprof[k], bp ? r->pool + bp->off : NULL, bp ? bp->n : 0))
            return -1;
        return relayout_pool_put(r, &r->fprof[k], one->v, one->n);
    }
    for (int t = 0; t < 2; t++) {
        rl_prof_t *tree = t ? r->fprof : r->cprof;
        const rl_list_t x = { r->pool + tree[2 * k].off, tree[2 * k].n, 0 };
        const rl_list_t y = { r->pool + tree[2 * k + 1].off, tree[2 * k + 1].n, 0 };
        const rl_list_t *two[2] = { &x, &y };
        if (relayout_cover_sum(two, 2, s, NULL) || relayout_pool_put(r, &tree[k], s->v, s->n))
            return -1;
    }
    return 0;
}

int relayout_full_update(relayout_t *r, int32_t *ranks, int32_t n)
{
    rl_list_t s = { 0 }, one = { 0 };
    int rc = 0;
    /* leaves, then their parents level by level, each node once */
    for (int32_t i = 0; i < n; i++)
        ranks[i] += r->full_leaves;
    while (n > 0 && !rc) {
        int32_t m = 0;
        for (int32_t i = 0; i < n && !rc; i++) {
            bool seen = false;
            for (int32_t j = 0; j < m && !seen; j++)
                seen = ranks[j] == ranks[i];
            if (seen)
                continue;
            rc = make_node(r, ranks[i], &s, &one);
            ranks[m++] = ranks[i];
        }
        n = 0;
        for (int32_t i = 0; i < m; i++)
            if (ranks[i] > 1)
                ranks[n++] = ranks[i] / 2;
    }
    free(s.v);
    free(one.v);
    return rc ? -1 : 0;
}

int relayout_full_profiles(relayout_t *r)
{
    rl_list_t b = { 0 }, one = { 0 };
    int rc = 0;
    for (int32_t id = 0; id < r->n; id++)
        if (!r->full[id] && r->bprof[id].n) {
            r->pool_live -= r->bprof[id].n;
            r->bprof[id] = (rl_prof_t){ 0, 0 };
        }
    for (int32_t f = 0; f < r->n_full && !rc; f++)
        rc = relayout_full_between(r, f, &b);
    /* the trees again: their shape follows the count of full buffers */
    for (int32_t k = 1; k < 2 * r->full_leaves; k++) {
        r->pool_live -= r->cprof[k].n + r->fprof[k].n;
        r->cprof[k] = r->fprof[k] = (rl_prof_t){ 0, 0 };
    }
    int32_t leaves = 1;
    while (leaves < r->n_full)
        leaves *= 2;
    if (!rc && leaves > r->full_cap) {
        rl_prof_t *c = realloc(r->cprof, 2 * (size_t)leaves * sizeof *c);
        if (c)
            r->cprof = c;
        rl_prof_t *f = c ? realloc(r->fprof, 2 * (size_t)leaves * sizeof *f) : NULL;
        if (f)
            r->fprof = f;
        if (!c || !f)
            rc = -1;
        else
            r->full_cap = leaves;
    }
    if (!rc) {
        r->full_leaves = leaves;
        memset(r->cprof, 0, 2 * (size_t)leaves * sizeof *r->cprof);
        memset(r->fprof, 0, 2 * (size_t)leaves * sizeof *r->fprof);
        for (int32_t k = 2 * leaves - 1; k >= 1 && !rc; k--)
            rc = make_node(r, k, &b, &one);
    }
    free(b.v);
    free(one.v);
    return rc ? -1 : 0;
}
