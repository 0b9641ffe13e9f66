/* progress: what `fit` and `sweep` say on stderr while the planner runs,
 * when stderr is a terminal: one line, rewritten in place at most four
 * times a second and cut to the terminal's width ("fit 60%: round one
 * 1,234 of 1,694 scorings (72%)  3 s", "sweep 2 of 4 (60%): ..."), erased
 * before anything else is printed; and ^C as a stop the planner sees at
 * its next scoring.  Nothing is printed when stderr is not a terminal. */
#ifndef RS_PROGRESS_H
#define RS_PROGRESS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "plan/fit.h"
#include "util/error.h"

typedef struct progress {
    bool draw;                    /* stderr is a terminal and the line is wanted */
    const char *verb;             /* "fit" or "sweep" */
    const char *budget;           /* fit: the budget as asked */
    const char *const *budgets;   /* sweep: budgets[0..n_plans) as asked */
    int32_t n_plans, plan;        /* sweep: how many budgets, the one being fitted */
    int32_t base, last;           /* sweep: scorings before this plan's, the last count told */
    int64_t t0_us, drawn_us;      /* when the fit began, when the line was last drawn */
    int drawn_cols;               /* the line's columns on the terminal; 0: none */
    bool caught;                  /* SIGINT is ours while the fit runs */
    struct sigaction old_int;
} progress_t;

/* Starts telling a fit of budget (as asked, e.g. "60%") on stderr when
 * want and stderr is a terminal, and takes SIGINT as a stop until
 * progress_end (unless it was ignored when we started). */
void progress_fit_begin(progress_t *p, bool want, const char *budget);

/* The same for a sweep of budgets[0..n) (as asked). */
void progress_sweep_begin(progress_t *p, bool want, const char *const *budgets, int32_t n);

/* Sets o's progress callback (and, for a sweep, its plan_done) to p's. */
void progress_attach(progress_t *p, fit_options_t *o);

/* Erases the line and gives SIGINT back; true when ^C asked for a stop. */
bool progress_end(progress_t *p);

/* After a fit that ended RS_ECANCELED because progress_end said ^C: says
 * "rematscope: fit stopped (^C)" on stderr; returns the exit status 130
 * (128 + SIGINT, as a shell says of a process ^C ended). */
int progress_fail_stopped(const progress_t *p);

#endif
