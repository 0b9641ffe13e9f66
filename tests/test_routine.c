/* Tests for core/routine.c: the format of DESIGN §1 and every error kind
 * with its exact line and column. */
#include <string.h>

#include "testutil.h"

static const char *GOLDEN =
    "routine golden            # a comment\n"                      /* 1 */
    "bind B=2 D=3\n"                                               /* 2 */
    "dtype f16\n"                                                  /* 3 */
    "input x [B, D]\n"                                             /* 4 */
    "param w [D, D] f32\n"                                         /* 5 */
    "h = matmul(x, w) [B, D] cost=2*B*D*D @pinned\n"               /* 6 */
    "g = relu(h) [B, D] @inline\n"                                 /* 7 */
    "acc = add(g, x) [B, D] f32\n"                                 /* 8 */
    "acc += mul(h, h) [B, D]\n"                                    /* 9 */
    "\n"
    "s = sum(acc) [] @output\n"                                    /* 11 */
    "z = zeros() [0]\n";                                           /* 12 */

static void test_golden_parse(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, GOLDEN);
    const routine_t *r = t.r;
    assert_string_equal(r->name, "golden");
    assert_int_equal(r->n_nodes, 7);  /* x w h g acc s z */
    assert_int_equal(r->n_steps, 6);  /* h g acc acc+= s z */
    assert_string_equal(r->nodes[0].name, "x");
    assert_int_equal(r->nodes[0].kind, NODE_INPUT);
    assert_int_equal(r->nodes[0].dtype, DT_F16);
    assert_int_equal(r->nodes[1].kind, NODE_PARAM);
    assert_int_equal(r->nodes[1].dtype, DT_F32);
    assert_int_equal(r->nodes[2].flags, FLAG_PINNED);
    assert_int_equal(r->nodes[3].flags, FLAG_INLINE);
    assert_int_equal(r->nodes[5].flags, FLAG_OUTPUT);
    assert_true(r->steps[3].accum);
    assert_int_equal(r->steps[3].node, 4);
    assert_string_equal(r->steps[3].op, "mul");
    assert_int_equal(r->steps[3].nargs, 2);
    assert_int_equal(r->steps[3].args[0], 2);
    assert_int_equal(r->steps[3].args[1], 2);
    assert_int_equal(r->steps[5].nargs, 0);
    assert_int_equal(r->steps[4].line, 11);
    tr_free(&t);
}

static void test_errors(void **state)
{
    (void)state;
    expect_routine_error("", 1, 1, "empty file");
    expect_routine_error("input x [4]\n", 1, 1, "expected `routine NAME`");
    expect_routine_error("routine r\nroutine s\n", 2, 1, "second `routine`");
    expect_routine_error("routine r\ninput x [4]\ny = f(z) [4]\n", 3, 7, "unknown name 'z'");
    expect_routine_error("routine r\ninput x [4]\nx = f(x) [4]\n", 3, 1, "already defined at line 2");
    expect_routine_error("routine r\ninput x [4]\ny += f(x) [4]\n", 3, 1, "not defined yet");
    expect_routine_error("routine r\ninput x [4]\na = f(b) [4]\nb = g(x) [4]\n", 3, 7,
                         "used before its definition at line 4");
    expect_routine_error("routine r\ninput x [4]\na = f(a) [4]\n", 3, 7, "used before its definition at line 3");
    expect_routine_error("routine r\ninput x [4] @foo\n", 2, 13, "unknown flag '@foo'");
    expect_routine_error("routine r\ndtype f128\n", 2, 7, "unknown type 'f128'");
    expect_routine_error("routine r\ninput x [4, 5\n", 2, 14, "expected ',' or ']'");
    expect_routine_error("routine r\ninput x 4\n", 2, 9, "expected '['");
    expect_routine_error("routine r\ninput x [4]\ny = f(x [4]\n", 3, 9, "expected ',' or ')'");
    expect_routine_error("routine r\ninput x [4]\ny = f(x) [4] cost=\n", 3, 19, "expected a number");
    expect_routine_error("routine r\ninput x [4]\ny = f(x) [4] bogus\n", 3, 14, "unexpected 'bogus'");
    expect_routine_error("routine r\nfoo bar\n", 2, 1, "unknown statement 'foo'");
    expect_routine_error("routine r\ninput x [4]\ny = f(x) [4]\ny += f(x) [4] @output\n", 4, 15,
                         "flags belong on the first definition");
    expect_routine_error("routine r\ninput x [4]\ninput x [4]\n", 3, 7, "already defined");
    expect_routine_error("routine r\ninput x [4]\nx += f(x) [4]\n", 3, 1, "only computed nodes accumulate");
    expect_routine_error("routine r\nbind B=1 B=2\n", 2, 10, "already bound at line 2");
    expect_routine_error("routine r\nbind\n", 2, 5, "at least one NAME=INT");
    expect_routine_error("\x01\x02junk\n", 1, 1, "expected `routine NAME`");
    /* lowering errors carry the column of the expression at fault */
    expect_routine_error("routine r\ninput x [N]\n", 2, 10, "unbound symbol 'N'");
    expect_routine_error("routine r\ninput x [4/0]\n", 2, 11, "division by zero");
    expect_routine_error("routine r\ninput x [-4]\n", 2, 10, "dimension is negative");
    /* 2^62 * 4 elements overflow int64 at the second dimension */
    expect_routine_error("routine r\ndtype f32\ninput x [1<<62, 4]\n", 3, 17, "element count overflows");
    /* 2^61 * 2 = 2^62 elements fit; times 4 bytes they do not */
    expect_routine_error("routine r\ndtype f32\ninput x [1<<61, 2]\n", 3, 7, "more than 2^63 bytes");
    expect_routine_error("routine r\ninput x [4]\ny = f(x) [4]\ny += g(x) [5]\n", 4, 11, "does not match 'y' [4]");
    expect_routine_error("routine r\ninput x [4]\ny = f(x) [4] i8\ny += g(x) [4] f32\n", 4, 1, "type f32");
}

static void test_nul_byte(void **state)
{
    (void)state;
    const char text[] = "routine r\ninput x\0 [4]\n";
    routine_t *r;
    rs_error_t err;
    assert_int_equal(routine_parse("bad.routine", text, sizeof text - 1, &r, &err), RS_EINPUT);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 8);
    assert_non_null(strstr(err.msg, "NUL byte"));
}

static void test_bindings_override(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, GOLDEN);
    bindings_t b;
    rs_error_t err;
    const char *ok[] = { "B=5" };
    assert_int_equal(routine_bindings(t.r, ok, 1, &b, &err), RS_OK);
    lowering_t *l;
    assert_int_equal(lower_routine(t.r, &b, &l, &err), RS_OK);
    assert_int_equal(l->bytes[0], 5 * 3 * 2); /* x: [5,3] f16 */
    lower_free(l);
    bindings_free(&b);
    const char *unknown[] = { "Q=5" };
    assert_int_equal(routine_bindings(t.r, unknown, 1, &b, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "no symbol 'Q'"));
    const char *bad[] = { "B=x" };
    assert_int_equal(routine_bindings(t.r, bad, 1, &b, &err), RS_EINPUT);
    tr_free(&t);
}

static void test_mlp_sample_parses(void **state)
{
    (void)state;
    FILE *f = fopen(RS_SAMPLES_DIR "/mlp_step.routine", "rb");
    assert_non_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    tr_t t;
    tr_load(&t, buf);
    assert_int_equal(t.l->n_steps, 15);
    assert_int_equal(t.l->n_nodes, 20);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_parse),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_bindings_override),
        cmocka_unit_test(test_mlp_sample_parses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
