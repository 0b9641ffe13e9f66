/* Tests for core/plan/floor.c: the floor, the floor under a cap and the
 * bytes by role at a step (DESIGN §13), on routines worked by hand. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "plan/floor.h"
#include "testutil.h"

/* Spans: x 0-4 (input), a 0-1, p 1-3 (pinned), c 2-3, q 3-4 (pinned), o 4
 * (output).  Live: 104, 124, 29, 59, 36: the peak is step 1.  Without the
 * candidates a and c: 4, 24, 24, 54, 36: the floor is 54 at step 3,
 * resident 4 and pinned 20 + 30.  Cost bounds: a 100, c 5. */
static const char *F1 =
    "routine f1\n"
    "dtype u8\n"
    "input x [4]\n"
    "a = f(x) [100]\n"
    "p = g(a) [20] @pinned\n"
    "c = f(p) [5]\n"
    "q = h(p, c) [30] @pinned\n"
    "o = k(q) [%d] @output\n";

static void load(tr_t *t, int o_bytes)
{
    char text[512];
    snprintf(text, sizeof text, F1, o_bytes);
    tr_load(t, text);
}

static void score(const tr_t *t, int64_t alignment, bool aliasing, footprint_t *fp, score_detail_t *d,
                  score_config_t *cfg)
{
    score_config_default(cfg);
    cfg->alignment = alignment;
    cfg->aliasing = aliasing;
    rs_error_t err;
    if (score_lowering(t->l, NULL, cfg, fp, d, &err))
        fail_msg("score: %s", err.msg);
}

static void expect_roles(const int64_t *role, int64_t resident, int64_t output, int64_t pinned, int64_t candidate)
{
    assert_int_equal(role[LOWER_RESIDENT], resident);
    assert_int_equal(role[LOWER_OUTPUT], output);
    assert_int_equal(role[LOWER_PINNED], pinned);
    assert_int_equal(role[LOWER_CANDIDATE], candidate);
}

static void test_floor_away_from_the_peak(void **state)
{
    (void)state;
    tr_t t;
    load(&t, 2);
    footprint_t fp;
    score_detail_t d;
    score_config_t cfg;
    score(&t, 1, true, &fp, &d, &cfg);
    assert_int_equal(fp.live_peak, 124);
    assert_int_equal(fp.peak_step, 1);
    int64_t role[FLOOR_ROLES];
    floor_split_at(t.l, &d, &cfg, fp.peak_step, role);
    expect_roles(role, 4, 0, 20, 100); /* sums to live_peak */
    floor_split_at(t.l, &d, &cfg, 4, role);
    expect_roles(role, 4, 2, 30, 0);
    floor_t f;
    rs_error_t err;
    assert_int_equal(floor_compute(t.l, &d, &cfg, NULL, &f, &err), RS_OK);
    assert_int_equal(f.bytes, 54);
    assert_int_equal(f.step, 3);
    expect_roles(f.role, 4, 0, 50, 0);
    assert_int_equal(f.reserved, 0);
    score_detail_free(&d);
    tr_free(&t);
}

/* o of 20 bytes: step 4 holds 4 + 30 + 20 = 54 too; the first step wins. */
static void test_floor_first_step_on_ties(void **state)
{
    (void)state;
    tr_t t;
    load(&t, 20);
    footprint_t fp;
    score_detail_t d;
    score_config_t cfg;
    score(&t, 1, true, &fp, &d, &cfg);
    floor_t f;
    rs_error_t err;
    assert_int_equal(floor_compute(t.l, &d, &cfg, NULL, &f, &err), RS_OK);
    assert_int_equal(f.bytes, 54);
    assert_int_equal(f.step, 3);
    expect_roles(f.role, 4, 0, 50, 0);
    score_detail_free(&d);
    tr_free(&t);
}

/* Alignment 16: x 16, a 112, p 32, c 16, q 32, o 16.  Floor: 16, 48, 48,
 * 80, 64: 80 at step 3.  With o of 17 bytes (32 aligned) step 4 also holds
 * 16 + 32 + 32 = 80, where unaligned it held 51 < 54: a tie alignment made,
 * and the first step still wins. */
static void test_floor_aligned(void **state)
{
    (void)state;
    int o_bytes[2] = { 2, 17 };
    for (int k = 0; k < 2; k++) {
        tr_t t;
        load(&t, o_bytes[k]);
        footprint_t fp;
        score_detail_t d;
        score_config_t cfg;
        score(&t, 16, true, &fp, &d, &cfg);
        assert_int_equal(fp.live_peak, 160);
        int64_t role[FLOOR_ROLES];
        floor_split_at(t.l, &d, &cfg, fp.peak_step, role);
        expect_roles(role, 16, 0, 32, 112);
        floor_t f;
        rs_error_t err;
        assert_int_equal(floor_compute(t.l, &d, &cfg, NULL, &f, &err), RS_OK);
        assert_int_equal(f.bytes, 80);
        assert_int_equal(f.step, 3);
        expect_roles(f.role, 16, 0, 64, 0);
        floor_split_at(t.l, &d, &cfg, 4, role);
        expect_roles(role, 16, k ? 32 : 16, 32, 0);
        score_detail_free(&d);
        tr_free(&t);
    }
}

/* With buffer_aliasing off every buffer spans the routine: the floor is
 * the sum of the ones no flip removes, at step 0. */
static void test_floor_without_aliasing(void **state)
{
    (void)state;
    tr_t t;
    load(&t, 2);
    footprint_t fp;
    score_detail_t d;
    score_config_t cfg;
    score(&t, 1, false, &fp, &d, &cfg);
    floor_t f;
    rs_error_t err;
    assert_int_equal(floor_compute(t.l, &d, &cfg, NULL, &f, &err), RS_OK);
    assert_int_equal(f.bytes, 4 + 20 + 30 + 2);
    assert_int_equal(f.step, 0);
    expect_roles(f.role, 4, 2, 50, 0);
    int64_t role[FLOOR_ROLES];
    floor_split_at(t.l, &d, &cfg, fp.peak_step, role);
    assert_int_equal(role[0] + role[1] + role[2] + role[3], fp.live_peak);
    score_detail_free(&d);
    tr_free(&t);
}

/* w2 is written into w's buffer (@into): a zero-byte buffer of role
 * output, never a candidate.  Spans: w, x 0-3; a 0-1; w2 1-2; b 2-3; o 3.
 * Live: 62, 62, 22, 28 (peak at step 0, the first).  Floor: w + x (12)
 * everywhere, o at step 3: 18 at step 3, never the 26 that w2's 8 bytes
 * would make counted twice. */
static void test_floor_into(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine f2\ndtype u8\ninput w [8]\ninput x [4]\na = f(x) [50]\n"
                "w2 = sub(w, a) [8] @into(w)\nb = g(w2) [10]\no = h(b) [6] @output\n");
    footprint_t fp;
    score_detail_t d;
    score_config_t cfg;
    score(&t, 1, true, &fp, &d, &cfg);
    assert_int_equal(fp.live_peak, 62);
    assert_int_equal(fp.peak_step, 0);
    assert_int_equal(lower_role(t.l, tr_node(&t, "w2")), LOWER_OUTPUT);
    int64_t role[FLOOR_ROLES];
    floor_split_at(t.l, &d, &cfg, 1, role);
    expect_roles(role, 12, 0, 0, 50);
    floor_t f;
    rs_error_t err;
    assert_int_equal(floor_compute(t.l, &d, &cfg, NULL, &f, &err), RS_OK);
    assert_int_equal(f.bytes, 18);
    assert_int_equal(f.step, 3);
    expect_roles(f.role, 12, 6, 0, 0);
    score_detail_free(&d);
    tr_free(&t);
}

/* A cap of 1 keeps c (cost bound 5) and drops a (100): a counts as
 * unflippable, and the floor under the cap is the peak itself, 124 at step
 * 1 (resident 4, pinned 20, candidate 100).  No cap: nothing dropped. */
static void test_floor_under_the_cap(void **state)
{
    (void)state;
    tr_t t;
    load(&t, 2);
    score_config_t cfg;
    score_config_default(&cfg);
    floor_fit_t ff;
    rs_error_t err;
    assert_int_equal(floor_of_fit(t.l, NULL, &cfg, 1, &ff, &err), RS_OK);
    assert_int_equal(ff.candidates, 2);
    assert_int_equal(ff.dropped, 1);
    assert_int_equal(ff.floor.bytes, 54);
    assert_int_equal(ff.cap.bytes, 124);
    assert_int_equal(ff.cap.step, 1);
    expect_roles(ff.cap.role, 4, 0, 20, 100);
    assert_int_equal(ff.baseline.live_peak, 124);
    assert_int_equal(floor_of_fit(t.l, NULL, &cfg, -1, &ff, &err), RS_OK);
    assert_int_equal(ff.dropped, 0);
    assert_memory_equal(&ff.cap, &ff.floor, sizeof ff.cap);
    /* a context that already inlines a: it is no Inline candidate, so a cap
     * of 1 drops nothing and its inline node holds nothing */
    uint8_t *prefs = tr_prefs(&t, "a", NULL);
    assert_int_equal(floor_of_fit(t.l, prefs, &cfg, 1, &ff, &err), RS_OK);
    assert_int_equal(ff.candidates, 1);
    assert_int_equal(ff.dropped, 0);
    assert_int_equal(ff.cap.bytes, 54);
    free(prefs);
    tr_free(&t);
}

/* The same through fit: the plan records both floors, and the outlook
 * tells them before a fit runs. */
static void test_floor_in_fit_and_outlook(void **state)
{
    (void)state;
    char text[512];
    snprintf(text, sizeof text, F1, 2);
    tf_t f;
    tf_fit(&f, text, "50", 1, 1);
    assert_int_equal(f.plan->dropped, 1);
    assert_int_equal(f.plan->floor.bytes, 54);
    assert_int_equal(f.plan->floor_cap.bytes, 124);
    assert_false(f.plan->within_budget); /* 50 is below both */
    fit_options_t opt = { .max_candidates = 1, .device_bytes = -1, .threads = 1 };
    rs_error_t err;
    assert_int_equal(units_parse_budget("50", "budget", &opt.budget, &err), RS_OK);
    fit_outlook_t o;
    assert_int_equal(fit_outlook(&opt, f.ctx, &o, &err), RS_OK);
    assert_int_equal(o.budget, 50);
    assert_false(o.minimize);
    assert_int_equal(o.cap, 1);
    assert_int_equal(o.floors.dropped, 1);
    assert_memory_equal(&o.floors.floor, &f.plan->floor, sizeof o.floors.floor);
    assert_memory_equal(&o.floors.cap, &f.plan->floor_cap, sizeof o.floors.cap);
    assert_memory_equal(&o.floors.baseline, &f.plan->baseline, sizeof o.floors.baseline);
    /* a budget the baseline meets: fit cuts nothing, and neither does the outlook */
    assert_int_equal(units_parse_budget("100%", "budget", &opt.budget, &err), RS_OK);
    assert_int_equal(fit_outlook(&opt, f.ctx, &o, &err), RS_OK);
    assert_int_equal(o.floors.dropped, 0);
    assert_int_equal(o.cap, -1);
    assert_int_equal(o.floors.cap.bytes, 54);
    /* minimize: no cap unless asked */
    opt.max_candidates = -1;
    opt.budget.kind = BUDGET_MINIMIZE;
    assert_int_equal(fit_outlook(&opt, f.ctx, &o, &err), RS_OK);
    assert_true(o.minimize);
    assert_int_equal(o.cap, -1);
    assert_int_equal(o.floors.dropped, 0);
    tf_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floor_away_from_the_peak),
        cmocka_unit_test(test_floor_first_step_on_ties),
        cmocka_unit_test(test_floor_aligned),
        cmocka_unit_test(test_floor_without_aliasing),
        cmocka_unit_test(test_floor_into),
        cmocka_unit_test(test_floor_under_the_cap),
        cmocka_unit_test(test_floor_in_fit_and_outlook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
