#include "canon.h"

#include <stdlib.h>
#include <string.h>

#include "sorted.h"

/* A search over canonical layouts, after MiniMalloc's idea: time is cut into
 * sections at every span end; each section has a floor (the top of what is
 * placed over it).  The next buffer always goes at the lowest floor, on the
 * leftmost such section: one of the unplaced buffers over that section whose
 * span's highest floor is that floor, or nothing (the floor rises to where a
 * buffer could go, leaving a gap).  A section whose floor plus the buffers
 * still to place over it exceeds the capacity prunes the branch. */

typedef struct canon {
    int32_t n, m;               /* buffers, sections */
    const int64_t *size;
    int32_t *lo, *hi;           /* section range of each buffer, inclusive */
    int64_t cap;
    int64_t *floor;             /* per section */
    int64_t *width;             /* per section: steps it covers */
    int64_t *rem;               /* per section: sizes of unplaced buffers over it */
    uint8_t *placed;
    int64_t *off;
    int32_t *by_section;        /* buffers over each section, CSR */
    int32_t *by_off;
    int64_t nodes, budget;
    int64_t *undo_val;          /* saved floors: placements and raises push, backtracking pops */
    int32_t *undo_sec;
    int64_t undo_n, undo_cap;
    int (*stop)(void *);
    void *stop_ud;
    bool stopped;
} canon_t;

static int64_t span_floor(const canon_t *c, int32_t b)
{
    int64_t f = 0;
    for (int32_t s = c->lo[b]; s <= c->hi[b]; s++)
        if (c->floor[s] > f)
            f = c->floor[s];
    return f;
}

static bool fits(const canon_t *c, int32_t lo, int32_t hi)
{
    for (int32_t s = lo; s <= hi; s++)
        if (c->floor[s] + c->rem[s] > c->cap)
            return false;
    return true;
}

/* Saves a section's floor; false when out of memory (the search stops). */
static bool push(canon_t *c, int32_t sec)
{
    if (c->undo_n == c->undo_cap) {
        /* raises along a path are bounded only by the distinct floors: grow */
        int64_t ncap = c->undo_cap * 2;
        int64_t *nv = realloc(c->undo_val, (size_t)ncap * sizeof *nv);
        if (nv)
            c->undo_val = nv;
        int32_t *ns = realloc(c->undo_sec, (size_t)ncap * sizeof *ns);
        if (ns)
            c->undo_sec = ns;
        if (!nv || !ns) {
            c->stopped = true;
            return false;
        }
        c->undo_cap = ncap;
    }
    c->undo_sec[c->undo_n] = sec;
    c->undo_val[c->undo_n++] = c->floor[sec];
    return true;
}

static void pop_to(canon_t *c, int64_t mark)
{
    while (c->undo_n > mark) {
        c->undo_n--;
        c->floor[c->undo_sec[c->undo_n]] = c->undo_val[c->undo_n];
    }
}

static bool search(canon_t *c, int32_t left)
{
    if (left == 0)
        return true;
    int64_t frame = c->undo_n; /* the raises this frame makes are undone on leaving */
    for (;;) {
        if (++c->nodes > c->budget || c->stopped)
            break;
        if (c->stop && (c->nodes & 4095) == 0 && c->stop(c->stop_ud)) {
            c->stopped = true;
            break;
        }
        /* the lowest floor among sections that still have buffers to take */
        int32_t s0 = -1;
        for (int32_t s = 0; s < c->m; s++)
            if (c->rem[s] > 0 && (s0 < 0 || c->floor[s] < c->floor[s0]))
                s0 = s;
        if (s0 < 0)
            break;
        int64_t f0 = c->floor[s0];
        int64_t raise_to = INT64_MAX;
        /* candidates: buffers over s0 that would sit exactly at f0,
         * those leaving the least gap under them first; identical ones
         * (same size and span) are tried once */
        int32_t cand[64];
        __int128 waste[64];
        int32_t nc = 0;
        for (int32_t k = c->by_off[s0]; k < c->by_off[s0 + 1] && nc < 64; k++) {
            int32_t b = c->by_section[k];
            if (c->placed[b])
                continue;
            int64_t f = span_floor(c, b);
            if (f != f0) {
                if (f < raise_to)
                    raise_to = f;
                continue;
            }
            if (f0 + c->size[b] > c->cap)
                continue;
            bool dup = false;
            for (int32_t i = 0; i < nc && !dup; i++)
                dup = c->size[cand[i]] == c->size[b] && c->lo[cand[i]] == c->lo[b] && c->hi[cand[i]] == c->hi[b];
            if (dup)
                continue;
            __int128 w = 0;
            for (int32_t sec = c->lo[b]; sec <= c->hi[b]; sec++)
                w += (__int128)(f0 - c->floor[sec]) * c->width[sec];
            int32_t j = nc++;
            while (j > 0 && waste[j - 1] > w) { /* stable: ties keep the section's order */
                cand[j] = cand[j - 1];
                waste[j] = waste[j - 1];
                j--;
            }
            cand[j] = b;
            waste[j] = w;
        }
        for (int32_t i = 0; i < nc; i++) {
            int32_t b = cand[i];
            int64_t mark = c->undo_n;
            bool saved = true;
            for (int32_t sec = c->lo[b]; sec <= c->hi[b] && saved; sec++)
                saved = push(c, sec);
            if (!saved) {
                pop_to(c, mark);
                break;
            }
            for (int32_t sec = c->lo[b]; sec <= c->hi[b]; sec++) {
                c->floor[sec] = f0 + c->size[b];
                c->rem[sec] -= c->size[b];
            }
            c->placed[b] = 1;
            c->off[b] = f0;
            if (fits(c, c->lo[b], c->hi[b]) && search(c, left - 1))
                return true;
            c->placed[b] = 0;
            for (int32_t sec = c->lo[b]; sec <= c->hi[b]; sec++)
                c->rem[sec] += c->size[b];
            pop_to(c, mark);
            if (c->stopped || c->nodes > c->budget)
                break;
        }
        if (c->stopped || c->nodes > c->budget)
            break;
        /* or leave a gap: s0's floor rises to the next place a buffer could go */
        if (raise_to == INT64_MAX || raise_to <= f0 || raise_to + c->rem[s0] > c->cap)
            break;
        if (!push(c, s0))
            break;
        c->floor[s0] = raise_to;
    }
    pop_to(c, frame);
    return false;
}

/* Whether buffer a is tried before b in a section, by the variant's rule:
 * 0 size, 1 span length, 2 area, 3 end (latest first). */
static bool before(int variant, const int64_t *aligned, const arena_buf_t *bufs, int32_t a, int32_t b)
{
    int64_t sa = aligned[a], sb = aligned[b];
    int64_t la = bufs[a].end - bufs[a].start, lb = bufs[b].end - bufs[b].start;
    switch (variant) {
    case 1:
        if (la != lb)
            return la > lb;
        return sa > sb;
    case 2: {
        __int128 aa = (__int128)sa * (la + 1), ab = (__int128)sb * (lb + 1);
        if (aa != ab)
            return aa > ab;
        return sa > sb;
    }
    case 3:
        if (bufs[a].end != bufs[b].end)
            return bufs[a].end > bufs[b].end;
        return sa > sb;
    default:
        if (sa != sb)
            return sa > sb;
        return la > lb;
    }
}

bool canon_fit(const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t cap, int variant, int64_t budget,
               int (*stop)(void *), void *stop_ud, int64_t *offsets, int64_t *nodes)
{
    /* sections start at every span start and after every span end */
    int64_t *cut = malloc(((size_t)n * 2 + 1) * sizeof *cut);
    canon_t c = { .n = n, .size = aligned, .cap = cap, .budget = budget, .stop = stop, .stop_ud = stop_ud };
    bool ok = false;
    if (!cut)
        return false;
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        cut[m++] = bufs[i].start;
        cut[m++] = bufs[i].end + 1;
    }
    int32_t u = sorted_unique(cut, m);
    c.m = u;
    size_t nn = n ? (size_t)n : 1, mm = (size_t)u + 1;
    c.lo = malloc(nn * sizeof *c.lo);
    c.hi = malloc(nn * sizeof *c.hi);
    c.floor = calloc(mm, sizeof *c.floor);
    c.width = calloc(mm, sizeof *c.width);
    c.rem = calloc(mm, sizeof *c.rem);
    c.placed = calloc(nn, 1);
    c.off = offsets;
    c.by_off = calloc(mm + 1, sizeof *c.by_off);
    if (!c.lo || !c.hi || !c.floor || !c.width || !c.rem || !c.placed || !c.by_off)
        goto done;
    for (int32_t sec = 0; sec + 1 < u; sec++)
        c.width[sec] = cut[sec + 1] - cut[sec];
    int64_t total = 0;
    int32_t left = 0;
    for (int32_t i = 0; i < n; i++) {
        c.lo[i] = sorted_last_le(cut, u, bufs[i].start);
        c.hi[i] = sorted_last_le(cut, u, bufs[i].end);
        offsets[i] = 0;
        if (aligned[i] == 0) {
            c.placed[i] = 1;
            continue;
        }
        left++;
        for (int32_t s = c.lo[i]; s <= c.hi[i]; s++) {
            c.rem[s] += aligned[i];
            c.by_off[s + 1]++;
            total++;
        }
    }
    for (int32_t s = 0; s < u; s++)
        if (c.rem[s] > cap)
            goto done; /* below the max-live bound: nothing to search */
    for (int32_t s = 0; s < u; s++)
        c.by_off[s + 1] += c.by_off[s];
    c.by_section = malloc(((size_t)total + 1) * sizeof *c.by_section);
    /* every placement saves its span; every raise one section: a section
     * can rise at most once per buffer over it, so this is enough */
    c.undo_cap = 2 * total + u + 1;
    c.undo_val = malloc((size_t)c.undo_cap * sizeof *c.undo_val);
    c.undo_sec = malloc((size_t)c.undo_cap * sizeof *c.undo_sec);
    if (!c.undo_val || !c.undo_sec)
        goto done;
    int32_t *fill = malloc(mm * sizeof *fill);
    if (!c.by_section || !fill) {
        free(fill);
        goto done;
    }
    memcpy(fill, c.by_off, (size_t)u * sizeof *fill);
    /* in each section, bigger buffers first: they are the hard ones */
    int32_t *order = malloc(nn * sizeof *order);
    if (!order) {
        free(fill);
        goto done;
    }
    for (int32_t i = 0; i < n; i++)
        order[i] = i;
    for (int32_t i = 1; i < n; i++)
        for (int32_t j = i; j > 0 && before(variant, aligned, bufs, order[j], order[j - 1]); j--) {
            int32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int32_t k = 0; k < n; k++) {
        int32_t i = order[k];
        if (aligned[i] == 0)
            continue;
        for (int32_t s = c.lo[i]; s <= c.hi[i]; s++)
            c.by_section[fill[s]++] = i;
    }
    free(order);
    free(fill);
    ok = search(&c, left);
done:
    if (nodes)
        *nodes += c.nodes;
    free(cut);
    free(c.lo);
    free(c.hi);
    free(c.floor);
    free(c.width);
    free(c.rem);
    free(c.placed);
    free(c.by_off);
    free(c.by_section);
    free(c.undo_val);
    free(c.undo_sec);
    return ok;
}
