/* subset: what the best-plan searches of DESIGN §12 share — a subset of the
 * baseline's flip candidates scored exactly (the real scorer, through a
 * reuse cell as fit scores), §12's objective as a total order on scored
 * subsets, and a proven lower bound on footprint.compute and on the arena
 * over every subset of a branch, computed without a scoring. */
#ifndef RS_SUBSET_H
#define RS_SUBSET_H

#include <stdbool.h>
#include <stdint.h>

#include "lower/score.h"
#include "plan/fit.h"
#include "plan/reuse.h"
#include "util/error.h"

/* The objective: Bytes n (minimize false) or Minimize. */
typedef struct subset_goal {
    bool minimize;
    int64_t budget; /* bytes; ignored for minimize */
} subset_goal_t;

/* A scored subset: nodes ascending by index. */
typedef struct subset_scored {
    footprint_t fp;
    const int32_t *nodes;
    int32_t n;
} subset_scored_t;

/* §12's order: <0 when a is the better plan, 0 when they are the same
 * subset's scores, >0 when b is.  Bytes: a subset that fits beats one that
 * does not; among fitting ones the least compute, then the smaller total;
 * among ones that do not fit (only improve meets them) the smaller total,
 * then the least compute.  Minimize: the smaller total, then the least
 * compute.  Last, the subset whose sorted node indices come first as
 * sequences (a proper prefix first). */
int subset_compare(const subset_goal_t *g, const subset_scored_t *a, const subset_scored_t *b);

/* Scores subsets of one context.  Built once per search. */
typedef struct subset_scorer {
    const fit_context_t *ctx;
    reuse_cell_t *cell;      /* the search's; owned when own_cell */
    bool own_cell;
    reuse_owner_t owner;
    reuse_thunk_t thunk;     /* what the cell calls to lower */
    int32_t n_nodes;
    uint8_t *base;           /* the context's preferences, per node */
    uint8_t *prefs;          /* scratch */
    lowering_t *l;           /* one private lowering for the bounds */
    int32_t *cands;          /* the baseline's Inline candidates, ascending */
    int32_t n_cands;
    footprint_t baseline;
    /* for the searches: per node flags (a branch's or a subset's), and two
     * subsets of at most n_cands nodes; all zero / empty after init */
    uint8_t *in, *maybe;
    int32_t *list_a, *list_b;
    /* scratch for subset_bound */
    uint8_t *state;
    int32_t *dmin, *dmax, *last;
    int64_t *reads, *diff;
} subset_scorer_t;

/* Scores the baseline of ctx and lists its Inline flip candidates (§4, no
 * cap).  name is the search's name in the reuse owner.  Errors as fit_run
 * (RS_EINPUT when buffer_aliasing is off).  Free with subset_scorer_free,
 * also after an error. */
int subset_scorer_init(subset_scorer_t *s, const fit_context_t *ctx, const char *name, bool audit, rs_error_t *err);
void subset_scorer_free(subset_scorer_t *s);

/* footprint of ctx's preferences plus nodes[0..n), exactly as fit scores. */
int subset_score(subset_scorer_t *s, const int32_t *nodes, int32_t n, footprint_t *fp, rs_error_t *err);

/* A lower bound over every subset T with in ⊆ T ⊆ in ∪ maybe (per-node
 * flags, 1 = in that set; a node in both counts as in).  *compute_lb <=
 * footprint(T).compute and *total_lb <= footprint(T).total for every such
 * T.  The proof is at the definition. */
void subset_bound(subset_scorer_t *s, const uint8_t *in, const uint8_t *maybe, int64_t *compute_lb,
                  int64_t *total_lb);

/* True when every subset whose scores are at least (compute_lb, total_lb)
 * is strictly worse than best under g, whatever its nodes. */
bool subset_bound_loses(const subset_goal_t *g, int64_t compute_lb, int64_t total_lb, const footprint_t *best);

#endif
