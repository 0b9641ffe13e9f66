/* Tests for core/layout/canon.c: on small random instances the canonical search
 * finds exactly the optimum an exhaustive search finds, proves every
 * capacity below it infeasible, and its layouts are valid; a hand-checked
 * perfect packing; an instance no layout packs within max-live. */
#include <stdlib.h>
#include <string.h>

#include "layout/arena.h"
#include "layout/canon.h"
#include "layout/tight.h"
#include "testutil.h"

static bool overlaps(const arena_buf_t *a, const arena_buf_t *b)
{
    return a->start <= b->end && b->start <= a->end;
}

/* The lowest offset for bufs[i] that clears the placed buffers. */
static int64_t lowest_fit(const arena_buf_t *bufs, const int64_t *off, const bool *placed, int32_t n, int32_t i)
{
    int64_t at = 0;
    for (bool moved = true; moved;) {
        moved = false;
        for (int32_t j = 0; j < n; j++)
            if (placed[j] && overlaps(&bufs[i], &bufs[j]) && at < off[j] + bufs[j].size &&
                off[j] < at + bufs[i].size) {
                at = off[j] + bufs[j].size;
                moved = true;
            }
    }
    return at;
}

/* Every order, each buffer at its lowest fit: gravity turns any layout into
 * one of these without raising it, so the least height here is optimal. */
static void brute(const arena_buf_t *bufs, int32_t n, int32_t k, int64_t *off, bool *placed, int64_t h,
                  int64_t *best)
{
    if (h >= *best)
        return;
    if (k == n) {
        *best = h;
        return;
    }
    for (int32_t i = 0; i < n; i++) {
        if (placed[i])
            continue;
        off[i] = lowest_fit(bufs, off, placed, n, i);
        placed[i] = true;
        int64_t top = off[i] + bufs[i].size;
        brute(bufs, n, k + 1, off, placed, top > h ? top : h, best);
        placed[i] = false;
    }
}

static void test_matches_exhaustive(void **state)
{
    (void)state;
    unsigned seed = 7;
    for (int round = 0; round < 400; round++) {
        arena_buf_t b[7];
        int64_t size[7], off[7], boff[7];
        bool placed[7] = { false };
        int32_t n = 3 + round % 5;
        tu_random_bufs(&seed, b, n, 6, 4, 5);
        for (int32_t i = 0; i < n; i++)
            size[i] = b[i].size;
        int64_t best = INT64_MAX;
        brute(b, n, 0, boff, placed, 0, &best);
        int64_t lower = arena_max_live(b, n, 1, NULL);
        for (int64_t cap = lower; cap < best; cap++) {
            int64_t work = 0;
            assert_int_equal(canon_fit(b, size, n, cap, INT64_MAX / 4, NULL, NULL, off, &work), CANON_INFEASIBLE);
        }
        int64_t work = 0;
        assert_int_equal(canon_fit(b, size, n, best, INT64_MAX / 4, NULL, NULL, off, &work), CANON_FOUND);
        int32_t x, y;
        assert_true(arena_check(b, n, 1, off, &x, &y));
        for (int32_t i = 0; i < n; i++)
            assert_true(off[i] + size[i] <= best);
    }
}

/* Six buffers, max-live 4 (steps 1 and 2: a size-2 buffer, the long one and
 * the middle one).  The search packs them within 4; below it, nothing to
 * search; with no budget it gives up rather than answer. */
static void test_perfect_packing(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 2, 0, 1 }, { 2, 2, 3 }, { 1, 0, 3 }, { 1, 1, 2 }, { 1, 0, 0 }, { 1, 3, 3 } };
    int64_t size[6], off[6], work = 0;
    for (int i = 0; i < 6; i++)
        size[i] = b[i].size;
    int64_t lower = arena_max_live(b, 6, 1, NULL);
    assert_int_equal(lower, 4);
    assert_int_equal(canon_fit(b, size, 6, 4, 1000000, NULL, NULL, off, &work), CANON_FOUND);
    int32_t x, y;
    assert_true(arena_check(b, 6, 1, off, &x, &y));
    for (int i = 0; i < 6; i++)
        assert_true(off[i] + size[i] <= 4);
    assert_true(work > 0);
    /* below max-live: ruled out before any search */
    assert_int_equal(canon_fit(b, size, 6, 3, 1000000, NULL, NULL, off, &work), CANON_INFEASIBLE);
    /* no budget: it gives up rather than answer */
    assert_int_equal(canon_fit(b, size, 6, 4, 0, NULL, NULL, off, &work), CANON_GAVE_UP);
}

/* Ten buffers (found by a random search, then shrunk: dropping any one
 * makes max-live reachable) whose max-live, 11, no layout reaches: the
 * search must prove 11 infeasible, find 12, and agree with the exhaustive
 * search; tight must call 12 optimal through the bound it proved. */
static void test_gap_above_max_live(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 2, 1, 4 }, { 3, 2, 6 }, { 1, 4, 5 }, { 3, 2, 4 }, { 4, 5, 9 },
                        { 4, 7, 8 }, { 3, 1, 2 }, { 3, 6, 7 }, { 1, 4, 6 }, { 4, 0, 1 } };
    int32_t n = 10;
    int64_t size[10], off[10], work = 0;
    bool placed[10] = { false };
    for (int32_t i = 0; i < n; i++)
        size[i] = b[i].size;
    assert_int_equal(arena_max_live(b, n, 1, NULL), 11);
    int64_t best = INT64_MAX;
    brute(b, n, 0, off, placed, 0, &best);
    assert_int_equal(best, 12);
    assert_int_equal(canon_fit(b, size, n, 11, INT64_MAX / 4, NULL, NULL, off, &work), CANON_INFEASIBLE);
    assert_int_equal(canon_fit(b, size, n, 12, INT64_MAX / 4, NULL, NULL, off, &work), CANON_FOUND);
    int32_t x, y;
    assert_true(arena_check(b, n, 1, off, &x, &y));
    /* one search serves every capacity: each run, cut short or not, leaves
     * the state as it found it, so the runs agree with fresh ones */
    canon_t *c = canon_new(b, size, n);
    assert_non_null(c);
    int64_t again[10];
    int64_t budget = 1;
    int cut_short = 0;
    for (canon_result_t r; (r = canon_run(c, 12, budget, NULL, NULL, again, &work)) != CANON_FOUND; budget += 7) {
        assert_int_equal(r, CANON_GAVE_UP); /* stopped at a different step each time */
        cut_short++;
    }
    assert_true(cut_short > 10);
    assert_int_equal(canon_run(c, 11, INT64_MAX / 4, NULL, NULL, again, &work), CANON_INFEASIBLE);
    assert_int_equal(canon_run(c, 10, INT64_MAX / 4, NULL, NULL, again, &work), CANON_INFEASIBLE);
    assert_int_equal(canon_run(c, 12, INT64_MAX / 4, NULL, NULL, again, &work), CANON_FOUND);
    assert_memory_equal(again, off, sizeof again);
    canon_free(c);
    int64_t h;
    tight_stats_t st;
    rs_error_t err;
    assert_int_equal(tight_layout(b, n, 1, NULL, off, &h, &st, &err), RS_OK);
    assert_int_equal(h, 12);
    assert_int_equal(st.proven_bound, 12);
    assert_true(st.optimal);
    assert_true(arena_check(b, n, 1, off, &x, &y));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_exhaustive),
        cmocka_unit_test(test_perfect_packing),
        cmocka_unit_test(test_gap_above_max_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
