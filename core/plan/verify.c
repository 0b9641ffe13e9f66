#include "plan/verify.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

/* Everything below follows DESIGN §2-3 sentence by sentence; speed is not
 * the point (a plan is verified once), independence is. */

static bool illegal(const lowering_t *l, int32_t i)
{
    return l->kind[i] != NODE_DEF || (l->flags[i] & FLAG_OUTPUT) || (l->flags[i] & FLAG_PINNED) ||
           (l->flags[i] & FLAG_INTO) || l->ndefs[i] > 1;
}

/* Does step s list node i among its arguments, and how many times? */
static int32_t times_read(const lowering_t *l, int32_t s, int32_t i)
{
    int32_t n = 0;
    for (int32_t a = l->arg_off[s]; a < l->arg_off[s + 1]; a++)
        n += l->args[a] == i;
    return n;
}

void verify_layout_free(verify_layout_t *lay)
{
    if (!lay)
        return;
    free(lay->node);
    free(lay->start);
    free(lay->end);
    free(lay->size);
    free(lay->offset);
    memset(lay, 0, sizeof *lay);
}

bool verify_overlap(int32_t n, const int64_t *start, const int64_t *end, const int64_t *size,
                    const int64_t *offset, int32_t *a, int32_t *b)
{
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) {
            if (size[i] == 0 || size[j] == 0)
                continue;
            bool same_step = start[i] <= end[j] && start[j] <= end[i];
            bool same_bytes = offset[i] < offset[j] + size[j] && offset[j] < offset[i] + size[i];
            if (same_step && same_bytes) {
                *a = i;
                *b = j;
                return true;
            }
        }
    return false;
}

/* greedy order: aligned size descending, span length descending, start
 * ascending, node index ascending */
static bool goes_first(const verify_layout_t *v, int32_t x, int32_t y)
{
    if (v->size[x] != v->size[y])
        return v->size[x] > v->size[y];
    int64_t lx = v->end[x] - v->start[x], ly = v->end[y] - v->start[y];
    if (lx != ly)
        return lx > ly;
    if (v->start[x] != v->start[y])
        return v->start[x] < v->start[y];
    return v->node[x] < v->node[y];
}

/* A placed buffer's bytes: [lo, hi). */
typedef struct taken {
    int64_t lo, hi;
} taken_t;

static int by_lo(const void *a, const void *b)
{
    const taken_t *x = a, *y = b;
    return x->lo != y->lo ? (x->lo < y->lo ? -1 : 1) : x->hi != y->hi ? (x->hi < y->hi ? -1 : 1) : 0;
}

/* The §3 greedy, one buffer at a time against every buffer placed before
 * it; returns the arena's height, or -1 on overflow. */
static int64_t plain_greedy(verify_layout_t *v, int32_t *order, bool *placed, taken_t *taken)
{
    int32_t n = v->n;
    for (int32_t i = 0; i < n; i++) { /* insertion sort: plain */
        int32_t x = i, k = i;
        while (k > 0 && goes_first(v, x, order[k - 1])) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = x;
        placed[i] = false;
    }
    int64_t height = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t b = order[k];
        if (v->size[b] == 0) {
            v->offset[b] = 0;
            placed[b] = true;
            continue;
        }
        /* the placed buffers live at a step b is live at, by offset (sorted
         * with qsort: an insertion sort of the thousands of weights live at
         * every step made a 13k-buffer step take 20 s a scoring) */
        int32_t m = 0;
        for (int32_t o = 0; o < n; o++) {
            if (!placed[o] || v->size[o] == 0 || v->start[o] > v->end[b] || v->start[b] > v->end[o])
                continue;
            taken[m++] = (taken_t){ v->offset[o], v->offset[o] + v->size[o] };
        }
        qsort(taken, (size_t)m, sizeof *taken, by_lo);
        int64_t cur = 0, best = -1, best_gap = 0;
        for (int32_t g = 0; g < m; g++) {
            if (taken[g].lo > cur) {
                int64_t gap = taken[g].lo - cur;
                if (gap >= v->size[b] && (best < 0 || gap < best_gap)) {
                    best = cur;
                    best_gap = gap;
                }
            }
            if (taken[g].hi > cur)
                cur = taken[g].hi;
        }
        v->offset[b] = best >= 0 ? best : cur;
        int64_t top;
        if (!checked_add(v->offset[b], v->size[b], &top))
            return -1;
        if (top > height)
            height = top;
        placed[b] = true;
    }
    return height;
}

int verify_score(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, footprint_t *out,
                 verify_layout_t *lay, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int32_t N = l->n_nodes, S = l->n_steps, last_step = S > 0 ? S - 1 : 0;
    size_t nn = N ? (size_t)N : 1;
    uint8_t *inl = calloc(nn, 1);
    int32_t *depth = calloc(nn, sizeof *depth);
    int64_t *reads = calloc(nn, sizeof *reads);
    int64_t *last = calloc(nn, sizeof *last);
    verify_layout_t v = { 0 };
    v.node = malloc(nn * sizeof *v.node);
    v.start = malloc(nn * sizeof *v.start);
    v.end = malloc(nn * sizeof *v.end);
    v.size = malloc(nn * sizeof *v.size);
    v.offset = malloc(nn * sizeof *v.offset);
    int32_t *order = malloc(nn * sizeof *order);
    bool *placed = malloc(nn * sizeof *placed);
    taken_t *taken = malloc(nn * sizeof *taken);
    int rc = RS_OK;
    if (!inl || !depth || !reads || !last || !v.node || !v.start || !v.end || !v.size || !v.offset || !order ||
        !placed || !taken) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory verifying");
        goto done;
    }
    /* placement: a preference (the context's, or @inline) is kept when the
     * node may be inline and its depth stays within the limit */
    for (int32_t i = 0; i < N; i++) {
        bool wanted = (prefs && prefs[i]) || (l->flags[i] & FLAG_INLINE);
        if (!wanted || illegal(l, i))
            continue;
        int32_t s = l->first_def[i], d = 1;
        for (int32_t a = l->arg_off[s]; a < l->arg_off[s + 1]; a++)
            if (inl[l->args[a]] && 1 + depth[l->args[a]] > d)
                d = 1 + depth[l->args[a]];
        if (d <= cfg->max_inline_depth) {
            inl[i] = 1;
            depth[i] = d;
        }
    }
    /* R(N) and the last effective read, from the readers down: every step
     * is scanned for every node */
    for (int32_t i = N - 1; i >= 0; i--) {
        reads[i] = 0;
        last[i] = -1;
        for (int32_t s = 0; s < S; s++) {
            int32_t k = times_read(l, s, i), owner = l->step_owner[s];
            for (int32_t t = 0; t < k; t++) {
                reads[i] = sat_add(reads[i], inl[owner] ? reads[owner] : 1);
                int64_t at = inl[owner] ? last[owner] : s;
                if (at > last[i])
                    last[i] = at;
            }
        }
    }
    int64_t compute = 0;
    for (int32_t s = 0; s < S; s++) {
        int32_t owner = l->step_owner[s];
        compute = sat_add(compute, sat_mul(inl[owner] ? reads[owner] : 1, l->step_cost[s]));
    }
    /* buffers: every materialized node, its span, its aligned size */
    for (int32_t i = 0; i < N; i++) {
        if (inl[i])
            continue;
        bool resident = l->kind[i] != NODE_DEF;
        int64_t start = resident ? 0 : l->first_def[i], end = resident ? last_step : l->last_def[i];
        if (last[i] > end)
            end = last[i];
        if (resident || (l->flags[i] & FLAG_OUTPUT))
            end = last_step;
        if (!cfg->aliasing) {
            start = 0;
            end = last_step;
        }
        /* §1: an @into node is written into its input's buffer, holding none */
        int64_t size = (l->flags[i] & FLAG_INTO) ? 0 : l->bytes[i], rem = size % cfg->alignment;
        if (rem && !checked_add(size, cfg->alignment - rem, &size)) {
            rc = error_set(err, RS_EINPUT, NULL, 0, 0, "'%s' overflows when aligned", l->routine->nodes[i].name);
            goto done;
        }
        v.node[v.n] = i;
        v.start[v.n] = start;
        v.end[v.n] = end;
        v.size[v.n] = size;
        v.n++;
    }
    /* live_peak and its first step: the sum over the buffers live there */
    out->live_peak = 0;
    out->peak_step = 0;
    for (int32_t s = 0; s <= last_step; s++) {
        int64_t live = 0;
        for (int32_t b = 0; b < v.n; b++)
            if (v.start[b] <= s && s <= v.end[b])
                live = sat_add(live, v.size[b]);
        if (live > out->live_peak) {
            out->live_peak = live;
            out->peak_step = s;
        }
    }
    out->total = plain_greedy(&v, order, placed, taken);
    if (out->total < 0) {
        rc = error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
        goto done;
    }
    out->buffers = v.n;
    out->compute = compute;
done:
    free(inl);
    free(depth);
    free(reads);
    free(last);
    free(order);
    free(placed);
    free(taken);
    if (lay && !rc)
        *lay = v;
    else
        verify_layout_free(&v);
    return rc;
}
