/* Tests for app/picture.c (the geometry of an arena's SVG picture) and for
 * app/svg.c writing it: rectangles, merging under a pixel, ticks and
 * lines against hand-worked values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "picture.h"
#include "svg.h"
#include "testutil.h"

/* A frame whose plot is 100 px wide and 128 px high (two roles: one legend
 * row): plot at (96, 68), step s at x = 96 + 100 s / steps, offset o at
 * y = 196 - floor(o * 128 / top). */
static picture_frame_t frame(int64_t step0, int64_t step1, int64_t total, int64_t budget, int64_t peak)
{
    return (picture_frame_t){ PICTURE_LEFT + PICTURE_RIGHT + 100,
                              PICTURE_TOP + PICTURE_BOTTOM_AXIS + PICTURE_LEGEND_ROW + PICTURE_FOOTER + 128,
                              step0, step1, total, budget, peak, 2, 0, 0 };
}

static void expect_rect(const picture_rect_t *r, int32_t x, int32_t y, int32_t w, int32_t h, int32_t buf,
                        int32_t count, int64_t bytes, uint8_t role)
{
    if (r->x != x || r->y != y || r->w != w || r->h != h || r->buf != buf || r->count != count ||
        r->bytes != bytes || r->role != role)
        fail_msg("rect of buffer %d: (%d,%d %dx%d) count %d bytes %lld role %d; want buffer %d (%d,%d %dx%d) "
                 "count %d bytes %lld role %d",
                 r->buf, r->x, r->y, r->w, r->h, r->count, (long long)r->bytes, r->role, buf, x, y, w, h, count,
                 (long long)bytes, role);
}

/* Steps [0, 10) at 10 px a step; total 1024 B: byte ticks every 128 B
 * (1024 / 8), top 1024, so 8 bytes a pixel row.
 *   0: steps 0-4, [0, 512)     x 96 w 50, y 196-64 = 132 h 64
 *   1: steps 5-9, [0, 256)     x 146 w 50, y 164 h 32
 *   2: steps 5-6, [256, 260)   4 B: under a pixel (4 * 128 < 1024); rows
 *                              32 and 32 meet, so one pixel: y 163 h 1, x 146 w 20
 *   3: steps 5-6, [260, 263)   the same pixels and role: joins 2 (2 buffers, 7 B)
 *   4: steps 5-6, [263, 264)   the same pixels, another role: its own rectangle
 *   5: steps 0-9, [512, 1024)  x 96 w 100, y 68 h 64
 *   6: step 7, [256, 264)      8 B is one row exactly: not under a pixel, y 163 h 1
 *   7: steps 10-12             outside the window: not drawn
 *   8: 0 B                     not drawn, but counted in the legend */
static void test_rects_and_merging(void **state)
{
    (void)state;
    view_buf_t b[] = {
        { 0, 4, 0, 512, 0, 0 },  { 5, 9, 0, 256, 1, 1 },    { 5, 6, 256, 4, 2, 1 },
        { 5, 6, 260, 3, 3, 1 },  { 5, 6, 263, 1, 4, 0 },    { 0, 9, 512, 512, 5, 0 },
        { 7, 7, 256, 8, 6, 1 },  { 10, 12, 0, 64, 7, 0 },   { 3, 3, 100, 0, 8, 0 },
    };
    picture_frame_t f = frame(0, 10, 1024, 768, 5);
    picture_t p;
    assert_int_equal(picture_build(b, 9, &f, &p), RS_OK);
    assert_int_equal(p.plot_x, 96);
    assert_int_equal(p.plot_y, 68);
    assert_int_equal(p.plot_w, 100);
    assert_int_equal(p.plot_h, 128);
    assert_int_equal(p.top, 1024);
    assert_int_equal(p.ystep, 128);
    assert_int_equal(p.n_rects, 6);
    expect_rect(&p.rects[0], 96, 132, 50, 64, 0, 1, 512, 0);
    expect_rect(&p.rects[1], 146, 164, 50, 32, 1, 1, 256, 1);
    expect_rect(&p.rects[2], 146, 163, 20, 1, 2, 2, 7, 1);
    expect_rect(&p.rects[3], 146, 163, 20, 1, 4, 1, 1, 0);
    expect_rect(&p.rects[4], 96, 68, 100, 64, 5, 1, 512, 0);
    expect_rect(&p.rects[5], 166, 163, 10, 1, 6, 1, 8, 1);
    assert_int_equal(p.drawn, 7);
    assert_int_equal(p.merged, 2);
    /* the totals stay exact whatever was merged; the 0 B buffer counts */
    assert_int_equal(p.role_count[0], 4);
    assert_int_equal(p.role_bytes[0], 512 + 1 + 512);
    assert_int_equal(p.role_count[1], 4);
    assert_int_equal(p.role_bytes[1], 256 + 4 + 3 + 8);
    /* lines: the peak step's middle, the arena's top, the budget */
    assert_int_equal(p.peak_x, (146 + 156) / 2);
    assert_int_equal(p.total_y, 68);
    assert_int_equal(p.budget_y, 196 - 96);
    /* ticks: every step (10 intervals), every 128 B */
    assert_int_equal(p.n_xticks, 11);
    for (int i = 0; i <= 10; i++) {
        assert_int_equal(p.xticks[i].value, i);
        assert_int_equal(p.xticks[i].pos, 96 + 10 * i);
    }
    assert_int_equal(p.n_yticks, 9);
    for (int i = 0; i <= 8; i++) {
        assert_int_equal(p.yticks[i].value, 128 * i);
        assert_int_equal(p.yticks[i].pos, 196 - 16 * i);
    }
    picture_free(&p);

    /* zoomed to steps [2, 8): spans are clipped to the window, 100/6 px a step */
    f = frame(2, 8, 1024, -1, 9);
    assert_int_equal(picture_build(b, 9, &f, &p), RS_OK);
    assert_int_equal(p.n_rects, 6);
    expect_rect(&p.rects[0], 96, 132, 50, 64, 0, 1, 512, 0);   /* steps 2-4: 96 .. 96 + 300/6 */
    expect_rect(&p.rects[1], 146, 164, 50, 32, 1, 1, 256, 1);  /* steps 5-7: 146 .. 196 */
    expect_rect(&p.rects[2], 146, 163, 33, 1, 2, 2, 7, 1);     /* steps 5-6: 146 .. 96 + 500/6 = 179 */
    expect_rect(&p.rects[5], 179, 163, 17, 1, 6, 1, 8, 1);     /* step 7: 179 .. 196 */
    assert_int_equal(p.peak_x, -1);    /* step 9 is outside */
    assert_int_equal(p.budget_y, -1);
    assert_int_equal(p.n_xticks, 7);   /* steps 2..8 */
    assert_int_equal(p.xticks[1].pos, 96 + 100 / 6);
    picture_free(&p);
}

/* A thousand steps over 100 px: a one-step buffer is a tenth of a pixel
 * wide, so two of them in the same pixel column and rows are one
 * rectangle, even a step apart; a tall one stays alone. */
static void test_narrow_buffers(void **state)
{
    (void)state;
    view_buf_t b[] = {
        { 3, 3, 0, 128, 0, 0 },   /* x 96 + 0.3 -> 96, w 1; rows 0..16: y 180 h 16 */
        { 5, 5, 0, 128, 1, 0 },   /* the same pixels: joins 0 */
        { 15, 15, 0, 128, 2, 0 }, /* the next pixel column: alone */
        { 0, 999, 128, 896, 3, 1 },
    };
    picture_frame_t f = frame(0, 1000, 1024, -1, 3);
    picture_t p;
    assert_int_equal(picture_build(b, 4, &f, &p), RS_OK);
    assert_int_equal(p.n_rects, 3);
    expect_rect(&p.rects[0], 96, 180, 1, 16, 0, 2, 256, 0);
    expect_rect(&p.rects[1], 97, 180, 1, 16, 2, 1, 128, 0);
    expect_rect(&p.rects[2], 96, 68, 100, 112, 3, 1, 896, 1);
    assert_int_equal(p.merged, 2);
    assert_int_equal(p.peak_x, 96); /* step 3's pixel: (96 + 96) / 2 */
    /* a thousand steps: ticks every 100 */
    assert_int_equal(p.n_xticks, 11);
    assert_int_equal(p.xticks[3].value, 300);
    assert_int_equal(p.xticks[3].pos, 126);
    picture_free(&p);
}

/* Byte ticks: the smallest power of two with at most 8 intervals. */
static void test_byte_ticks(void **state)
{
    (void)state;
    picture_t p;
    /* resnet_4's greedy arena, 8,365,604 B: 1 MiB ticks (7.98 of them), top 8 MiB */
    picture_frame_t f = frame(0, 10, 8365604, -1, -1);
    assert_int_equal(picture_build(NULL, 0, &f, &p), RS_OK);
    assert_int_equal(p.ystep, 1 << 20);
    assert_int_equal(p.top, 8 << 20);
    assert_int_equal(p.n_yticks, 9);
    assert_int_equal(p.n_rects, 0);
    assert_int_equal(p.peak_x, -1);
    picture_free(&p);
    /* a budget above the arena sets the scale: 300 B needs 64 B ticks (32 B would be 10), top 320 */
    f = frame(0, 10, 100, 300, -1);
    assert_int_equal(picture_build(NULL, 0, &f, &p), RS_OK);
    assert_int_equal(p.ystep, 64);
    assert_int_equal(p.top, 320);
    assert_int_equal(p.n_yticks, 6);
    assert_int_equal(p.total_y, 196 - 100 * 128 / 320);
    assert_int_equal(p.budget_y, 196 - 300 * 128 / 320);
    picture_free(&p);
    /* an empty arena still has a scale */
    f = frame(0, 1, 0, -1, -1);
    assert_int_equal(picture_build(NULL, 0, &f, &p), RS_OK);
    assert_int_equal(p.top, 1);
    assert_int_equal(p.total_y, -1);
    picture_free(&p);
    /* the largest sizes do not overflow the scale */
    f = frame(0, 10, INT64_MAX, -1, -1);
    assert_int_equal(picture_build(NULL, 0, &f, &p), RS_OK);
    assert_int_equal(p.top, INT64_MAX);
    assert_int_equal(p.total_y, 68);
    picture_free(&p);
}

static void test_bad_frames(void **state)
{
    (void)state;
    picture_t p;
    view_buf_t b[] = { { 0, 0, 0, 8, 0, 2 } };
    picture_frame_t f = frame(0, 10, 8, -1, -1);
    assert_int_equal(picture_build(b, 1, &f, &p), RS_EINVAL); /* role 2 of 2 */
    picture_free(&p);
    f.width_px = PICTURE_LEFT + PICTURE_RIGHT;
    assert_int_equal(picture_build(NULL, 0, &f, &p), RS_EINVAL);
    picture_free(&p);
    f = frame(5, 5, 8, -1, -1);
    assert_int_equal(picture_build(NULL, 0, &f, &p), RS_EINVAL);
    picture_free(&p);
    /* a total below the buffers (top 8 B, 16 px a byte): one above it is
     * left out, one across it is cut at the plot's top */
    view_buf_t over[] = { { 0, 9, 8, 8, 0, 0 }, { 0, 9, 4, 8, 1, 1 } };
    f = frame(0, 10, 8, -1, -1);
    assert_int_equal(picture_build(over, 2, &f, &p), RS_OK);
    assert_int_equal(p.drawn, 1);
    assert_int_equal(p.n_rects, 1);
    expect_rect(&p.rects[0], 96, 68, 100, 64, 1, 1, 8, 1);
    picture_free(&p);
}

static const char *names(const void *ud, int32_t node)
{
    return ((const char *const *)ud)[node];
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* The writer: one <rect> per rectangle with its name escaped for XML, the
 * merged one saying how many it holds. */
static void test_svg_writer(void **state)
{
    (void)state;
    view_buf_t b[] = { { 0, 4, 0, 512, 0, 0 }, { 5, 6, 256, 4, 1, 1 }, { 5, 6, 260, 3, 2, 1 } };
    const char *nm[] = { "a<b>&\"c'", "tiny\x01", "tiny2" };
    static const svg_role_t roles[2] = { { "big", "#000000" }, { "small", "#ff0000" } };
    svg_arena_t a = { "t & <title>", "abcdefghijklmnopqrstuvwxyz", b, 3, names, nm, frame(0, 10, 1024, -1, 2), roles,
                      600, NULL };
    char path[64];
    snprintf(path, sizeof path, "/tmp/rs_picture_%d.svg", (int)getpid());
    svg_stats_t st;
    rs_error_t err;
    assert_int_equal(svg_write_arena(&a, path, ":memory:", &st, &err), RS_OK);
    assert_int_equal(st.drawn, 3);
    assert_int_equal(st.rects, 2);
    assert_int_equal(st.merged, 2);
    const char *s = slurp(path);
    assert_non_null(strstr(s, "<title>t &amp; &lt;title&gt;</title>"));
    /* 220 px hold (220 - 96 - 8) / 7 = 16 characters of the subtitle; <desc> has it whole */
    assert_non_null(strstr(s, ">abcdefghijklmnop\xe2\x80\xa6</text>"));
    assert_non_null(strstr(s, "<desc>abcdefghijklmnopqrstuvwxyz</desc>"));
    assert_non_null(strstr(s, "<rect x=\"96\" y=\"132\" width=\"50\" height=\"64\" fill=\"#000000\" stroke=\"#ffffff\" "
                              "stroke-width=\"0.5\"><title>a&lt;b&gt;&amp;&quot;c&apos;: 512 B, steps 0-4, "
                              "offset 0, big</title></rect>"));
    /* node 1's shade: red mixed 20 % with white */
    assert_non_null(strstr(s, "<rect x=\"146\" y=\"163\" width=\"20\" height=\"1\" fill=\"#ff3333\"><title>2 small "
                              "buffers under a pixel: 7 B in all; the first tiny\\x01, steps 5-6, offset 256"));
    assert_non_null(strstr(s, "big: 1 buffer, 512 B"));
    assert_null(strstr(s, "512 B (512 B)"));
    assert_non_null(strstr(s, "small: 2 buffers, 7 B"));
    assert_non_null(strstr(s, "peak @ step 2: max live 600 B"));
    assert_null(strchr(s, '\x01'));
    unlink(path);
    /* an unwritable path: an error naming it, nothing written */
    assert_int_equal(svg_write_arena(&a, "/nonexistent-dir/x.svg", ":memory:", NULL, &err), RS_EINPUT);
    assert_non_null(strstr(err.file, "/nonexistent-dir/x.svg"));
}

/* The zoomed inset: 1,000 steps in a 1,080 px plot put the peak step
 * under a pixel, so the plot gives 340 px to an inset of the 11 steps
 * around the peak; near the end the window shifts inside.  Written out,
 * the 2 TiB buffer at the peak (steps 500-502, as custom_call.23 was at
 * 1276-1278) is labelled on its rectangle in the inset and named under it. */
static void test_inset(void **state)
{
    (void)state;
    picture_frame_t f = { SVG_WIDTH, SVG_HEIGHT, 0, 1000, 3LL << 40, -1, 500, 2, 0, 0 }, m, in;
    assert_true(picture_inset(&f, &m, &in));
    assert_int_equal(m.plot_x, 96);
    assert_int_equal(m.plot_w, 1080 - 340);
    assert_int_equal(in.plot_x, 96 + 740 + 40);
    assert_int_equal(in.plot_w, 300);
    assert_int_equal(in.step0, 495);
    assert_int_equal(in.step1, 506);
    f.peak_step = 998; /* the window stays inside the steps */
    assert_true(picture_inset(&f, &m, &in));
    assert_int_equal(in.step0, 989);
    assert_int_equal(in.step1, 1000);
    f.step1 = 45; /* 45 steps of 24 px fill 1,080: no inset */
    f.peak_step = 20;
    assert_false(picture_inset(&f, &m, &in));
    f.step1 = 46;
    assert_true(picture_inset(&f, &m, &in));
    f.step1 = 1000;
    f.peak_step = -1; /* no peak in view */
    assert_false(picture_inset(&f, &m, &in));

    view_buf_t b[] = { { 500, 502, 0, 2LL << 40, 0, 1 }, { 0, 999, 2LL << 40, 1LL << 30, 1, 0 } };
    const char *nm[] = { "custom_call.23", "w" };
    static const svg_role_t roles[2] = { { "resident", "#4e79a7" }, { "candidate", "#48a9a6" } };
    svg_arena_t a = { "t", NULL, b, 2, names, nm, { SVG_WIDTH, SVG_HEIGHT, 0, 1000, (2LL << 40) + (1LL << 30), -1,
                                                      500, 2, 0, 0 }, roles, (2LL << 40) + (1LL << 30), NULL };
    picture_t q;
    assert_true(picture_inset(&a.frame, &m, &in));
    assert_int_equal(picture_build(b, 2, &in, &q), RS_OK);
    /* steps 500-502 of 495-505 in 300 px: x 876 + 5 * 300 / 11 = 1012 to 876 + 8 * 300 / 11 = 1094 */
    assert_int_equal(q.rects[0].x, 1012);
    assert_int_equal(q.rects[0].w, 82);
    picture_free(&q);
    char path[64];
    snprintf(path, sizeof path, "/tmp/rs_inset_%d.svg", (int)getpid());
    rs_error_t err;
    assert_int_equal(svg_write_arena(&a, path, ":memory:", NULL, &err), RS_OK);
    const char *s = slurp(path);
    assert_non_null(strstr(s, "<g id=\"inset\">"));
    assert_non_null(strstr(s, "<rect x=\"1012\" y=\""));
    assert_non_null(strstr(s, "steps 495-505 around the peak; the biggest there:"));
    assert_non_null(strstr(s, ">custom_call.23 2.00 TiB, steps 500-502</text>")); /* under the inset */
    /* upright on its rectangle, which is tall and 82 px wide */
    const char *inset = strstr(s, "<g id=\"inset-labels\"");
    assert_non_null(inset);
    assert_non_null(strstr(inset, "custom_call.23 2.00 TiB</text>"));
    /* the peak line lies under the buffers: before the first <rect> of the buffers */
    const char *line = strstr(s, "stroke-dasharray=\"4 3\""), *bufs = strstr(s, "<g id=\"buffers\"");
    assert_true(line && bufs && line < bufs);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rects_and_merging),
        cmocka_unit_test(test_narrow_buffers),
        cmocka_unit_test(test_byte_ticks),
        cmocka_unit_test(test_bad_frames),
        cmocka_unit_test(test_svg_writer),
        cmocka_unit_test(test_inset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
