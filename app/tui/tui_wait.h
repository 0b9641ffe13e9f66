/* tui_wait: every long operation of the TUI (a fit, Compare's search, the
 * best plan, opening or importing a big routine, a layout switch, an
 * export) runs as work on the calling thread (the main one, so it
 * allocates as the CLI does) while a second thread keeps the screen under
 * it: once the wait passes TUI_WAIT_BAR_US a progress bar
 * on the status line says what is being done and how far it is, the
 * status bar below stays drawn (its reuse counters move), and ^C or Esc
 * asks the work to stop (work that cannot stop says so instead).  Other
 * keys typed meanwhile run after it. */
#ifndef RS_TUI_WAIT_H
#define RS_TUI_WAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/tui_state.h"
#include "util/error.h"

/* How long a wait goes without a bar: a quick one does not flicker. */
#define TUI_WAIT_BAR_US 300000

typedef struct tui_job tui_job_t;

/* The work: runs on the calling thread while the bar's thread draws (with
 * no bar when no thread can be started) and must touch nothing of the
 * session the screens draw and nothing of curses:
 * it fills what ud points to, and its caller installs that after the wait.
 * Returns a status with err filled; RS_ECANCELED after a stop. */
typedef int (*tui_work_fn)(tui_job_t *job, void *ud, rs_error_t *err);

/* Runs work(job, ud, err) and waits for it as above; what (a few words,
 * "fit 60% on bert") heads the bar.  Returns work's status. */
int tui_wait(tui_t *t, const char *what, tui_work_fn work, void *ud, rs_error_t *err);
/* tui_wait with the work's name said several ways, longest first
 * ("Compare: 4 budgets on bert", "4 budgets on bert", "Compare"): the bar
 * shows the first that fits whole beside what the work is doing, so a
 * narrow screen reads a shorter name rather than a cut one. */
int tui_wait_named(tui_t *t, const char *const *names, int n_names, tui_work_fn work, void *ud, rs_error_t *err);
/* The same for work that cannot be stopped part-way (an import, a layout
 * switch): the bar says "cannot be stopped" where the others say "^C
 * stops", and ^C or Esc typed meanwhile is dropped. */
int tui_wait_unstoppable(tui_t *t, const char *what, tui_work_fn work, void *ud, rs_error_t *err);

/* For the work: what it does now ("round one", "budget 2 of 4: 60%"),
 * shown after the bar's heading. */
void tui_job_doing(tui_job_t *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For the work: a stage of it begins: what it does (as tui_job_doing), its
 * count from 0 of total (total <= 0: no count, the bar only shows that it
 * runs) and what the count counts ("scorings", said after it; NULL: no
 * word), all at once, so the bar never shows one stage's words with
 * another's count. */
void tui_job_stage(tui_job_t *job, int64_t total, const char *unit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* For the work: how far it is, done of total (total <= 0: not known, the
 * bar only shows that it runs).  Returns nonzero once a stop was asked. */
int tui_job_progress(tui_job_t *job, int64_t done, int64_t total);
/* For the work: it ends within limit_us from now (a search under a time
 * limit, its count unknown): the bar fills with that time and says "of N
 * s".  A count given by tui_job_progress wins; limit_us <= 0 clears it. */
void tui_job_time_limit(tui_job_t *job, int64_t limit_us);
/* A fit's or a sweep's stages told on a job's bar (fit.h's fit_stage_t):
 * "scoring the baseline", "round one 500/9324 scorings", "round two
 * 12/9324 tries at most" (it ends at the budget), "round two: budget met
 * after 317 tries", "the baseline meets the budget", the bar filling with
 * the stage's own count.  For a sweep, each plan's stage is headed by its
 * budget ("budget 2 of 4: 60%: round two ...") and round one, made once
 * for all, says "round one, shared". */
typedef struct tui_fit_watch {
    tui_job_t *job;
    const char *const *budgets; /* a sweep's, as typed, by plan index; NULL: one fit */
    int32_t n_budgets;
    int32_t first;              /* added to the plan index the fit tells (budgets fitted one by one) */
    bool shared;                /* the budgets are one search: round one is theirs together */
    int32_t base, n;            /* the stage's count: the fit's done - base of n; n 0: none */
} tui_fit_watch_t;
/* Sets o's progress and stage callbacks to w's; the caller sets w's job
 * and budgets first.  The callbacks run on the fit's calling thread (the
 * worker) and tell the bar through the job. */
void tui_fit_watch(tui_fit_watch_t *w, fit_options_t *o);
/* Whether the user asked the work to stop (^C, Esc). */
bool tui_job_stopped(tui_job_t *job);
/* The same as a core stop or cancel callback (ud: the job). */
int tui_job_stop_cb(void *job);

#endif
