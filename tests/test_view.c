/* Tests for app/view.c, app/keymap.c and app/theme.c: what the TUI draws,
 * computed without drawing. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fitutil.h"
#include "keymap.h"
#include "theme.h"
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

static void test_live_and_axis(void **state)
{
    (void)state;
    view_buf_t b[] = { { 0, 1, 0, 4, 0, 0 }, { 1, 2, 4, 8, 1, 0 }, { 2, 3, 0, 2, 2, 0 } };
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
}

static void test_keymap(void **state)
{
    (void)state;
    assert_int_equal(keymap_lookup(SCR_FIT, 'n'), ACT_NEXT_EVENT);
    assert_int_equal(keymap_lookup(SCR_FIT, KEY_RIGHT), ACT_NEXT_EVENT); /* the screen's row wins */
    assert_int_equal(keymap_lookup(SCR_ARENA, KEY_RIGHT), ACT_RIGHT);
    assert_int_equal(keymap_lookup(SCR_SESSION, '?'), ACT_HELP);
    assert_int_equal(keymap_lookup(SCR_PLANS, 'q'), ACT_BACK);
    assert_int_equal(keymap_lookup(SCR_SESSION, '\n'), ACT_OPEN);
    assert_int_equal(keymap_lookup(SCR_COMPARE, 'n'), ACT_NONE);
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
    char path[64];
    snprintf(path, sizeof path, "/tmp/rs_theme_%d.theme", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs("normal = default default\nheader = black purple\n", f);
    fclose(f);
    assert_int_equal(theme_load(path, RS_THEMES_DIR, &t, &err), RS_EINPUT);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 16);
    assert_non_null(strstr(err.msg, "background colour"));
    unlink(path);
    assert_int_equal(theme_load("nope", RS_THEMES_DIR, &t, &err), RS_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_busiest_wins),
        cmocka_unit_test(test_grid_aggregates),
        cmocka_unit_test(test_live_and_axis),
        cmocka_unit_test(test_statuses_at),
        cmocka_unit_test(test_keymap),
        cmocka_unit_test(test_themes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
