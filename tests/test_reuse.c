/* Tests for core/plan/reuse.c: the lowering reuse cell of DESIGN §6 — the
 * thunk and the owner recorded at the first fill, process-wide counters,
 * and the scoped audit and created-observer. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "model/units.h"
#include "plan/reuse.h"
#include "util/strbuf.h"

/* A thunk that counts its calls and resolves the name it is given. */
typedef struct counting {
    const tr_t *t;
    const char *name;
    int calls;
    pthread_mutex_t lock;
} counting_t;

static int counting_lower(void *ud, lowering_t **out, const char **name, rs_error_t *err)
{
    counting_t *c = ud;
    pthread_mutex_lock(&c->lock);
    c->calls++;
    pthread_mutex_unlock(&c->lock);
    *name = c->name;
    return lower_routine(c->t->r, &c->t->b, out, err);
}

static void counting_init(counting_t *c, const tr_t *t, const char *name)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    c->name = name;
    pthread_mutex_init(&c->lock, NULL);
}

/* A chain of 40 candidates (n0..n39, each read by the next), so round one
 * has work for every thread. */
static char *chain_text(int n)
{
    strbuf_t b;
    strbuf_init(&b);
    strbuf_printf(&b, "routine chain\ndtype u8\ninput x [4]\nn0 = f(x) [10]\n");
    for (int i = 1; i < n; i++)
        strbuf_printf(&b, "n%d = f(n%d) [%d]\n", i, i - 1, 10 + (i * 7) % 13);
    strbuf_printf(&b, "out = g(n%d) [1] @output\n", n - 1);
    return b.s;
}

/* One fit: the baseline lowers, every other scoring reuses.  Scorings are
 * one per solo event and one or two per try (two when a group is held). */
static int64_t scorings_of(const fit_plan_t *p)
{
    int64_t n = 1;
    for (int32_t i = 0; i < p->n_events; i++) {
        if (p->events[i].kind == EV_SOLO)
            n++;
        if (p->events[i].kind == EV_TRY)
            n += p->events[i].with >= 0 ? 2 : 1;
    }
    return n;
}

static fit_plan_t *fit_minimize(const fit_context_t *ctx, int32_t threads)
{
    fit_options_t opt = { .max_candidates = -1, .device_bytes = -1, .threads = threads };
    opt.budget.kind = BUDGET_MINIMIZE;
    fit_plan_t *p;
    rs_error_t err;
    if (fit_run(&opt, ctx, NULL, &p, &err))
        fail_msg("fit: %s", err.msg);
    return p;
}

static void test_first_fills_then_copies(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    counting_t first, later;
    counting_init(&first, &t, "resolved");
    counting_init(&later, &t, "other");
    reuse_thunk_t th1 = { counting_lower, &first }, th2 = { counting_lower, &later };
    reuse_owner_t o = { &t, t.r, &t.b, NULL };
    int64_t r0, l0, r1, l1;
    reuse_counters(&r0, &l0);
    reuse_cell_t *c = reuse_cell_new();
    assert_null(reuse_cell_snapshot(c));
    rs_error_t err;
    assert_int_equal(reuse_cell_reseed(c, &o, t.l, &err), RS_EINVAL); /* empty cell */
    assert_non_null(strstr(err.msg, "empty"));
    lowering_t *a, *b;
    const char *name_a, *name_b;
    assert_int_equal(reuse_cell_lowering(c, &o, &th1, &a, &name_a, &err), RS_OK);
    assert_int_equal(reuse_cell_lowering(c, &o, &th2, &b, &name_b, &err), RS_OK);
    /* the thunk ran once, for the fill; the name travels with the snapshot */
    assert_int_equal(first.calls, 1);
    assert_int_equal(later.calls, 0);
    assert_string_equal(name_a, "resolved");
    assert_string_equal(name_b, "resolved");
    const lowering_t *snap = reuse_cell_snapshot(c);
    assert_non_null(snap);
    assert_ptr_not_equal(a, snap);
    assert_ptr_not_equal(b, snap);
    assert_ptr_not_equal(a->bytes, b->bytes); /* private copies */
    char what[200];
    assert_int_equal(lower_compare(a, snap, what, sizeof what), 0);
    a->bytes[1] = 999; /* a scoring may scribble on its copy */
    assert_int_equal(lower_compare(b, snap, what, sizeof what), 0);
    int64_t reused, lowered;
    reuse_cell_counters(c, &reused, &lowered);
    assert_int_equal(reused, 1);
    assert_int_equal(lowered, 1);
    reuse_counters(&r1, &l1);
    assert_int_equal(r1 - r0, 1);
    assert_int_equal(l1 - l0, 1);
    lower_free(a);
    lower_free(b);
    reuse_cell_free(c);
    tr_free(&t);
}

/* The owner is whoever fills the empty cell; every other is refused. */
static void test_owner_recorded_at_first_fill(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    counting_t k;
    counting_init(&k, &t, "s");
    reuse_thunk_t th = { counting_lower, &k };
    bindings_t other;
    rs_error_t err;
    assert_int_equal(routine_bindings(t.r, NULL, 0, &other, &err), RS_OK);
    /* an empty cell takes any owner: here one with the other bindings */
    reuse_owner_t o = { &t, t.r, &other, "s" };
    reuse_cell_t *c = reuse_cell_new();
    lowering_t *l = NULL;
    assert_int_equal(reuse_cell_lowering(c, &o, &th, &l, NULL, &err), RS_OK);
    lower_free(l);
    l = NULL;
    reuse_owner_t wrong_bind = { &t, t.r, &t.b, "s" }; /* equal values, other object */
    assert_int_equal(reuse_cell_lowering(c, &wrong_bind, &th, &l, NULL, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "bindings"));
    assert_null(l);
    char name[] = "s";
    reuse_owner_t wrong_name = { &t, t.r, &other, name }; /* same text, other pointer */
    assert_int_equal(reuse_cell_lowering(c, &wrong_name, &th, &l, NULL, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "name"));
    reuse_owner_t wrong_ctx = { &other, t.r, &other, "s" };
    assert_int_equal(reuse_cell_lowering(c, &wrong_ctx, &th, &l, NULL, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "context"));
    int64_t reused, lowered;
    reuse_cell_counters(c, &reused, &lowered);
    assert_int_equal(lowered, 1);
    assert_int_equal(reused, 0);
    assert_int_equal(k.calls, 1); /* never a silent relower */
    bindings_free(&other);
    reuse_cell_free(c);
    tr_free(&t);
}

typedef struct racer {
    reuse_cell_t *cell;
    const reuse_owner_t *owner;
    const reuse_thunk_t *thunk;
    pthread_barrier_t *go;
    int rc;
} racer_t;

static void *race(void *arg)
{
    racer_t *r = arg;
    pthread_barrier_wait(r->go);
    lowering_t *l;
    rs_error_t err;
    r->rc = reuse_cell_lowering(r->cell, r->owner, r->thunk, &l, NULL, &err);
    if (!r->rc)
        lower_free(l);
    return NULL;
}

/* Four threads racing on an empty cell: one thunk call, three copies. */
static void test_thunk_once_per_cell(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_NEUTRAL);
    counting_t k;
    counting_init(&k, &t, "race");
    reuse_thunk_t th = { counting_lower, &k };
    reuse_owner_t o = { &t, t.r, &t.b, NULL };
    for (int round = 0; round < 20; round++) {
        reuse_cell_t *c = reuse_cell_new();
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, 4);
        racer_t r[4];
        pthread_t tid[4];
        for (int i = 0; i < 4; i++) {
            r[i] = (racer_t){ c, &o, &th, &go, -1 };
            assert_int_equal(pthread_create(&tid[i], NULL, race, &r[i]), 0);
        }
        for (int i = 0; i < 4; i++) {
            pthread_join(tid[i], NULL);
            assert_int_equal(r[i].rc, RS_OK);
        }
        pthread_barrier_destroy(&go);
        int64_t reused, lowered;
        reuse_cell_counters(c, &reused, &lowered);
        assert_int_equal(lowered, 1);
        assert_int_equal(reused, 3);
        assert_int_equal(k.calls, round + 1);
        reuse_cell_free(c);
    }
    tr_free(&t);
}

static void test_reseed(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    counting_t k;
    counting_init(&k, &t, NULL);
    reuse_thunk_t th = { counting_lower, &k };
    reuse_owner_t o = { &t, t.r, &t.b, NULL };
    reuse_cell_t *c = reuse_cell_new();
    rs_error_t err;
    lowering_t *a;
    const char *name;
    assert_int_equal(reuse_cell_lowering(c, &o, &th, &a, &name, &err), RS_OK);
    assert_string_equal(name, ""); /* a thunk that resolves no name */
    a->cost[3] = 77;
    reuse_owner_t other = { &t, t.r, &t.b, "x" };
    assert_int_equal(reuse_cell_reseed(c, &other, a, &err), RS_EINVAL);
    assert_int_equal(reuse_cell_reseed(c, &o, a, &err), RS_OK); /* the cell owns a now */
    assert_ptr_equal(reuse_cell_snapshot(c), a);
    lowering_t *b;
    assert_int_equal(reuse_cell_lowering(c, &o, &th, &b, NULL, &err), RS_OK);
    assert_int_equal(b->cost[3], 77);
    lower_free(b);
    reuse_cell_free(c);
    tr_free(&t);
}

/* ---- the audit scope -------------------------------------------------------------------- */

/* A check that records its calls: how many, how many pairs were distinct
 * objects, how many differed, and the first difference. */
typedef struct recorder {
    pthread_mutex_t lock;
    int calls, distinct, differing;
    lower_diff_t first;
    char tag;
} recorder_t;

static void rec_init(recorder_t *r, char tag)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    r->tag = tag;
}

static void note_first(void *ud, const lower_diff_t *d)
{
    recorder_t *r = ud;
    if (r->first.field == NULL)
        r->first = *d;
}

static void record(void *ud, const lowering_t *reused, const lowering_t *fresh)
{
    recorder_t *r = ud;
    pthread_mutex_lock(&r->lock);
    r->calls++;
    if (reused != fresh && reused->block != fresh->block)
        r->distinct++;
    if (lower_diff_each(reused, fresh, note_first, r))
        r->differing++;
    pthread_mutex_unlock(&r->lock);
}

typedef struct fit_body {
    const fit_context_t *ctx;
    int32_t threads;
    fit_plan_t *plan;
} fit_body_t;

static int fit_in_scope(void *ud)
{
    fit_body_t *b = ud;
    b->plan = fit_minimize(b->ctx, b->threads);
    return 0;
}

/* Under an audit scope, a fit on 4 threads: one check call per reuse, each
 * with two distinct lowerings equal field by field. */
static void test_audit_sees_every_reuse(void **state)
{
    (void)state;
    const char *routines[] = { ROUTINE_PAIR, ROUTINE_NEUTRAL, ROUTINE_HARMFUL, ROUTINE_NEGATIVE, NULL };
    char *chain = chain_text(40);
    routines[4] = chain;
    for (int k = 0; k < 5; k++) {
        tr_t t;
        tr_load(&t, routines[k]);
        fit_context_t *ctx = tf_root(&t);
        recorder_t r;
        rec_init(&r, 'a');
        fit_body_t b = { ctx, 4, NULL };
        assert_int_equal(reuse_with_audit(record, &r, fit_in_scope, &b), 0);
        assert_int_equal(b.plan->lowered, 1);
        assert_int_equal(b.plan->reused, scorings_of(b.plan) - 1);
        assert_int_equal(r.calls, b.plan->reused);
        assert_int_equal(r.distinct, r.calls);
        assert_int_equal(r.differing, 0);
        fit_plan_free(b.plan);
        fit_context_free(ctx);
        tr_free(&t);
    }
    free(chain);
}

typedef struct cell_body {
    reuse_cell_t *cell;
    const reuse_owner_t *owner;
    const reuse_thunk_t *thunk;
    int64_t bytes1;   /* bytes[1] of the lowering the scoring got */
} cell_body_t;

static int one_reuse(void *ud)
{
    cell_body_t *b = ud;
    lowering_t *l;
    rs_error_t err;
    int rc = reuse_cell_lowering(b->cell, b->owner, b->thunk, &l, NULL, &err);
    if (!rc) {
        b->bytes1 = l->bytes[1];
        lower_free(l);
    }
    return rc;
}

/* A reseeded snapshot that differs from a fresh lowering: the check sees
 * the difference, and the scoring proceeds with the reused lowering. */
static void test_audit_difference_scoring_proceeds(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    counting_t k;
    counting_init(&k, &t, NULL);
    reuse_thunk_t th = { counting_lower, &k };
    reuse_owner_t o = { &t, t.r, &t.b, NULL };
    reuse_cell_t *c = reuse_cell_new();
    rs_error_t err;
    lowering_t *a;
    assert_int_equal(reuse_cell_lowering(c, &o, &th, &a, NULL, &err), RS_OK);
    int64_t was = a->bytes[1];
    a->bytes[1] = 5;
    assert_int_equal(reuse_cell_reseed(c, &o, a, &err), RS_OK);
    recorder_t r;
    rec_init(&r, 'a');
    cell_body_t b = { c, &o, &th, -1 };
    assert_int_equal(reuse_with_audit(record, &r, one_reuse, &b), RS_OK);
    assert_int_equal(b.bytes1, 5); /* the reused one */
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.differing, 1);
    assert_string_equal(r.first.field, "bytes");
    assert_int_equal(r.first.index, 1);
    assert_int_equal(r.first.node, 1);
    assert_int_equal(r.first.a, 5);
    assert_int_equal(r.first.b, was);
    assert_int_equal(k.calls, 2); /* the fill and the audit's fresh lowering */
    reuse_cell_free(c);
    tr_free(&t);
}

typedef struct nest {
    cell_body_t *cell;
    recorder_t *inner;
    int (*then)(void *);
} nest_t;

static int inner_scope(void *ud)
{
    nest_t *n = ud;
    return reuse_with_audit(record, n->inner, n->then, n->cell);
}

static int outer_body(void *ud)
{
    nest_t *n = ud;
    int rc = one_reuse(n->cell);      /* outer check */
    rc |= inner_scope(n);             /* inner check */
    rc |= reuse_with_audit(NULL, NULL, one_reuse, n->cell); /* no check */
    rc |= one_reuse(n->cell);         /* the outer check is back */
    return rc;
}

static void test_audit_scopes_nest(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    counting_t k;
    counting_init(&k, &t, NULL);
    reuse_thunk_t th = { counting_lower, &k };
    reuse_owner_t o = { &t, t.r, &t.b, NULL };
    reuse_cell_t *c = reuse_cell_new();
    cell_body_t cb = { c, &o, &th, -1 };
    assert_int_equal(one_reuse(&cb), RS_OK); /* fill, outside any scope */
    recorder_t outer, inner;
    rec_init(&outer, 'o');
    rec_init(&inner, 'i');
    nest_t n = { &cb, &inner, one_reuse };
    assert_int_equal(reuse_with_audit(record, &outer, outer_body, &n), 0);
    assert_int_equal(outer.calls, 2);
    assert_int_equal(inner.calls, 1);
    assert_null(reuse_scope_current());
    assert_int_equal(one_reuse(&cb), RS_OK); /* after: no check at all */
    assert_int_equal(outer.calls, 2);
    assert_int_equal(inner.calls, 1);
    reuse_cell_free(c);
    tr_free(&t);
}

static void *fit_on_thread(void *arg)
{
    fit_body_t *b = arg;
    b->plan = fit_minimize(b->ctx, b->threads);
    return NULL;
}

typedef struct concurrent {
    fit_body_t in_scope, other;
} concurrent_t;

/* Inside the scope: a fit here (checked) and one on a thread this body
 * starts itself, not the search (not checked). */
static int fit_here_and_elsewhere(void *ud)
{
    concurrent_t *c = ud;
    pthread_t tid;
    if (pthread_create(&tid, NULL, fit_on_thread, &c->other))
        return -1;
    fit_in_scope(&c->in_scope);
    pthread_join(tid, NULL);
    return 0;
}

/* A scope does not leak: not to a search started after it ends, on this
 * thread or another, nor to a thread it did not start through a search. */
static void test_audit_scope_does_not_leak(void **state)
{
    (void)state;
    char *chain = chain_text(40);
    tr_t t;
    tr_load(&t, chain);
    fit_context_t *ctx = tf_root(&t);
    recorder_t r;
    rec_init(&r, 'a');
    concurrent_t c = { { ctx, 4, NULL }, { ctx, 4, NULL } };
    assert_int_equal(reuse_with_audit(record, &r, fit_here_and_elsewhere, &c), 0);
    assert_int_equal(r.calls, c.in_scope.plan->reused);
    assert_true(c.other.plan->reused > 0); /* it reused, unchecked */
    int in_scope = r.calls;
    fit_plan_free(c.in_scope.plan);
    fit_plan_free(c.other.plan);
    /* after the scope: this thread, then another */
    fit_plan_t *p = fit_minimize(ctx, 4);
    fit_plan_free(p);
    fit_body_t later = { ctx, 4, NULL };
    pthread_t tid;
    assert_int_equal(pthread_create(&tid, NULL, fit_on_thread, &later), 0);
    pthread_join(tid, NULL);
    fit_plan_free(later.plan);
    assert_int_equal(r.calls, in_scope);
    fit_context_free(ctx);
    tr_free(&t);
    free(chain);
}

/* ---- the created-observer scope --------------------------------------------------------- */

typedef struct seen {
    reuse_cell_t *cells[16];
    int n;
} seen_t;

static void on_created(void *ud, reuse_cell_t *c)
{
    seen_t *s = ud;
    if (s->n < 16)
        s->cells[s->n] = c;
    s->n++;
}

typedef struct make_cells {
    reuse_cell_t *made[2];
    fit_body_t fit;
    seen_t *inner;
    int inner_n;
} make_cells_t;

static int inner_cell(void *ud)
{
    make_cells_t *m = ud;
    reuse_cell_free(reuse_cell_new());
    m->inner_n = m->inner->n;
    return 0;
}

static int create_cells(void *ud)
{
    make_cells_t *m = ud;
    m->made[0] = reuse_cell_new();
    m->made[1] = reuse_cell_new();
    fit_in_scope(&m->fit); /* the fit's own cell */
    return reuse_with_created_observer(on_created, m->inner, inner_cell, m);
}

static void test_observer_scope(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_NEUTRAL);
    fit_context_t *ctx = tf_root(&t);
    reuse_cell_t *before = reuse_cell_new();
    seen_t outer = { 0 }, inner = { 0 };
    make_cells_t m = { .fit = { ctx, 4, NULL }, .inner = &inner };
    assert_int_equal(reuse_with_created_observer(on_created, &outer, create_cells, &m), 0);
    reuse_cell_t *after = reuse_cell_new();
    /* the two cells made here and the fit's; the nested scope's went to
     * the inner observer only; none from before or after */
    assert_int_equal(outer.n, 3);
    assert_ptr_equal(outer.cells[0], m.made[0]);
    assert_ptr_equal(outer.cells[1], m.made[1]);
    assert_ptr_not_equal(outer.cells[2], before); /* the fit's (freed since: its address may come back) */
    assert_int_equal(inner.n, 1);
    assert_int_equal(m.inner_n, 1);
    reuse_cell_free(before);
    reuse_cell_free(after);
    reuse_cell_free(m.made[0]);
    reuse_cell_free(m.made[1]);
    fit_plan_free(m.fit.plan);
    fit_context_free(ctx);
    tr_free(&t);
}

/* ---- counters ------------------------------------------------------------------------------ */

/* A fit on 4 worker threads: the process counters grow by exactly its
 * scorings (one lowering, the rest reuses), whichever thread made them;
 * and a fit run on another thread counts as well. */
static void test_counters_are_process_wide(void **state)
{
    (void)state;
    char *chain = chain_text(40);
    tr_t t;
    tr_load(&t, chain);
    fit_context_t *ctx = tf_root(&t);
    int64_t r0, l0, r1, l1;
    reuse_counters(&r0, &l0);
    fit_plan_t *p = fit_minimize(ctx, 4);
    reuse_counters(&r1, &l1);
    assert_int_equal(p->considered, 40);
    assert_int_equal(l1 - l0, 1);
    assert_int_equal(r1 - r0, scorings_of(p) - 1);
    assert_int_equal(p->reused, scorings_of(p) - 1);
    int64_t one_fit = scorings_of(p);
    fit_plan_free(p);
    fit_body_t other = { ctx, 4, NULL };
    pthread_t tid;
    assert_int_equal(pthread_create(&tid, NULL, fit_on_thread, &other), 0);
    pthread_join(tid, NULL);
    reuse_counters(&r0, &l0);
    assert_int_equal((r0 + l0) - (r1 + l1), one_fit);
    fit_plan_free(other.plan);
    fit_context_free(ctx);
    tr_free(&t);
    free(chain);
}

/* A sweep: one cell across budgets; counters accumulate, one lowering. */
static void test_sweep_accumulates(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_NEUTRAL);
    fit_context_t *ctx = tf_root(&t);
    rs_error_t err;
    fit_options_t opt = { .name = "sweep", .max_candidates = -1, .device_bytes = -1 };
    reuse_cell_t *cell = reuse_cell_new();
    const char *budgets[] = { "100", "60", "minimize" };
    int64_t prev = 0, total = 0;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(units_parse_budget(budgets[i], "b", &opt.budget, &err), RS_OK);
        fit_plan_t *p;
        assert_int_equal(fit_run(&opt, ctx, cell, &p, &err), RS_OK);
        assert_int_equal(p->lowered, 1);
        total += scorings_of(p);
        assert_int_equal(p->reused, total - 1);
        assert_true(p->reused > prev);
        prev = p->reused;
        fit_plan_free(p);
    }
    /* a fit with another name is another search: its cell refuses */
    opt.name = "other";
    fit_plan_t *p;
    assert_int_equal(fit_run(&opt, ctx, cell, &p, &err), RS_EINVAL);
    reuse_cell_free(cell);
    fit_context_free(ctx);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_fills_then_copies),
        cmocka_unit_test(test_owner_recorded_at_first_fill),
        cmocka_unit_test(test_thunk_once_per_cell),
        cmocka_unit_test(test_reseed),
        cmocka_unit_test(test_audit_sees_every_reuse),
        cmocka_unit_test(test_audit_difference_scoring_proceeds),
        cmocka_unit_test(test_audit_scopes_nest),
        cmocka_unit_test(test_audit_scope_does_not_leak),
        cmocka_unit_test(test_observer_scope),
        cmocka_unit_test(test_counters_are_process_wide),
        cmocka_unit_test(test_sweep_accumulates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
