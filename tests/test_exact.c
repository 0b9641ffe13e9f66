/* Tests for core/plan/exact.c (and the bound of core/plan/subset.c): the
 * branch and bound equals exhaustive enumeration on 200 random routines for
 * both objectives, the bound never exceeds what any subset of its branch
 * scores, and hand-worked answers on the shared routines. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "plan/cand.h"
#include "plan/exact.h"

/* Every subset of the baseline's Inline candidates, scored with a fresh
 * lowering and score_lowering, best by §12 written out here on its own. */
typedef struct brute {
    bool found;
    footprint_t fp;
    int32_t nodes[32];
    int32_t n;
} brute_t;

static bool lex_less(const int32_t *a, int32_t na, const int32_t *b, int32_t nb)
{
    for (int32_t i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return na < nb;
}

/* true when (fp, nodes) is better than the best so far */
static bool brute_better(const brute_t *b, bool minimize, const footprint_t *fp, const int32_t *nodes, int32_t n)
{
    if (!b->found)
        return true;
    int64_t p1 = minimize ? fp->total : fp->compute, q1 = minimize ? b->fp.total : b->fp.compute;
    int64_t p2 = minimize ? fp->compute : fp->total, q2 = minimize ? b->fp.compute : b->fp.total;
    if (p1 != q1)
        return p1 < q1;
    if (p2 != q2)
        return p2 < q2;
    return lex_less(nodes, n, b->nodes, b->n);
}

static int32_t baseline_cands(const lowering_t *l, const score_config_t *cfg, int32_t *out)
{
    footprint_t fp;
    score_detail_t d;
    rs_error_t err;
    if (score_lowering(l, NULL, cfg, &fp, &d, &err))
        fail_msg("score: %s", err.msg);
    flip_candidate_t *c;
    int32_t n, m = 0;
    if (flip_candidates(l, &d.place, &d.live, &c, &n, &err))
        fail_msg("cands: %s", err.msg);
    for (int32_t i = 0; i < n; i++)
        if (c[i].dir == FLIP_INLINE)
            out[m++] = c[i].node;
    free(c);
    score_detail_free(&d);
    return m;
}

static void brute_force(const tr_t *t, const score_config_t *cfg, bool minimize, int64_t budget, const int32_t *cands,
                        int32_t k, brute_t *b)
{
    memset(b, 0, sizeof *b);
    uint8_t *prefs = calloc((size_t)t->l->n_nodes + 1, 1);
    for (uint32_t mask = 0; mask < (1u << k); mask++) {
        int32_t nodes[32], n = 0;
        memset(prefs, 0, (size_t)t->l->n_nodes);
        for (int32_t j = 0; j < k; j++)
            if (mask & (1u << j)) {
                nodes[n++] = cands[j];
                prefs[cands[j]] = 1;
            }
        footprint_t fp;
        rs_error_t err;
        if (score_lowering(t->l, prefs, cfg, &fp, NULL, &err))
            fail_msg("score: %s", err.msg);
        if (!minimize && fp.total > budget)
            continue;
        /* masks are not in lexicographic order: the comparison settles ties */
        if (brute_better(b, minimize, &fp, nodes, n)) {
            b->found = true;
            b->fp = fp;
            memcpy(b->nodes, nodes, (size_t)n * sizeof *nodes);
            b->n = n;
        }
    }
    free(prefs);
}

static void check_one(unsigned seed, const tr_t *t, const score_config_t *cfg, bool minimize, int64_t budget,
                      const int32_t *cands, int32_t k, int64_t *explored, int64_t *subsets)
{
    brute_t b;
    brute_force(t, cfg, minimize, budget, cands, k, &b);
    fit_context_t *ctx;
    rs_error_t err;
    if (fit_context_root(t->r, &t->b, cfg, NULL, 0, &ctx, &err))
        fail_msg("context: %s", err.msg);
    exact_options_t o = { .goal = { minimize, budget } };
    exact_result_t r;
    if (exact_run(&o, ctx, &r, &err))
        fail_msg("exact: %s", err.msg);
    if (r.n_cands != k || !r.proved || r.found != b.found)
        fail_msg("seed %u %s: cands %d/%d proved %d found %d/%d", seed, minimize ? "minimize" : "bytes",
                 (int)r.n_cands, (int)k, r.proved, r.found, b.found);
    if (b.found) {
        if (r.final.total != b.fp.total || r.final.compute != b.fp.compute || r.n_flips != b.n ||
            memcmp(r.flips, b.nodes, (size_t)b.n * sizeof *b.nodes) != 0)
            fail_msg("seed %u %s budget %lld: exact total %lld compute %lld (%d flips), enumeration total %lld "
                     "compute %lld (%d flips)",
                     seed, minimize ? "minimize" : "bytes", (long long)budget, (long long)r.final.total,
                     (long long)r.final.compute, (int)r.n_flips, (long long)b.fp.total, (long long)b.fp.compute,
                     (int)b.n);
    }
    *explored += r.explored;
    *subsets += (int64_t)1 << k;
    /* a hint (every other candidate) speeds the search, never changes it;
     * each subset is scored once at most */
    int32_t hint[32], nh = 0;
    for (int32_t j = 0; j < k; j += 2)
        hint[nh++] = cands[j];
    exact_options_t oh = { .goal = { minimize, budget }, .hint = hint, .n_hint = nh };
    exact_result_t h;
    if (exact_run(&oh, ctx, &h, &err))
        fail_msg("exact: %s", err.msg);
    assert_int_equal(h.found, r.found);
    assert_int_equal(h.n_flips, r.n_flips);
    assert_memory_equal(h.flips, r.flips, (size_t)r.n_flips * sizeof *r.flips);
    assert_true(h.explored <= ((int64_t)1 << k));
    exact_result_free(&h);
    exact_result_free(&r);
    fit_context_free(ctx);
}

/* 200 random routines with up to 12 candidates, each under Minimize and
 * under a Bytes budget between the smallest reachable total and the
 * baseline; every other one with max_inline_depth 2, where a flip can push
 * a later node over the limit (placement not monotone), and alignment 8. */
static void test_equals_enumeration(void **state)
{
    (void)state;
    int done = 0;
    int64_t explored = 0, subsets = 0;
    for (unsigned seed = 1; done < 200; seed++) {
        char *text = tf_random_routine(seed);
        tr_t t;
        tr_load(&t, text);
        score_config_t cfg;
        score_config_default(&cfg);
        if (seed % 2) {
            cfg.max_inline_depth = 2;
            cfg.alignment = 8;
        }
        int32_t cands[64];
        int32_t k = baseline_cands(t.l, &cfg, cands);
        if (k >= 2 && k <= 12) {
            brute_t least;
            brute_force(&t, &cfg, true, 0, cands, k, &least);
            footprint_t base;
            rs_error_t err;
            if (score_lowering(t.l, NULL, &cfg, &base, NULL, &err))
                fail_msg("score: %s", err.msg);
            int64_t budget = least.fp.total + (base.total - least.fp.total) / 2;
            check_one(seed, &t, &cfg, true, 0, cands, k, &explored, &subsets);
            check_one(seed, &t, &cfg, false, budget, cands, k, &explored, &subsets);
            /* a budget nothing meets: proved, not found */
            check_one(seed, &t, &cfg, false, least.fp.total - 1, cands, k, &explored, &subsets);
            done++;
        }
        tr_free(&t);
        free(text);
    }
    print_message("exact: %lld subsets scored of %lld\n", (long long)explored, (long long)subsets);
    assert_true(explored < subsets); /* the bound prunes something */
}

/* On random branches: the bound is at most every subset's scores. */
static void test_bound_is_below_every_subset(void **state)
{
    (void)state;
    int checked = 0;
    for (unsigned seed = 1000; checked < 60; seed++) {
        char *text = tf_random_routine(seed);
        tr_t t;
        tr_load(&t, text);
        score_config_t cfg;
        score_config_default(&cfg);
        cfg.max_inline_depth = 1 + (int32_t)(seed % 3);
        fit_context_t *ctx;
        rs_error_t err;
        if (fit_context_root(t.r, &t.b, &cfg, NULL, 0, &ctx, &err))
            fail_msg("context: %s", err.msg);
        subset_scorer_t sc;
        if (subset_scorer_init(&sc, ctx, NULL, false, &err))
            fail_msg("scorer: %s", err.msg);
        int32_t k = sc.n_cands;
        if (k >= 2 && k <= 10) {
            uint8_t *in = calloc((size_t)t.l->n_nodes + 1, 1), *maybe = calloc((size_t)t.l->n_nodes + 1, 1);
            unsigned s = seed;
            for (int b = 0; b < 8; b++) {
                /* each candidate in, maybe or out of the branch */
                memset(in, 0, (size_t)t.l->n_nodes);
                memset(maybe, 0, (size_t)t.l->n_nodes);
                int32_t free_idx[16], nf = 0, fixed[16], nfix = 0;
                for (int32_t j = 0; j < k; j++) {
                    s = s * 1103515245u + 12345u;
                    unsigned r = (s >> 16) % 3;
                    if (r == 0) {
                        in[sc.cands[j]] = 1;
                        fixed[nfix++] = sc.cands[j];
                    } else if (r == 1) {
                        maybe[sc.cands[j]] = 1;
                        free_idx[nf++] = sc.cands[j];
                    }
                }
                int64_t clb, tlb;
                subset_bound(&sc, in, maybe, &clb, &tlb);
                for (uint32_t mask = 0; mask < (1u << nf); mask++) {
                    int32_t nodes[32], n = 0;
                    for (int32_t i = 0; i < nfix; i++)
                        nodes[n++] = fixed[i];
                    for (int32_t i = 0; i < nf; i++)
                        if (mask & (1u << i))
                            nodes[n++] = free_idx[i];
                    footprint_t fp;
                    if (subset_score(&sc, nodes, n, &fp, &err))
                        fail_msg("score: %s", err.msg);
                    if (clb > fp.compute || tlb > fp.total)
                        fail_msg("seed %u: bound (%lld, %lld) above a subset's (%lld, %lld)", seed, (long long)clb,
                                 (long long)tlb, (long long)fp.compute, (long long)fp.total);
                    if (nf == 0) /* a fully decided branch: the compute bound is exact */
                        assert_int_equal(clb, fp.compute);
                }
            }
            free(in);
            free(maybe);
            checked++;
        }
        subset_scorer_free(&sc);
        fit_context_free(ctx);
        tr_free(&t);
        free(text);
    }
}

/* ROUTINE_PAIR (see fitutil.c): X and Y each relieve nothing alone, both
 * together bring 104 down to 4.  Minimize: {X, Y}.  Bytes 50: the same, the
 * only subset that fits.  Bytes 200: the baseline fits with the least
 * compute ties everywhere (each read once), so the smaller total: {X, Y}.  Bytes 3: nothing fits. */
static void test_pair_by_hand(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    fit_context_t *ctx = tf_root(&t);
    struct {
        bool minimize;
        int64_t budget;
        bool found;
        int64_t total;
        int32_t n;
    } cases[] = { { true, 0, true, 4, 2 }, { false, 50, true, 4, 2 }, { false, 200, true, 4, 2 },
                  { false, 3, false, 0, 0 } };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        exact_options_t o = { .goal = { cases[i].minimize, cases[i].budget } };
        exact_result_t r;
        rs_error_t err;
        if (exact_run(&o, ctx, &r, &err))
            fail_msg("exact: %s", err.msg);
        assert_true(r.proved);
        assert_int_equal(r.n_cands, 2);
        assert_int_equal(r.found, cases[i].found);
        assert_int_equal(r.baseline.total, 104);
        if (r.found) {
            assert_int_equal(r.final.total, cases[i].total);
            assert_int_equal(r.n_flips, cases[i].n);
        }
        if (r.n_flips == 2) {
            assert_int_equal(r.flips[0], tr_node(&t, "X"));
            assert_int_equal(r.flips[1], tr_node(&t, "Y"));
        }
        exact_result_free(&r);
    }
    fit_context_free(ctx);
    tr_free(&t);
}

static int stop_now(void *ud)
{
    int *calls = ud;
    return ++*calls >= 2;
}

/* A stop after two scorings: not proved, the best of what was scored. */
static void test_stop_reports_unproved(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    fit_context_t *ctx = tf_root(&t);
    int calls = 0;
    exact_options_t o = { .goal = { true, 0 }, .stop = stop_now, .stop_ud = &calls };
    exact_result_t r;
    rs_error_t err;
    if (exact_run(&o, ctx, &r, &err))
        fail_msg("exact: %s", err.msg);
    assert_false(r.proved);
    assert_int_equal(r.explored, 2); /* the baseline, then {X} */
    assert_true(r.found);
    assert_int_equal(r.final.total, 104);
    assert_int_equal(r.n_flips, 0); /* {X} ties the baseline, which comes first */
    exact_result_free(&r);
    fit_context_free(ctx);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equals_enumeration),
        cmocka_unit_test(test_bound_is_below_every_subset),
        cmocka_unit_test(test_pair_by_hand),
        cmocka_unit_test(test_stop_reports_unproved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
