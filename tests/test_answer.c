/* Tests for core/plan/answer.c: flips grouped by origin and the flips that
 * do not pay (DESIGN §13), worked by hand. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "plan/answer.h"
#include "testutil.h"

/* a and b come from m.py:10, e from a.py:3; c and d say nothing: their
 * operation, add, is their origin. */
static const char *ORIGINS =
    "routine o\n"
    "dtype u8\n"
    "input x [4]\n"
    "a = mul(x) [10] source=\"m.py:10\"\n"
    "b = mul(a) [20] source=\"m.py:10\"\n"
    "c = add(b) [30]\n"
    "d = add(c) [30]\n"
    "e = exp(d) [5] op_name=\"aten__exp\" source=\"a.py:3\"\n"
    "o = neg(e) [1] @output\n";

static fit_flip_t flip(const tr_t *t, const char *name, int64_t relief, int64_t recompute)
{
    return (fit_flip_t){ .node = tr_node(t, name), .relief = relief, .recompute = recompute };
}

static void test_by_origin(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ORIGINS);
    assert_string_equal(answer_origin_of(t.r, tr_node(&t, "a")), "m.py:10");
    assert_string_equal(answer_origin_of(t.r, tr_node(&t, "c")), "add");
    assert_string_equal(answer_origin_of(t.r, tr_node(&t, "x")), "input");
    /* in acceptance order; m.py:10 and add both relieve 30: byte order puts
     * "add" first */
    fit_flip_t f[5] = { flip(&t, "e", 1, 2), flip(&t, "b", 20, 0), flip(&t, "c", 0, 0), flip(&t, "d", 30, 7),
                        flip(&t, "a", 10, 5) };
    answer_origin_t *g;
    int32_t n, group_of[5];
    rs_error_t err;
    assert_int_equal(answer_by_origin(t.r, f, 5, &g, &n, group_of, &err), RS_OK);
    assert_int_equal(n, 3);
    assert_string_equal(g[0].origin, "add");
    assert_int_equal(g[0].flips, 2);
    assert_int_equal(g[0].relief, 30);
    assert_int_equal(g[0].recompute, 7);
    assert_string_equal(g[1].origin, "m.py:10");
    assert_int_equal(g[1].flips, 2);
    assert_int_equal(g[1].relief, 30);
    assert_int_equal(g[1].recompute, 5);
    assert_string_equal(g[2].origin, "a.py:3");
    assert_int_equal(g[2].flips, 1);
    assert_int_equal(g[2].relief, 1);
    assert_int_equal(g[2].recompute, 2);
    int32_t want[5] = { 2, 1, 0, 0, 1 };
    assert_memory_equal(group_of, want, sizeof want);
    free(g);
    /* no flips: no groups */
    assert_int_equal(answer_by_origin(t.r, f, 0, &g, &n, NULL, &err), RS_OK);
    assert_int_equal(n, 0);
    free(g);
    tr_free(&t);
}

/* Baseline 1000 B and 1000 FLOPs: a flip does not pay when its share of
 * the compute is over 100 times its share of the bytes, recompute / 1000 >
 * 100 * relief / 1000, i.e. recompute > 100 * relief. */
/* Two held members before their closer, a plain flip, a group of one
 * member, and a last flip of relief 0 with no closer after it (judged on
 * its own, as answer_unpaid judges it). */
static void test_groups(void **state)
{
    (void)state;
    fit_flip_t f[8] = {
        { .relief = 0 }, { .relief = 0 }, { .relief = 5 }, { .relief = 7 },
        { .relief = 0 }, { .relief = 9 }, { .relief = -2 }, { .relief = 0 },
    };
    int32_t closer[8];
    assert_int_equal(answer_groups(f, 8, closer), 3);
    int32_t want[8] = { 2, 2, 2, -1, 5, 5, -1, -1 };
    assert_memory_equal(closer, want, sizeof want);
    assert_int_equal(answer_groups(f, 0, closer), 0);
}

static void test_unpaid(void **state)
{
    (void)state;
    fit_flip_t f[7] = {
        { .relief = 1, .recompute = 100 },  /* exactly 100 times: pays */
        { .relief = 1, .recompute = 101 },  /* over: does not */
        { .relief = 0, .recompute = 0 },    /* a held member ... */
        { .relief = 0, .recompute = 0 },    /* ... */
        { .relief = 2, .recompute = 900 },  /* ... and the flip closing the group: 900 > 200, all three marked */
        { .relief = 500, .recompute = 0 },  /* adds nothing: pays */
        { .relief = 3, .recompute = -50 },  /* saves compute: pays */
    };
    uint8_t u[7];
    assert_int_equal(answer_unpaid(f, 7, 1000, 1000, u), 4);
    uint8_t want[7] = { 0, 1, 1, 1, 1, 0, 0 };
    assert_memory_equal(u, want, sizeof want);
    /* exact where a cross-multiplication would overflow: baseline 1e17 B
     * and 1e18 FLOPs, relief 1e15 B: the edge is a recompute of 1e18 */
    fit_flip_t big[2] = { { .relief = 1000000000000000LL, .recompute = 1000000000000000000LL },
                          { .relief = 1000000000000000LL, .recompute = 1000000000000000001LL } };
    assert_int_equal(answer_unpaid(big, 2, 100000000000000000LL, 1000000000000000000LL, u), 1);
    assert_int_equal(u[0], 0);
    assert_int_equal(u[1], 1);
}

/* The Llama-2 case of the issue: 22 flips committed together, the last
 * relieving 2 B of 9.75 TiB while the group adds 2.2 TFLOPs of 170. */
static void test_unpaid_group_of_two_bytes(void **state)
{
    (void)state;
    fit_flip_t f[23];
    memset(f, 0, sizeof f);
    f[21] = (fit_flip_t){ .relief = 2, .recompute = 2200000000000LL };
    f[22] = (fit_flip_t){ .relief = 1LL << 40, .recompute = 1000000000LL }; /* 1 TiB for a GFLOP pays */
    uint8_t u[23];
    assert_int_equal(answer_unpaid(f, 23, 10720238370816LL, 170000000000000LL, u), 22);
    for (int i = 0; i < 22; i++)
        assert_int_equal(u[i], 1);
    assert_int_equal(u[22], 0);
}

/* Flips of a real fit, grouped: the sums are the plan's. */
static void test_by_origin_of_a_fit(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ORIGINS, "minimize", -1, 1);
    answer_origin_t *g;
    int32_t n;
    rs_error_t err;
    assert_int_equal(answer_by_origin(f.t.r, f.plan->flips, f.plan->n_flips, &g, &n, NULL, &err), RS_OK);
    int64_t relief = 0, recompute = 0;
    int32_t flips = 0;
    for (int32_t k = 0; k < n; k++) {
        relief += g[k].relief;
        recompute += g[k].recompute;
        flips += g[k].flips;
        if (k)
            assert_true(g[k - 1].relief > g[k].relief ||
                        (g[k - 1].relief == g[k].relief && strcmp(g[k - 1].origin, g[k].origin) < 0));
    }
    assert_int_equal(flips, f.plan->n_flips);
    assert_int_equal(relief, f.plan->baseline.total - f.plan->final.total);
    assert_int_equal(recompute, f.plan->final.compute - f.plan->baseline.compute);
    free(g);
    tf_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_origin),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_unpaid),
        cmocka_unit_test(test_unpaid_group_of_two_bytes),
        cmocka_unit_test(test_by_origin_of_a_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
