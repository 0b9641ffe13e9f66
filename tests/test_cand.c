/* Tests for core/plan/cand.c: flip candidates and compare_relief_ratio. */
#include <stdlib.h>

#include "plan/cand.h"
#include "testutil.h"

#define LT(a, b, c, d) assert_true(compare_relief_ratio(a, b, c, d) < 0)
#define GT(a, b, c, d) assert_true(compare_relief_ratio(a, b, c, d) > 0)
#define EQ(a, b, c, d) assert_int_equal(compare_relief_ratio(a, b, c, d), 0)

static void test_signs(void **state)
{
    (void)state;
    LT(-3, 2, 1, 5);   /* -1.5 < 0.2 */
    GT(1, 5, -3, 2);
    LT(0, 7, 1, 1000000);
    GT(0, 7, -1, 1000000);
    EQ(0, 3, 0, 9);
}

static void test_equal_in_other_terms(void **state)
{
    (void)state;
    EQ(2, 4, 1, 2);
    EQ(-6, 4, -3, 2);
    EQ(1000000007LL * 3, 1000000007LL * 5, 3, 5);
}

/* -7/2 = -3.5 and -10/3 = -3.33: truncating division gives -3 for both
 * and remainders -1/2 vs -1/3, which would order them the wrong way;
 * floor gives -4 vs -4 and remainders 1/2 vs 2/3: -3.5 < -3.33. */
static void test_negative_floor(void **state)
{
    (void)state;
    LT(-7, 2, -10, 3);
    GT(-10, 3, -7, 2);
    LT(-1, 3, -1, 4);  /* -0.333 < -0.25 */
    LT(-5, 3, -3, 2);  /* -1.667 < -1.5 */
}

static void test_extremes(void **state)
{
    (void)state;
    LT(INT64_MIN, INT64_MAX, -1, 1);         /* -1.0000000001 < -1 */
    EQ(INT64_MAX, INT64_MAX, 1, 1);
    GT(INT64_MAX, INT64_MAX - 1, 1, 1);
    /* 1 + 1/(M-1) < 1 + 1/(M-2) */
    LT(INT64_MAX, INT64_MAX - 1, INT64_MAX - 1, INT64_MAX - 2);
    EQ(INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX);
    LT(INT64_MIN, 1, INT64_MIN + 1, 1);
    GT(INT64_MAX, 1, INT64_MAX - 1, 1);
    LT(INT64_MIN, 2, INT64_MIN / 2 + 1, 1);  /* -2^62 < -2^62 + 1 */
    EQ(1, INT64_MAX, 1, INT64_MAX);
    LT(-1, INT64_MAX - 1, -1, INT64_MAX);    /* -1/(M-1) < -1/M */
}

static void test_candidates(void **state)
{
    (void)state;
    tr_t t;
    /* costs: a 10, b 10, y 20 (2 args), acc 10 + 10 */
    tr_load(&t,
            "routine c\n"
            "input x [10]\n"
            "a = f(x) [10]\n"
            "b = g(a) [10] @inline\n"
            "y = mul(a, a) [10]\n"
            "acc = f(x) [10]\n"
            "acc += f(y) [10]\n"
            "p = f(b) [10] @pinned\n"
            "o = add(acc, p) [10] @output\n");
    placement_t p;
    liveness_t lv;
    rs_error_t err;
    assert_int_equal(virtualizer_run(t.l, NULL, 8, &p, &err), RS_OK);
    assert_int_equal(live_compute(t.l, &p, &lv, &err), RS_OK);
    flip_candidate_t *c;
    int32_t n;
    assert_int_equal(flip_candidates(t.l, &p, &lv, &c, &n, &err), RS_OK);
    /* definition order; x resident, p pinned, o output are left out */
    assert_int_equal(n, 4);
    assert_int_equal(c[0].node, tr_node(&t, "a"));
    assert_int_equal(c[0].dir, FLIP_INLINE);
    /* R(a): b reads it (b inline, exec(b) = R(b) = 1 via p) + y reads it twice = 3 */
    assert_int_equal(c[0].cost_bound, 10 * 3);
    assert_int_equal(c[1].node, tr_node(&t, "b"));
    assert_int_equal(c[1].dir, FLIP_MATERIALIZE);
    assert_int_equal(c[2].node, tr_node(&t, "y"));
    assert_int_equal(c[2].cost_bound, 20);   /* read once by acc's second definition */
    assert_int_equal(c[3].node, tr_node(&t, "acc"));
    assert_int_equal(c[3].cost_bound, 20);   /* listed: legality is the virtualizer's */
    free(c);
    live_free(&lv);
    virtualizer_free(&p);
    tr_free(&t);
}

/* An @into node is never a flip candidate (DESIGN §1), whatever its other
 * flags; a node reading it still is. */
static void test_into_not_a_candidate(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine c\ninput w [10]\na = f(w) [10]\nw2 = sub(w, a) [10] @into(w)\nb = g(w2) [10]\n"
                "o = h(b) [10] @output\n");
    placement_t p;
    liveness_t lv;
    rs_error_t err;
    assert_int_equal(virtualizer_run(t.l, NULL, 8, &p, &err), RS_OK);
    assert_int_equal(live_compute(t.l, &p, &lv, &err), RS_OK);
    flip_candidate_t *c;
    int32_t n;
    assert_int_equal(flip_candidates(t.l, &p, &lv, &c, &n, &err), RS_OK);
    assert_int_equal(n, 2);
    assert_int_equal(c[0].node, tr_node(&t, "a"));
    assert_int_equal(c[1].node, tr_node(&t, "b"));
    free(c);
    live_free(&lv);
    virtualizer_free(&p);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signs),
        cmocka_unit_test(test_equal_in_other_terms),
        cmocka_unit_test(test_negative_floor),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_candidates),
        cmocka_unit_test(test_into_not_a_candidate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
