/* view: what the TUI draws, computed without drawing (so it is unit-tested
 * and benchmarked off-screen): the arena's cells, where the busiest buffer
 * wins a cell; the live-bytes curve per column; axis labels; and the
 * candidate statuses at any event of a fit's trace.  The SVG picture
 * (picture.c) lays out the same buffers. */
#ifndef RS_VIEW_H
#define RS_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "lower/remat.h"
#include "lower/score.h"
#include "plan/fit.h"

typedef enum view_role {
    ROLE_RESIDENT,
    ROLE_INTERMEDIATE, /* @pinned: never a candidate */
    ROLE_OUTPUT,
    ROLE_CANDIDATE,
    ROLE_REJECTED,     /* a rejected inline preference */
    ROLE_COUNT
} view_role_t;

typedef struct view_buf {
    int64_t start, end;   /* inclusive steps */
    int64_t offset, size; /* aligned size */
    int32_t node;
    uint8_t role;
} view_buf_t;

/* The materialized buffers of a scoring, with their roles (new array). */
int view_buffers(const lowering_t *l, const score_detail_t *d, view_buf_t **out, int32_t *n);

/* The buffers of a §14 scoring (remat_score's detail, new numbering): each
 * materialized node's, then the detail's copies in its order (the last
 * d->n_copies of *out), each its own buffer with its node and role (new
 * array). */
int view_buffers_remat(const lowering_t *l, const remat_detail_t *d, view_buf_t **out, int32_t *n);

typedef struct view_grid {
    int w, h;
    int64_t step0, step1;  /* columns cover [step0, step1) */
    int64_t off0, off1;    /* rows cover [off0, off1), row 0 on top */
    int32_t *cell;         /* w * h: index into the buffers, -1 when empty */
    int64_t *col_edge;     /* w + 1 step edges: column x is [col_edge[x], col_edge[x + 1]) */
    int64_t *row_edge;     /* h + 1 offset edges from the bottom: row y is [row_edge[h-1-y], row_edge[h-y]) */
} view_grid_t;

/* Aggregates buffers into a w x h grid over steps [step0, step1) and
 * offsets [off0, off1): each cell shows the buffer covering most of its
 * area (ties: the lower index).  Work is proportional to the cells the
 * buffers cover, not to the routine.  g->cell is allocated here. */
int view_grid_build(const view_buf_t *b, int32_t n, int64_t step0, int64_t step1, int64_t off0, int64_t off1, int w,
                    int h, view_grid_t *g);
void view_grid_free(view_grid_t *g);

/* Steps [a, b) of column x. */
void view_col_steps(const view_grid_t *g, int x, int64_t *a, int64_t *b);
/* The column showing step s, or -1 (the last of them when a step spans
 * several columns). */
int view_step_col(const view_grid_t *g, int64_t s);
/* The first and last columns showing step s (a step spans several columns
 * when zoomed in); false when s is outside the grid. */
bool view_step_cols(const view_grid_t *g, int64_t s, int *x0, int *x1);

/* Where the step axis puts its labels: each label names the step that
 * starts at its column, once, and labels of width label_w(step) + 1 never
 * touch.  Fills col/step with up to max labels and returns their count. */
int view_step_labels(const view_grid_t *g, int *col, int64_t *step, int max);

/* What one column is, for the header: "col = 1 step", "col = 3-4 steps",
 * "step = 29-30 cols". */
void view_scale_text(const view_grid_t *g, char *buf, size_t n);
/* The row showing offset o, or -1. */
int view_offset_row(const view_grid_t *g, int64_t o);

/* The buffers live at step (start <= step <= end), largest first (ties:
 * the lower index), into out (n entries); returns their count. */
int32_t view_live_at(const view_buf_t *b, int32_t n, int64_t step, int32_t *out);

/* Live bytes at each step 0..n_steps-1 (new array). */
int64_t *view_live_bytes(const view_buf_t *b, int32_t n, int64_t n_steps);

/* The largest live bytes in each column of g (new array of g->w). */
int64_t *view_live_columns(const view_grid_t *g, const int64_t *live, int64_t n_steps);

/* A short axis label for bytes: "0", "512", "48M", "1.5G" (at most 5 chars). */
void view_axis_bytes(int64_t v, char *buf, size_t n);
/* The same to a tenth below 100 of a unit ("35.7M"), for an axis end that
 * marks an exact value. */
void view_axis_bytes_fine(int64_t v, char *buf, size_t n);

/* Labels for n >= 2 values v[0..n) on one bytes axis, in the binary unit
 * of the largest ("1.20G" with K M G T P E, bytes below 1 KiB), each with
 * the fewest decimals that give the largest three significant digits and
 * tell every label from its neighbours (up to 6),
 * or the exact bytes when even six do not (a range of a few bytes on a
 * gigabyte axis).  labels[i] holds at most 15 characters. */
void view_axis_labels(const int64_t *v, int n, char (*labels)[16]);

/* How a buffer of a second plan differs from the first plan's buffer of
 * the same node (the two-plan arena). */
typedef enum view_diff {
    VIEW_SAME,      /* the same span, size and offset */
    VIEW_MOVED,     /* the same span and size at another offset */
    VIEW_NEW,       /* the first plan has no buffer of this node (it inlined it) */
    VIEW_EXTENDED,  /* live at a step the first plan's was not, or bigger */
    VIEW_SHORTENED, /* live at fewer steps (or smaller), nowhere more */
    VIEW_DIFF_COUNT
} view_diff_t;

/* Classifies plan b's buffers against plan a's, matched by node (the
 * caller numbers both plans' nodes alike, e.g. by name; a node has at most
 * one buffer in each list): kind[i] (nb entries, view_diff_t) for b[i].
 * *gone (a new array, *n_gone entries; NULL when none) receives what a held
 * and b does not: a buffer of a node b has no buffer for, whole, and of a
 * node b keeps, the steps of a's span outside b's span (before and after),
 * each at a's offset and size with a's node and role.  Order: a's order,
 * the earlier piece first.  RS_ENOMEM leaves nothing to free. */
int view_diff_buffers(const view_buf_t *a, int32_t na, const view_buf_t *b, int32_t nb, uint8_t *kind,
                      view_buf_t **gone, int32_t *n_gone);

/* The status of every candidate of p (indexed like p->cands) after events
 * 0..upto (inclusive; -1: before any). */
void view_statuses_at(const fit_plan_t *p, int32_t upto, uint8_t *status);

/* The nodes accepted after events 0..upto: plan flips [0, count). */
int32_t view_accepted_at(const fit_plan_t *p, int32_t upto);

/* A bytes-per-FLOP ratio in at most 7 columns, never cut: 3 significant
 * digits from 0.01 to 999 ("-252", "0.0123"), else a short exponent
 * ("-2.5e3", "3.3e-5", "-3e-12"). */
void view_ratio_text(double r, char *buf, size_t n);

#endif
