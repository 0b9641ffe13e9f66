/* Tests for app/text.c and the CLI's JSON strings (app/cli/json.c): what
 * reaches a terminal or a JSON reader has every control (C0 and C1) and
 * every byte that is not UTF-8 escaped, and nothing else touched. */
#include <stdlib.h>
#include <string.h>

#include "cli/json.h"
#include "testutil.h"
#include "text.h"

/* Issue 24 item 5: U+009B (CSI, c2 9b), U+009C and U+009D passed raw. */
static void test_escape_c1_and_invalid(void **state)
{
    (void)state;
    char buf[128];
    assert_string_equal(text_escape("a\x1b[2J", buf, sizeof buf), "a\\x1b[2J");
    assert_string_equal(text_escape("a\xc2\x9b" "2J\xc2\x9c\xc2\x9d", buf, sizeof buf), "a\\u009b2J\\u009c\\u009d");
    assert_string_equal(text_escape("\xc2\x80\xc2\x9f\xc2\xa0", buf, sizeof buf), "\\u0080\\u009f\xc2\xa0");
    assert_string_equal(text_escape("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", buf, sizeof buf),
                        "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"); /* valid UTF-8 stays */
    /* not UTF-8: a lone continuation, a cut sequence, an overlong form, a
     * surrogate, above U+10FFFF, and F5..FF */
    assert_string_equal(text_escape("\x80|\xc3|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xf5\x80\x80\x80|\xff", buf,
                                    sizeof buf),
                        "\\x80|\\xc3|\\xc0\\xaf|\\xed\\xa0\\x80|\\xf4\\x90\\x80\\x80|\\xf5\\x80\\x80\\x80|\\xff");
    assert_string_equal(text_shown("x\xc2\x9by"), "x\\u009by");
    /* a C1 escape is not cut in half at the end of the buffer */
    char small[8];
    assert_string_equal(text_escape("ab\xc2\x9b", small, sizeof small), "ab");
}

static char *json_of(const char *s)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    json_t j;
    json_init(&j, f);
    json_str(&j, NULL, s);
    fclose(f);
    return out;
}

/* Issue 24 item 5: invalid UTF-8 went into --json raw (invalid JSON); it
 * is \u00XX of each byte as Latin-1, and C1 controls and DEL are escaped. */
static void test_json_strings(void **state)
{
    (void)state;
    const struct {
        const char *in, *out;
    } cases[] = {
        { "plain", "\"plain\"" },
        { "q\"b\\n\nt\t\x01", "\"q\\\"b\\\\n\\nt\\t\\u0001\"" },
        { "d\xff\xfe", "\"d\\u00ff\\u00fe\"" },
        { "x\xc2\x9b" "2J\x7f", "\"x\\u009b2J\\u007f\"" },
        { "caf\xc3\xa9 \xe2\x86\x92", "\"caf\xc3\xa9 \xe2\x86\x92\"" },
        { "\xc3(", "\"\\u00c3(\"" },
        { "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *got = json_of(cases[k].in);
        if (strcmp(got, cases[k].out) != 0)
            fail_msg("case %zu: got %s, want %s", k, got, cases[k].out);
        free(got);
    }
}

/* a, é (2 bytes), € (3 bytes), b: the first three columns are 6 bytes */
static void test_bytes_for_cols(void **state)
{
    (void)state;
    const char *s = "a\xc3\xa9\xe2\x82\xac" "b";
    int cols;
    assert_int_equal(text_bytes_for_cols(s, 3, &cols), 6);
    assert_int_equal(cols, 3);
    assert_int_equal(text_bytes_for_cols(s, 0, &cols), 0);
    assert_int_equal(cols, 0);
    assert_int_equal(text_bytes_for_cols(s, 10, &cols), 7); /* the string ends first */
    assert_int_equal(cols, 4);
}

/* A count's noun is singular for one only (the Plans header said "1 plans"). */
static void test_count(void **state)
{
    (void)state;
    assert_string_equal(text_count(1, "plan", NULL), "1 plan");
    assert_string_equal(text_count(0, "plan", NULL), "0 plans");
    assert_string_equal(text_count(-1, "flip", NULL), "-1 flips");
    assert_string_equal(text_count(1, "try", "tries"), "1 try");
    assert_string_equal(text_count(3, "try", "tries"), "3 tries");
    /* eight in one call stay apart */
    const char *a = text_count(2, "a", NULL), *b = text_count(1, "b", NULL);
    assert_string_equal(a, "2 as");
    assert_string_equal(b, "1 b");
}

/* A suffix matches in either case, whole, and never past the start. */
static void test_ends_with(void **state)
{
    (void)state;
    assert_true(text_ends_with("plan.svg", ".svg"));
    assert_true(text_ends_with("PLAN.SVG", ".svg"));
    assert_true(text_ends_with("a.Csv", ".csv"));
    assert_true(text_ends_with(".svg", ".svg"));
    assert_false(text_ends_with("svg", ".svg"));
    assert_false(text_ends_with("plan.svgz", ".svg"));
    assert_false(text_ends_with("", ".svg"));
    assert_true(text_ends_with("x", ""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_c1_and_invalid),
        cmocka_unit_test(test_json_strings),
        cmocka_unit_test(test_bytes_for_cols),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_ends_with),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
