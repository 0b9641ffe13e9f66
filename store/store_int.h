/* store_int: what the store's modules share (not for callers). */
#ifndef RS_STORE_INT_H
#define RS_STORE_INT_H

#include <sqlite3.h>

#include "store.h"

struct store {
    sqlite3 *db;
    char *path;
    bool readonly;
    bool in_tx;
    int (*stop)(void *ud);  /* store_set_stop's: asked while waiting for a lock */
    void *stop_ud;
    bool stopped;           /* a wait for a lock ended by stop: the next store_fail says RS_ECANCELED */
    int64_t busy_since_us;  /* the current wait for a lock began (monotonic) */
};

/* Fills err from the connection's last error, with `what` (e.g. "saving
 * the plan") and a reason people can act on (locked, full, read-only).
 * Returns RS_ESTORE (RS_ECANCELED when store_set_stop's stop ended a wait
 * for a lock). */
int store_fail(store_t *s, int rc, const char *what, rs_error_t *err);

/* Prepares sql; on failure fills err.  */
int store_prepare(store_t *s, const char *sql, sqlite3_stmt **st, rs_error_t *err);

/* Steps a statement that returns no row, then finalizes it. */
int store_exec_stmt(store_t *s, sqlite3_stmt *st, const char *what, rs_error_t *err);

/* Fails with a clear reason when the store is read-only. */
int store_require_writable(store_t *s, const char *what, rs_error_t *err);

/* Reads one row of st into elem (a zeroed slot of the result array). */
typedef void (*store_row_fn)(sqlite3_stmt *st, void *elem);

/* Runs the prepared sql (no parameters) and collects a row per result into
 * a new array *out of *n elements of elem bytes, filled by fn; `what` names
 * the reading in errors.  On error *out is freed (rows already read may hold
 * strings: call it only with fns whose rows need no freeing beyond what
 * free_row releases; free_row may be NULL). */
int store_collect(store_t *s, const char *sql, size_t elem, store_row_fn fn, void (*free_row)(void *elem),
                  void **out, int *n, const char *what, rs_error_t *err);

/* A copy of column i as a new string ("" for NULL); NULL when out of memory. */
char *store_col_text(sqlite3_stmt *st, int i);

#endif
