#include "picture.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct box {
    int32_t x, y, w, h;
    int32_t buf;
    uint8_t role;
} box_t;

static int32_t step_x(const picture_t *p, const picture_frame_t *f, int64_t s)
{
    return p->plot_x + (int32_t)((__int128)(s - f->step0) * p->plot_w / (f->step1 - f->step0));
}

static int32_t offset_y(const picture_t *p, int64_t o)
{
    return p->plot_y + p->plot_h - (int32_t)((__int128)o * p->plot_h / p->top);
}

static int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* The byte ticks: the smallest power of two with at most 8 intervals up to
 * max, so the labels are whole KiB, MiB, ... and the top is one of them. */
static void byte_ticks(picture_t *p, int64_t max)
{
    int64_t step = 1;
    while (ceil_div(max, step) > 8)
        step *= 2;
    int64_t k = ceil_div(max, step);
    __int128 top = (__int128)k * step;
    p->ystep = step;
    p->top = top > INT64_MAX ? INT64_MAX : (int64_t)top;
    p->n_yticks = 0;
    for (int64_t i = 0; i <= k && (__int128)i * step <= p->top; i++)
        p->yticks[p->n_yticks++] = (picture_tick_t){ offset_y(p, i * step), i * step };
}

/* The step ticks: 1, 2 or 5 times a power of ten, at most 10 intervals. */
static void step_ticks(picture_t *p, const picture_frame_t *f)
{
    int64_t steps = f->step1 - f->step0, q = 1;
    for (int64_t m = 1; m <= INT64_MAX / 10; m *= 10) {
        if (ceil_div(steps, q = m) <= 10 || ceil_div(steps, q = 2 * m) <= 10 || ceil_div(steps, q = 5 * m) <= 10)
            break;
    }
    p->n_xticks = 0;
    for (int64_t v = ceil_div(f->step0, q) * q; v <= f->step1 && p->n_xticks < 32; v += q) {
        p->xticks[p->n_xticks++] = (picture_tick_t){ step_x(p, f, v), v };
        if (v > INT64_MAX - q)
            break;
    }
}

static int box_cmp(const void *a, const void *b)
{
    const box_t *x = a, *y = b;
    int32_t kx[6] = { x->role, x->x, x->w, x->y, x->h, x->buf }, ky[6] = { y->role, y->x, y->w, y->y, y->h, y->buf };
    for (int i = 0; i < 6; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

static bool same_box(const box_t *a, const box_t *b)
{
    return a->role == b->role && a->x == b->x && a->w == b->w && a->y == b->y && a->h == b->h;
}

void picture_free(picture_t *p)
{
    free(p->rects);
    p->rects = NULL;
    p->n_rects = 0;
}

int picture_build(const view_buf_t *bufs, int32_t n, const picture_frame_t *f, picture_t *out)
{
    memset(out, 0, sizeof *out);
    picture_t *p = out;
    int legend_rows = (f->n_roles + 1) / 2;
    p->plot_x = f->plot_w > 0 ? f->plot_x : PICTURE_LEFT;
    p->plot_y = PICTURE_TOP;
    p->plot_w = f->plot_w > 0 ? f->plot_w : f->width_px - PICTURE_LEFT - PICTURE_RIGHT;
    p->plot_h = f->height_px - PICTURE_TOP - PICTURE_BOTTOM_AXIS - legend_rows * PICTURE_LEGEND_ROW - PICTURE_FOOTER;
    if (p->plot_w < 1 || p->plot_h < 1 || f->step1 <= f->step0 || f->n_roles < 1 || f->n_roles > PICTURE_MAX_ROLES)
        return RS_EINVAL;
    int64_t max = f->total > f->budget ? f->total : f->budget;
    byte_ticks(p, max > 1 ? max : 1);
    step_ticks(p, f);
    p->peak_x = f->peak_step >= f->step0 && f->peak_step < f->step1
                    ? (step_x(p, f, f->peak_step) + step_x(p, f, f->peak_step + 1)) / 2
                    : -1;
    p->total_y = f->total > 0 ? offset_y(p, f->total) : -1;
    p->budget_y = f->budget >= 0 ? offset_y(p, f->budget) : -1;

    box_t *box = malloc(((size_t)n + 1) * sizeof *box);
    int32_t *leader = malloc(((size_t)n + 1) * sizeof *leader); /* per buffer: the buffer whose rectangle it joins */
    int32_t *rect_of = malloc(((size_t)n + 1) * sizeof *rect_of);
    box_t *small = malloc(((size_t)n + 1) * sizeof *small);
    if (!box || !leader || !rect_of || !small) {
        free(box);
        free(leader);
        free(rect_of);
        free(small);
        return RS_ENOMEM;
    }
    int32_t n_small = 0, n_rects = 0;
    int rc = RS_OK;
    for (int32_t i = 0; i < n; i++) {
        const view_buf_t *b = &bufs[i];
        leader[i] = -1;
        if (b->end < f->step0 || b->start >= f->step1 || (b->size > 0 && b->offset >= p->top))
            continue; /* outside the frame (above a top the caller set too low) */
        if (b->role >= f->n_roles) {
            rc = RS_EINVAL;
            break;
        }
        if (b->size <= 0) { /* nothing to draw, but the legend counts it: 3 outputs of 0 B are 3 outputs */
            p->role_count[b->role]++;
            continue;
        }
        int64_t s0 = b->start > f->step0 ? b->start : f->step0, s1 = b->end + 1 < f->step1 ? b->end + 1 : f->step1;
        int32_t x0 = step_x(p, f, s0), x1 = step_x(p, f, s1);
        int64_t hi = b->offset + b->size > p->top ? p->top : b->offset + b->size;
        int32_t ybot = offset_y(p, b->offset), ytop = offset_y(p, hi);
        box[i] = (box_t){ x0, ytop, x1 > x0 ? x1 - x0 : 1, ybot > ytop ? ybot - ytop : 1, i, b->role };
        if (ybot == ytop)
            box[i].y = ybot - 1;
        leader[i] = i;
        bool under = (__int128)(s1 - s0) * p->plot_w < f->step1 - f->step0 || (__int128)(hi - b->offset) * p->plot_h < p->top;
        if (under)
            small[n_small++] = box[i];
        p->drawn++;
        p->role_count[b->role]++;
        p->role_bytes[b->role] += b->size;
    }
    if (!rc) {
        qsort(small, (size_t)n_small, sizeof *small, box_cmp);
        for (int32_t k = 1; k < n_small; k++)
            if (same_box(&small[k], &small[k - 1])) {
                leader[small[k].buf] = leader[small[k - 1].buf];
                p->merged += 1 + (leader[small[k - 1].buf] == small[k - 1].buf);
            }
        for (int32_t i = 0; i < n; i++)
            n_rects += leader[i] == i;
        p->rects = malloc(((size_t)n_rects + 1) * sizeof *p->rects);
        if (!p->rects)
            rc = RS_ENOMEM;
    }
    /* a leader has the lowest index of its group, so its rectangle exists
     * before any member joins it */
    for (int32_t i = 0; !rc && i < n; i++) {
        if (leader[i] < 0)
            continue;
        if (leader[i] == i) {
            rect_of[i] = p->n_rects;
            p->rects[p->n_rects++] = (picture_rect_t){ box[i].x, box[i].y, box[i].w, box[i].h, i, 1, bufs[i].size,
                                                       bufs[i].role };
        } else {
            picture_rect_t *r = &p->rects[rect_of[leader[i]]];
            r->count++;
            r->bytes += bufs[i].size;
        }
    }
    free(box);
    free(leader);
    free(rect_of);
    free(small);
    return rc;
}

bool picture_inset(const picture_frame_t *f, picture_frame_t *main, picture_frame_t *inset)
{
    int64_t steps = f->step1 - f->step0;
    int32_t whole = f->width_px - PICTURE_LEFT - PICTURE_RIGHT;
    if (f->peak_step < f->step0 || f->peak_step >= f->step1 || steps <= PICTURE_INSET_STEPS ||
        (__int128)steps * PICTURE_INSET_STEP_PX <= whole || whole - PICTURE_INSET_W - PICTURE_INSET_GAP < 100)
        return false;
    *main = *f;
    main->plot_x = PICTURE_LEFT;
    main->plot_w = whole - PICTURE_INSET_W - PICTURE_INSET_GAP;
    *inset = *f;
    inset->plot_x = PICTURE_LEFT + main->plot_w + PICTURE_INSET_GAP;
    inset->plot_w = PICTURE_INSET_W;
    int64_t s0 = f->peak_step - PICTURE_INSET_STEPS / 2;
    s0 = s0 < f->step0 ? f->step0 : s0 + PICTURE_INSET_STEPS > f->step1 ? f->step1 - PICTURE_INSET_STEPS : s0;
    inset->step0 = s0;
    inset->step1 = s0 + PICTURE_INSET_STEPS;
    return true;
}
