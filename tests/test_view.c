/* Tests for app/view.c, app/tui/tui_pair.c (opening), app/tui/keymap.c and app/theme.c: what the TUI draws,
 * computed without drawing. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fitutil.h"
#include "theme.h"
#include "tui/keymap.h"
#include "tui/tui_pair.h"
#include "view.h"

/* Two steps per column, 10 bytes per row over [0, 40): 4 columns x 4 rows.
 *   0: steps 0-3, [0,10)   fills the bottom row of columns 0-1
 *   1: steps 0-0, [10,40)  covers half of column 0's top three rows
 *   2: steps 1-1, [10,30)  the other half of column 0's rows 1-2: ties go to the lower index (1)
 *   3: steps 4-7, [0,40)   all of columns 2-3 */
static void test_grid_busiest_wins(void **state)
{
    (void)state;
    view_buf_t b[] = {
        { 0, 3, 0, 10, 0, ROLE_RESIDENT },
        { 0, 0, 10, 30, 1, ROLE_CANDIDATE },
        { 1, 1, 10, 20, 2, ROLE_CANDIDATE },
        { 4, 7, 0, 40, 3, ROLE_OUTPUT },
    };
    view_grid_t g;
    assert_int_equal(view_grid_build(b, 4, 0, 8, 0, 40, 4, 4, &g), RS_OK);
    int want[4][4] = {
        { 1, -1, 3, 3 }, /* row 0: [30,40) */
        { 1, -1, 3, 3 }, /* row 1: [20,30): 1 and 2 cover equal areas: the lower index */
        { 1, -1, 3, 3 }, /* row 2: [10,20) */
        { 0, 0, 3, 3 },  /* row 3: [0,10) */
    };
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            if (g.cell[y * 4 + x] != want[y][x])
                fail_msg("cell (%d,%d) = %d, want %d", x, y, g.cell[y * 4 + x], want[y][x]);
    view_grid_free(&g);
}

/* A small buffer loses a cell to a bigger one sharing it, but keeps a cell
 * where it is alone. */
static void test_grid_aggregates(void **state)
{
    (void)state;
    view_buf_t b[] = {
        { 0, 99, 0, 100, 0, ROLE_CANDIDATE }, /* most of cell 0 */
        { 0, 0, 100, 1, 1, ROLE_CANDIDATE },  /* a sliver in cell 0's top */
        { 100, 100, 0, 1, 2, ROLE_CANDIDATE },/* alone in cell 1 */
    };
    view_grid_t g;
    assert_int_equal(view_grid_build(b, 3, 0, 200, 0, 200, 2, 1, &g), RS_OK);
    assert_int_equal(g.cell[0], 0);
    assert_int_equal(g.cell[1], 2);
    int64_t a, c;
    view_col_steps(&g, 1, &a, &c);
    assert_int_equal(a, 100);
    assert_int_equal(c, 200);
    assert_int_equal(view_step_col(&g, 99), 0);
    assert_int_equal(view_step_col(&g, 100), 1);
    assert_int_equal(view_step_col(&g, 200), -1);
    view_grid_free(&g);
    /* zoomed in past a step a column, each column still maps to a step */
    assert_int_equal(view_grid_build(b, 3, 0, 4, 0, 200, 8, 1, &g), RS_OK);
    view_col_steps(&g, 7, &a, &c);
    assert_int_equal(a, 3);
    assert_int_equal(c, 4);
    view_grid_free(&g);
}

/* The reference picture, worked out cell by cell from the spans and offsets
 * alone: column x of a grid over n steps in w columns shows steps
 * [step0 + x*n/w, step0 + (x+1)*n/w), or the one step step0 + x*n/w when a
 * step is wider than a column; a cell shows the buffer covering most of
 * its steps x offsets (ties: the lower index), -1 when none touches it. */
static int32_t ref_cell(const view_buf_t *b, int32_t n, const view_grid_t *g, int x, int y)
{
    int64_t steps = g->step1 - g->step0, offs = g->off1 - g->off0;
    int64_t sa = g->step0 + steps * x / g->w, sb = g->step0 + steps * (x + 1) / g->w;
    if (sb <= sa)
        sb = sa + 1;
    int64_t ob = g->off0 + offs * (g->h - y) / g->h, oa = g->off0 + offs * (g->h - 1 - y) / g->h;
    int32_t best = -1;
    int64_t best_area = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t ts = (b[i].end + 1 < sb ? b[i].end + 1 : sb) - (b[i].start > sa ? b[i].start : sa);
        int64_t to = (b[i].offset + b[i].size < ob ? b[i].offset + b[i].size : ob) - (b[i].offset > oa ? b[i].offset : oa);
        if (ts > 0 && to > 0 && ts * to > best_area) {
            best_area = ts * to;
            best = i;
        }
    }
    return best;
}

static void expect_picture(const view_buf_t *b, int32_t n, int64_t s0, int64_t s1, int64_t top, int w, int h)
{
    view_grid_t g;
    assert_int_equal(view_grid_build(b, n, s0, s1, 0, top, w, h, &g), RS_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int32_t want = ref_cell(b, n, &g, x, y);
            if (g.cell[y * w + x] != want)
                fail_msg("steps %lld-%lld in %dx%d: cell (%d,%d) = %d, want %d", (long long)s0, (long long)s1 - 1, w, h,
                         x, y, g.cell[y * w + x], want);
        }
    view_grid_free(&g);
}

/* The pair routine scored by the model: X lives over steps 0-1 and Y over
 * 2-3, both at offset 0; every step of each span is drawn, whether a step
 * spans 29-30 columns (the 160-column Arena), 2, 1, or shares a column. */
static void test_picture_matches_the_model(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    score_config_t cfg;
    score_config_default(&cfg);
    uint8_t *prefs = tr_prefs(&t, NULL);
    footprint_t fp;
    score_detail_t d;
    rs_error_t err;
    assert_int_equal(score_lowering(t.l, prefs, &cfg, &fp, &d, &err), RS_OK);
    view_buf_t *b;
    int32_t n;
    assert_int_equal(view_buffers(t.l, &d, &b, &n), RS_OK);
    int32_t X = -1, Y = -1;
    for (int32_t i = 0; i < n; i++) {
        if (b[i].node == tr_node(&t, "X"))
            X = i;
        if (b[i].node == tr_node(&t, "Y"))
            Y = i;
    }
    assert_true(X >= 0 && Y >= 0);
    assert_int_equal(b[X].start, 0);
    assert_int_equal(b[X].end, 1);
    assert_int_equal(b[Y].start, 2);
    assert_int_equal(b[Y].end, 3);
    assert_int_equal(b[X].offset, 0);
    assert_int_equal(b[Y].offset, 0);
    int64_t steps = t.l->n_steps;
    assert_int_equal(steps, 4);
    /* by hand, 8 columns over 4 steps, one row over offsets [0, 100): X fills
     * columns 0-3 (steps 0-1), Y columns 4-7 (steps 2-3) */
    view_grid_t g;
    assert_int_equal(view_grid_build(b, n, 0, 4, 0, 100, 8, 1, &g), RS_OK);
    for (int x = 0; x < 8; x++)
        assert_int_equal(g.cell[x], x < 4 ? X : Y);
    int x0, x1;
    assert_true(view_step_cols(&g, 0, &x0, &x1));
    assert_int_equal(x0, 0);
    assert_int_equal(x1, 1);
    assert_true(view_step_cols(&g, 3, &x0, &x1));
    assert_int_equal(x0, 6);
    assert_int_equal(x1, 7);
    assert_false(view_step_cols(&g, 4, &x0, &x1));
    view_grid_free(&g);
    /* the Arena at 160x45: 117 columns, 33 rows; steps 0-1 are columns 0-58 */
    assert_int_equal(view_grid_build(b, n, 0, 4, 0, fp.total, 117, 33, &g), RS_OK);
    assert_true(view_step_cols(&g, 0, &x0, &x1));
    assert_int_equal(x0, 0);
    assert_int_equal(x1, 29);
    for (int x = 0; x <= 58; x++)
        assert_int_equal(g.cell[32 * 117 + x], X);
    for (int x = 59; x < 117; x++)
        assert_int_equal(g.cell[32 * 117 + x], Y);
    view_grid_free(&g);
    int ws[] = { 117, 74, 8, 5, 4, 3, 2, 1 };
    for (size_t k = 0; k < sizeof ws / sizeof *ws; k++) {
        expect_picture(b, n, 0, steps, fp.total, ws[k], 33);
        expect_picture(b, n, 1, 3, fp.total, ws[k], 7); /* zoomed: part of each span */
    }
    free(b);
    free(prefs);
    score_detail_free(&d);
    tr_free(&t);
    /* random routines: columns holding several steps, steps spanning several columns */
    for (unsigned seed = 1; seed <= 12; seed++) {
        char *text = tf_random_routine(seed);
        tr_load(&t, text);
        prefs = tr_prefs(&t, NULL);
        assert_int_equal(score_lowering(t.l, prefs, &cfg, &fp, &d, &err), RS_OK);
        assert_int_equal(view_buffers(t.l, &d, &b, &n), RS_OK);
        steps = t.l->n_steps;
        int64_t top = fp.total > 0 ? fp.total : 1;
        int wz[] = { 3, 7, (int)steps - 1, (int)steps, (int)steps + 1, 3 * (int)steps + 2, 117 };
        for (size_t k = 0; k < sizeof wz / sizeof *wz; k++)
            if (wz[k] >= 1) {
                expect_picture(b, n, 0, steps, top, wz[k], 13);
                if (steps > 3)
                    expect_picture(b, n, 1, steps - 1, top, wz[k], 5);
            }
        free(b);
        free(prefs);
        score_detail_free(&d);
        tr_free(&t);
        free(text);
    }
}

/* The step axis names each step once, where it starts; the header says how
 * wide a step or a column is. */
static void test_step_axis_and_scale(void **state)
{
    (void)state;
    view_grid_t g;
    int col[16];
    int64_t step[16];
    char buf[64];
    /* 4 steps in 117 columns: steps start at 0, 30 (4*30 >= 117), 59, 88 */
    assert_int_equal(view_grid_build(NULL, 0, 0, 4, 0, 1, 117, 1, &g), RS_OK);
    assert_int_equal(view_step_labels(&g, col, step, 16), 4);
    int wc[] = { 0, 30, 59, 88 };
    for (int k = 0; k < 4; k++) {
        assert_int_equal(col[k], wc[k]);
        assert_int_equal(step[k], k);
    }
    view_scale_text(&g, buf, sizeof buf);
    assert_string_equal(buf, "step = 29-30 cols"); /* step 0: 0-29, the others 29 */
    view_grid_free(&g);
    /* 100 steps in 10 columns: 10 a column, each label its column's first step,
     * at most one label per 3 columns ("'10" and a gap) */
    assert_int_equal(view_grid_build(NULL, 0, 0, 100, 0, 1, 10, 1, &g), RS_OK);
    view_scale_text(&g, buf, sizeof buf);
    assert_string_equal(buf, "col = 10 steps");
    int m = view_step_labels(&g, col, step, 16);
    assert_int_equal(m, 3);
    assert_int_equal(col[1], 3);
    assert_int_equal(step[1], 30);
    view_grid_free(&g);
    /* 10 steps in 4 columns: 2, 3, 2, 3 steps */
    assert_int_equal(view_grid_build(NULL, 0, 0, 10, 0, 1, 4, 1, &g), RS_OK);
    view_scale_text(&g, buf, sizeof buf);
    assert_string_equal(buf, "col = 2-3 steps");
    view_grid_free(&g);
    assert_int_equal(view_grid_build(NULL, 0, 5, 9, 0, 1, 4, 1, &g), RS_OK);
    view_scale_text(&g, buf, sizeof buf);
    assert_string_equal(buf, "col = 1 step");
    assert_int_equal(view_step_labels(&g, col, step, 16), 1); /* '5 and a gap; '8 would end past the edge */
    view_grid_free(&g);
    assert_int_equal(view_grid_build(NULL, 0, 5, 9, 0, 1, 8, 1, &g), RS_OK);
    view_scale_text(&g, buf, sizeof buf);
    assert_string_equal(buf, "step = 2 cols");
    assert_int_equal(view_step_labels(&g, col, step, 16), 2); /* '5 at 0, '7 at 4 */
    assert_int_equal(col[1], 4);
    assert_int_equal(step[1], 7);
    view_grid_free(&g);
}

static void test_live_and_axis(void **state)
{
    (void)state;
    view_buf_t b[] = { { 0, 1, 0, 4, 0, 0 }, { 1, 2, 4, 8, 1, 0 }, { 2, 3, 0, 2, 2, 0 } };
    /* the step inspector's list: live at step 1 are 0 (4 B) and 1 (8 B), largest first */
    int32_t at[3];
    assert_int_equal(view_live_at(b, 3, 1, at), 2);
    assert_int_equal(at[0], 1);
    assert_int_equal(at[1], 0);
    assert_int_equal(view_live_at(b, 3, 3, at), 1);
    assert_int_equal(at[0], 2);
    int64_t *live = view_live_bytes(b, 3, 4);
    int64_t want[] = { 4, 12, 10, 2 };
    for (int s = 0; s < 4; s++)
        assert_int_equal(live[s], want[s]);
    view_grid_t g;
    assert_int_equal(view_grid_build(b, 3, 0, 4, 0, 12, 2, 2, &g), RS_OK);
    int64_t *cols = view_live_columns(&g, live, 4);
    assert_int_equal(cols[0], 12); /* max of steps 0-1 */
    assert_int_equal(cols[1], 10);
    free(cols);
    view_grid_free(&g);
    free(live);
    char buf[16];
    view_axis_bytes(0, buf, sizeof buf);
    assert_string_equal(buf, "0");
    view_axis_bytes(512, buf, sizeof buf);
    assert_string_equal(buf, "512");
    view_axis_bytes(48LL << 20, buf, sizeof buf);
    assert_string_equal(buf, "48M");
    view_axis_bytes(3LL << 29, buf, sizeof buf);
    assert_string_equal(buf, "1.5G");
    /* an axis end marking an exact footprint: to a tenth below 100 */
    view_axis_bytes(37449732, buf, sizeof buf);
    assert_string_equal(buf, "36M");
    view_axis_bytes_fine(37449732, buf, sizeof buf);
    assert_string_equal(buf, "35.7M");
    view_axis_bytes_fine(104LL << 20, buf, sizeof buf);
    assert_string_equal(buf, "104M");
}

/* Axis labels with as many digits as tell them apart: Compare's chart of
 * BERT's budgets spans 1.20-1.23 GiB, which one decimal prints alike at
 * both ends ("1.2G", as the issue saw); a few bytes apart on a gigabyte
 * axis are exact bytes. */
static void test_axis_labels(void **state)
{
    (void)state;
    char l[4][16];
    int64_t bert[3] = { 1288490188, 1304596316, 1320702443 }; /* 1.20, 1.215, 1.23 GiB */
    view_axis_labels(bert, 3, l);
    assert_string_equal(l[0], "1.20G");
    assert_string_equal(l[1], "1.21G"); /* 1.21499 GiB */
    assert_string_equal(l[2], "1.23G");
    int64_t apart[2] = { 35LL << 20, 110LL << 20 }; /* whole units differ already */
    view_axis_labels(apart, 2, l);
    assert_string_equal(l[0], "35M");
    assert_string_equal(l[1], "110M");
    int64_t close[2] = { 1LL << 30, (1LL << 30) + 6 };
    view_axis_labels(close, 2, l);
    assert_string_equal(l[0], "1073741824");
    assert_string_equal(l[1], "1073741830");
    int64_t tenth[2] = { 18593920, 37187840 }; /* an end that marks a footprint: 35.5M, not 35M */
    view_axis_labels(tenth, 2, l);
    assert_string_equal(l[0], "17.7M");
    assert_string_equal(l[1], "35.5M");
    int64_t small[2] = { 0, 700 };
    view_axis_labels(small, 2, l);
    assert_string_equal(l[0], "0");
    assert_string_equal(l[1], "700");
}

/* Statuses replayed from the pair's trace: X held at its hold, both
 * committed at the commit. */
static void test_statuses_at(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 0);
    uint8_t st[2];
    int32_t hold = tf_find_event(&f, EV_HOLD, "X"), commit = tf_find_event(&f, EV_COMMIT_GROUP, "Y");
    view_statuses_at(f.plan, hold - 1, st);
    assert_int_equal(st[0], ST_PENDING);
    view_statuses_at(f.plan, hold, st);
    assert_int_equal(st[0], ST_HELD);
    assert_int_equal(st[1], ST_PENDING);
    assert_int_equal(view_accepted_at(f.plan, hold), 0);
    view_statuses_at(f.plan, commit, st);
    assert_int_equal(st[0], ST_COMMITTED);
    assert_int_equal(st[1], ST_COMMITTED);
    assert_int_equal(view_accepted_at(f.plan, commit), 2);
    assert_int_equal(view_accepted_at(f.plan, f.plan->n_events - 1), 2);
    tf_free(&f);
    /* ROUTINE_HARMFUL with a cap of 2: P, the dearest, is pending until its
     * drop at event 3, as the round-two column says, then dropped */
    tf_fit(&f, ROUTINE_HARMFUL, "1", 2, 0);
    assert_int_equal(f.plan->events[3].kind, EV_DROPPED);
    uint8_t st3[3];
    int32_t p = 0;
    while (p < f.plan->n_cands && f.plan->cands[p].node != f.plan->events[3].node)
        p++;
    assert_true(p < 3);
    view_statuses_at(f.plan, 2, st3);
    assert_int_equal(st3[p], ST_PENDING);
    view_statuses_at(f.plan, 3, st3);
    assert_int_equal(st3[p], ST_DROPPED);
    view_statuses_at(f.plan, f.plan->n_events - 1, st3);
    assert_int_equal(st3[p], ST_DROPPED);
    tf_free(&f);
}

static void test_keymap(void **state)
{
    (void)state;
    assert_int_equal(keymap_lookup(SCR_FIT, 'n'), ACT_NEXT_EVENT);
    assert_int_equal(keymap_lookup(SCR_FIT, KEY_RIGHT), ACT_NEXT_EVENT); /* the screen's row wins */
    assert_int_equal(keymap_lookup(SCR_ARENA, KEY_RIGHT), ACT_STEP_NEXT); /* the step cursor; > pans */
    assert_int_equal(keymap_lookup(SCR_ARENA, '>'), ACT_RIGHT);
    assert_int_equal(keymap_lookup(SCR_PLANS, KEY_RIGHT), ACT_RIGHT);
    assert_int_equal(keymap_lookup(SCR_SESSION, '?'), ACT_HELP);
    assert_int_equal(keymap_lookup(SCR_PLANS, 'q'), ACT_BACK);
    assert_int_equal(keymap_lookup(SCR_SESSION, '\n'), ACT_OPEN);
    assert_int_equal(keymap_lookup(SCR_COMPARE, 'n'), ACT_NONE);
    /* the two-plan arena: D on Plans and on Compare, where d still removes a budget */
    assert_int_equal(keymap_lookup(SCR_PLANS, 'D'), ACT_DIFF);
    assert_int_equal(keymap_lookup(SCR_COMPARE, 'D'), ACT_DIFF);
    assert_int_equal(keymap_lookup(SCR_COMPARE, 'd'), ACT_REMOVE_BUDGET);
    /* every action bound somewhere has help text, and no screen binds one key twice */
    int n;
    const key_entry_t *k = keymap_entries(&n);
    for (int i = 0; i < n; i++) {
        assert_true(k[i].help && k[i].help[0]);
        for (int j = i + 1; j < n; j++)
            if (k[i].key == k[j].key && (k[i].screens & k[j].screens) && k[i].screens == k[j].screens)
                fail_msg("key %s bound twice", k[i].key_name);
    }
}

static void test_themes(void **state)
{
    (void)state;
    const char *names[] = { "default", "light", "high-contrast" };
    for (int i = 0; i < 3; i++) {
        theme_t t;
        rs_error_t err;
        if (theme_load(names[i], RS_THEMES_DIR, &t, &err))
            fail_msg("%s: %s", names[i], err.msg);
    }
    theme_t t;
    rs_error_t err;
    assert_int_equal(theme_load("default", RS_THEMES_DIR, &t, &err), RS_OK);
    assert_int_equal(t.fg[T_HEADER], 0);   /* black */
    assert_int_equal(t.bg[T_HEADER], 6);   /* cyan */
    assert_int_equal(t.fg[T_PEAK], 9);     /* bright-red */
    assert_true(t.attr[T_HEADER] & THEME_BOLD);
    char dir[64], path[96];
    snprintf(dir, sizeof dir, "/tmp/rs_themes_%d", (int)getpid());
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/bad.theme", dir);
    FILE *f = fopen(path, "w");
    fputs("normal = default default\nheader = black purple\n", f);
    fclose(f);
    assert_int_equal(theme_load("bad", dir, &t, &err), RS_EINPUT);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 16);
    assert_non_null(strstr(err.msg, "background colour"));
    /* a theme is a name, never a path: the file is not read even where it is one */
    assert_int_equal(theme_load(path, dir, &t, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "is not a theme name"));
    assert_int_equal(err.line, 0);
    assert_int_equal(theme_load("../../etc/passwd", dir, &t, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "never a path"));
    assert_int_equal(theme_load(".", dir, &t, &err), RS_EINPUT);
    assert_int_equal(theme_load("", dir, &t, &err), RS_EINPUT);
    unlink(path);
    rmdir(dir);
    assert_int_equal(theme_load("nope", RS_THEMES_DIR, &t, &err), RS_EINPUT);
}

/* A piece of what the first plan held: node, steps [start, end], offset, size. */
static void expect_piece(const view_buf_t *g, int32_t node, int64_t start, int64_t end, int64_t offset, int64_t size)
{
    assert_int_equal(g->node, node);
    assert_int_equal(g->start, start);
    assert_int_equal(g->end, end);
    assert_int_equal(g->offset, offset);
    assert_int_equal(g->size, size);
}

/* samples/rejected_accumulated.routine (B=256 D=1024, f32; nodes x w h a
 * grad gw w_new numbered 0-6) laid out by the greedy, as `export --what
 * layout` writes it (ends here inclusive), under two plans: a, no flips
 * (fit --budget 100GiB); b, gw inlined (fit --budget minimize), so w_new
 * reads grad and x at step 5 and grad lives one step longer.  1 MiB is
 * 1048576. */
static void test_diff_two_plans(void **state)
{
    (void)state;
    const int64_t M = 1048576;
    view_buf_t a[] = {
        { 0, 5, 12 * M, 1 * M, 0, ROLE_RESIDENT }, /* x */
        { 0, 5, 0, 4 * M, 1, ROLE_RESIDENT },      /* w */
        { 0, 3, 4 * M, 1 * M, 2, ROLE_CANDIDATE }, /* h */
        { 1, 2, 5 * M, 1 * M, 3, ROLE_CANDIDATE }, /* a */
        { 2, 4, 8 * M, 1 * M, 4, ROLE_REJECTED },  /* grad */
        { 4, 5, 4 * M, 4 * M, 5, ROLE_CANDIDATE }, /* gw */
        { 5, 5, 8 * M, 4 * M, 6, ROLE_OUTPUT },    /* w_new */
    };
    view_buf_t b[] = {
        { 0, 5, 8 * M, 1 * M, 0, ROLE_RESIDENT },
        { 0, 5, 0, 4 * M, 1, ROLE_RESIDENT },
        { 0, 3, 4 * M, 1 * M, 2, ROLE_CANDIDATE },
        { 1, 2, 5 * M, 1 * M, 3, ROLE_CANDIDATE },
        { 2, 5, 9 * M, 1 * M, 4, ROLE_REJECTED },
        { 5, 5, 4 * M, 4 * M, 6, ROLE_OUTPUT },
    };
    uint8_t kind[6];
    view_buf_t *gone;
    int32_t n_gone;
    assert_int_equal(view_diff_buffers(a, 7, b, 6, kind, &gone, &n_gone), RS_OK);
    /* x moved 12 -> 8 MiB; w h a stay; grad ends at 5 not 4 (and moved:
     * extended wins); w_new moved 8 -> 4 MiB, into gw's place */
    const uint8_t want[6] = { VIEW_MOVED, VIEW_SAME, VIEW_SAME, VIEW_SAME, VIEW_EXTENDED, VIEW_MOVED };
    assert_memory_equal(kind, want, sizeof want);
    /* gw, inlined by b, is what b no longer holds: steps 4-5 at 4 MiB */
    assert_int_equal(n_gone, 1);
    expect_piece(&gone[0], 5, 4, 5, 4 * M, 4 * M);
    free(gone);

    /* the other way round: gw is new, grad loses its last step, and that
     * step is gone at the first list's offset (9 MiB) */
    uint8_t back[7];
    assert_int_equal(view_diff_buffers(b, 6, a, 7, back, &gone, &n_gone), RS_OK);
    const uint8_t want_back[7] = { VIEW_MOVED, VIEW_SAME, VIEW_SAME, VIEW_SAME, VIEW_SHORTENED, VIEW_NEW, VIEW_MOVED };
    assert_memory_equal(back, want_back, sizeof want_back);
    assert_int_equal(n_gone, 1);
    expect_piece(&gone[0], 4, 5, 5, 9 * M, 1 * M);
    free(gone);
}

/* A span cut at both ends leaves two pieces; one moved past the other
 * leaves the whole old span; bigger is extended; nothing gone is NULL. */
static void test_diff_pieces(void **state)
{
    (void)state;
    view_buf_t a[] = { { 0, 9, 0, 10, 7, ROLE_CANDIDATE }, { 0, 2, 10, 5, 8, ROLE_CANDIDATE },
                       { 3, 4, 20, 5, 9, ROLE_CANDIDATE } };
    view_buf_t b[] = { { 3, 6, 0, 10, 7, ROLE_CANDIDATE }, { 5, 7, 10, 5, 8, ROLE_CANDIDATE },
                       { 3, 4, 20, 6, 9, ROLE_CANDIDATE } };
    uint8_t kind[3];
    view_buf_t *gone;
    int32_t n;
    assert_int_equal(view_diff_buffers(a, 3, b, 3, kind, &gone, &n), RS_OK);
    assert_int_equal(kind[0], VIEW_SHORTENED);
    assert_int_equal(kind[1], VIEW_EXTENDED);
    assert_int_equal(kind[2], VIEW_EXTENDED);
    assert_int_equal(n, 3);
    expect_piece(&gone[0], 7, 0, 2, 0, 10); /* before b's span of node 7, then after it */
    expect_piece(&gone[1], 7, 7, 9, 0, 10);
    expect_piece(&gone[2], 8, 0, 2, 10, 5); /* b moved node 8 past a's span: all of it */
    free(gone);
    assert_int_equal(view_diff_buffers(a, 3, a, 3, kind, &gone, &n), RS_OK);
    assert_true(gone == NULL && n == 0);
    assert_true(kind[0] == VIEW_SAME && kind[1] == VIEW_SAME && kind[2] == VIEW_SAME);
}

/* The two-plan arena matches nodes by name: a later version of a routine
 * with a node z added before a numbers a and b one higher.  By index z
 * would pass for a; by name a is the same, z is new, and b, one step later
 * in the new version, is extended with its old step gone. */
static void test_pair_matches_by_name(void **state)
{
    (void)state;
    const char *ta = "routine r\ninput x [4]\na = f(x) [4]\nb = g(a) [4] @output\n";
    const char *tb = "routine r\ninput x [4]\nz = h(x) [4]\na = f(x) [4]\nb = g(a, z) [4] @output\n";
    routine_t *ra, *rb;
    rs_error_t err;
    assert_int_equal(routine_parse("a.routine", ta, strlen(ta), &ra, &err), RS_OK);
    assert_int_equal(routine_parse("b.routine", tb, strlen(tb), &rb, &err), RS_OK);
    view_buf_t av[] = { { 0, 2, 0, 4, 0, ROLE_RESIDENT }, { 1, 2, 4, 4, 1, ROLE_CANDIDATE }, { 2, 2, 8, 4, 2, ROLE_OUTPUT } };
    view_buf_t bv[] = { { 0, 3, 0, 4, 0, ROLE_RESIDENT }, { 1, 3, 12, 4, 1, ROLE_CANDIDATE },
                        { 1, 2, 4, 4, 2, ROLE_CANDIDATE }, { 3, 3, 8, 4, 3, ROLE_OUTPUT } };
    tui_t *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->screen = SCR_PLANS;
    tui_pair_plan_t pa = { .name = "plan 1", .budget = "minimize", .routine = ra };
    tui_pair_plan_t pb = { .name = "plan 2", .budget = "minimize", .routine = rb };
    pa.arena.bufs = av;
    pa.arena.n = 3;
    pb.arena.bufs = malloc(sizeof bv); /* the pair takes it */
    memcpy(pb.arena.bufs, bv, sizeof bv);
    pb.arena.n = 4;
    const char *flips[] = { "z" };
    const int64_t relief[] = { 4 };
    pb.flip = flips;
    pb.relief = relief;
    pb.n_flips = 1;
    assert_true(tui_pair_open(t, &pa, &pb, NULL, 0));
    assert_null(pb.arena.bufs);
    const uint8_t want[4] = { VIEW_EXTENDED, VIEW_NEW, VIEW_SAME, VIEW_EXTENDED }; /* x z a b */
    assert_memory_equal(t->pair.arena.diff, want, sizeof want);
    assert_int_equal(t->pair.n_freed, 0);
    assert_int_equal(t->pair.arena.n_gone, 1);
    expect_piece(&t->pair.arena.gone[0], 3, 2, 2, 8, 4); /* b's old step, numbered as the new version's b */
    assert_int_equal(t->pair.arena.gone_top, 12);
    /* the flips side by side, and the buffers that differ, biggest (all 4 B) then by node */
    assert_int_equal(t->pair.n_flips[0], 0);
    assert_string_equal(t->pair.flips[1][0], "+ z (4 B)");
    assert_int_equal(t->pair.n_text - t->pair.buf0, 3);
    assert_string_equal(t->pair.text[t->pair.buf0 - 1], "buffers that differ: 3");
    assert_string_equal(t->pair.text[t->pair.buf0], "+ x steps 0-2 -> 0-3, 4 B");
    assert_string_equal(t->pair.text[t->pair.buf0 + 1], "+ z new: steps 1-3, 4 B");
    assert_string_equal(t->pair.text[t->pair.buf0 + 2], "+ b steps 2-2 -> 3-3, 4 B");
    tui_pair_close(t);
    assert_false(t->pair.on);
    free(t);
    routine_free(ra);
    routine_free(rb);
}

/* B/FLOP fits 7 columns without being cut: mlp_step's gb1 relieves
 * -252 KiB for 1.02 kFLOPs, -252 B/FLOP (it read "-2.5e+0" when %.2g's
 * "-2.5e+02" was cut to 7). */
static void test_ratio_text(void **state)
{
    (void)state;
    char b[16];
    struct { double r; const char *want; } cases[] = {
        { -258048.0 / 1024, "-252" }, { 0, "0" }, { 0.0123, "0.0123" }, { -0.0123, "-0.0123" }, { 999, "999" },
        { 1000, "1.0e3" }, { -2500, "-2.5e3" }, { 3.3e-5, "3.3e-5" }, { -3.3e-5, "-3.3e-5" }, { 9960, "1.0e4" },
        { 1.25e12, "1.2e12" }, { -3.1e-12, "-3e-12" }, { 0.00999, "1.0e-2" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        view_ratio_text(cases[k].r, b, sizeof b);
        if (strcmp(b, cases[k].want) != 0 || strlen(b) > 7)
            fail_msg("%g: got '%s', want '%s'", cases[k].r, b, cases[k].want);
    }
}

/* DESIGN §14's buffers (remat_test's frontier_by_hand, worked there): a
 * (8 B) read at steps 1, 4 and 5, remat-flipped, lives [0, 1] and its copy
 * [4, 6] at offset 0 after the recompute step 4 of 7; the copy comes last,
 * its node's, with its node's role; the live bytes at the recompute step
 * are x 4 + d 2 + the copy 8. */
static void test_buffers_remat(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine frontier_hand\ninput x [4] u8\na = f(x) [8] u8 cost=5\nb = g(a) [2] u8 @pinned\n"
                "c = h(b) [32] u8 @pinned\nd = k(c) [2] u8 @pinned\ne = m(d, a) [2] u8 @pinned\n"
                "g = n(e, a) [2] u8 @output\n");
    uint8_t *remat = calloc((size_t)t.l->n_nodes, 1);
    int32_t a = tr_node(&t, "a");
    remat[a] = 1;
    score_config_t cfg;
    score_config_default(&cfg);
    footprint_t fp;
    remat_detail_t d;
    rs_error_t err;
    assert_int_equal(remat_score(t.l, NULL, remat, &cfg, &fp, &d, &err), RS_OK);
    assert_int_equal(fp.total, 38);
    view_buf_t *b = NULL;
    int32_t n = 0;
    assert_int_equal(view_buffers_remat(t.l, &d, &b, &n), RS_OK);
    assert_int_equal(n, 8); /* x, a, b, c, d, e, g and a's copy */
    assert_int_equal(d.n_copies, 1);
    const view_buf_t *copy = &b[n - 1], *orig = NULL;
    for (int32_t i = 0; i < n - 1; i++)
        if (b[i].node == a)
            orig = &b[i];
    assert_non_null(orig);
    assert_int_equal(orig->start, 0);
    assert_int_equal(orig->end, 1);
    assert_int_equal(copy->node, a);
    assert_int_equal(copy->start, 4);
    assert_int_equal(copy->end, 6);
    assert_int_equal(copy->offset, 0);
    assert_int_equal(copy->size, 8);
    assert_int_equal(copy->role, ROLE_CANDIDATE);
    assert_int_equal(orig->role, ROLE_CANDIDATE);
    int64_t *live = view_live_bytes(b, n, d.n_steps);
    assert_non_null(live);
    assert_int_equal(d.n_steps, 7);
    assert_int_equal(live[4], 4 + 2 + 8);
    assert_int_equal(live[2], 38); /* the peak: x 4, b 2, c 32 */
    free(live);
    free(b);
    remat_detail_free(&d);
    free(remat);
    tr_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffers_remat),
        cmocka_unit_test(test_ratio_text),
        cmocka_unit_test(test_grid_busiest_wins),
        cmocka_unit_test(test_grid_aggregates),
        cmocka_unit_test(test_picture_matches_the_model),
        cmocka_unit_test(test_step_axis_and_scale),
        cmocka_unit_test(test_live_and_axis),
        cmocka_unit_test(test_statuses_at),
        cmocka_unit_test(test_diff_two_plans),
        cmocka_unit_test(test_diff_pieces),
        cmocka_unit_test(test_pair_matches_by_name),
        cmocka_unit_test(test_axis_labels),
        cmocka_unit_test(test_keymap),
        cmocka_unit_test(test_themes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
