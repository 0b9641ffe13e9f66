/* store: the SQLite session store (DESIGN §8): one file, a versioned schema
 * with forward migrations, foreign keys on, WAL, a busy timeout, and every
 * multi-row write in one transaction.  Errors are RS_ESTORE with one line
 * saying what went wrong and, where it can, why. */
#ifndef RS_STORE_H
#define RS_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

#define STORE_SCHEMA_VERSION 10

typedef struct store store_t;

/* Opens (creating when missing) the store at path; NULL means the default,
 * $XDG_DATA_HOME/rematscope/session.db (else ~/.local/share/...); ":memory:"
 * is a store that lives as long as the handle.  Older schemas are migrated.
 * A store that cannot be written is opened read-only (listing works, writes
 * fail with the reason). */
int store_open(const char *path, store_t **out, rs_error_t *err);
void store_close(store_t *s);

/* Opens the existing store at path only to read it, as completion lists
 * names: SQLITE_OPEN_READONLY and query_only, so it never creates a file,
 * never migrates and never writes.  A path that is not a regular file, an
 * empty database or a schema other than STORE_SCHEMA_VERSION (older ones
 * read only once migrated) is RS_ESTORE. */
int store_open_read(const char *path, store_t **out, rs_error_t *err);

/* While stop is set, a wait for another process's lock (up to the busy
 * timeout) also ends as soon as stop(ud) returns nonzero, and what was
 * waiting fails with RS_ECANCELED ("stopped while the store was locked").
 * stop NULL: only the timeout ends it.  stop runs on the thread using s. */
void store_set_stop(store_t *s, int (*stop)(void *ud), void *ud);

/* The path the store was opened at. */
const char *store_path(const store_t *s);
bool store_readonly(const store_t *s);

/* Fills buf with the default store path (creating its directory when
 * create_dir). */
int store_default_path(char *buf, size_t n, bool create_dir, rs_error_t *err);

/* Transactions: every write of the store_* functions below must run inside
 * one; store_rollback never fails. */
int store_begin(store_t *s, rs_error_t *err);
int store_commit(store_t *s, rs_error_t *err);
void store_rollback(store_t *s);

/* The schema version of the open store. */
int store_schema_version(store_t *s);

/* The SQLite library's version as it runs ("3.40.1"), for --version. */
const char *store_sqlite_version(void);

/* For tests and tools: the underlying sqlite3 handle. */
struct sqlite3 *store_db(store_t *s);

#endif
