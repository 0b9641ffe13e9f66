/* relayout_engine: a work's layouts from scratch (a run that gave up, or
 * one against a lazy reference) through one bestfit engine kept across its
 * runs.  A fit lays out thousands of sets that differ from each other in a
 * few buffers; making a bestfit for each (sorting every buffer, sizing and
 * filling a fresh tree, freeing it) was half of a layout's time.  The
 * engine keeps its tree's memory, is told only the buffers that differ from
 * its last set, and takes the new §3 order merged from the reference's
 * order and the changed buffers' slots (O(n), no sort).  The offsets are
 * the same as bestfit_new + bestfit_run_pinned's, byte for byte: the same
 * order, the same conflicts (its leaves are a superset of the starts,
 * which changes none), the same union per query. */
#include <stdlib.h>
#include <string.h>

#include "layout/bestfit.h"
#include "layout/relayout_int.h"
#include "util/sorted.h"
#include "util/vec.h"

void relayout_engine_free(relayout_work_t *w)
{
    bestfit_free(w->eng);
    free(w->ebufs);
    free(w->epresent);
    free(w->eorder);
    w->eng = NULL;
    w->ebufs = NULL;
    w->epresent = NULL;
    w->eorder = NULL;
    w->n_eorder = -1;
}

static int64_t aligned_of(const relayout_t *r, const arena_buf_t *b, uint8_t present)
{
    return present ? arena_align(b->size, r->alignment) : 0;
}

/* A new engine whose leaves are every start the set, the reference and
 * the engine's last set hold (present or not: a routine's nodes keep their
 * starts from scoring to scoring, so the leaves are made once), set to the
 * set (bufs, present).  -1 when out of memory. */
static int engine_make(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present)
{
    int32_t n = r->n, m = 0;
    int64_t *coords = malloc((3 * (size_t)n + 1) * sizeof *coords);
    if (!coords)
        return -1;
    for (int32_t i = 0; i < n; i++) {
        coords[m++] = bufs[i].start;
        coords[m++] = r->start[i];
        if (w->eng)
            coords[m++] = w->ebufs[i].start;
    }
    m = sorted_unique(coords, m);
    bestfit_free(w->eng);
    w->eng = NULL;
    rs_error_t e;
    int rc = bestfit_engine_new(n, coords, m, &w->eng, &e);
    free(coords);
    if (rc)
        return -1;
    w->stats.engines++;
    for (int32_t i = 0; i < n; i++) {
        uint8_t p = present ? present[i] != 0 : 1;
        w->ebufs[i] = bufs[i];
        w->epresent[i] = p;
        if (!bestfit_engine_set(w->eng, i, aligned_of(r, &bufs[i], p), bufs[i].start, bufs[i].end))
            return -1; /* cannot happen: every start is a leaf */
    }
    return 0;
}

/* Sets the engine to (bufs, present): only the buffers that differ from its
 * last set, unless a start is not among its leaves.  -1 when out of
 * memory. */
static int engine_sync(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present)
{
    size_t nn = r->n ? (size_t)r->n : 1;
    if (!w->ebufs) {
        w->ebufs = malloc(nn * sizeof *w->ebufs);
        w->epresent = malloc(nn);
        w->eorder = malloc(nn * sizeof *w->eorder);
        if (!w->ebufs || !w->epresent || !w->eorder)
            return -1;
    }
    if (!w->eng)
        return engine_make(r, w, bufs, present);
    for (int32_t i = 0; i < r->n; i++) {
        uint8_t p = present ? present[i] != 0 : 1;
        const arena_buf_t *b = &bufs[i], *o = &w->ebufs[i];
        if (p == w->epresent[i] && (!p || (b->size == o->size && b->start == o->start && b->end == o->end)))
            continue;
        if (!bestfit_engine_set(w->eng, i, aligned_of(r, b, p), b->start, b->end))
            return engine_make(r, w, bufs, present);
        w->ebufs[i] = *b;
        w->epresent[i] = p;
    }
    return 0;
}

/* The new §3 order into w->eorder: the reference's order without the
 * changed buffers, each placed changed buffer before the reference
 * position of its slot (the placed ones are sorted, so those sharing a
 * slot are in order).  Returns its length. */
static int32_t merge_order(const relayout_t *r, relayout_work_t *w)
{
    int32_t m = 0, ci = 0;
    for (int32_t q = 0; q < r->n_order; q++) {
        for (; ci < w->n_placed && w->cn[w->placed[ci]].slot <= q; ci++)
            w->eorder[m++] = w->cn[w->placed[ci]].id;
        int32_t id = r->order[q];
        if (!rl_changed(w, id))
            w->eorder[m++] = id;
    }
    for (; ci < w->n_placed; ci++)
        w->eorder[m++] = w->cn[w->placed[ci]].id;
    return m;
}

int relayout_run_engine(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                        int32_t upto_pos, int32_t upto_ci, rs_error_t *err)
{
    w->stats.full++;
    size_t nn = r->n ? (size_t)r->n : 1;
    if (!w->fbufs) {
        w->fbufs = malloc(nn * sizeof *w->fbufs);
        w->fpresent = malloc(nn);
        w->foff = malloc(nn * sizeof *w->foff);
    }
    if (!w->fbufs || !w->fpresent || !w->foff || engine_sync(r, w, bufs, present)) {
        relayout_engine_free(w); /* its state is unknown: made again next time */
        w->full = true;
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int32_t m = merge_order(r, w), pinned = 0;
    /* the buffers before the stop are a prefix of the new order (those
     * before a changed buffer's slot, or before a reference position and
     * the changed buffers whose slots come first) and are exact */
    if (upto_pos >= 0) {
        for (int32_t q = 0; q < upto_pos && q < r->n_order; q++)
            pinned += !rl_changed(w, r->order[q]);
        pinned += upto_ci;
    }
    for (int32_t i = 0; i < r->n; i++) {
        w->fpresent[i] = present ? present[i] != 0 : 1;
        w->foff[i] = w->fpresent[i] ? 0 : -1;
    }
    for (int32_t k = 0; k < pinned; k++) {
        int32_t id = w->eorder[k];
        w->foff[id] = rl_changed(w, id) ? w->cn[w->cidx[id]].off : rl_cur_off(r, w, id);
    }
    int rc = bestfit_engine_place(w->eng, w->eorder, m, pinned, w->foff, &w->height, err);
    w->n_eorder = rc ? -1 : m; /* a rebase's order: not sorted again */
    w->fmoved = 0;
    for (int32_t i = 0; !rc && i < r->n; i++)
        w->fmoved += r->pos[i] >= 0 && !rl_changed(w, i) && w->foff[i] != r->off[i];
    memcpy(w->fbufs, bufs, (size_t)r->n * sizeof *bufs);
    w->full = true; /* after the pins, which read the run's state */
    return rc;
}
