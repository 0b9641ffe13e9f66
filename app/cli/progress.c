#include "cli/progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "monotime.h"
#include "text.h"

#define REDRAW_US 250000 /* at most four lines a second: a terminal over ssh keeps up */
#define FALLBACK_COLS 80

/* Set by the SIGINT handler; read by the callbacks, which run on the
 * thread that called the fit. */
static volatile sig_atomic_t stop_asked;

static void on_sigint(int sig)
{
    (void)sig;
    stop_asked = 1;
}

static void tell(progress_t *p);
static void ticker_start(progress_t *p);

static void begin(progress_t *p, bool want, const char *verb)
{
    memset(p, 0, sizeof *p);
    p->draw = want && isatty(STDERR_FILENO);
    p->verb = verb;
    /* a test hook: every change drawn as it happens, so what a test reads
     * never depends on timing (no ticker then) */
    p->every_us = getenv("RS_TEST_PROGRESS_EVERY") ? 0 : REDRAW_US;
    p->t0_us = monotime_us();
    p->drawn_us = p->t0_us - REDRAW_US;
    stop_asked = 0;
    /* a run started in the background has SIGINT ignored: it stays so.
     * SA_RESETHAND: a second ^C ends the run at once, in a stretch that
     * asks no callback (the baseline, the floors) */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    if (sigaction(SIGINT, NULL, &p->old_int) == 0 && p->old_int.sa_handler != SIG_IGN)
        p->caught = sigaction(SIGINT, &sa, NULL) == 0;
    pthread_mutex_init(&p->lock, NULL);
    if (p->draw && p->every_us > 0)
        ticker_start(p);
}

void progress_fit_begin(progress_t *p, bool want, const char *budget, bool audit)
{
    begin(p, want, "fit");
    p->audit = audit;
    p->budget = budget;
    p->phase = PROGRESS_BASELINE; /* told at once; the ticker keeps its clock going */
    tell(p);
}

void progress_sweep_begin(progress_t *p, bool want, const char *const *budgets, int32_t n, bool audit)
{
    begin(p, want, "sweep");
    p->audit = audit;
    p->budgets = budgets;
    p->n_plans = n;
    p->phase = PROGRESS_BASELINE;
    tell(p);
}

void progress_verify_begin(progress_t *p, bool want, int32_t n)
{
    begin(p, want, "verify");
    p->n_plans = n;
}

/* "1,234,567" */
static void grouped(int64_t v, char *buf, size_t n)
{
    char d[24];
    int len = snprintf(d, sizeof d, "%lld", (long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = 0;
}

static int terminal_cols(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return FALLBACK_COLS;
}

/* line over the one drawn, in one write: one column short of the width,
 * so the cursor never reaches the margin and the terminal never wraps it;
 * spaces cover what is left of a longer line before it. */
static void draw(progress_t *p, const char *line)
{
    int cols;
    size_t n = text_bytes_for_cols(line, terminal_cols() - 1, &cols);
    int pad = p->drawn_cols > cols ? p->drawn_cols - cols : 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "\r%.*s%*s", (int)n, line, pad, "");
    fputs(buf, stderr);
    fflush(stderr);
    p->drawn_cols = cols;
}

/* "fit 60%", "sweep 2 of 4 (60%)", or "sweep of 4 budgets" for what they
 * share (round one), with ", auditing" under --audit */
static void line_head(const progress_t *p, char *buf, size_t n)
{
    int len;
    if (p->phase == PROGRESS_VERIFY)
        len = snprintf(buf, n, "verify plan %lld (%d of %d)", (long long)p->plan_id, (int)p->plan + 1,
                       (int)p->n_plans);
    else if (!p->budgets)
        len = snprintf(buf, n, "fit %s", text_shown(p->budget ? p->budget : ""));
    else if (p->phase == PROGRESS_BASELINE || (p->phase == PROGRESS_ROUND_ONE && p->n_plans > 1) ||
             (p->phase == PROGRESS_SAVE && p->n_plans > 1))
        len = snprintf(buf, n, "sweep of %s", text_count(p->n_plans, "budget", NULL));
    else {
        int32_t i = p->plan < p->n_plans ? p->plan : p->n_plans - 1;
        len = snprintf(buf, n, "sweep %d of %d (%s)", (int)i + 1, (int)p->n_plans, text_shown(p->budgets[i]));
    }
    if (p->audit && len >= 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", auditing");
}

/* "1,234 of 5,678 scorings (21%)" */
static void count_of(int64_t done, int64_t total, const char *one, const char *many, char *buf, size_t n)
{
    done = done < 0 ? 0 : done > total ? total : done;
    char d[32], t[32];
    grouped(done, d, sizeof d);
    grouped(total, t, sizeof t);
    snprintf(buf, n, "%s of %s %s (%d%%)", d, t, text_noun(total, one, many), total > 0 ? (int)(done * 100 / total) : 100);
}

/* "improving: 3 moves, 1,234 scored, 4 s of 10 s" / "exact: 1,234 subsets
 * scored, 4 s of 10 s" (a scoring limit: "..., 4 s, 1,234 of 5,000 scorings") */
static void best_body(const best_tally_t *t, char *buf, size_t n)
{
    char sc[32], lim[96], mv[32];
    grouped(t->scored, sc, sizeof sc);
    long long secs = (long long)(t->elapsed_us / 1000000);
    if (t->limit_us > 0)
        snprintf(lim, sizeof lim, "%lld s of %lld s", secs, (long long)((t->limit_us + 999999) / 1000000));
    else {
        char m[32];
        grouped(t->max_scorings, m, sizeof m);
        snprintf(lim, sizeof lim, "%lld s, %s of %s %s", secs, sc, m, text_noun(t->max_scorings, "scoring", NULL));
    }
    grouped(t->moves, mv, sizeof mv);
    if (t->kind == BEST_IMPROVED)
        snprintf(buf, n, "improving: %s move%s, %s scored, %s", mv, t->moves == 1 ? "" : "s", sc, lim);
    else
        snprintf(buf, n, "exact: %s %s scored, %s", sc, text_noun(t->scored, "subset", NULL), lim);
}

/* The line for where p is; false when there is nothing to tell. */
static bool compose(const progress_t *p, int64_t now_us, char *line, size_t n)
{
    char head[256], body[256];
    long long secs = (long long)((now_us - p->t0_us) / 1000000);
    line_head(p, head, sizeof head);
    switch (p->phase) {
    case PROGRESS_NONE:
        return false;
    case PROGRESS_BASELINE:
        snprintf(body, sizeof body, "scoring the baseline");
        break;
    case PROGRESS_ROUND_ONE: {
        char c[128];
        count_of(p->done - p->base, p->n, "scoring", NULL, c, sizeof c);
        snprintf(body, sizeof body, "round one%s %s", p->budgets && p->n_plans > 1 ? ", shared:" : "", c);
        break;
    }
    case PROGRESS_ROUND_TWO: {
        char c[128];
        count_of(p->done - p->base, p->n, "try", "tries", c, sizeof c);
        snprintf(body, sizeof body, "round two %s", c);
        break;
    }
    case PROGRESS_BUDGET_MET:
        if (p->n > 0) {
            char d[32];
            grouped(p->n, d, sizeof d);
            /* round two stops at the budget: the tries left are not made */
            snprintf(body, sizeof body, "round two: budget met after %s %s", d, text_noun(p->n, "try", "tries"));
        } else {
            snprintf(body, sizeof body, "the baseline meets the budget");
        }
        break;
    case PROGRESS_BEST:
        best_body(&p->tally, body, sizeof body);
        /* its own clock: no run time beside it; a line cut short is cut
         * to the terminal's width anyway */
        return snprintf(line, n, "%s: %s", head, body) >= 0;
    case PROGRESS_VERIFY:
        if (p->n > 0) {
            char c[128];
            count_of(p->done, p->n, "flip", NULL, c, sizeof c);
            snprintf(body, sizeof body, "%s %s", p->doing, c);
        } else {
            snprintf(body, sizeof body, "%s", p->doing);
        }
        break;
    case PROGRESS_SAVE: {
        char c[128], which[48] = "";
        count_of(p->done, p->n, "event", NULL, c, sizeof c);
        if (p->n_plans > 1)
            snprintf(which, sizeof which, " %d of %d", (int)p->saving + 1, (int)p->n_plans);
        snprintf(body, sizeof body, "saving the plan%s%s: %s", p->n_plans > 1 ? "s" : "", which, c);
        break;
    }
    }
    return snprintf(line, n, "%s: %s  %lld s", head, body, secs) >= 0;
}

/* Draws where p is, p->lock held, when something is to be told, the line
 * is not cleared away and the last one is old enough; a line the same as
 * the one shown is not written again. */
static void tell_locked(progress_t *p, int64_t now_us)
{
    if (!p->draw || p->hidden || now_us - p->drawn_us < p->every_us)
        return;
    char line[512];
    if (!compose(p, now_us, line, sizeof line))
        return;
    p->drawn_us = now_us;
    if (p->drawn_cols > 0 && strcmp(line, p->shown) == 0)
        return;
    snprintf(p->shown, sizeof p->shown, "%s", line);
    draw(p, line);
}

/* What the callbacks call once they have changed p (p->lock held): the
 * line comes back if it was cleared, and is drawn when it may be. */
static void changed_locked(progress_t *p)
{
    p->hidden = false;
    tell_locked(p, monotime_us());
}

static void tell(progress_t *p)
{
    pthread_mutex_lock(&p->lock);
    changed_locked(p);
    pthread_mutex_unlock(&p->lock);
}

/* The ticker: redraws the line a quarter second after the last one, so a
 * stretch that tells nothing for a while (the baseline, the floors, a
 * round that ended early) still shows where the run is and its clock. */
static void *ticker(void *ud)
{
    progress_t *p = ud;
    pthread_mutex_lock(&p->lock);
    while (!p->quit) {
        int64_t at_us = p->drawn_us + p->every_us, now = monotime_us();
        if (at_us <= now)
            at_us = now + p->every_us;
        struct timespec ts = { (time_t)(at_us / 1000000), (long)(at_us % 1000000) * 1000 };
        int rc = pthread_cond_timedwait(&p->wake, &p->lock, &ts);
        if (p->quit)
            break;
        if (rc == ETIMEDOUT || rc == 0)
            tell_locked(p, monotime_us());
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Starts the ticker (monotime_us is CLOCK_MONOTONIC: the wait is on it),
 * with SIGINT blocked on it: the stop is the calling thread's. */
static void ticker_start(progress_t *p)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&p->wake, &a);
    pthread_condattr_destroy(&a);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    p->ticking = pthread_create(&p->tid, NULL, ticker, p) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->ticking)
        pthread_cond_destroy(&p->wake);
}

static void ticker_stop(progress_t *p)
{
    if (!p->ticking)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->tid, NULL);
    pthread_cond_destroy(&p->wake);
    p->ticking = false;
}

/* A fit_progress_fn: called on the fit's calling thread as scorings end. */
static int report(void *ud, int32_t done, int32_t total)
{
    (void)total; /* each stage says its own */
    progress_t *p = ud;
    pthread_mutex_lock(&p->lock);
    p->done = done;
    changed_locked(p);
    pthread_mutex_unlock(&p->lock);
    return stop_asked;
}

/* A fit_stage_fn: the count starts again from the stage's beginning. */
static void stage(void *ud, fit_stage_t st, int32_t plan, int32_t done, int32_t n)
{
    progress_t *p = ud;
    pthread_mutex_lock(&p->lock);
    p->plan = plan;
    p->base = p->done = done;
    p->n = n;
    p->phase = st == FIT_STAGE_BASELINE    ? PROGRESS_BASELINE
               : st == FIT_STAGE_ROUND_ONE ? PROGRESS_ROUND_ONE
               : st == FIT_STAGE_ROUND_TWO ? PROGRESS_ROUND_TWO
                                           : PROGRESS_BUDGET_MET;
    changed_locked(p); /* or, if the line was just drawn, the ticker tells it */
    pthread_mutex_unlock(&p->lock);
}

void progress_attach(progress_t *p, fit_options_t *o)
{
    o->progress = report;
    o->progress_ud = p;
    o->stage = stage;
    o->stage_ud = p;
}

/* A save's progress: each plan's events in turn, so a count that goes back
 * is the next plan's. */
static int save_report(void *ud, int64_t done, int64_t total)
{
    progress_t *p = ud;
    pthread_mutex_lock(&p->lock);
    if (p->phase != PROGRESS_SAVE) {
        p->phase = PROGRESS_SAVE;
        p->saving = 0;
    } else if (done < p->done) {
        p->saving++;
    }
    p->done = done;
    p->n = total;
    changed_locked(p);
    pthread_mutex_unlock(&p->lock);
    return stop_asked;
}

void progress_attach_save(progress_t *p, save_extra_t *x)
{
    x->progress = save_report;
    x->progress_ud = p;
}

bool progress_verify(progress_t *p, int32_t plan, int64_t id, const char *doing, int64_t done, int64_t n)
{
    pthread_mutex_lock(&p->lock);
    p->phase = PROGRESS_VERIFY;
    p->plan = plan;
    p->plan_id = id;
    snprintf(p->doing, sizeof p->doing, "%s", doing);
    p->done = done;
    p->n = n;
    changed_locked(p);
    pthread_mutex_unlock(&p->lock);
    return stop_asked;
}

int progress_best_watch(void *ud, const best_tally_t *t)
{
    progress_t *p = ud;
    pthread_mutex_lock(&p->lock);
    p->phase = PROGRESS_BEST;
    p->tally = *t;
    changed_locked(p);
    pthread_mutex_unlock(&p->lock);
    return stop_asked;
}

/* the whole width, not just the line: a ^C the terminal echoed sits past
 * it */
void progress_clear(progress_t *p)
{
    pthread_mutex_lock(&p->lock);
    if (p->drawn_cols > 0) {
        fprintf(stderr, "\r%*s\r", terminal_cols() - 1, "");
        fflush(stderr);
        p->drawn_cols = 0;
        /* nothing is shown: the next line is no rewrite of one */
        p->drawn_us = monotime_us() - REDRAW_US;
    }
    p->hidden = true; /* until the next change: the caller prints meanwhile */
    pthread_mutex_unlock(&p->lock);
}

bool progress_stopped(const progress_t *p)
{
    (void)p;
    return stop_asked != 0;
}

bool progress_end(progress_t *p)
{
    ticker_stop(p);
    progress_clear(p);
    pthread_mutex_destroy(&p->lock);
    if (p->caught)
        sigaction(SIGINT, &p->old_int, NULL);
    p->caught = false;
    return stop_asked != 0;
}

int progress_fail_stopped(const progress_t *p)
{
    fprintf(stderr, "rematscope: %s stopped (^C)\n", p->verb);
    return 128 + SIGINT;
}
