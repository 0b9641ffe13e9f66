#include "cli/progress.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "monotime.h"
#include "text.h"

#define REDRAW_US 250000 /* at most four lines a second: a terminal over ssh keeps up */
#define FALLBACK_COLS 80

/* Set by the SIGINT handler; read by the planner's callback, which runs on
 * the thread that called the fit. */
static volatile sig_atomic_t stop_asked;

static void on_sigint(int sig)
{
    (void)sig;
    stop_asked = 1;
}

static void begin(progress_t *p, bool want, const char *verb)
{
    memset(p, 0, sizeof *p);
    p->draw = want && isatty(STDERR_FILENO);
    p->verb = verb;
    p->t0_us = monotime_us();
    p->drawn_us = p->t0_us - REDRAW_US; /* the first scoring is told at once: a short fit shows one line */
    stop_asked = 0;
    /* a run started in the background has SIGINT ignored: it stays so.
     * SA_RESETHAND: a second ^C ends the run at once, in a stretch of the
     * fit that asks no callback (the baseline) */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    if (sigaction(SIGINT, NULL, &p->old_int) == 0 && p->old_int.sa_handler != SIG_IGN)
        p->caught = sigaction(SIGINT, &sa, NULL) == 0;
}

void progress_fit_begin(progress_t *p, bool want, const char *budget)
{
    begin(p, want, "fit");
    p->budget = budget;
}

void progress_sweep_begin(progress_t *p, bool want, const char *const *budgets, int32_t n)
{
    begin(p, want, "sweep");
    p->budgets = budgets;
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

static void tell(progress_t *p, int64_t done, int64_t total, int64_t now_us)
{
    if (p->budgets) { /* a sweep: this budget's scorings (the totals run on over the search) */
        done -= p->base;
        total -= p->base;
    }
    if (total <= 0)
        return;
    done = done < 0 ? 0 : done > total ? total : done;
    char d[32], t[32], line[512];
    grouped(done, d, sizeof d);
    grouped(total, t, sizeof t);
    int pct = (int)(done * 100 / total);
    long long secs = (long long)((now_us - p->t0_us) / 1000000);
    if (p->budgets) {
        int32_t i = p->plan < p->n_plans ? p->plan : p->n_plans - 1;
        snprintf(line, sizeof line, "sweep %d of %d (%s): %s of %s scorings (%d%%)  %lld s", (int)i + 1,
                 (int)p->n_plans, text_shown(p->budgets[i]), d, t, pct, secs);
    } else {
        /* fit_run scores every kept candidate alone, then tries each: the
         * first half of the count is round one */
        snprintf(line, sizeof line, "fit %s: round %s %s of %s scorings (%d%%)  %lld s",
                 text_shown(p->budget ? p->budget : ""), done <= total / 2 ? "one" : "two", d, t, pct, secs);
    }
    draw(p, line);
}

/* A fit_progress_fn: called on the fit's calling thread as scorings end. */
static int report(void *ud, int32_t done, int32_t total)
{
    progress_t *p = ud;
    p->last = done;
    if (p->draw) {
        int64_t now = monotime_us();
        if (now - p->drawn_us >= REDRAW_US) {
            p->drawn_us = now;
            tell(p, done, total, now);
        }
    }
    return stop_asked;
}

/* A fit_plan_done_fn: the sweep's next budget counts from here. */
static void plan_done(void *ud, int32_t i, const fit_plan_t *plan)
{
    (void)plan;
    progress_t *p = ud;
    p->plan = i + 1;
    p->base = p->last;
    p->drawn_us = monotime_us() - REDRAW_US; /* the next budget is told at its first scoring */
}

void progress_attach(progress_t *p, fit_options_t *o)
{
    o->progress = report;
    o->progress_ud = p;
    if (p->budgets) {
        o->plan_done = plan_done;
        o->plan_done_ud = p;
    }
}

bool progress_end(progress_t *p)
{
    /* the whole width, not just the line: a ^C the terminal echoed sits
     * past it */
    if (p->drawn_cols > 0) {
        fprintf(stderr, "\r%*s\r", terminal_cols() - 1, "");
        fflush(stderr);
        p->drawn_cols = 0;
    }
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
