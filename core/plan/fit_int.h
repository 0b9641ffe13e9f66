/* fit_int: what the parts of the planner (DESIGN §5) share: the search's
 * state and the few functions one part calls in another.  fit.c is the
 * contexts, the scoring through the reuse cell and fit_run (the candidate
 * cut, then the rounds in order); fit_round1.c scores every kept candidate
 * alone and orders them; fit_round2.c accepts, holds, commits and discards;
 * fit_plan.c records events, members and flips into the plan, copies and
 * frees it; fit_outlook.c the cap and the floors, before a fit and in its plan.  Not for use outside core/plan. */
#ifndef RS_FIT_INT_H
#define RS_FIT_INT_H

#include <stdint.h>

#include "lower/rescore.h"
#include "plan/cand.h"
#include "plan/fit.h"

/* a run of plan->members */
typedef struct range {
    int32_t off, n;
} range_t;

/* One try of round two: score(A + c), and score(A + H + c) when a group
 * was held. */
typedef struct fit_try {
    footprint_t alone, with;
    int32_t has_with;
    int32_t reserved;
} fit_try_t;

/* A reference round two scores against: score(base + state), with a work
 * for the alone and one for the with scorings. */
typedef struct fit_slot {
    rescore_t *ref;
    rescore_work_t *work[2];
    int32_t *state;          /* the flips on top of the context, sorted */
    int32_t n_state, cap_state;
} fit_slot_t;

/* Round two over one candidate list (the cap's cheapest, ranked): the
 * tries so far, shared by every budget a sweep fits with that list (each
 * stops at its budget, so each budget's trajectory is a prefix of the
 * smallest's), and up to two references that follow score(A) and
 * score(A + H) (any reference gives the exact score; a near one is fast). */
typedef struct fit_group {
    int32_t kept;
    fit_slot_t slot[2];
    int32_t n_slots;         /* 0: scorings from scratch */
    fit_try_t *tries;
    int32_t n_tries, cap_tries;
} fit_group_t;

/* What every budget of a search shares: the baseline, its candidates in
 * the cap's order (cheapest first), and their solo scores so far. */
typedef struct fit_shared {
    lowering_t *base;        /* the baseline scoring's lowering, for references */
    footprint_t baseline;
    flip_candidate_t *cand;  /* Inline only, cost bound ascending, then node */
    int32_t n_cand;
    int64_t *solo;           /* score({cand[i]}).total for i < n_solo */
    int32_t n_solo;
    rescore_t *ref1;         /* round one's reference (the baseline); NULL: from scratch */
    fit_group_t *groups;
    int32_t n_groups;
} fit_shared_t;

typedef struct search {
    const fit_options_t *opt;
    const fit_context_t *ctx;
    reuse_cell_t *cell;
    reuse_owner_t owner;
    reuse_thunk_t thunk;     /* what the cell calls to lower */
    fit_plan_t *plan;
    int32_t n_nodes;
    uint8_t *base_prefs;     /* the context's preferences */
    int32_t cap_events, cap_members, cap_flips;
    range_t recent[2];       /* the last two member lists stored, newest first */
    int32_t *cand_of;        /* node -> index in plan->cands, -1 */
    int32_t progress_done, progress_total;
    int32_t plan_index;      /* the budget being fitted, of the sweep's */
    fit_shared_t *sh;
} search_t;

typedef struct ranked {
    int32_t node;
    int64_t relief, cost;
} ranked_t;

/* Appends ev to the plan, its members members[0..n_members) placed in
 * plan->members (shared with an earlier event's list where they can be). */
int fit_emit(search_t *s, fit_event_t ev, const int32_t *members, int32_t n_members, rs_error_t *err);

/* An event of kind in round at node, with alone, with and cur unknown (-1). */
fit_event_t fit_event(fit_event_kind_t kind, int round, int32_t node);

/* Tells opt->stage (when set) that stage of the plan being made begins. */
void fit_stage(const search_t *s, fit_stage_t stage, int32_t n);

/* Appends the flip of node to the plan. */
int fit_add_flip(search_t *s, int32_t node, int64_t relief, int64_t cost, int64_t recompute, rs_error_t *err);

/* RS_EINPUT (§5 step 0) when ctx's buffer_aliasing is off. */
int fit_check_aliasing(const fit_context_t *ctx, rs_error_t *err);

/* The plan's floors (DESIGN §13) from l scored with prefs under cfg, cut at
 * p->cap as the plan was. */
int fit_floors(fit_plan_t *p, const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, rs_error_t *err);

/* score(context + extra[0..n)), through the reuse cell: against ref with
 * work (the incremental layout), or from scratch when ref is NULL.
 * Thread-safe (one work per thread). */
int fit_score_set(search_t *s, const rescore_t *ref, rescore_work_t *work, const int32_t *extra, int32_t n,
                  footprint_t *fp, rs_error_t *err);

/* Round one: solo[i] = score({nodes[i]}).total, on the option's threads
 * against s->sh->ref1; the first failure by index is the one reported. */
int fit_score_solo(search_t *s, const int32_t *nodes, int32_t n, int64_t *solo, rs_error_t *err);

/* qsort's order of round one's ranking (ranked_t): positive reliefs by
 * ratio descending, then negative ones likewise, zero last; ties by cost
 * bound ascending, then definition order. */
int fit_cmp_ranked(const void *pa, const void *pb);

/* Round two over order[0..n): fills the flips, the candidates' statuses
 * and plan->final, taking the tries g has made already and making (and
 * keeping) the rest. */
int fit_round_two(search_t *s, const ranked_t *order, int32_t n, fit_group_t *g, rs_error_t *err);

/* A slot of g at score(base + flips[0..n)) made from the baseline's
 * lowering (no scoring through the reuse cell); its state is set. */
int fit_slot_new(search_t *s, fit_group_t *g, const int32_t *flips, int32_t n, rs_error_t *err);
void fit_group_free(fit_group_t *g);

#endif
