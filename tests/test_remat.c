/* Tests for core/lower/remat.c (DESIGN §14), each worked by hand: a remat
 * flip whose arguments are resident, materialized, inline and remat-flipped
 * themselves; the largest gap before the first read (no candidate); ties;
 * several recompute steps before one step; no remat flip = §3's scoring.
 * Every size is u8 and alignment 1, so bytes are element counts. */
#include <stdlib.h>
#include <string.h>

#include "lower/remat.h"
#include "testutil.h"

typedef struct run {
    tr_t t;
    footprint_t fp;
    remat_detail_t d;
} run_t;

/* Scores text with the remat flips named (a NULL-terminated list). */
static void run_remat(run_t *r, const char *text, const char *first, ...)
{
    tr_load(&r->t, text);
    uint8_t *remat = calloc((size_t)r->t.l->n_nodes, 1);
    va_list ap;
    va_start(ap, first);
    for (const char *n = first; n; n = va_arg(ap, const char *))
        remat[tr_node(&r->t, n)] = 1;
    va_end(ap);
    score_config_t cfg;
    score_config_default(&cfg);
    rs_error_t err;
    assert_int_equal(remat_score(r->t.l, NULL, remat, &cfg, &r->fp, &r->d, &err), RS_OK);
    free(remat);
}

static void run_free(run_t *r)
{
    remat_detail_free(&r->d);
    tr_free(&r->t);
}

#define SPAN(name, s, e)                                           \
    do {                                                           \
        assert_int_equal(r.d.start[tr_node(&r.t, name)], s);       \
        assert_int_equal(r.d.end[tr_node(&r.t, name)], e);         \
    } while (0)

/* copy k (in node order) of node name spans [s, e] */
#define COPY(k, name, s, e)                                        \
    do {                                                           \
        assert_int_equal(r.d.copies[k].node, tr_node(&r.t, name)); \
        assert_int_equal(r.d.copies[k].step, s);                   \
        assert_int_equal(r.d.copies[k].end, e);                    \
    } while (0)

#define FOOTPRINT(tot, live, step, nbuf, comp)        \
    do {                                              \
        assert_int_equal(r.fp.total, tot);            \
        assert_int_equal(r.fp.live_peak, live);       \
        assert_int_equal(r.fp.peak_step, step);       \
        assert_int_equal(r.fp.buffers, nbuf);         \
        assert_int_equal(r.fp.compute, comp);         \
    } while (0)

/* a is read at s1 and late at s4; its argument x is resident. */
static const char *RESIDENT_ARG =
    "routine resident_arg\n"
    "input x [4] u8\n"
    "a = f(x) [8] u8 cost=5\n"      /* s0 */
    "b = g(a) [2] u8\n"             /* s1, cost 2 */
    "c = h(b) [32] u8\n"            /* s2, cost 32 */
    "d = k(c) [2] u8\n"             /* s3, cost 2 */
    "e = m(d, a) [2] u8 @output\n"; /* s4, cost 2 x 2 = 4 */

/* remat a: reads 1, 4 after d=0: gaps 1, 3, the largest before s4.  The
 * schedule s0 s1 s2 s3 a' s4 (S' = 6): a [0,1], a' [4,5], x to 5, e [5,5],
 * d [3,5].  Live: 12 14 38 38 14 16: peak 38 at step 2.  The greedy: c
 * (32) at 0; a [0,1] and a' [4,5] miss c: 0; x at 32; d [3,5] meets c, a',
 * x: 36; b [1,2] meets a, c, x: 36 (d is [3,5]); e [5,5] meets a' [0,8),
 * x and d: the gap above a', 8.  Total 38 (the baseline's is 46: a at 32
 * over [0,4], x at 40, d and b at 44).  Compute
 * 5+2+32+2+4 = 45, and a once more: 50. */
static void test_resident_argument(void **state)
{
    (void)state;
    run_t r;
    run_remat(&r, RESIDENT_ARG, "a", NULL);
    assert_int_equal(r.d.n_steps, 6);
    assert_int_equal(r.d.skip[tr_node(&r.t, "a")], REMAT_APPLIED);
    SPAN("x", 0, 5);
    SPAN("a", 0, 1);
    SPAN("d", 3, 5);
    SPAN("e", 5, 5);
    assert_int_equal(r.d.n_copies, 1);
    COPY(0, "a", 4, 5);
    assert_int_equal(r.d.copies[0].offset, 0);
    assert_int_equal(r.d.step_orig[4], -1);
    assert_int_equal(r.d.step_node[4], tr_node(&r.t, "a"));
    assert_int_equal(r.d.step_orig[5], 4);
    assert_int_equal(r.d.offset[tr_node(&r.t, "e")], 8);
    FOOTPRINT(38, 38, 2, 7, 50);
    run_free(&r);
}

/* b's recompute step reads a: a's span reaches it.  Reads of b: 2, 4 after
 * d=1: gaps 1, 2; b' before s4 (position 4), a [0,4], b [1,2], b' [4,5].
 * Compute 5+3+32+2+4 = 46, b once more: 49.  Live: x4+a8 = 12, +b2 = 14,
 * x a b c = 46, x a c d = 46, x a d b' = 16, x d b' e = 10: peak 46 at 2. */
static void test_materialized_argument(void **state)
{
    (void)state;
    run_t r;
    run_remat(&r,
              "routine materialized_arg\n"
              "input x [4] u8\n"
              "a = f(x) [8] u8 cost=5\n"
              "b = g(a) [2] u8 cost=3\n"
              "c = h(b) [32] u8\n"
              "d = k(c) [2] u8\n"
              "e = m(d, b) [2] u8 @output\n",
              "b", NULL);
    SPAN("a", 0, 4);
    SPAN("b", 1, 2);
    COPY(0, "b", 4, 5);
    assert_int_equal(r.fp.live_peak, 46);
    assert_int_equal(r.fp.peak_step, 2);
    assert_int_equal(r.fp.compute, 49);
    assert_int_equal(r.fp.buffers, 7);
    run_free(&r);
}

/* n reads x (resident), m (materialized), i (inline: x) and r, itself
 * remat-flipped.  Descending index: n first: reads s4, s6 after d=3: gaps
 * 1, 2: n' before s6.  Then r: reads s3 (position 3) and n' (position 6)
 * after d=2: gaps 1, 3: r' just before n'.  Schedule s0 s1 s2 s3 s4 s5 r'
 * n' s6 (S' = 9).  m is read at 2, 3, 6 (r'), 7 (n'): [0,7]; r [2,3], r'
 * [6,7]; n [3,4], n' [7,8]; big [4,5]; y [5,8]; z [8,8].  Compute: m 1, i
 * 7 at each of its two reads (n, n') 14, r 11, n 13, big, y, z 1 each =
 * 42; r' 11 and n' 13: 66.  Live: 8 8 12 16 76 76 16 20 16: 76 at 4.  The
 * greedy: big 0; x 64; m 68; y [5,8] 72; r [2,3] below 64: 0; n [3,4]
 * meets big, x, m, r: 72; r' [6,7] 0; n' [7,8] meets r': 4; z [8,8] meets
 * n', x, y: 0.  Total 76; 9 buffers. */
static void test_argument_kinds(void **state)
{
    (void)state;
    run_t r;
    run_remat(&r,
              "routine kinds\n"
              "input x [4] u8\n"
              "m = f(x) [4] u8 cost=1\n"
              "i = g(x) [4] u8 cost=7 @inline\n"
              "r = h(m) [4] u8 cost=11\n"
              "n = k(x, m, i, r) [4] u8 cost=13\n"
              "big = p(n) [64] u8 cost=1\n"
              "y = q(big) [4] u8 cost=1\n"
              "z = s(y, n) [4] u8 cost=1 @output\n",
              "n", "r", NULL);
    assert_int_equal(r.d.n_steps, 9);
    SPAN("x", 0, 8);
    SPAN("m", 0, 7);
    SPAN("r", 2, 3);
    SPAN("n", 3, 4);
    SPAN("big", 4, 5);
    SPAN("y", 5, 8);
    SPAN("z", 8, 8);
    assert_int_equal(r.d.start[tr_node(&r.t, "i")], -1);
    assert_int_equal(r.d.n_copies, 2);
    COPY(0, "r", 6, 7);
    COPY(1, "n", 7, 8);
    assert_int_equal(r.d.copies[0].offset, 0);
    assert_int_equal(r.d.copies[1].offset, 4);
    assert_int_equal(r.d.offset[tr_node(&r.t, "n")], 72);
    assert_int_equal(r.d.step_node[6], tr_node(&r.t, "r"));
    assert_int_equal(r.d.step_node[7], tr_node(&r.t, "n"));
    FOOTPRINT(76, 76, 4, 9, 66);
    /* without the layout: the same but for the total and the offsets */
    remat_detail_t d;
    footprint_t fp;
    rs_error_t err;
    score_config_t cfg;
    score_config_default(&cfg);
    uint8_t remat[16] = { 0 };
    remat[tr_node(&r.t, "n")] = remat[tr_node(&r.t, "r")] = 1;
    assert_int_equal(remat_score_spans(r.t.l, NULL, remat, &cfg, &fp, &d, &err), RS_OK);
    assert_int_equal(fp.total, -1);
    assert_int_equal(fp.live_peak, 76);
    assert_int_equal(fp.peak_step, 4);
    assert_int_equal(fp.buffers, 9);
    assert_int_equal(fp.compute, 66);
    assert_int_equal(d.copies[1].step, 7);
    assert_int_equal(d.copies[1].offset, -1);
    assert_int_equal(d.end[tr_node(&r.t, "m")], 7);
    remat_detail_free(&d);
    run_free(&r);
}

/* a is first read at s3 (gap 3), then at s4 (gap 1): the largest gap is
 * the one before u1, so a is no remat candidate and the scoring is §3's:
 * x [0,4], a [0,4], b [1,1], c [2,2], d [3,4], e [4,4]: live 8 12 12 12
 * 16; total 16 (all 4 bytes: x 0, a 4, d 8, b and c 8, e 12); compute
 * a, b, c, d 4 each, e 4 x 2 = 24. */
static void test_largest_gap_first(void **state)
{
    (void)state;
    run_t r;
    run_remat(&r,
              "routine first_gap\n"
              "input x [4] u8\n"
              "a = f(x) [4] u8\n"
              "b = g(x) [4] u8\n"
              "c = h(x) [4] u8\n"
              "d = k(a) [4] u8\n"
              "e = m(a, d) [4] u8 @output\n",
              "a", NULL);
    assert_int_equal(r.d.skip[tr_node(&r.t, "a")], REMAT_FIRST_GAP);
    assert_int_equal(r.d.n_copies, 0);
    assert_int_equal(r.d.n_steps, 5);
    SPAN("a", 0, 4);
    FOOTPRINT(16, 16, 4, 6, 24);
    footprint_t plain;
    rs_error_t err;
    score_config_t cfg;
    score_config_default(&cfg);
    assert_int_equal(score_lowering(r.t.l, NULL, &cfg, &plain, NULL, &err), RS_OK);
    assert_memory_equal(&plain, &r.fp, sizeof plain);
    run_free(&r);
}

/* Reads of a at 1, 3, 5 after d=0: gaps 1, 2, 2: the first of the two
 * largest, before s3.  a [0,1]; a' inserted before s3 (position 3) lives
 * to s5's new position 6.  And a tie with the first gap: p is read at 2, 4
 * after d=0 (gaps 2, 2): the first is before u1, no candidate. */
static void test_ties(void **state)
{
    (void)state;
    const char *text = "routine ties\n"
                       "input x [4] u8\n"
                       "a = f(x) [4] u8\n"     /* s0 */
                       "b = g(a) [4] u8\n"     /* s1 */
                       "c = h(b) [4] u8\n"     /* s2 */
                       "d = k(a) [4] u8\n"     /* s3 */
                       "e = m(c) [4] u8\n"     /* s4 */
                       "f = n(a, d) [4] u8 @output\n"; /* s5 */
    run_t r;
    run_remat(&r, text, "a", NULL);
    SPAN("a", 0, 1);
    COPY(0, "a", 3, 6);
    assert_int_equal(r.d.n_steps, 7);
    run_free(&r);
    run_remat(&r,
              "routine tie_first\n"
              "input x [4] u8\n"
              "p = f(x) [4] u8\n"     /* s0 */
              "q = g(x) [4] u8\n"     /* s1 */
              "s = h(p) [4] u8\n"     /* s2 */
              "t = k(q) [4] u8\n"     /* s3 */
              "u = m(p, t, s) [4] u8 @output\n", /* s4 */
              "p", NULL);
    assert_int_equal(r.d.skip[tr_node(&r.t, "p")], REMAT_FIRST_GAP);
    run_free(&r);
}

/* Two recompute steps before s5.  b first (higher index): reads 2, 5
 * after d=1: gaps 1, 3: b' before s5.  Then a: reads 2 and 6 (s5, moved)
 * after d=0: gaps 2, 4: a' just before s5, after b' (the order inserted).
 * Schedule s0 s1 s2 s3 s4 b' a' s5.  Compute: a 2, b 3, c 8, t 32, u 4, v
 * 12 = 61, and a', b' once each: 66.  Live 8 12 16 40 40 12 16 20: 40 at
 * step 3.  The greedy: t 0; x 32; u [4,7] 36; a [0,2] 0; b' [5,7] 0; b
 * [1,2] meets x, a: 4; c [2,3] meets t, x, a, b: 36; a' [6,7] meets x, u,
 * b': 4; v [7,7] meets x, u, b', a': 8.  Total 40. */
static void test_several_before_one_step(void **state)
{
    (void)state;
    run_t r;
    run_remat(&r,
              "routine several\n"
              "input x [4] u8\n"
              "a = f(x) [4] u8 cost=2\n"
              "b = g(x) [4] u8 cost=3\n"
              "c = h(a, b) [4] u8\n"
              "t = p(c) [32] u8\n"
              "u = q(t) [4] u8\n"
              "v = r(u, a, b) [4] u8 @output\n",
              "a", "b", NULL);
    assert_int_equal(r.d.n_steps, 8);
    assert_int_equal(r.d.step_node[5], tr_node(&r.t, "b"));
    assert_int_equal(r.d.step_node[6], tr_node(&r.t, "a"));
    assert_int_equal(r.d.step_orig[7], 5);
    SPAN("a", 0, 2);
    SPAN("b", 1, 2);
    SPAN("u", 4, 7);
    COPY(0, "a", 6, 7);
    COPY(1, "b", 5, 7);
    assert_int_equal(r.d.copies[0].offset, 4);
    assert_int_equal(r.d.copies[1].offset, 0);
    FOOTPRINT(40, 40, 3, 9, 66);
    run_free(&r);
}

/* No remat flip (and flips that never apply): score_lowering's footprint
 * on every bundled sample. */
static void test_no_flip_is_plain(void **state)
{
    (void)state;
    const char *names[] = { "mlp_step", "harmful_hold", "negative_relief", "pair_peak", "rejected_depth" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.routine", RS_SAMPLES_DIR, names[k]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static char text[1 << 16];
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = 0;
        tr_t t;
        tr_load(&t, text);
        uint8_t *remat = calloc((size_t)t.l->n_nodes, 1);
        for (int32_t i = 0; i < t.l->n_nodes; i++)
            remat[i] = lower_is_resident(t.l, i) || (t.l->flags[i] & FLAG_OUTPUT);
        score_config_t cfg;
        score_config_default(&cfg);
        cfg.alignment = 64;
        footprint_t a, b;
        rs_error_t err;
        assert_int_equal(score_lowering(t.l, NULL, &cfg, &a, NULL, &err), RS_OK);
        assert_int_equal(remat_score(t.l, NULL, NULL, &cfg, &b, NULL, &err), RS_OK);
        assert_memory_equal(&a, &b, sizeof a);
        assert_int_equal(remat_score(t.l, NULL, remat, &cfg, &b, NULL, &err), RS_OK);
        assert_memory_equal(&a, &b, sizeof a);
        free(remat);
        tr_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resident_argument),
        cmocka_unit_test(test_materialized_argument),
        cmocka_unit_test(test_argument_kinds),
        cmocka_unit_test(test_largest_gap_first),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_several_before_one_step),
        cmocka_unit_test(test_no_flip_is_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
