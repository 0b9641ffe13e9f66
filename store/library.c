#include "library.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/hlo.h"
#include "store_int.h"
#include "util/utf8.h"
#include "util/vec.h"

void library_hash(const char *text, size_t len, char out[33])
{
    /* two independent 64-bit FNV-1a streams: 128 bits against accidental
     * collisions between versions of one routine */
    uint64_t a = 1469598103934665603ull, b = 0x84222325cbf29ce4ull;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        a = (a ^ c) * 1099511628211ull;
        b = (b ^ (unsigned char)(c + 0x5b)) * 0x100000001b3ull + (uint64_t)i;
    }
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

int library_routine_put(store_t *s, const char *name, const char *source, size_t len, const char *path,
                        int32_t steps, int32_t nodes, int64_t *id, int32_t *version, bool *was_new, rs_error_t *err)
{
    char hash[33];
    library_hash(source, len, hash);
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT id, version FROM routines WHERE name = ?1 AND hash = ?2", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        *version = sqlite3_column_int(st, 1);
        *was_new = false;
        sqlite3_finalize(st);
        return RS_OK;
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE)
        return store_fail(s, step, "reading routines", err);
    if ((rc = store_prepare(s,
                            "INSERT INTO routines(name, version, source, hash, path, steps, nodes, imported_at, kind) "
                            "VALUES(?1, (SELECT coalesce(max(version), 0) + 1 FROM routines WHERE name = ?1), "
                            "?2, ?3, ?4, ?5, ?6, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?7)",
                            &st, err)))
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, source, (int)len, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, hash, -1, SQLITE_TRANSIENT);
    if (path)
        sqlite3_bind_text(st, 4, path, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 5, steps);
    sqlite3_bind_int(st, 6, nodes);
    sqlite3_bind_text(st, 7, hlo_sniff(source, len) ? "hlo" : "routine", -1, SQLITE_STATIC);
    if ((rc = store_exec_stmt(s, st, "saving the routine", err)))
        return rc;
    *id = sqlite3_last_insert_rowid(store_db(s));
    *was_new = true;
    if ((rc = store_prepare(s, "SELECT version FROM routines WHERE id = ?1", &st, err)))
        return rc;
    sqlite3_bind_int64(st, 1, *id);
    *version = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 1;
    sqlite3_finalize(st);
    return RS_OK;
}

int library_routine_put_own(store_t *s, const char *name, const char *source, size_t len, const char *path,
                            int32_t steps, int32_t nodes, int64_t *id, int32_t *version, bool *was_new,
                            char **stored_as, rs_error_t *err)
{
    *stored_as = NULL;
    char hash[33];
    library_hash(source, len, hash);
    sqlite3_stmt *st;
    /* under its own name first; else the first row that holds the text */
    int rc = store_prepare(s,
                           "SELECT id, version, name FROM routines WHERE hash = ?1 "
                           "ORDER BY name = ?2 DESC, id LIMIT 1",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 2), name) != 0) {
        *id = sqlite3_column_int64(st, 0);
        *version = sqlite3_column_int(st, 1);
        *was_new = false;
        *stored_as = store_col_text(st, 2);
        sqlite3_finalize(st);
        return *stored_as ? RS_OK : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    sqlite3_finalize(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return store_fail(s, step, "reading routines", err);
    return library_routine_put(s, name, source, len, path, steps, nodes, id, version, was_new, err);
}

int library_routine_path(store_t *s, const char *name, int32_t version, char **path, bool *found, rs_error_t *err)
{
    *path = NULL;
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT coalesce(path, '') FROM routines WHERE name = ?1 AND version = ?2", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, version);
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW;
    if (*found && !(*path = store_col_text(st, 0)))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    sqlite3_finalize(st);
    return rc ? rc : step == SQLITE_ROW || step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading routines", err);
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

bool library_name_is_file(const char *name)
{
    size_t n = strlen(name);
    return ends_with(name, n, ".routine") || ends_with(name, n, ".hlo");
}

/* The one rule for a routine's name (import --name, the Session
 * screen's rename): what a table, a terminal and a command line show as it
 * is.  So no byte a terminal acts on (C0, DEL, C1 controls: U+009B is CSI),
 * none that is not UTF-8, no blank (it splits a command line), no '/'. */
int library_routine_name_check(const char *name, const char *what, rs_error_t *err)
{
    static const char RULE[] = "a name is 1 to 127 bytes of UTF-8 without blanks, control characters or '/', not "
                               "ending in .routine or .hlo (those read as files)";
    size_t n = strlen(name);
    char why[96] = "";
    if (n == 0)
        snprintf(why, sizeof why, "is empty");
    else if (n > 127)
        snprintf(why, sizeof why, "has %zu bytes", n);
    else if (library_name_is_file(name))
        snprintf(why, sizeof why, "ends in .routine or .hlo");
    for (size_t i = 0, len; i < n && !why[0]; i += len) {
        unsigned char c = (unsigned char)name[i];
        len = utf8_seq_len(name + i, n - i);
        if (len == 0)
            snprintf(why, sizeof why, "has a byte that is not UTF-8 (0x%02x) at byte %zu", c, i + 1);
        else if (c == ' ')
            snprintf(why, sizeof why, "has a blank at byte %zu", i + 1);
        else if (c < ' ' || c == 0x7f)
            snprintf(why, sizeof why, "has a control character (0x%02x) at byte %zu", c, i + 1);
        else if (utf8_is_c1(name + i, len))
            snprintf(why, sizeof why, "has a control character (U+%04X) at byte %zu",
                     (unsigned)(((c & 0x1f) << 6) | ((unsigned char)name[i + 1] & 0x3f)), i + 1);
        else if (c == '/')
            snprintf(why, sizeof why, "has a '/' at byte %zu", i + 1);
    }
    if (why[0])
        return error_set(err, RS_EINPUT, what, 0, 0, "'%.40s%s' %s: %s", name, n > 40 ? "..." : "", why, RULE);
    return RS_OK;
}

/* How many rows of routines have name. */
static int count_named(store_t *s, const char *name, int *n, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT count(*) FROM routines WHERE name = ?1", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    *n = step == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? RS_OK : store_fail(s, step, "reading routines", err);
}

int library_routine_rename(store_t *s, const char *from, const char *to, const char *path, int *renamed,
                           rs_error_t *err)
{
    *renamed = 0;
    int taken;
    int rc = library_routine_name_check(to, "rename", err);
    if (!rc)
        rc = count_named(s, to, &taken, err);
    if (rc)
        return rc;
    if (taken)
        return error_set(err, RS_EINPUT, "rename", 0, 0, "a routine named '%s' is stored already", to);
    sqlite3_stmt *sel, *up;
    if ((rc = store_prepare(s, "SELECT id FROM routines WHERE name = ?1 AND (?2 IS NULL OR coalesce(path, '') = ?2) "
                               "ORDER BY version",
                            &sel, err)))
        return rc;
    if ((rc = store_prepare(s, "UPDATE routines SET name = ?2, version = ?3 WHERE id = ?1", &up, err))) {
        sqlite3_finalize(sel);
        return rc;
    }
    sqlite3_bind_text(sel, 1, from, -1, SQLITE_TRANSIENT);
    if (path)
        sqlite3_bind_text(sel, 2, path, -1, SQLITE_TRANSIENT);
    /* the rows first, then the updates: a statement that changes the rows
     * its own query walks may see them again */
    int64_t *ids = NULL;
    int n = 0, step;
    int32_t cap = 0;
    while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
        if (vec_reserve((void **)&ids, &cap, (int64_t)n + 1, sizeof *ids)) {
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        ids[n++] = sqlite3_column_int64(sel, 0);
    }
    if (!rc && step != SQLITE_DONE)
        rc = store_fail(s, step, "reading routines", err);
    sqlite3_finalize(sel);
    for (int i = 0; !rc && i < n; i++) {
        sqlite3_reset(up);
        sqlite3_bind_int64(up, 1, ids[i]);
        sqlite3_bind_text(up, 2, to, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(up, 3, i + 1);
        int u = sqlite3_step(up);
        if (u != SQLITE_DONE)
            rc = store_fail(s, u, "renaming the routine", err);
        else
            ++*renamed;
    }
    sqlite3_finalize(up);
    free(ids);
    if (!rc && !*renamed)
        rc = error_set(err, RS_EINPUT, "rename", 0, 0, "no routine named '%s'%s", from, path ? " from that file" : "");
    return rc;
}

/* Settings live in meta beside its 'app' row, under "session." keys. */
int library_setting_get(store_t *s, const char *key, char **value, rs_error_t *err)
{
    *value = NULL;
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT value FROM meta WHERE key = 'session.' || ?1", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW && !(*value = store_col_text(st, 0)))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    sqlite3_finalize(st);
    return rc ? rc : step == SQLITE_ROW || step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading a setting", err);
}

int library_setting_set(store_t *s, const char *key, const char *value, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "INSERT OR REPLACE INTO meta(key, value) VALUES('session.' || ?1, ?2)", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
    return store_exec_stmt(s, st, "saving a setting", err);
}

static int read_source(store_t *s, sqlite3_stmt *st, int64_t *id, char **source, size_t *len, char **other,
                       bool *found, rs_error_t *err)
{
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW;
    if (step != SQLITE_ROW) {
        sqlite3_finalize(st);
        return step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading a routine", err);
    }
    if (id)
        *id = sqlite3_column_int64(st, 0);
    int n = sqlite3_column_bytes(st, 1);
    const void *blob = sqlite3_column_text(st, 1);
    *source = malloc((size_t)n + 1);
    if (other)
        *other = store_col_text(st, 2);
    if (!*source || (other && !*other)) {
        sqlite3_finalize(st);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    memcpy(*source, blob, (size_t)n);
    (*source)[n] = 0;
    *len = (size_t)n;
    sqlite3_finalize(st);
    return RS_OK;
}

int library_routine_find(store_t *s, const char *name, int64_t *id, char **source, size_t *len, char **path,
                         bool *found, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT id, source, path FROM routines WHERE name = ?1 ORDER BY version DESC LIMIT 1",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    return read_source(s, st, id, source, len, path, found, err);
}

int library_routine_source(store_t *s, int64_t id, char **source, size_t *len, char **name, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT id, source, name FROM routines WHERE id = ?1", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    bool found;
    rc = read_source(s, st, NULL, source, len, name, &found, err);
    if (!rc && !found)
        rc = error_set(err, RS_ESTORE, store_path(s), 0, 0, "routine %lld is missing from the store", (long long)id);
    return rc;
}

static void routine_row(sqlite3_stmt *st, void *elem)
{
    routine_row_t *r = elem;
    r->id = sqlite3_column_int64(st, 0);
    r->name = store_col_text(st, 1);
    r->version = sqlite3_column_int(st, 2);
    r->steps = sqlite3_column_int(st, 3);
    r->nodes = sqlite3_column_int(st, 4);
    r->hash = store_col_text(st, 5);
    r->path = store_col_text(st, 6);
    r->imported_at = store_col_text(st, 7);
    r->kind = store_col_text(st, 8);
    r->xla_bytes = sqlite3_column_int64(st, 9);
}

int library_routine_set_xla(store_t *s, int64_t id, int64_t bytes, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "UPDATE routines SET xla_bytes = ?2 WHERE id = ?1", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, bytes);
    return store_exec_stmt(s, st, "saving XLA's figure", err);
}

int library_routine_xla(store_t *s, const char *name, int64_t *bytes, rs_error_t *err)
{
    sqlite3_stmt *st;
    *bytes = -1;
    int rc = store_prepare(s, "SELECT coalesce(xla_bytes, -1) FROM routines WHERE name = ?1 ORDER BY version DESC LIMIT 1",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW)
        *bytes = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return RS_OK;
}

void library_routine_row_free(routine_row_t *r)
{
    free(r->name);
    free(r->hash);
    free(r->kind);
    free(r->path);
    free(r->imported_at);
}

static void routine_row_free(void *elem) { library_routine_row_free(elem); }

int library_routine_list(store_t *s, routine_row_t **rows, int *n, rs_error_t *err)
{
    return store_collect(s,
                         "SELECT id, name, version, steps, nodes, hash, coalesce(path, ''), imported_at, kind, "
                         "coalesce(xla_bytes, -1) FROM routines ORDER BY name, version",
                         sizeof **rows, routine_row, routine_row_free, (void **)rows, n, "listing routines", err);
}

void library_routine_rows_free(routine_row_t *rows, int n)
{
    for (int i = 0; i < n; i++)
        library_routine_row_free(&rows[i]);
    free(rows);
}

static const char PROFILE_UPSERT[] =
    "INSERT INTO profiles(name, memory_bytes, alignment, max_inline_depth, flops_per_s, "
    "bytes_per_s) VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(name) DO UPDATE SET "
    "memory_bytes = ?2, alignment = ?3, max_inline_depth = ?4, flops_per_s = ?5, "
    "bytes_per_s = ?6";

static void bind_profile(sqlite3_stmt *st, const profile_t *p)
{
    sqlite3_bind_text(st, 1, p->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, p->memory_bytes);
    sqlite3_bind_int64(st, 3, p->alignment);
    sqlite3_bind_int(st, 4, p->max_inline_depth);
    sqlite3_bind_int64(st, 5, p->flops_per_s);
    sqlite3_bind_int64(st, 6, p->bytes_per_s);
}

int library_profile_put(store_t *s, const profile_t *p, int64_t *id, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, PROFILE_UPSERT, &st, err);
    if (rc)
        return rc;
    bind_profile(st, p);
    if ((rc = store_exec_stmt(s, st, "saving a profile", err)))
        return rc;
    bool found;
    profile_t tmp;
    return library_profile_find(s, p->name, &tmp, id, &found, err);
}

int library_profiles_put(store_t *s, const profile_t *p, int32_t n, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, PROFILE_UPSERT, &st, err);
    for (int32_t i = 0; !rc && i < n; i++) {
        bind_profile(st, &p[i]);
        int step = sqlite3_step(st);
        if (step != SQLITE_DONE)
            rc = store_fail(s, step, "saving a profile", err);
        sqlite3_reset(st);
    }
    if (st)
        sqlite3_finalize(st);
    return rc;
}

static void profile_from_row(sqlite3_stmt *st, profile_t *p)
{
    memset(p, 0, sizeof *p);
    const unsigned char *name = sqlite3_column_text(st, 1);
    snprintf(p->name, sizeof p->name, "%s", name ? (const char *)name : "");
    p->memory_bytes = sqlite3_column_int64(st, 2);
    p->alignment = sqlite3_column_int64(st, 3);
    p->max_inline_depth = sqlite3_column_int(st, 4);
    p->flops_per_s = sqlite3_column_int64(st, 5);
    p->bytes_per_s = sqlite3_column_int64(st, 6);
}

#define PROFILE_COLS "id, name, memory_bytes, alignment, max_inline_depth, flops_per_s, bytes_per_s"

int library_profile_find(store_t *s, const char *name, profile_t *out, int64_t *id, bool *found, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT " PROFILE_COLS " FROM profiles WHERE name = ?1", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW;
    if (*found) {
        profile_from_row(st, out);
        if (id)
            *id = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading profiles", err);
}

static void profile_row(sqlite3_stmt *st, void *elem) { profile_from_row(st, elem); }

int library_profile_list(store_t *s, profile_t **out, int *n, rs_error_t *err)
{
    return store_collect(s, "SELECT " PROFILE_COLS " FROM profiles ORDER BY memory_bytes DESC, name", sizeof **out,
                         profile_row, NULL, (void **)out, n, "listing profiles", err);
}

int library_layout_put(store_t *s, const char *name, const char *path, const minimalloc_problem_t *p, bool *was_new,
                       rs_error_t *err)
{
    /* the hash covers the buffers as read, so reformatting the CSV is no change */
    char hash[33];
    size_t cap = (size_t)p->n * 64 + 1, w = 0;
    char *canon = malloc(cap);
    if (!canon)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; i < p->n; i++)
        w += (size_t)snprintf(canon + w, cap - w, "%lld,%lld,%lld;", (long long)p->bufs[i].start,
                              (long long)p->bufs[i].end, (long long)p->bufs[i].size);
    library_hash(canon, w, hash);
    free(canon);
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT id FROM layouts WHERE name = ?1 AND hash = ?2", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    *was_new = step != SQLITE_ROW;
    if (!*was_new)
        return RS_OK;
    if ((rc = store_prepare(s,
                            "INSERT INTO layouts(name, hash, path, n_buffers, imported_at) "
                            "VALUES(?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                            &st, err)))
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, path, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, p->n);
    if ((rc = store_exec_stmt(s, st, "saving a layout problem", err)))
        return rc;
    int64_t id = sqlite3_last_insert_rowid(store_db(s));
    if ((rc = store_prepare(s, "INSERT INTO layout_buffers VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &st, err)))
        return rc;
    for (int32_t i = 0; i < p->n && !rc; i++) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, p->ids[i], -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, p->bufs[i].start);
        sqlite3_bind_int64(st, 5, p->bufs[i].end + 1);
        sqlite3_bind_int64(st, 6, p->bufs[i].size);
        int r = sqlite3_step(st);
        if (r != SQLITE_DONE)
            rc = store_fail(s, r, "saving a layout problem", err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

static void layout_row(sqlite3_stmt *st, void *elem)
{
    layout_row_t *r = elem;
    r->id = sqlite3_column_int64(st, 0);
    r->name = store_col_text(st, 1);
    r->n_buffers = sqlite3_column_int(st, 2);
    r->path = store_col_text(st, 3);
    r->imported_at = store_col_text(st, 4);
}

static void layout_row_free(void *elem)
{
    layout_row_t *r = elem;
    free(r->name);
    free(r->path);
    free(r->imported_at);
}

int library_layout_list(store_t *s, layout_row_t **rows, int *n, rs_error_t *err)
{
    return store_collect(s,
                         "SELECT id, name, n_buffers, coalesce(path, ''), imported_at FROM layouts ORDER BY name, id",
                         sizeof **rows, layout_row, layout_row_free, (void **)rows, n, "listing layouts", err);
}

void library_layout_rows_free(layout_row_t *rows, int n)
{
    for (int i = 0; i < n; i++)
        layout_row_free(&rows[i]);
    free(rows);
}

int library_layout_get(store_t *s, const char *name, minimalloc_problem_t *out, bool *found, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "SELECT b.ext_id, b.lower, b.upper, b.size FROM layout_buffers b WHERE b.layout_id = "
                           "(SELECT max(id) FROM layouts WHERE name = ?1) ORDER BY b.seq",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *id = sqlite3_column_text(st, 0);
        arena_buf_t b = { sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2) - 1 };
        if (minimalloc_add(out, id ? (const char *)id : "", b, false, 0)) {
            sqlite3_finalize(st);
            minimalloc_free(out);
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    sqlite3_finalize(st);
    *found = out->n > 0;
    return step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading a layout problem", err);
}
