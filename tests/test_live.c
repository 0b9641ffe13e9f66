/* Tests for core/lower/live.c: spans with transitive inline substitution, R(N),
 * exec(N) and compute, each worked by hand. */
#include <stdlib.h>
#include <string.h>

#include "lower/live.h"
#include "testutil.h"

/* steps: a=0 b=1 c=2 d=3; every default cost is 10 elements x 1 arg */
static const char *CHAIN =
    "routine chain\n"
    "input x [10] u8\n"
    "a = f(x) [10] u8\n"
    "b = g(a) [10] u8\n"
    "c = h(b) [10] u8\n"
    "d = k(c) [10] u8 @output\n";

static void run(const char *text, const char *const *inl, int n_inl, tr_t *t, placement_t *p, liveness_t *lv)
{
    tr_load(t, text);
    uint8_t *prefs = calloc((size_t)t->l->n_nodes, 1);
    for (int i = 0; i < n_inl; i++)
        prefs[tr_node(t, inl[i])] = 1;
    rs_error_t err;
    assert_int_equal(virtualizer_run(t->l, prefs, 8, p, &err), RS_OK);
    assert_int_equal(live_compute(t->l, p, lv, &err), RS_OK);
    free(prefs);
}

#define SPAN(name, s, e)                                        \
    do {                                                        \
        assert_int_equal(lv.start[tr_node(&t, name)], s);       \
        assert_int_equal(lv.end[tr_node(&t, name)], e);         \
    } while (0)

static void test_no_inline(void **state)
{
    (void)state;
    tr_t t;
    placement_t p;
    liveness_t lv;
    run(CHAIN, NULL, 0, &t, &p, &lv);
    SPAN("x", 0, 3); /* resident */
    SPAN("a", 0, 1);
    SPAN("b", 1, 2);
    SPAN("c", 2, 3);
    SPAN("d", 3, 3); /* output: to the end, which is step 3 */
    assert_int_equal(lv.compute, 40);
    live_free(&lv);
    virtualizer_free(&p);
    tr_free(&t);
}

/* Inlining b: c (step 2) reads a instead, so a lives to step 2. */
static void test_inline_extends_argument(void **state)
{
    (void)state;
    tr_t t;
    placement_t p;
    liveness_t lv;
    const char *inl[] = { "b" };
    run(CHAIN, inl, 1, &t, &p, &lv);
    SPAN("a", 0, 2);
    SPAN("b", -1, -1);
    SPAN("c", 2, 3);
    assert_int_equal(lv.reads[tr_node(&t, "b")], 1);
    assert_int_equal(lv.exec[tr_node(&t, "b")], 1);
    assert_int_equal(lv.compute, 40); /* b runs once, inside c */
    live_free(&lv);
    virtualizer_free(&p);
    tr_free(&t);
}

/* Inlining b and c: d (step 3) reads c, which reads b, which reads a: a
 * lives to the outer reader's step 3. */
static void test_two_level_inline(void **state)
{
    (void)state;
    tr_t t;
    placement_t p;
    liveness_t lv;
    const char *inl[] = { "b", "c" };
    run(CHAIN, inl, 2, &t, &p, &lv);
    SPAN("a", 0, 3);
    assert_int_equal(p.depth[tr_node(&t, "c")], 2);
    assert_int_equal(lv.last_read[tr_node(&t, "b")], 3);
    assert_int_equal(lv.compute, 40);
    live_free(&lv);
    virtualizer_free(&p);
    tr_free(&t);
}

/* y = mul(b, b) reads b twice: R(b) = 2, so b's step runs twice.
 * z = add(y, y) with y inline: R(y) = 2, and b runs 2 x 2 = 4 times.
 * costs: a 10, b 10, y 20 (10 elems x 2 args), z 20.
 * compute = 10 + 4*10 + 2*20 + 20 = 110. */
static void test_reads_multiply(void **state)
{
    (void)state;
    tr_t t;
    placement_t p;
    liveness_t lv;
    const char *text =
        "routine m\n"
        "input x [10]\n"
        "a = f(x) [10]\n"
        "b = g(a) [10]\n"
        "y = mul(b, b) [10]\n"
        "z = add(y, y) [10] @output\n";
    const char *inl[] = { "b", "y" };
    run(text, inl, 2, &t, &p, &lv);
    assert_int_equal(lv.reads[tr_node(&t, "y")], 2);
    assert_int_equal(lv.reads[tr_node(&t, "b")], 4);
    assert_int_equal(lv.exec[tr_node(&t, "b")], 4);
    assert_int_equal(lv.compute, 110);
    SPAN("a", 0, 3); /* read through y and b by z at step 3 */
    live_free(&lv);
    virtualizer_free(&p);
    /* an inline node nobody reads: exec 0, its step never runs */
    const char *inl2[] = { "z" };
    tr_free(&t);
    run("routine u\ninput x [10]\na = f(x) [10]\nz = g(a) [10]\n", inl2, 1, &t, &p, &lv);
    assert_int_equal(lv.exec[tr_node(&t, "z")], 0);
    assert_int_equal(lv.compute, 10);
    SPAN("a", 0, 0);
    live_free(&lv);
    virtualizer_free(&p);
    tr_free(&t);
}

static void test_empty_routine(void **state)
{
    (void)state;
    tr_t t;
    placement_t p;
    liveness_t lv;
    run("routine e\ninput x [4]\n", NULL, 0, &t, &p, &lv);
    SPAN("x", 0, 0); /* S - 1 is taken as 0 */
    assert_int_equal(lv.compute, 0);
    live_free(&lv);
    virtualizer_free(&p);
    tr_free(&t);
}

/* Issue 24 item 8: a recompute past 2^63 is a located error (it saturated:
 * "compute 9223372036854775807"), at the node whose run overflows. */
static void test_compute_overflow_located(void **state)
{
    (void)state;
    const char *text = "routine o\ninput x [4]\na = f(x) [4] cost=4611686018427387904 @inline\nb = g(a) [4]\n"
                       "c = g(a) [4]\nd = h(b, c) [4] @output\n";
    tr_t t;
    placement_t p;
    liveness_t lv;
    tr_load(&t, text);
    uint8_t *prefs = calloc((size_t)t.l->n_nodes, 1);
    prefs[tr_node(&t, "a")] = 1;
    rs_error_t err;
    assert_int_equal(virtualizer_run(t.l, prefs, 8, &p, &err), RS_OK);
    assert_int_equal(live_compute(t.l, &p, &lv, &err), RS_EINPUT);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 1);
    assert_non_null(strstr(err.msg, "the total compute overflows 64 bits at 'a' (cost 4611686018427387904, run 2 times)"));
    virtualizer_free(&p);
    /* one below: 2 * (2^62 - 1) fits, and b's 4 more do not, at b */
    tr_free(&t);
    free(prefs);
    tr_load(&t, "routine o\ninput x [4]\na = f(x) [4] cost=4611686018427387903 @inline\nb = g(a) [4]\n"
                "c = g(a) [4]\nd = h(b, c) [4] @output\n");
    prefs = calloc((size_t)t.l->n_nodes, 1);
    prefs[tr_node(&t, "a")] = 1;
    assert_int_equal(virtualizer_run(t.l, prefs, 8, &p, &err), RS_OK);
    assert_int_equal(live_compute(t.l, &p, &lv, &err), RS_EINPUT);
    assert_int_equal(err.line, 4);
    assert_non_null(strstr(err.msg, "at 'b' (cost 4, run 1 time)"));
    virtualizer_free(&p);
    /* materialized, a runs once: 2^62 - 1 + 16 fits */
    tr_free(&t);
    free(prefs);
    tr_load(&t, "routine o\ninput x [4]\na = f(x) [4] cost=4611686018427387903\nb = g(a) [4]\n"
                "c = g(a) [4]\nd = h(b, c) [4] @output\n");
    prefs = calloc((size_t)t.l->n_nodes, 1);
    assert_int_equal(virtualizer_run(t.l, prefs, 8, &p, &err), RS_OK);
    assert_int_equal(live_compute(t.l, &p, &lv, &err), RS_OK);
    assert_int_equal(lv.compute, 4611686018427387903LL + 4 + 4 + 8); /* b, c, and d of two arguments */
    live_free(&lv);
    virtualizer_free(&p);
    free(prefs);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_inline),
        cmocka_unit_test(test_inline_extends_argument),
        cmocka_unit_test(test_two_level_inline),
        cmocka_unit_test(test_reads_multiply),
        cmocka_unit_test(test_empty_routine),
        cmocka_unit_test(test_compute_overflow_located),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
