#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store_int.h"
#include "util/path.h"
#include "util/vec.h"

/* Each entry takes a store from version i to i + 1.  Version 1 is the
 * first release's schema; version 2 adds plan labels, the counts that make
 * a saved plan checkable as whole, sweeps, and layout problems; version 3
 * the kind of each routine's text; version 4 what `fit --audit` found;
 * 5 the gap to a better plan; 6 the budget as asked for; 7 each flip's
 * recompute; 8 held-group members stored once a plan. */
static const char *MIGRATIONS[STORE_SCHEMA_VERSION] = {
    /* 0 -> 1 */
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO meta VALUES('app', 'rematscope');"
    "CREATE TABLE routines("
    "  id INTEGER PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL,"
    "  source TEXT NOT NULL, hash TEXT NOT NULL, path TEXT,"
    "  steps INTEGER NOT NULL, nodes INTEGER NOT NULL, imported_at TEXT NOT NULL,"
    "  UNIQUE(name, version), UNIQUE(name, hash));"
    "CREATE TABLE profiles("
    "  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, memory_bytes INTEGER NOT NULL,"
    "  alignment INTEGER NOT NULL, max_inline_depth INTEGER NOT NULL,"
    "  flops_per_s INTEGER NOT NULL, bytes_per_s INTEGER NOT NULL);"
    "CREATE TABLE contexts("
    "  id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES contexts(id),"
    "  routine_id INTEGER NOT NULL REFERENCES routines(id),"
    "  profile_id INTEGER REFERENCES profiles(id),"
    "  bindings TEXT NOT NULL, config TEXT NOT NULL, prefs TEXT NOT NULL);"
    "CREATE TABLE plans("
    "  id INTEGER PRIMARY KEY, context_id INTEGER NOT NULL REFERENCES contexts(id),"
    "  child_context_id INTEGER REFERENCES contexts(id),"
    "  budget_kind TEXT NOT NULL, budget_bytes INTEGER, cap INTEGER NOT NULL,"
    "  baseline_total INTEGER NOT NULL, baseline_live_peak INTEGER NOT NULL,"
    "  baseline_peak_step INTEGER NOT NULL, baseline_buffers INTEGER NOT NULL,"
    "  baseline_compute INTEGER NOT NULL,"
    "  final_total INTEGER NOT NULL, final_live_peak INTEGER NOT NULL,"
    "  final_peak_step INTEGER NOT NULL, final_buffers INTEGER NOT NULL,"
    "  final_compute INTEGER NOT NULL,"
    "  considered INTEGER NOT NULL, dropped INTEGER NOT NULL, within_budget INTEGER NOT NULL,"
    "  elapsed_us INTEGER NOT NULL, reused INTEGER NOT NULL, lowered INTEGER NOT NULL,"
    "  created_at TEXT NOT NULL);"
    "CREATE TABLE flips("
    "  plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
    "  node TEXT NOT NULL, relief INTEGER NOT NULL, cost INTEGER NOT NULL,"
    "  PRIMARY KEY(plan_id, seq));"
    "CREATE TABLE events("
    "  plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
    "  round INTEGER NOT NULL, kind TEXT NOT NULL, node TEXT, reason TEXT,"
    "  alone INTEGER, with_ INTEGER, cur INTEGER, relief INTEGER, cost INTEGER, rank INTEGER,"
    "  members TEXT NOT NULL, text TEXT NOT NULL,"
    "  PRIMARY KEY(plan_id, seq));",
    /* 1 -> 2 */
    "ALTER TABLE plans ADD COLUMN label TEXT;"
    "ALTER TABLE plans ADD COLUMN n_flips INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE plans ADD COLUMN n_events INTEGER NOT NULL DEFAULT 0;"
    "UPDATE plans SET n_flips = (SELECT count(*) FROM flips WHERE plan_id = plans.id),"
    "                 n_events = (SELECT count(*) FROM events WHERE plan_id = plans.id);"
    "CREATE TABLE sweeps("
    "  id INTEGER PRIMARY KEY, routine_id INTEGER NOT NULL REFERENCES routines(id),"
    "  budgets TEXT NOT NULL, reused INTEGER NOT NULL, lowered INTEGER NOT NULL,"
    "  n_plans INTEGER NOT NULL, created_at TEXT NOT NULL);"
    "ALTER TABLE plans ADD COLUMN sweep_id INTEGER REFERENCES sweeps(id) ON DELETE SET NULL;"
    "CREATE TABLE layouts("
    "  id INTEGER PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, path TEXT,"
    "  n_buffers INTEGER NOT NULL, imported_at TEXT NOT NULL, UNIQUE(name, hash));"
    "CREATE TABLE layout_buffers("
    "  layout_id INTEGER NOT NULL REFERENCES layouts(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
    "  ext_id TEXT NOT NULL, lower INTEGER NOT NULL, upper INTEGER NOT NULL, size INTEGER NOT NULL,"
    "  PRIMARY KEY(layout_id, seq));"
    "CREATE INDEX plans_by_context ON plans(context_id);"
    "CREATE INDEX contexts_by_routine ON contexts(routine_id);",
    /* 2 -> 3: what a routine's text is, 'routine' (§1) or 'hlo' (§10) */
    "ALTER TABLE routines ADD COLUMN kind TEXT NOT NULL DEFAULT 'routine';"
    "UPDATE routines SET kind = 'hlo' WHERE ltrim(source, ' ' || char(9, 10, 13)) LIKE 'HloModule%';",
    /* 3 -> 4: what `fit --audit` found (NULL when the plan was not audited) */
    "ALTER TABLE plans ADD COLUMN audit TEXT;",
    /* 4 -> 5: the gap to the best (fit --exact) or improved (--improve) plan */
    "ALTER TABLE plans ADD COLUMN gap_kind TEXT;"
    "ALTER TABLE plans ADD COLUMN gap_found INTEGER;"
    "ALTER TABLE plans ADD COLUMN gap_total INTEGER;"
    "ALTER TABLE plans ADD COLUMN gap_compute INTEGER;"
    "ALTER TABLE plans ADD COLUMN gap_flips TEXT;"
    "ALTER TABLE plans ADD COLUMN gap_proved INTEGER;"
    "ALTER TABLE plans ADD COLUMN gap_explored INTEGER;",
    /* 5 -> 6: the budget as it was asked for ("60%", "device", "48MiB"; NULL before) */
    "ALTER TABLE plans ADD COLUMN budget_spec TEXT;",
    /* 6 -> 7: the compute each flip added (DESIGN §13; NULL for the flips of older plans) */
    "ALTER TABLE flips ADD COLUMN recompute INTEGER;",
    /* 7 -> 8: a plan's held-group members once, in the planner's shared
     * runs (events name a range of them), not repeated in full in every
     * event's members (a Minimize fit of 3,878 flips wrote 346 MB of them);
     * an event of an older plan keeps its list in members (group_n NULL) */
    "CREATE TABLE group_members("
    "  plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
    "  node TEXT NOT NULL, PRIMARY KEY(plan_id, seq));"
    "ALTER TABLE events ADD COLUMN group_off INTEGER;"
    "ALTER TABLE events ADD COLUMN group_n INTEGER;",
    /* 8 -> 9: XLA's own figure for an HLO dump (DESIGN §10): the "Total
     * bytes" of the memory-usage report beside the file; NULL when none */
    "ALTER TABLE routines ADD COLUMN xla_bytes INTEGER;",
    /* 9 -> 10: the frontier plan (DESIGN §14) run beside a plan at its
     * budget, and its flips with their kind (inline or remat) */
    "CREATE TABLE frontiers("
    "  plan_id INTEGER PRIMARY KEY REFERENCES plans(id) ON DELETE CASCADE,"
    "  total INTEGER NOT NULL, live_peak INTEGER NOT NULL, peak_step INTEGER NOT NULL,"
    "  buffers INTEGER NOT NULL, compute INTEGER NOT NULL, explored INTEGER NOT NULL,"
    "  within_budget INTEGER NOT NULL, stopped INTEGER NOT NULL, seeds_cut INTEGER NOT NULL,"
    "  elapsed_us INTEGER NOT NULL, n_flips INTEGER NOT NULL);"
    "CREATE TABLE frontier_flips("
    "  plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
    "  node TEXT NOT NULL, kind TEXT NOT NULL, relief INTEGER NOT NULL, recompute INTEGER NOT NULL,"
    "  PRIMARY KEY(plan_id, seq));",
};

static int busy_timeout_ms(void)
{
    const char *e = getenv("RS_BUSY_TIMEOUT_MS"); /* tests shorten the wait */
    int v = e ? atoi(e) : 5000;
    return v >= 0 ? v : 5000;
}

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* SQLite's busy timeout, polling the stop between 10 ms sleeps (a ^C on
 * a save that waits for another process's lock had to sit out the 5 s). */
static int busy_wait(void *ud, int count)
{
    store_t *s = ud;
    int64_t now = now_us();
    if (count == 0)
        s->busy_since_us = now;
    if (s->stop && s->stop(s->stop_ud)) {
        s->stopped = true;
        return 0;
    }
    if (now - s->busy_since_us >= (int64_t)busy_timeout_ms() * 1000)
        return 0;
    struct timespec ten_ms = { 0, 10 * 1000 * 1000 };
    nanosleep(&ten_ms, NULL);
    return 1;
}

void store_set_stop(store_t *s, int (*stop)(void *ud), void *ud)
{
    s->stop = stop;
    s->stop_ud = ud;
    s->stopped = false;
}

/* Who holds a lock on path (the database or its -shm), as "process N
 * (comm)", or "" when it cannot be told. */
static void lock_holder(const char *path, char *buf, size_t n)
{
    buf[0] = 0;
    const char *suffixes[] = { "-shm", "" };
    for (int k = 0; k < 2 && !buf[0]; k++) {
        char p[4096];
        snprintf(p, sizeof p, "%s%s", path, suffixes[k]);
        int fd = open(p, O_RDONLY);
        if (fd < 0)
            continue;
        struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
        if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK && fl.l_pid > 0) {
            char comm[64] = "";
            char cp[64];
            snprintf(cp, sizeof cp, "/proc/%d/comm", (int)fl.l_pid);
            FILE *f = fopen(cp, "r");
            if (f) {
                if (fgets(comm, sizeof comm, f))
                    comm[strcspn(comm, "\n")] = 0;
                fclose(f);
            }
            snprintf(buf, n, "process %d%s%s%s", (int)fl.l_pid, comm[0] ? " (" : "", comm, comm[0] ? ")" : "");
        }
        close(fd);
    }
}

int store_fail(store_t *s, int rc, const char *what, rs_error_t *err)
{
    const char *path = s ? s->path : "";
    int primary = rc & 0xff;
    const char *msg = s && s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    if ((primary == SQLITE_BUSY || primary == SQLITE_LOCKED) && s && s->stopped) {
        s->stopped = false;
        return error_set(err, RS_ECANCELED, path, 0, 0, "%s: stopped while the store was locked", what);
    }
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
        char who[128];
        lock_holder(path, who, sizeof who);
        return error_set(err, RS_ESTORE, path, 0, 0, "%s: the store is locked by %s (waited %d ms)", what,
                         who[0] ? who : "another process", busy_timeout_ms());
    }
    if (primary == SQLITE_FULL || (rc == SQLITE_IOERR_WRITE && (errno == EFBIG || errno == ENOSPC)))
        return error_set(err, RS_ESTORE, path, 0, 0, "%s: the disk is full; nothing of it was saved", what);
    if (primary == SQLITE_READONLY)
        return error_set(err, RS_ESTORE, path, 0, 0, "%s: the store is read-only (%s)", what, msg);
    if (primary == SQLITE_NOTADB)
        return error_set(err, RS_ESTORE, path, 0, 0, "not a rematscope session store: %s", path);
    if (primary == SQLITE_IOERR)
        return error_set(err, RS_ESTORE, path, 0, 0, "%s: I/O error (%s); nothing of it was saved", what, msg);
    return error_set(err, RS_ESTORE, path, 0, 0, "%s: %s", what, msg);
}

int store_prepare(store_t *s, const char *sql, sqlite3_stmt **st, rs_error_t *err)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
    if (rc != SQLITE_OK)
        return store_fail(s, rc, "preparing a query", err);
    return RS_OK;
}

int store_exec_stmt(store_t *s, sqlite3_stmt *st, const char *what, rs_error_t *err)
{
    int rc = sqlite3_step(st);
    int out = rc == SQLITE_DONE || rc == SQLITE_ROW ? RS_OK : store_fail(s, rc, what, err);
    sqlite3_finalize(st);
    return out;
}

int store_require_writable(store_t *s, const char *what, rs_error_t *err)
{
    if (!s->readonly)
        return RS_OK;
    return error_set(err, RS_ESTORE, s->path, 0, 0,
                     "%s: the store is read-only (no write permission on it or its folder); listing works, "
                     "saving does not", what);
}

int store_collect(store_t *s, const char *sql, size_t elem, store_row_fn fn, void (*free_row)(void *elem),
                  void **out, int *n, const char *what, rs_error_t *err)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st;
    int rc = store_prepare(s, sql, &st, err);
    if (rc)
        return rc;
    int32_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (vec_reserve(out, &cap, (int64_t)*n + 1, elem)) {
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        void *slot = (char *)*out + (size_t)*n * elem;
        memset(slot, 0, elem);
        fn(st, slot);
        (*n)++;
    }
    sqlite3_finalize(st);
    if (!rc && step != SQLITE_DONE)
        rc = store_fail(s, step, what, err);
    if (rc) {
        for (int i = 0; free_row && i < *n; i++)
            free_row((char *)*out + (size_t)i * elem);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

char *store_col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return strdup(t ? (const char *)t : "");
}

static int exec_sql(store_t *s, const char *sql, const char *what, rs_error_t *err)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? RS_OK : store_fail(s, rc, what, err);
}

int store_begin(store_t *s, rs_error_t *err)
{
    int rc = store_require_writable(s, "writing", err);
    if (!rc)
        rc = exec_sql(s, "BEGIN IMMEDIATE", "starting a write", err);
    if (!rc)
        s->in_tx = true;
    return rc;
}

int store_commit(store_t *s, rs_error_t *err)
{
    int rc = exec_sql(s, "COMMIT", "committing", err);
    if (rc)
        store_rollback(s);
    s->in_tx = false;
    return rc;
}

void store_rollback(store_t *s)
{
    if (sqlite3_get_autocommit(s->db) == 0)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    s->in_tx = false;
}

const char *store_sqlite_version(void) { return sqlite3_libversion(); }

int store_schema_version(store_t *s)
{
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    return v;
}

struct sqlite3 *store_db(store_t *s) { return s->db; }
const char *store_path(const store_t *s) { return s->path; }
bool store_readonly(const store_t *s) { return s->readonly; }

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int bad = mkdir(path, 0755) != 0 && errno != EEXIST;
        *p = '/';
        if (bad)
            return -1;
    }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int store_default_path(char *buf, size_t n, bool create_dir, rs_error_t *err)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char dir[4096];
    if (xdg && *xdg)
        path_join(dir, sizeof dir, xdg, "rematscope"); /* XDG_DATA_HOME=/tmp/: no "/tmp//" */
    else if (home && *home)
        path_join(dir, sizeof dir, home, ".local/share/rematscope");
    else
        return error_set(err, RS_ESTORE, NULL, 0, 0, "no store location: set XDG_DATA_HOME or HOME, or give --db PATH");
    if (create_dir && mkdirs(dir) != 0)
        return error_set(err, RS_ESTORE, dir, 0, 0, "cannot create the store's folder: %s", strerror(errno));
    path_join(buf, n, dir, "session.db");
    return RS_OK;
}

/* A rematscope store has the meta row app=rematscope; an empty database is
 * a new store; anything else is someone else's file. */
static int check_identity(store_t *s, bool *fresh, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return (rc & 0xff) == SQLITE_NOTADB
                   ? error_set(err, RS_ESTORE, s->path, 0, 0, "not a rematscope session store: %s", s->path)
                   : store_fail(s, rc, "reading the store", err);
    rc = sqlite3_step(st);
    int tables = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return (rc & 0xff) == SQLITE_NOTADB
                   ? error_set(err, RS_ESTORE, s->path, 0, 0, "not a rematscope session store: %s", s->path)
                   : store_fail(s, rc, "reading the store", err);
    *fresh = tables == 0;
    if (*fresh)
        return RS_OK;
    rc = sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = 'app'", -1, &st, NULL);
    bool ours = false;
    if (rc == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            const unsigned char *v = sqlite3_column_text(st, 0);
            ours = v && strcmp((const char *)v, "rematscope") == 0;
        }
        sqlite3_finalize(st);
    }
    if (!ours)
        return error_set(err, RS_ESTORE, s->path, 0, 0, "not a rematscope session store: %s", s->path);
    return RS_OK;
}

/* The schema version of the store s holds: 0 for an empty database;
 * RS_ESTORE when it is someone else's file or a newer rematscope's. */
static int read_version(store_t *s, int *v, rs_error_t *err)
{
    bool fresh = false;
    int rc = check_identity(s, &fresh, err);
    if (rc)
        return rc;
    *v = fresh ? 0 : store_schema_version(s);
    if (*v > STORE_SCHEMA_VERSION)
        return error_set(err, RS_ESTORE, s->path, 0, 0, "made by a newer rematscope (schema %d); this one reads up to %d",
                         *v, STORE_SCHEMA_VERSION);
    if (!fresh && *v < 1)
        return error_set(err, RS_ESTORE, s->path, 0, 0, "not a rematscope session store: %s", s->path);
    return RS_OK;
}

/* Migrates the store from the version it holds under the write lock: the
 * version read before it (from) may be stale, as another process opening
 * the same new or older store at once may have created or migrated it
 * meanwhile (each then ran the same CREATE TABLE and ALTER TABLE twice).
 * BEGIN IMMEDIATE waits for that process as every writer does (the busy
 * handler). */
static int migrate(store_t *s, int from, rs_error_t *err)
{
    if (s->readonly)
        return error_set(err, RS_ESTORE, s->path, 0, 0,
                         "the store has schema %d and needs migrating to %d, but it is read-only", from,
                         STORE_SCHEMA_VERSION);
    int rc = exec_sql(s, "BEGIN IMMEDIATE", "migrating the store", err);
    int v = from;
    if (!rc)
        rc = read_version(s, &v, err);
    for (; !rc && v < STORE_SCHEMA_VERSION; v++) {
        rc = exec_sql(s, MIGRATIONS[v], "migrating the store", err);
        if (!rc) {
            char sql[64];
            snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
            rc = exec_sql(s, sql, "migrating the store", err);
        }
    }
    if (!rc)
        rc = exec_sql(s, "COMMIT", "migrating the store", err);
    if (rc)
        store_rollback(s);
    return rc;
}

static int open_db(store_t *s, int flags)
{
    if (s->db) {
        sqlite3_close(s->db);
        s->db = NULL;
    }
    return sqlite3_open_v2(s->path, &s->db, flags, NULL);
}

/* Whether the open (read-only) connection can read the schema. */
static bool probe_readable(store_t *s)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) != SQLITE_OK)
        return false;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || (rc & 0xff) == SQLITE_NOTADB;
}

static int open_immutable(store_t *s)
{
    size_t n = strlen(s->path);
    char *uri = malloc(n * 3 + 32);
    if (!uri)
        return SQLITE_NOMEM;
    size_t w = (size_t)sprintf(uri, "file:");
    for (const char *p = s->path; *p; p++)
        w += (size_t)(strchr("%?#", *p) ? sprintf(uri + w, "%%%02X", (unsigned char)*p) : sprintf(uri + w, "%c", *p));
    strcpy(uri + w, "?immutable=1");
    if (s->db)
        sqlite3_close(s->db);
    s->db = NULL;
    int rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    return rc;
}

int store_open(const char *path, store_t **out, rs_error_t *err)
{
    *out = NULL;
    char def[4096];
    if (!path) {
        int rc = store_default_path(def, sizeof def, true, err);
        if (rc)
            return rc;
        path = def;
    }
    store_t *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    bool memory = strcmp(path, ":memory:") == 0;
    struct stat stb;
    bool exists = !memory && stat(path, &stb) == 0;
    if (exists && S_ISDIR(stb.st_mode)) {
        error_set(err, RS_ESTORE, path, 0, 0, "not a rematscope session store: %s (a folder)", path);
        store_close(s);
        return RS_ESTORE;
    }
    s->readonly = exists && access(path, W_OK) != 0;
    int rc = open_db(s, s->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (rc != SQLITE_OK && !exists) {
        error_set(err, RS_ESTORE, path, 0, 0, "cannot create the store: %s (does its folder exist, and may it be "
                  "written?)", sqlite3_errstr(rc));
        store_close(s);
        return RS_ESTORE;
    }
    if (rc != SQLITE_OK) {
        rc = store_fail(s, rc, "opening the store", err);
        store_close(s);
        return rc;
    }
    sqlite3_busy_handler(s->db, busy_wait, s);
    sqlite3_extended_result_codes(s->db, 1);
    if (s->readonly && !probe_readable(s)) {
        /* a read-only WAL store needs its -shm; without a writable folder,
         * read the file as immutable (nobody can be writing it anyway) —
         * unless a -wal holds commits: immutable would not read them, and
         * the store would look older than it is */
        size_t wl = strlen(path) + 5;
        char *wal = malloc(wl);
        struct stat wst;
        bool pending = wal && snprintf(wal, wl, "%s-wal", path) > 0 && stat(wal, &wst) == 0 && wst.st_size > 0;
        free(wal);
        if (pending) {
            error_set(err, RS_ESTORE, path, 0, 0, "the store's write-ahead log (%s-wal) holds changes that cannot "
                      "be read here: its -shm is missing and the folder is read-only; open the store once where "
                      "it may be written (or copy it with its -wal to such a folder)", path);
            store_close(s);
            return RS_ESTORE;
        }
        rc = open_immutable(s);
        if (rc != SQLITE_OK) {
            rc = store_fail(s, rc, "opening the store", err);
            store_close(s);
            return rc;
        }
    }
    int v = 0;
    rc = read_version(s, &v, err);
    if (!rc) {
        if (!s->readonly && (rc = exec_sql(s, "PRAGMA foreign_keys = ON", "opening the store", err)) == RS_OK &&
            !memory)
            rc = exec_sql(s, "PRAGMA journal_mode = WAL", "opening the store", err);
        if (!rc && s->readonly)
            rc = exec_sql(s, "PRAGMA foreign_keys = ON", "opening the store", err);
        if (!rc && v < STORE_SCHEMA_VERSION)
            rc = migrate(s, v, err);
    }
    if (rc) {
        store_close(s);
        return rc;
    }
    *out = s;
    return RS_OK;
}

int store_open_read(const char *path, store_t **out, rs_error_t *err)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return error_set(err, RS_ESTORE, path, 0, 0, "no store here: %s", path);
    store_t *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    s->readonly = true;
    int rc = open_db(s, SQLITE_OPEN_READONLY);
    if (rc == SQLITE_OK) {
        sqlite3_busy_handler(s->db, busy_wait, s);
        sqlite3_extended_result_codes(s->db, 1);
    }
    rc = rc != SQLITE_OK ? store_fail(s, rc, "opening the store", err)
                         : exec_sql(s, "PRAGMA query_only = 1", "opening the store", err);
    int v = 0;
    if (!rc)
        rc = read_version(s, &v, err);
    if (!rc && v != STORE_SCHEMA_VERSION) /* an empty file, or a schema only a migration would read */
        rc = error_set(err, RS_ESTORE, path, 0, 0, "the store has schema %d; this reads %d without migrating", v,
                       STORE_SCHEMA_VERSION);
    if (rc) {
        store_close(s);
        return rc;
    }
    *out = s;
    return RS_OK;
}

void store_close(store_t *s)
{
    if (!s)
        return;
    if (s->db) {
        if (s->in_tx)
            store_rollback(s);
        sqlite3_close(s->db);
    }
    free(s->path);
    free(s);
}
