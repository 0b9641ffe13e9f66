/* reuse: the lowering reuse cell of DESIGN §6.  One cell per search (a fit,
 * or a sweep of budgets), created empty: the first scoring handed the cell
 * calls the lowering function it brings (a thunk) and the cell keeps a
 * private snapshot of the result, with the resolved routine name, under
 * that scoring's owner; every later scoring gets a private deep copy.
 *
 * Counters are process-wide (every thread's scorings, atomics).  The audit
 * and the created-observer are scoped: each holds while its body runs, on
 * the calling thread and on the worker threads the body's search starts
 * (they run under reuse_with_scope), and scopes nest. */
#ifndef RS_REUSE_H
#define RS_REUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "lower/lower.h"
#include "model/routine.h"
#include "util/error.h"

/* Who a cell belongs to, compared by pointer identity. */
typedef struct reuse_owner {
    const void *context;       /* the context (its lineage) */
    const routine_t *routine;
    const bindings_t *bindings;
    const char *name;          /* the search's name, may be NULL */
} reuse_owner_t;

typedef struct reuse_cell reuse_cell_t;

/* The lowering function a scoring hands the cell: lowers into *out (the
 * caller of the thunk owns it) and points *name at the resolved routine
 * name, which needs to live only until the thunk's caller copies it. */
typedef struct reuse_thunk {
    int (*lower)(void *ud, lowering_t **out, const char **name, rs_error_t *err);
    void *ud;
} reuse_thunk_t;

/* An audit check: a copy of the reused lowering and a fresh one, both
 * freed by the cell when the check returns.  Called from whichever thread
 * scores, so from several at once under a multi-threaded search. */
typedef void (*reuse_audit_fn)(void *ud, const lowering_t *reused, const lowering_t *fresh);

/* A created-observer: called with each new cell, on the creating thread. */
typedef void (*reuse_created_fn)(void *ud, reuse_cell_t *cell);

/* A scope body; its return value is the scope's. */
typedef int (*reuse_body_fn)(void *ud);

/* A new empty cell (no owner until it is first filled), reported to the
 * created-observer in scope.  NULL when out of memory.  Thread-safe to use
 * from several threads at once. */
reuse_cell_t *reuse_cell_new(void);
void reuse_cell_free(reuse_cell_t *c);

/* A private lowering for owner, *out for the caller to free.  On an empty
 * cell: calls lower once (under the cell's lock, so racing first scorings
 * do not lower twice), keeps a private copy as the snapshot with the name
 * lower resolved, and records owner.  On a filled cell: owner must be the
 * recorded one (pointer identity; RS_EINVAL otherwise, never a silent
 * relower), and *out is a deep copy of the snapshot; under an audit scope
 * lower is ALSO called and the check gets a copy of the snapshot and the
 * fresh lowering, after which the scoring proceeds with *out.  *name (when
 * name is not NULL) points at the snapshot's resolved name, valid while the
 * cell lives.  lower runs under the cell's lock the first time: it must not
 * use this cell itself. */
int reuse_cell_lowering(reuse_cell_t *c, const reuse_owner_t *owner, const reuse_thunk_t *lower, lowering_t **out,
                        const char **name, rs_error_t *err);

/* Replaces the snapshot with l (taken over by the cell), a lowering of the
 * same routine for the same owner; the name stays.  RS_EINVAL on an empty
 * cell, a foreign owner, or a lowering of another routine (l is then the
 * caller's still). */
int reuse_cell_reseed(reuse_cell_t *c, const reuse_owner_t *owner, lowering_t *l, rs_error_t *err);

/* The snapshot, read-only; NULL while the cell is empty. */
const lowering_t *reuse_cell_snapshot(const reuse_cell_t *c);

/* This cell's counters: lowerings handed out as copies, and lowerings made
 * by filling it (0 or 1).  A plan records its own search's counts from it. */
void reuse_cell_counters(const reuse_cell_t *c, int64_t *reused, int64_t *lowered);

/* The process's counters, over every cell and thread since it started. */
void reuse_counters(int64_t *reused, int64_t *lowered);

/* Runs body with check as the audit of every reuse made while it runs, on
 * this thread and on the workers its searches start; check NULL turns
 * auditing off inside.  The enclosing audit is back when body returns. */
int reuse_with_audit(reuse_audit_fn check, void *check_ud, reuse_body_fn body, void *body_ud);

/* Runs body with fn called for each cell created while it runs (on this
 * thread and its searches' workers); the enclosing observer is back after. */
int reuse_with_created_observer(reuse_created_fn fn, void *fn_ud, reuse_body_fn body, void *body_ud);

/* The calling thread's scope, for a search to hand the threads it starts;
 * valid until the body that made it returns (the search joins its workers
 * before that).  NULL when no scope holds. */
typedef struct reuse_scope reuse_scope_t;
const reuse_scope_t *reuse_scope_current(void);

/* Runs body under scope (a worker inheriting its caller's), restoring the
 * thread's own afterwards. */
int reuse_with_scope(const reuse_scope_t *scope, reuse_body_fn body, void *ud);

#endif
