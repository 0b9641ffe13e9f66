#include "plan/improve.h"

#include <stdlib.h>
#include <string.h>

typedef struct improve {
    const improve_options_t *opt;
    subset_scorer_t sc;
    improve_result_t *res;
    uint8_t *in;       /* per node: the neighbour being looked at */
    uint8_t *none;     /* per node: all 0 (no undecided node) */
    int32_t *cur;      /* the current plan, ascending */
    int32_t n_cur;
    footprint_t cur_fp;
    int32_t *nb;       /* a neighbour, ascending */
    int32_t n_nb;
    bool stopped;
} improve_t;

/* Only the footprint decides: a move that merely reorders ties is no gain. */
static int key_compare(const improve_t *m, const footprint_t *a, const footprint_t *b)
{
    subset_scored_t x = { *a, NULL, 0 }, y = { *b, NULL, 0 };
    return subset_compare(&m->opt->goal, &x, &y);
}

/* nb = cur without out (-1: none) with add (-1: none), ascending; in
 * marks it. */
static void neighbour(improve_t *m, int32_t out, int32_t add)
{
    m->n_nb = 0;
    bool added = add < 0;
    for (int32_t i = 0; i < m->n_cur; i++) {
        if (!added && add < m->cur[i]) {
            m->nb[m->n_nb++] = add;
            added = true;
        }
        if (m->cur[i] != out)
            m->nb[m->n_nb++] = m->cur[i];
    }
    if (!added)
        m->nb[m->n_nb++] = add;
    if (out >= 0)
        m->in[out] = 0;
    if (add >= 0)
        m->in[add] = 1;
}

static void unmark(improve_t *m, int32_t out, int32_t add)
{
    if (add >= 0)
        m->in[add] = 0;
    if (out >= 0)
        m->in[out] = 1;
}

/* Scores nb into *fp unless the bound shows it no better than *than:
 * *scored tells which. */
static int look(improve_t *m, const footprint_t *than, footprint_t *fp, bool *scored, rs_error_t *err)
{
    int64_t compute_lb, total_lb;
    subset_bound(&m->sc, m->in, m->none, &compute_lb, &total_lb);
    *scored = false;
    if (subset_bound_loses(&m->opt->goal, compute_lb, total_lb, than)) {
        m->res->skipped++;
        return RS_OK;
    }
    int rc = subset_score(&m->sc, m->nb, m->n_nb, fp, err);
    if (rc)
        return rc;
    *scored = true;
    m->res->scored++;
    if (m->opt->stop && m->opt->stop(m->opt->stop_ud))
        m->stopped = true;
    return RS_OK;
}

static void take(improve_t *m, const footprint_t *fp)
{
    memcpy(m->cur, m->nb, (size_t)m->n_nb * sizeof *m->cur);
    m->n_cur = m->n_nb;
    m->cur_fp = *fp;
    m->res->moves++;
}

/* Every flip added or removed; the best that beats cur is taken.  *moved
 * says whether one was. */
static int single_moves(improve_t *m, bool *moved, rs_error_t *err)
{
    *moved = false;
    int32_t best_c = -1;
    footprint_t best = m->cur_fp;
    for (int32_t j = 0; j < m->sc.n_cands && !m->stopped; j++) {
        int32_t c = m->sc.cands[j];
        bool had = m->in[c];
        neighbour(m, had ? c : -1, had ? -1 : c);
        footprint_t fp;
        bool scored;
        int rc = look(m, &best, &fp, &scored, err);
        unmark(m, had ? c : -1, had ? -1 : c);
        if (rc)
            return rc;
        if (scored && key_compare(m, &fp, &best) < 0) {
            best = fp;
            best_c = c;
        }
    }
    if (best_c >= 0) {
        bool had = m->in[best_c];
        neighbour(m, had ? best_c : -1, had ? -1 : best_c);
        take(m, &best);
        *moved = true;
    }
    return RS_OK;
}

/* One flip out, one in: the first that beats cur is taken. */
static int swap_moves(improve_t *m, bool *moved, rs_error_t *err)
{
    *moved = false;
    for (int32_t i = 0; i < m->n_cur && !m->stopped; i++) {
        int32_t out = m->cur[i];
        for (int32_t j = 0; j < m->sc.n_cands && !m->stopped; j++) {
            int32_t add = m->sc.cands[j];
            if (m->in[add])
                continue;
            neighbour(m, out, add);
            footprint_t fp;
            bool scored;
            int rc = look(m, &m->cur_fp, &fp, &scored, err);
            if (rc) {
                unmark(m, out, add);
                return rc;
            }
            if (scored && key_compare(m, &fp, &m->cur_fp) < 0) {
                take(m, &fp); /* in already marks the new plan */
                *moved = true;
                return RS_OK;
            }
            unmark(m, out, add);
        }
    }
    return RS_OK;
}

int improve_run(const improve_options_t *opt, const fit_context_t *ctx, improve_result_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    improve_t m = { .opt = opt, .res = out };
    int rc = subset_scorer_init(&m.sc, ctx, "improve", opt->audit, err);
    if (!rc) {
        m.in = m.sc.in;
        m.none = m.sc.maybe; /* stays all zero: no undecided node */
        m.cur = m.sc.list_a;
        m.nb = m.sc.list_b;
        out->n_cands = m.sc.n_cands;
        for (int32_t h = 0; h < opt->n_start; h++)
            m.in[opt->start[h]] = 1;
        for (int32_t j = 0; j < m.sc.n_cands; j++)
            if (m.in[m.sc.cands[j]])
                m.cur[m.n_cur++] = m.sc.cands[j];
        memset(m.in, 0, (size_t)m.sc.n_nodes);
        for (int32_t i = 0; i < m.n_cur; i++)
            m.in[m.cur[i]] = 1;
        rc = subset_score(&m.sc, m.cur, m.n_cur, &m.cur_fp, err);
        out->scored = 1;
        out->start = m.cur_fp;
    }
    bool moved = true;
    while (!rc && moved && !m.stopped) {
        rc = single_moves(&m, &moved, err);
        if (!rc && !moved && !m.stopped)
            rc = swap_moves(&m, &moved, err);
    }
    if (!rc) {
        out->final = m.cur_fp;
        out->local_optimum = !m.stopped;
        out->n_flips = m.n_cur;
        out->flips = malloc(((size_t)m.n_cur + 1) * sizeof *out->flips);
        if (!out->flips)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        else
            memcpy(out->flips, m.cur, (size_t)m.n_cur * sizeof *out->flips);
    }
    subset_scorer_free(&m.sc);
    return rc;
}

void improve_result_free(improve_result_t *r)
{
    free(r->flips);
    memset(r, 0, sizeof *r);
}
