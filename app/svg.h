/* svg: an arena as an SVG picture to share: buffers at their offsets over
 * their spans coloured by role, the arena, peak and budget lines, axes in
 * steps and bytes, a legend with each role's exact count and bytes, and
 * every buffer's name, size, span and offset as a <title> (a browser shows
 * it on hover).  The geometry is picture.c's; this file only writes it. */
#ifndef RS_SVG_H
#define RS_SVG_H

#include <stdint.h>

#include "lower/score.h"
#include "model/routine.h"
#include "picture.h"
#include "plans.h"
#include "store.h"
#include "view.h"
#include "util/error.h"

/* The size every front end writes (the plot is what the margins leave). */
#define SVG_WIDTH 1200
#define SVG_HEIGHT 800

typedef struct svg_role {
    const char *name;
    const char *fill; /* "#rrggbb" */
} svg_role_t;

/* The roles the TUI draws (view_role_t order), in the default theme's hues
 * darkened to read on white. */
extern const svg_role_t SVG_ARENA_ROLES[ROLE_COUNT];
/* Buffers of a plain layout problem, which have no role. */
extern const svg_role_t SVG_PLAIN_ROLE[1];

typedef struct svg_arena {
    const char *title;    /* the heading, e.g. "mlp_step: greedy layout" */
    const char *subtitle; /* a second line, may be NULL */
    const view_buf_t *bufs;
    int32_t n;
    /* The name of node (view_buf_t.node); ud is passed through. */
    const char *(*name)(const void *ud, int32_t node);
    const void *ud;
    picture_frame_t frame; /* frame.n_roles roles, described by roles */
    const svg_role_t *roles;
    int64_t live_peak;     /* the max-live bound, labelled on the peak line */
    /* More about node for its hover title (e.g. donation), "" for nothing;
     * NULL when there is never more. */
    const char *(*note)(const void *ud, int32_t node, char *buf, size_t n);
} svg_arena_t;

/* Fills a for the arena of a scored routine: bufs from view_buffers over
 * steps steps, named after r's nodes (noting what donation did to each), the arena roles, the whole routine
 * in SVG_WIDTH x SVG_HEIGHT with fp's total, peak step and max live, no
 * budget line.  The caller sets the title and may narrow the steps or add
 * a budget. */
void svg_routine_arena(svg_arena_t *a, const routine_t *r, const view_buf_t *bufs, int32_t n, int64_t steps,
                       const footprint_t *fp);

typedef struct svg_stats {
    int32_t drawn, rects, merged; /* as in picture_t */
} svg_stats_t;

/* Writes a's picture to path through wfile_open: never over the session
 * store at store (NULL: the default location) or its -wal/-shm, and whole
 * (a temporary file renamed into place); names are made safe for XML (control bytes and invalid UTF-8 shown
 * escaped, markup characters as entities).  stats may be NULL.  RS_EINPUT
 * naming path when it cannot be written, RS_EINVAL for a frame too small,
 * RS_ENOMEM. */
int svg_write_arena(const svg_arena_t *a, const char *path, const char *store, svg_stats_t *stats, rs_error_t *err);

/* Writes the final arena of stored plan p (re-scored from store s, see
 * export_plan_arena) with its budget line, headed by the plan's id, label,
 * routine, budget, flips and context; path is never s's file.  Errors as export_plan_arena's and
 * svg_write_arena's. */
int svg_write_plan(store_t *s, const stored_plan_t *p, const char *path, svg_stats_t *stats, rs_error_t *err);

#endif
