/* Tests for core/plan/frontier_seed.c (DESIGN §14, issue 45): the
 * threshold lists, and a routine where a threshold seed gives the frontier
 * planner a plan its greedy does not find.  Worked by hand; every size is u8
 * and alignment 1, so bytes are element counts. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "plan/frontier.h"
#include "plan/frontier_seed.h"

/* Forward: a product p0 (800 FLOPs for 4 B: 200 per byte), an elementwise
 * a1 (4 for 4 B: 1 per byte) reading it twice, a product p2 (400 for 4 B:
 * 100 per byte); the 32 B z and its reduction y are the peak; backward reads
 * p2 (g0), then a1 (g1).  Steps 0 p0, 1 a1, 2 p2, 3 z, 4 y, 5 g0, 6 g1,
 * 7 out; x is resident (4 B, every step).  Spans: p0 [0,1], a1 [1,6], p2
 * [2,5], z [3,4], y [4,5]: at step 3 x+a1+p2+z = 44, at step 4 +y = 45, the
 * total.  Compute 1242: p0 800, a1 4, p2 400, the rest 38 by §1's default
 * costs. */
static const char *const HAND = "routine seed_hand\n"
                                "input x [4] u8\n"
                                "p0 = dot0(x) [4] u8 cost=800\n"
                                "a1 = ew1(p0, p0) [4] u8 cost=4\n"
                                "p2 = dot2(a1) [4] u8 cost=400\n"
                                "z = big(p2) [32] u8 @pinned\n"
                                "y = red(z) [1] u8 @pinned\n"
                                "g0 = bk0(y, p2) [1] u8 @pinned\n"
                                "g1 = bk1(g0, a1) [1] u8 @pinned\n"
                                "out = fin(g1) [1] u8 @output\n";

/* The eligible nodes are p0, a1, p2 (z, y, g0, g1 pinned, out an output, x
 * resident); a1 is 1 FLOP per byte, p2 100, p0 200. */
static void test_threshold_lists(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, HAND);
    int32_t elig[3] = { tr_node(&t, "p0"), tr_node(&t, "a1"), tr_node(&t, "p2") }, out[3];
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, NULL, 1, out), 1);
    assert_int_equal(out[0], tr_node(&t, "a1"));
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, NULL, 99, out), 1);
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, NULL, 100, out), 2); /* 400 <= 100 x 4 */
    assert_int_equal(out[0], tr_node(&t, "a1"));
    assert_int_equal(out[1], tr_node(&t, "p2"));
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, NULL, 199, out), 2);
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, NULL, 200, out), 3); /* in elig's order */
    assert_int_equal(out[0], tr_node(&t, "p0"));
    uint8_t skip[16] = { 0 };
    skip[tr_node(&t, "a1")] = 1;
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, skip, 200, out), 2);
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, NULL, 0, out), 0);
    assert_int_equal(frontier_seed_threshold(t.l, elig, 3, NULL, INT64_MAX, out), 3); /* no overflow */
    tr_free(&t);
}

/* frontier_run at 40 B, seeded with §5's plan (p2, a1, p0 inline, as `fit
 * --planner frontier` does) when five, with or without the threshold seeds. */
static void run(const tr_t *t, bool five, bool no_seeds, frontier_result_t *res)
{
    fit_context_t *ctx = tf_root(t);
    int32_t seed[3] = { tr_node(t, "p2"), tr_node(t, "a1"), tr_node(t, "p0") };
    frontier_options_t o = { .budget = 40, .seed = seed, .n_seed = five ? 3 : 0, .no_seeds = no_seeds };
    rs_error_t err;
    if (frontier_run(&o, ctx, res, &err))
        fail_msg("frontier: %s", err.msg);
    fit_context_free(ctx);
}

/* At 40 B.  §5's plan is 37 B for +4408: p0, a1 and p2 inline, p2 run at z
 * and g0 (+400), a1 at each of p2's two runs and at g1 (+8), p0 twice at each
 * of a1's three runs (+4000); only x, z and y are left, 37 B at step 4.  The
 * greedy does not better it, nor, from the context alone, reach 40 B: remat
 * p2 alone frees 1 B (it lives [2,3], its copy from before g0, but a1 and y
 * still do: x+a1+p2+z = 44 at step 3), remat a1 alone nothing (p0 then lives
 * to a1's recompute: 45 at step 4), remat p0 alone is no candidate (no gap
 * after its one read).
 *
 * The 256 FLOPs-per-byte seed flips all three (the 4, 16 and 64 seeds are
 * a1 alone): p2 read at 3 and g0, its largest gap before g0, lives [2,3]; a1
 * read at 2 and by p2's recompute lives [1,2]; p0 read at 1 and by a1's
 * recompute lives [0,1]; steps 0 p0, 1 a1, 2 p2, 3 z, 4 y, 5 p0', 6 a1',
 * 7 p2', 8 g0, 9 g1, 10 out.  At step 3 x+p2+z = 40, at 4 x+z+y = 37, at 7
 * x+y+a1'+p2' = 13: total 40 (within), each recomputed once: +1204. */
static void test_seed_beats_greedy(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, HAND);
    frontier_result_t r;
    run(&t, false, true, &r);
    assert_false(r.within_budget);
    frontier_result_free(&r);

    run(&t, true, true, &r);
    assert_int_equal(r.baseline.total, 45);
    assert_int_equal(r.baseline.compute, 1242);
    assert_true(r.within_budget);
    assert_int_equal(r.final.total, 37);
    assert_int_equal(r.final.compute, 1242 + 4408);
    frontier_result_free(&r);

    run(&t, true, false, &r);
    assert_true(r.within_budget);
    assert_int_equal(r.final.total, 40);
    assert_int_equal(r.final.compute, 1242 + 1204);
    assert_int_equal(r.n_flips, 3);
    uint8_t seen[16] = { 0 };
    for (int32_t k = 0; k < r.n_flips; k++) {
        assert_int_equal(r.flips[k].kind, FRONTIER_REMAT);
        seen[r.flips[k].node] = 1;
    }
    assert_true(seen[tr_node(&t, "p0")] && seen[tr_node(&t, "a1")] && seen[tr_node(&t, "p2")]);
    frontier_result_free(&r);
    tr_free(&t);
}

/* §14's objective, worked by hand at a budget of 100: within it the least
 * compute wins (ties: the smaller total), any plan within beats one over it,
 * two over it the smaller total (ties: the least compute); Minimize the
 * least total.  frontier_adopt takes a plan found at another budget and
 * judges it at this one. */
static void test_objective_and_adopt(void **state)
{
    (void)state;
    footprint_t a = { .total = 90, .compute = 50 }, b = { .total = 80, .compute = 60 }, c = { .total = 120, .compute = 10 },
                d = { .total = 110, .compute = 99 }, e = { .total = 85, .compute = 50 };
    assert_true(frontier_better(false, 100, &a, &b));  /* less compute */
    assert_false(frontier_better(false, 100, &b, &a));
    assert_true(frontier_better(false, 100, &e, &a));  /* same compute, smaller total */
    assert_true(frontier_better(false, 100, &b, &c));  /* within beats over */
    assert_true(frontier_better(false, 100, &d, &c));  /* both over: the smaller total */
    assert_false(frontier_better(false, 100, &a, &a)); /* strictly */
    assert_true(frontier_better(true, 0, &b, &a));     /* minimize: the least total */
    assert_true(frontier_better(true, 0, &d, &c));
    frontier_flip_t fl[2] = { { .relief = 30, .recompute = 40, .node = 3, .kind = FRONTIER_REMAT },
                              { .relief = 10, .recompute = 10, .node = 1, .kind = FRONTIER_INLINE } };
    frontier_result_t src = { .final = d, .flips = fl, .n_flips = 2, .explored = 7 };
    frontier_result_t dst = { .final = c, .explored = 99, .stopped = true };
    rs_error_t err;
    assert_int_equal(frontier_adopt(&dst, &src, false, 115, &err), RS_OK);
    assert_true(dst.adopted && dst.within_budget && dst.stopped);
    assert_int_equal(dst.explored, 99);
    assert_int_equal(dst.final.total, 110);
    assert_int_equal(dst.n_flips, 2);
    assert_memory_equal(dst.flips, fl, sizeof fl);
    assert_int_equal(frontier_adopt(&dst, &src, false, 100, &err), RS_OK);
    assert_false(dst.within_budget);
    frontier_result_free(&dst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threshold_lists),
        cmocka_unit_test(test_seed_beats_greedy),
        cmocka_unit_test(test_objective_and_adopt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
