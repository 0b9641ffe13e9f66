/* Tests for store/: round trips through the store and CSV, routines'
 * versions and names, and each failure with its message.  Stored plans'
 * traces, replay and the schema migrations are in test_store_plans.c. */
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csvio.h"
#include "export.h"
#include "fitutil.h"
#include "library.h"
#include "plans.h"
#include "store.h"
#include "storeutil.h"

static long long num(const char *s) { return strtoll(s, NULL, 10); }

/* fit -> save -> load -> export -> read back with libcsv: every field. */
static void test_round_trip(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(path_of("rt.db"), &s, &err), RS_OK);
    tf_t f;
    const char *label = "a, \"quoted\"\nlabel";
    int64_t id = save_fit(s, &f, label);
    stored_plan_t p;
    assert_int_equal(plans_load(s, id, true, &p, &err), RS_OK);
    assert_string_equal(p.label, label);
    assert_string_equal(p.routine, "harmful");
    assert_int_equal(p.baseline.total, f.plan->baseline.total);
    assert_memory_equal(&p.final, &f.plan->final, sizeof p.final);
    assert_int_equal(p.n_flips, f.plan->n_flips);
    assert_int_equal(p.n_events, f.plan->n_events);
    assert_int_equal(p.reused, f.plan->reused);
    assert_int_equal(p.within_budget, f.plan->within_budget);
    assert_string_equal(p.child_prefs, "P Y");
    assert_string_equal(p.budget_spec, "minimize");
    assert_true(p.recompute_known);
    for (int32_t i = 0; i < p.n_flips; i++)
        assert_int_equal(p.flips[i].recompute, f.plan->flips[i].recompute);
    /* plans CSV */
    char *csv = path_of("plans.csv");
    assert_int_equal(export_plans(s, &p, 1, EXPORT_PLANS, csv, &err), RS_OK);
    rows_t r = { 0 };
    assert_int_equal(csvio_read_file(csv, collect, &r, &err), RS_OK);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.cells[0][0], "plan_id");
    assert_string_equal(r.cells[1][1], label); /* commas, quotes and a newline survive */
    assert_int_equal(num(r.cells[1][0]), id);
    assert_string_equal(r.cells[1][2], "harmful");
    assert_string_equal(r.cells[1][5], "minimize");
    assert_string_equal(r.cells[1][6], "");
    assert_string_equal(r.cells[0][7], "budget_spec");
    assert_string_equal(r.cells[1][7], "minimize"); /* as asked for */
    assert_int_equal(num(r.cells[1][9]), f.plan->baseline.total);
    assert_int_equal(num(r.cells[1][13]), f.plan->baseline.compute);
    assert_int_equal(num(r.cells[1][14]), f.plan->final.total);
    assert_int_equal(num(r.cells[1][19]), f.plan->considered);
    assert_int_equal(num(r.cells[1][22]), f.plan->n_flips);
    assert_int_equal(num(r.cells[1][23]), 1234);
    assert_int_equal(num(r.cells[1][24]), f.plan->reused);
    rows_free(&r);
    /* flips CSV */
    csv = path_of("flips.csv");
    assert_int_equal(export_plans(s, &p, 1, EXPORT_FLIPS, csv, &err), RS_OK);
    memset(&r, 0, sizeof r);
    assert_int_equal(csvio_read_file(csv, collect, &r, &err), RS_OK);
    assert_int_equal(r.n, 1 + f.plan->n_flips);
    for (int32_t i = 0; i < f.plan->n_flips; i++) {
        assert_string_equal(r.cells[1 + i][2], tf_name(&f, f.plan->flips[i].node));
        assert_int_equal(num(r.cells[1 + i][3]), f.plan->flips[i].relief);
        assert_int_equal(num(r.cells[1 + i][4]), f.plan->flips[i].cost);
        assert_string_equal(r.cells[0][5], "recompute");
        assert_int_equal(num(r.cells[1 + i][5]), f.plan->flips[i].recompute);
    }
    rows_free(&r);
    /* events CSV: the sentences hold commas and braces */
    csv = path_of("events.csv");
    assert_int_equal(export_plans(s, &p, 1, EXPORT_EVENTS, csv, &err), RS_OK);
    memset(&r, 0, sizeof r);
    assert_int_equal(csvio_read_file(csv, collect, &r, &err), RS_OK);
    assert_int_equal(r.n, 1 + f.plan->n_events);
    for (int32_t i = 0; i < f.plan->n_events; i++) {
        const fit_event_t *e = &f.plan->events[i];
        char text[1024];
        tf_describe(f.plan, i, text, sizeof text);
        assert_string_equal(r.cells[1 + i][3], trace_kind_name((fit_event_kind_t)e->kind));
        /* a score that does not apply (-1) is an empty cell, never "-1" */
        for (int c = 6; c <= 8; c++) {
            int64_t v = c == 6 ? e->alone : c == 7 ? e->with : e->cur;
            if (v < 0)
                assert_string_equal(r.cells[1 + i][c], "");
            else
                assert_int_equal(num(r.cells[1 + i][c]), v);
        }
        assert_string_equal(r.cells[1 + i][13], text);
    }
    rows_free(&r);
    /* layout: the final arena, re-scored, in MiniMalloc's format */
    csv = path_of("layout.csv");
    assert_int_equal(export_plans(s, &p, 1, EXPORT_LAYOUT, csv, &err), RS_OK);
    minimalloc_problem_t mp;
    assert_int_equal(minimalloc_read(csv, &mp, &err), RS_OK);
    int64_t top = 0;
    for (int32_t i = 0; i < mp.n; i++)
        if (mp.offsets[i] + mp.bufs[i].size > top)
            top = mp.offsets[i] + mp.bufs[i].size;
    assert_int_equal(top, f.plan->final.total);
    int32_t a, b;
    assert_true(arena_check(mp.bufs, mp.n, 1, mp.offsets, &a, &b));
    minimalloc_free(&mp);
    stored_plan_free(&p);
    /* listing and deleting */
    stored_plan_t *list;
    int n;
    assert_int_equal(plans_list(s, &list, &n, &err), RS_OK);
    assert_int_equal(n, 1);
    plans_list_free(list, n);
    assert_int_equal(store_begin(s, &err), RS_OK);
    assert_int_equal(plans_delete(s, id, &err), RS_OK);
    assert_int_equal(store_commit(s, &err), RS_OK);
    assert_int_equal(plans_load(s, id, false, &p, &err), RS_EINPUT);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(store_db(s), "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM flips)", -1, &st, NULL);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 0);
    sqlite3_finalize(st);
    tf_free(&f);
    store_close(s);
}

static void test_routine_versions(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(":memory:", &s, &err), RS_OK);
    assert_int_equal(store_begin(s, &err), RS_OK);
    int64_t id1, id2, id3;
    int32_t v;
    bool fresh;
    assert_int_equal(library_routine_put(s, "r", "a", 1, NULL, 1, 1, &id1, &v, &fresh, &err), RS_OK);
    assert_true(fresh);
    assert_int_equal(v, 1);
    assert_int_equal(library_routine_put(s, "r", "a", 1, NULL, 1, 1, &id2, &v, &fresh, &err), RS_OK);
    assert_false(fresh); /* the same text: a no-op */
    assert_int_equal(id1, id2);
    assert_int_equal(library_routine_put(s, "r", "b", 1, NULL, 1, 1, &id3, &v, &fresh, &err), RS_OK);
    assert_true(fresh);
    assert_int_equal(v, 2); /* a changed text: the next version */
    assert_int_equal(store_commit(s, &err), RS_OK);
    char *src, *path;
    size_t len;
    bool found;
    int64_t id;
    assert_int_equal(library_routine_find(s, "r", &id, &src, &len, &path, &found, &err), RS_OK);
    assert_true(found);
    assert_string_equal(src, "b");
    free(src);
    free(path);
    store_close(s);
}

/* Routines under names of the user's (issue 28): two files of one module
 * name are versions 1 and 2; a rename scoped to version 2's file makes it
 * a routine of its own (renumbered 1), the other stays; the renamed text
 * put again under its own name is that routine (put_own), not a third;
 * bad names and taken names are refused; settings round-trip in meta. */
static void test_routine_names(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(":memory:", &s, &err), RS_OK);
    assert_int_equal(store_begin(s, &err), RS_OK);
    int64_t id1, id2, id;
    int32_t v;
    bool fresh;
    char *as = NULL;
    assert_int_equal(library_routine_put(s, "Sync.1", "a", 1, "one.hlo", 1, 1, &id1, &v, &fresh, &err), RS_OK);
    assert_int_equal(library_routine_put(s, "Sync.1", "b", 1, "two.hlo", 1, 1, &id2, &v, &fresh, &err), RS_OK);
    assert_int_equal(v, 2);
    char *path = NULL;
    bool found;
    assert_int_equal(library_routine_path(s, "Sync.1", 1, &path, &found, &err), RS_OK);
    assert_true(found);
    assert_string_equal(path, "one.hlo");
    free(path);
    int n;
    assert_int_equal(library_routine_rename(s, "Sync.1", "second", "two.hlo", &n, &err), RS_OK);
    assert_int_equal(n, 1);
    char *src, *p2;
    size_t len;
    assert_int_equal(library_routine_find(s, "second", &id, &src, &len, &p2, &found, &err), RS_OK);
    assert_true(found);
    assert_int_equal(id, id2); /* the same row: plans that hold it stay attached */
    assert_string_equal(src, "b");
    free(src);
    free(p2);
    assert_int_equal(library_routine_find(s, "Sync.1", &id, &src, &len, &p2, &found, &err), RS_OK);
    assert_int_equal(id, id1);
    free(src);
    free(p2);
    assert_int_equal(library_routine_path(s, "second", 1, &path, &found, &err), RS_OK); /* renumbered */
    assert_true(found);
    assert_string_equal(path, "two.hlo");
    free(path);
    /* the text of "second" met again under its own name is that routine */
    assert_int_equal(library_routine_put_own(s, "Sync.1", "b", 1, "two.hlo", 1, 1, &id, &v, &fresh, &as, &err), RS_OK);
    assert_false(fresh);
    assert_int_equal(id, id2);
    assert_string_equal(as, "second");
    free(as);
    /* a text under its own name: as library_routine_put */
    assert_int_equal(library_routine_put_own(s, "Sync.1", "a", 1, "one.hlo", 1, 1, &id, &v, &fresh, &as, &err), RS_OK);
    assert_null(as);
    assert_int_equal(id, id1);
    assert_int_equal(library_routine_rename(s, "Sync.1", "second", NULL, &n, &err), RS_EINPUT); /* taken */
    assert_non_null(strstr(err.msg, "stored already"));
    assert_int_equal(library_routine_rename(s, "none", "x", NULL, &n, &err), RS_EINPUT);
    const char *bad[] = { "", "a/b", "b.hlo", "c.routine", "with blank", "tab\there", "c1\xc2\x9b", "ff\xff", "e\x1b" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(library_routine_name_check(bad[i], "--name", &err), RS_EINPUT);
    assert_int_equal(library_routine_name_check("SyncTensorsGraph.1724-b", "--name", &err), RS_OK);
    assert_int_equal(store_commit(s, &err), RS_OK);
    char *val = NULL;
    assert_int_equal(library_setting_get(s, "profile", &val, &err), RS_OK);
    assert_null(val);
    assert_int_equal(library_setting_set(s, "profile", "a100-80gb", &err), RS_OK);
    assert_int_equal(library_setting_set(s, "profile", "", &err), RS_OK); /* replaced: none */
    assert_int_equal(library_setting_get(s, "profile", &val, &err), RS_OK);
    assert_string_equal(val, "");
    free(val);
    store_close(s);
}

/* export --what origins: each plan's flips by origin, biggest relief
 * first; the groups add up to the plan. */
static void test_export_origins(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(path_of("origins.db"), &s, &err), RS_OK);
    tf_t f;
    int64_t id = save_fit(s, &f, NULL);
    stored_plan_t p;
    assert_int_equal(plans_load(s, id, false, &p, &err), RS_OK);
    char *csv = path_of("origins.csv");
    assert_int_equal(export_plans(s, &p, 1, EXPORT_ORIGINS, csv, &err), RS_OK);
    rows_t r = { 0 };
    assert_int_equal(csvio_read_file(csv, collect, &r, &err), RS_OK);
    assert_string_equal(r.cells[0][0], "plan_id");
    assert_string_equal(r.cells[0][2], "origin");
    /* ROUTINE_HARMFUL's flips P and Y are both f(x): one origin, f */
    assert_int_equal(r.n, 2);
    assert_string_equal(r.cells[1][2], "f");
    assert_string_equal(r.cells[0][3], "function");
    assert_int_equal(num(r.cells[1][4]), f.plan->n_flips);
    assert_int_equal(num(r.cells[1][5]), f.plan->baseline.total - f.plan->final.total);
    assert_int_equal(num(r.cells[1][6]), f.plan->final.compute - f.plan->baseline.compute);
    rows_free(&r);
    stored_plan_free(&p);
    tf_free(&f);
    store_close(s);
}

static void expect_open_error(const char *p, const char *needle)
{
    rs_error_t err;
    store_t *s = NULL;
    assert_int_equal(store_open(p, &s, &err), RS_ESTORE);
    assert_null(s);
    if (!strstr(err.msg, needle))
        fail_msg("expected '%s', got '%s'", needle, err.msg);
}

static void test_not_a_store_and_newer(void **state)
{
    (void)state;
    char *p = path_of("text.db");
    FILE *f = fopen(p, "w");
    fputs("hello, I am a text file, not a database at all, no no no\n", f);
    fclose(f);
    char want[300];
    snprintf(want, sizeof want, "not a rematscope session store: %s", p);
    expect_open_error(p, want);
    /* someone else's SQLite file */
    p = path_of("other.db");
    sqlite3 *db;
    sqlite3_open(p, &db);
    sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", NULL, NULL, NULL);
    sqlite3_close(db);
    expect_open_error(p, "not a rematscope session store");
    /* a newer schema */
    p = path_of("newer.db");
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    sqlite3_exec(store_db(s), "PRAGMA user_version = 99", NULL, NULL, NULL);
    store_close(s);
    snprintf(want, sizeof want, "made by a newer rematscope (schema 99); this one reads up to %d", STORE_SCHEMA_VERSION);
    expect_open_error(p, want);
    expect_open_error(su_dir(), "not a rematscope session store");
}

static void test_locked(void **state)
{
    (void)state;
    setenv("RS_BUSY_TIMEOUT_MS", "200", 1);
    char *p = strdup(path_of("locked.db"));
    rs_error_t err;
    store_t *a, *b;
    assert_int_equal(store_open(p, &a, &err), RS_OK);
    assert_int_equal(store_open(p, &b, &err), RS_OK);
    assert_int_equal(store_begin(a, &err), RS_OK);
    assert_int_equal(store_begin(b, &err), RS_ESTORE);
    assert_non_null(strstr(err.msg, "the store is locked by"));
    assert_non_null(strstr(err.msg, "waited 200 ms"));
    store_rollback(a);
    assert_int_equal(store_begin(b, &err), RS_OK); /* free again */
    store_rollback(b);
    store_close(a);
    store_close(b);
    free(p);
    unsetenv("RS_BUSY_TIMEOUT_MS");
}

static void test_read_only(void **state)
{
    (void)state;
    if (geteuid() == 0) {
        /* root writes through permission bits: check with a child that
         * gives up root */
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(77);
            _exit(0);
        }
        int st;
        waitpid(pid, &st, 0);
        if (WEXITSTATUS(st) == 77)
            skip();
    }
    char *sub = strdup(path_of("ro"));
    mkdir(sub, 0777);
    chmod(sub, 0777);
    char p[300];
    snprintf(p, sizeof p, "%s/ro.db", sub);
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    assert_int_equal(store_begin(s, &err), RS_OK);
    profile_t prof = { .name = "dev", .memory_bytes = 1, .alignment = 1, .max_inline_depth = 1 };
    int64_t id;
    assert_int_equal(library_profile_put(s, &prof, &id, &err), RS_OK);
    assert_int_equal(store_commit(s, &err), RS_OK);
    store_close(s);
    chmod(p, 0444);
    chmod(sub, 0555);
    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(3);
        store_t *r;
        rs_error_t e;
        if (store_open(p, &r, &e))
            _exit(4);
        profile_t *list;
        int n;
        if (library_profile_list(r, &list, &n, &e) || n != 1)
            _exit(5);
        free(list);
        if (store_begin(r, &e) != RS_ESTORE || !strstr(e.msg, "read-only"))
            _exit(6);
        store_close(r);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    chmod(sub, 0755);
    chmod(p, 0644);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    free(sub);
}

/* A write that hits the file-size limit: a clear error, earlier data kept. */
static void test_disk_full(void **state)
{
    (void)state;
    char *p = strdup(path_of("full.db"));
    tf_t f;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    int64_t first = save_fit(s, &f, "kept");
    tf_free(&f);
    store_close(s);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = { 64 * 1024, 64 * 1024 };
        setrlimit(RLIMIT_FSIZE, &rl);
        store_t *w;
        rs_error_t e;
        if (store_open(p, &w, &e))
            _exit(2);
        if (store_begin(w, &e))
            _exit(3);
        char *big = malloc(1 << 20);
        memset(big, 'x', 1 << 20);
        big[(1 << 20) - 1] = 0;
        int64_t id;
        int32_t v;
        bool fresh;
        int rc = library_routine_put(w, "big", big, (1 << 20) - 1, NULL, 0, 0, &id, &v, &fresh, &e);
        if (!rc)
            rc = store_commit(w, &e);
        free(big);
        if (rc != RS_ESTORE || (!strstr(e.msg, "disk is full") && !strstr(e.msg, "I/O error")))
            _exit(4);
        store_close(w);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    stored_plan_t pl;
    assert_int_equal(plans_load(s, first, true, &pl, &err), RS_OK);
    assert_string_equal(pl.label, "kept");
    stored_plan_free(&pl);
    bool found;
    char *src = NULL, *path = NULL;
    size_t len;
    int64_t id;
    assert_int_equal(library_routine_find(s, "big", &id, &src, &len, &path, &found, &err), RS_OK);
    assert_false(found);
    store_close(s);
    free(p);
}

/* A file a plan: the id goes before the file's suffix, never into a
 * folder's name or in place of a dot file's name. */
static void test_plan_path(void **state)
{
    (void)state;
    static const struct { const char *path, *want; } cases[] = {
        { "layout.csv", "layout-3.csv" },  { "out/a.b/pic.svg", "out/a.b/pic-3.svg" },
        { "out/a.b/pic", "out/a.b/pic-3" }, { "plan", "plan-3" },
        { "dir/.hidden", "dir/.hidden-3" }, { ".svg", ".svg-3" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[64];
        export_plan_path(cases[i].path, 3, buf, sizeof buf);
        assert_string_equal(buf, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_routine_versions),
        cmocka_unit_test(test_routine_names),
        cmocka_unit_test(test_export_origins),
        cmocka_unit_test(test_plan_path),
        cmocka_unit_test(test_not_a_store_and_newer),
        cmocka_unit_test(test_locked),
        cmocka_unit_test(test_read_only),
        cmocka_unit_test(test_disk_full),
    };
    return cmocka_run_group_tests(tests, su_setup, su_teardown);
}
