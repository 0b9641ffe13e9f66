/* Tests for core/model/hlo.c's refusals: every error located, nesting and
 * tuple blow-ups bounded, and issue 24's numbers, line ends and bytes. */
#include <stdlib.h>
#include <string.h>

#include "hlutil.h"
#include "util/utf8.h"

/* ---- every error, located -------------------------------------------------------- */

static void errors_located(void **state)
{
    (void)state;
    BAD("routine x\n", 1, 1, "expected `HloModule NAME` as the first statement");
    BAD("", 1, 1, "expected `HloModule NAME`");
    BAD("HloModule m\n", 1, 1, "module 'm' has no ENTRY computation");
    BAD("HloModule m\n%c { %a = f32[] parameter(0) }\n", 1, 1, "no ENTRY");
    /* truncated */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n", 4, 1, "unexpected end of file: computation 'e'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b = f32[2] add(%a,", 4, 22, "expected an operand");
    /* an operand never defined, or defined later */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b = f32[2] add(%a, %zz)\n}\n", 4, 23,
        "operand 'zz' is not defined");
    BAD("HloModule m\nENTRY %e {\n  %b = f32[2] negate(%a)\n  %a = f32[2] parameter(0)\n}\n", 3, 22,
        "operand 'a' is not defined");
    /* a duplicate name */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %a = f32[2] negate(%a)\n}\n", 4, 3,
        "'a' is already defined at line 3");
    BAD("HloModule m\n%c { %a = f32[] parameter(0) }\n%c { %b = f32[] parameter(0) }\nENTRY %e { %z = f32[] "
        "parameter(0) }\n", 3, 1, "computation 'c' is already defined");
    BAD("HloModule m\nENTRY %e { %z = f32[] parameter(0) }\nENTRY %f { %y = f32[] parameter(0) }\n", 3, 7,
        "a second ENTRY computation (the first is at line 2)");
    /* broken shapes */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2,x] parameter(0)\n}\n", 3, 14, "expected a dimension");
    BAD("HloModule m\nENTRY %e {\n  %a = f33[2] parameter(0)\n}\n", 3, 8, "unknown element type 'f33'");
    BAD("HloModule m\nENTRY %e {\n  %a = i32[2] parameter(0)\n}\n", 3, 8, "unknown element type 'i32'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[?] parameter(0)\n}\n", 3, 12, "unbounded dynamic dimension");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[4294967296,4294967296] parameter(0)\n}\n", 3, 23,
        "element count overflows");
    BAD("HloModule m\nENTRY %e {\n  %a = (f32[2], s32[] parameter(0)\n}\n", 3, 23, "',' or ')' in a tuple shape");
    BAD("HloModule m\nENTRY %e {\n  %a = token[2] parameter(0)\n}\n", 3, 8, "a token has no dimensions");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0), sharding={devices=[2]0,1)\n}\n", 3, 53,
        "')' closes a '{'");
    /* a contracting dimension that is negative or past 63 bits (it read as 1, or was cut) */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[4,3] parameter(0)\n  %b = f32[3,5] parameter(1)\n"
        "  %d = f32[4,5] dot(%a, %b), lhs_contracting_dims={-1}, rhs_contracting_dims={0}\n}\n", 5, 52,
        "lhs_contracting_dims: expected a dimension number");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[4,3] parameter(0)\n  %b = f32[3,5] parameter(1)\n"
        "  %d = f32[4,5] dot(%a, %b), lhs_contracting_dims={99999999999999999999}, rhs_contracting_dims={0}\n}\n",
        5, 52, "lhs_contracting_dims out of range");
    /* binary junk and NUL bytes */
    BAD("HloModule m\nENTRY %e {\n  \x01\x02\x03\n}\n", 3, 3, "found byte 0x01");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\x00\n}\n", 3, 27, "NUL byte");
    BAD("\x7f" "ELF\x02\x01", 1, 1, "expected `HloModule NAME`");
    /* unterminated comment and string */
    BAD("HloModule m\n/* never closed\nENTRY %e {}\n", 2, 1, "unterminated comment");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] custom-call(), custom_call_target=\"x\n}\n", 3, 49,
        "unterminated string");
    /* calls */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %f = f32[2] fusion(%a), kind=kLoop, calls=%nope\n}\n",
        4, 39, "no computation named 'nope'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %f = f32[2] fusion(%a), kind=kLoop\n}\n", 4, 3,
        "fusion names no computation to call");
    BAD("HloModule m\n%c {\n  %p = f32[2] parameter(0)\n  ROOT %q = f32[2] call(%p), to_apply=%c\n}\nENTRY %e { %z = "
        "f32[] parameter(0) }\n", 4, 30, "computation 'c' calls itself");
    /* get-tuple-element */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %t = (f32[2]) tuple(%a)\n  %g = f32[2] "
        "get-tuple-element(%t), index=3\n}\n", 5, 3, "index=3 of a tuple of 1");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %g = f32[2] get-tuple-element(%a)\n}\n", 4, 3,
        "get-tuple-element needs index=");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b = f32[2] add(%a %a)\n}\n", 4, 22,
        "expected ',' or ')' in the operands, found '%a'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b f32[2] add(%a)\n}\n", 4, 6,
        "expected '=' after the instruction's name");
    BAD("HloModule m\nENTRY %e {\n}\n", 2, 7, "computation 'e' has no instructions");
    /* a window size that overflows is an error, not a scan that stalls on its digits (a fuzz finding) */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %z = f32[] constant(0)\n  %r = f32[1] "
        "reduce-window(%a, %z), window={size=99999999999999999999x2}\n}\n", 5, 3, "the cost of 'r' overflows 64 bits");
}

/* Deeply nested tuple shapes and tuples that double at each step are
 * refused, not followed: memory stays bounded by the file. */
static void nesting_and_blowup_bounded(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *text = malloc(depth * 2 + 200);
    size_t w = (size_t)sprintf(text, "HloModule m\nENTRY %%e {\n  %%a = ");
    for (size_t k = 0; k < depth; k++)
        text[w++] = '(';
    w += (size_t)sprintf(text + w, "f32[2]");
    for (size_t k = 0; k < depth; k++)
        text[w++] = ')';
    w += (size_t)sprintf(text + w, " parameter(0)\n}\n");
    expect_hlo_error(text, w, 3, 72, "tuple shapes nested deeper than 64 levels");
    free(text);
    /* t_k = tuple(t_{k-1}, t_{k-1}): 2^40 leaves from a few lines */
    text = malloc(8192);
    w = (size_t)sprintf(text, "HloModule m\nENTRY %%e {\n  %%t0 = f32[2] parameter(0)\n");
    for (int k = 1; k <= 40; k++)
        w += (size_t)sprintf(text + w, "  %%t%d = (f32[2], f32[2]) tuple(%%t%d, %%t%d)\n", k, k - 1, k - 1);
    w += (size_t)sprintf(text + w, "  %%x = f32[2] custom-call(%%t40)\n}\n");
    rs_error_t err;
    routine_t *r;
    assert_int_equal(hlo_read("bad.hlo", text, w, &r, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "tuples here expand to more operands than the file has bytes"));
    assert_true(err.line > 3 && err.line < 45);
    free(text);
}

/* Issue 24 items 4, 7, 9: a lone CR ends a line for error locations; a
 * trip count or tuple index that is negative or past 63 bits is a located
 * error (they read as 1, 5 and 1); buffers whose bytes together pass 2^63
 * are refused where the sum overflows. */
static void reliability_numbers_and_lines(void **state)
{
    (void)state;
    BAD("HloModule m\rENTRY e {\r  a = f32[4] parameter(0)\r  ROOT b = f32[4] negate(zz)\r}\r", 4, 26,
        "operand 'zz' is not defined");
    BAD("HloModule m\r\nENTRY e {\r\n  a = f32[4] parameter(0)\r\n  ROOT b = f32[4] negate(zz)\r\n}\r\n", 4, 26,
        "operand 'zz' is not defined");
    BAD("HloModule m // a comment\rENTRY e {\r  ROOT b = f32[4] negate(zz)\r}\r", 3, 26, "operand 'zz'");
#define LOOP(N)                                                                                                  \
    "HloModule m\n"                                                                                              \
    "c {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"                        \
    "  ROOT lt = pred[] compare(i, i), direction=LT\n}\n"                                                          \
    "b {\n  p = (s32[], f32[4]) parameter(0)\n  ROOT t = (s32[], f32[4]) tuple(p)\n}\n"                           \
    "ENTRY e {\n  x = (s32[], f32[4]) parameter(0)\n"                                                            \
    "  ROOT w = (s32[], f32[4]) while(x), condition=c, body=b, backend_config={\"known_trip_count\":{\"n\":\"" N \
    "\"}}\n}\n"
    BAD(LOOP("99999999999999999999"), 13, 100, "known_trip_count out of range (more than 63 bits)");
    BAD(LOOP("-5"), 13, 100, "known_trip_count cannot be negative");
    hl_t h;
    hl_load(&h, LOOP("7"));
    hl_free(&h);
#undef LOOP
    BAD("HloModule m\nENTRY e {\n  p = (f32[4], f32[8]) parameter(0)\n"
        "  ROOT g = f32[8] get-tuple-element(p), index=-1\n}\n", 4, 47, "a get-tuple-element index cannot be negative");
    BAD("HloModule m\nENTRY e {\n  p = (f32[4], f32[8]) parameter(0)\n"
        "  ROOT g = f32[8] get-tuple-element(p), index=99999999999999999999\n}\n", 4, 47,
        "a get-tuple-element index out of range");
    /* each fits, together they do not: refused at the first that passes 2^63 */
    const char *big = "HloModule m\nENTRY e {\n  a = u8[4611686018427387904] parameter(0)\n"
                      "  b = u8[4611686018427387904] parameter(1)\n  ROOT c = u8[4] add(a, b)\n}\n";
    routine_t *r;
    rs_error_t err;
    assert_int_equal(hlo_read("big.hlo", big, strlen(big), &r, &err), RS_OK); /* reads: sizes are checked lowered */
    bindings_t b;
    lowering_t *l;
    assert_int_equal(routine_bindings(r, NULL, 0, &b, &err), RS_OK);
    assert_int_equal(lower_routine(r, &b, &l, &err), RS_EINPUT);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.col, 3);
    assert_non_null(strstr(err.msg, "the buffers' bytes overflow 64 bits at 'b'"));
    bindings_free(&b);
    routine_free(r);
    /* item 5: convert writes controls and bytes that are not UTF-8 as \xHH
     * (they went out raw), and they read back as the same bytes */
    const char *meta = "HloModule m\nENTRY e {\n  ROOT a = f32[4] parameter(0), metadata={op_name=\"x\xc2\x9b" "2J\xff"
                       "\xc3\xa9\"}\n}\n";
    char *out;
    size_t n;
    assert_int_equal(hlo_convert("m.hlo", meta, strlen(meta), &out, &n, &err), RS_OK);
    if (!strstr(out, "op_name=\"x\\xc2\\x9b" "2J\\xff\xc3\xa9\""))
        fail_msg("%s", out);
    for (size_t i = 0, k; i < n; i += k) /* valid UTF-8 throughout, no C1 control */
        if (!(k = utf8_seq_len(out + i, n - i)) || utf8_is_c1(out + i, k))
            fail_msg("byte 0x%02x at %zu of %s", (unsigned char)out[i], i, out);
    assert_int_equal(routine_parse("m.routine", out, n, &r, &err), RS_OK);
    assert_string_equal(r->nodes[0].origin->op_name, "x\xc2\x9b" "2J\xff\xc3\xa9");
    routine_free(r);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(errors_located),
        cmocka_unit_test(nesting_and_blowup_bounded),
        cmocka_unit_test(reliability_numbers_and_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
