/* fitutil: running fit on a routine text in tests, and the hand-worked
 * routines the planner tests share. */
#ifndef RS_FITUTIL_H
#define RS_FITUTIL_H

#include "plan/fit.h"
#include "plan/trace.h"
#include "testutil.h"

typedef struct tf {
    tr_t t;
    fit_context_t *ctx;
    fit_plan_t *plan;
} tf_t;

/* A root context over t with the profile-less defaults; fails the test on error. */
fit_context_t *tf_root(const tr_t *t);

/* Loads text and fits it with budget (units syntax) and cap (-1 default),
 * on threads threads (0: all cores); fails the test on error. */
void tf_fit(tf_t *f, const char *text, const char *budget, int32_t cap, int32_t threads);
/* The same, lowering afresh for every scoring (no reuse cell): the plain path. */
void tf_fit_relower(tf_t *f, const char *text, const char *budget, int32_t cap, int32_t threads);
/* Reads path (a §1 routine or HLO text, under 1 MiB) and fits it likewise. */
void tf_fit_file(tf_t *f, const char *path, const char *budget, int32_t cap);
void tf_free(tf_t *f);

/* DESIGN §13 on f's plan, checked against a plain recomputation: each
 * flip's recompute (a prefix of the flips scored), their sum (final.compute
 * - baseline.compute), the floor and the floor under the cap (every step
 * summed) with their roles, floor <= floor_cap <= final.live_peak.  Every
 * tf_fit runs it. */
void tf_check_answers(const tf_t *f);

/* The name of node i. */
const char *tf_name(const tf_t *f, int32_t node);

/* Asserts the plan's flips are exactly names[i] with reliefs[i]. */
void tf_expect_flips(const tf_t *f, int n, const char *const *names, const int64_t *reliefs);

/* Index of the first event of kind about node name (NULL: any), or -1. */
int32_t tf_find_event(const tf_t *f, fit_event_kind_t kind, const char *name);
/* trace_describe and trace_explain into buf (cut at n: the tests' texts
 * are short); fails the test when out of memory. */
void tf_describe(const fit_plan_t *p, int32_t i, char *buf, size_t n);
void tf_explain(const fit_plan_t *p, int32_t node, char *buf, size_t n);

/* A random routine text (for property tests: @output, @pinned, @inline,
 * @into and accumulations among its nodes), deterministic in seed. */
char *tf_random_routine(unsigned seed);

/* Region 1 (P) is the peak; Y's region is next; n1 is neutral everywhere;
 * K (pinned) sets the floor.  Worked through in test_fit.c. */
extern const char *ROUTINE_NEUTRAL;
/* X and Y pin the same peak: each alone relieves 0, together all of it. */
extern const char *ROUTINE_PAIR;
/* c1 is neutral alone but harmful once Y is inlined. */
extern const char *ROUTINE_HARMFUL;
/* m's inlining extends a bigger argument: negative relief. */
extern const char *ROUTINE_NEGATIVE;

#endif
