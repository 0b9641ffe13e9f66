/* fit: the two-round recompute-vs-store planner of DESIGN §5, its contexts
 * and its plan.  Analyze-only: it lowers and scores, nothing else, and the
 * same inputs always give the same plan and trace. */
#ifndef RS_FIT_H
#define RS_FIT_H

#include <stdbool.h>
#include <stdint.h>

#include "lower/score.h"
#include "model/routine.h"
#include "model/units.h"
#include "plan/floor.h"
#include "plan/reuse.h"
#include "util/error.h"

/* A context: a routine under bindings and a config, with inline
 * preferences; a child adds the flips a fit accepted on top of its parent. */
typedef struct fit_context {
    const struct fit_context *parent; /* NULL for a root */
    const routine_t *routine;
    const bindings_t *bindings;
    score_config_t cfg;
    int32_t *prefs;                   /* this context's own decide_inline nodes */
    int32_t n_prefs;
} fit_context_t;

/* A root context over r and b with cfg and the nodes prefs[0..n) (copied).
 * Free with fit_context_free. */
int fit_context_root(const routine_t *r, const bindings_t *b, const score_config_t *cfg, const int32_t *prefs,
                     int32_t n_prefs, fit_context_t **out, rs_error_t *err);
void fit_context_free(fit_context_t *c);

/* Sets out[i] = 1 for every preference of c and its ancestors (out has one
 * byte per node of the routine). */
void fit_context_prefs(const fit_context_t *c, uint8_t *out);

typedef enum fit_event_kind {
    EV_BASELINE,      /* cur: baseline total */
    EV_KEPT,          /* node, cost */
    EV_DROPPED,       /* node, cost: over the cap */
    EV_SOLO,          /* node, alone: score({c}).total, relief = baseline - alone */
    EV_ORDER,         /* node, rank (1-based), relief, cost */
    EV_TRY,           /* node, alone, with (-1 when no group is held), cur */
    EV_ACCEPT,        /* node, relief = cur - alone, cur: before */
    EV_HOLD,          /* node: alone == cur (held, speculatively) */
    EV_COMMIT_GROUP,  /* node closes the group; members; relief = cur - with */
    EV_DISCARD_GROUP, /* members; reason; node, alone, with: the try that showed it harmful */
    EV_REJECT,        /* node; reason */
    EV_BUDGET_MET,    /* cur <= budget */
    EV_END            /* cur: final total */
} fit_event_kind_t;

typedef enum fit_reason {
    WHY_NONE,
    WHY_WORSE_ALONE,    /* reject: alone > cur */
    WHY_NOT_BELOW_CUR,  /* reject: with < alone but with >= cur: the held group stays */
    WHY_HARMFUL,        /* discard: with > alone */
    WHY_LEFT_OVER       /* discard at the end: recompute is never paid for zero bytes */
} fit_reason_t;

/* Fields are ordered so the struct has no padding: a trace compares (and is
 * stored) byte for byte. */
typedef struct fit_event {
    int64_t cost;
    int64_t alone, with, cur;
    int64_t relief;
    int32_t node;       /* -1 when none */
    int32_t rank;
    int32_t group_off;  /* members: plan->members[group_off .. group_off + group_n) */
    int32_t group_n;
    int32_t accepted_n; /* flips accepted when the event happened (for replay) */
    uint8_t kind;       /* fit_event_kind_t */
    uint8_t round;      /* 0 setup, 1, 2 */
    uint8_t reason;     /* fit_reason_t */
    uint8_t reserved;   /* 0 */
} fit_event_t;

typedef struct fit_flip {
    int64_t relief;
    int64_t cost;       /* the recompute-cost bound of §4 */
    int64_t recompute;  /* final.compute after it minus before it (DESIGN §13); 0 for a held member */
    int32_t node;
    int32_t reserved;   /* 0: no padding */
} fit_flip_t;

typedef enum fit_status {
    ST_PENDING,
    ST_ACCEPTED,
    ST_HELD,
    ST_COMMITTED,   /* accepted as part of a load-bearing group */
    ST_DISCARDED,
    ST_REJECTED,
    ST_DROPPED
} fit_status_t;

/* A candidate of the plan, kept ones in round-one order, then the dropped. */
typedef struct fit_cand {
    int64_t cost;
    int64_t solo;       /* score({c}).total; -1 when not scored */
    int64_t relief;     /* baseline - solo */
    int32_t node;
    int32_t rank;       /* 1-based round-one rank; 0 for dropped */
    uint8_t status;     /* final fit_status_t */
    uint8_t reserved[7];
} fit_cand_t;

typedef struct fit_plan {
    const routine_t *routine;
    bool minimize;
    int64_t budget;      /* bytes; -1 for minimize */
    int32_t cap;         /* candidate cap used; -1 unbounded */
    footprint_t baseline, final;
    fit_flip_t *flips;
    int32_t n_flips;
    int32_t considered, dropped;
    bool within_budget;
    int64_t reused, lowered; /* the search's counters when this plan ended */
    fit_event_t *events;
    int32_t n_events;
    int32_t *members;    /* group members of events */
    int32_t n_members;
    fit_cand_t *cands;
    int32_t n_cands;
    floor_t floor;       /* DESIGN §13: no plan's total is below it */
    floor_t floor_cap;   /* with the candidates the cap dropped; = floor when it dropped none */
} fit_plan_t;

/* Called as scorings finish; a nonzero return cancels the fit. */
typedef int (*fit_progress_fn)(void *ud, int32_t done, int32_t total);

/* Called when a sweep's plan i is made (on the calling thread), before the
 * next one starts. */
typedef void (*fit_plan_done_fn)(void *ud, int32_t i, const struct fit_plan *p);

/* Where a search is, told to a front end as each stretch of it begins
 * (the scorings' count says how far each has gone). */
typedef enum fit_stage {
    FIT_STAGE_BASELINE,   /* the baseline scored and its candidates listed: no count until it ends */
    FIT_STAGE_ROUND_ONE,  /* n solo scorings, once for every budget of the search that needs them */
    FIT_STAGE_ROUND_TWO,  /* plan's round two: n tries at most (it ends at the budget) */
    FIT_STAGE_BUDGET_MET  /* plan's round two met the budget after n tries (0: the baseline meets it) */
} fit_stage_t;

/* Called on the calling thread as a stage begins; done is the progress
 * count (fit_progress_fn's done) at that moment, so a stage's own count is
 * the later done minus it. */
typedef void (*fit_stage_fn)(void *ud, fit_stage_t stage, int32_t plan, int32_t done, int32_t n);

/* A cap that keeps every candidate (`--max-candidates all`, the TUI's C). */
#define FIT_CAP_ALL INT32_MAX

typedef struct fit_options {
    const char *name;          /* part of the reuse cell's owner; may be NULL */
    int32_t max_candidates;    /* -1: 32 for bytes, unbounded for minimize; FIT_CAP_ALL: every one */
    budget_spec_t budget;
    int64_t device_bytes;      /* for BUDGET_DEVICE; -1 when there is no profile */
    int32_t threads;           /* round one; 0: one per core */
    bool relower;              /* benchmarks only: lower afresh for every scoring, no reuse */
    bool full_scoring;         /* a check: lay every scoring out from scratch (the same plans, slower) */
    fit_progress_fn progress;
    void *progress_ud;
    fit_plan_done_fn plan_done;  /* may be NULL */
    void *plan_done_ud;
    fit_stage_fn stage;          /* may be NULL */
    void *stage_ud;
} fit_options_t;

/* Runs fit on ctx.  cell may be NULL (the fit makes its own, one search) or
 * a cell that is empty or filled under the owner (ctx, ctx->routine,
 * ctx->bindings, opt->name).  The lowering it hands the cell lowers
 * ctx->routine under ctx->bindings and resolves the name to opt->name, else
 * the routine's.  Round one's worker threads inherit the caller's reuse
 * scope (audit, created-observer).
 * Errors: RS_EINPUT when buffer_aliasing is off or the budget cannot be
 * resolved; RS_EINVAL for a foreign cell; RS_ECANCELED from progress. */
int fit_run(const fit_options_t *opt, const fit_context_t *ctx, reuse_cell_t *cell, fit_plan_t **out,
            rs_error_t *err);
void fit_plan_free(fit_plan_t *p);

/* fit_run for each of budgets[0..n) (opt->budget is ignored) as one
 * search: plans[i] is exactly what fit_run would return for budgets[i]
 * (the same plan and trace), but the baseline is scored once, round one
 * once for all of them (solo scores depend on the routine, context and
 * candidates, not on the budget), and round two once per candidate list:
 * each budget stops where its trajectory meets it, a prefix of the
 * smallest budget's.  Each plan's counters are the cell's when it was
 * made (the scorings made so far).  On error plans[] holds nothing. */
int fit_sweep(const fit_options_t *opt, const budget_spec_t *budgets, int32_t n, const fit_context_t *ctx,
              reuse_cell_t *cell, fit_plan_t **plans, rs_error_t *err);
/* The candidate cap a fit under opt uses: max_candidates when given, else
 * 32 for a byte budget and none (-1) for minimize (DESIGN §5 step 1). */
int32_t fit_cap(const fit_options_t *opt, bool minimize);

/* What a fit of ctx under opt faces, told before it runs (DESIGN §13):
 * the baseline, the budget resolved, the cap and both floors.  A byte
 * budget the baseline meets cuts nothing (as fit does: dropped 0). */
typedef struct fit_outlook {
    bool minimize;
    int64_t budget;      /* bytes; -1 for minimize */
    int32_t cap;         /* -1: none */
    floor_fit_t floors;  /* baseline, floor, floor under the cap, candidates, dropped */
} fit_outlook_t;

/* Lowers ctx's routine (no reuse cell) and fills out.  Errors: the
 * budget's resolution (RS_EINPUT, file "--budget"), buffer_aliasing off (as
 * fit_run) and the scoring's. */
int fit_outlook(const fit_options_t *opt, const fit_context_t *ctx, fit_outlook_t *out, rs_error_t *err);

/* A deep copy of p (same routine borrowed), or RS_ENOMEM. */
int fit_plan_copy(const fit_plan_t *p, fit_plan_t **out, rs_error_t *err);

/* The child context: ctx plus decide_inline of every flip of p. */
int fit_context_child(const fit_context_t *ctx, const fit_plan_t *p, fit_context_t **out, rs_error_t *err);

/* The reuse owner a fit of ctx named name uses. */
reuse_owner_t fit_owner(const fit_context_t *ctx, const char *name);

_Static_assert(sizeof(fit_event_t) == 64, "fit_event_t has no padding");
_Static_assert(sizeof(fit_flip_t) == 32, "fit_flip_t has no padding");
_Static_assert(sizeof(fit_cand_t) == 40, "fit_cand_t has no padding");

#endif
