#include "layout/canon.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/sorted.h"
#include "util/vec.h"

/* A complete search over canonical layouts, after MiniMalloc (Moffitt,
 * ASPLOS 2023).  Time is cut into sections at every span start and after
 * every span end.  Each unplaced buffer has a lowest offset (the top of the
 * placed buffers it overlaps); a canonical layout places buffers at those
 * offsets in non-decreasing (offset, rank) order, so each layout is reached
 * once.  Pruned: a candidate at or above the lowest top any unplaced buffer
 * could reach (it would leave a gap that buffer fits in); a section whose
 * floor plus the buffers still to go over it passes the capacity; the other
 * candidates of a node once a buffer with nothing over it has failed.  When
 * the placed buffers cut time into pieces no unplaced buffer crosses, each
 * piece is solved on its own.  Ranks come from a static preorder; three
 * preorders take turns with a step limit that doubles.  Most candidates
 * fail the section check, so it runs first on the state before placing
 * (may_fit), and after placing only where the placement changed something
 * (still_fits). */

enum { S_OK, S_NONE, S_ABORT };

/* what an undo record restores */
enum { U_MIN_OFF, U_FLOOR, U_LOW, U_NLOW };

typedef struct undo {
    int32_t kind, i;
    int64_t v;
} undo_t;

struct canon {
    int32_t n, m;
    const int64_t *size;
    const arena_buf_t *bufs;
    int64_t cap;
    int32_t *lo, *hi;            /* section range of each buffer, inclusive */
    int32_t *ov_at, *ov;         /* overlapping buffers, CSR */
    int32_t *sec_at, *sec;       /* buffers over each section, CSR */
    int32_t *cuts;               /* unplaced buffers crossing from section s to s + 1 */
    int64_t *floor, *total;      /* per section: the top of the last buffer placed over it; sizes left */
    int64_t *low;                /* per section: the lowest offset an unplaced buffer over it can take */
    int32_t *nlow;               /* per section: how many unplaced buffers over it are at low */
    int64_t *min_off;            /* per buffer: the lowest offset it can take now */
    int32_t *rank;               /* per buffer: its place in the current piece's preorder */
    uint8_t *placed;
    int64_t *sol;
    int32_t *stamp, stamp_now;   /* sections already marked this placement */
    int32_t *affected, n_affected; /* sections whose lowest offset the last placement recounted */
    undo_t *undo;                /* old values, restored when a placement is taken back */
    int32_t undo_n, undo_cap;
    int32_t *pool;               /* the pieces' buffer lists, a stack */
    int32_t pool_n, pool_cap;
    int heuristic;
    int64_t work, work_limit;    /* steps done (a deterministic measure of time) and where to stop */
    int64_t nodes;
    int (*stop)(void *);
    void *stop_ud;
    bool failed;                 /* out of memory or stopped: abort */
    int64_t max_total;           /* the largest section total (max-live); INT64_MAX: the sizes overflow */
};

/* Reserves k slots on the pool; the returned base stays valid as an index. */
static bool pool_take(canon_t *c, int32_t k, int32_t *base)
{
    if (vec_reserve((void **)&c->pool, &c->pool_cap, (int64_t)c->pool_n + k, sizeof *c->pool)) {
        c->failed = true;
        return false;
    }
    *base = c->pool_n;
    c->pool_n += k;
    return true;
}

static bool undo_push(canon_t *c, int kind, int32_t i, int64_t v)
{
    if (vec_reserve((void **)&c->undo, &c->undo_cap, (int64_t)c->undo_n + 1, sizeof *c->undo)) {
        c->failed = true;
        return false;
    }
    c->undo[c->undo_n++] = (undo_t){ kind, i, v };
    return true;
}

typedef struct key {
    int64_t k[3];
    int32_t b;
} prekey_t;

static int cmp_key(const void *pa, const void *pb)
{
    const prekey_t *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a->k[i] != b->k[i])
            return a->k[i] > b->k[i] ? -1 : 1; /* larger first */
    return (a->b > b->b) - (a->b < b->b);
}

typedef struct cand {
    int64_t off;
    int32_t rank, b;
} cand_t;

static int cmp_cand(const void *pa, const void *pb)
{
    const cand_t *a = pa, *b = pb;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Ranks the piece's buffers by the current preorder: each buffer's span
 * width (W), area (A) and the largest total still to place over one of its
 * sections (T), in the heuristic's order of those three. */
static bool rank_piece(canon_t *c, const int32_t *piece, int32_t np)
{
    static const char *const order[CANON_VARIANTS] = { "WAT", "TAW", "TWA" };
    prekey_t *keys = malloc(((size_t)np + 1) * sizeof *keys);
    if (!keys) {
        c->failed = true;
        return false;
    }
    for (int32_t i = 0; i < np; i++) {
        int32_t b = piece[i];
        int64_t width = c->bufs[b].end - c->bufs[b].start + 1, total = 0;
        for (int32_t s = c->lo[b]; s <= c->hi[b]; s++)
            if (c->total[s] > total)
                total = c->total[s];
        int64_t area = c->size[b] > INT64_MAX / width ? INT64_MAX : c->size[b] * width;
        keys[i].b = b;
        for (int k = 0; k < 3; k++) {
            char h = order[c->heuristic][k];
            keys[i].k[k] = h == 'W' ? width : h == 'A' ? area : total;
        }
    }
    qsort(keys, (size_t)np, sizeof *keys, cmp_key);
    for (int32_t i = 0; i < np; i++)
        c->rank[keys[i].b] = i;
    free(keys);
    return true;
}

static int search(canon_t *c, int32_t piece_at, int32_t np, int32_t slo, int32_t shi, int64_t last_off,
                  int32_t last_rank);

/* Solves a piece on its own: its own preorder, canonical from offset 0. */
static int solve_piece(canon_t *c, int32_t piece_at, int32_t np, int32_t slo, int32_t shi)
{
    int32_t *saved = malloc(((size_t)np + 1) * sizeof *saved);
    if (!saved) {
        c->failed = true;
        return S_ABORT;
    }
    for (int32_t i = 0; i < np; i++)
        saved[i] = c->rank[c->pool[piece_at + i]];
    int st = rank_piece(c, c->pool + piece_at, np) ? search(c, piece_at, np, slo, shi, 0, 0) : S_ABORT;
    for (int32_t i = 0; i < np; i++)
        c->rank[c->pool[piece_at + i]] = saved[i];
    free(saved);
    return st;
}

/* Solves [slo, shi] as the pieces its zero cuts (where no unplaced buffer
 * crosses) make of it, in time order, each with the unplaced buffers of the
 * piece at piece_at that lie in it (in their order there).  No unplaced
 * buffer crosses a cut, so one pass sorts them into their pieces. */
static int solve_split(canon_t *c, int32_t piece_at, int32_t np, int32_t slo, int32_t shi)
{
    int32_t n_pieces = 1;
    for (int32_t s = slo; s < shi; s++)
        n_pieces += c->cuts[s] == 0;
    /* on the pool: the buffers by piece, then each piece's first section,
     * then where each piece's buffers end */
    int32_t base;
    if (!pool_take(c, np + 2 * n_pieces, &base))
        return S_ABORT;
    int32_t *bufs = c->pool + base, *starts = bufs + np, *ends = starts + n_pieces;
    int32_t k = 0;
    starts[k++] = slo;
    for (int32_t s = slo; s < shi; s++)
        if (c->cuts[s] == 0)
            starts[k++] = s + 1;
    /* a counting sort, stable: ends[p] counts piece p's buffers, then
     * (summed) where they start, then (filled) where they end */
    memset(ends, 0, (size_t)n_pieces * sizeof *ends);
    for (int32_t i = 0; i < np; i++) {
        int32_t o = c->pool[piece_at + i];
        if (!c->placed[o])
            ends[sorted_last_le32(starts, n_pieces, c->lo[o])]++;
    }
    for (int32_t p = 0, sum = 0; p < n_pieces; p++) {
        int32_t cnt = ends[p];
        ends[p] = sum;
        sum += cnt;
    }
    for (int32_t i = 0; i < np; i++) {
        int32_t o = c->pool[piece_at + i];
        if (!c->placed[o])
            bufs[ends[sorted_last_le32(starts, n_pieces, c->lo[o])]++] = o;
    }
    int st = S_OK;
    for (int32_t p = 0, at = 0; p < n_pieces && st == S_OK; p++) {
        /* the pool may move while a piece is solved: read it afresh */
        int32_t from = c->pool[base + np + p], end = c->pool[base + np + n_pieces + p];
        int32_t to = p + 1 < n_pieces ? c->pool[base + np + p + 1] - 1 : shi;
        if (end > at)
            st = solve_piece(c, base + at, end - at, from, to);
        at = end;
    }
    c->pool_n = base;
    return st;
}

/* After b's placement: the pieces its removal cuts the current one into,
 * each solved on its own, or the same piece searched on.  The piece had no
 * zero cut before (it was split at every one), so the new ones are b's. */
static int decompose(canon_t *c, int32_t piece_at, int32_t np, int32_t slo, int32_t shi, int32_t b)
{
    int32_t ncut = 0;
    for (int32_t s = c->lo[b]; s < c->hi[b]; s++)
        if (--c->cuts[s] == 0)
            ncut++;
    int st = ncut == 0 ? search(c, piece_at, np, slo, shi, c->sol[b], c->rank[b])
                       : solve_split(c, piece_at, np, slo, shi);
    for (int32_t s = c->lo[b]; s < c->hi[b]; s++)
        c->cuts[s]++;
    return st;
}

/* Recounts section s's lowest offset and how many unplaced buffers sit at it. */
static bool recount_low(canon_t *c, int32_t s)
{
    c->work += c->sec_at[s + 1] - c->sec_at[s];
    int64_t low = INT64_MAX;
    int32_t at = 0;
    for (int32_t k = c->sec_at[s]; k < c->sec_at[s + 1]; k++) {
        int32_t o = c->sec[k];
        if (c->placed[o])
            continue;
        if (c->min_off[o] < low) {
            low = c->min_off[o];
            at = 0;
        }
        if (c->min_off[o] == low)
            at++;
    }
    if (!undo_push(c, U_LOW, s, c->low[s]) || !undo_push(c, U_NLOW, s, c->nlow[s]))
        return false;
    c->low[s] = low;
    c->nlow[s] = at;
    return true;
}

/* Buffer o leaves offset old (placed there, or rising from it): each
 * section over it where old was the lowest has one fewer at its low; the
 * sections left with none are queued to recount. */
static bool leave_low(canon_t *c, int32_t o, int64_t old, int32_t *na)
{
    for (int32_t s = c->lo[o]; s <= c->hi[o]; s++) {
        if (c->low[s] != old || c->stamp[s] == c->stamp_now)
            continue;
        if (!undo_push(c, U_NLOW, s, c->nlow[s]))
            return false;
        if (--c->nlow[s] == 0) {
            c->stamp[s] = c->stamp_now;
            c->affected[(*na)++] = s;
        }
    }
    return true;
}

/* Places b at its lowest offset; the sections' floors and the unplaced
 * buffers' lowest offsets follow.  Sets *hat to whether anything unplaced
 * overlaps b (a buffer with nothing over it is "hatless").  False when out
 * of memory. */
static bool place(canon_t *c, int32_t b, bool *hat)
{
    c->work += c->ov_at[b + 1] - c->ov_at[b] + c->hi[b] - c->lo[b] + 1;
    int64_t off = c->min_off[b], top = off + c->size[b];
    int32_t na = 0;
    *hat = false;
    c->placed[b] = 1;
    c->sol[b] = off;
    /* first, as unplace undoes it whole: a placement cut short by running
     * out of memory still leaves a state unplace restores exactly */
    for (int32_t s = c->lo[b]; s <= c->hi[b]; s++)
        c->total[s] -= c->size[b];
    if (++c->stamp_now == INT32_MAX) {
        memset(c->stamp, 0, (size_t)c->m * sizeof *c->stamp);
        c->stamp_now = 1;
    }
    if (!leave_low(c, b, off, &na))
        return false;
    for (int32_t k = c->ov_at[b]; k < c->ov_at[b + 1]; k++) {
        int32_t o = c->ov[k];
        if (c->placed[o])
            continue;
        *hat = true;
        if (c->min_off[o] >= top)
            continue;
        if (!undo_push(c, U_MIN_OFF, o, c->min_off[o]) || !leave_low(c, o, c->min_off[o], &na))
            return false;
        c->min_off[o] = top;
    }
    for (int32_t s = c->lo[b]; s <= c->hi[b]; s++) {
        if (!undo_push(c, U_FLOOR, s, c->floor[s]))
            return false;
        c->floor[s] = top;
    }
    c->n_affected = na;
    for (int32_t i = 0; i < na; i++)
        if (!recount_low(c, c->affected[i]))
            return false;
    return true;
}

static void unplace(canon_t *c, int32_t b, int32_t mark)
{
    while (c->undo_n > mark) {
        const undo_t *u = &c->undo[--c->undo_n];
        switch (u->kind) {
        case U_MIN_OFF: c->min_off[u->i] = u->v; break;
        case U_FLOOR: c->floor[u->i] = u->v; break;
        case U_LOW: c->low[u->i] = u->v; break;
        default: c->nlow[u->i] = (int32_t)u->v; break;
        }
    }
    for (int32_t s = c->lo[b]; s <= c->hi[b]; s++)
        c->total[s] += c->size[b];
    c->placed[b] = 0;
}

/* Whether section s can still take what is left over it: nothing unplaced
 * over it goes below its floor, its lowest offset, or off (the canonical
 * order's offset). */
static bool section_fits(const canon_t *c, int32_t s, int64_t off)
{
    if (c->total[s] == 0)
        return true;
    int64_t f = c->floor[s] > off ? c->floor[s] : off;
    if (c->low[s] != INT64_MAX && c->low[s] > f)
        f = c->low[s];
    return c->total[s] <= c->cap - f; /* f <= cap: offsets and tops in the search are */
}

/* Whether anything unplaced overlaps b. */
static bool has_hat(const canon_t *c, int32_t b)
{
    for (int32_t k = c->ov_at[b]; k < c->ov_at[b + 1]; k++)
        if (!c->placed[c->ov[k]])
            return true;
    return false;
}

/* Before placing b at off: every section of the piece as it would be if
 * placing b changed nothing but b's own sections.  Most candidates fail
 * here, before the cost of a placement. */
static bool may_fit(canon_t *c, int32_t slo, int32_t shi, int32_t b, int64_t off)
{
    c->work += shi - slo + 1;
    int64_t top = off + c->size[b];
    for (int32_t s = slo; s <= shi; s++) {
        if (s < c->lo[b] || s > c->hi[b]) {
            if (!section_fits(c, s, off))
                return false;
            continue;
        }
        int64_t left = c->total[s] - c->size[b];
        if (left > 0 && left > c->cap - top)
            return false;
    }
    return true;
}

/* After placing b: the sections the placement changed (b's own, and those
 * whose lowest offset was recounted); may_fit checked the rest. */
static bool still_fits(const canon_t *c, int32_t b, int64_t off)
{
    for (int32_t s = c->lo[b]; s <= c->hi[b]; s++)
        if (!section_fits(c, s, off))
            return false;
    for (int32_t i = 0; i < c->n_affected; i++)
        if (!section_fits(c, c->affected[i], off))
            return false;
    return true;
}

static int search(canon_t *c, int32_t piece_at, int32_t np, int32_t slo, int32_t shi, int64_t last_off,
                  int32_t last_rank)
{
    if (c->failed)
        return S_ABORT;
    c->work += np;
    if (c->work > c->work_limit)
        return S_ABORT;
    c->nodes++;
    if (c->stop && (c->nodes & 1023) == 0 && c->stop(c->stop_ud)) {
        c->failed = true;
        return S_ABORT;
    }
    int64_t min_top = INT64_MAX;
    int32_t left = 0;
    for (int32_t i = 0; i < np; i++) {
        int32_t b = c->pool[piece_at + i];
        if (c->placed[b])
            continue;
        left++;
        int64_t top = sat_add(c->min_off[b], c->size[b]);
        if (top < min_top)
            min_top = top;
    }
    if (left == 0)
        return S_OK;
    cand_t *cands = malloc((size_t)left * sizeof *cands); /* not the pool: it may move under recursion */
    if (!cands) {
        c->failed = true;
        return S_ABORT;
    }
    int32_t nc = 0;
    for (int32_t i = 0; i < np; i++) {
        int32_t b = c->pool[piece_at + i];
        if (c->placed[b])
            continue;
        int64_t off = c->min_off[b];
        if (off >= min_top)
            continue; /* a gap below it that another buffer fits in */
        if (off < last_off || (off == last_off && c->rank[b] < last_rank))
            continue; /* not canonical */
        if (c->size[b] > c->cap - off)
            continue;
        cands[nc++] = (cand_t){ off, c->rank[b], b };
    }
    qsort(cands, (size_t)nc, sizeof *cands, cmp_cand);
    int st = S_NONE;
    for (int32_t i = 0; i < nc; i++) {
        int32_t b = cands[i].b;
        int32_t mark = c->undo_n;
        if (!may_fit(c, slo, shi, b, cands[i].off)) {
            if (!has_hat(c, b))
                break; /* as below */
            continue;
        }
        bool hat;
        if (!place(c, b, &hat))
            st = S_ABORT;
        else if (still_fits(c, b, cands[i].off))
            st = decompose(c, piece_at, np, slo, shi, b);
        unplace(c, b, mark);
        if (st != S_NONE)
            break;
        if (!hat)
            break; /* nothing goes over it: another first choice cannot help */
    }
    free(cands);
    return st;
}

/* Two buffers that take space and share a section. */
static bool overlaps(const canon_t *c, int32_t i, int32_t j)
{
    return i != j && c->size[i] > 0 && c->size[j] > 0 && c->lo[i] <= c->hi[j] && c->lo[j] <= c->hi[i];
}

/* Builds the overlap and section lists; false when out of memory. */
static bool setup(canon_t *c, const arena_buf_t *bufs, int32_t n)
{
    int64_t *cut = malloc(((size_t)n * 2 + 1) * sizeof *cut);
    if (!cut)
        return false;
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        cut[m++] = bufs[i].start;
        cut[m++] = bufs[i].end + 1;
    }
    int32_t u = sorted_unique(cut, m);
    c->m = u;
    size_t nn = n ? (size_t)n : 1, mm = (size_t)u + 1;
    c->lo = malloc(nn * sizeof *c->lo);
    c->hi = malloc(nn * sizeof *c->hi);
    c->floor = calloc(mm, sizeof *c->floor);
    c->total = calloc(mm, sizeof *c->total);
    c->low = calloc(mm, sizeof *c->low);
    c->nlow = calloc(mm, sizeof *c->nlow);
    c->cuts = calloc(mm, sizeof *c->cuts);
    c->stamp = calloc(mm, sizeof *c->stamp);
    c->affected = malloc(mm * sizeof *c->affected);
    c->sec_at = calloc(mm + 1, sizeof *c->sec_at);
    c->ov_at = calloc(nn + 1, sizeof *c->ov_at);
    c->min_off = calloc(nn, sizeof *c->min_off);
    c->rank = calloc(nn, sizeof *c->rank);
    c->placed = calloc(nn, 1);
    bool ok = c->lo && c->hi && c->floor && c->total && c->low && c->nlow && c->cuts && c->stamp && c->affected && c->sec_at &&
              c->ov_at && c->min_off && c->rank && c->placed;
    if (ok) {
        size_t cover = 0;
        for (int32_t i = 0; i < n; i++) {
            c->lo[i] = sorted_last_le(cut, u, bufs[i].start);
            c->hi[i] = sorted_last_le(cut, u, bufs[i].end);
            if (c->size[i] == 0) {
                c->placed[i] = 1;
                continue;
            }
            for (int32_t s = c->lo[i]; s <= c->hi[i]; s++) {
                c->total[s] = sat_add(c->total[s], c->size[i]); /* saturated: only compared with cap */
                c->sec_at[s + 1]++;
                cover++;
            }
            for (int32_t s = c->lo[i]; s < c->hi[i]; s++)
                c->cuts[s]++;
        }
        for (int32_t s = 0; s < u; s++) {
            c->sec_at[s + 1] += c->sec_at[s];
            c->nlow[s] = c->sec_at[s + 1] - c->sec_at[s]; /* all at offset 0 */
            c->low[s] = c->nlow[s] ? 0 : INT64_MAX;
        }
        c->sec = malloc((cover + 1) * sizeof *c->sec);
        int32_t *fill = malloc(mm * sizeof *fill);
        ok = c->sec && fill;
        if (ok) {
            memcpy(fill, c->sec_at, (size_t)u * sizeof *fill);
            for (int32_t i = 0; i < n; i++)
                if (c->size[i] > 0)
                    for (int32_t s = c->lo[i]; s <= c->hi[i]; s++)
                        c->sec[fill[s]++] = i;
        }
        free(fill);
    }
    if (ok) {
        /* overlaps: the buffers sharing a section, each pair once per side */
        size_t cnt = 0;
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = 0; j < n; j++)
                if (overlaps(c, i, j)) {
                    c->ov_at[i + 1]++;
                    cnt++;
                }
        for (int32_t i = 0; i < n; i++)
            c->ov_at[i + 1] += c->ov_at[i];
        c->ov = malloc((cnt + 1) * sizeof *c->ov);
        ok = c->ov != NULL;
        for (int32_t i = 0, k = 0; ok && i < n; i++)
            for (int32_t j = 0; j < n; j++)
                if (overlaps(c, i, j))
                    c->ov[k++] = j;
    }
    free(cut);
    return ok;
}

static void teardown(canon_t *c)
{
    free(c->lo);
    free(c->hi);
    free(c->floor);
    free(c->total);
    free(c->low);
    free(c->nlow);
    free(c->cuts);
    free(c->stamp);
    free(c->affected);
    free(c->sec_at);
    free(c->sec);
    free(c->ov_at);
    free(c->ov);
    free(c->min_off);
    free(c->rank);
    free(c->placed);
    free(c->undo);
    free(c->pool);
}

/* One attempt with the current heuristic over every independent piece. */
static int attempt(canon_t *c, int32_t n)
{
    int32_t base;
    if (!pool_take(c, n, &base))
        return S_ABORT;
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++)
        if (!c->placed[i])
            c->pool[base + k++] = i;
    int st = solve_split(c, base, k, 0, c->m - 1);
    c->pool_n = base;
    return st;
}

canon_t *canon_new(const arena_buf_t *bufs, const int64_t *aligned, int32_t n)
{
    canon_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = (canon_t){ .n = n, .size = aligned, .bufs = bufs };
    if (!setup(c, bufs, n)) {
        canon_free(c);
        return NULL;
    }
    for (int32_t s = 0; s < c->m; s++)
        if (c->total[s] > c->max_total)
            c->max_total = c->total[s];
    return c;
}

void canon_free(canon_t *c)
{
    if (!c)
        return;
    teardown(c);
    free(c);
}

canon_result_t canon_run(canon_t *c, int64_t cap, int64_t budget, int (*stop)(void *), void *stop_ud,
                         int64_t *offsets, int64_t *work)
{
    for (int32_t i = 0; i < c->n; i++)
        offsets[i] = 0;
    /* every search, found, exhausted or cut short, leaves the state as it
     * found it: the next run starts from the same place */
    if (c->max_total == INT64_MAX)
        return CANON_GAVE_UP; /* the sizes overflow: nothing exact to search with */
    if (c->max_total > cap)
        return CANON_INFEASIBLE; /* below the max-live bound */
    c->cap = cap;
    c->sol = offsets;
    c->stop = stop;
    c->stop_ud = stop_ud;
    c->failed = false;
    c->work = 0;
    canon_result_t res = CANON_GAVE_UP;
    /* each preorder in turn, with a limit that doubles each round: the
     * preorder that suits the instance finishes at most twice late */
    int64_t limit = 32 * (int64_t)(c->n > 0 ? c->n : 1);
    while (c->work < budget && !c->failed && res == CANON_GAVE_UP) {
        limit *= 2;
        for (c->heuristic = 0; c->heuristic < CANON_VARIANTS && c->work < budget && !c->failed; c->heuristic++) {
            c->work_limit = c->work + (limit < budget - c->work ? limit : budget - c->work);
            int st = attempt(c, c->n);
            if (st == S_OK) {
                res = CANON_FOUND;
                break;
            }
            if (st == S_NONE) {
                res = CANON_INFEASIBLE; /* the whole tree was searched */
                break;
            }
        }
    }
    if (work)
        *work += c->work;
    return res;
}

canon_result_t canon_fit(const arena_buf_t *bufs, const int64_t *aligned, int32_t n, int64_t cap, int64_t budget,
                         int (*stop)(void *), void *stop_ud, int64_t *offsets, int64_t *work)
{
    canon_t *c = canon_new(bufs, aligned, n);
    if (!c) {
        for (int32_t i = 0; i < n; i++)
            offsets[i] = 0;
        return CANON_GAVE_UP;
    }
    canon_result_t res = canon_run(c, cap, budget, stop, stop_ud, offsets, work);
    canon_free(c);
    return res;
}
