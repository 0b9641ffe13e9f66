#include "fitutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/hlo.h"
#include "model/units.h"

/* baseline 104: X [0,100) at steps 0-1 and Y [0,100) at steps 2-3 share the
 * offsets, x [100,104) spans all.  Alone, either leaves the other's peak:
 * 104.  Together: only x, 4. */
const char *ROUTINE_PAIR =
    "routine pair\n"
    "dtype u8\n"
    "input x [4]\n"
    "X = f(x) [100]\n"
    "u = g(X) [0] @output\n"
    "Y = f(x) [100]\n"
    "v = g(Y) [0] @output\n";

/* Heights: region P (steps 0-1) 4+106 = 110; Y (2-3) 4+96 = 100; n1 (4-5)
 * 4+5 = 9; K (6-7, pinned) 4+50 = 54.  Greedy puts P, Y, K, n1 at 0 and x
 * on top of the tallest: totals equal the tallest region. */
const char *ROUTINE_NEUTRAL =
    "routine neutral\n"
    "dtype u8\n"
    "input x [4]\n"
    "P = f(x) [106]\n"
    "po = g(P) [0] @output\n"
    "Y = f(x) [96]\n"
    "yo = g(Y) [0] @output\n"
    "n1 = f(x) [5]\n"
    "no = g(n1) [0] @output\n"
    "K = f(x) [50] @pinned\n"
    "ko = g(K) [0] @output\n";

/* Regions: P (0-1) 110; Y (2-3) 100; then A [4,5] 30, c1 [5,7] 10, B
 * [6,7] 40 (A and B pinned): greedy B [0,40), A [0,30), c1 [40,50), x on
 * top: 54.  Inlining c1 makes w read A at step 7: A [4,7] goes above B,
 * [40,70), and x to [70,74): 74, still below the 100 of Y's region. */
const char *ROUTINE_HARMFUL =
    "routine harmful\n"
    "dtype u8\n"
    "input x [4]\n"
    "P = f(x) [106]\n"
    "po = g(P) [0] @output\n"
    "Y = f(x) [96]\n"
    "yo = g(Y) [0] @output\n"
    "A = f(x) [30] @pinned\n"
    "c1 = f(A) [10]\n"
    "B = f(x) [40] @pinned\n"
    "w = g(c1, B) [0] @output\n";

/* P [0,1] 100 sets the baseline, 104.  G [2,3] 70 (pinned), m [3,5] 10,
 * H2 [4,5] 40 (pinned): 84 at most there.  Inlining m makes mo read G at
 * step 5: G [2,5] meets H2: 4+70+40 = 114. */
const char *ROUTINE_NEGATIVE =
    "routine negative\n"
    "dtype u8\n"
    "input x [4]\n"
    "P = f(x) [100]\n"
    "po = g(P) [0] @output\n"
    "G = f(x) [70] @pinned\n"
    "m = f(G) [10]\n"
    "H2 = f(x) [40] @pinned\n"
    "mo = g(m, H2) [0] @output\n";

fit_context_t *tf_root(const tr_t *t)
{
    score_config_t cfg;
    score_config_default(&cfg);
    fit_context_t *ctx;
    rs_error_t err;
    if (fit_context_root(t->r, &t->b, &cfg, NULL, 0, &ctx, &err))
        fail_msg("context: %s", err.msg);
    return ctx;
}

static void fit_with(tf_t *f, const char *text, const char *budget, int32_t cap, int32_t threads, bool relower);

void tf_fit(tf_t *f, const char *text, const char *budget, int32_t cap, int32_t threads)
{
    fit_with(f, text, budget, cap, threads, false);
}

void tf_fit_relower(tf_t *f, const char *text, const char *budget, int32_t cap, int32_t threads)
{
    fit_with(f, text, budget, cap, threads, true);
}

static void fit_loaded(tf_t *f, const char *budget, int32_t cap, int32_t threads, bool relower);

static void fit_with(tf_t *f, const char *text, const char *budget, int32_t cap, int32_t threads, bool relower)
{
    memset(f, 0, sizeof *f);
    tr_load(&f->t, text);
    fit_loaded(f, budget, cap, threads, relower);
}

void tf_fit_file(tf_t *f, const char *path, const char *budget, int32_t cap)
{
    memset(f, 0, sizeof *f);
    FILE *in = fopen(path, "rb");
    if (!in)
        fail_msg("cannot open %s", path);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[len] = 0;
    rs_error_t err;
    error_clear(&err);
    if (hlo_read_any(path, text, len, &f->t.r, &err) || routine_bindings(f->t.r, NULL, 0, &f->t.b, &err) ||
        lower_routine(f->t.r, &f->t.b, &f->t.l, &err))
        fail_msg("%s: %d:%d: %s", path, err.line, err.col, err.msg);
    fit_loaded(f, budget, cap, 0, false);
}

static void fit_loaded(tf_t *f, const char *budget, int32_t cap, int32_t threads, bool relower)
{
    f->ctx = tf_root(&f->t);
    rs_error_t err;
    error_clear(&err);
    fit_options_t opt = { .max_candidates = cap, .device_bytes = -1, .threads = threads, .relower = relower };
    if (units_parse_budget(budget, "budget", &opt.budget, &err))
        fail_msg("budget %s: %s", budget, err.msg);
    if (fit_run(&opt, f->ctx, NULL, &f->plan, &err))
        fail_msg("fit failed: %s", err.msg);
    tf_check_answers(f);
}

/* The floor written out plainly (DESIGN §13): at every step, the aligned
 * bytes of the materialized buffers that are no candidate (or held) live
 * there; the largest, the first step on ties. */
static floor_t naive_floor(const lowering_t *l, const score_detail_t *d, const uint8_t *held)
{
    floor_t best = { 0 };
    best.bytes = -1;
    int32_t steps = l->n_steps > 0 ? l->n_steps : 1;
    for (int32_t s = 0; s < steps; s++) {
        floor_t here = { .step = s };
        for (int32_t i = 0; i < l->n_nodes; i++) {
            lower_role_t r = lower_role(l, i);
            if (d->place.is_inline[i] || (r == LOWER_CANDIDATE && !(held && held[i])))
                continue;
            if (d->live.start[i] <= s && s <= d->live.end[i]) {
                here.bytes += d->aligned[i];
                here.role[r] += d->aligned[i];
            }
        }
        if (here.bytes > best.bytes)
            best = here;
    }
    return best;
}

void tf_check_answers(const tf_t *f)
{
    const fit_plan_t *p = f->plan;
    const lowering_t *l = f->t.l;
    rs_error_t err;
    uint8_t *prefs = calloc((size_t)l->n_nodes + 1, 1);
    uint8_t *held = calloc((size_t)l->n_nodes + 1, 1);
    fit_context_prefs(f->ctx, prefs);
    /* recompute per flip: final.compute after it minus before it, a held
     * member 0 and the flip closing its group the group's addition */
    int64_t before = p->baseline.compute, sum = 0;
    for (int32_t i = 0; i < p->n_flips; i++) {
        prefs[p->flips[i].node] = 1;
        sum += p->flips[i].recompute;
        if (p->flips[i].relief == 0) {
            assert_int_equal(p->flips[i].recompute, 0);
            continue;
        }
        footprint_t fp;
        if (score_lowering(l, prefs, &f->ctx->cfg, &fp, NULL, &err))
            fail_msg("score: %s", err.msg);
        assert_int_equal(p->flips[i].recompute, fp.compute - before);
        before = fp.compute;
    }
    assert_int_equal(sum, p->final.compute - p->baseline.compute);
    /* the floors, from the baseline's scoring */
    memset(prefs, 0, (size_t)l->n_nodes);
    fit_context_prefs(f->ctx, prefs);
    score_detail_t d;
    footprint_t base;
    if (score_lowering(l, prefs, &f->ctx->cfg, &base, &d, &err))
        fail_msg("score: %s", err.msg);
    floor_t fl = naive_floor(l, &d, NULL);
    assert_int_equal(p->floor.bytes, fl.bytes);
    assert_int_equal(p->floor.step, fl.step);
    for (int r = 0; r < FLOOR_ROLES; r++)
        assert_int_equal(p->floor.role[r], fl.role[r]);
    int32_t dropped = 0;
    for (int32_t k = 0; k < p->n_cands; k++)
        if (p->cands[k].status == ST_DROPPED)
            held[p->cands[k].node] = 1, dropped++;
    assert_int_equal(dropped, p->dropped);
    floor_t fc = naive_floor(l, &d, held);
    assert_int_equal(p->floor_cap.bytes, fc.bytes);
    assert_int_equal(p->floor_cap.step, fc.step);
    for (int r = 0; r < FLOOR_ROLES; r++)
        assert_int_equal(p->floor_cap.role[r], fc.role[r]);
    /* what makes them floors: no plan goes below */
    assert_true(p->floor.bytes <= p->floor_cap.bytes);
    assert_true(p->floor_cap.bytes <= p->final.live_peak);
    assert_true(p->final.live_peak <= p->final.total);
    score_detail_free(&d);
    free(prefs);
    free(held);
}

void tf_free(tf_t *f)
{
    fit_plan_free(f->plan);
    fit_context_free(f->ctx);
    tr_free(&f->t);
}

const char *tf_name(const tf_t *f, int32_t node) { return f->t.r->nodes[node].name; }

void tf_expect_flips(const tf_t *f, int n, const char *const *names, const int64_t *reliefs)
{
    const fit_plan_t *p = f->plan;
    if (p->n_flips != n) {
        char got[256] = "";
        size_t w = 0;
        for (int32_t i = 0; i < p->n_flips && w < 200; i++)
            w += (size_t)snprintf(got + w, sizeof got - w, "%s(%lld) ", tf_name(f, p->flips[i].node),
                                  (long long)p->flips[i].relief);
        fail_msg("expected %d flips, got %d: %s", n, (int)p->n_flips, got);
    }
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        assert_string_equal(tf_name(f, p->flips[i].node), names[i]);
        assert_int_equal(p->flips[i].relief, reliefs[i]);
        sum += reliefs[i];
    }
    assert_int_equal(sum, p->baseline.total - p->final.total);
}

int32_t tf_find_event(const tf_t *f, fit_event_kind_t kind, const char *name)
{
    for (int32_t i = 0; i < f->plan->n_events; i++) {
        const fit_event_t *e = &f->plan->events[i];
        if (e->kind == kind && (!name || (e->node >= 0 && strcmp(tf_name(f, e->node), name) == 0)))
            return i;
    }
    return -1;
}

static unsigned next(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

char *tf_random_routine(unsigned seed)
{
    size_t cap = 1 << 16, w = 0;
    char *buf = malloc(cap);
    unsigned s = seed * 2654435761u + 1;
    int n_in = 1 + (int)(next(&s) % 3);
    int n_def = 4 + (int)(next(&s) % 24);
    w += (size_t)snprintf(buf + w, cap - w, "routine r%u\ndtype u8\n", seed);
    for (int i = 0; i < n_in; i++)
        w += (size_t)snprintf(buf + w, cap - w, "input i%d [%u]\n", i, 1 + next(&s) % 64);
    for (int d = 0; d < n_def; d++) {
        int n_args = 1 + (int)(next(&s) % 3);
        w += (size_t)snprintf(buf + w, cap - w, "n%d = op(", d);
        for (int a = 0; a < n_args; a++) {
            /* mostly recent nodes, sometimes far ones: long spans */
            int pick = (int)(next(&s) % (unsigned)(n_in + d));
            if (d > 0 && next(&s) % 3)
                pick = n_in + d - 1 - (int)(next(&s) % (unsigned)(d < 4 ? d : 4));
            if (pick < n_in)
                w += (size_t)snprintf(buf + w, cap - w, "%si%d", a ? ", " : "", pick);
            else
                w += (size_t)snprintf(buf + w, cap - w, "%sn%d", a ? ", " : "", pick - n_in);
        }
        const char *flag = "";
        unsigned r = next(&s) % 16;
        if (r == 0 || d == n_def - 1)
            flag = " @output";
        else if (r == 1)
            flag = " @pinned";
        else if (r == 2)
            flag = " @inline";
        else if (r == 3)
            flag = " @into(i0)"; /* written into an input's buffer: holds no bytes */
        unsigned size = next(&s) % 200;
        unsigned cost = 1 + next(&s) % 50;
        w += (size_t)snprintf(buf + w, cap - w, ") [%u] cost=%u%s\n", size, cost, flag);
        if (next(&s) % 11 == 0) /* an accumulation */
            w += (size_t)snprintf(buf + w, cap - w, "n%d += op(i0) [%u]\n", d, size);
    }
    return buf;
}

/* A sentence into buf; fails the test when it could not be built. */
static void copy_said(const char *said, char *buf, size_t n)
{
    assert_non_null(said);
    snprintf(buf, n, "%s", said ? said : "");
}

void tf_describe(const fit_plan_t *p, int32_t i, char *buf, size_t n)
{
    strbuf_t b;
    strbuf_init(&b);
    copy_said(trace_describe(p, i, &b), buf, n);
    strbuf_free(&b);
}

void tf_explain(const fit_plan_t *p, int32_t node, char *buf, size_t n)
{
    strbuf_t b;
    strbuf_init(&b);
    copy_said(trace_explain(p, node, &b), buf, n);
    strbuf_free(&b);
}
