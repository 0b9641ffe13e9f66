/* Tests for core/model/gen.c: the generators parse, lower and score; they are
 * deterministic; transformer sizes and chain footprints follow formulas. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "model/gen.h"

static char *gen(gen_kind_t k, int32_t layers, const char *const *binds, int n_binds)
{
    gen_options_t o = { .kind = k, .layers = layers, .binds = binds, .n_binds = n_binds };
    char *text;
    rs_error_t err;
    if (gen_routine(&o, &text, &err))
        fail_msg("gen: %s", err.msg);
    return text;
}

static void test_every_kind_scores(void **state)
{
    (void)state;
    for (int k = 0; k < GEN_COUNT; k++) {
        for (int32_t layers = 1; layers <= 5; layers += 2) {
            char *text = gen((gen_kind_t)k, layers, NULL, 0);
            tr_t t;
            tr_load(&t, text);
            footprint_t fp;
            rs_error_t err;
            score_config_t cfg;
            score_config_default(&cfg);
            assert_int_equal(score_lowering(t.l, NULL, &cfg, &fp, NULL, &err), RS_OK);
            assert_true(fp.total >= fp.live_peak && fp.live_peak > 0);
            tr_free(&t);
            free(text);
        }
    }
}

static void test_deterministic(void **state)
{
    (void)state;
    const char *binds[] = { "B=2", "T=64" };
    for (int k = 0; k < GEN_COUNT; k++) {
        char *a = gen((gen_kind_t)k, 3, k == GEN_TRANSFORMER ? binds : NULL, k == GEN_TRANSFORMER ? 2 : 0);
        char *b = gen((gen_kind_t)k, 3, k == GEN_TRANSFORMER ? binds : NULL, k == GEN_TRANSFORMER ? 2 : 0);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
}

/* Steps per block: 15 forward, 25 backward (3 of them +=), 9 updates =
 * 49; plus the embedding (1), head and loss (9), the tied embedding's +=
 * and update (2): S = 49 L + 12.  Parameters: per block 4 D^2 (q k v o) +
 * 2 D F (the MLP) + 2 D (layer norms) + F (bias); plus wemb V D and gf D. */
static void test_transformer_formulas(void **state)
{
    (void)state;
    const char *binds[] = { "B=8", "T=2048" };
    int32_t layers[] = { 1, 12, 48 };
    for (int i = 0; i < 3; i++) {
        int64_t L = layers[i], D = 768, F = 3072, V = 32000;
        char *text = gen(GEN_TRANSFORMER, (int32_t)L, binds, 2);
        tr_t t;
        tr_load(&t, text);
        assert_int_equal(t.l->n_steps, 49 * L + 12);
        int64_t param_bytes = 0;
        for (int32_t n = 0; n < t.l->n_nodes; n++)
            if (t.l->kind[n] == NODE_PARAM)
                param_bytes += t.l->bytes[n];
        assert_int_equal(param_bytes, 4 * (L * (4 * D * D + 2 * D * F + 2 * D + F) + V * D + D));
        /* attention scores are [B, heads, T, T]: 8 * 12 * 2048 * 2048 * 4 B */
        assert_int_equal(t.l->bytes[tr_node(&t, "s_0")], 8LL * 12 * 2048 * 2048 * 4);
        tr_free(&t);
        free(text);
    }
    /* thousands of steps at 48 layers, and it scores */
    char *text = gen(GEN_TRANSFORMER, 48, binds, 2);
    tr_t t;
    tr_load(&t, text);
    assert_true(t.l->n_steps > 2000);
    footprint_t fp;
    rs_error_t err;
    score_config_t cfg;
    score_config_default(&cfg);
    assert_int_equal(score_lowering(t.l, NULL, &cfg, &fp, NULL, &err), RS_OK);
    tr_free(&t);
    free(text);
}

/* chain N, S = B*D = 65536 f32 elements.  Steps: x1..xN (0..N-1), loss
 * (N), d (N+1), d += ... (N+2..2N+1).  x_j lives [j-1, 2N+1-j] (its
 * backward reads it), so at step N+1 x0..xN, d and the 4-byte loss are
 * live: baseline = 4 S (N+2) + 4, and the greedy stacks them exactly.
 * Minimize: every x_j relieves 4 S alone (its readers read x_{j-1}, which
 * lives longer anyway) at the same cost bound, so they go in definition
 * order; inline depth reaches the default limit 8 at x_8, so x_9 is
 * rejected by the virtualizer (held, then left over), x_10 restarts at
 * depth 1, and so on: every ninth stays.  d (@output) is no candidate.
 * Final = 4 S (floor(N / 9) + 2) + 4, with N - floor(N / 9) flips. */
static void test_chain_formulas(void **state)
{
    (void)state;
    int32_t ns[] = { 16, 64, 256 };
    for (int i = 0; i < 3; i++) {
        int64_t N = ns[i], S = 64 * 1024;
        char *text = gen(GEN_CHAIN, (int32_t)N, NULL, 0);
        tf_t f;
        tf_fit(&f, text, "minimize", -1, 0);
        assert_int_equal(f.plan->baseline.total, 4 * S * (N + 2) + 4);
        assert_int_equal(f.plan->baseline.live_peak, 4 * S * (N + 2) + 4);
        assert_int_equal(f.plan->final.total, 4 * S * (N / 9 + 2) + 4);
        assert_int_equal(f.plan->n_flips, N - N / 9);
        assert_int_equal(f.plan->considered, N); /* x1..xN */
        tf_free(&f);
        free(text);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    char *text;
    rs_error_t err;
    const char *bad[] = { "Q=3" };
    gen_options_t o = { .kind = GEN_CHAIN, .layers = 4, .binds = bad, .n_binds = 1 };
    assert_int_equal(gen_routine(&o, &text, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "B=64 D=1024"));
    o = (gen_options_t){ .kind = GEN_UNET, .layers = 40 };
    assert_int_equal(gen_routine(&o, &text, &err), RS_EINPUT);
    o = (gen_options_t){ .kind = GEN_MLP, .layers = 2, .dtype = "f128" };
    assert_int_equal(gen_routine(&o, &text, &err), RS_EINPUT);
    assert_int_equal(gen_kind_parse("transformer"), GEN_TRANSFORMER);
    assert_int_equal(gen_kind_parse("lstm"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kind_scores),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_transformer_formulas),
        cmocka_unit_test(test_chain_formulas),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
