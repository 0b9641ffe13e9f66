/* Tests for core/lower/virtualizer.c: the virtualizer, one test per rejection reason. */
#include <stdlib.h>

#include "lower/virtualizer.h"
#include "testutil.h"

static const char *R =
    "routine p\n"
    "input x [4]\n"
    "a = f(x) [4]\n"
    "b = f(a) [4]\n"
    "c = f(b) [4]\n"
    "o = f(c) [4] @output\n"
    "q = f(c) [4] @pinned\n"
    "acc = f(x) [4]\n"
    "acc += f(a) [4]\n"
    "d = f(acc) [4] @inline\n"
    "e = f(d, q, o) [4] @output\n"
    "u = f(e) [4] @into(x)\n"
    "v = f(e) [4] @output @into(x)\n";

static virtualizer_reason_t rejected_for(const placement_t *p, int32_t node)
{
    for (int32_t k = 0; k < p->n_rejected; k++)
        if (p->rejected[k].node == node)
            return (virtualizer_reason_t)p->rejected[k].reason;
    return REJECT_NONE;
}

static void check_one(const char *name, virtualizer_reason_t want)
{
    tr_t t;
    tr_load(&t, R);
    uint8_t *prefs = tr_prefs(&t, name, NULL);
    placement_t p;
    rs_error_t err;
    assert_int_equal(virtualizer_run(t.l, prefs, 8, &p, &err), RS_OK);
    int32_t n = tr_node(&t, name);
    assert_int_equal(rejected_for(&p, n), want);
    assert_int_equal(p.is_inline[n], want == REJECT_NONE);
    virtualizer_free(&p);
    free(prefs);
    tr_free(&t);
}

static void test_resident(void **s) { (void)s; check_one("x", REJECT_RESIDENT); }
static void test_output(void **s) { (void)s; check_one("o", REJECT_OUTPUT); }
static void test_pinned(void **s) { (void)s; check_one("q", REJECT_PINNED); }
static void test_accumulated(void **s) { (void)s; check_one("acc", REJECT_ACCUMULATED); }
static void test_into(void **s) { (void)s; check_one("u", REJECT_INTO); }
static void test_into_output(void **s) { (void)s; check_one("v", REJECT_OUTPUT); }
static void test_legal(void **s) { (void)s; check_one("b", REJECT_NONE); }

static void test_default_policy(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, R);
    placement_t p;
    rs_error_t err;
    assert_int_equal(virtualizer_run(t.l, NULL, 8, &p, &err), RS_OK);
    assert_true(p.is_inline[tr_node(&t, "d")]);   /* @inline */
    assert_false(p.is_inline[tr_node(&t, "a")]);
    assert_int_equal(p.n_rejected, 0);
    virtualizer_free(&p);
    tr_free(&t);
}

/* a, b, c each read the previous: depths 1, 2, 3; with a limit of 2 the
 * third preference is rejected and the first two stay inline. */
static void test_depth_limit(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, R);
    uint8_t *prefs = tr_prefs(&t, "a", "b", "c", NULL);
    placement_t p;
    rs_error_t err;
    assert_int_equal(virtualizer_run(t.l, prefs, 2, &p, &err), RS_OK);
    assert_true(p.is_inline[tr_node(&t, "a")]);
    assert_true(p.is_inline[tr_node(&t, "b")]);
    assert_false(p.is_inline[tr_node(&t, "c")]);
    assert_int_equal(p.depth[tr_node(&t, "a")], 1);
    assert_int_equal(p.depth[tr_node(&t, "b")], 2);
    assert_int_equal(rejected_for(&p, tr_node(&t, "c")), REJECT_DEPTH);
    assert_int_equal(p.rejected[0].depth, 3);
    virtualizer_free(&p);
    /* a limit of 0 rejects every preference, the default policy's too */
    assert_int_equal(virtualizer_run(t.l, prefs, 0, &p, &err), RS_OK);
    assert_int_equal(p.n_rejected, 4); /* a b c d */
    virtualizer_free(&p);
    free(prefs);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resident),   cmocka_unit_test(test_output),
        cmocka_unit_test(test_pinned),     cmocka_unit_test(test_accumulated),
        cmocka_unit_test(test_legal),      cmocka_unit_test(test_default_policy),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_into),       cmocka_unit_test(test_into_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
