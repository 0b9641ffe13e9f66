/* progress: what `fit` and `sweep` say on stderr while they work, when
 * stderr is a terminal: one line naming the stretch of work it is in and
 * how far that stretch is ("fit 60%: scoring the baseline", "fit 60%:
 * round one 1,234 of 1,694 scorings (72%)  3 s", "sweep 2 of 4 (60%):
 * round two 120 of 847 tries (14%)  4 s", "... round two: budget met after
 * 317 of 847 tries", "fit 60%: improving: 3 moves, 1,234 scored, 4 s of
 * 10 s", "fit 60%: saving the plan: 1,000 of 2,611 events (38%)"),
 * rewritten in place at most four times a second, cut to the terminal's
 * width, erased before anything else is printed; and ^C as a stop each
 * stretch sees at its next scoring (or saved event).  Nothing is printed
 * when stderr is not a terminal. */
#ifndef RS_PROGRESS_H
#define RS_PROGRESS_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "best.h"
#include "plan/fit.h"
#include "save.h"
#include "util/error.h"

typedef enum progress_phase {
    PROGRESS_NONE,
    PROGRESS_BASELINE,    /* the baseline and its candidates: no count */
    PROGRESS_ROUND_ONE,
    PROGRESS_ROUND_TWO,
    PROGRESS_BUDGET_MET,  /* round two ended early: the budget is met */
    PROGRESS_BEST,        /* --exact or --improve */
    PROGRESS_SAVE,
    PROGRESS_VERIFY       /* verify: the plan's stage (doing), a count of flips in the replay */
} progress_phase_t;

typedef struct progress {
    bool draw;                    /* stderr is a terminal and the line is wanted */
    bool audit;                   /* the fit is audited (--audit): said in the line */
    const char *verb;             /* "fit" or "sweep" */
    const char *budget;           /* fit: the budget as asked */
    const char *const *budgets;   /* sweep: budgets[0..n_plans) as asked */
    int32_t n_plans;
    progress_phase_t phase;
    int32_t plan;                 /* the budget the phase is for */
    int64_t base, n, done;        /* the phase's count: done - base of n; BUDGET_MET: after n */
    best_tally_t tally;           /* PROGRESS_BEST */
    int32_t saving;               /* PROGRESS_SAVE: the plan being saved (0-based) */
    int64_t plan_id;              /* PROGRESS_VERIFY: the plan checked (plan is its 0-based place) */
    char doing[64];               /* PROGRESS_VERIFY: "scoring the baseline", "replaying the flips" */
    int64_t t0_us, drawn_us;      /* when the run began, when the line was last drawn */
    int64_t every_us;             /* the least time between two lines */
    int drawn_cols;               /* the line's columns on the terminal; 0: none */
    char shown[512];              /* the line drawn */
    bool hidden;                  /* cleared away until the next change */
    pthread_mutex_t lock;         /* the fields above, between the caller and the ticker */
    pthread_cond_t wake;
    pthread_t tid;
    bool ticking, quit;           /* the ticker runs; it is asked to end */
    bool caught;                  /* SIGINT is ours until progress_end */
    struct sigaction old_int;
} progress_t;

/* Starts telling a fit of budget (as asked, e.g. "60%"; audit: under
 * --audit) on stderr when want and stderr is a terminal, says it is
 * scoring the baseline, and
 * takes SIGINT as a stop until progress_end (unless it was ignored when
 * we started). */
void progress_fit_begin(progress_t *p, bool want, const char *budget, bool audit);

/* The same for a sweep of budgets[0..n) (as asked). */
void progress_sweep_begin(progress_t *p, bool want, const char *const *budgets, int32_t n, bool audit);

/* The same for `verify` of n plans: nothing is told until progress_verify. */
void progress_verify_begin(progress_t *p, bool want, int32_t n);

/* Verify is at the plan-th (0-based) of its plans, plan id, doing what it
 * says ("replaying the flips"), done of n flips when n > 0; true when ^C
 * asked for a stop.  "verify plan 2 (1 of 4): replaying the flips 12 of
 * 3,878 flips (0%)  3 s". */
bool progress_verify(progress_t *p, int32_t plan, int64_t id, const char *doing, int64_t done, int64_t n);

/* Sets o's progress and stage callbacks to p's. */
void progress_attach(progress_t *p, fit_options_t *o);

/* Sets x's progress callback to p's (the save's events, plan by plan). */
void progress_attach_save(progress_t *p, save_extra_t *x);

/* A best_run_watched watch (ud: a progress_t): tells the search's count
 * and time, and stops it on ^C. */
int progress_best_watch(void *ud, const best_tally_t *t);

/* Erases the line (to print something else on stderr); it comes back at
 * the next thing told. */
void progress_clear(progress_t *p);

/* Whether ^C asked for a stop so far. */
bool progress_stopped(const progress_t *p);

/* Erases the line and gives SIGINT back; true when ^C asked for a stop. */
bool progress_end(progress_t *p);

/* After a run that ended RS_ECANCELED because progress_end said ^C: says
 * "rematscope: fit stopped (^C)" on stderr; returns the exit status 130
 * (128 + SIGINT, as a shell says of a process ^C ended). */
int progress_fail_stopped(const progress_t *p);

#endif
