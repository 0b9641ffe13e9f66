#include "plan/exact.h"

#include <stdlib.h>
#include <string.h>

/* The search tree: a node is a subset, its children add one candidate of
 * larger index than its largest, so a preorder walk visits the subsets in
 * the order §12 breaks ties with (sorted node indices as sequences, a
 * proper prefix first) and every subset exactly once.  The subtree of
 * IN ∪ {c_j} holds exactly the subsets T with IN ∪ {c_j} ⊆ T ⊆ IN ∪ {c_j ..
 * c_last}, which is subset_bound's branch; a subtree is skipped only when
 * subset_bound_loses says every subset in it is strictly worse than the best
 * one scored so far, so the best of the scored subsets is the best of all:
 * the same answer exhaustive enumeration gives. */

typedef struct exact {
    const exact_options_t *opt;
    subset_scorer_t sc;
    exact_result_t *res;
    uint8_t *in, *maybe;   /* per node: the branch */
    int32_t *cur;          /* the subset at the current tree node */
    int32_t *best;         /* the best subset's nodes */
    int32_t *hint;         /* the hint, scored first, with its footprint: */
    int32_t n_hint;        /* the walk meets it again and does not rescore it */
    footprint_t hint_fp;
    bool stopped;
} exact_t;

/* Scores cur[0..n) and keeps it when it beats the best. */
static int visit(exact_t *e, int32_t n, rs_error_t *err)
{
    footprint_t fp;
    exact_result_t *r = e->res;
    if (e->hint && n == e->n_hint && memcmp(e->cur, e->hint, (size_t)n * sizeof *e->cur) == 0) {
        fp = e->hint_fp;
    } else {
        int rc = subset_score(&e->sc, e->cur, n, &fp, err);
        if (rc)
            return rc;
        r->explored++;
    }
    subset_scored_t now = { fp, e->cur, n }, best = { r->final, e->best, r->n_flips };
    bool fits = e->opt->goal.minimize || fp.total <= e->opt->goal.budget;
    if (fits && (!r->found || subset_compare(&e->opt->goal, &now, &best) < 0)) {
        r->found = true;
        r->final = fp;
        memcpy(e->best, e->cur, (size_t)n * sizeof *e->best);
        r->n_flips = n;
    }
    if (e->opt->stop && e->opt->stop(e->opt->stop_ud))
        e->stopped = true;
    return RS_OK;
}

/* Whether the branch in/maybe can hold nothing better than the best. */
static bool prunable(exact_t *e)
{
    int64_t compute_lb, total_lb;
    subset_bound(&e->sc, e->in, e->maybe, &compute_lb, &total_lb);
    const subset_goal_t *g = &e->opt->goal;
    if (!e->res->found)
        return !g->minimize && total_lb > g->budget; /* nothing in it fits */
    return subset_bound_loses(g, compute_lb, total_lb, &e->res->final);
}

/* The children of cur[0..n): on entry maybe holds cands[from..]; restored. */
static int descend(exact_t *e, int32_t n, int32_t from, rs_error_t *err)
{
    const int32_t *cands = e->sc.cands;
    int32_t k = e->sc.n_cands;
    int rc = RS_OK;
    int32_t j = from;
    for (; j < k && !rc && !e->stopped; j++) {
        int32_t c = cands[j];
        e->maybe[c] = 0;
        e->in[c] = 1;
        e->cur[n] = c;
        if (!prunable(e)) {
            rc = visit(e, n + 1, err);
            if (!rc && !e->stopped)
                rc = descend(e, n + 1, j + 1, err);
        }
        e->in[c] = 0;
    }
    for (int32_t i = from; i < j; i++)
        e->maybe[cands[i]] = 1;
    return rc;
}

static int seed_hint(exact_t *e, rs_error_t *err)
{
    int32_t n = 0;
    for (int32_t j = 0; j < e->sc.n_cands; j++)
        for (int32_t h = 0; h < e->opt->n_hint; h++)
            if (e->opt->hint[h] == e->sc.cands[j]) {
                e->cur[n++] = e->sc.cands[j];
                break;
            }
    if (!n)
        return RS_OK;
    int rc = subset_score(&e->sc, e->cur, n, &e->hint_fp, err);
    if (rc)
        return rc;
    e->res->explored++;
    if (!(e->hint = malloc((size_t)n * sizeof *e->hint)))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(e->hint, e->cur, (size_t)n * sizeof *e->hint);
    e->n_hint = n;
    return visit(e, n, err);
}

int exact_run(const exact_options_t *opt, const fit_context_t *ctx, exact_result_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    exact_t e = { .opt = opt, .res = out };
    int rc = subset_scorer_init(&e.sc, ctx, "exact", opt->audit, err);
    if (!rc) {
        e.in = e.sc.in;
        e.maybe = e.sc.maybe;
        e.cur = e.sc.list_a;
        e.best = e.sc.list_b;
        out->baseline = e.sc.baseline;
        out->n_cands = e.sc.n_cands;
        for (int32_t j = 0; j < e.sc.n_cands; j++)
            e.maybe[e.sc.cands[j]] = 1;
        /* the root, the empty subset, is the baseline: scored like the rest */
        rc = visit(&e, 0, err);
        if (!rc && !e.stopped)
            rc = seed_hint(&e, err);
        if (!rc && !e.stopped && !prunable(&e))
            rc = descend(&e, 0, 0, err);
    }
    if (!rc) {
        out->proved = !e.stopped;
        out->flips = malloc(((size_t)out->n_flips + 1) * sizeof *out->flips);
        if (!out->flips)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        else
            memcpy(out->flips, e.best, (size_t)out->n_flips * sizeof *out->flips);
        reuse_cell_counters(e.sc.cell, &out->reused, &out->lowered);
    }
    free(e.hint);
    subset_scorer_free(&e.sc);
    return rc;
}

void exact_result_free(exact_result_t *r)
{
    free(r->flips);
    memset(r, 0, sizeof *r);
}
