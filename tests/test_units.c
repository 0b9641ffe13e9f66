/* Tests for core/model/units.c: budget parsing and resolution. */
#include <string.h>

#include "model/units.h"
#include "testutil.h"

static budget_spec_t parse_ok(const char *s)
{
    budget_spec_t b;
    rs_error_t err;
    if (units_parse_budget(s, "--budget", &b, &err))
        fail_msg("%s: %s", s, err.msg);
    return b;
}

static void test_bytes(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("48MiB").bytes, 48LL << 20);          /* 50331648 */
    assert_int_equal(parse_ok("1.5GB").bytes, 1500000000LL);
    assert_int_equal(parse_ok("1.5GiB").bytes, 1610612736LL);       /* 1.5 * 2^30 */
    assert_int_equal(parse_ok("4000000").bytes, 4000000);
    assert_int_equal(parse_ok(" 512 ").bytes, 512);
    assert_int_equal(parse_ok("2kB").bytes, 2000);
    assert_int_equal(parse_ok("2KiB").bytes, 2048);
    assert_int_equal(parse_ok("0.5B").bytes, 0);                    /* rounds down */
    assert_int_equal(parse_ok("-0").bytes, 0);                      /* a zero, not a negative */
    assert_int_equal(parse_ok("-0.0MiB").bytes, 0);
    assert_int_equal(parse_ok("-0%").kind, BUDGET_PERCENT);
    assert_int_equal(parse_ok("8TiB").bytes, 8LL << 40);
    assert_int_equal(parse_ok("48MiB").kind, BUDGET_BYTES);
}

typedef struct bytes_case {
    int64_t v;
    const char *want;
} bytes_case_t;

/* Each of cases[0..n) as format writes it. */
static void expect_bytes(void (*format)(int64_t, char *, size_t), const bytes_case_t *cases, size_t n)
{
    char b[64];
    for (size_t i = 0; i < n; i++) {
        format(cases[i].v, b, sizeof b);
        assert_string_equal(b, cases[i].want);
    }
}

/* The exact count follows the units only where they round: 512 B once. */
static void test_bytes_exact(void **state)
{
    (void)state;
    static const bytes_case_t cases[] = { { 512, "512 B" }, { 1023, "1023 B" }, { 4194304, "4.00 MiB (4194304 B)" } };
    expect_bytes(units_format_bytes_exact, cases, sizeof cases / sizeof cases[0]);
}

static void test_kinds(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("minimize").kind, BUDGET_MINIMIZE);
    assert_int_equal(parse_ok("MINIMIZE").kind, BUDGET_MINIMIZE);
    assert_int_equal(parse_ok("device").kind, BUDGET_DEVICE);
    budget_spec_t p = parse_ok("60%");
    assert_int_equal(p.kind, BUDGET_PERCENT);
    int64_t bytes;
    bool minimize;
    rs_error_t err;
    assert_int_equal(units_budget_resolve(&p, 1000, -1, &bytes, &minimize, &err), RS_OK);
    assert_int_equal(bytes, 600);
    p = parse_ok("12.5%");
    assert_int_equal(units_budget_resolve(&p, 1001, -1, &bytes, &minimize, &err), RS_OK);
    assert_int_equal(bytes, 125);                                   /* floor(1001 * 0.125) */
    p = parse_ok("device");
    assert_int_equal(units_budget_resolve(&p, 1000, -1, &bytes, &minimize, &err), RS_EINPUT);
    assert_int_equal(units_budget_resolve(&p, 1000, 8LL << 30, &bytes, &minimize, &err), RS_OK);
    assert_int_equal(bytes, 8LL << 30);
    p = parse_ok("minimize");
    assert_int_equal(units_budget_resolve(&p, 1000, -1, &bytes, &minimize, &err), RS_OK);
    assert_true(minimize);
}

static void expect_bad(const char *s, const char *needle)
{
    budget_spec_t b;
    rs_error_t err;
    assert_int_equal(units_parse_budget(s, "--budget", &b, &err), RS_EINPUT);
    if (!strstr(err.msg, needle))
        fail_msg("%s: expected '%s', got '%s'", s, needle, err.msg);
    assert_string_equal(err.file, "--budget");
}

static void test_bad(void **state)
{
    (void)state;
    expect_bad("-1", "negative");
    expect_bad("1e400", "unknown unit");
    expect_bad("abc", "expected a number");
    expect_bad("", "expected a budget");
    expect_bad("10PB", "unknown unit");
    expect_bad("99999999999999999999", "too large");
    expect_bad("9000000TiB", "too large");
    expect_bad("5%x", "after '%'");
    /* issue 24 item 11: -0 is a zero (it said "negative"), -0.5B too */
    expect_bad("-0.5", "negative");
    expect_bad("-1%", "negative");
}

static void test_format(void **state)
{
    (void)state;
    static const bytes_case_t cases[] = { { 512, "512 B" }, { 1536, "1.50 KiB" }, { 48LL << 20, "48.0 MiB" } };
    expect_bytes(units_format_bytes, cases, sizeof cases / sizeof cases[0]);
}

/* FLOPs in decimal prefixes, three significant digits, and the time they
 * take on a device (mlp_step's compute, 211,503,364, on a100-80gb's
 * 312e12 FLOP/s is 678 ns). */
static void test_format_flops_and_time(void **state)
{
    (void)state;
    char b[32];
    static const struct { int64_t v; const char *want; } flops[] = {
        { 0, "0 FLOPs" },           { 640, "640 FLOPs" },         { 999, "999 FLOPs" },
        { 1000, "1.00 kFLOPs" },    { 1310720, "1.31 MFLOPs" },   { 12345678, "12.3 MFLOPs" },
        { 211503364, "212 MFLOPs" }, { 999700, "1.00 MFLOPs" },   { 204800000000, "205 GFLOPs" },
        { -12000, "-12.0 kFLOPs" }, { 3000000000000, "3.00 TFLOPs" }, { INT64_MAX, "9.22 EFLOPs" },
    };
    for (size_t i = 0; i < sizeof flops / sizeof flops[0]; i++) {
        units_format_flops(flops[i].v, b, sizeof b);
        assert_string_equal(b, flops[i].want);
    }
    static const struct { double s; const char *want; } secs[] = {
        { 0, "0 s" },          { 850e-9, "850 ns" },  { 211503364 / 312e12, "678 ns" },
        { 12.34e-6, "12.3 us" }, { 4.561e-3, "4.56 ms" }, { 0.9996, "1.00 s" },
        { 1.234, "1.23 s" },   { 150, "2.50 min" },   { 7200, "2.00 h" },
        { -0.002, "-2.00 ms" },
    };
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
        units_format_seconds(secs[i].s, b, sizeof b);
        assert_string_equal(b, secs[i].want);
    }
}

/* A budget for a person: a share or the device with what it came to; a
 * size as its bytes when they say it exactly, else as typed with them;
 * minimize as itself. */
static void test_format_budget(void **state)
{
    (void)state;
    char buf[64];
    units_format_budget("60%", false, 5956303, buf, sizeof buf);
    assert_string_equal(buf, "60% = 5.68 MiB");
    units_format_budget("device", false, 85899345920LL, buf, sizeof buf);
    assert_string_equal(buf, "device = 80.0 GiB");
    units_format_budget("48MiB", false, 48LL << 20, buf, sizeof buf);
    assert_string_equal(buf, "48.0 MiB");
    /* issue 43: 8e9 B is 7.450580... GiB, so "7.45 GiB" alone hid the 8GB typed */
    units_format_budget("8GB", false, 8000000000LL, buf, sizeof buf);
    assert_string_equal(buf, "8GB = 7.45 GiB");
    units_format_budget("9927424", false, 9927424, buf, sizeof buf); /* 9.47 MiB is 9930014 B */
    assert_string_equal(buf, "9927424 = 9.47 MiB");
    units_format_budget("1000", false, 1000, buf, sizeof buf);
    assert_string_equal(buf, "1000 B");
    units_format_budget("1.5KiB", false, 1536, buf, sizeof buf);
    assert_string_equal(buf, "1.50 KiB");
    units_format_budget(NULL, false, 48LL << 20, buf, sizeof buf);
    assert_string_equal(buf, "48.0 MiB");
    units_format_budget("", false, 1000, buf, sizeof buf);
    assert_string_equal(buf, "1000 B");
    units_format_budget("minimize", true, -1, buf, sizeof buf);
    assert_string_equal(buf, "minimize");
    units_format_budget("not a budget", false, 2048, buf, sizeof buf);
    assert_string_equal(buf, "2.00 KiB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_budget),
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_bytes_exact),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_flops_and_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
