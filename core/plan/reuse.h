/* reuse: the lowering reuse cell of DESIGN §6.  One cell per search (a fit,
 * or a sweep of budgets): the first scoring handed the cell lowers and keeps
 * a private snapshot; every later one gets a private deep copy of it. */
#ifndef RS_REUSE_H
#define RS_REUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "lower.h"
#include "routine.h"

/* Who a cell belongs to, compared by pointer identity. */
typedef struct reuse_owner {
    const void *context;       /* the context (its lineage) */
    const routine_t *routine;
    const bindings_t *bindings;
    const char *name;          /* the search's name, may be NULL */
} reuse_owner_t;

typedef struct reuse_cell reuse_cell_t;

/* Called with every new cell (tests use it to see cells being made). */
typedef void (*reuse_created_fn)(reuse_cell_t *cell, void *ud);

/* A new empty cell for owner; audit: every reuse also lowers fresh and
 * compares.  NULL when out of memory.  Thread-safe to use from several
 * threads at once. */
reuse_cell_t *reuse_cell_new(const reuse_owner_t *owner, bool audit);
void reuse_cell_free(reuse_cell_t *c);

/* A private lowering for owner: lowered (and snapshotted) the first time,
 * a deep copy of the snapshot later.  The caller frees *out.  RS_EINVAL
 * when owner is not the cell's (no silent relower); RS_EAUDIT when auditing
 * finds the copy differs from a fresh lowering. */
int reuse_cell_lowering(reuse_cell_t *c, const reuse_owner_t *owner, lowering_t **out, rs_error_t *err);

/* Replaces the snapshot with l (taken over by the cell), a lowering of the
 * same routine for the same owner.  RS_EINVAL on an empty cell, a foreign
 * owner, or a lowering of another routine (l is then the caller's still). */
int reuse_cell_reseed(reuse_cell_t *c, const reuse_owner_t *owner, lowering_t *l, rs_error_t *err);

/* The snapshot, read-only; NULL while the cell is empty. */
const lowering_t *reuse_cell_snapshot(const reuse_cell_t *c);

/* This cell's counters: lowerings handed out as copies, and lowerings made. */
void reuse_cell_counters(const reuse_cell_t *c, int64_t *reused, int64_t *lowered);

/* The calling thread's counters over all cells, and their reset. */
void reuse_thread_counters(int64_t *reused, int64_t *lowered);
void reuse_thread_counters_reset(void);

/* Installs (or clears, with NULL) the created-observer hook, process-wide. */
void reuse_set_created_observer(reuse_created_fn fn, void *ud);

#endif
