/* Tests for core/layout/timeline.c: a hand-worked layout (the order of births, a
 * gap the dead leave, best fit, the open top), buffers of no size, the
 * overflow error, and agreement with a plain quadratic reference. */
#include <stdlib.h>
#include <string.h>

#include "layout/arena.h"
#include "layout/timeline.h"
#include "testutil.h"

static int64_t run(const arena_buf_t *b, int32_t n, int64_t *off)
{
    int64_t *size = calloc((size_t)(n > 0 ? n : 1), sizeof *size), h;
    for (int32_t i = 0; i < n; i++)
        size[i] = b[i].size;
    rs_error_t err;
    assert_int_equal(timeline_layout(b, size, n, off, &h, &err), RS_OK);
    int32_t x, y;
    assert_true(arena_check(b, n, 1, off, &x, &y));
    free(size);
    return h;
}

/* X (2 bytes, steps 0-1) at 0; Y (3, steps 1-6) over it at 2.  X is dead at
 * step 2, leaving [0, 2) under Y.  Born at step 2, longest first: Z (1,
 * to step 3) takes the smallest gap that holds it, [0, 2), at 0; W (2) finds
 * only [1, 2) there and goes on top, at 5; V (1) fits [1, 2) exactly.
 * Height 7, which is max-live at step 2. */
static void test_hand_worked(void **state)
{
    (void)state;
    arena_buf_t b[] = { { 2, 0, 1 }, { 3, 1, 6 }, { 1, 2, 3 }, { 2, 2, 2 }, { 1, 2, 2 } };
    int64_t off[5];
    assert_int_equal(run(b, 5, off), 7);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 2);
    assert_int_equal(off[2], 0);
    assert_int_equal(off[3], 5);
    assert_int_equal(off[4], 1);
    assert_int_equal(arena_max_live(b, 5, 1, NULL), 7);
}

/* The same start: the longest-lived goes lowest, then the larger, then the
 * lower index.  A gap freed under the top merges with the open space. */
static void test_birth_order_and_merge(void **state)
{
    (void)state;
    /* A (1, 0-1), B (2, 0-5), C (2, 0-1), D (4, 3-3) */
    arena_buf_t b[] = { { 1, 0, 1 }, { 2, 0, 5 }, { 2, 0, 1 }, { 4, 3, 3 } };
    int64_t off[4];
    /* B at 0 (longest), C at 2 (larger of the rest), A at 4; A and C die,
     * [2, 5) joins the open top: D at 2 */
    assert_int_equal(run(b, 4, off), 6);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[2], 2);
    assert_int_equal(off[0], 4);
    assert_int_equal(off[3], 2);
}

static void test_empty_and_zero(void **state)
{
    (void)state;
    int64_t off[2] = { -1, -1 };
    assert_int_equal(run(NULL, 0, off), 0);
    arena_buf_t b[] = { { 0, 0, 9 }, { 5, 3, 4 } };
    assert_int_equal(run(b, 2, off), 5);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 0);
}

static void test_overflow(void **state)
{
    (void)state;
    arena_buf_t b[] = { { INT64_MAX / 2 + 1, 0, 1 }, { INT64_MAX / 2 + 1, 0, 1 } };
    int64_t size[] = { b[0].size, b[1].size }, off[2], h;
    rs_error_t err;
    assert_int_equal(timeline_layout(b, size, 2, off, &h, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "overflows"));
}

/* What the timeline layout is, written the slow way: in birth order, the
 * gaps between the buffers still live, the smallest that holds it (lowest on
 * a tie), else the top of them. */
static void reference(const arena_buf_t *b, int32_t n, int64_t *off)
{
    int32_t *ord = malloc((size_t)n * sizeof *ord);
    for (int32_t i = 0; i < n; i++)
        ord[i] = i;
    for (int32_t i = 1; i < n; i++) /* insertion sort: start, end desc, size desc, index */
        for (int32_t j = i; j > 0; j--) {
            const arena_buf_t *x = &b[ord[j - 1]], *y = &b[ord[j]];
            bool swap = y->start < x->start ||
                        (y->start == x->start &&
                         (y->end > x->end || (y->end == x->end && (y->size > x->size ||
                                                                  (y->size == x->size && ord[j] < ord[j - 1])))));
            if (!swap)
                break;
            int32_t t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    for (int32_t k = 0; k < n; k++) {
        int32_t id = ord[k];
        int64_t best = -1, best_len = INT64_MAX, cur = 0;
        for (;;) { /* walk the live intervals upward from cur */
            int64_t next = INT64_MAX, next_hi = 0;
            for (int32_t q = 0; q < k; q++) {
                int32_t j = ord[q];
                if (b[j].end >= b[id].start && off[j] + b[j].size > cur && off[j] < next) {
                    next = off[j] > cur ? off[j] : cur;
                    next_hi = off[j] + b[j].size;
                }
            }
            if (next == INT64_MAX)
                break;
            if (next > cur && next - cur >= b[id].size && next - cur < best_len) {
                best_len = next - cur;
                best = cur;
            }
            cur = next_hi > cur ? next_hi : cur;
            /* the one found may overlap others starting below its top */
            for (bool grew = true; grew;) {
                grew = false;
                for (int32_t q = 0; q < k; q++) {
                    int32_t j = ord[q];
                    if (b[j].end >= b[id].start && off[j] < cur && off[j] + b[j].size > cur) {
                        cur = off[j] + b[j].size;
                        grew = true;
                    }
                }
            }
        }
        off[id] = best >= 0 ? best : cur;
    }
    free(ord);
}

static void test_matches_reference(void **state)
{
    (void)state;
    unsigned seed = 7;
    for (int round = 0; round < 300; round++) {
        arena_buf_t b[40];
        int32_t n = 1 + round % 40;
        tu_random_bufs(&seed, b, n, 30, 8, 9);
        int64_t off[40], ref[40];
        int64_t h = run(b, n, off);
        reference(b, n, ref);
        int64_t top = 0;
        for (int32_t i = 0; i < n; i++) {
            if (off[i] != ref[i])
                fail_msg("round %d buffer %d: %lld vs reference %lld", round, i, (long long)off[i],
                         (long long)ref[i]);
            top = off[i] + b[i].size > top ? off[i] + b[i].size : top;
        }
        assert_int_equal(h, top);
        assert_true(h >= arena_max_live(b, n, 1, NULL));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_birth_order_and_merge),
        cmocka_unit_test(test_empty_and_zero),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
