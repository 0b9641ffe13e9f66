/* Tests for core/model/routine.c: the format of DESIGN §1 and every error kind
 * with its exact line and column. */
#include <stdio.h>
#include <stdlib.h>
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
    assert_string_equal(routine_op(r, 3), "mul");
    assert_int_equal(r->steps[3].nargs, 2);
    assert_int_equal(routine_args(r, 3)[0], 2);
    assert_int_equal(routine_args(r, 3)[1], 2);
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

/* Issue 19: nothing after a statement but a comment, a routine declares a
 * node, and LF, CRLF and a lone CR all end a line. */
static void test_garbage_and_line_ends(void **state)
{
    (void)state;
    expect_routine_error("routine r (((\n", 1, 11, "expected end of line after the routine's name, found '('");
    expect_routine_error("routine r\n", 1, 1, "routine 'r' declares nothing");
    expect_routine_error("routine r\nbind B=2\ndtype f16  # no node\n", 1, 1, "declares nothing");
    expect_routine_error("routine r\ninput x [4] f32 junk\n", 2, 17, "expected a type, @flags, hlo=/op_name=/source= or end of line");
    expect_routine_error("routine r\ndtype f32 f16\n", 2, 11, "end of line after the type");
    /* a CR-only file: three lines, the error on the third */
    expect_routine_error("routine r\rinput x [4]\ry = f(z) [4]\r", 3, 7, "unknown name 'z'");
    expect_routine_error("routine r\r\n\r\ninput x [4]\r\ny = f(z) [4]\r\n", 4, 7, "unknown name 'z'");
    const char *ends[] = { "\n", "\r\n", "\r" };
    for (int i = 0; i < 3; i++) {
        char text[128];
        snprintf(text, sizeof text, "routine r%sinput x [4]%s%sy = f(x) [4]%sz = g(y, x) [2]", ends[i], ends[i],
                 ends[i], ends[i]);
        tr_t t;
        tr_load(&t, text);
        assert_int_equal(t.r->n_nodes, 3);
        assert_int_equal(t.r->n_steps, 2);
        assert_int_equal(t.r->steps[1].line, 5);
        assert_int_equal(t.r->steps[1].nargs, 2);
        tr_free(&t);
    }
}

/* Columns are counted incrementally; they must still be right far along a
 * long line and after a backtrack. */
static void test_columns_on_a_long_line(void **state)
{
    (void)state;
    enum { TERMS = 5000 };
    char *text = malloc(TERMS * 2 + 64);
    assert_non_null(text);
    int n = sprintf(text, "routine r\ninput x [");
    for (int i = 0; i < TERMS; i++)
        n += sprintf(text + n, "1+");
    sprintf(text + n, "y]\n");
    /* "input x [" is 9 characters; the symbol follows 5000 "1+" */
    expect_routine_error(text, 2, 10 + 2 * TERMS, "unbound symbol 'y'");
    free(text);
    expect_routine_error("routine r\ninput x [4]\ny = f(x, x, \xc3\xa9) [4]\n", 3, 13, "expected an argument name");
    expect_routine_error("routine r\ninput x [4]\ny = f(x) [4] f16 f32\n", 3, 18, "unexpected 'f32'");
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

/* §10's additions to §1: XLA's element types (half-byte ones rounding up)
 * and where a node came from, as quoted attributes. */
static void test_xla_types_and_origin(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine x\ndtype s64\ninput a [3]\ninput q [5] s4 hlo=\"q-1\" source=\"m.py:3\"\n"
                "b = negate(a) [3] pred cost=3 @output hlo=\"neg.1\" op_name=\"jit(f)/\\\"n\\\"\\x41\\n\\t\\\\\"\n"
                "c = add(b, q) [3] c128\n");
    assert_int_equal(t.l->bytes[tr_node(&t, "a")], 24);
    assert_int_equal(t.l->bytes[tr_node(&t, "q")], 3);
    assert_int_equal(t.l->bytes[tr_node(&t, "b")], 3);
    assert_int_equal(t.l->bytes[tr_node(&t, "c")], 48);
    const routine_node_t *q = &t.r->nodes[tr_node(&t, "q")], *b = &t.r->nodes[tr_node(&t, "b")];
    assert_string_equal(q->origin->hlo, "q-1");
    assert_string_equal(q->origin->source, "m.py:3");
    assert_null(q->origin->op_name);
    assert_string_equal(b->origin->op_name, "jit(f)/\"n\"A\n\t\\");
    assert_true(b->flags & FLAG_OUTPUT);
    char buf[128];
    assert_string_equal(routine_node_origin(t.r, tr_node(&t, "q"), buf, sizeof buf), "%q-1 m.py:3");
    assert_string_equal(routine_node_origin(t.r, tr_node(&t, "c"), buf, sizeof buf), "");
    tr_free(&t);
    expect_routine_error("routine x\ninput a [3] hlo=\"x\n", 2, 17, "unterminated string");
    expect_routine_error("routine x\ninput a [3] hlo=\"\\q\"\n", 2, 18, "unknown escape");
    expect_routine_error("routine x\ninput a [3] hlo=\"a\" hlo=\"b\"\n", 2, 21, "hlo= given twice");
    expect_routine_error("routine x\ninput a [3] source\n", 2, 19, "'=' and a quoted string");
    expect_routine_error("routine x\ninput a [3]\nb = f(a) [3] op_name=x\n", 3, 22, "a double-quoted string");
    expect_routine_error("routine x\ninput a [3] s3\n", 2, 13, "expected a type, @flags");
}

/* `@into(X)` (DESIGN §1): on a definition's first line, naming an input
 * declared above; every misuse is an error at the name or the flag. */
static void test_into(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine d\ninput w [8]\ninput m [8]\nparam lr []\ng = f(w) [8]\n"
                "m2 = add(m, g) [8] @into(m)\n"              /* 6 */
                "w2 = sub(w, m2) [8] @output @into( w )\n"   /* 7 */
                "p2 = f(w2) [8] @pinned @into(w)\n"          /* 8: a second node into w */
                "acc = f(g) [8] @into(m)\nacc += f(w2) [8]\n");
    const routine_t *r = t.r;
    int32_t m2 = tr_node(&t, "m2"), w2 = tr_node(&t, "w2"), p2 = tr_node(&t, "p2"), acc = tr_node(&t, "acc");
    assert_int_equal(r->nodes[m2].flags, FLAG_INTO);
    assert_int_equal(r->nodes[w2].flags, FLAG_OUTPUT | FLAG_INTO);
    assert_int_equal(r->nodes[p2].flags, FLAG_PINNED | FLAG_INTO);
    assert_int_equal(routine_into(r, m2), tr_node(&t, "m"));
    assert_int_equal(routine_into(r, w2), tr_node(&t, "w"));
    assert_int_equal(routine_into(r, p2), tr_node(&t, "w"));
    assert_int_equal(routine_into(r, acc), tr_node(&t, "m"));
    assert_int_equal(routine_into(r, tr_node(&t, "g")), -1);
    assert_int_equal(routine_into(r, tr_node(&t, "w")), -1);
    assert_int_equal(r->n_into, 4);
    /* what a pane or a tooltip says of each */
    char buf[128];
    assert_string_equal(routine_into_text(r, m2, buf, sizeof buf), "written into m's buffer: donated");
    assert_string_equal(routine_into_text(r, tr_node(&t, "w"), buf, sizeof buf),
                        "takes w2's result and 1 more: donated");
    assert_string_equal(routine_into_text(r, tr_node(&t, "m"), buf, sizeof buf),
                        "takes m2's result and 1 more: donated");
    assert_string_equal(routine_into_text(r, tr_node(&t, "g"), buf, sizeof buf), "");
    assert_string_equal(routine_into_text(r, tr_node(&t, "lr"), buf, sizeof buf), "");
    tr_free(&t);
    tr_load(&t, "routine e\ninput a [2]\ninput b [2]\nc = f(a) [2] @into(b)\n");
    assert_string_equal(routine_into_text(t.r, tr_node(&t, "b"), buf, sizeof buf), "takes c's result: donated");
    assert_string_equal(routine_into_text(t.r, tr_node(&t, "a"), buf, sizeof buf), "");
    tr_free(&t);
    const char *head = "routine d\ninput w [8]\nparam c [8]\ng = f(w) [8]\n";
    char text[512];
#define INTO_BAD(line, l, c, needle)                                           \
    do {                                                                       \
        snprintf(text, sizeof text, "%s%s\ninput late [8]\n", head, line);     \
        expect_routine_error(text, l, c, needle);                              \
    } while (0)
    INTO_BAD("y = f(w) [8] @inline @into(w)", 5, 22, "@into and @inline on one node");
    INTO_BAD("y = f(w) [8] @into(w) @inline", 5, 23, "@into and @inline on one node");
    INTO_BAD("y = f(w) [8] @into(q)", 5, 20, "unknown name 'q' in @into (expected an input declared above)");
    INTO_BAD("y = f(w) [8] @into(c)", 5, 20, "@into(c) names a param (line 3), not an input");
    INTO_BAD("y = f(w) [8] @into(late)", 5, 20, "@into(late) names a node declared later, at line 6");
    INTO_BAD("y = f(w) [8] @into(g)", 5, 20, "@into(g) names a computed node (line 4), not an input");
    INTO_BAD("y = f(w) [8] @into(y)", 5, 20, "@into(y) names the node itself");
    INTO_BAD("g += f(w) [8] @into(w)", 5, 15, "flags belong on the first definition ('='), not on '+='");
    INTO_BAD("g = f(w) [8] @into(w)", 5, 1, "'g' is already defined at line 4");
    INTO_BAD("y = f(w) [8] @into(w) @into(w)", 5, 23, "@into given twice");
    INTO_BAD("y = f(w) [8] @into w", 5, 20, "expected '(' and an input's name after @into");
    INTO_BAD("y = f(w) [8] @into()", 5, 20, "expected the name of an input declared above");
    INTO_BAD("y = f(w) [8] @into(w", 5, 21, "expected ')' closing @into(...)");
    INTO_BAD("y = f(w) [8] @intox", 5, 14, "unknown flag '@intox' (expected @output, @pinned, @inline or @into(X))");
#undef INTO_BAD
    expect_routine_error("routine d\ninput w [8] @into(w)\n", 2, 13, "@into belongs on a definition");
    expect_routine_error("routine d\ninput w [8]\nparam c [8] @into(w)\n", 3, 13, "@into belongs on a definition");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_parse),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_garbage_and_line_ends),
        cmocka_unit_test(test_columns_on_a_long_line),
        cmocka_unit_test(test_bindings_override),
        cmocka_unit_test(test_mlp_sample_parses),
        cmocka_unit_test(test_xla_types_and_origin),
        cmocka_unit_test(test_into),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
