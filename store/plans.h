/* plans: saved fit plans with their flips, events, context lineage and
 * counters, sweeps, and reading them back. */
#ifndef RS_PLANS_H
#define RS_PLANS_H

#include <stdbool.h>
#include <stdint.h>

#include "frontiers.h"
#include "plan/fit.h"
#include "store.h"
#include "util/strbuf.h"

typedef struct plan_save {
    const fit_plan_t *plan;
    int64_t routine_id;
    int64_t profile_id;     /* 0: none */
    const char *bindings;   /* "B=64 D=784", every bound symbol */
    const char *config;     /* "alignment=1 max_inline_depth=8 aliasing=on layout=greedy" */
    const char *prefs;      /* the root context's preferences, space-separated */
    const char *label;      /* may be NULL */
    int64_t elapsed_us;
    int64_t sweep_id;       /* 0: none */
    const char *audit;      /* what --audit found ("N reuses checked, ..." then a line per difference); NULL: not audited */
    const char *budget_spec; /* the budget as asked for ("60%", "device", "48MiB", "minimize"); may be NULL */
    /* may be NULL: called as the events are written, done of total (the
     * plan's events); nonzero stops the save with RS_ECANCELED, and the
     * caller rolls its transaction back */
    int (*progress)(void *ud, int64_t done, int64_t total);
    void *progress_ud;
} plan_save_t;

/* Saves a plan (inside a transaction): its root and child contexts, the
 * plan row, flips, the held groups' members (once, as the planner shares
 * them) and events. */
int plans_save(store_t *s, const plan_save_t *in, int64_t *plan_id, rs_error_t *err);

/* The gap a plan records to a better plan of the same budget (DESIGN §12). */
typedef struct plan_gap {
    char *kind;             /* "exact" or "improved"; "" when none was recorded */
    bool found;             /* a subset fits the budget (exact) */
    bool proved;            /* exact: proved best; improved: a local optimum */
    int64_t total, compute; /* the better plan's footprint */
    char *flips;            /* its flips, space-separated, node order */
    int64_t explored;       /* subsets scored */
} plan_gap_t;

/* Records g as plan id's gap (one row). */
int plans_set_gap(store_t *s, int64_t id, const plan_gap_t *g, rs_error_t *err);

/* Records a sweep (inside a transaction, before its plans). */
int plans_sweep_put(store_t *s, int64_t routine_id, const char *budgets, int64_t reused, int64_t lowered,
                    int32_t n_plans, int64_t *sweep_id, rs_error_t *err);

typedef struct stored_flip {
    char *node;
    int64_t relief, cost;
    int64_t recompute;      /* DESIGN §13; 0 when the plan's recompute_known is false */
} stored_flip_t;

typedef struct stored_event {
    int32_t seq, round, rank;
    char *kind, *node, *reason, *text;
    char *members;          /* plans saved before schema 8: the group's members, space-separated; else "" */
    int32_t group_off;      /* from schema 8: the members are the plan's members[group_off .. + group_n) */
    int32_t group_n;        /* -1: the list is in members (an older plan) */
    int64_t alone, with, cur, relief, cost;
} stored_event_t;

typedef struct stored_plan {
    int64_t id;
    char *label;
    char *routine;
    char *routine_path;     /* the file it was imported from, "" when not known */
    int32_t routine_version;
    int64_t routine_id, context_id, child_context_id, sweep_id;
    char *profile;          /* "" when none */
    int64_t flops_per_s;    /* of the profile, 0 when none */
    char *bindings, *config, *prefs, *child_prefs;
    char *budget_kind;      /* "bytes" or "minimize" */
    int64_t budget_bytes;   /* -1 for minimize */
    char *budget_spec;      /* as asked for ("60%"); "" when not recorded (plans of schema 5 and before) */
    int32_t cap;
    footprint_t baseline, final;
    int32_t considered, dropped;
    bool within_budget;
    int64_t elapsed_us, reused, lowered;
    char *created_at;
    char *audit;            /* NULL when the plan was not audited */
    plan_gap_t gap;         /* kind "" when none */
    stored_flip_t *flips;
    int32_t n_flips;
    bool recompute_known;   /* the flips carry their recompute (plans saved from schema 7 on) */
    stored_event_t *events; /* loaded when asked */
    int32_t n_events;
    char **members;         /* with the events: the held groups' members, in the planner's shared runs */
    int32_t n_members;
    stored_frontier_t frontier; /* present false when none; plans_list gives present, final.total,
                                 * final.compute, within_budget and n_flips (flips NULL), plans_load all */
    char damaged[32];       /* read: the first column out of its range (plans_load and plans_list refuse it) */
    int64_t damaged_value;
} stored_plan_t;

/* Event e of p (loaded with its events): its group members as one
 * space-separated list, as the events CSV gives them (e's members, or its
 * range of p's), in place of out's text; RS_ESTORE when the range is not
 * stored, RS_ENOMEM. */
int plans_event_members(const stored_plan_t *p, const stored_event_t *e, strbuf_t *out, rs_error_t *err);

/* The budget of p for a person: "minimize", the bytes ("48.0 MiB"), or
 * what was asked for with the bytes it came to ("60% = 62.4 MiB",
 * "device = 16.0 GiB").  Returns buf. */
const char *plans_budget_text(const stored_plan_t *p, char *buf, size_t n);

/* Loads plan id (with its events when with_events); RS_EINPUT when there
 * is no such plan. */
int plans_load(store_t *s, int64_t id, bool with_events, stored_plan_t *out, rs_error_t *err);
void stored_plan_free(stored_plan_t *p);

/* p's flips (loaded) as the planner's, for core's answers (DESIGN §13):
 * node indices in r (the plan's routine), relief, cost and recompute (0
 * when not recompute_known).  A new array (*out, free()); RS_ESTORE when a
 * flip names no node of r. */
int plans_flips(const stored_plan_t *p, const routine_t *r, fit_flip_t **out, rs_error_t *err);

/* Every plan, newest first, without flips and events. */
int plans_list(store_t *s, stored_plan_t **out, int *n, rs_error_t *err);
void plans_list_free(stored_plan_t *p, int n);

/* Deletes plan id with its flips and events (inside a transaction);
 * RS_EINPUT when there is no such plan. */
int plans_delete(store_t *s, int64_t id, rs_error_t *err);

#endif
