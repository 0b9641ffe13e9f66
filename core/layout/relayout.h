/* relayout: the greedy layout of DESIGN §3 kept up to date as buffers
 * change, exactly.  A reference layout (relayout_t) holds a set of buffers
 * with their §3 offsets; a scoring hands it another set of the same ids
 * (a few gone, a few with other spans or sizes, a few new) and gets the
 * layout the greedy would make of that set from scratch — the same offsets
 * and height, byte for byte — by re-placing only the buffers whose
 * conflicting placements changed and copying the rest.
 *
 * Why it is exact: the greedy places buffers in a fixed order, and a
 * buffer's offset is a function of the union of [offset, offset + size) of
 * the conflicting buffers placed before it.  The reference keeps, for each
 * buffer, that union with a small cover count (how many buffers cover each
 * piece, exactly up to 2, "at least 2" above), so a change tells whether
 * the union moved without visiting the buffers behind it.  A buffer whose
 * union did not change keeps its offset; one re-placed where it was stops
 * the cascade.  When too much moves it lays out from scratch instead.
 *
 * A reference is read-only to scorings (several threads may score against
 * one at once, each with its own relayout_work_t); relayout_rebase makes a
 * work's last scoring the reference.  Only the greedy has this path. */
#ifndef RS_RELAYOUT_H
#define RS_RELAYOUT_H

#include <stdint.h>

#include "layout/arena.h"
#include "util/error.h"

typedef struct relayout relayout_t;
typedef struct relayout_work relayout_work_t;

/* What a scoring did: buffers re-placed from their cover counts, laid out
 * from their conflicts, and whether it fell back to the full layout. */
typedef struct relayout_stats {
    int64_t scorings, full;     /* scorings made; those laid out from scratch */
    int64_t checked, enumerated, moved;
    int64_t unknown, gave_up, too_many, deltas;
    int64_t engines;            /* layout engines made (the first, and when a start was new) */
} relayout_stats_t;

/* A reference over ids 0..n-1: id i is a buffer when present[i] (present
 * NULL: all are), bufs[i] its size (before alignment) and inclusive span.
 * Lays them out with the §3 greedy.  RS_EINPUT when a size or the arena
 * overflows (the message bestfit gives). */
int relayout_new(const arena_buf_t *bufs, const uint8_t *present, int32_t n, int64_t alignment, relayout_t **out,
                 rs_error_t *err);
/* relayout_new with the §3 offsets and height of this set already made
 * (off[i] for every present i: a layout from scratch of the same
 * buffers), which are taken, not laid out again. */
int relayout_new_placed(const arena_buf_t *bufs, const uint8_t *present, int32_t n, int64_t alignment,
                        const int64_t *off, int64_t height, relayout_t **out, rs_error_t *err);
void relayout_free(relayout_t *r);

/* The reference's height and offsets (out[i] for every present i, -1 for
 * the others). */
int64_t relayout_height(const relayout_t *r);
void relayout_ref_offsets(const relayout_t *r, int64_t *out);

/* A workspace for one thread's scorings against references of n ids. */
int relayout_work_new(int32_t n, relayout_work_t **out, rs_error_t *err);
void relayout_work_free(relayout_work_t *w);

/* Lays out the set (bufs, present) over the reference's ids exactly as the
 * §3 greedy would from scratch, into w: *height is its high-water mark.
 * The reference is not changed. */
int relayout_run(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                 int64_t *height, rs_error_t *err);

/* relayout_run with budget units of work (a delta handed on, a placement
 * visited: some 10-20 ns each) before it lays out from scratch instead;
 * INT64_MAX: only when too much changed.  The same result either way
 * (tests force both paths with it). */
int relayout_run_budget(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                        int64_t budget, int64_t *height, rs_error_t *err);

/* The offsets of w's last run: out[i] for every present i, -1 otherwise. */
void relayout_offsets(const relayout_t *r, const relayout_work_t *w, int64_t *out);

/* The ids w's last run found changed (present, size or span differ from
 * the reference), valid until w runs again. */
const int32_t *relayout_changed(const relayout_work_t *w, int32_t *n);

/* Before a scoring against r by its owner (not while other threads score
 * against it): a reference a rebase left without profiles (after a run
 * that gave up; its runs lay out from scratch) makes them when it is
 * scored again and again.  The results are the same either way. */
int relayout_prepare(relayout_t *r, rs_error_t *err);

/* Makes w's last run (against r as it is now) the reference.  RS_EINVAL
 * when w's last run was against another reference or version of r. */
int relayout_rebase(relayout_t *r, relayout_work_t *w, rs_error_t *err);

/* Counts over every run of w. */
void relayout_work_stats(const relayout_work_t *w, relayout_stats_t *out);

#endif
