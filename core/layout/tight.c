#include "layout/tight.h"

#include <stdlib.h>
#include <string.h>

#include "layout/bestfit.h"
#include "layout/canon.h"
#include "layout/timeline.h"
#include "util/checked.h"
#include "util/sorted.h"

/* the canonical search recurses once per buffer placed and keeps every
 * overlapping pair: beyond this many buffers it only takes windows of them */
#define TIGHT_CANON_MAX 2048
/* steps of the canonical search per unit of the budget (about 1.5 ms each) */
#define TIGHT_WORK_PER_ITERATION 750000
/* the most buffers a window of time re-packed by the canonical search holds */
#define TIGHT_WINDOW_MAX 1024

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

/* The smallest multiple of g at or above v (v itself when that overflows). */
static int64_t round_up(int64_t v, int64_t g)
{
    return v <= INT64_MAX - (g - 1) ? (v + g - 1) / g * g : v;
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
    int64_t lo = round_up(stats->lower_bound, g), hi = (*best - 1) / g * g;
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

/* The buffers that meet the steps [lo, hi], their spans cut to it. */
typedef struct window {
    arena_buf_t *bufs;
    int64_t *aligned, *off;
    int32_t *ids;
    int32_t n;
} window_t;

static void window_free(window_t *w)
{
    free(w->bufs);
    free(w->aligned);
    free(w->off);
    free(w->ids);
}

static bool in_window(const arena_buf_t *b, int64_t aligned, int64_t lo, int64_t hi)
{
    return aligned > 0 && b->start <= hi && b->end >= lo;
}

/* Fills w with the buffers that take space and meet [lo, hi]; false when
 * out of memory.  Only counts them (w->n) once they are more than max. */
static bool window_cut(window_t *w, const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t lo,
                       int64_t hi, int32_t max)
{
    w->n = 0;
    for (int32_t i = 0; i < n; i++)
        w->n += in_window(&bufs[i], aligned[i], lo, hi);
    if (w->n > max)
        return true;
    size_t nn = w->n ? (size_t)w->n : 1;
    *w = (window_t){ malloc(nn * sizeof *w->bufs), malloc(nn * sizeof *w->aligned), malloc(nn * sizeof *w->off),
                     malloc(nn * sizeof *w->ids), 0 };
    if (!w->bufs || !w->aligned || !w->off || !w->ids)
        return false;
    for (int32_t i = 0; i < n; i++) {
        if (!in_window(&bufs[i], aligned[i], lo, hi))
            continue;
        arena_buf_t b = bufs[i];
        b.size = aligned[i]; /* the window's own max-live counts what the layout places */
        b.start = b.start > lo ? b.start : lo;
        b.end = b.end < hi ? b.end : hi;
        w->bufs[w->n] = b;
        w->aligned[w->n] = aligned[i];
        w->ids[w->n++] = i;
    }
    return true;
}

/* One attempt at a window: packs its buffers as tight as their own
 * max-live (on multiples of g) with the canonical search, holds them
 * there and lays the rest out around them in order.  *height is what
 * that gives (INT64_MAX when the search found no such packing). */
static int repack_window(bestfit_t *p, const window_t *w, int64_t g, int64_t budget, const tight_options_t *o,
                         const int32_t *order, bool *pinned, int64_t *off, int64_t *height, tight_stats_t *stats,
                         rs_error_t *err)
{
    *height = INT64_MAX;
    canon_t *c = canon_new(w->bufs, w->aligned, w->n);
    if (!c)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int64_t cap = round_up(arena_max_live(w->bufs, w->n, 1, NULL), g);
    canon_result_t r = canon_run(c, cap, budget, o ? o->stop : NULL, o ? o->stop_ud : NULL, w->off, &stats->search_work);
    canon_free(c);
    stats->windows++;
    if (r != CANON_FOUND)
        return RS_OK;
    for (int32_t k = 0; k < w->n; k++) {
        pinned[w->ids[k]] = true;
        off[w->ids[k]] = w->off[k];
    }
    int rc = bestfit_run_pinned(p, order, pinned, off, height, err);
    for (int32_t k = 0; k < w->n; k++)
        pinned[w->ids[k]] = false;
    stats->iterations++;
    return rc;
}

/* The step in the middle of the span of the lowest-indexed buffer that
 * reaches height. */
static int64_t top_step(const arena_buf_t *bufs, const int64_t *aligned, const int64_t *off, int32_t n,
                        int64_t height)
{
    for (int32_t i = 0; i < n; i++) {
        int64_t len;
        if (aligned[i] > 0 && off[i] + aligned[i] == height)
            return checked_sub(bufs[i].end, bufs[i].start, &len) ? bufs[i].start + len / 2 : bufs[i].start;
    }
    return 0;
}

/* Where the whole instance is too big for the canonical search: windows
 * of time around peak (the max-live step) and around where the best layout
 * reaches its height, widening while they hold at most TIGHT_WINDOW_MAX
 * buffers, each re-packed as tightly as it can be (repack_window).  The
 * height is usually made in one such place, and the greedy wastes there
 * what the search does not. */
static int repair_windows(bestfit_t *p, const arena_buf_t *bufs, const int64_t *aligned, int32_t n,
                          int64_t alignment, int64_t peak, const tight_options_t *o, int64_t budget,
                          const int32_t *order, int64_t *offsets, int64_t *best, tight_stats_t *stats,
                          rs_error_t *err)
{
    size_t nn = n ? (size_t)n : 1;
    int64_t *off = malloc(nn * sizeof *off), *ends = malloc(nn * 2 * sizeof *ends);
    bool *pinned = calloc(nn, sizeof *pinned);
    if (!off || !ends || !pinned) {
        free(off);
        free(ends);
        free(pinned);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    /* windows widen by span ends, not steps: a step count means nothing
     * across routines, and most steps start or end no buffer */
    for (int32_t i = 0; i < n; i++) {
        ends[2 * i] = bufs[i].start;
        ends[2 * i + 1] = bufs[i].end;
    }
    int32_t m = sorted_unique(ends, 2 * n);
    int64_t centers[2] = { peak, top_step(bufs, aligned, offsets, n, *best) };
    int64_t g = size_gcd(aligned, n, alignment);
    int rc = RS_OK;
    for (int ci = 0; ci < 2 && m > 0 && !rc && *best > stats->lower_bound; ci++) {
        if (ci == 1 && centers[1] == centers[0])
            break;
        int32_t at = sorted_last_le(ends, m, centers[ci]), seen = -1;
        at = at < 0 ? 0 : at;
        for (int64_t k = 0; !rc && *best > stats->lower_bound; k = k ? 2 * k : 1) {
            if (o && o->stop && o->stop(o->stop_ud))
                break;
            int32_t lo = k > at ? 0 : at - (int32_t)k, hi = k > m - 1 - at ? m - 1 : at + (int32_t)k;
            window_t win = { 0 };
            if (!window_cut(&win, bufs, aligned, n, ends[lo], ends[hi], TIGHT_WINDOW_MAX)) {
                window_free(&win);
                rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
                break;
            }
            bool too_big = win.n > TIGHT_WINDOW_MAX, same = win.n == seen;
            seen = win.n;
            int64_t h = INT64_MAX;
            if (!too_big && !same)
                rc = repack_window(p, &win, g, budget, o, order, pinned, off, &h, stats, err);
            window_free(&win);
            if (!rc && h < *best) {
                *best = h;
                memcpy(offsets, off, nn * sizeof *off);
            }
            if (too_big || (lo == 0 && hi == m - 1))
                break;
        }
    }
    free(off);
    free(ends);
    free(pinned);
    return rc;
}

int tight_layout(const arena_buf_t *bufs, int32_t n, int64_t alignment, const tight_options_t *o, int64_t *offsets,
                 int64_t *height, tight_stats_t *stats, rs_error_t *err)
{
    memset(stats, 0, sizeof *stats);
    bestfit_t *p;
    int rc = bestfit_new(bufs, n, alignment, &p, err);
    if (rc)
        return rc;
    size_t nn = n ? (size_t)n : 1;
    int32_t *order = malloc(nn * sizeof *order), *pos = malloc(nn * sizeof *pos), *top = malloc(nn * sizeof *top);
    int64_t *off = malloc(nn * sizeof *off), *cur_off = malloc(nn * sizeof *cur_off);
    if (!order || !pos || !top || !off || !cur_off) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    bestfit_greedy_order(p, order);
    int64_t cur;
    if ((rc = bestfit_run(p, order, offsets, &cur, err)))
        goto done;
    stats->iterations = 1;
    stats->greedy_height = cur;
    int64_t peak;
    stats->lower_bound = arena_max_live(bufs, n, alignment, &peak);
    int64_t best = cur;
    const int64_t *aligned = bestfit_aligned(p);
    memcpy(cur_off, offsets, nn * sizeof *cur_off);
    /* the timeline layout costs a fraction of a greedy run and wins where
     * buffers die in about the order they were made */
    if ((rc = timeline_layout(bufs, aligned, n, off, &stats->timeline_height, err)))
        goto done;
    if (stats->timeline_height < best) {
        best = stats->timeline_height;
        memcpy(offsets, off, nn * sizeof *off);
    }
    int64_t budget = o && o->max_iterations > 0 ? o->max_iterations : 2000;
    uint64_t seed = (o && o->seed ? o->seed : 0x9e3779b97f4a7c15ull) | 1;
    /* too big for the canonical search as a whole: windows of it, each
     * with a sixteenth of the steps the budget buys */
    if (n > TIGHT_CANON_MAX && best > stats->lower_bound &&
        (rc = repair_windows(p, bufs, aligned, n, alignment, peak, o, budget * TIGHT_WORK_PER_ITERATION / 16,
                             order, offsets, &best, stats, err)))
        goto done;
    /* the iterated greedy gets a tenth of the budget, in runs of 2,048
     * buffers' placements (a run costs in proportion to the buffers): it
     * warms the canonical search up, and on the large real workloads
     * measured it never found anything in ten times as many runs */
    int64_t greedy_budget = n <= TIGHT_CANON_MAX ? budget / 10 : budget / 10 * TIGHT_CANON_MAX / n;
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
        if ((rc = bestfit_run(p, order, off, &h, err)))
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
    bestfit_free(p);
    return rc;
}
