/* Tests for store/'s stored plans: a saved trace replayed as its fit
 * returned it (or refused, damaged), held-group members stored once, a
 * save's progress and stop, and stores of schemas 1, 6 and 7 migrated. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "export.h"
#include "fitutil.h"
#include "library.h"
#include "plans.h"
#include "rebuild.h"
#include "replay.h"
#include "store.h"
#include "storeutil.h"

/* A store made at schema 1 by hand (as the first release wrote it) opens
 * under the current schema with its data intact. */
static void test_migration_from_1(void **state)
{
    (void)state;
    char *p = path_of("v1.db");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    const char *v1 =
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO meta VALUES('app', 'rematscope');"
        "CREATE TABLE routines(id INTEGER PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL,"
        "  source TEXT NOT NULL, hash TEXT NOT NULL, path TEXT, steps INTEGER NOT NULL, nodes INTEGER NOT NULL,"
        "  imported_at TEXT NOT NULL, UNIQUE(name, version), UNIQUE(name, hash));"
        "CREATE TABLE profiles(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, memory_bytes INTEGER NOT NULL,"
        "  alignment INTEGER NOT NULL, max_inline_depth INTEGER NOT NULL, flops_per_s INTEGER NOT NULL,"
        "  bytes_per_s INTEGER NOT NULL);"
        "CREATE TABLE contexts(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES contexts(id),"
        "  routine_id INTEGER NOT NULL REFERENCES routines(id), profile_id INTEGER REFERENCES profiles(id),"
        "  bindings TEXT NOT NULL, config TEXT NOT NULL, prefs TEXT NOT NULL);"
        "CREATE TABLE plans(id INTEGER PRIMARY KEY, context_id INTEGER NOT NULL REFERENCES contexts(id),"
        "  child_context_id INTEGER REFERENCES contexts(id), budget_kind TEXT NOT NULL, budget_bytes INTEGER,"
        "  cap INTEGER NOT NULL, baseline_total INTEGER NOT NULL, baseline_live_peak INTEGER NOT NULL,"
        "  baseline_peak_step INTEGER NOT NULL, baseline_buffers INTEGER NOT NULL, baseline_compute INTEGER NOT NULL,"
        "  final_total INTEGER NOT NULL, final_live_peak INTEGER NOT NULL, final_peak_step INTEGER NOT NULL,"
        "  final_buffers INTEGER NOT NULL, final_compute INTEGER NOT NULL, considered INTEGER NOT NULL,"
        "  dropped INTEGER NOT NULL, within_budget INTEGER NOT NULL, elapsed_us INTEGER NOT NULL,"
        "  reused INTEGER NOT NULL, lowered INTEGER NOT NULL, created_at TEXT NOT NULL);"
        "CREATE TABLE flips(plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
        "  node TEXT NOT NULL, relief INTEGER NOT NULL, cost INTEGER NOT NULL, PRIMARY KEY(plan_id, seq));"
        "CREATE TABLE events(plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
        "  round INTEGER NOT NULL, kind TEXT NOT NULL, node TEXT, reason TEXT, alone INTEGER, with_ INTEGER,"
        "  cur INTEGER, relief INTEGER, cost INTEGER, rank INTEGER, members TEXT NOT NULL, text TEXT NOT NULL,"
        "  PRIMARY KEY(plan_id, seq));"
        "INSERT INTO routines VALUES(1, 'old', 1, 'routine old\ninput x [4]\n', 'h', NULL, 0, 1, '2026-01-01');"
        "INSERT INTO profiles VALUES(1, 'dev', 1024, 8, 4, 1000, 1000);"
        "INSERT INTO contexts VALUES(1, NULL, 1, 1, 'x=1', 'alignment=8 max_inline_depth=4 aliasing=on layout=greedy', '');"
        "INSERT INTO contexts VALUES(2, 1, 1, 1, 'x=1', 'alignment=8 max_inline_depth=4 aliasing=on layout=greedy', 'x');"
        "INSERT INTO plans VALUES(7, 1, 2, 'bytes', 100, 32, 8, 8, 0, 1, 0, 8, 8, 0, 1, 0, 1, 0, 1, 10, 3, 1,"
        "  '2026-01-01');"
        "INSERT INTO flips VALUES(7, 0, 'x', 0, 1);"
        "INSERT INTO events VALUES(7, 0, 0, 'baseline', NULL, NULL, -1, -1, 8, 0, 0, 0, '', 'baseline');"
        "INSERT INTO events VALUES(7, 1, 2, 'end', NULL, NULL, -1, -1, 8, 0, 0, 0, '', 'end');"
        "PRAGMA user_version = 1;";
    assert_int_equal(sqlite3_exec(db, v1, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    rs_error_t err;
    store_t *s;
    if (store_open(p, &s, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
    stored_plan_t pl;
    assert_int_equal(plans_load(s, 7, true, &pl, &err), RS_OK);
    assert_string_equal(pl.routine, "old");
    assert_string_equal(pl.profile, "dev");
    assert_int_equal(pl.n_flips, 1); /* counted by the migration */
    assert_string_equal(pl.flips[0].node, "x");
    assert_int_equal(pl.n_events, 2);
    assert_string_equal(pl.label, "");
    assert_int_equal(pl.budget_bytes, 100);
    stored_plan_free(&pl);
    store_close(s);
    /* and opens again without migrating twice */
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    store_close(s);
}

/* Makes a store of schema 8 the one schema 7 wrote: every event's group
 * members spelled out in members, no group_members table or ranges. */
#define AS_SCHEMA_7                                                                                               \
    "UPDATE events SET members = coalesce((SELECT group_concat(node, ' ') FROM (SELECT node FROM group_members g " \
    "WHERE g.plan_id = events.plan_id AND g.seq >= events.group_off AND g.seq < events.group_off + "                \
    "events.group_n ORDER BY g.seq)), '');"                                                                       \
    "DROP TABLE group_members; ALTER TABLE events DROP COLUMN group_off; ALTER TABLE events DROP COLUMN group_n;"   \
    "ALTER TABLE routines DROP COLUMN xla_bytes; DROP TABLE frontiers; DROP TABLE frontier_flips;"

/* A store of schema 6 (before flips kept their recompute): migrating adds
 * the column, the old plan's flips have none (recompute_known false, an
 * empty CSV cell), and a plan saved afterwards has them. */
static void test_migration_from_6(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    char *p = path_of("v6.db");
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    tf_t f;
    int64_t old_id = save_fit(s, &f, "old");
    tf_free(&f);
    store_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, AS_SCHEMA_7 "ALTER TABLE flips DROP COLUMN recompute; PRAGMA user_version = 6;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
    stored_plan_t pl;
    assert_int_equal(plans_load(s, old_id, false, &pl, &err), RS_OK);
    assert_true(pl.n_flips > 0);
    assert_false(pl.recompute_known);
    char *csv = path_of("v6_flips.csv");
    assert_int_equal(export_plans(s, &pl, 1, EXPORT_FLIPS, csv, &err), RS_OK);
    rows_t r = { 0 };
    assert_int_equal(csvio_read_file(csv, collect, &r, &err), RS_OK);
    assert_string_equal(r.cells[0][5], "recompute");
    assert_string_equal(r.cells[1][5], "");
    rows_free(&r);
    stored_plan_free(&pl);
    int64_t new_id = save_fit(s, &f, "new");
    assert_int_equal(plans_load(s, new_id, false, &pl, &err), RS_OK);
    assert_true(pl.recompute_known);
    for (int32_t i = 0; i < pl.n_flips; i++)
        assert_int_equal(pl.flips[i].recompute, f.plan->flips[i].recompute);
    stored_plan_free(&pl);
    tf_free(&f);
    store_close(s);
}

/* Saves f's plan of text (its routine stored under f's routine name);
 * returns the plan id. */
static int64_t save_plan_of(store_t *s, tf_t *f, const char *text)
{
    rs_error_t err;
    assert_int_equal(store_begin(s, &err), RS_OK);
    int64_t rid, pid;
    int32_t version;
    bool was_new;
    assert_int_equal(library_routine_put(s, f->t.r->name, text, strlen(text), "mem", f->t.r->n_steps,
                                         f->t.r->n_nodes, &rid, &version, &was_new, &err),
                     RS_OK);
    char *bindings = rebuild_bindings_format(f->t.r, &f->t.b);
    char config[128];
    rebuild_config_format(&f->ctx->cfg, config, sizeof config);
    plan_save_t in = { .plan = f->plan, .routine_id = rid, .bindings = bindings, .config = config, .prefs = "",
                       .elapsed_us = 1 };
    if (plans_save(s, &in, &pid, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(store_commit(s, &err), RS_OK);
    free(bindings);
    return pid;
}

/* Whether the replayed plan r is the fitted plan p: every field, every
 * event (its members by value: where a list sits in members may differ),
 * every flip and candidate. */
static void expect_same_plan(const fit_plan_t *p, const fit_plan_t *r)
{
    assert_int_equal(r->minimize, p->minimize);
    assert_int_equal(r->budget, p->budget);
    assert_int_equal(r->cap, p->cap);
    assert_memory_equal(&r->baseline, &p->baseline, sizeof p->baseline);
    assert_memory_equal(&r->final, &p->final, sizeof p->final);
    assert_int_equal(r->considered, p->considered);
    assert_int_equal(r->dropped, p->dropped);
    assert_int_equal(r->within_budget, p->within_budget);
    assert_int_equal(r->reused, p->reused);
    assert_int_equal(r->lowered, p->lowered);
    assert_int_equal(r->n_flips, p->n_flips);
    if (p->n_flips)
        assert_memory_equal(r->flips, p->flips, (size_t)p->n_flips * sizeof *p->flips);
    assert_int_equal(r->n_cands, p->n_cands);
    if (p->n_cands)
        assert_memory_equal(r->cands, p->cands, (size_t)p->n_cands * sizeof *p->cands);
    assert_memory_equal(&r->floor, &p->floor, sizeof p->floor);
    assert_memory_equal(&r->floor_cap, &p->floor_cap, sizeof p->floor_cap);
    assert_int_equal(r->n_events, p->n_events);
    for (int32_t i = 0; i < p->n_events; i++) {
        fit_event_t a = p->events[i], b = r->events[i];
        assert_int_equal(b.group_n, a.group_n);
        for (int32_t k = 0; k < a.group_n; k++)
            assert_int_equal(r->members[b.group_off + k], p->members[a.group_off + k]);
        a.group_off = b.group_off = 0;
        assert_memory_equal(&b, &a, sizeof a);
    }
}

/* replay_plan of sp on f's routine, lowering and root context. */
static int replay_of(const stored_plan_t *sp, const tf_t *f, fit_plan_t **out, rs_error_t *err)
{
    uint8_t *prefs = calloc((size_t)f->t.r->n_nodes + 1, 1);
    assert_non_null(prefs);
    fit_context_prefs(f->ctx, prefs);
    int rc = replay_plan(sp, f->t.l, prefs, &f->ctx->cfg, out, err);
    free(prefs);
    return rc;
}

/* A stored plan replays as its fit returned it (no fit runs): the
 * hand-worked routines (accepts, held groups committed and discarded,
 * negative reliefs, rejects), a cap that drops candidates, a budget met at
 * once, and random routines; each against the fit itself. */
static void test_replay(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(":memory:", &s, &err), RS_OK);
    struct {
        const char *text, *budget;
        int32_t cap;
    } cases[] = {
        { ROUTINE_NEUTRAL, "minimize", -1 }, { ROUTINE_PAIR, "minimize", -1 }, { ROUTINE_HARMFUL, "minimize", -1 },
        { ROUTINE_NEGATIVE, "minimize", -1 }, { ROUTINE_NEUTRAL, "minimize", 2 }, { ROUTINE_PAIR, "100%", -1 },
        { ROUTINE_HARMFUL, "90%", 1 },
    };
    int n_cases = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < n_cases + 40; c++) {
        char *random = c >= n_cases ? tf_random_routine((unsigned)(c - n_cases)) : NULL;
        const char *text = random ? random : cases[c].text;
        tf_t f;
        tf_fit(&f, text, random ? (c % 2 ? "70%" : "minimize") : cases[c].budget, random ? -1 : cases[c].cap, 1);
        int64_t id = save_plan_of(s, &f, text);
        stored_plan_t sp;
        assert_int_equal(plans_load(s, id, true, &sp, &err), RS_OK);
        fit_plan_t *r = NULL;
        if (replay_of(&sp, &f, &r, &err))
            fail_msg("case %d: %s", c, err.msg);
        expect_same_plan(f.plan, r);
        /* the members as the fit shares them: the same runs at the same places */
        assert_int_equal(r->n_members, f.plan->n_members);
        if (f.plan->n_members)
            assert_memory_equal(r->members, f.plan->members, (size_t)f.plan->n_members * sizeof *r->members);
        for (int32_t i = 0; i < f.plan->n_events; i++)
            assert_int_equal(r->events[i].group_off, f.plan->events[i].group_off);
        fit_plan_free(r);
        stored_plan_free(&sp);
        tf_free(&f);
        free(random);
    }
    store_close(s);
}

/* A stored trace that is not one fit's is refused with the plan named,
 * never replayed half: a flip the routine lacks, an unknown kind, a flip
 * list the accepts do not match. */
static void test_replay_damaged(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(":memory:", &s, &err), RS_OK);
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 1);
    assert_true(f.plan->n_flips >= 2);
    int64_t id = save_plan_of(s, &f, ROUTINE_PAIR);
    stored_plan_t sp;
    assert_int_equal(plans_load(s, id, true, &sp, &err), RS_OK);
    fit_plan_t *r = NULL;
    char *was = sp.flips[0].node;
    sp.flips[0].node = (char *)"nosuchnode";
    assert_int_equal(replay_of(&sp, &f, &r, &err), RS_EINPUT);
    assert_null(r);
    assert_non_null(strstr(err.msg, "plan 1 names nosuchnode"));
    sp.flips[0].node = sp.flips[1].node; /* the first flip listed twice: the accepts disagree */
    assert_int_equal(replay_of(&sp, &f, &r, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "plan 1: the stored trace is not one fit's"));
    sp.flips[0].node = was;
    char *kind = sp.events[0].kind;
    sp.events[0].kind = (char *)"guess";
    assert_int_equal(replay_of(&sp, &f, &r, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "event 0 is of no kind"));
    sp.events[0].kind = kind;
    assert_int_equal(replay_of(&sp, &f, &r, &err), RS_OK);
    expect_same_plan(f.plan, r);
    fit_plan_free(r);
    stored_plan_free(&sp);
    tf_free(&f);
    store_close(s);
}


/* 40 candidates, each alone in its region, fitted to Minimize: the held
 * group grows one hold at a time, 1,520 members listed across the events
 * and 38 in the fit's shared run (test_fit.c's test_default_caps). */
static void fit_growing_group(tf_t *f, char *text, size_t n)
{
    size_t w = (size_t)snprintf(text, n, "routine many\ndtype u8\ninput x [4]\n");
    for (int i = 0; i < 40; i++)
        w += (size_t)snprintf(text + w, n - w, "a%d = f(x) [%d]\no%d = g(a%d) [0] @output\n", i, 10 + i, i, i);
    tf_fit(f, text, "minimize", -1, 1);
    assert_int_equal(f->plan->n_members, 38);
}

/* Closes s (at path), turns its store into schema 7's and opens it again
 * (migrating it). */
static store_t *reopened_as_schema_7(store_t *s, const char *path)
{
    store_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, AS_SCHEMA_7 "PRAGMA user_version = 7;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    rs_error_t err;
    if (store_open(path, &s, &err))
        fail_msg("%s", err.msg);
    return s;
}

static int64_t count_of(store_t *s, const char *sql)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = calloc((size_t)n + 1, 1);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return b;
}

/* A frontier plan (DESIGN §14) saved beside a plan comes back as saved,
 * kinds and order kept; a kind other than inline or remat, or a missing
 * flip, is refused as damaged; deleting the plan deletes it. */
static void test_frontier_saved(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(":memory:", &s, &err), RS_OK);
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 1);
    int64_t id = save_plan_of(s, &f, ROUTINE_PAIR);
    assert_true(f.t.r->n_nodes >= 3);
    frontier_flip_t flips[2] = { { .relief = 7, .recompute = 11, .node = 2, .kind = FRONTIER_REMAT },
                                 { .relief = -3, .recompute = 0, .node = 1, .kind = FRONTIER_INLINE } };
    frontier_result_t fr = { .final = { .total = 100, .live_peak = 90, .peak_step = 4, .buffers = 5, .compute = 77 },
                             .flips = flips, .n_flips = 2, .explored = 123, .within_budget = true, .seeds_cut = true };
    assert_int_equal(store_begin(s, &err), RS_OK);
    assert_int_equal(frontiers_save(s, id, f.t.r, &fr, 4500, &err), RS_OK);
    assert_int_equal(store_commit(s, &err), RS_OK);
    stored_plan_t sp;
    assert_int_equal(plans_load(s, id, false, &sp, &err), RS_OK);
    const stored_frontier_t *sf = &sp.frontier;
    assert_true(sf->present);
    assert_memory_equal(&sf->final, &fr.final, sizeof fr.final);
    assert_int_equal(sf->explored, 123);
    assert_true(sf->within_budget && !sf->stopped && sf->seeds_cut);
    assert_int_equal(sf->elapsed_us, 4500);
    assert_int_equal(sf->n_flips, 2);
    assert_string_equal(sf->flips[0].node, f.t.r->nodes[2].name);
    assert_int_equal(sf->flips[0].kind, FRONTIER_REMAT);
    assert_int_equal(sf->flips[0].relief, 7);
    assert_int_equal(sf->flips[0].recompute, 11);
    assert_string_equal(sf->flips[1].node, f.t.r->nodes[1].name);
    assert_int_equal(sf->flips[1].kind, FRONTIER_INLINE);
    assert_int_equal(sf->flips[1].relief, -3);
    frontier_flip_t *back;
    assert_int_equal(frontiers_flips(sf, f.t.r, &back, &err), RS_OK);
    assert_memory_equal(back, flips, sizeof flips);
    free(back);
    stored_plan_free(&sp);

    assert_int_equal(sqlite3_exec(store_db(s), "UPDATE frontier_flips SET kind = 'twice' WHERE seq = 1", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(plans_load(s, id, false, &sp, &err), RS_ESTORE);
    assert_non_null(strstr(err.msg, "frontier plan is damaged: a flip's kind is neither inline nor remat"));
    assert_int_equal(sqlite3_exec(store_db(s), "DELETE FROM frontier_flips WHERE seq = 1", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(plans_load(s, id, false, &sp, &err), RS_ESTORE);
    assert_non_null(strstr(err.msg, "its flips are not the number it records"));
    assert_int_equal(store_begin(s, &err), RS_OK);
    assert_int_equal(plans_delete(s, id, &err), RS_OK);
    assert_int_equal(store_commit(s, &err), RS_OK);
    assert_int_equal(count_of(s, "SELECT count(*) FROM frontiers"), 0);
    assert_int_equal(count_of(s, "SELECT count(*) FROM frontier_flips"), 0);
    tf_free(&f);
    store_close(s);
}

/* A plan's held-group members are stored once, as the fit shares them
 * (schema 8; 38 rows, not 1,520 names in the events), yet the events CSV
 * spells every event's list out; a store of schema 7, whose events spell
 * them out themselves, migrates and exports and replays the same. */
static void test_members_stored_once(void **state)
{
    (void)state;
    rs_error_t err;
    char p[256], csv[256];
    snprintf(p, sizeof p, "%s", path_of("members.db")); /* path_of's buffer is one */
    snprintf(csv, sizeof csv, "%s", path_of("members_events.csv"));
    store_t *s;
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    char text[8192];
    tf_t f;
    fit_growing_group(&f, text, sizeof text);
    int64_t id = save_plan_of(s, &f, text);
    assert_int_equal(count_of(s, "SELECT count(*) FROM group_members"), 38);
    assert_int_equal(count_of(s, "SELECT sum(group_n) FROM events"), 1520);
    assert_int_equal(count_of(s, "SELECT count(*) FROM events WHERE members <> ''"), 0);
    /* nor spelled in the sentences: a group of 38 is counted ("the 38 held
     * flips"; its 38 names made each event's text 190 bytes longer, and a
     * real step's 354 MB) */
    assert_true(count_of(s, "SELECT max(length(text)) FROM events") < 160);
    assert_int_equal(count_of(s, "SELECT count(*) FROM events WHERE text LIKE '%a5, a6%'"), 0);
    stored_plan_t sp;
    assert_int_equal(plans_load(s, id, true, &sp, &err), RS_OK);
    assert_int_equal(export_plans(s, &sp, 1, EXPORT_EVENTS, csv, &err), RS_OK);
    stored_plan_free(&sp);
    rows_t r = { 0 };
    assert_int_equal(csvio_read_file(csv, collect, &r, &err), RS_OK);
    assert_int_equal(r.n, f.plan->n_events + 1);
    assert_string_equal(r.cells[0][12], "members");
    for (int32_t i = 0; i < f.plan->n_events; i++) { /* each row its whole list, in the fit's order */
        const fit_event_t *e = &f.plan->events[i];
        char want[1024] = "";
        for (int32_t k = 0, w = 0; k < e->group_n; k++)
            w += snprintf(want + w, sizeof want - (size_t)w, "%s%s", k ? " " : "",
                          tf_name(&f, f.plan->members[e->group_off + k]));
        assert_string_equal(r.cells[i + 1][12], want);
    }
    rows_free(&r);
    char *before = slurp(csv);
    s = reopened_as_schema_7(s, p);
    assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
    assert_int_equal(count_of(s, "SELECT count(*) FROM events WHERE group_n IS NULL"), f.plan->n_events);
    assert_int_equal(plans_load(s, id, true, &sp, &err), RS_OK);
    assert_int_equal(sp.n_members, 0);
    unlink(csv);
    assert_int_equal(export_plans(s, &sp, 1, EXPORT_EVENTS, csv, &err), RS_OK);
    char *after = slurp(csv);
    assert_string_equal(after, before);
    fit_plan_t *rp = NULL;
    if (replay_of(&sp, &f, &rp, &err))
        fail_msg("%s", err.msg);
    expect_same_plan(f.plan, rp);
    assert_int_equal(rp->n_members, 38); /* the lists shared as the fit shares them, not 1,520 */
    fit_plan_free(rp);
    stored_plan_free(&sp);
    /* a range past the stored members is a damaged plan, said so */
    id = save_plan_of(s, &f, text);
    assert_int_equal(count_of(s, "SELECT count(*) FROM group_members"), 38);
    assert_int_equal(plans_load(s, id, true, &sp, &err), RS_OK);
    int32_t k = 0;
    while (sp.events[k].group_n <= 0)
        k++;
    sp.events[k].group_off = sp.n_members;
    assert_int_equal(export_plans(s, &sp, 1, EXPORT_EVENTS, path_of("damaged.csv"), &err), RS_ESTORE);
    assert_non_null(strstr(err.msg, "is damaged: event"));
    assert_int_equal(access(path_of("damaged.csv"), F_OK), -1); /* nothing half-written */
    assert_int_equal(replay_of(&sp, &f, &rp, &err), RS_EINPUT);
    assert_null(rp);
    stored_plan_free(&sp);
    free(after);
    free(before);
    tf_free(&f);
    store_close(s);
}

/* Plans saved before schema 8 (every event's list spelled out) replay as
 * their fits returned them: random routines, Minimize and 70 %, saved,
 * the store turned back into schema 7's, opened (migrated) and replayed. */
static void test_replay_of_schema_7(void **state)
{
    (void)state;
    rs_error_t err;
    char p[256];
    snprintf(p, sizeof p, "%s", path_of("replay7.db"));
    store_t *s;
    assert_int_equal(store_open(p, &s, &err), RS_OK);
    enum { N = 24 };
    tf_t f[N];
    char *text[N];
    int64_t id[N];
    for (int c = 0; c < N; c++) {
        text[c] = tf_random_routine((unsigned)(100 + c));
        tf_fit(&f[c], text[c], c % 2 ? "70%" : "minimize", -1, 1);
        id[c] = save_plan_of(s, &f[c], text[c]);
    }
    s = reopened_as_schema_7(s, p);
    for (int c = 0; c < N; c++) {
        stored_plan_t sp;
        assert_int_equal(plans_load(s, id[c], true, &sp, &err), RS_OK);
        fit_plan_t *r = NULL;
        if (replay_of(&sp, &f[c], &r, &err))
            fail_msg("case %d: %s", c, err.msg);
        expect_same_plan(f[c].plan, r);
        int64_t listed = 0;
        for (int32_t i = 0; i < f[c].plan->n_events; i++)
            listed += f[c].plan->events[i].group_n;
        assert_true(r->n_members <= listed);
        fit_plan_free(r);
        stored_plan_free(&sp);
        tf_free(&f[c]);
        free(text[c]);
    }
    store_close(s);
}

typedef struct progress_log {
    int64_t last, total;
    int calls, stop_at;
} progress_log_t;

static int log_progress(void *ud, int64_t done, int64_t total)
{
    progress_log_t *l = ud;
    assert_true(done >= l->last && done <= total);
    l->last = done;
    l->total = total;
    return ++l->calls == l->stop_at;
}

/* A save says how far it is in events, from 0 to all of them; a stop asked
 * for mid-way ends it with RS_ECANCELED and, rolled back, leaves nothing
 * of the plan in the store. */
static void test_save_progress_and_stop(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    assert_int_equal(store_open(":memory:", &s, &err), RS_OK);
    char text[8192];
    tf_t f;
    fit_growing_group(&f, text, sizeof text);
    assert_true(f.plan->n_events > 1);
    char *bindings = rebuild_bindings_format(f.t.r, &f.t.b);
    char config[128];
    rebuild_config_format(&f.ctx->cfg, config, sizeof config);
    for (int stop_at = 0; stop_at <= 2; stop_at++) {
        progress_log_t log = { .stop_at = stop_at };
        assert_int_equal(store_begin(s, &err), RS_OK);
        int64_t rid, pid;
        int32_t version;
        bool was_new;
        assert_int_equal(library_routine_put(s, f.t.r->name, text, strlen(text), "mem", f.t.r->n_steps,
                                             f.t.r->n_nodes, &rid, &version, &was_new, &err),
                         RS_OK);
        plan_save_t in = { .plan = f.plan, .routine_id = rid, .bindings = bindings, .config = config, .prefs = "",
                           .progress = log_progress, .progress_ud = &log };
        int rc = plans_save(s, &in, &pid, &err);
        if (stop_at == 0) { /* never stopped: every event, the last call all of them */
            assert_int_equal(rc, RS_OK);
            assert_int_equal(store_commit(s, &err), RS_OK);
            assert_int_equal(log.last, f.plan->n_events);
            assert_int_equal(log.total, f.plan->n_events);
            assert_true(log.calls >= 2);
            continue;
        }
        assert_int_equal(rc, RS_ECANCELED);
        assert_non_null(strstr(err.msg, "nothing saved"));
        assert_int_equal(log.calls, stop_at);
        store_rollback(s);
        assert_int_equal(count_of(s, "SELECT count(*) FROM plans"), 1);
        assert_int_equal(count_of(s, "SELECT count(*) FROM events"), f.plan->n_events);
        assert_int_equal(count_of(s, "SELECT count(*) FROM group_members"), 38);
        assert_int_equal(count_of(s, "SELECT count(*) FROM contexts"), 2);
    }
    free(bindings);
    tf_free(&f);
    store_close(s);
}

/* An events export says how far it is in rows, from 0 to all of them; a
 * stop asked for leaves no file (a 373 MB export's bar sat at "0/1"). */
static void test_export_progress_and_stop(void **state)
{
    (void)state;
    rs_error_t err;
    store_t *s;
    char csv[256];
    snprintf(csv, sizeof csv, "%s", path_of("progress_events.csv"));
    assert_int_equal(store_open(":memory:", &s, &err), RS_OK);
    char text[8192];
    tf_t f;
    fit_growing_group(&f, text, sizeof text);
    int64_t id = save_plan_of(s, &f, text);
    stored_plan_t sp;
    assert_int_equal(plans_load(s, id, true, &sp, &err), RS_OK);
    for (int stop_at = 0; stop_at <= 2; stop_at++) {
        unlink(csv);
        progress_log_t log = { .stop_at = stop_at };
        export_options_t o = { .progress = log_progress, .progress_ud = &log };
        int rc = export_plans_with(s, &sp, 1, EXPORT_EVENTS, csv, &o, &err);
        if (stop_at == 0) {
            assert_int_equal(rc, RS_OK);
            assert_int_equal(log.calls, 2); /* row 0, then all (fewer than 4096 rows) */
            assert_int_equal(log.last, f.plan->n_events);
            assert_int_equal(log.total, f.plan->n_events);
            assert_int_equal(access(csv, F_OK), 0);
            continue;
        }
        assert_int_equal(rc, RS_ECANCELED);
        assert_int_equal(log.calls, stop_at);
        assert_int_equal(access(csv, F_OK), -1); /* nothing half-written */
    }
    /* the other exports say nothing and write as before */
    progress_log_t log = { 0 };
    export_options_t o = { .progress = log_progress, .progress_ud = &log };
    assert_int_equal(export_plans_with(s, &sp, 1, EXPORT_FLIPS, csv, &o, &err), RS_OK);
    assert_int_equal(log.calls, 0);
    stored_plan_free(&sp);
    tf_free(&f);
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_migration_from_1),
        cmocka_unit_test(test_migration_from_6),
        cmocka_unit_test(test_members_stored_once),
        cmocka_unit_test(test_replay_of_schema_7),
        cmocka_unit_test(test_save_progress_and_stop),
        cmocka_unit_test(test_export_progress_and_stop),
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_replay_damaged),
        cmocka_unit_test(test_frontier_saved),
    };
    return cmocka_run_group_tests(tests, su_setup, su_teardown);
}
