/* Tests for core/plan/verify.c: the plain scorer agrees with the real one
 * (all five footprint keys) on random routines and random preferences, its
 * layout never overlaps, and verify_overlap finds a hand-made overlap. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "lower/remat.h"
#include "plan/verify.h"

/* Random routine seed loaded into t (its text returned, free() it), with
 * an alignment of 16 or 1 and an inline depth of 1 to 4 by the seed. */
static char *random_case(unsigned seed, tr_t *t, score_config_t *cfg)
{
    char *text = tf_random_routine(seed);
    tr_load(t, text);
    score_config_default(cfg);
    cfg->alignment = seed % 3 == 0 ? 16 : 1;
    cfg->max_inline_depth = 1 + (int32_t)(seed % 4);
    return text;
}

static void expect_same(unsigned seed, const footprint_t *real, const footprint_t *plain)
{
    if (memcmp(real, plain, sizeof *real) != 0)
        fail_msg("seed %u: real (%lld %lld %d %d %lld) plain (%lld %lld %d %d %lld)", seed, (long long)real->total,
                 (long long)real->live_peak, (int)real->peak_step, (int)real->buffers, (long long)real->compute,
                 (long long)plain->total, (long long)plain->live_peak, (int)plain->peak_step, (int)plain->buffers,
                 (long long)plain->compute);
}

static void test_plain_agrees_with_real(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 300; seed++) {
        tr_t t;
        score_config_t cfg;
        char *text = random_case(seed, &t, &cfg);
        uint8_t *prefs = calloc((size_t)t.l->n_nodes + 1, 1);
        unsigned s = seed;
        for (int32_t i = 0; i < t.l->n_nodes; i++) {
            s = s * 1103515245u + 12345u;
            prefs[i] = ((s >> 16) % 3) == 0;
        }
        footprint_t real, plain;
        verify_layout_t lay;
        rs_error_t err;
        if (score_lowering(t.l, prefs, &cfg, &real, NULL, &err) ||
            verify_score(t.l, prefs, &cfg, &plain, &lay, &err))
            fail_msg("seed %u: %s", seed, err.msg);
        expect_same(seed, &real, &plain);
        int32_t a, b;
        assert_false(verify_overlap(lay.n, lay.start, lay.end, lay.size, lay.offset, &a, &b));
        verify_layout_free(&lay);
        free(prefs);
        tr_free(&t);
        free(text);
    }
}

/* DESIGN §14: the plain scorer with remat flips agrees with remat_score
 * (the five keys, S' and every copy) on random routines, random inline
 * preferences and random remat flips; with none it is verify_score. */
static void test_plain_remat_agrees_with_real(void **state)
{
    (void)state;
    int copies = 0;
    for (unsigned seed = 1; seed <= 400; seed++) {
        tr_t t;
        score_config_t cfg;
        char *text = random_case(seed, &t, &cfg);
        cfg.aliasing = seed % 11 != 0;
        size_t nn = (size_t)t.l->n_nodes + 1;
        uint8_t *prefs = calloc(nn, 1), *remat = calloc(nn, 1);
        unsigned s = seed;
        for (int32_t i = 0; i < t.l->n_nodes; i++) {
            s = s * 1103515245u + 12345u;
            unsigned r = (s >> 16) % 6;
            prefs[i] = r == 0;
            remat[i] = r >= 3;
        }
        footprint_t real, plain, none;
        remat_detail_t d;
        verify_layout_t lay;
        int32_t steps = 0;
        rs_error_t err;
        if (remat_score(t.l, prefs, remat, &cfg, &real, &d, &err) ||
            verify_score_remat(t.l, prefs, remat, &cfg, &plain, &steps, &lay, &err))
            fail_msg("seed %u: %s", seed, err.msg);
        expect_same(seed, &real, &plain);
        assert_int_equal(steps, d.n_steps);
        int32_t k = 0;
        for (int32_t b = 0; b < lay.n; b++) {
            if (!lay.copy[b])
                continue;
            assert_true(k < d.n_copies);
            assert_int_equal(lay.node[b], d.copies[k].node);
            if (cfg.aliasing) {
                assert_int_equal(lay.start[b], d.copies[k].step);
                assert_int_equal(lay.end[b], d.copies[k].end);
            }
            k++;
        }
        assert_int_equal(k, d.n_copies);
        copies += k;
        int32_t a, b;
        assert_false(verify_overlap(lay.n, lay.start, lay.end, lay.size, lay.offset, &a, &b));
        verify_layout_free(&lay);
        remat_detail_free(&d);
        if (verify_score_remat(t.l, prefs, NULL, &cfg, &plain, NULL, NULL, &err) ||
            verify_score(t.l, prefs, &cfg, &none, NULL, &err))
            fail_msg("seed %u: %s", seed, err.msg);
        expect_same(seed, &none, &plain);
        free(prefs);
        free(remat);
        tr_free(&t);
        free(text);
    }
    assert_true(copies > 200); /* the flips did apply */
}

/* Buffers 0 and 2 share step 3 and bytes [8, 10); 1 is zero-byte. */
static void test_overlap_found(void **state)
{
    (void)state;
    int64_t start[] = { 0, 0, 3 }, end[] = { 3, 9, 5 }, size[] = { 10, 0, 4 }, off[] = { 0, 0, 8 };
    int32_t a, b;
    assert_true(verify_overlap(3, start, end, size, off, &a, &b));
    assert_int_equal(a, 0);
    assert_int_equal(b, 2);
    off[2] = 10;
    assert_false(verify_overlap(3, start, end, size, off, &a, &b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_agrees_with_real),
        cmocka_unit_test(test_plain_remat_agrees_with_real),
        cmocka_unit_test(test_overlap_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
