/* Tests for app/config.c: the configuration file of DESIGN §11, its errors
 * (FILE:LINE:COL), and the precedence of every setting, case by case:
 * command line over file over profile over default. */
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "config.h"
#include "testutil.h"

static void parse_ok(const char *text, config_t *c)
{
    rs_error_t err;
    if (config_parse("cfg", text, strlen(text), c, &err))
        fail_msg("config: %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
}

static void expect_error(const char *text, int line, int col, const char *needle)
{
    config_t c;
    rs_error_t err;
    error_clear(&err);
    assert_int_equal(config_parse("cfg", text, strlen(text), &c, &err), RS_EINPUT);
    if (err.line != line || err.col != col || !strstr(err.msg, needle))
        fail_msg("for %s: got %s:%d:%d: %s; wanted %d:%d: ...%s...", text, err.file, err.line, err.col, err.msg,
                 line, col, needle);
    assert_string_equal(err.file, "cfg");
    config_free(&c);
}

/* A cmdline_t with nothing given, as cli_parse leaves it. */
static cmdline_t bare(void)
{
    cmdline_t c;
    memset(&c, 0, sizeof c);
    c.alignment = -1;
    c.max_depth = -1;
    c.max_candidates = -1;
    return c;
}

static const char *FULL =
    "# every key\n"
    "memory_budget = 48MiB   # trailing comment\n"
    "\n"
    "  log_memory_budget=true\n"
    "buffer_aliasing = off\n"
    "layout = timeline\n"
    "alignment = 64\n"
    "max_inline_depth = 3\n"
    "profile = a100-80gb\n"
    "theme = light\n";

static void test_parse_every_key(void **state)
{
    (void)state;
    config_t c;
    parse_ok(FULL, &c);
    for (int k = 0; k < CONFIG_N_KEYS; k++)
        assert_true(c.set[k]);
    assert_int_equal(c.memory_budget.kind, BUDGET_BYTES);
    assert_int_equal(c.memory_budget.bytes, 48 << 20);
    assert_string_equal(c.text[CONFIG_MEMORY_BUDGET], "48MiB");
    assert_int_equal(c.line[CONFIG_MEMORY_BUDGET], 2);
    assert_int_equal(c.col[CONFIG_MEMORY_BUDGET], 17);
    assert_true(c.log_memory_budget);
    assert_int_equal(c.line[CONFIG_LOG_MEMORY_BUDGET], 4);
    assert_int_equal(c.col[CONFIG_LOG_MEMORY_BUDGET], 21);
    assert_false(c.buffer_aliasing);
    assert_int_equal(c.layout, LAYOUT_TIMELINE);
    assert_int_equal(c.alignment, 64);
    assert_int_equal(c.max_inline_depth, 3);
    assert_string_equal(config_text(&c, CONFIG_PROFILE), "a100-80gb");
    assert_string_equal(config_text(&c, CONFIG_THEME), "light");
    config_free(&c);
    parse_ok("# nothing\n\n   \n", &c);
    for (int k = 0; k < CONFIG_N_KEYS; k++)
        assert_null(config_text(&c, (config_key_t)k));
    config_free(&c);
    assert_null(config_text(NULL, CONFIG_THEME));
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_error("max_candidates = 64\n", 1, 1, "unknown key 'max_candidates'");
    expect_error("layout = greedy\n  Layout = tight\n", 2, 3, "unknown key 'Layout'");
    expect_error("layout greedy\n", 1, 8, "expected '=' after 'layout'");
    expect_error("= 3\n", 1, 1, "expected `key = value`");
    expect_error("theme =   # nothing\n", 1, 8, "theme: expected a value");
    expect_error("\n\nmemory_budget = 6x0%\n", 3, 18, "unknown unit");
    expect_error("memory_budget = -5MB\n", 1, 17, "cannot be negative");
    expect_error("log_memory_budget = yes\n", 1, 21, "expected true or false, found 'yes'");
    expect_error("buffer_aliasing = true\n", 1, 19, "expected on or off, found 'true'");
    expect_error("layout = best\n", 1, 10, "unknown strategy 'best'");
    expect_error("alignment = 0\n", 1, 13, "out of range");
    expect_error("alignment = 64KiB\n", 1, 13, "expected an integer");
    expect_error("max_inline_depth = -1\n", 1, 20, "out of range");
    expect_error("layout = tight\nlayout = greedy\n", 2, 1, "layout is set twice (first at line 1)");
}

static profile_t board(void)
{
    profile_t p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "board");
    p.memory_bytes = 8LL << 30;
    p.alignment = 512;
    p.max_inline_depth = 5;
    return p;
}

static void resolve(const cmdline_t *c, const config_t *f, const profile_t *p, settings_t *s)
{
    rs_error_t err;
    if (settings_resolve(c, f, p, s, &err))
        fail_msg("resolve: %s", err.msg);
}

static void expect_source(const settings_t *s, const config_t *f, config_key_t k, const char *want_value,
                          const char *want_source)
{
    char src[256];
    settings_source(s, f, k, src, sizeof src);
    if (strcmp(s->value[k], want_value) != 0 || strcmp(src, want_source) != 0)
        fail_msg("%s: got %s from %s, wanted %s from %s", config_key_name(k), s->value[k], src, want_value,
                 want_source);
}

/* Nothing given: the built-in defaults. */
static void test_defaults(void **state)
{
    (void)state;
    cmdline_t c = bare();
    settings_t s;
    resolve(&c, NULL, NULL, &s);
    assert_false(s.has_budget);
    expect_source(&s, NULL, CONFIG_MEMORY_BUDGET, "none", "default");
    expect_source(&s, NULL, CONFIG_LOG_MEMORY_BUDGET, "false", "default");
    expect_source(&s, NULL, CONFIG_BUFFER_ALIASING, "on", "default");
    expect_source(&s, NULL, CONFIG_LAYOUT, "greedy", "default");
    expect_source(&s, NULL, CONFIG_ALIGNMENT, "1", "default");
    expect_source(&s, NULL, CONFIG_MAX_INLINE_DEPTH, "8", "default");
    expect_source(&s, NULL, CONFIG_PROFILE, "none", "default");
    expect_source(&s, NULL, CONFIG_THEME, "default", "default");
    assert_true(s.aliasing);
    assert_int_equal(s.alignment, 1);
    assert_int_equal(s.max_inline_depth, 8);
    assert_null(s.profile);
}

/* A profile alone sets alignment and depth, nothing else. */
static void test_profile_over_default(void **state)
{
    (void)state;
    cmdline_t c = bare();
    profile_t p = board();
    c.profile = "board";
    settings_t s;
    resolve(&c, NULL, &p, &s);
    expect_source(&s, NULL, CONFIG_ALIGNMENT, "512", "profile board");
    expect_source(&s, NULL, CONFIG_MAX_INLINE_DEPTH, "5", "profile board");
    expect_source(&s, NULL, CONFIG_PROFILE, "board", "command line");
    expect_source(&s, NULL, CONFIG_LAYOUT, "greedy", "default");
    assert_false(s.has_budget);
}

/* The file over the profile and the defaults, key by key. */
static void test_file_over_profile(void **state)
{
    (void)state;
    config_t f;
    parse_ok(FULL, &f);
    cmdline_t c = bare();
    profile_t p = board();
    settings_t s;
    resolve(&c, &f, &p, &s);
    expect_source(&s, &f, CONFIG_MEMORY_BUDGET, "48MiB", "cfg:2");
    assert_true(s.has_budget);
    assert_int_equal(s.budget.bytes, 48 << 20);
    expect_source(&s, &f, CONFIG_LOG_MEMORY_BUDGET, "true", "cfg:4");
    assert_true(s.log_memory_budget);
    expect_source(&s, &f, CONFIG_BUFFER_ALIASING, "off", "cfg:5");
    assert_false(s.aliasing);
    expect_source(&s, &f, CONFIG_LAYOUT, "timeline", "cfg:6");
    assert_int_equal(s.layout, LAYOUT_TIMELINE);
    expect_source(&s, &f, CONFIG_ALIGNMENT, "64", "cfg:7");        /* not the profile's 512 */
    expect_source(&s, &f, CONFIG_MAX_INLINE_DEPTH, "3", "cfg:8");  /* not the profile's 5 */
    expect_source(&s, &f, CONFIG_PROFILE, "a100-80gb", "cfg:9");
    expect_source(&s, &f, CONFIG_THEME, "light", "cfg:10");
    /* a file that sets only the budget leaves the profile's values */
    config_t g;
    parse_ok("memory_budget = minimize\n", &g);
    resolve(&c, &g, &p, &s);
    assert_int_equal(s.budget.kind, BUDGET_MINIMIZE);
    expect_source(&s, &g, CONFIG_ALIGNMENT, "512", "profile board");
    expect_source(&s, &g, CONFIG_MAX_INLINE_DEPTH, "5", "profile board");
    expect_source(&s, &g, CONFIG_LAYOUT, "greedy", "default");
    config_free(&g);
    config_free(&f);
}

/* The command line over the file, key by key. */
static void test_command_line_over_file(void **state)
{
    (void)state;
    config_t f;
    parse_ok("memory_budget = 48MiB\nlog_memory_budget = false\nbuffer_aliasing = on\nlayout = timeline\n"
             "alignment = 64\nmax_inline_depth = 3\nprofile = a100-80gb\ntheme = light\n",
             &f);
    cmdline_t c = bare();
    c.budget = "60%";
    c.log_budget = true;
    c.no_aliasing = true;
    c.layout = "tight";
    c.alignment = 16;
    c.max_depth = 2;
    c.profile = "board";
    c.theme = "high-contrast";
    profile_t p = board();
    settings_t s;
    resolve(&c, &f, &p, &s);
    for (int k = 0; k < CONFIG_N_KEYS; k++)
        assert_int_equal(s.src[k], SRC_COMMAND_LINE);
    assert_int_equal(s.budget.kind, BUDGET_PERCENT);
    expect_source(&s, &f, CONFIG_MEMORY_BUDGET, "60%", "command line");
    assert_true(s.log_memory_budget);
    assert_false(s.aliasing);
    assert_int_equal(s.layout, LAYOUT_TIGHT);
    assert_int_equal(s.alignment, 16);
    assert_int_equal(s.max_inline_depth, 2);
    assert_string_equal(s.profile, "board");
    assert_string_equal(s.theme, "high-contrast");
    /* one at a time: only that key moves to the command line */
    cmdline_t one = bare();
    one.alignment = 2;
    resolve(&one, &f, &p, &s);
    expect_source(&s, &f, CONFIG_ALIGNMENT, "2", "command line");
    expect_source(&s, &f, CONFIG_MAX_INLINE_DEPTH, "3", "cfg:6");
    expect_source(&s, &f, CONFIG_LAYOUT, "timeline", "cfg:4");
    config_free(&f);
}

/* --profile '' is no profile, over the file's. */
static void test_profile_name(void **state)
{
    (void)state;
    config_t f;
    parse_ok("profile = board\n", &f);
    cmdline_t c = bare();
    config_source_t src;
    assert_string_equal(config_profile_name(&c, &f, &src), "board");
    assert_int_equal(src, SRC_FILE);
    c.profile = "";
    assert_null(config_profile_name(&c, &f, &src));
    assert_int_equal(src, SRC_COMMAND_LINE);
    settings_t s;
    resolve(&c, &f, NULL, &s);
    expect_source(&s, &f, CONFIG_PROFILE, "none", "command line");
    expect_source(&s, &f, CONFIG_ALIGNMENT, "1", "default");
    c.profile = NULL;
    assert_null(config_profile_name(&c, NULL, &src));
    assert_int_equal(src, SRC_DEFAULT);
    config_free(&f);
}

/* Bad command-line values name the flag; an error found when the file's
 * value is used moves to the file's line and column. */
static void test_errors_located(void **state)
{
    (void)state;
    cmdline_t c = bare();
    settings_t s;
    rs_error_t err;
    c.layout = "best";
    assert_int_equal(settings_resolve(&c, NULL, NULL, &s, &err), RS_EINPUT);
    assert_string_equal(err.file, "--layout");
    c = bare();
    c.alignment = 0;
    assert_int_equal(settings_resolve(&c, NULL, NULL, &s, &err), RS_EINPUT);
    assert_string_equal(err.file, "--alignment");
    c = bare();
    c.budget = "lots";
    assert_int_equal(settings_resolve(&c, NULL, NULL, &s, &err), RS_EINPUT);
    assert_string_equal(err.file, "--budget");
    config_t f;
    parse_ok("\n  memory_budget = device\n", &f);
    c = bare();
    resolve(&c, &f, NULL, &s);
    error_set(&err, RS_EINPUT, "--budget", 0, 0, "budget 'device' needs a hardware profile");
    settings_locate_error(&s, &f, CONFIG_MEMORY_BUDGET, &err);
    assert_string_equal(err.file, "cfg");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 19);
    assert_string_equal(err.msg, "memory_budget: budget 'device' needs a hardware profile");
    /* from the command line it stays where it was */
    c.budget = "device";
    resolve(&c, &f, NULL, &s);
    error_set(&err, RS_EINPUT, "--budget", 0, 0, "x");
    settings_locate_error(&s, &f, CONFIG_MEMORY_BUDGET, &err);
    assert_string_equal(err.file, "--budget");
    config_free(&f);
}

/* Issue 24 items 4, 11: a lone CR ends a line (it did not at all: the
 * file read as one line); a huge value is refused without being echoed,
 * and a bad one is cut in the message so its end (what was expected)
 * stays. */
static void test_line_ends_and_long_values(void **state)
{
    (void)state;
    expect_error("layout = greedy\rlayout = tight\r", 2, 1, "layout is set twice (first at line 1)");
    expect_error("layout = greedy\r\n\ralignment = x\r", 3, 13, "alignment:");
    expect_error("# a comment\ralignment = 8\rlayout = best\r", 3, 10, "unknown strategy 'best'");
    config_t c;
    rs_error_t err;
    const char *ok = "layout = tight\ralignment = 64\r";
    assert_int_equal(config_parse("cfg", ok, strlen(ok), &c, &err), RS_OK);
    assert_int_equal(c.layout, LAYOUT_TIGHT);
    assert_int_equal(c.alignment, 64);
    assert_int_equal(c.line[CONFIG_ALIGNMENT], 2);
    config_free(&c);
    size_t n = 1 << 20;
    char *big = malloc(n + 16);
    memcpy(big, "layout = ", 9);
    memset(big + 9, 'x', n);
    memcpy(big + 9 + n, "\n", 2);
    expect_error(big, 1, 10, "layout: a value of 1048576 bytes (at most 256)");
    error_clear(&err);
    assert_int_equal(config_parse("cfg", big, strlen(big), &c, &err), RS_EINPUT);
    assert_true(strlen(err.msg) < 80);
    config_free(&c);
    big[9 + 200] = '\n';
    big[9 + 201] = 0;
    assert_int_equal(config_parse("cfg", big, strlen(big), &c, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "xxx...' (expected greedy, timeline or tight)"));
    assert_true(strlen(err.msg) < 160);
    config_free(&c);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_every_key),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_profile_over_default),
        cmocka_unit_test(test_file_over_profile),
        cmocka_unit_test(test_command_line_over_file),
        cmocka_unit_test(test_profile_name),
        cmocka_unit_test(test_errors_located),
        cmocka_unit_test(test_line_ends_and_long_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
