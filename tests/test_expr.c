/* Tests for core/model/expr.c: precedence, floor division, overflow, errors. */
#include <string.h>

#include "model/expr.h"
#include "testutil.h"

static int eval(const char *src, int64_t *out, rs_error_t *err, const char *bind_name, int64_t bind_value)
{
    expr_syms_t syms;
    expr_syms_init(&syms);
    int64_t values[8] = { 0 };
    unsigned char bound[8] = { 0 };
    if (bind_name) {
        int32_t id = expr_syms_intern(&syms, bind_name, strlen(bind_name));
        values[id] = bind_value;
        bound[id] = 1;
    }
    lex_t lx = { .file = "e", .s = src, .len = strlen(src), .line = 1 };
    expr_t e;
    expr_pool_t pool;
    expr_pool_init(&pool);
    error_clear(err);
    int rc = expr_parse(&lx, &syms, &pool, &e, err);
    if (!rc && !lex_at_end(&lx))
        rc = error_set(err, RS_EINPUT, "e", 1, lex_col(&lx), "trailing text");
    if (!rc) {
        expr_env_t env = { values, bound, &syms, "e", &pool };
        rc = expr_eval(&e, &env, out, err);
    }
    expr_pool_free(&pool);
    expr_syms_free(&syms);
    return rc;
}

static int64_t ok(const char *src)
{
    int64_t v;
    rs_error_t err;
    if (eval(src, &v, &err, "B", 64))
        fail_msg("%s: %s", src, err.msg);
    return v;
}

static void test_values(void **state)
{
    (void)state;
    assert_int_equal(ok("2+3*4"), 14);          /* * binds tighter */
    assert_int_equal(ok("(2+3)*4"), 20);
    assert_int_equal(ok("2*B*3"), 384);         /* B = 64 */
    assert_int_equal(ok("7/2"), 3);
    assert_int_equal(ok("-7/2"), -4);           /* floor, not truncation (-3) */
    assert_int_equal(ok("7/-2"), -4);
    assert_int_equal(ok("-7/-2"), 3);
    assert_int_equal(ok("10-3-2"), 5);          /* left associative */
    assert_int_equal(ok("1<<10"), 1024);
    assert_int_equal(ok("1<<2+1"), 8);          /* << binds loosest, as in C */
    assert_int_equal(ok("9223372036854775807"), INT64_MAX);
    assert_int_equal(ok("--3"), 3);
}

static void expect_err(const char *src, int col, const char *needle)
{
    int64_t v;
    rs_error_t err;
    assert_int_equal(eval(src, &v, &err, "B", 64), RS_EINPUT);
    if (err.col != col || !strstr(err.msg, needle))
        fail_msg("%s: expected col %d '%s', got col %d '%s'", src, col, needle, err.col, err.msg);
}

static void test_errors(void **state)
{
    (void)state;
    expect_err("9223372036854775807+1", 20, "overflow");
    expect_err("4611686018427387904*2", 20, "overflow");   /* 2^62 * 2 */
    expect_err("1<<63", 2, "overflow");
    expect_err("B/(B-64)", 2, "division by zero");
    expect_err("2*N", 3, "unbound symbol 'N'");
    expect_err("9223372036854775808", 1, "does not fit");
    expect_err("(1+2", 5, "expected ')'");
    expect_err("1+", 3, "expected a number");
    expect_err("-(-9223372036854775807-1)", 1, "overflow");
}

static void test_depth_limit(void **state)
{
    (void)state;
    char deep[400];
    memset(deep, '(', 200);
    deep[200] = '1';
    memset(deep + 201, ')', 198);
    deep[399] = 0;
    int64_t v;
    rs_error_t err;
    assert_int_equal(eval(deep, &v, &err, NULL, 0), RS_EINPUT);
    assert_non_null(strstr(err.msg, "nested deeper"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_depth_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
