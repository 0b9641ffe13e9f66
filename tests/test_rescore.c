/* Tests for core/lower/rescore.c and its use by fit: a scoring against a
 * reference gives exactly score_lowering's footprint (every sample, sample
 * and bench HLO dump, random flips and flip sets, with rebases, zero-byte
 * nodes, other layouts); fit with the incremental scorings gives the same
 * plans and traces as with scorings from scratch (--scoring full) on every
 * sample and on random routines; a sweep's plans are the single fits'. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "lower/rescore.h"
#include "model/hlo.h"
#include "plan/cand.h"
#include "plan/fit.h"
#include "testutil.h"

typedef struct loaded {
    routine_t *r;
    bindings_t b;
    lowering_t *l;
} loaded_t;

static void load(const char *path, loaded_t *t)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (fread(text, 1, (size_t)n, f) != (size_t)n)
        fail_msg("cannot read %s", path);
    fclose(f);
    text[n] = 0;
    rs_error_t err;
    if (hlo_read_any(path, text, (size_t)n, &t->r, &err) || routine_bindings(t->r, NULL, 0, &t->b, &err) ||
        lower_routine(t->r, &t->b, &t->l, &err))
        fail_msg("%s: %s", path, err.msg);
    free(text);
}

static void unload(loaded_t *t)
{
    lower_free(t->l);
    bindings_free(&t->b);
    routine_free(t->r);
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

static void expect_footprint(const footprint_t *got, const footprint_t *want, const char *what)
{
    if (memcmp(got, want, sizeof *got))
        fail_msg("%s: total %lld live %lld at %d, %d buffers, compute %lld; from scratch %lld live %lld at %d, "
                 "%d buffers, compute %lld",
                 what, (long long)got->total, (long long)got->live_peak, got->peak_step, got->buffers,
                 (long long)got->compute, (long long)want->total, (long long)want->live_peak, want->peak_step,
                 want->buffers, (long long)want->compute);
}

/* Random flips and flip sets of l's candidates scored against a reference
 * (rebased now and then), each against score_lowering. */
static int random_scorings(const char *label, const lowering_t *l, const score_config_t *cfg, unsigned seed, int runs)
{
    int32_t N = l->n_nodes;
    uint8_t *prefs = calloc((size_t)N + 1, 1);
    rs_error_t err;
    footprint_t base, fp, want;
    score_detail_t d;
    assert_int_equal(score_lowering(l, NULL, cfg, &base, &d, &err), RS_OK);
    flip_candidate_t *c = NULL;
    int32_t nc = 0;
    assert_int_equal(flip_candidates(l, &d.place, &d.live, &c, &nc, &err), RS_OK);
    rescore_t *ref;
    rescore_work_t *w;
    score_detail_t rd;
    assert_int_equal(rescore_new_detail(l, NULL, cfg, &fp, &rd, &ref, &err), RS_OK);
    expect_footprint(&fp, &base, label);
    for (int32_t i = 0; i < N; i++) /* the reference's detail is the scoring's */
        if (rd.offset[i] != d.offset[i] || rd.place.is_inline[i] != d.place.is_inline[i])
            fail_msg("%s: node %d: reference detail at %lld, the scoring's at %lld", label, (int)i,
                     (long long)rd.offset[i], (long long)d.offset[i]);
    score_detail_free(&rd);
    score_detail_free(&d);
    assert_int_equal(rescore_work_new(ref, &w, &err), RS_OK);
    unsigned s = seed;
    for (int k = 0; k < runs && nc > 0; k++) {
        memset(prefs, 0, (size_t)N);
        int flips = rnd(&s) % 4 == 0 ? 1 + (int)(rnd(&s) % 8) : 1;
        for (int j = 0; j < flips; j++)
            prefs[c[rnd(&s) % (unsigned)nc].node] = 1;
        if (rnd(&s) % 2) /* a reference a give-up left without profiles makes them, or not yet */
            assert_int_equal(rescore_prepare(ref, &err), RS_OK);
        assert_int_equal(rescore_score(ref, w, l, prefs, &fp, &err), RS_OK);
        assert_int_equal(score_lowering(l, prefs, cfg, &want, NULL, &err), RS_OK);
        char what[600]; /* room for any label the callers build, so the compiler sees no cut */
        snprintf(what, sizeof what, "%s scoring %d", label, k);
        expect_footprint(&fp, &want, what);
        if (rnd(&s) % 5 == 0)
            assert_int_equal(rescore_rebase(ref, w, &err), RS_OK);
    }
    rescore_work_free(w);
    rescore_free(ref);
    free(c);
    free(prefs);
    return runs;
}

static int scorings_in(const char *dir, const char *ext, int runs)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), el = strlen(ext);
        if (len <= el || strcmp(e->d_name + len - el, ext))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        loaded_t t;
        load(path, &t);
        score_config_t cfg;
        score_config_default(&cfg);
        random_scorings(path, t.l, &cfg, (unsigned)len, runs);
        cfg.alignment = 64; /* a profile's alignment */
        random_scorings(path, t.l, &cfg, (unsigned)len + 1, runs / 2);
        unload(&t);
        files++;
    }
    closedir(d);
    return files;
}

static void test_samples_scored_exactly(void **state)
{
    (void)state;
    assert_true(scorings_in(RS_SAMPLES_DIR, ".routine", 300) >= 5);
    assert_true(scorings_in(RS_SAMPLES_DIR "/gen", ".routine", 150) >= 5);
    assert_true(scorings_in(RS_SAMPLES_DIR "/hlo", ".hlo", 300) >= 3);
}

static void test_hlo_dumps_scored_exactly(void **state)
{
    (void)state;
    assert_true(scorings_in(RS_BENCH_DIR "/hlo", ".hlo", 200) >= 4);
}

/* Nodes of zero bytes (a dimension of 0) are buffers at 0 conflicting with
 * nothing; flipping around them scores as from scratch. */
static void test_zero_byte_nodes(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine z\nbind N=64 Z=0\ndtype f32\ninput x [N]\n"
                "a = exp(x) [N]\nb = exp(a) [Z]\nc = add(a, b) [N]\nd = exp(c) [Z]\n"
                "e = add(c, d) [N]\nf = add(e, a) [N] @output\n");
    score_config_t cfg;
    score_config_default(&cfg);
    random_scorings("zero bytes", t.l, &cfg, 3, 200);
    tr_free(&t);
}

/* Another layout has no incremental path: the same footprints still. */
static void test_other_layouts(void **state)
{
    (void)state;
    loaded_t t;
    load(RS_SAMPLES_DIR "/gen/unet_small.routine", &t);
    score_config_t cfg;
    score_config_default(&cfg);
    cfg.layout = LAYOUT_TIMELINE;
    random_scorings("timeline", t.l, &cfg, 5, 60);
    unload(&t);
}

/* ---- fit --------------------------------------------------------------------------- */

static void expect_same_plan(const fit_plan_t *a, const fit_plan_t *b, const char *what)
{
    if (a->n_flips != b->n_flips || (a->n_flips && memcmp(a->flips, b->flips, (size_t)a->n_flips * sizeof *a->flips)))
        fail_msg("%s: flips differ", what);
    if (a->n_events != b->n_events ||
        (a->n_events && memcmp(a->events, b->events, (size_t)a->n_events * sizeof *a->events)))
        fail_msg("%s: events differ (%d and %d)", what, (int)a->n_events, (int)b->n_events);
    if (a->n_members != b->n_members ||
        (a->n_members && memcmp(a->members, b->members, (size_t)a->n_members * sizeof *a->members)))
        fail_msg("%s: members differ", what);
    if (a->n_cands != b->n_cands || (a->n_cands && memcmp(a->cands, b->cands, (size_t)a->n_cands * sizeof *a->cands)))
        fail_msg("%s: candidates differ", what);
    if (memcmp(&a->baseline, &b->baseline, sizeof a->baseline) || memcmp(&a->final, &b->final, sizeof a->final) ||
        a->considered != b->considered || a->dropped != b->dropped || a->within_budget != b->within_budget ||
        a->cap != b->cap || a->budget != b->budget || a->minimize != b->minimize)
        fail_msg("%s: plan fields differ", what);
}

static fit_plan_t *fit_with(const fit_context_t *ctx, const char *budget, int32_t cap, bool full, int32_t threads)
{
    fit_options_t opt = { .max_candidates = cap, .device_bytes = -1, .full_scoring = full, .threads = threads };
    rs_error_t err;
    if (units_parse_budget(budget, "budget", &opt.budget, &err))
        fail_msg("%s", err.msg);
    fit_plan_t *p;
    if (fit_run(&opt, ctx, NULL, &p, &err))
        fail_msg("fit %s: %s", budget, err.msg);
    return p;
}

/* The incremental scorings and the ones from scratch make the same plan,
 * trace and counters; round one on one thread and on all cores too. */
static void expect_fits_agree(const fit_context_t *ctx, const char *label)
{
    static const char *const budgets[] = { "60%", "minimize", "90%", "30%" };
    static const int32_t caps[] = { -1, 3, FIT_CAP_ALL };
    for (int b = 0; b < 4; b++)
        for (int c = 0; c < 3; c++) {
            fit_plan_t *inc = fit_with(ctx, budgets[b], caps[c], false, 0);
            fit_plan_t *one = fit_with(ctx, budgets[b], caps[c], false, 1);
            fit_plan_t *full = fit_with(ctx, budgets[b], caps[c], true, 0);
            char what[300];
            snprintf(what, sizeof what, "%s at %s, cap %d", label, budgets[b], (int)caps[c]);
            expect_same_plan(inc, full, what);
            expect_same_plan(one, full, what);
            assert_int_equal(inc->reused, full->reused);
            assert_int_equal(inc->lowered, full->lowered);
            fit_plan_free(inc);
            fit_plan_free(one);
            fit_plan_free(full);
        }
}

static void test_fit_random_routines(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 120; seed++) {
        tf_t f = { 0 };
        char *text = tf_random_routine(seed);
        tr_load(&f.t, text);
        free(text);
        f.ctx = tf_root(&f.t);
        char label[32];
        snprintf(label, sizeof label, "random %u", seed);
        expect_fits_agree(f.ctx, label);
        tf_free(&f);
    }
}

static void fits_in(const char *dir, const char *ext)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), el = strlen(ext);
        if (len <= el || strcmp(e->d_name + len - el, ext))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        loaded_t t;
        load(path, &t);
        score_config_t cfg;
        score_config_default(&cfg);
        fit_context_t *ctx;
        rs_error_t err;
        assert_int_equal(fit_context_root(t.r, &t.b, &cfg, NULL, 0, &ctx, &err), RS_OK);
        expect_fits_agree(ctx, path);
        fit_context_free(ctx);
        unload(&t);
    }
    closedir(d);
}

static void test_fit_samples(void **state)
{
    (void)state;
    fits_in(RS_SAMPLES_DIR, ".routine");
    fits_in(RS_SAMPLES_DIR "/hlo", ".hlo");
}

/* A sweep's plans are exactly the single fits' (with the same cell
 * owner's name, so the same lowering), whatever the budgets' order and
 * caps; its counters count the scorings it made. */
static void test_sweep_equals_single_fits(void **state)
{
    (void)state;
    static const char *const sets[][5] = {
        { "90%", "75%", "60%", "minimize", "40%" },
        { "minimize", "30%", "80%", "100%", "60%" },
        { "50%", "50%", "minimize", "minimize", "95%" },
    };
    static const int32_t caps[] = { -1, 4, FIT_CAP_ALL };
    for (unsigned seed = 1; seed <= 40; seed++)
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++) {
                tf_t f = { 0 };
                char *text = seed < 40 ? tf_random_routine(seed) : NULL;
                if (text) {
                    tr_load(&f.t, text);
                    free(text);
                } else {
                    tr_load(&f.t, ROUTINE_HARMFUL);
                }
                f.ctx = tf_root(&f.t);
                fit_options_t opt = { .name = "sweep", .max_candidates = caps[c], .device_bytes = -1 };
                budget_spec_t specs[5];
                rs_error_t err;
                for (int i = 0; i < 5; i++)
                    assert_int_equal(units_parse_budget(sets[k][i], "budget", &specs[i], &err), RS_OK);
                fit_plan_t *plans[5];
                assert_int_equal(fit_sweep(&opt, specs, 5, f.ctx, NULL, plans, &err), RS_OK);
                int64_t before = -1;
                for (int i = 0; i < 5; i++) {
                    fit_options_t one = opt;
                    one.budget = specs[i];
                    fit_plan_t *p;
                    assert_int_equal(fit_run(&one, f.ctx, NULL, &p, &err), RS_OK);
                    char what[64];
                    snprintf(what, sizeof what, "seed %u set %d cap %d budget %d", seed, k, (int)caps[c], i);
                    expect_same_plan(plans[i], p, what);
                    /* no more scorings than the single fits, counted as they are made */
                    assert_true(plans[i]->reused + plans[i]->lowered >= before);
                    before = plans[i]->reused + plans[i]->lowered;
                    fit_plan_free(p);
                }
                for (int i = 0; i < 5; i++)
                    fit_plan_free(plans[i]);
                tf_free(&f);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_scored_exactly),
        cmocka_unit_test(test_hlo_dumps_scored_exactly),
        cmocka_unit_test(test_zero_byte_nodes),
        cmocka_unit_test(test_other_layouts),
        cmocka_unit_test(test_fit_random_routines),
        cmocka_unit_test(test_fit_samples),
        cmocka_unit_test(test_sweep_equals_single_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
