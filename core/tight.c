#include "tight.h"

#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "placer.h"

static uint64_t next(uint64_t *s)
{
    /* xorshift64*: small, fast, and the same everywhere */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 2685821657736338717ull;
}

/* Moves order[from] to position to (to < from), shifting the rest. */
static void move_earlier(int32_t *order, int32_t from, int32_t to)
{
    int32_t v = order[from];
    memmove(order + to + 1, order + to, (size_t)(from - to) * sizeof *order);
    order[to] = v;
}

/* ---- a search that sweeps time --------------------------------------------
 * In start order, a buffer conflicts only with the buffers still alive when
 * it starts, so placing buffers at their starts, each into a gap of the
 * space the living leave, can build any layout.  The search tries each gap's
 * bottom and top for each buffer, depth first, under a capacity; perfect
 * packings (every byte used at the peak) are what it is good at. */

typedef struct live {
    int64_t lo, hi;  /* offsets [lo, hi) */
    int64_t end;     /* its last step */
} live_t;

typedef struct sweep {
    const arena_buf_t *bufs;
    const int64_t *aligned;
    const int32_t *order; /* by start, then size descending */
    int32_t n;
    int64_t cap;
    int64_t nodes, budget;
    int64_t *off;
    live_t *stack;        /* the living at each depth, one copy per depth */
    int32_t *count;
    int (*stop)(void *);
    void *stop_ud;
    bool stopped;
} sweep_t;

/* Places order[k..] given the living in s->stack at depth k. */
static bool sweep_place(sweep_t *s, int32_t k)
{
    if (k == s->n)
        return true;
    if (++s->nodes > s->budget || s->stopped)
        return false;
    if (s->stop && (s->nodes & 1023) == 0 && s->stop(s->stop_ud)) {
        s->stopped = true;
        return false;
    }
    int32_t b = s->order[k];
    int64_t size = s->aligned[b], start = s->bufs[b].start;
    const live_t *prev = s->stack + (size_t)k * (size_t)s->n;
    live_t *cur = s->stack + (size_t)(k + 1) * (size_t)s->n;
    /* the living at this start, in offset order */
    int32_t m = 0;
    for (int32_t i = 0; i < s->count[k]; i++)
        if (prev[i].end >= start)
            cur[m++] = prev[i];
    if (size == 0) {
        s->off[b] = 0;
        s->count[k + 1] = m;
        return sweep_place(s, k + 1);
    }
    /* candidate offsets: each gap's bottom and top, the tightest gaps first */
    int64_t cand[128], gapw[128]; /* a frame per buffer: kept small for the stack */
    int32_t nc = 0;
    int64_t at = 0;
    for (int32_t i = 0; i <= m && nc < (int32_t)(sizeof cand / sizeof cand[0]) - 2; i++) {
        int64_t gap_end = i < m ? cur[i].lo : s->cap;
        if (gap_end - at >= size) {
            gapw[nc] = gap_end - at;
            cand[nc++] = at;
            if (gap_end - size != at) {
                gapw[nc] = gap_end - at;
                cand[nc++] = gap_end - size;
            }
        }
        if (i < m && cur[i].hi > at)
            at = cur[i].hi;
    }
    for (int32_t i = 1; i < nc; i++) /* stable: bottoms stay before tops */
        for (int32_t j = i; j > 0 && gapw[j] < gapw[j - 1]; j--) {
            int64_t tw = gapw[j], tc = cand[j];
            gapw[j] = gapw[j - 1];
            cand[j] = cand[j - 1];
            gapw[j - 1] = tw;
            cand[j - 1] = tc;
        }
    for (int32_t c = 0; c < nc; c++) {
        /* insert b's interval keeping offset order */
        live_t me = { cand[c], cand[c] + size, s->bufs[b].end };
        int32_t j = 0;
        live_t *dst = cur;
        while (j < m && dst[j].lo < me.lo)
            j++;
        memmove(dst + j + 1, dst + j, (size_t)(m - j) * sizeof *dst);
        dst[j] = me;
        s->count[k + 1] = m + 1;
        s->off[b] = cand[c];
        if (sweep_place(s, k + 1))
            return true;
        memmove(dst + j, dst + j + 1, (size_t)(m - j) * sizeof *dst);
    }
    return false;
}

static int cmp_sweep_order(const void *pa, const void *pb, const arena_buf_t *bufs, const int64_t *aligned)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    if (bufs[a].start != bufs[b].start)
        return bufs[a].start < bufs[b].start ? -1 : 1;
    if (aligned[a] != aligned[b])
        return aligned[a] > aligned[b] ? -1 : 1;
    if (bufs[a].end != bufs[b].end)
        return bufs[a].end > bufs[b].end ? -1 : 1;
    return (a > b) - (a < b);
}

/* Insertion sort with context (n is small where the sweep is used). */
static void sort_sweep(int32_t *order, int32_t n, const arena_buf_t *bufs, const int64_t *aligned)
{
    for (int32_t i = 1; i < n; i++)
        for (int32_t j = i; j > 0 && cmp_sweep_order(&order[j], &order[j - 1], bufs, aligned) < 0; j--) {
            int32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* Tries to lay bufs out within cap; true with offsets filled. */
static bool sweep_fit(const arena_buf_t *bufs, const int64_t *aligned, const int32_t *order, int32_t n, int64_t cap,
                      int64_t budget, const tight_options_t *o, int64_t *offsets, int64_t *nodes)
{
    sweep_t s = { bufs, aligned, order, n, cap, 0, budget, offsets, NULL, NULL, o ? o->stop : NULL,
                  o ? o->stop_ud : NULL, false };
    s.stack = malloc(((size_t)n + 1) * (size_t)n * sizeof *s.stack);
    s.count = calloc((size_t)n + 1, sizeof *s.count);
    bool ok = s.stack && s.count && sweep_place(&s, 0);
    *nodes += s.nodes;
    free(s.stack);
    free(s.count);
    return ok;
}

int tight_layout(const arena_buf_t *bufs, int32_t n, int64_t alignment, const tight_options_t *o, int64_t *offsets,
                 int64_t *height, tight_stats_t *stats, rs_error_t *err)
{
    memset(stats, 0, sizeof *stats);
    placer_t *p;
    int rc = placer_new(bufs, n, alignment, &p, err);
    if (rc)
        return rc;
    size_t nn = n ? (size_t)n : 1;
    int32_t *order = malloc(nn * sizeof *order), *pos = malloc(nn * sizeof *pos), *top = malloc(nn * sizeof *top);
    int64_t *off = malloc(nn * sizeof *off), *cur_off = malloc(nn * sizeof *cur_off);
    if (!order || !pos || !top || !off || !cur_off) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    placer_greedy_order(p, order);
    int64_t cur;
    if ((rc = placer_run(p, order, offsets, &cur, err)))
        goto done;
    stats->iterations = 1;
    stats->greedy_height = cur;
    stats->lower_bound = arena_max_live(bufs, n, alignment, NULL);
    int64_t best = cur;
    const int64_t *aligned = placer_aligned(p);
    memcpy(cur_off, offsets, nn * sizeof *cur_off);
    int64_t budget = o && o->max_iterations > 0 ? o->max_iterations : 2000;
    uint64_t seed = (o && o->seed ? o->seed : 0x9e3779b97f4a7c15ull) | 1;
    while (best > stats->lower_bound && stats->iterations < budget) {
        if (o && o->stop && (stats->iterations & 31) == 0 && o->stop(o->stop_ud))
            break;
        /* the buffers that reach the current height are what to move */
        int32_t nt = 0;
        for (int32_t i = 0; i < n; i++)
            if (aligned[i] > 0 && cur_off[i] + aligned[i] == cur)
                top[nt++] = i;
        if (!nt)
            break;
        for (int32_t k = 0; k < n; k++)
            pos[order[k]] = k;
        int32_t victim = top[next(&seed) % (uint64_t)nt];
        int32_t from = pos[victim];
        if (from == 0)
            continue;
        int32_t to = (int32_t)(next(&seed) % (uint64_t)from);
        move_earlier(order, from, to);
        int64_t h;
        if ((rc = placer_run(p, order, off, &h, err)))
            goto done;
        stats->iterations++;
        if (h <= cur) {
            /* sideways moves are kept too: plateaus are where the search walks */
            cur = h;
            int64_t *t = cur_off;
            cur_off = off;
            off = t;
            if (h < best) {
                best = h;
                memcpy(offsets, cur_off, nn * sizeof *cur_off);
            }
        } else {
            memmove(order + to, order + to + 1, (size_t)(from - to) * sizeof *order); /* undo */
            order[from] = victim;
        }
    }
    /* then canonical searches, a portfolio of candidate orders, at the
     * lower bound and a little above it */
    if (best > stats->lower_bound && n <= 2048) { /* the search recurses once per buffer */
        int64_t *coff = malloc(nn * sizeof *coff), nodes = 0;
        int64_t step = alignment > 1 ? alignment : 1;
        static const int share[] = { 0, 2, 6, 12 }; /* of the gap to the best, in 32nds */
        for (int k = 0; coff && k < 4 && best > stats->lower_bound; k++) {
            int64_t capk = stats->lower_bound + (best - stats->lower_bound) * share[k] / 32;
            capk = (capk + step - 1) / step * step;
            if (capk >= best)
                break;
            bool found = false;
            for (int v = 0; v < CANON_VARIANTS && !found; v++) {
                if (o && o->stop && o->stop(o->stop_ud))
                    break;
                if (canon_fit(bufs, aligned, n, capk, v, budget * 10, o ? o->stop : NULL, o ? o->stop_ud : NULL, coff,
                              &nodes)) {
                    int64_t h = 0;
                    for (int32_t i = 0; i < n; i++)
                        if (coff[i] + aligned[i] > h)
                            h = coff[i] + aligned[i];
                    if (h < best) {
                        best = h;
                        memcpy(offsets, coff, nn * sizeof *coff);
                    }
                    found = true;
                }
            }
            if (found)
                break;
        }
        stats->iterations += nodes;
        free(coff);
    }
    /* then the sweep, from the lower bound up to what is already known */
    if (best > stats->lower_bound && n <= 1024) {
        int32_t *sorder = malloc(nn * sizeof *sorder);
        int64_t *soff = malloc(nn * sizeof *soff);
        if (sorder && soff) {
            for (int32_t i = 0; i < n; i++)
                sorder[i] = i;
            sort_sweep(sorder, n, bufs, aligned);
            int64_t nodes = 0, per = budget * 50;
            int64_t step = alignment > 1 ? alignment : 1;
            /* a few capacities between the bound and the best: the first that fits wins */
            for (int k = 0; k <= 8 && best > stats->lower_bound; k++) {
                int64_t capk = stats->lower_bound + (best - stats->lower_bound) * k / 16;
                capk = (capk + step - 1) / step * step;
                if (capk >= best)
                    break;
                if (sweep_fit(bufs, aligned, sorder, n, capk, per, o, soff, &nodes)) {
                    int64_t h = 0;
                    for (int32_t i = 0; i < n; i++)
                        if (soff[i] + aligned[i] > h)
                            h = soff[i] + aligned[i];
                    if (h < best) {
                        best = h;
                        memcpy(offsets, soff, nn * sizeof *soff);
                    }
                    break;
                }
            }
            stats->iterations += nodes;
        }
        free(sorder);
        free(soff);
    }
    *height = best;
    stats->optimal = best <= stats->lower_bound;
done:
    free(order);
    free(pos);
    free(top);
    free(off);
    free(cur_off);
    placer_free(p);
    return rc;
}
