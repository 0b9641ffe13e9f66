/* Tests for core/layout/bestfit.c and arena.c: the greedy of DESIGN §3 (each sort key, best fit,
 * alignment), max-live, and agreement with a plain quadratic reference. */
#include <stdlib.h>
#include <string.h>

#include "layout/arena.h"
#include "layout/layout.h"
#include "layout/bestfit.h"
#include "layout/tight.h"
#include "minimalloc.h"
#include "testutil.h"

static int64_t layout(const arena_buf_t *b, int32_t n, int64_t align, int64_t *off)
{
    int64_t h;
    rs_error_t err;
    assert_int_equal(layout_run(b, n, align, LAYOUT_GREEDY, off, &h, &err), RS_OK);
    int32_t x, y;
    assert_true(arena_check(b, n, align, off, &x, &y));
    return h;
}

/* size descending: B (8) is placed first at 0, A on top of it. */
static void test_key_size(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 4, 0, 1 }, { 8, 0, 1 } };
    int64_t off[2];
    assert_int_equal(layout(b, 2, 1, off), 12);
    assert_int_equal(off[0], 8);
    assert_int_equal(off[1], 0);
}

/* equal sizes: the longer span first. */
static void test_key_span(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 4, 0, 0 }, { 4, 0, 2 } };
    int64_t off[2];
    assert_int_equal(layout(b, 2, 1, off), 8);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[0], 4);
}

/* equal sizes and spans: the earlier start first. */
static void test_key_start(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 4, 1, 2 }, { 4, 0, 1 } };
    int64_t off[2];
    layout(b, 2, 1, off);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[0], 4);
}

/* all equal: index order. */
static void test_key_index(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 4, 0, 1 }, { 4, 0, 1 } };
    int64_t off[2];
    layout(b, 2, 1, off);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 4);
}

/* Best fit, worked by hand.  Placement order (size descending):
 * 0 (100) 1 (50) 2 (40) 3 (30) 5 (25) 4 (20) 6 (12) 7 (8).
 *   0 [0,0]: nothing placed          -> 0     [0,100)
 *   1 [0,2]: 0                        -> top   [100,150)
 *   2 [1,1]: 1; gap [0,100)           -> 0     [0,40)
 *   3 [2,2]: 1; gap [0,100)           -> 0     [0,30)
 *   5 [0,0]: 0, 1; no gap             -> top   [150,175)
 *   4 [1,2]: 1, 2, 3; gap [40,100)    -> 40    [40,60)
 *   6 [1,1]: 1, 2, 4; gap [60,100)    -> 60    [60,72)
 *   7 [2,2]: 1, 3, 4; gaps [30,40) (10) and [60,100) (40): the smaller -> 30 */
static void test_best_fit_smallest_gap(void **state)
{
    (void)state;
    arena_buf_t b[] = {
        { 100, 0, 0 }, { 50, 0, 2 }, { 40, 1, 1 }, { 30, 2, 2 },
        { 20, 1, 2 },  { 25, 0, 0 }, { 12, 1, 1 }, { 8, 2, 2 },
    };
    int64_t off[8];
    int64_t want[8] = { 0, 100, 0, 0, 40, 150, 60, 30 };
    assert_int_equal(layout(b, 8, 1, off), 175);
    for (int i = 0; i < 8; i++)
        assert_int_equal(off[i], want[i]);
}

/* A smaller gap high up beats a larger one low down.  Order: A B C D E F G H.
 *   A 100 [0,0] -> [0,100)          B 30 [0,0] -> [100,130)
 *   C 20 [0,1]  -> top [130,150)    D 10 [1,1] -> gap [0,130) -> [0,10)
 *   E 8 [0,1]   -> top [150,158)    F 7 [0,0]  -> top [158,165)
 *   G 6 [0,1]   -> top [165,171)
 *   H 5 [1,1]: D [0,10), C [130,150), E [150,158), G [165,171): gaps
 *   [10,130) (120) and [158,165) (7): the smaller -> 158. */
static void test_smaller_gap_wins(void **state)
{
    (void)state;
    arena_buf_t b[] = {
        { 100, 0, 0 }, { 30, 0, 0 }, { 20, 0, 1 }, { 10, 1, 1 },
        { 8, 0, 1 },   { 7, 0, 0 },  { 6, 0, 1 },  { 5, 1, 1 },
    };
    int64_t off[8];
    int64_t want[8] = { 0, 100, 130, 0, 150, 158, 165, 158 };
    assert_int_equal(layout(b, 8, 1, off), 171);
    for (int i = 0; i < 8; i++)
        assert_int_equal(off[i], want[i]);
}

/* Sizes round up to the alignment: 5 -> 8, 3 -> 8, so the second sits at 8. */
static void test_alignment(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 5, 0, 1 }, { 3, 0, 1 }, { 0, 0, 1 } };
    int64_t off[3];
    assert_int_equal(layout(b, 3, 8, off), 16);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 8);
    assert_int_equal(arena_align(5, 8), 8);
    assert_int_equal(arena_align(16, 8), 16);
    assert_int_equal(arena_align(INT64_MAX, 8), -1);
    int64_t at;
    assert_int_equal(arena_max_live(b, 3, 8, &at), 16);
}

static void test_max_live(void **state)
{
    (void)state;
    /* live: step0 {a} 4, step1 {a,b} 12, step2 {b,c} 10, step3 {c} 2 */
    arena_buf_t b[] = { { 4, 0, 1 }, { 8, 1, 2 }, { 2, 2, 3 } };
    int64_t at;
    assert_int_equal(arena_max_live(b, 3, 1, &at), 12);
    assert_int_equal(at, 1);
    assert_int_equal(arena_max_live(NULL, 0, 1, &at), 0);
}

/* ---- a plain quadratic reference of §3 ------------------------------------ */

static int cmp_key(const arena_buf_t *b, int64_t align, int32_t x, int32_t y)
{
    int64_t sx = arena_align(b[x].size, align), sy = arena_align(b[y].size, align);
    if (sx != sy)
        return sx > sy ? -1 : 1;
    int64_t lx = b[x].end - b[x].start, ly = b[y].end - b[y].start;
    if (lx != ly)
        return lx > ly ? -1 : 1;
    if (b[x].start != b[y].start)
        return b[x].start < b[y].start ? -1 : 1;
    return x < y ? -1 : 1;
}

static int64_t reference(const arena_buf_t *b, int32_t n, int64_t align, int64_t *off)
{
    int32_t *ord = malloc((size_t)n * sizeof *ord);
    for (int32_t i = 0; i < n; i++)
        ord[i] = i;
    for (int32_t i = 1; i < n; i++) /* insertion sort: obviously right */
        for (int32_t j = i; j > 0 && cmp_key(b, align, ord[j], ord[j - 1]) < 0; j--) {
            int32_t t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    int64_t top = 0;
    char *placed = calloc((size_t)n, 1);
    for (int32_t k = 0; k < n; k++) {
        int32_t id = ord[k];
        int64_t sz = arena_align(b[id].size, align);
        /* candidate offsets: 0 and every conflicting top; take the smallest
         * gap that fits, lowest offset on ties */
        int64_t best = -1, best_gap = INT64_MAX, ctop = 0;
        for (int32_t j = 0; j < n; j++)
            if (placed[j] && b[j].start <= b[id].end && b[id].start <= b[j].end && arena_align(b[j].size, align) > 0) {
                int64_t t = off[j] + arena_align(b[j].size, align);
                if (t > ctop)
                    ctop = t;
            }
        for (int32_t c = -1; c < n; c++) {
            int64_t lo;
            if (c < 0)
                lo = 0;
            else if (placed[c] && b[c].start <= b[id].end && b[id].start <= b[c].end && arena_align(b[c].size, align) > 0)
                lo = off[c] + arena_align(b[c].size, align);
            else
                continue;
            /* is lo free, and how far up? */
            int64_t hi = INT64_MAX;
            int ok = lo < ctop;
            for (int32_t j = 0; j < n && ok; j++) {
                if (!placed[j] || !(b[j].start <= b[id].end && b[id].start <= b[j].end))
                    continue;
                int64_t js = off[j], je = off[j] + arena_align(b[j].size, align);
                if (je == js)
                    continue;
                if (js <= lo && lo < je)
                    ok = 0;
                else if (js >= lo && js < hi)
                    hi = js;
            }
            if (!ok || hi == INT64_MAX)
                continue;
            int64_t gap = hi - lo;
            if (gap >= sz && (gap < best_gap || (gap == best_gap && lo < best))) {
                best_gap = gap;
                best = lo;
            }
        }
        off[id] = sz == 0 ? 0 : best >= 0 ? best : ctop;
        placed[id] = sz > 0;
        if (off[id] + sz > top)
            top = off[id] + sz;
    }
    free(ord);
    free(placed);
    return top;
}

static void test_matches_reference(void **state)
{
    (void)state;
    unsigned seed = 12345;
    for (int round = 0; round < 300; round++) {
        int32_t n = 1 + (int32_t)(seed % 40);
        arena_buf_t b[40];
        for (int32_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            int64_t s = (seed >> 8) % 20;
            seed = seed * 1103515245u + 12345u;
            int64_t len = (seed >> 8) % 8;
            seed = seed * 1103515245u + 12345u;
            int64_t size = 1 + (int64_t)((seed >> 8) % 6) * ((round % 3) ? 7 : 1);
            if ((seed >> 20) % 17 == 0)
                size = 0;
            b[i] = (arena_buf_t){ size, s, s + len };
        }
        int64_t align = 1 + round % 4;
        int64_t off[40], ref[40];
        int64_t h = layout(b, n, align, off);
        int64_t hr = reference(b, n, align, ref);
        assert_int_equal(h, hr);
        for (int32_t i = 0; i < n; i++)
            if (off[i] != ref[i])
                fail_msg("round %d buffer %d: %lld vs reference %lld", round, i, (long long)off[i],
                         (long long)ref[i]);
        seed = seed * 1103515245u + 12345u;
    }
}

/* tight: never worse than the greedy, valid, deterministic; on F (a
 * perfect packing the greedy leaves 37% above its bound) it gets within 5%. */
static void test_tight(void **state)
{
    (void)state;
    minimalloc_problem_t p;
    rs_error_t err;
    if (minimalloc_read(RS_BENCH_DIR "/minimalloc/F.1048576.csv", &p, &err))
        fail_msg("%s", err.msg);
    int64_t *a = malloc((size_t)p.n * sizeof *a), *b = malloc((size_t)p.n * sizeof *b), ha, hb, hg;
    tight_stats_t st;
    assert_int_equal(tight_layout(p.bufs, p.n, 1, NULL, a, &ha, &st, &err), RS_OK);
    assert_int_equal(layout_run(p.bufs, p.n, 1, LAYOUT_GREEDY, b, &hg, &err), RS_OK);
    assert_int_equal(st.greedy_height, hg);
    assert_true(ha <= hg);
    assert_int_equal(ha, 1048576); /* max-live: a perfect packing, proven optimal */
    assert_true(st.optimal);
    int32_t x, y;
    assert_true(arena_check(p.bufs, p.n, 1, a, &x, &y));
    int64_t top = 0;
    for (int32_t i = 0; i < p.n; i++)
        top = a[i] + p.bufs[i].size > top ? a[i] + p.bufs[i].size : top;
    assert_int_equal(top, ha);
    assert_int_equal(tight_layout(p.bufs, p.n, 1, NULL, b, &hb, &st, &err), RS_OK);
    assert_int_equal(hb, ha);
    assert_memory_equal(a, b, (size_t)p.n * sizeof *a); /* the same budget, the same layout */
    free(a);
    free(b);
    minimalloc_free(&p);
    /* B is a perfect packing: the canonical search finds it, at exactly the bound */
    if (minimalloc_read(RS_BENCH_DIR "/minimalloc/B.1048576.csv", &p, &err))
        fail_msg("%s", err.msg);
    a = malloc((size_t)p.n * sizeof *a);
    assert_int_equal(tight_layout(p.bufs, p.n, 1, NULL, a, &ha, &st, &err), RS_OK);
    assert_int_equal(ha, 1048576);
    assert_true(st.optimal);
    assert_true(arena_check(p.bufs, p.n, 1, a, &x, &y));
    free(a);
    minimalloc_free(&p);
    /* the reference cases: tight meets the greedy or does better, and stays valid */
    unsigned seed = 99;
    for (int round = 0; round < 60; round++) {
        arena_buf_t bb[24];
        int32_t n = 4 + round % 20;
        tu_random_bufs(&seed, bb, n, 12, 5, 9);
        int64_t o1[24], o2[24], h1, h2;
        tight_options_t o = { .max_iterations = 200 };
        assert_int_equal(layout_run(bb, n, 2, LAYOUT_GREEDY, o1, &h1, &err), RS_OK);
        assert_int_equal(tight_layout(bb, n, 2, &o, o2, &h2, &st, &err), RS_OK);
        assert_true(h2 <= h1 && h2 <= st.timeline_height && h2 >= st.lower_bound);
        assert_true(arena_check(bb, n, 2, o2, &x, &y));
    }
}

/* Pinned buffers stay put and the rest go around them: A (4 bytes, steps
 * 0-3) held at 2 leaves a 2-byte gap under it, where B (2, steps 1-2)
 * fits best; C (4, steps 3-5) meets A only and goes on top of it, at 6. */
static void test_pinned(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 4, 0, 3 }, { 2, 1, 2 }, { 4, 3, 5 } };
    bestfit_t *p;
    rs_error_t err;
    assert_int_equal(bestfit_new(b, 3, 1, &p, &err), RS_OK);
    int32_t order[] = { 2, 0, 1 };
    bool pinned[] = { true, false, false };
    int64_t off[] = { 2, -1, -1 }, h;
    assert_int_equal(bestfit_run_pinned(p, order, pinned, off, &h, &err), RS_OK);
    assert_int_equal(off[0], 2);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[2], 6);
    assert_int_equal(h, 10);
    /* unpinned, the same order is the plain best fit: C at 0, A on it (they
     * share step 3), B under A (it meets A only) */
    assert_int_equal(bestfit_run(p, order, off, &h, &err), RS_OK);
    assert_int_equal(off[2], 0);
    assert_int_equal(off[0], 4);
    assert_int_equal(off[1], 0);
    assert_int_equal(h, 8);
    bestfit_free(p);
}

/* An engine keeps its tree across layouts and is told only what changed.
 * Leaves at steps 0, 1, 3, 5, 7 (5 and 7 start nothing at first: extra
 * leaves change no conflict).  A (id 0, 4 bytes, steps 0-3), B (id 1, 2,
 * steps 1-2), C (id 2, 4, steps 3-5), id 3 without bytes.  §3's order is
 * A (the longer span), C, B: A at 0; C meets A at step 3, on top at 4; B
 * meets A only, on top at 4: height 8.  C moved to steps 7-9 meets nothing
 * and drops to 0, B stays at 4: height 6.  With A pinned at 2, B fits the
 * 2-byte gap under it.  A start that is no leaf is refused. */
static void test_engine(void **state)
{
    (void)state;
    int64_t coords[] = { 0, 1, 3, 5, 7 };
    bestfit_t *p;
    rs_error_t err;
    assert_int_equal(bestfit_engine_new(4, coords, 5, &p, &err), RS_OK);
    assert_true(bestfit_engine_set(p, 0, 4, 0, 3));
    assert_true(bestfit_engine_set(p, 1, 2, 1, 2));
    assert_true(bestfit_engine_set(p, 2, 4, 3, 5));
    assert_true(bestfit_engine_set(p, 3, 0, 99, 99)); /* no bytes: its span is not looked at */
    int32_t order[] = { 0, 2, 1 };
    int64_t off[4] = { -1, -1, -1, -1 }, h;
    assert_int_equal(bestfit_engine_place(p, order, 3, 0, off, &h, &err), RS_OK);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[2], 4);
    assert_int_equal(off[1], 4);
    assert_int_equal(h, 8);
    assert_true(bestfit_engine_set(p, 2, 4, 7, 9));
    assert_int_equal(bestfit_engine_place(p, order, 3, 0, off, &h, &err), RS_OK);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[2], 0);
    assert_int_equal(off[1], 4);
    assert_int_equal(h, 6);
    off[0] = 2;
    assert_int_equal(bestfit_engine_place(p, order, 3, 1, off, &h, &err), RS_OK);
    assert_int_equal(off[0], 2);
    assert_int_equal(off[2], 0);
    assert_int_equal(off[1], 0);
    assert_int_equal(h, 6);
    assert_false(bestfit_engine_set(p, 1, 2, 2, 2)); /* step 2 starts no leaf */
    assert_int_equal(bestfit_engine_place(p, order, 3, 0, off, &h, &err), RS_OK);
    assert_int_equal(off[1], 4); /* B kept its span */
    bestfit_free(p);
}

/* Above 2,048 buffers tight re-packs windows of time: F (a perfect packing
 * the greedy leaves at 1,433,600, 37% above its 1,048,576 bound) with
 * 2,000 small buffers after it is too big for the search as a whole, but
 * the windows around its peak grow to hold all of F and pack it exactly,
 * aligned sizes too. */
static void test_tight_windows(void **state)
{
    (void)state;
    minimalloc_problem_t p;
    rs_error_t err;
    if (minimalloc_read(RS_BENCH_DIR "/minimalloc/F.1048576.csv", &p, &err))
        fail_msg("%s", err.msg);
    int32_t n = p.n + 2000;
    arena_buf_t *b = malloc((size_t)n * sizeof *b);
    memcpy(b, p.bufs, (size_t)p.n * sizeof *b);
    for (int32_t k = 0; k < 2000; k++)
        b[p.n + k] = (arena_buf_t){ 1024, 2000000 + 2 * k, 2000000 + 2 * k };
    int64_t *o1 = malloc((size_t)n * sizeof *o1), *o2 = malloc((size_t)n * sizeof *o2), h1, h2;
    tight_stats_t st;
    assert_int_equal(layout_run(b, n, 1, LAYOUT_GREEDY, o1, &h1, &err), RS_OK);
    assert_int_equal(h1, 1433600);
    tight_options_t o = { .max_iterations = 200 };
    assert_int_equal(tight_layout(b, n, 1, &o, o1, &h1, &st, &err), RS_OK);
    assert_int_equal(h1, 1048576);
    assert_true(st.optimal);
    assert_true(st.windows > 0);
    assert_int_equal(st.probes, 0); /* the whole was never searched */
    int32_t x, y;
    assert_true(arena_check(b, n, 1, o1, &x, &y));
    assert_int_equal(tight_layout(b, n, 1, &o, o2, &h2, &st, &err), RS_OK);
    assert_memory_equal(o1, o2, (size_t)n * sizeof *o1);
    /* the same once aligned: sizes 1023 bytes short of F's (all multiples
     * of 1,024), so the windows must pack what alignment makes of them */
    for (int32_t i = 0; i < n; i++)
        b[i].size -= 1023;
    assert_int_equal(tight_layout(b, n, 1024, &o, o2, &h2, &st, &err), RS_OK);
    assert_int_equal(h2, 1048576);
    assert_true(st.optimal && st.windows > 0);
    assert_true(arena_check(b, n, 1024, o2, &x, &y));
    free(b);
    free(o1);
    free(o2);
    minimalloc_free(&p);
}

/* Issue 24 item 9: a height of INT64_MAX (the "open above" every layout
 * keeps) overflows for greedy as for timeline and tight (greedy said
 * height 9223372036854775807). */
static void test_height_overflow_agrees(void **state)
{
    (void)state;
    arena_buf_t b[2] = { { INT64_MAX, 0, 1 }, { INT64_MAX - 1, 2, 3 } };
    int64_t off[2], h;
    rs_error_t err;
    const layout_strategy_t all[] = { LAYOUT_GREEDY, LAYOUT_TIMELINE, LAYOUT_TIGHT };
    for (int k = 0; k < 3; k++) {
        assert_int_equal(layout_run(b, 1, 1, all[k], off, &h, &err), RS_EINPUT);
        assert_non_null(strstr(err.msg, "arena height overflows 64 bits"));
        assert_int_equal(layout_run(b + 1, 1, 1, all[k], off, &h, &err), RS_OK); /* one byte less fits */
        assert_int_equal(h, INT64_MAX - 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_size),
        cmocka_unit_test(test_key_span),
        cmocka_unit_test(test_key_start),
        cmocka_unit_test(test_key_index),
        cmocka_unit_test(test_best_fit_smallest_gap),
        cmocka_unit_test(test_smaller_gap_wins),
        cmocka_unit_test(test_alignment),
        cmocka_unit_test(test_max_live),
        cmocka_unit_test(test_matches_reference),
        cmocka_unit_test(test_tight),
        cmocka_unit_test(test_pinned),
        cmocka_unit_test(test_engine),
        cmocka_unit_test(test_tight_windows),
        cmocka_unit_test(test_height_overflow_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
