/* frontier: DESIGN §14's frontier planner, `fit --planner frontier`: for a
 * budget, a plan of inline flips (§2) and remat flips (§14) within it with
 * the least added compute it finds (ties: the smaller total); Minimize: the
 * least total (ties: the least compute).  Every plan is scored exactly by
 * remat_score.
 *
 * The search: a lazy greedy by relief per added FLOP, relief measured as
 * the bytes live above the target summed over steps (so flips that lower
 * one of several peaks count; the target lowered when the arena's height
 * stays above the budget), over four moves per node (inline, remat, a
 * block of remat flips closed over the arguments it would stretch, a fan
 * of remat flips over its readers); from the seed (§5's plan) and from the
 * context alone, each followed by local search (drop a flip when no worse,
 * turn it into the other kind when better); then ruin and recreate on the
 * best (its costliest flips dropped one at a time and the greedy rerun);
 * then, unless no_seeds, policy-like seeds (frontier_seed.h: every node
 * cheap to recompute per byte remat-flipped, for a few thresholds), each
 * rid of its harmful flips by local search, brought to the budget by the
 * greedy and pruned by local search; ruin and recreate again when one wins
 * (issue 45: JAX's checkpoint_dots plan on Llama).  It
 * is never worse than the seed by the objective.  Deterministic: the same
 * inputs and the same max_scorings give the same plan; a stop (time) cuts
 * it with the best found. */
#ifndef RS_FRONTIER_H
#define RS_FRONTIER_H

#include <stdbool.h>
#include <stdint.h>

#include "lower/remat.h"
#include "plan/exact.h"
#include "plan/fit.h"
#include "util/error.h"

typedef enum frontier_kind { FRONTIER_INLINE = 0, FRONTIER_REMAT = 1 } frontier_kind_t;

typedef struct frontier_flip {
    int64_t relief;      /* total before it minus total after it, in the plan's order */
    int64_t recompute;   /* compute after it minus before it */
    int32_t node;
    uint8_t kind;        /* frontier_kind_t */
    uint8_t reserved[3];
} frontier_flip_t;

typedef struct frontier_options {
    bool minimize;
    int64_t budget;          /* bytes, for !minimize */
    const int32_t *seed;     /* inline flips to start from and never end worse than (§5's plan) */
    int32_t n_seed;
    int64_t max_scorings;    /* 0: none */
    plan_stop_fn stop;       /* may be NULL; polled after every scoring */
    void *stop_ud;
    bool no_seeds;           /* leave the policy-like seeds out (frontier_seed.h): the search as it was */
} frontier_options_t;

typedef struct frontier_result {
    footprint_t baseline;    /* the context alone */
    footprint_t seed;        /* the seed's footprint */
    footprint_t final;
    frontier_flip_t *flips;  /* in the planner's order: the seed's, then as the search added them */
    int32_t n_flips;
    int64_t explored;        /* scorings */
    bool within_budget;
    bool stopped;            /* the stop or max_scorings cut the search */
    bool seeds_cut;          /* it cut only the policy-like seeds: the search before them finished */
    bool adopted;            /* the plan is another budget's search's, better here (frontier_adopt) */
} frontier_result_t;

/* Plans ctx (its routine, bindings, config and preferences) under opt.
 * RS_EINPUT when buffer_aliasing is off (as fit).  Free out with
 * frontier_result_free (also after an error). */
int frontier_run(const frontier_options_t *opt, const fit_context_t *ctx, frontier_result_t *out, rs_error_t *err);
void frontier_result_free(frontier_result_t *r);

/* Whether footprint a is strictly better than b by §14's objective for the
 * budget (minimize: the least total, ties the least compute; else within
 * the budget with the least compute, ties the smaller total, before any
 * plan over it, and among those the smaller total). */
bool frontier_better(bool minimize, int64_t budget, const footprint_t *a, const footprint_t *b);

/* dst takes src's plan (its flips, each relief and recompute the same on
 * top of the same context, and its final), judged for dst's budget, and is
 * marked adopted; dst's search figures (explored, stopped) stay.  For a
 * sweep: a plan another budget's search found that is better at this one
 * (the searches are heuristic, not monotone in the budget). */
int frontier_adopt(frontier_result_t *dst, const frontier_result_t *src, bool minimize, int64_t budget,
                   rs_error_t *err);

/* "inline" or "remat". */
const char *frontier_kind_name(frontier_kind_t k);

/* Scores ctx's lowering l with the flips[0..n) on top of the context's
 * preferences: the footprint a frontier plan claims. */
int frontier_score(const fit_context_t *ctx, const lowering_t *l, const frontier_flip_t *flips, int32_t n,
                   footprint_t *out, rs_error_t *err);
/* frontier_score with remat_score's detail of the plan (its §14 schedule:
 * the steps renumbered, each copy's span and offset); detail may be NULL,
 * else free it with remat_detail_free (also after an error). */
int frontier_score_detail(const fit_context_t *ctx, const lowering_t *l, const frontier_flip_t *flips, int32_t n,
                          footprint_t *out, remat_detail_t *detail, rs_error_t *err);

#endif
