/* Tests for core/lower/lower.c: evaluated bytes, costs, readers; copies. */
#include <string.h>

#include "testutil.h"

static const char *GOLDEN =
    "routine golden\n"
    "bind B=2 D=3\n"
    "dtype f16\n"
    "input x [B, D]\n"                               /* node 0: 6 elems, 12 B */
    "param w [D, D] f32\n"                           /* node 1: 9 elems, 36 B */
    "h = matmul(x, w) [B, D] cost=2*B*D*D @pinned\n" /* node 2, step 0: cost 36 */
    "g = relu(h) [B, D] @inline\n"                   /* node 3, step 1: 6 * 1 */
    "acc = add(g, x) [B, D] f32\n"                   /* node 4, step 2: 6 * 2 = 12, 24 B */
    "acc += mul(h, h) [B, D]\n"                      /* step 3: 12 -> acc costs 24 */
    "s = sum(acc) [] @output\n"                      /* node 5, step 4: 1 elem, 2 B, cost 1 */
    "z = zeros() [0]\n"                              /* node 6, step 5: 0 B, cost 0 -> 1 */
    "c = f(x) [B] cost=0-5\n";                       /* node 7, step 6: negative -> 1 */

static void test_golden(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, GOLDEN);
    const lowering_t *l = t.l;
    int64_t bytes[] = { 12, 36, 12, 12, 24, 2, 0, 4 };
    int64_t cost[] = { 0, 0, 36, 6, 24, 1, 1, 1 };
    int32_t ndefs[] = { 0, 0, 1, 1, 2, 1, 1, 1 };
    for (int i = 0; i < 8; i++) {
        assert_int_equal(l->bytes[i], bytes[i]);
        assert_int_equal(l->cost[i], cost[i]);
        assert_int_equal(l->ndefs[i], ndefs[i]);
    }
    assert_int_equal(l->first_def[4], 2);
    assert_int_equal(l->last_def[4], 3);
    assert_int_equal(l->first_def[0], -1);
    /* readers of h (node 2): step 1 once, step 3 twice */
    assert_int_equal(l->rd_off[3] - l->rd_off[2], 3);
    assert_int_equal(l->rd_step[l->rd_off[2]], 1);
    assert_int_equal(l->rd_step[l->rd_off[2] + 1], 3);
    assert_int_equal(l->rd_step[l->rd_off[2] + 2], 3);
    /* readers of x: steps 0, 2, 6 */
    assert_int_equal(l->rd_off[1] - l->rd_off[0], 3);
    assert_int_equal(l->rd_step[l->rd_off[0] + 2], 6);
    /* shapes */
    assert_int_equal(l->dim_off[1] - l->dim_off[0], 2);
    assert_int_equal(l->dims[l->dim_off[0]], 2);
    assert_int_equal(l->dims[l->dim_off[0] + 1], 3);
    assert_int_equal(l->dim_off[6] - l->dim_off[5], 0); /* scalar */
    tr_free(&t);
}

/* A routine of scalars only compiles no expression at all: its empty
 * shapes evaluate to one element (a fuzz finding: the empty pool's NULL ops
 * were offset, undefined behaviour UBSan reports). */
static void test_scalars_only(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine s\ndtype f64\ninput x []\ny = f(x) []\nz = g(y) [] @output\n");
    assert_int_equal(t.r->exprs.n, 0);
    assert_int_equal(t.l->bytes[0], 8);
    assert_int_equal(t.l->bytes[1], 8);
    assert_int_equal(t.l->cost[2], 1);
    tr_free(&t);
}

static void test_copy_and_compare(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, GOLDEN);
    lowering_t *c;
    rs_error_t err;
    assert_int_equal(lower_copy(t.l, &c, &err), RS_OK);
    char what[200];
    assert_int_equal(lower_compare(t.l, c, what, sizeof what), 0);
    assert_ptr_not_equal(c->bytes, t.l->bytes); /* private */
    c->cost[4]++;
    assert_int_not_equal(lower_compare(t.l, c, what, sizeof what), 0);
    assert_non_null(strstr(what, "cost[4]"));
    lower_free(c);
    tr_free(&t);
}

/* An @into node holds no bytes of its own (its shape and costs stay) and
 * its role is output; lower_into names its input. */
static void test_into(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine d\ninput w [8]\ninput m [8] f16\ng = f(w) [8]\nm2 = add(m, g) [8] f16 @into(m)\n"
                "w2 = sub(w, m2) [8] @output @into(w)\nq = f(w2) [8] @pinned\ns = f(q) [] @output @pinned\n");
    const lowering_t *l = t.l;
    int32_t w = tr_node(&t, "w"), m = tr_node(&t, "m"), g = tr_node(&t, "g"), m2 = tr_node(&t, "m2"),
            w2 = tr_node(&t, "w2"), q = tr_node(&t, "q"), s = tr_node(&t, "s");
    int64_t bytes[] = { 32, 16, 32, 0, 0, 32, 4 };
    int64_t cost[] = { 0, 0, 8, 16, 16, 8, 1 };
    for (int i = 0; i < 7; i++) {
        assert_int_equal(l->bytes[i], bytes[i]);
        assert_int_equal(l->cost[i], cost[i]);
    }
    assert_int_equal(l->elems[m2], 8);
    assert_int_equal(lower_into(l, m2), m);
    assert_int_equal(lower_into(l, w2), w);
    assert_int_equal(lower_into(l, g), -1);
    assert_int_equal(lower_into(l, w), -1);
    assert_int_equal(lower_role(l, w), LOWER_RESIDENT);
    assert_int_equal(lower_role(l, g), LOWER_CANDIDATE);
    assert_int_equal(lower_role(l, m2), LOWER_OUTPUT); /* @into counts as output (§13) */
    assert_int_equal(lower_role(l, w2), LOWER_OUTPUT);
    assert_int_equal(lower_role(l, q), LOWER_PINNED);
    assert_int_equal(lower_role(l, s), LOWER_OUTPUT); /* output and pinned: output */
    /* a copy compares equal; the flag is one of the fields compared */
    lowering_t *c;
    rs_error_t err;
    char what[128];
    assert_int_equal(lower_copy(l, &c, &err), RS_OK);
    assert_int_equal(lower_compare(l, c, what, sizeof what), 0);
    c->flags[m2] &= (uint8_t)~FLAG_INTO;
    assert_int_not_equal(lower_compare(l, c, what, sizeof what), 0);
    assert_string_equal(what, "flags[3] differs: 8 vs 0");
    lower_free(c);
    /* scored: a zero-byte buffer over its span, laid out at 0 */
    footprint_t fp;
    score_config_t cfg;
    score_config_default(&cfg);
    score_detail_t d;
    assert_int_equal(score_lowering(l, NULL, &cfg, &fp, &d, &err), RS_OK);
    assert_int_equal(d.live.start[m2], 1);
    assert_int_equal(d.live.end[m2], 2);  /* read by w2 at step 2 */
    assert_int_equal(d.live.end[w2], 4);  /* @output: to the end */
    assert_int_equal(d.aligned[m2], 0);
    assert_int_equal(d.offset[m2], 0);
    assert_int_equal(fp.buffers, 7);
    /* live: w m at every step, g over steps 0-1, q 3-4, s 4 (m2 and w2
     * hold nothing): step 4 holds w m q s */
    assert_int_equal(fp.live_peak, 32 + 16 + 32 + 4);
    assert_int_equal(fp.peak_step, 4);
    score_detail_free(&d);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_copy_and_compare),
        cmocka_unit_test(test_scalars_only),
        cmocka_unit_test(test_into),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
