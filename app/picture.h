/* picture: the geometry of an arena drawn as a picture (the SVG writer in
 * svg.c emits it), computed without writing anything so it is unit-tested
 * against hand-worked values: each buffer a rectangle at its offset over
 * its span on a pixel grid, buffers under a pixel that would cover the
 * same pixels merged into one rectangle (their count and bytes kept
 * exactly), the axes' ticks, and where the peak, arena and budget lines
 * fall.  Pure: no I/O. */
#ifndef RS_PICTURE_H
#define RS_PICTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "view.h"

#define PICTURE_MAX_ROLES 8
/* The plot's margins in pixels: byte labels on the left, the title on top,
 * the step labels, the axis names and the legend (two roles a row) below. */
#define PICTURE_LEFT 96
#define PICTURE_RIGHT 24
#define PICTURE_TOP 68
#define PICTURE_BOTTOM_AXIS 64
#define PICTURE_LEGEND_ROW 20
#define PICTURE_FOOTER 28
/* The zoomed inset right of the plot, when the peak step is narrower than
 * PICTURE_INSET_STEP_PX in the whole plot: PICTURE_INSET_STEPS steps
 * around it in PICTURE_INSET_W pixels (a 2 TiB buffer over 3 of 10,000
 * steps was under a pixel, hidden by the peak line). */
#define PICTURE_INSET_W 300
#define PICTURE_INSET_GAP 40
#define PICTURE_INSET_STEP_PX 24
#define PICTURE_INSET_STEPS 11

typedef struct picture_frame {
    int32_t width_px, height_px; /* the whole picture */
    int64_t step0, step1;        /* steps shown: [step0, step1) */
    int64_t total;               /* the arena's high-water mark: a line */
    int64_t budget;              /* a line; -1 none */
    int64_t peak_step;           /* a line where it is in [step0, step1); -1 none */
    int n_roles;                 /* roles of the buffers: 0 .. n_roles - 1 */
    int32_t plot_x, plot_w;      /* the plot's columns; plot_w 0: the width less the margins */
} picture_frame_t;

typedef struct picture_rect {
    int32_t x, y, w, h; /* pixels, y down; w, h >= 1 */
    int32_t buf;        /* the buffer drawn, or the first (lowest index) of those merged */
    int32_t count;      /* buffers it draws: > 1 when merged under a pixel */
    int64_t bytes;      /* their sizes summed */
    uint8_t role;       /* merged buffers share it */
} picture_rect_t;

typedef struct picture_tick {
    int32_t pos;   /* x for steps, y for bytes */
    int64_t value; /* a step, or bytes */
} picture_tick_t;

typedef struct picture {
    int32_t plot_x, plot_y, plot_w, plot_h; /* the plot area */
    int64_t top;                  /* bytes at the plot's top edge: the last byte tick */
    picture_rect_t *rects;
    int32_t n_rects;
    picture_tick_t xticks[32], yticks[32];
    int n_xticks, n_yticks;
    int64_t ystep;                /* bytes between byte ticks: a power of two */
    int32_t peak_x;               /* the peak step's middle; -1 outside the window */
    int32_t total_y, budget_y;    /* -1: none */
    int32_t drawn;                /* buffers drawn (size > 0, live in the window, below the top) */
    int32_t merged;               /* of them, those sharing a rectangle */
    int32_t role_count[PICTURE_MAX_ROLES]; /* buffers live in the window, 0 B ones too */
    int64_t role_bytes[PICTURE_MAX_ROLES];
} picture_t;

/* Lays bufs[0..n) (sizes aligned, spans inclusive) out on the frame.  The
 * plot is the picture less the margins (the legend takes one row for every
 * two roles, then the footer).  Byte ticks step by the smallest power of
 * two that needs at most 8 intervals to reach max(total, budget, 1), and
 * the last of them is the plot's top; step ticks by 1, 2 or
 * 5 times a power of ten, at most 10 intervals.  Step s starts at x =
 * plot_x + floor((s - step0) * plot_w / steps) and offset o at y = plot_y +
 * plot_h - floor(o * plot_h / top).  A buffer's rectangle runs between the
 * edges of its first and one-past-last steps (clipped to the window) and
 * of its offset and end, widened to one pixel where they meet.  A buffer
 * is under a pixel when its exact width or height is below one; those
 * with the same role and the same rectangle are one rectangle, listed
 * where the lowest-indexed of them is.  Rectangles come in buffer order.
 * RS_EINVAL for a frame too small for a plot or a role out of range,
 * RS_ENOMEM; free with picture_free (also after an error). */
int picture_build(const view_buf_t *bufs, int32_t n, const picture_frame_t *f, picture_t *out);

/* Whether f's picture gets the zoomed inset (its peak step in [step0,
 * step1) is under PICTURE_INSET_STEP_PX wide in the whole plot) and its
 * two frames: *main is f with its plot narrowed by PICTURE_INSET_W +
 * PICTURE_INSET_GAP, *inset the PICTURE_INSET_STEPS steps centred on the
 * peak (shifted to lie inside f's steps) in the PICTURE_INSET_W columns
 * right of it; both keep f's height, total and budget, so a buffer lies at
 * the same y in each.  False, and nothing set, when there is none. */
bool picture_inset(const picture_frame_t *f, picture_frame_t *main, picture_frame_t *inset);
void picture_free(picture_t *p);

#endif
