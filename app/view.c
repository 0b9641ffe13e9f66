#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routine.h"
#include "util/sorted.h"

/* The role of materialized node i under a placement (rejected: its
 * rejected inline preferences, one byte a node). */
static uint8_t buf_role(const lowering_t *l, const uint8_t *rejected, int32_t i)
{
    lower_role_t lr = lower_role(l, i); /* @into counts as output */
    return lr == LOWER_RESIDENT  ? ROLE_RESIDENT
           : rejected[i]         ? ROLE_REJECTED
           : lr == LOWER_OUTPUT  ? ROLE_OUTPUT
           : lr == LOWER_PINNED  ? ROLE_INTERMEDIATE
                                 : ROLE_CANDIDATE;
}

/* The buffers of a placement: per materialized node its span, offset and
 * aligned size, then (copies, n_copies) a buffer a copy; *out and *n. */
static int place_buffers(const lowering_t *l, const placement_t *pl, const int32_t *start, const int32_t *end,
                         const int64_t *offset, const int64_t *aligned, const remat_copy_t *copies, int32_t n_copies,
                         view_buf_t **out, int32_t *n)
{
    *out = NULL;
    *n = 0;
    view_buf_t *b = malloc(((size_t)l->n_nodes + (size_t)n_copies + 1) * sizeof *b);
    uint8_t *rejected = calloc((size_t)l->n_nodes + 1, 1);
    if (!b || !rejected) {
        free(b);
        free(rejected);
        return RS_ENOMEM;
    }
    for (int32_t k = 0; k < pl->n_rejected; k++)
        rejected[pl->rejected[k].node] = 1;
    int32_t m = 0;
    for (int32_t i = 0; i < l->n_nodes; i++)
        if (!pl->is_inline[i])
            b[m++] = (view_buf_t){ start[i], end[i], offset[i], aligned[i], i, buf_role(l, rejected, i) };
    for (int32_t k = 0; k < n_copies; k++) {
        int32_t i = copies[k].node;
        b[m++] = (view_buf_t){ copies[k].step, copies[k].end, copies[k].offset, aligned[i], i,
                               buf_role(l, rejected, i) };
    }
    free(rejected);
    *out = b;
    *n = m;
    return RS_OK;
}

int view_buffers(const lowering_t *l, const score_detail_t *d, view_buf_t **out, int32_t *n)
{
    return place_buffers(l, &d->place, d->live.start, d->live.end, d->offset, d->aligned, NULL, 0, out, n);
}

int view_buffers_remat(const lowering_t *l, const remat_detail_t *d, view_buf_t **out, int32_t *n)
{
    return place_buffers(l, &d->place, d->start, d->end, d->offset, d->aligned, d->copies, d->n_copies, out, n);
}

static int64_t lerp(int64_t a, int64_t b, int64_t i, int64_t n)
{
    return a + (int64_t)((__int128)(b - a) * i / n);
}

void view_col_steps(const view_grid_t *g, int x, int64_t *a, int64_t *b)
{
    *a = g->col_edge[x];
    *b = g->col_edge[x + 1];
    if (*b <= *a)
        *b = *a + 1; /* zoomed in past one step a column: each column still shows a step */
}

/* Offsets [a, b) of row y (row 0 on top). */
static void row_offsets(const view_grid_t *g, int y, int64_t *a, int64_t *b)
{
    *a = g->row_edge[g->h - 1 - y];
    *b = g->row_edge[g->h - y];
}

/* The index i with edge[i] <= v < edge[i + 1]: the proportional guess is
 * within one of it (edges are rounded down from the same proportion), and
 * a binary search settles what it misses (repeated edges when zoomed in). */
static int locate(const int64_t *edge, int n, int64_t lo, int64_t hi, int64_t v)
{
    int k = (int)((__int128)(v - lo) * n / (hi - lo));
    for (int d = 0; d <= 1; d++) {
        int i = k - d;
        if (i >= 0 && i < n && edge[i] <= v && v < edge[i + 1])
            return i;
    }
    return sorted_last_le(edge, n, v);
}

int view_step_col(const view_grid_t *g, int64_t s)
{
    if (s < g->step0 || s >= g->step1)
        return -1;
    return locate(g->col_edge, g->w, g->step0, g->step1, s);
}

bool view_step_cols(const view_grid_t *g, int64_t s, int *x0, int *x1)
{
    int last = view_step_col(g, s);
    if (last < 0)
        return false;
    *x1 = last;
    /* zoomed out, or s inside its column: that column alone (the common case, no search) */
    if (g->col_edge[last] != s || last == 0 || g->col_edge[last - 1] != s) {
        *x0 = last;
        return true;
    }
    /* zoomed in, step s is every column whose edge is s: the run ending at last */
    int lo = 0, hi = last;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (g->col_edge[mid] >= g->col_edge[last])
            hi = mid;
        else
            lo = mid + 1;
    }
    *x0 = lo;
    return true;
}

static int digits(int64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

int view_step_labels(const view_grid_t *g, int *col, int64_t *step, int max)
{
    int n = 0, free_x = 0;
    for (int x = 0; x < g->w && n < max; x++) {
        int64_t s = g->col_edge[x];
        /* a column that only continues the step of the one before starts nothing */
        if (x > 0 && g->col_edge[x - 1] == s)
            continue;
        if (x < free_x || x + 1 + digits(s) > g->w)
            continue;
        col[n] = x;
        step[n] = s;
        n++;
        free_x = x + 1 + digits(s) + 1; /* the tick, the number, a gap */
    }
    return n;
}

void view_scale_text(const view_grid_t *g, char *buf, size_t n)
{
    int64_t lo = INT64_MAX, hi = 0;
    bool per_step = g->step1 - g->step0 < g->w;
    if (per_step) {
        /* columns per step: the run lengths of equal edges */
        int run = 1;
        for (int x = 1; x <= g->w; x++) {
            if (x < g->w && g->col_edge[x] == g->col_edge[x - 1]) {
                run++;
                continue;
            }
            lo = run < lo ? run : lo;
            hi = run > hi ? run : hi;
            run = 1;
        }
    } else {
        for (int x = 0; x < g->w; x++) {
            int64_t k = g->col_edge[x + 1] - g->col_edge[x];
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
    }
    const char *unit = per_step ? "col" : "step";
    if (lo == hi)
        snprintf(buf, n, per_step ? "step = %lld %s%s" : "col = %lld %s%s", (long long)lo, unit, lo == 1 ? "" : "s");
    else
        snprintf(buf, n, per_step ? "step = %lld-%lld %ss" : "col = %lld-%lld %ss", (long long)lo, (long long)hi, unit);
}

int view_offset_row(const view_grid_t *g, int64_t o)
{
    if (o < g->off0 || o >= g->off1)
        return -1;
    return g->h - 1 - locate(g->row_edge, g->h, g->off0, g->off1, o);
}

int view_grid_build(const view_buf_t *b, int32_t n, int64_t step0, int64_t step1, int64_t off0, int64_t off1, int w,
                    int h, view_grid_t *g)
{
    memset(g, 0, sizeof *g);
    if (w < 1 || h < 1 || step1 <= step0 || off1 <= off0)
        return RS_EINVAL;
    *g = (view_grid_t){ w, h, step0, step1, off0, off1, NULL, NULL, NULL };
    size_t cells = (size_t)w * (size_t)h;
    g->cell = malloc(cells * sizeof *g->cell);
    g->col_edge = malloc(((size_t)w + 1) * sizeof *g->col_edge);
    g->row_edge = malloc(((size_t)h + 1) * sizeof *g->row_edge);
    __int128 *best = calloc(cells, sizeof *best);
    if (!g->cell || !best || !g->col_edge || !g->row_edge) {
        free(best);
        view_grid_free(g);
        return RS_ENOMEM;
    }
    for (int x = 0; x <= w; x++)
        g->col_edge[x] = lerp(step0, step1, x, w);
    for (int y = 0; y <= h; y++)
        g->row_edge[y] = lerp(off0, off1, y, h);
    for (size_t c = 0; c < cells; c++)
        g->cell[c] = -1;
    for (int32_t i = 0; i < n; i++) {
        const view_buf_t *v = &b[i];
        if (v->size <= 0 || v->end < step0 || v->start >= step1 || v->offset + v->size <= off0 || v->offset >= off1)
            continue;
        /* from the first column of the first step to the last column of the last */
        int x0, unused, x1 = view_step_col(g, v->end >= step1 ? step1 - 1 : v->end);
        view_step_cols(g, v->start < step0 ? step0 : v->start, &x0, &unused);
        int y1 = view_offset_row(g, v->offset < off0 ? off0 : v->offset);                       /* bottom row */
        int y0 = view_offset_row(g, v->offset + v->size > off1 ? off1 - 1 : v->offset + v->size - 1); /* top row */
        for (int x = x0; x <= x1; x++) {
            int64_t sa, sb;
            view_col_steps(g, x, &sa, &sb);
            int64_t ts = (v->end + 1 < sb ? v->end + 1 : sb) - (v->start > sa ? v->start : sa);
            if (ts <= 0)
                continue;
            for (int y = y0; y <= y1; y++) {
                int64_t oa, ob;
                row_offsets(g, y, &oa, &ob);
                int64_t to = (v->offset + v->size < ob ? v->offset + v->size : ob) - (v->offset > oa ? v->offset : oa);
                if (to <= 0)
                    continue;
                __int128 area = (__int128)ts * to;
                size_t c = (size_t)y * (size_t)w + (size_t)x;
                if (area > best[c]) {
                    best[c] = area;
                    g->cell[c] = i;
                }
            }
        }
    }
    free(best);
    return RS_OK;
}

void view_grid_free(view_grid_t *g)
{
    free(g->cell);
    free(g->col_edge);
    free(g->row_edge);
    g->cell = NULL;
    g->col_edge = g->row_edge = NULL;
}

static const view_buf_t *live_sort_base; /* qsort has no user pointer in C11; the TUI sorts on one thread */

static int by_size_desc(const void *x, const void *y)
{
    int32_t i = *(const int32_t *)x, j = *(const int32_t *)y;
    int64_t a = live_sort_base[i].size, b = live_sort_base[j].size;
    return a != b ? (a < b ? 1 : -1) : (i > j) - (i < j);
}

int32_t view_live_at(const view_buf_t *b, int32_t n, int64_t step, int32_t *out)
{
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (b[i].start <= step && step <= b[i].end)
            out[m++] = i;
    live_sort_base = b;
    qsort(out, (size_t)m, sizeof *out, by_size_desc);
    return m;
}

int64_t *view_live_bytes(const view_buf_t *b, int32_t n, int64_t n_steps)
{
    if (n_steps < 1)
        n_steps = 1;
    int64_t *live = calloc((size_t)n_steps + 1, sizeof *live);
    if (!live)
        return NULL;
    for (int32_t i = 0; i < n; i++) {
        if (b[i].start >= n_steps)
            continue;
        live[b[i].start] += b[i].size;
        if (b[i].end + 1 <= n_steps)
            live[b[i].end + 1] -= b[i].size;
    }
    for (int64_t s = 1; s <= n_steps; s++)
        live[s] += live[s - 1];
    return live;
}

int64_t *view_live_columns(const view_grid_t *g, const int64_t *live, int64_t n_steps)
{
    int64_t *col = calloc((size_t)g->w, sizeof *col);
    if (!col)
        return NULL;
    for (int x = 0; x < g->w; x++) {
        int64_t a, b;
        view_col_steps(g, x, &a, &b);
        for (int64_t s = a; s < b && s < n_steps; s++)
            if (s >= 0 && live[s] > col[x])
                col[x] = live[s];
    }
    return col;
}

/* v in a binary unit's letter, with one decimal below `decimals_below`
 * when it is not whole. */
static void short_bytes(int64_t v, double decimals_below, char *buf, size_t n)
{
    static const char *suffix = "KMGTPE";
    if (v < 1024) {
        snprintf(buf, n, "%lld", (long long)v);
        return;
    }
    double d = (double)v;
    int k = -1;
    while (d >= 1024 && k < 5) {
        d /= 1024;
        k++;
    }
    snprintf(buf, n, d < decimals_below && d != (int)d ? "%.1f%c" : "%.0f%c", d, suffix[k]);
}

void view_axis_bytes(int64_t v, char *buf, size_t n) { short_bytes(v, 10, buf, n); }

void view_axis_bytes_fine(int64_t v, char *buf, size_t n) { short_bytes(v, 99.95, buf, n); }

void view_axis_labels(const int64_t *v, int n, char (*labels)[16])
{
    static const char *suffix = "KMGTPE";
    int64_t top = 0;
    for (int i = 0; i < n; i++)
        top = v[i] > top ? v[i] : top;
    int k = -1;
    double unit = 1;
    while (k < 5 && (double)top >= unit * 1024) {
        unit *= 1024;
        k++;
    }
    /* three significant digits of the largest at least (35.5M, not 35M,
     * for an axis end that marks an exact footprint), more to tell apart */
    double lead = (double)top / unit;
    for (int d = lead >= 100 ? 0 : lead >= 10 ? 1 : 2; d <= 7; d++) {
        bool apart = true;
        for (int i = 0; i < n; i++) {
            if (d == 7 || k < 0) /* exact bytes: below a KiB, or a range of a few bytes */
                snprintf(labels[i], 16, "%lld", (long long)v[i]);
            else
                snprintf(labels[i], 16, "%.*f%c", d, (double)v[i] / unit, suffix[k]);
            apart = apart && (i == 0 || strcmp(labels[i], labels[i - 1]) != 0 || v[i] == v[i - 1]);
        }
        if (apart || k < 0)
            return;
    }
}

void view_statuses_at(const fit_plan_t *p, int32_t upto, uint8_t *status)
{
    int32_t *slot = malloc(((size_t)p->routine->n_nodes + 1) * sizeof *slot);
    if (!slot)
        return;
    for (int32_t i = 0; i < p->routine->n_nodes; i++)
        slot[i] = -1;
    for (int32_t k = 0; k < p->n_cands; k++) {
        slot[p->cands[k].node] = k;
        status[k] = ST_PENDING; /* a dropped one too, until its drop event: as the round-two column says */
    }
    for (int32_t i = 0; i <= upto && i < p->n_events; i++) {
        const fit_event_t *e = &p->events[i];
        int32_t k = e->node >= 0 ? slot[e->node] : -1;
        switch ((fit_event_kind_t)e->kind) {
        case EV_DROPPED:
            if (k >= 0)
                status[k] = ST_DROPPED;
            break;
        case EV_ACCEPT:
            if (k >= 0)
                status[k] = ST_ACCEPTED;
            break;
        case EV_HOLD:
            if (k >= 0)
                status[k] = ST_HELD;
            break;
        case EV_REJECT:
            if (k >= 0)
                status[k] = ST_REJECTED;
            break;
        case EV_COMMIT_GROUP:
        case EV_DISCARD_GROUP: {
            uint8_t st = e->kind == EV_COMMIT_GROUP ? ST_COMMITTED : ST_DISCARDED;
            for (int32_t m = 0; m < e->group_n; m++)
                if (slot[p->members[e->group_off + m]] >= 0)
                    status[slot[p->members[e->group_off + m]]] = st;
            if (e->kind == EV_COMMIT_GROUP && k >= 0)
                status[k] = ST_COMMITTED;
            break;
        }
        default:
            break;
        }
    }
    free(slot);
}

int32_t view_accepted_at(const fit_plan_t *p, int32_t upto)
{
    if (upto < 0 || p->n_events == 0)
        return 0;
    if (upto >= p->n_events)
        upto = p->n_events - 1;
    const fit_event_t *e = &p->events[upto];
    /* accepted_n counts flips before the event; an accept or a commit adds
     * its own */
    int32_t n = e->accepted_n;
    if (e->kind == EV_ACCEPT)
        n += 1;
    else if (e->kind == EV_COMMIT_GROUP)
        n += e->group_n + 1;
    return n;
}

/* ---- two plans ------------------------------------------------------------------- */

static const view_buf_t *sort_bufs; /* qsort has no context argument */

static int by_node(const void *x, const void *y)
{
    int32_t a = sort_bufs[*(const int32_t *)x].node, b = sort_bufs[*(const int32_t *)y].node;
    return (a > b) - (a < b);
}

/* The index into bufs of node's buffer, by binary search over idx (bufs'
 * indices sorted by node), or -1. */
static int32_t find_node(const view_buf_t *bufs, const int32_t *idx, int32_t n, int32_t node)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (bufs[idx[mid]].node < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && bufs[idx[lo]].node == node ? idx[lo] : -1;
}

int view_diff_buffers(const view_buf_t *a, int32_t na, const view_buf_t *b, int32_t nb, uint8_t *kind,
                      view_buf_t **gone, int32_t *n_gone)
{
    *gone = NULL;
    *n_gone = 0;
    int32_t *ai = malloc(((size_t)na + 1) * sizeof *ai), *bi = malloc(((size_t)nb + 1) * sizeof *bi);
    view_buf_t *g = malloc((2 * (size_t)na + 1) * sizeof *g); /* at most two pieces a buffer */
    if (!ai || !bi || !g) {
        free(ai);
        free(bi);
        free(g);
        return RS_ENOMEM;
    }
    for (int32_t i = 0; i < na; i++)
        ai[i] = i;
    for (int32_t i = 0; i < nb; i++)
        bi[i] = i;
    sort_bufs = a;
    qsort(ai, (size_t)na, sizeof *ai, by_node);
    sort_bufs = b;
    qsort(bi, (size_t)nb, sizeof *bi, by_node);
    for (int32_t i = 0; i < nb; i++) {
        int32_t k = find_node(a, ai, na, b[i].node);
        const view_buf_t *p = k >= 0 ? &a[k] : NULL, *q = &b[i];
        if (!p)
            kind[i] = VIEW_NEW;
        else if (q->start < p->start || q->end > p->end || q->size > p->size)
            kind[i] = VIEW_EXTENDED;
        else if (q->start > p->start || q->end < p->end || q->size < p->size)
            kind[i] = VIEW_SHORTENED;
        else
            kind[i] = q->offset == p->offset ? VIEW_SAME : VIEW_MOVED;
    }
    int32_t m = 0;
    for (int32_t i = 0; i < na; i++) {
        int32_t k = find_node(b, bi, nb, a[i].node);
        if (k < 0) {
            g[m++] = a[i];
            continue;
        }
        if (b[k].start > a[i].start) {
            g[m] = a[i];
            g[m++].end = (b[k].start - 1 < a[i].end ? b[k].start - 1 : a[i].end);
        }
        if (b[k].end < a[i].end) {
            g[m] = a[i];
            g[m++].start = (b[k].end + 1 > a[i].start ? b[k].end + 1 : a[i].start);
        }
    }
    free(ai);
    free(bi);
    if (!m) {
        free(g);
        return RS_OK;
    }
    *gone = g;
    *n_gone = m;
    return RS_OK;
}

void view_ratio_text(double r, char *buf, size_t n)
{
    double a = fabs(r);
    if (a == 0 || (a >= 0.01 && a < 1000)) {
        snprintf(buf, n, "%.3g", r); /* -252, 0.0123, 999 */
        return;
    }
    int e = (int)floor(log10(a));
    double m = r / pow(10, e);
    if (fabs(m) >= 9.95) { /* 9.96e3 rounds to 10.0e3 */
        m /= 10;
        e++;
    }
    snprintf(buf, n, "%.1fe%d", m, e); /* -2.5e3, 3.3e-5 */
    if (strlen(buf) > 7)
        snprintf(buf, n, "%.0fe%d", m, e); /* -3e-12 */
}
