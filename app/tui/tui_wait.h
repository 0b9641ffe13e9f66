/* tui_wait: every long operation of the TUI (a fit, Compare's search, the
 * best plan, opening or importing a big routine, a layout switch, an
 * export) runs as work on a worker thread while the UI thread waits with
 * the screen under it: once the wait passes TUI_WAIT_BAR_US a progress bar
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

/* The work: runs on the worker thread (or on the UI thread when no thread
 * can be started) and must touch nothing of the session the screens draw:
 * it fills what ud points to, and its caller installs that after the wait.
 * Returns a status with err filled; RS_ECANCELED after a stop. */
typedef int (*tui_work_fn)(tui_job_t *job, void *ud, rs_error_t *err);

/* Runs work(job, ud, err) and waits for it as above; what (a few words,
 * "fit 60% on bert") heads the bar.  Returns work's status. */
int tui_wait(tui_t *t, const char *what, tui_work_fn work, void *ud, rs_error_t *err);
/* The same for work that cannot be stopped part-way (an import, a layout
 * switch): the bar says "cannot be stopped" where the others say "^C
 * stops", and ^C or Esc typed meanwhile is dropped. */
int tui_wait_unstoppable(tui_t *t, const char *what, tui_work_fn work, void *ud, rs_error_t *err);

/* For the work: what it does now ("round one", "budget 2 of 4: 60%"),
 * shown after the bar's heading. */
void tui_job_doing(tui_job_t *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For the work: how far it is, done of total (total <= 0: not known, the
 * bar only shows that it runs).  Returns nonzero once a stop was asked. */
int tui_job_progress(tui_job_t *job, int64_t done, int64_t total);
/* For the work: it ends within limit_us from now (a search under a time
 * limit, its count unknown): the bar fills with that time and says "of N
 * s".  A count given by tui_job_progress wins; limit_us <= 0 clears it. */
void tui_job_time_limit(tui_job_t *job, int64_t limit_us);
/* Whether the user asked the work to stop (^C, Esc). */
bool tui_job_stopped(tui_job_t *job);
/* The same as a core stop or cancel callback (ud: the job). */
int tui_job_stop_cb(void *job);

#endif
