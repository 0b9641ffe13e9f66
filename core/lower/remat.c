#include "lower/remat.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "layout/arena.h"
#include "layout/layout.h"
#include "util/checked.h"

const char *remat_skip_name(remat_skip_t s)
{
    switch (s) {
    case REMAT_APPLIED: return "applied";
    case REMAT_NOT_MATERIALIZED: return "not materialized";
    case REMAT_NOT_CANDIDATE: return "not a candidate";
    case REMAT_NO_READ: return "no read";
    case REMAT_FIRST_GAP: return "first gap";
    }
    return "?";
}

void remat_detail_free(remat_detail_t *d)
{
    if (!d)
        return;
    virtualizer_free(&d->place);
    free(d->start);
    free(d->end);
    free(d->offset);
    free(d->aligned);
    free(d->skip);
    free(d->copies);
    free(d->step_orig);
    free(d->step_node);
    memset(d, 0, sizeof *d);
}

/* The schedule as it grows: steps by id (an original step's id is its
 * number, recompute step k's is S + k) in their current order, and for each
 * node the recompute steps that read it (one entry per occurrence). */
typedef struct sched {
    const lowering_t *l;
    const uint8_t *inl;
    int32_t len, n_rec;
    int32_t *order, *pos;   /* order[position] = id, pos[id] = position */
    int32_t *rnode;         /* per recompute step: the node it recomputes */
    int32_t *xr_head, *xr_next, *xr_step, n_xr;
    /* effective reads of one node (scratch) */
    int32_t *reads, n_reads;
    int32_t *stack, *mark, stamp;
    /* per applied node: ids of its last read before the split, of the
     * recompute step, and of its last read */
    int32_t *buf_end, *copy_step, *copy_end;
} sched_t;

static void sched_free(sched_t *s)
{
    free(s->order);
    free(s->pos);
    free(s->rnode);
    free(s->xr_head);
    free(s->xr_next);
    free(s->xr_step);
    free(s->reads);
    free(s->stack);
    free(s->mark);
    free(s->buf_end);
    free(s->copy_step);
    free(s->copy_end);
}

/* The static half of §14's candidate rule; the reads decide the rest. */
static remat_skip_t static_skip(const lowering_t *l, const uint8_t *inl, int32_t i)
{
    if (lower_is_resident(l, i) || inl[i])
        return REMAT_NOT_MATERIALIZED;
    if ((l->flags[i] & (FLAG_OUTPUT | FLAG_PINNED | FLAG_INTO)) || l->ndefs[i] != 1)
        return REMAT_NOT_CANDIDATE;
    return REMAT_APPLIED;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* s->reads[0..n_reads): the positions of x's effective reads, ascending and
 * distinct: steps that read x, through inline readers to where they are
 * read, recompute steps included (§2 with §14's added reads). */
static void effective_reads(sched_t *s, int32_t x)
{
    const lowering_t *l = s->l;
    s->n_reads = 0;
    s->stamp++;
    int32_t sp = 0;
    s->stack[sp++] = x;
    while (sp > 0) {
        int32_t y = s->stack[--sp];
        for (int32_t k = l->rd_off[y]; k < l->rd_off[y + 1]; k++) {
            int32_t st = l->rd_step[k], o = l->step_owner[st];
            if (!s->inl[o])
                s->reads[s->n_reads++] = s->pos[st];
            else if (s->mark[o] != s->stamp) {
                s->mark[o] = s->stamp;
                s->stack[sp++] = o;
            }
        }
        for (int32_t e = s->xr_head[y]; e >= 0; e = s->xr_next[e])
            s->reads[s->n_reads++] = s->pos[s->xr_step[e]];
    }
    qsort(s->reads, (size_t)s->n_reads, sizeof *s->reads, cmp_i32);
    int32_t m = 0;
    for (int32_t k = 0; k < s->n_reads; k++)
        if (m == 0 || s->reads[m - 1] != s->reads[k])
            s->reads[m++] = s->reads[k];
    s->n_reads = m;
}

/* Applies x's remat flip when its reads allow it: the recompute step goes
 * just before u_{j+1}, the read after the largest gap (the first on ties). */
static remat_skip_t apply(sched_t *s, int32_t x)
{
    const lowering_t *l = s->l;
    effective_reads(s, x);
    if (s->n_reads == 0)
        return REMAT_NO_READ;
    int32_t prev = s->pos[l->first_def[x]], best = -1, best_gap = -1;
    for (int32_t k = 0; k < s->n_reads; k++) {
        if (s->reads[k] - prev > best_gap) {
            best_gap = s->reads[k] - prev;
            best = k;
        }
        prev = s->reads[k];
    }
    if (best == 0)
        return REMAT_FIRST_GAP;
    int32_t at = s->reads[best], id = l->n_steps + s->n_rec++;
    s->buf_end[x] = s->order[s->reads[best - 1]];
    s->copy_end[x] = s->order[s->reads[s->n_reads - 1]];
    memmove(&s->order[at + 1], &s->order[at], (size_t)(s->len - at) * sizeof *s->order);
    s->order[at] = id;
    s->len++;
    for (int32_t q = at; q < s->len; q++)
        s->pos[s->order[q]] = q;
    s->rnode[id - l->n_steps] = x;
    s->copy_step[x] = id;
    int32_t d = l->first_def[x];
    for (int32_t a = l->arg_off[d]; a < l->arg_off[d + 1]; a++) {
        int32_t b = l->args[a];
        s->xr_step[s->n_xr] = id;
        s->xr_next[s->n_xr] = s->xr_head[b];
        s->xr_head[b] = s->n_xr++;
    }
    return REMAT_APPLIED;
}

static int oom(rs_error_t *err) { return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory scoring"); }

/* arena_max_live over steps 0..n_steps-1 by a difference array;
 * aligned[node] is each buffer's aligned size (who: node, or -1 - node). */
static int64_t max_live_steps(const arena_buf_t *bufs, int32_t m, const int64_t *aligned, const int32_t *who,
                              int32_t n_steps, int64_t *peak_step)
{
    int64_t *diff = calloc((size_t)n_steps + 1, sizeof *diff);
    if (!diff)
        return -1;
    for (int32_t k = 0; k < m; k++) {
        int64_t a = aligned[who[k] >= 0 ? who[k] : -1 - who[k]];
        diff[bufs[k].start] += a;
        diff[bufs[k].end + 1] -= a;
    }
    int64_t run = 0, best = 0;
    *peak_step = 0;
    for (int32_t s = 0; s < n_steps; s++) {
        run += diff[s];
        if (run > best) {
            best = run;
            *peak_step = s;
        }
    }
    free(diff);
    return best;
}

/* Lays the schedule out: spans in the new numbering, then the §3 layout
 * with each copy just after its node in the buffer list (so it sorts just
 * after it among equal keys). */
static int lay_out(const sched_t *s, const liveness_t *lv, const score_config_t *cfg, bool layout, footprint_t *out,
                   remat_detail_t *d, rs_error_t *err)
{
    const lowering_t *l = s->l;
    int32_t N = l->n_nodes, last = s->len > 0 ? s->len - 1 : 0;
    size_t nb = (size_t)N + (size_t)s->n_rec + 1;
    arena_buf_t *bufs = malloc(nb * sizeof *bufs);
    int32_t *who = malloc(nb * sizeof *who); /* node, or -1 - node for a copy */
    int64_t *offs = malloc(nb * sizeof *offs);
    int rc = bufs && who && offs ? RS_OK : oom(err);
    int32_t m = 0;
    for (int32_t i = 0; i < N && !rc; i++) {
        d->start[i] = d->end[i] = -1;
        d->offset[i] = -1;
        if (s->inl[i])
            continue;
        d->aligned[i] = arena_align(l->bytes[i], cfg->alignment);
        if (d->aligned[i] < 0) {
            rc = error_set(err, RS_EINPUT, l->routine->path, l->routine->nodes[i].line, l->routine->nodes[i].col,
                           "'%s' overflows when aligned", l->routine->nodes[i].name);
            break;
        }
        bool resident = lower_is_resident(l, i);
        int32_t start = resident ? 0 : s->pos[l->first_def[i]], end;
        if (s->copy_step[i] >= 0) {
            end = s->pos[s->buf_end[i]];
        } else {
            end = resident ? last : s->pos[l->last_def[i]];
            if (lv->last_read[i] > end)
                end = lv->last_read[i];
            if (resident || (l->flags[i] & FLAG_OUTPUT))
                end = last;
        }
        d->start[i] = start;
        d->end[i] = end;
        bufs[m] = cfg->aliasing ? (arena_buf_t){ l->bytes[i], start, end } : (arena_buf_t){ l->bytes[i], 0, last };
        who[m++] = i;
        if (s->copy_step[i] >= 0) {
            int32_t cs = s->pos[s->copy_step[i]], ce = s->pos[s->copy_end[i]];
            bufs[m] = cfg->aliasing ? (arena_buf_t){ l->bytes[i], cs, ce } : (arena_buf_t){ l->bytes[i], 0, last };
            who[m++] = -1 - i;
        }
    }
    int64_t height = -1, peak_step = 0;
    if (!rc && !layout)
        for (int32_t k = 0; k < m; k++)
            offs[k] = -1;
    else if (!rc && (rc = layout_run(bufs, m, cfg->alignment, cfg->layout, offs, &height, err)) == RS_EINPUT &&
             !err->file[0])
        error_set(err, rc, l->routine->path, 0, 0, "%s", err->msg);
    if (!rc) {
        out->total = height;
        /* without a layout (a search's quick look) the same max-live from a
         * difference array over the steps, no sort */
        out->live_peak = layout ? arena_max_live(bufs, m, cfg->alignment, &peak_step)
                                : max_live_steps(bufs, m, d->aligned, who, last + 1, &peak_step);
        if (out->live_peak < 0)
            rc = oom(err);
        out->peak_step = (int32_t)peak_step;
        out->buffers = m;
    }
    for (int32_t k = 0; k < m && !rc; k++) {
        if (who[k] >= 0) {
            d->offset[who[k]] = offs[k];
            continue;
        }
        int32_t i = -1 - who[k];
        remat_copy_t *c = &d->copies[d->n_copies++];
        *c = (remat_copy_t){ .node = i, .step = (int32_t)bufs[k].start, .end = (int32_t)bufs[k].end, .offset = offs[k] };
        if (!cfg->aliasing) {
            c->step = s->pos[s->copy_step[i]];
            c->end = s->pos[s->copy_end[i]];
        }
    }
    free(bufs);
    free(who);
    free(offs);
    return rc;
}

/* Liveness and compute under the final schedule: live.c's pass in reverse
 * index order with the recompute steps' reads added (each read once, by a
 * materialized copy), last reads as new positions. */
static int recount(const sched_t *s, liveness_t *lv, rs_error_t *err)
{
    const lowering_t *l = s->l;
    int32_t N = l->n_nodes;
    for (int32_t i = N - 1; i >= 0; i--) {
        int32_t last = -1;
        int64_t r = 0;
        for (int32_t k = l->rd_off[i]; k < l->rd_off[i + 1]; k++) {
            int32_t st = l->rd_step[k], o = l->step_owner[st];
            if (s->inl[o]) {
                if (lv->last_read[o] > last)
                    last = lv->last_read[o];
                r = sat_add(r, lv->exec[o]);
            } else {
                if (s->pos[st] > last)
                    last = s->pos[st];
                r = sat_add(r, 1);
            }
        }
        for (int32_t e = s->xr_head[i]; e >= 0; e = s->xr_next[e]) {
            if (s->pos[s->xr_step[e]] > last)
                last = s->pos[s->xr_step[e]];
            r = sat_add(r, 1);
        }
        lv->last_read[i] = last;
        lv->reads[i] = r;
        lv->exec[i] = s->inl[i] ? r : l->ndefs[i];
    }
    int64_t compute = 0;
    for (int32_t k = 0; k < s->len; k++) {
        int32_t id = s->order[k];
        bool rec = id >= l->n_steps;
        int32_t owner = rec ? s->rnode[id - l->n_steps] : l->step_owner[id];
        int64_t times = !rec && s->inl[owner] ? lv->reads[owner] : 1, c = rec ? l->cost[owner] : l->step_cost[id], cost;
        if (!checked_mul(times, c, &cost) || !checked_add(compute, cost, &compute) ||
            (times == INT64_MAX && c > 0)) {
            const routine_node_t *n = &l->routine->nodes[owner];
            return error_set(err, RS_EINPUT, l->routine->path, n->line, n->col,
                             "the total compute overflows 64 bits at '%s'", n->name);
        }
    }
    lv->compute = compute;
    return RS_OK;
}

static int score(const lowering_t *l, const uint8_t *prefs, const uint8_t *remat, const score_config_t *cfg,
                 bool layout, footprint_t *out, remat_detail_t *detail, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    remat_detail_t local;
    remat_detail_t *d = detail ? detail : &local;
    memset(d, 0, sizeof *d);
    sched_t s;
    memset(&s, 0, sizeof s);
    liveness_t lv;
    memset(&lv, 0, sizeof lv);
    int32_t N = l->n_nodes, S = l->n_steps;
    size_t nn = N ? (size_t)N : 1;
    int rc = virtualizer_run(l, prefs, cfg->max_inline_depth, &d->place, err);
    if (rc)
        goto done;
    s.l = l;
    s.inl = d->place.is_inline;
    d->skip = calloc(nn, 1);
    int32_t n_ask = 0;
    int64_t n_xr = 0;
    for (int32_t i = 0; i < N && d->skip; i++)
        if (remat && remat[i]) {
            d->skip[i] = (uint8_t)static_skip(l, s.inl, i);
            if (d->skip[i] == REMAT_APPLIED) {
                n_ask++;
                n_xr += l->arg_off[l->first_def[i] + 1] - l->arg_off[l->first_def[i]];
            }
        }
    size_t cap = (size_t)S + (size_t)n_ask + 1;
    s.order = malloc(cap * sizeof *s.order);
    s.pos = malloc(cap * sizeof *s.pos);
    s.rnode = malloc(((size_t)n_ask + 1) * sizeof *s.rnode);
    s.xr_head = malloc(nn * sizeof *s.xr_head);
    s.xr_next = malloc(((size_t)n_xr + 1) * sizeof *s.xr_next);
    s.xr_step = malloc(((size_t)n_xr + 1) * sizeof *s.xr_step);
    s.reads = malloc(((size_t)l->n_args + (size_t)n_xr + 1) * sizeof *s.reads);
    s.stack = malloc(nn * sizeof *s.stack);
    s.mark = calloc(nn, sizeof *s.mark);
    s.buf_end = malloc(nn * sizeof *s.buf_end);
    s.copy_step = malloc(nn * sizeof *s.copy_step);
    s.copy_end = malloc(nn * sizeof *s.copy_end);
    lv.n_nodes = N;
    lv.last_read = malloc(nn * sizeof *lv.last_read);
    lv.reads = malloc(nn * sizeof *lv.reads);
    lv.exec = malloc(nn * sizeof *lv.exec);
    d->start = malloc(nn * sizeof *d->start);
    d->end = malloc(nn * sizeof *d->end);
    d->offset = malloc(nn * sizeof *d->offset);
    d->aligned = calloc(nn, sizeof *d->aligned);
    d->copies = malloc(((size_t)n_ask + 1) * sizeof *d->copies);
    if (!d->skip || !s.order || !s.pos || !s.rnode || !s.xr_head || !s.xr_next || !s.xr_step || !s.reads ||
        !s.stack || !s.mark || !s.buf_end || !s.copy_step || !s.copy_end || !lv.last_read || !lv.reads ||
        !lv.exec || !d->start || !d->end || !d->offset || !d->aligned || !d->copies) {
        rc = oom(err);
        goto done;
    }
    for (int32_t k = 0; k < S; k++)
        s.order[k] = s.pos[k] = k;
    s.len = S;
    for (int32_t i = 0; i < N; i++)
        s.xr_head[i] = s.buf_end[i] = s.copy_step[i] = s.copy_end[i] = -1;
    /* descending index: every consumer's recompute step is in place when a
     * node's reads are listed, so an argument's reads at its consumers'
     * recompute steps are served by its buffer or its own copy */
    for (int32_t i = N - 1; i >= 0; i--)
        if (remat && remat[i] && d->skip[i] == REMAT_APPLIED)
            d->skip[i] = (uint8_t)apply(&s, i);
    if ((rc = recount(&s, &lv, err)) || (rc = lay_out(&s, &lv, cfg, layout, out, d, err)))
        goto done;
    out->compute = lv.compute;
    d->n_steps = s.len;
    d->step_orig = malloc(((size_t)s.len + 1) * sizeof *d->step_orig);
    d->step_node = malloc(((size_t)s.len + 1) * sizeof *d->step_node);
    if (!d->step_orig || !d->step_node) {
        rc = oom(err);
        goto done;
    }
    for (int32_t k = 0; k < s.len; k++) {
        int32_t id = s.order[k];
        d->step_orig[k] = id < S ? id : -1;
        d->step_node[k] = id < S ? l->step_owner[id] : s.rnode[id - S];
    }
done:
    sched_free(&s);
    free(lv.last_read);
    free(lv.reads);
    free(lv.exec);
    if (!detail)
        remat_detail_free(&local);
    return rc;
}

int remat_score(const lowering_t *l, const uint8_t *prefs, const uint8_t *remat, const score_config_t *cfg,
                footprint_t *out, remat_detail_t *detail, rs_error_t *err)
{
    return score(l, prefs, remat, cfg, true, out, detail, err);
}

int remat_score_spans(const lowering_t *l, const uint8_t *prefs, const uint8_t *remat, const score_config_t *cfg,
                      footprint_t *out, remat_detail_t *detail, rs_error_t *err)
{
    return score(l, prefs, remat, cfg, false, out, detail, err);
}
