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
    free(lay->copy);
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
    if (v->node[x] != v->node[y])
        return v->node[x] < v->node[y];
    return !v->copy[x] && v->copy[y]; /* §14: a copy just after its node */
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

/* The arrays of a plain layout for up to cap buffers. */
static int layout_alloc(verify_layout_t *v, size_t cap, rs_error_t *err)
{
    memset(v, 0, sizeof *v);
    cap = cap ? cap : 1;
    v->node = malloc(cap * sizeof *v->node);
    v->start = malloc(cap * sizeof *v->start);
    v->end = malloc(cap * sizeof *v->end);
    v->size = malloc(cap * sizeof *v->size);
    v->offset = malloc(cap * sizeof *v->offset);
    v->copy = calloc(cap, 1);
    if (v->node && v->start && v->end && v->size && v->offset && v->copy)
        return RS_OK;
    verify_layout_free(v);
    return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory verifying");
}

/* §2's placement: a preference (the context's, or @inline) is kept when
 * the node may be inline and its depth stays within the limit. */
static void place_inline(const lowering_t *l, const uint8_t *prefs, int32_t max_depth, uint8_t *inl, int32_t *depth)
{
    for (int32_t i = 0; i < l->n_nodes; i++) {
        bool wanted = (prefs && prefs[i]) || (l->flags[i] & FLAG_INLINE);
        if (!wanted || illegal(l, i))
            continue;
        int32_t s = l->first_def[i], d = 1;
        for (int32_t a = l->arg_off[s]; a < l->arg_off[s + 1]; a++)
            if (inl[l->args[a]] && 1 + depth[l->args[a]] > d)
                d = 1 + depth[l->args[a]];
        if (d <= max_depth) {
            inl[i] = 1;
            depth[i] = d;
        }
    }
}

/* Adds node i's buffer (or its §14 copy) living [start, end] to v: the
 * whole routine without aliasing; an @into node holds no bytes (§1). */
static int add_buffer(verify_layout_t *v, const lowering_t *l, const score_config_t *cfg, int32_t i, bool copy,
                      int64_t start, int64_t end, int64_t last_step, rs_error_t *err)
{
    if (!cfg->aliasing) {
        start = 0;
        end = last_step;
    }
    int64_t size = (l->flags[i] & FLAG_INTO) ? 0 : l->bytes[i], rem = size % cfg->alignment;
    if (rem && !checked_add(size, cfg->alignment - rem, &size))
        return error_set(err, RS_EINPUT, NULL, 0, 0, "'%s' overflows when aligned", l->routine->nodes[i].name);
    v->node[v->n] = i;
    v->copy[v->n] = copy;
    v->start[v->n] = start;
    v->end[v->n] = end;
    v->size[v->n] = size;
    v->n++;
    return RS_OK;
}

/* live_peak and its first step (the sum over the buffers live there), the
 * §3 greedy's height, the buffers and compute into out. */
static int finish(verify_layout_t *v, int64_t last_step, int64_t compute, footprint_t *out, rs_error_t *err)
{
    out->live_peak = 0;
    out->peak_step = 0;
    for (int64_t s = 0; s <= last_step; s++) {
        int64_t live = 0;
        for (int32_t b = 0; b < v->n; b++)
            if (v->start[b] <= s && s <= v->end[b])
                live = sat_add(live, v->size[b]);
        if (live > out->live_peak) {
            out->live_peak = live;
            out->peak_step = (int32_t)s;
        }
    }
    size_t cap = v->n ? (size_t)v->n : 1;
    int32_t *order = malloc(cap * sizeof *order);
    bool *placed = malloc(cap * sizeof *placed);
    taken_t *taken = malloc(cap * sizeof *taken);
    int rc = RS_OK;
    if (!order || !placed || !taken)
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory verifying");
    else if ((out->total = plain_greedy(v, order, placed, taken)) < 0)
        rc = error_set(err, RS_EINPUT, NULL, 0, 0, "arena height overflows 64 bits");
    out->buffers = v->n;
    out->compute = compute;
    free(order);
    free(placed);
    free(taken);
    return rc;
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
    int rc = layout_alloc(&v, nn, err);
    if (!rc && (!inl || !depth || !reads || !last))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory verifying");
    if (rc)
        goto done;
    place_inline(l, prefs, cfg->max_inline_depth, inl, depth);
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
    for (int32_t i = 0; i < N && !rc; i++) {
        if (inl[i])
            continue;
        bool resident = l->kind[i] != NODE_DEF;
        int64_t start = resident ? 0 : l->first_def[i], end = resident ? last_step : l->last_def[i];
        if (last[i] > end)
            end = last[i];
        if (resident || (l->flags[i] & FLAG_OUTPUT))
            end = last_step;
        rc = add_buffer(&v, l, cfg, i, false, start, end, last_step, err);
    }
    if (!rc)
        rc = finish(&v, last_step, compute, out, err);
done:
    free(inl);
    free(depth);
    free(reads);
    free(last);
    if (lay && !rc)
        *lay = v;
    else
        verify_layout_free(&v);
    return rc;
}

/* ---- DESIGN §14, the same plain way ------------------------------------- */

/* The schedule as a list: an original step s is s, node x's recompute step
 * is -(x + 1). */
typedef struct sched {
    const lowering_t *l;
    const uint8_t *inl;
    int32_t *seq, n;
} sched_t;

static int32_t sched_owner(const sched_t *q, int32_t e) { return e >= 0 ? q->l->step_owner[e] : -(e + 1); }

/* The step whose arguments e reads: a recompute step reads its node's definition's. */
static int32_t sched_args(const sched_t *q, int32_t e) { return e >= 0 ? e : q->l->first_def[-(e + 1)]; }

/* An inline node's own step does not run by itself. */
static bool sched_runs(const sched_t *q, int32_t e) { return e < 0 || !q->inl[q->l->step_owner[e]]; }

/* How many times reading arg reads materialized node x (§2: an inline
 * argument is replaced by its arguments, transitively). */
static int32_t reads_of(const sched_t *q, int32_t arg, int32_t x)
{
    if (!q->inl[arg])
        return arg == x;
    int32_t n = 0, s = q->l->first_def[arg];
    for (int32_t a = q->l->arg_off[s]; a < q->l->arg_off[s + 1]; a++)
        n += reads_of(q, q->l->args[a], x);
    return n;
}

static bool position_reads(const sched_t *q, int32_t p, int32_t x)
{
    if (!sched_runs(q, q->seq[p]))
        return false;
    int32_t s = sched_args(q, q->seq[p]);
    for (int32_t a = q->l->arg_off[s]; a < q->l->arg_off[s + 1]; a++)
        if (reads_of(q, q->l->args[a], x))
            return true;
    return false;
}

/* The cost of the inline definitions reading arg runs. */
static int64_t inline_cost(const sched_t *q, int32_t arg)
{
    if (!q->inl[arg])
        return 0;
    int64_t c = q->l->cost[arg];
    int32_t s = q->l->first_def[arg];
    for (int32_t a = q->l->arg_off[s]; a < q->l->arg_off[s + 1]; a++)
        c = sat_add(c, inline_cost(q, q->l->args[a]));
    return c;
}

/* Every materialized node position p reads gets p as a read: by its copy
 * once its recompute step has run, else by its buffer. */
static void mark_reads(const sched_t *q, int32_t arg, int32_t p, const int32_t *pos_rec, int64_t *end_buf,
                       int64_t *end_copy)
{
    if (q->inl[arg]) {
        int32_t s = q->l->first_def[arg];
        for (int32_t a = q->l->arg_off[s]; a < q->l->arg_off[s + 1]; a++)
            mark_reads(q, q->l->args[a], p, pos_rec, end_buf, end_copy);
        return;
    }
    int64_t *end = pos_rec[arg] >= 0 && p > pos_rec[arg] ? &end_copy[arg] : &end_buf[arg];
    if (p > *end)
        *end = p;
}

/* Applies the remat flip of x to q (DESIGN §14's sentence for it); false
 * when it does not apply. */
static bool apply_remat(sched_t *q, int32_t x, int32_t *u)
{
    const lowering_t *l = q->l;
    if (l->kind[x] != NODE_DEF || q->inl[x])
        return false; /* not materialized */
    if ((l->flags[x] & (FLAG_OUTPUT | FLAG_PINNED | FLAG_INTO)) || l->ndefs[x] != 1)
        return false; /* not a candidate */
    int32_t k = 0, d = -1;
    for (int32_t p = 0; p < q->n; p++) {
        if (q->seq[p] == l->first_def[x])
            d = p;
        if (position_reads(q, p, x))
            u[k++] = p;
    }
    if (k == 0 || d < 0)
        return false; /* no read */
    int32_t j = 0, best = u[0] - d;
    for (int32_t g = 1; g < k; g++)
        if (u[g] - u[g - 1] > best) {
            best = u[g] - u[g - 1];
            j = g;
        }
    if (j == 0)
        return false; /* the largest gap is the one before u1 */
    memmove(&q->seq[u[j] + 1], &q->seq[u[j]], (size_t)(q->n - u[j]) * sizeof *q->seq);
    q->seq[u[j]] = -(x + 1);
    q->n++;
    return true;
}

int verify_score_remat(const lowering_t *l, const uint8_t *prefs, const uint8_t *remat, const score_config_t *cfg,
                       footprint_t *out, int32_t *n_steps, verify_layout_t *lay, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int32_t N = l->n_nodes, S = l->n_steps;
    size_t nn = N ? (size_t)N : 1, ns = (size_t)S + nn;
    uint8_t *inl = calloc(nn, 1);
    int32_t *depth = calloc(nn, sizeof *depth), *u = malloc(ns * sizeof *u), *pos_orig = malloc(ns * sizeof *pos_orig),
            *pos_rec = malloc(nn * sizeof *pos_rec);
    int64_t *end_buf = malloc(nn * sizeof *end_buf), *end_copy = malloc(nn * sizeof *end_copy);
    sched_t q = { .l = l, .inl = inl, .seq = malloc(ns * sizeof *q.seq), .n = S };
    verify_layout_t v = { 0 };
    int rc = layout_alloc(&v, 2 * nn, err);
    if (!rc && (!inl || !depth || !u || !pos_orig || !pos_rec || !end_buf || !end_copy || !q.seq))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory verifying");
    if (rc)
        goto done;
    place_inline(l, prefs, cfg->max_inline_depth, inl, depth);
    for (int32_t s = 0; s < S; s++)
        q.seq[s] = s;
    for (int32_t x = N - 1; x >= 0; x--) /* descending node index */
        if (remat && remat[x])
            apply_remat(&q, x, u);
    int64_t last_step = q.n > 0 ? q.n - 1 : 0, compute = 0;
    for (int32_t i = 0; i < N; i++) {
        pos_rec[i] = -1;
        end_buf[i] = end_copy[i] = -1;
    }
    for (int32_t p = 0; p < q.n; p++) {
        if (q.seq[p] >= 0)
            pos_orig[q.seq[p]] = p;
        else
            pos_rec[-(q.seq[p] + 1)] = p;
    }
    for (int32_t p = 0; p < q.n; p++) {
        int32_t e = q.seq[p], s = sched_args(&q, e);
        if (!sched_runs(&q, e))
            continue;
        compute = sat_add(compute, e >= 0 ? l->step_cost[e] : l->cost[sched_owner(&q, e)]);
        for (int32_t a = l->arg_off[s]; a < l->arg_off[s + 1]; a++) {
            compute = sat_add(compute, inline_cost(&q, l->args[a]));
            mark_reads(&q, l->args[a], p, pos_rec, end_buf, end_copy);
        }
    }
    for (int32_t i = 0; i < N && !rc; i++) {
        if (inl[i])
            continue;
        bool resident = l->kind[i] != NODE_DEF;
        int64_t start = resident ? 0 : pos_orig[l->first_def[i]], end = resident ? last_step : pos_orig[l->last_def[i]];
        if (end_buf[i] > end)
            end = end_buf[i];
        if (resident || (l->flags[i] & FLAG_OUTPUT))
            end = last_step;
        rc = add_buffer(&v, l, cfg, i, false, start, end, last_step, err);
        if (!rc && pos_rec[i] >= 0)
            rc = add_buffer(&v, l, cfg, i, true, pos_rec[i], end_copy[i], last_step, err);
    }
    if (!rc)
        rc = finish(&v, last_step, compute, out, err);
    if (n_steps)
        *n_steps = q.n;
done:
    free(inl);
    free(depth);
    free(u);
    free(pos_orig);
    free(pos_rec);
    free(end_buf);
    free(end_copy);
    free(q.seq);
    if (lay && !rc)
        *lay = v;
    else
        verify_layout_free(&v);
    return rc;
}
