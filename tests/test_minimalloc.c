/* Tests for store/minimalloc.c: reading MiniMalloc CSVs (and their errors
 * with line and column), writing solutions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layout/arena.h"
#include "layout/layout.h"
#include "minimalloc.h"
#include "testutil.h"

static char *write_tmp(const char *content)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/rs_test_mm_%d.csv", (int)getpid());
    FILE *f = fopen(path, "wb");
    fputs(content, f);
    fclose(f);
    return path;
}

static void expect_bad(const char *content, int line, int col, const char *needle)
{
    char *path = write_tmp(content);
    minimalloc_problem_t p;
    rs_error_t err;
    assert_int_equal(minimalloc_read(path, &p, &err), RS_EINPUT);
    if (err.line != line || err.col != col || !strstr(err.msg, needle))
        fail_msg("expected %d:%d '%s', got %d:%d '%s'", line, col, needle, err.line, err.col, err.msg);
    assert_string_equal(err.file, path);
    unlink(path);
}

/* example.12.csv fits in exactly 12: the greedy reaches it. */
static void test_example12(void **state)
{
    (void)state;
    minimalloc_problem_t p;
    rs_error_t err;
    if (minimalloc_read(RS_BENCH_DIR "/minimalloc/example.12.csv", &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p.n, 5);
    int64_t off[5], h;
    assert_int_equal(layout_run(p.bufs, p.n, 1, LAYOUT_GREEDY, off, &h, &err), RS_OK);
    assert_int_equal(h, 12);
    int32_t a, b;
    assert_true(arena_check(p.bufs, p.n, 1, off, &a, &b));
    assert_int_equal(arena_max_live(p.bufs, p.n, 1, NULL), 12);
    /* round trip through a solution file */
    char out[64];
    snprintf(out, sizeof out, "/tmp/rs_test_sol_%d.csv", (int)getpid());
    assert_int_equal(minimalloc_write_solution(out, ":memory:", &p, off, NULL, false, &err), RS_OK);
    minimalloc_problem_t q;
    assert_int_equal(minimalloc_read(out, &q, &err), RS_OK);
    assert_int_equal(q.n, 5);
    assert_non_null(q.offsets);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(q.ids[i], p.ids[i]);
        assert_int_equal(q.offsets[i], off[i]);
        assert_int_equal(q.bufs[i].start, p.bufs[i].start);
        assert_int_equal(q.bufs[i].end, p.bufs[i].end);
    }
    unlink(out);
    minimalloc_free(&q);
    minimalloc_free(&p);
}

static void test_half_open_spans(void **state)
{
    (void)state;
    /* [0,2) and [2,4) do not overlap: both at offset 0 */
    char *path = write_tmp("id,lower,upper,size\na,0,2,8\nb,2,4,8\n\"c,1\",0,1,4\n");
    minimalloc_problem_t p;
    rs_error_t err;
    assert_int_equal(minimalloc_read(path, &p, &err), RS_OK);
    assert_int_equal(p.bufs[0].end, 1);
    assert_string_equal(p.ids[2], "c,1");
    int64_t off[3], h;
    assert_int_equal(layout_run(p.bufs, p.n, 1, LAYOUT_GREEDY, off, &h, &err), RS_OK);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 0);
    assert_int_equal(h, 12);
    minimalloc_free(&p);
    unlink(path);
}

static void test_errors(void **state)
{
    (void)state;
    expect_bad("", 1, 1, "empty file");
    expect_bad("id,lower,upper\n", 1, 15, "expected the header"); /* where 'size' was expected */
    expect_bad("id,low,upper,size\n", 1, 4, "column 2 should be 'lower'");
    expect_bad("id,lower,upper,size,colour\n", 1, 21, "unknown column 'colour'");
    expect_bad("id,lower,upper,size\n0,5,5,4\n", 2, 5, "must be greater than lower");
    expect_bad("id,lower,upper,size\n0,5,3,4\n", 2, 5, "must be greater than lower");
    expect_bad("id,lower,upper,size\n0,1,3,-4\n", 2, 7, "size must be >= 0");
    expect_bad("id,lower,upper,size\n0,1,3,4\n1,1,x3,4\n", 3, 5, "expected an integer for upper");
    expect_bad("id,lower,upper,size\n0,1,3\n", 2, 6, "expected 4 fields, found 3");
    expect_bad("id,lower,upper,size\n0,1,3,4,5,6\n", 2, 9, "expected 4 fields, found 6");
    expect_bad("id,lower,upper,size\n\"a,b\",1,3,4,5\n", 2, 13, "expected 4 fields, found 5");
    expect_bad("id,lower,upper,size\n\"a,b\",-1,3,4\n", 2, 7, "lower must be >= 0");
    expect_bad("id,lower,upper,size\n0,1,3,4\na\"b,1,3,4\n", 3, 2, "malformed CSV");
    expect_bad("id,lower,upper,size\n\"a\"b,1,3,4\n", 2, 4, "malformed CSV");
    expect_bad("id,lower,upper,size\n\"a\nb\",1,3\n", 2, 1, "expected 4 fields, found 3");
    expect_bad("id,lower,upper,size\n0,1,3,99999999999999999999\n", 2, 7, "expected an integer for size");
    expect_bad("id,lower,upper,size\n0,\"1,3,4\n", 2, 3, "this quote is never closed");
    expect_bad("id,lower,upper,size\n0,1,3,4\n\n1,\"1\n3,4\n", 4, 3, "this quote is never closed");
    expect_bad("\x7f\x45\x4c\x46\x02\x01\x01\n", 1, 1, "expected the header");
}

/* Issue 24 item 4: a lone CR ends a line as LF and CRLF do, for error
 * locations too (it read as one line: 1:4 for 3:3). */
static void test_line_ends(void **state)
{
    (void)state;
    expect_bad("id,lower,upper,size\r0,0,3,4\r1,x,5,8\r", 3, 3, "expected an integer for lower, found 'x'");
    expect_bad("id,lower,upper,size\r\n0,0,3,4\r\n1,x,5,8\r\n", 3, 3, "expected an integer for lower");
    expect_bad("id,lower,upper,size\n0,0,3,4\n1,x,5,8\n", 3, 3, "expected an integer for lower");
    expect_bad("id,lower,upper,size\r0,0,3,4\r\r\n1,0,5,-8\r", 4, 7, "size must be >= 0");
    /* a quoted field over a lone CR counts it as a line */
    expect_bad("id,lower,upper,size\r\"a\rb\",0,3,4\r1,0,x,8\r", 4, 5, "expected an integer for upper");
    char *path = write_tmp("id,lower,upper,size\r\"a\rb\",0,3,4\rc,1,2,8");
    minimalloc_problem_t p;
    rs_error_t err;
    assert_int_equal(minimalloc_read(path, &p, &err), RS_OK);
    assert_int_equal(p.n, 2);
    assert_string_equal(p.ids[0], "a\rb");
    assert_string_equal(p.ids[1], "c");
    minimalloc_free(&p);
    unlink(path);
}

static char *write_tmp_n(const char *content, size_t n)
{
    char *path = write_tmp("");
    FILE *f = fopen(path, "wb");
    fwrite(content, 1, n, f);
    fclose(f);
    return path;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* Issue 24 items 6, 11: an id is kept as written (libcsv trimmed "\tt" to
 * "t"), a NUL in one is refused where it stands, and a solution's ids are
 * defused like every export's text cells unless raw. */
static void test_ids_as_written(void **state)
{
    (void)state;
    char *path = write_tmp("id , lower,upper ,size\n\tt,0,3,4\n b ,0, 1 ,\t1\n \"  q\" ,0,1,1\n=HYPERLINK(1),1,2,3\n"
                           "+a,1,2,3\n-b,1,2,3\n@c,0,1,1\n\"x,=y\",0,1,1\n");
    minimalloc_problem_t p;
    rs_error_t err;
    if (minimalloc_read(path, &p, &err))
        fail_msg("%d:%d: %s", err.line, err.col, err.msg);
    unlink(path);
    assert_int_equal(p.n, 8);
    const char *want[] = { "\tt", " b ", "  q", "=HYPERLINK(1)", "+a", "-b", "@c", "x,=y" };
    for (int i = 0; i < 8; i++)
        assert_string_equal(p.ids[i], want[i]);
    assert_int_equal(p.bufs[1].end, 0); /* " 1 " is 1: numbers skip blanks */
    assert_int_equal(p.bufs[1].size, 1);
    int64_t off[8] = { 0, 4, 5, 0, 3, 6, 6, 7 };
    char out[64];
    snprintf(out, sizeof out, "/tmp/rs_test_ids_%d.csv", (int)getpid());
    assert_int_equal(minimalloc_write_solution(out, ":memory:", &p, off, NULL, false, &err), RS_OK);
    assert_string_equal(slurp(out), "id,lower,upper,size,offset\n'\tt,0,3,4,0\n b ,0,1,1,4\n  q,0,1,1,5\n"
                                    "'=HYPERLINK(1),1,2,3,0\n'+a,1,2,3,3\n'-b,1,2,3,6\n'@c,0,1,1,6\n\"x,=y\",0,1,1,7\n");
    assert_int_equal(minimalloc_write_solution(out, ":memory:", &p, off, NULL, true, &err), RS_OK);
    assert_string_equal(slurp(out), "id,lower,upper,size,offset\n\tt,0,3,4,0\n b ,0,1,1,4\n  q,0,1,1,5\n"
                                    "=HYPERLINK(1),1,2,3,0\n+a,1,2,3,3\n-b,1,2,3,6\n@c,0,1,1,6\n\"x,=y\",0,1,1,7\n");
    unlink(out);
    minimalloc_free(&p);
    /* a NUL byte: at its field, saying which byte */
    static const char nul[] = "id,lower,upper,size\n0,0,3,4\nde\0v,0,3,4\n";
    path = write_tmp_n(nul, sizeof nul - 1);
    assert_int_equal(minimalloc_read(path, &p, &err), RS_EINPUT);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 1);
    assert_non_null(strstr(err.msg, "a NUL byte in field 1 (byte 3)"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example12),
        cmocka_unit_test(test_half_open_spans),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_line_ends),
        cmocka_unit_test(test_ids_as_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
