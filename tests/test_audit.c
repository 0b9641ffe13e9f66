/* Tests for app/audit.c: the check behind `fit --audit`, which keeps each
 * difference between a reused lowering and a fresh one as a line naming
 * the node, the field and both values. */
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "fitutil.h"

static int lower_pair(void *ud, lowering_t **out, const char **name, rs_error_t *err)
{
    const tr_t *t = ud;
    *name = t->r->name;
    return lower_routine(t->r, &t->b, out, err);
}

typedef struct one {
    reuse_cell_t *cell;
    reuse_owner_t owner;
    reuse_thunk_t thunk;
} one_t;

static int reuse_once(void *ud)
{
    one_t *o = ud;
    lowering_t *l;
    rs_error_t err;
    int rc = reuse_cell_lowering(o->cell, &o->owner, &o->thunk, &l, NULL, &err);
    lower_free(l);
    return rc;
}

/* ROUTINE_PAIR: x [4], X [100] (node 1, step 0), u, Y [100] (node 3, step
 * 2), v.  The snapshot is reseeded with X's bytes 7 and step 2's cost 9:
 * two differences, each named. */
static void test_each_difference_named(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    one_t o = { reuse_cell_new(), { &t, t.r, &t.b, NULL }, { lower_pair, &t } };
    lowering_t *l;
    rs_error_t err;
    assert_int_equal(reuse_cell_lowering(o.cell, &o.owner, &o.thunk, &l, NULL, &err), RS_OK);
    l->bytes[1] = 7;
    int64_t cost2 = l->step_cost[2];
    l->step_cost[2] = 9;
    assert_int_equal(reuse_cell_reseed(o.cell, &o.owner, l, &err), RS_OK);
    audit_t a;
    audit_init(&a);
    assert_int_equal(reuse_with_audit(audit_check, &a, reuse_once, &o), RS_OK);
    assert_int_equal(reuse_with_audit(audit_check, &a, reuse_once, &o), RS_OK);
    assert_int_equal(a.checked, 2);
    assert_int_equal(a.differences, 4);
    char want[512];
    snprintf(want, sizeof want,
             "reuse 1: node X: bytes[1]: reused 7, fresh 100\n"
             "reuse 1: node Y (step 2): step_cost[2]: reused 9, fresh %lld\n"
             "reuse 2: node X: bytes[1]: reused 7, fresh 100\n"
             "reuse 2: node Y (step 2): step_cost[2]: reused 9, fresh %lld\n",
             (long long)cost2, (long long)cost2);
    assert_string_equal(a.lines.s, want);
    char *rec = audit_record(&a);
    assert_non_null(rec);
    assert_true(strncmp(rec, "2 reuses checked, 4 differences\nreuse 1: node X: bytes[1]", 54) == 0);
    free(rec);
    audit_free(&a);
    reuse_cell_free(o.cell);
    tr_free(&t);
}

/* A clean fit under the check: every reuse checked, nothing found. */
static void test_clean_fit(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_NEUTRAL);
    fit_context_t *ctx = tf_root(&t);
    fit_options_t opt = { .max_candidates = -1, .device_bytes = -1, .threads = 2 };
    opt.budget.kind = BUDGET_MINIMIZE;
    audit_t a;
    audit_init(&a);
    fit_plan_t *p;
    rs_error_t err;
    assert_int_equal(audit_fit_run(&a, &opt, ctx, NULL, &p, &err), RS_OK);
    assert_int_equal(a.checked, p->reused);
    assert_true(a.checked > 0);
    assert_int_equal(a.differences, 0);
    assert_null(a.lines.s);
    char *rec = audit_record(&a);
    char want[64];
    snprintf(want, sizeof want, "%lld reuses checked, 0 differences\n", (long long)p->reused);
    assert_string_equal(rec, want);
    free(rec);
    audit_free(&a);
    fit_plan_free(p);
    fit_context_free(ctx);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_difference_named),
        cmocka_unit_test(test_clean_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
