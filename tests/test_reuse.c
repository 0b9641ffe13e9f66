/* Tests for core/reuse.c: the lowering reuse cell of DESIGN §6. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "reuse.h"

static int created;
static reuse_cell_t *last_cell;
static void on_created(reuse_cell_t *c, void *ud)
{
    (void)ud;
    created++;
    last_cell = c;
}

static void test_first_lowers_then_copies(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    reuse_owner_t o = { &t, t.r, &t.b, "s" };
    reuse_thread_counters_reset();
    reuse_set_created_observer(on_created, NULL);
    created = 0;
    reuse_cell_t *c = reuse_cell_new(&o, false);
    assert_int_equal(created, 1);
    assert_ptr_equal(last_cell, c);
    reuse_set_created_observer(NULL, NULL);
    assert_null(reuse_cell_snapshot(c));
    rs_error_t err;
    assert_int_equal(reuse_cell_reseed(c, &o, t.l, &err), RS_EINVAL); /* empty cell */
    assert_non_null(strstr(err.msg, "empty"));
    lowering_t *a, *b;
    assert_int_equal(reuse_cell_lowering(c, &o, &a, &err), RS_OK);
    assert_int_equal(reuse_cell_lowering(c, &o, &b, &err), RS_OK);
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
    reuse_thread_counters(&reused, &lowered);
    assert_int_equal(reused, 1);
    assert_int_equal(lowered, 1);
    lower_free(a);
    lower_free(b);
    reuse_cell_free(c);
    tr_free(&t);
}

static void test_owner_mismatch(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    reuse_owner_t o = { &t, t.r, &t.b, "s" };
    reuse_cell_t *c = reuse_cell_new(&o, false);
    rs_error_t err;
    lowering_t *l = NULL;
    bindings_t other;
    assert_int_equal(routine_bindings(t.r, NULL, 0, &other, &err), RS_OK);
    reuse_owner_t wrong_bind = { &t, t.r, &other, "s" };   /* equal values, other object */
    assert_int_equal(reuse_cell_lowering(c, &wrong_bind, &l, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "bindings"));
    assert_null(l);
    char name[] = "s";
    reuse_owner_t wrong_name = { &t, t.r, &t.b, name };     /* same text, other pointer */
    assert_int_equal(reuse_cell_lowering(c, &wrong_name, &l, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "name"));
    reuse_owner_t wrong_ctx = { &other, t.r, &t.b, "s" };
    assert_int_equal(reuse_cell_lowering(c, &wrong_ctx, &l, &err), RS_EINVAL);
    int64_t reused, lowered;
    reuse_cell_counters(c, &reused, &lowered);
    assert_int_equal(lowered, 0); /* never a silent relower */
    bindings_free(&other);
    reuse_cell_free(c);
    tr_free(&t);
}

static void test_reseed(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    reuse_owner_t o = { &t, t.r, &t.b, NULL };
    reuse_cell_t *c = reuse_cell_new(&o, false);
    rs_error_t err;
    lowering_t *a;
    assert_int_equal(reuse_cell_lowering(c, &o, &a, &err), RS_OK);
    a->cost[3] = 77;
    assert_int_equal(reuse_cell_reseed(c, &o, a, &err), RS_OK); /* the cell owns a now */
    assert_ptr_equal(reuse_cell_snapshot(c), a);
    lowering_t *b;
    assert_int_equal(reuse_cell_lowering(c, &o, &b, &err), RS_OK);
    assert_int_equal(b->cost[3], 77);
    lower_free(b);
    reuse_cell_free(c);
    tr_free(&t);
}

/* Audit: every reuse lowers fresh and compares; a reseeded snapshot that
 * differs from a fresh lowering fails loudly. */
static void test_audit(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    reuse_owner_t o = { &t, t.r, &t.b, NULL };
    reuse_cell_t *c = reuse_cell_new(&o, true);
    rs_error_t err;
    lowering_t *a, *b;
    assert_int_equal(reuse_cell_lowering(c, &o, &a, &err), RS_OK);
    assert_int_equal(reuse_cell_lowering(c, &o, &b, &err), RS_OK); /* audited: equal */
    lower_free(b);
    a->bytes[1] = 5;
    assert_int_equal(reuse_cell_reseed(c, &o, a, &err), RS_OK);
    assert_int_equal(reuse_cell_lowering(c, &o, &b, &err), RS_EAUDIT);
    assert_non_null(strstr(err.msg, "bytes[1]"));
    assert_null(b);
    reuse_cell_free(c);
    tr_free(&t);
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

static void test_fit_counters_and_audit(void **state)
{
    (void)state;
    const char *routines[] = { ROUTINE_PAIR, ROUTINE_NEUTRAL, ROUTINE_HARMFUL, ROUTINE_NEGATIVE };
    for (int k = 0; k < 4; k++) {
        tr_t t;
        tr_load(&t, routines[k]);
        fit_context_t *ctx = tf_root(&t);
        rs_error_t err;
        fit_options_t opt = { .max_candidates = -1, .device_bytes = -1, .audit = true };
        opt.budget.kind = BUDGET_MINIMIZE;
        fit_plan_t *p;
        if (fit_run(&opt, ctx, NULL, &p, &err))
            fail_msg("audit failed: %s", err.msg);
        assert_int_equal(p->lowered, 1);
        assert_int_equal(p->reused, scorings_of(p) - 1);
        fit_plan_free(p);
        fit_context_free(ctx);
        tr_free(&t);
    }
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
    reuse_owner_t o = fit_owner(ctx, opt.name);
    reuse_cell_t *cell = reuse_cell_new(&o, false);
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
        cmocka_unit_test(test_first_lowers_then_copies),
        cmocka_unit_test(test_owner_mismatch),
        cmocka_unit_test(test_reseed),
        cmocka_unit_test(test_audit),
        cmocka_unit_test(test_fit_counters_and_audit),
        cmocka_unit_test(test_sweep_accumulates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
