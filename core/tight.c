#include "tight.h"

#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "placer.h"

/* the canonical search recurses once per buffer placed and keeps every
 * overlapping pair: beyond this many buffers only the iterated greedy runs */
#define TIGHT_CANON_MAX 2048
/* steps of the canonical search per unit of the budget (about 1.5 ms each) */
#define TIGHT_WORK_PER_ITERATION 750000

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

/* The greatest common divisor of the sizes: every canonical layout's
 * offsets are sums of sizes, so heights worth probing are its multiples. */
static int64_t size_gcd(const int64_t *aligned, int32_t n, int64_t alignment)
{
    int64_t g = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t a = aligned[i], b = g;
        while (b) {
            int64_t t = a % b;
            a = b;
            b = t;
        }
        g = a;
    }
    return g > 0 ? g : (alignment > 0 ? alignment : 1);
}

static int64_t height_of(const int64_t *off, const int64_t *aligned, int32_t n)
{
    int64_t h = 0;
    for (int32_t i = 0; i < n; i++)
        if (off[i] + aligned[i] > h)
            h = off[i] + aligned[i];
    return h;
}

/* Probes capacities with the canonical search: the lower bound first (a
 * perfect packing is common and proves itself optimal), then a bisection
 * between what is ruled out and the best found.  A probe that runs out of
 * its share counts as a failure (so the result depends only on the
 * budget); one that exhausts its tree proves nothing fits that low, which
 * stats->proven_bound records. */
static int probe_caps(const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t alignment,
                      const tight_options_t *o, int64_t budget, int64_t *offsets, int64_t *best,
                      tight_stats_t *stats, rs_error_t *err)
{
    size_t nn = n ? (size_t)n : 1;
    int64_t *coff = malloc(nn * sizeof *coff);
    canon_t *c = canon_new(bufs, aligned, n); /* the same buffers for every probe */
    if (!coff || !c) {
        free(coff);
        canon_free(c);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int64_t g = size_gcd(aligned, n, alignment), used = 0;
    int64_t lo = (stats->lower_bound + g - 1) / g * g, hi = (*best - 1) / g * g;
    int (*stop)(void *) = o ? o->stop : NULL;
    void *stop_ud = o ? o->stop_ud : NULL;
    for (int probe = 0; lo <= hi && used < budget; probe++) {
        if (stop && stop(stop_ud))
            break;
        /* the bound gets a quarter of the budget, each bisection step an eighth */
        int64_t cap = probe == 0 ? lo : lo + (hi - lo) / g / 2 * g;
        int64_t share = probe == 0 ? budget / 4 : budget / 8;
        if (share > budget - used)
            share = budget - used;
        int64_t before = used;
        canon_result_t r = canon_run(c, cap, share, stop, stop_ud, coff, &used);
        stats->probes++;
        stats->search_work += used - before;
        if (r == CANON_FOUND) {
            int64_t h = height_of(coff, aligned, n);
            if (h < *best) {
                *best = h;
                memcpy(offsets, coff, nn * sizeof *coff);
            }
            hi = (h - 1) / g * g;
        } else {
            /* nothing fits in cap, so in nothing less; and a best height is a multiple of g */
            if (r == CANON_INFEASIBLE && cap + g > stats->proven_bound)
                stats->proven_bound = cap + g;
            lo = cap + g;
        }
    }
    free(coff);
    canon_free(c);
    return RS_OK;
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
    /* where the canonical search runs, the iterated greedy only warms it up;
     * beyond it, a greedy run costs in proportion to the buffers, so the
     * budget buys as many placements as 2,048-buffer runs would make */
    int64_t greedy_budget = n <= TIGHT_CANON_MAX ? budget / 10 : budget * TIGHT_CANON_MAX / n;
    if (greedy_budget < 1)
        greedy_budget = 1;
    while (best > stats->lower_bound && stats->iterations < greedy_budget) {
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
    /* then the canonical search, from the lower bound up (see probe_caps) */
    if (best > stats->lower_bound && n <= TIGHT_CANON_MAX && stats->lower_bound < INT64_MAX / 2)
        rc = probe_caps(bufs, aligned, n, alignment, o, budget * TIGHT_WORK_PER_ITERATION, offsets, &best, stats, err);
    *height = best;
    stats->optimal = best <= stats->lower_bound || best <= stats->proven_bound;
done:
    free(order);
    free(pos);
    free(top);
    free(off);
    free(cur_off);
    placer_free(p);
    return rc;
}
