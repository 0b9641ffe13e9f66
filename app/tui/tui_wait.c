/* tui_wait: long work on a worker thread, the UI thread drawing its
 * progress bar and taking ^C. */
#include "tui/tui_wait.h"

#include <curses.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "monotime.h"
#include "store.h"
#include "text.h"
#include "tui/tui_draw.h"

struct tui_job {
    tui_work_fn work;
    void *ud;
    rs_error_t err;
    int rc;
    pthread_mutex_t lock;      /* guards doing and unit, and a stage's count with them */
    char doing[160];
    char unit[32];
    atomic_llong done, total;
    atomic_llong limit_from_us, limit_us; /* tui_job_time_limit's; limit 0: none */
    atomic_int stop, finished;
    bool stoppable;
};

/* Sets the job's words (formatted outside its lock) and, for a stage, its
 * unit and total with the count back at 0, all under the lock: the bar
 * never shows one stage's words with another's count. */
static void job_set(tui_job_t *job, bool stage, int64_t total, const char *unit, const char *fmt, va_list ap)
{
    char buf[sizeof job->doing];
    vsnprintf(buf, sizeof buf, fmt, ap);
    pthread_mutex_lock(&job->lock);
    memcpy(job->doing, buf, sizeof buf);
    if (stage) {
        snprintf(job->unit, sizeof job->unit, "%s", unit ? unit : "");
        atomic_store(&job->done, 0);
        atomic_store(&job->total, (long long)total);
    }
    pthread_mutex_unlock(&job->lock);
}

void tui_job_doing(tui_job_t *job, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    job_set(job, false, 0, NULL, fmt, ap);
    va_end(ap);
}

void tui_job_stage(tui_job_t *job, int64_t total, const char *unit, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    job_set(job, true, total, unit, fmt, ap);
    va_end(ap);
}

int tui_job_progress(tui_job_t *job, int64_t done, int64_t total)
{
    pthread_mutex_lock(&job->lock); /* the bar reads the count with its stage's words */
    atomic_store(&job->done, (long long)done);
    atomic_store(&job->total, (long long)total);
    pthread_mutex_unlock(&job->lock);
    return atomic_load(&job->stop);
}

/* The words before a sweep's plan's stage: "budget 2 of 4: 60%: " */
static void fit_watch_head(const tui_fit_watch_t *w, int32_t plan, char *buf, size_t n)
{
    int32_t i = plan + w->first;
    if (!w->budgets || w->n_budgets <= 0)
        buf[0] = 0;
    else {
        i = i < 0 ? 0 : i >= w->n_budgets ? w->n_budgets - 1 : i;
        snprintf(buf, n, "budget %d of %d: %s: ", (int)i + 1, (int)w->n_budgets, w->budgets[i]);
    }
}

/* A fit_stage_fn: the bar's words and count start again with the stage. */
static void fit_watch_stage(void *ud, fit_stage_t stage, int32_t plan, int32_t done, int32_t n)
{
    tui_fit_watch_t *w = ud;
    char head[96];
    fit_watch_head(w, plan, head, sizeof head);
    w->base = done;
    w->n = 0;
    switch (stage) {
    case FIT_STAGE_BASELINE:
        tui_job_stage(w->job, 0, NULL, "scoring the baseline");
        break;
    case FIT_STAGE_ROUND_ONE:
        w->n = n;
        if (w->budgets && w->shared)
            tui_job_stage(w->job, n, text_noun(n, "scoring", NULL), "round one, shared");
        else
            tui_job_stage(w->job, n, text_noun(n, "scoring", NULL), "%sround one", head);
        break;
    case FIT_STAGE_ROUND_TWO:
        /* it ends where the plan meets the budget: n is at most */
        w->n = n;
        tui_job_stage(w->job, n, n == 1 ? "try at most" : "tries at most", "%sround two", head);
        break;
    case FIT_STAGE_BUDGET_MET:
        /* no count from here: the floors follow, then the next plan */
        if (n > 0)
            tui_job_stage(w->job, 0, NULL, "%sround two: budget met after %s", head, text_count(n, "try", "tries"));
        else
            tui_job_stage(w->job, 0, NULL, "%sthe baseline meets the budget", head);
        break;
    }
}

/* A fit_progress_fn: the stage's own count. */
static int fit_watch_progress(void *ud, int32_t done, int32_t total)
{
    (void)total; /* the whole search's: each stage says its own */
    tui_fit_watch_t *w = ud;
    if (w->n <= 0)
        return tui_job_stopped(w->job);
    int64_t d = (int64_t)done - w->base;
    return tui_job_progress(w->job, d < 0 ? 0 : d > w->n ? w->n : d, w->n);
}

void tui_fit_watch(tui_fit_watch_t *w, fit_options_t *o)
{
    o->progress = fit_watch_progress;
    o->progress_ud = w;
    o->stage = fit_watch_stage;
    o->stage_ud = w;
}

void tui_job_time_limit(tui_job_t *job, int64_t limit_us)
{
    atomic_store(&job->limit_from_us, (long long)monotime_us());
    atomic_store(&job->limit_us, (long long)(limit_us > 0 ? limit_us : 0));
}

bool tui_job_stopped(tui_job_t *job) { return atomic_load(&job->stop) != 0; }

int tui_job_stop_cb(void *job) { return tui_job_stopped(job); }

/* The first of the work's names[0..n) (longest first) that fits in w
 * columns whole, else the last one cut to w: a name cut near its start
 * ("Compar…") said nothing at 80 columns. */
static void fit_name(tui_t *t, const char *const *names, int n, int w, char *buf, size_t size)
{
    for (int k = 0; k < n; k++)
        if (tui_cols(names[k]) <= w) {
            snprintf(buf, size, "%s", names[k]);
            return;
        }
    tui_clip(t, names[n - 1], w, buf, size);
}

static void draw_bar(tui_t *t, tui_job_t *j, const char *const *names, int n_names, int64_t elapsed_us, int queued)
{
    const char *what = names[0];
    if (t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS)
        return;
    char doing[sizeof j->doing], unit[sizeof j->unit];
    pthread_mutex_lock(&j->lock);
    memcpy(doing, j->doing, sizeof doing);
    memcpy(unit, j->unit, sizeof unit);
    long long done = atomic_load(&j->done), total = atomic_load(&j->total);
    pthread_mutex_unlock(&j->lock);
    char head[512], clip[512], count[96] = "", right[96];
    if (total > 0)
        snprintf(count, sizeof count, " %lld/%lld", done < total ? done : total, total);
    snprintf(head, sizeof head, "%s%s%s", what, doing[0] ? ": " : "", doing);
    bool stopping = atomic_load(&j->stop);
    /* no count but a time limit: the bar fills with the time the limit allows */
    long long limit = total > 0 ? 0 : atomic_load(&j->limit_us);
    char of[32] = "";
    if (limit > 0) {
        long long in = monotime_us() - atomic_load(&j->limit_from_us);
        done = in < 0 ? 0 : in;
        total = limit;
        snprintf(of, sizeof of, " of %.0f", (double)limit / 1e6);
    }
    /* the seconds padded to 5 columns: a wider number as the time grows
     * took a column from the name each time (9.9 s, 10.0 s, 100.0 s) */
    snprintf(right, sizeof right, " %5.1f%s s  %s%s", (double)elapsed_us / 1e6, of,
             !j->stoppable ? "cannot be stopped" : stopping ? "stopping..." : "^C stops", queued ? ", keys wait" : "");
    /* what the count counts goes before the doing is cut: the doing
     * whole beside a 10-cell bar, or the count alone */
    int dw = doing[0] ? tui_cols(doing) + 2 : 0;
    if (total > 0 && unit[0] && dw + 10 <= t->cols - tui_cols(count) - tui_cols(unit) - 1 - tui_cols(right) - 1) {
        size_t len = strlen(count);
        snprintf(count + len, sizeof count - len, " %s", unit);
    }
    int room = t->cols - tui_cols(count) - tui_cols(right) - 1, hw = tui_cols(head), bw = 40;
    if (hw + bw > room) {
        bw = room - hw < 10 ? 10 : room - hw;
        hw = room - bw;
    }
    /* the words that say how far it is (the doing part) stay whole where
     * they can: the name of the work gives way first (at 80 columns
     * "plan 1 of 4 (80%)" was the part cut; the count's word goes before the
     * doing is cut, above) */
    if (tui_cols(head) > hw && dw && dw + 6 <= hw) {
        char name[256];
        fit_name(t, names, n_names, hw - dw, name, sizeof name);
        snprintf(clip, sizeof clip, "%s: %s", name, doing);
    } else if (tui_cols(head) > hw && dw) { /* no room for the name: the doing alone */
        tui_clip(t, doing, hw, clip, sizeof clip);
    } else if (tui_cols(head) > hw && n_names > 1) { /* no doing: a shorter name whole */
        fit_name(t, names, n_names, hw, clip, sizeof clip);
    } else {
        tui_clip(t, head, hw, clip, sizeof clip);
    }
    int y = t->rows - 2;
    tui_fill(t, y, 0, t->cols, t->attr[T_NORMAL]);
    tui_put(t, y, 0, hw, t->attr[T_NORMAL] | A_BOLD, clip);
    int x = tui_cols(clip);
    tui_put(t, y, x, tui_cols(count), t->attr[T_NORMAL] | A_BOLD, count);
    x += tui_cols(count) + 1;
    int filled = total > 0 ? (int)((done < total ? done : total) * bw / total) : -1;
    int run = (int)(elapsed_us / 100000) % (bw > 4 ? bw - 3 : 1); /* no total: a block of 4 runs */
    for (int i = 0; i < bw; i++) {
        bool on = filled >= 0 ? i < filled : i >= run && i < run + 4;
        tui_put(t, y, x + i, 1, on ? t->attr[T_SELECTED] : t->attr[T_DIM],
                on ? tui_glyph(t, "█", "#") : tui_glyph(t, "░", "."));
    }
    tui_put(t, y, x + bw, t->cols - x - bw, t->attr[T_NORMAL], right);
}

static void job_run(tui_job_t *j)
{
    j->rc = j->work(j, j->ud, &j->err);
    atomic_store(&j->finished, 1);
}

/* The bar's side of a wait: its thread draws the bar and takes the keys
 * typed meanwhile until the work is finished. */
typedef struct bar_loop {
    tui_t *t;
    tui_job_t *job;
    const char *const *names; /* the work's, longest first */
    int n_names;
    int queued[32], nq; /* the keys for after the work, in the order typed */
} bar_loop_t;

static void *bar_thread(void *arg)
{
    bar_loop_t *b = arg;
    tui_t *t = b->t;
    tui_job_t *j = b->job;
    int64_t t0 = monotime_us();
    bool full = true, shown = false;
    while (!atomic_load(&j->finished)) {
        int64_t el = monotime_us() - t0;
        if (el >= TUI_WAIT_BAR_US) {
            if ((full || !shown) && t->redraw)
                t->redraw(t); /* the screen under the bar, whole after a resize or ^L */
            else if (t->status_bar)
                t->status_bar(t); /* its counters move with the work */
            full = false;
            shown = true;
            draw_bar(t, j, b->names, b->n_names, el, b->nq);
            refresh();
        }
        int ch = getch(); /* waits up to 50 ms (timeout) */
        if ((ch == 3 || ch == 27) && j->stoppable) {
            atomic_store(&j->stop, 1);
            b->nq = 0; /* stopped: what was typed for after it goes too */
        } else if (ch == 3 || ch == 27) {
            /* nothing to stop: not a key for after it either */
        } else if (ch == KEY_RESIZE) {
            getmaxyx(stdscr, t->rows, t->cols);
            full = true;
        } else if (ch == 12) { /* ^L */
            clearok(curscr, TRUE);
            full = true;
        } else if (ch == TUI_KEY_SUSPEND) { /* the work stops with the job, and goes on after fg */
            tui_suspend();
            getmaxyx(stdscr, t->rows, t->cols);
            full = true;
        } else if (ch != ERR && ch != KEY_MOUSE && b->nq < (int)(sizeof b->queued / sizeof *b->queued)) {
            b->queued[b->nq++] = ch;
        }
    }
    return NULL;
}

/* The work runs on the calling (main) thread and the bar on a second one,
 * not the other way round: glibc gives a second thread its own malloc
 * arena, made of 64 MiB heaps it maps and unmaps as they fill and empty,
 * and a fit's scorings free and allocate enough there to fault their pages
 * in again and again (the 13.5k-instruction dump's fit over every
 * candidate took 2x the CLI's CPU, a third of it in the kernel, when it ran
 * on the second thread); on the main thread it allocates as `fit` does. */
static int wait_for(tui_t *t, const char *const *names, int n_names, tui_work_fn work, void *ud, bool stoppable,
                    rs_error_t *err)
{
    tui_job_t j = { .work = work, .ud = ud, .stoppable = stoppable };
    error_clear(&j.err);
    pthread_mutex_init(&j.lock, NULL);
    if (stoppable && t->store) /* ^C also ends a wait for another process's lock on the store */
        store_set_stop(t->store, tui_job_stop_cb, &j);
    bar_loop_t b = { .t = t, .job = &j, .names = names, .n_names = n_names };
    t->waiting = true;
    timeout(50);
    pthread_t tid;
    if (pthread_create(&tid, NULL, bar_thread, &b) != 0) {
        job_run(&j); /* no thread: the work runs without a bar */
    } else {
        job_run(&j);
        pthread_join(tid, NULL);
    }
    while (b.nq > 0)
        ungetch(b.queued[--b.nq]);
    timeout(-1);
    t->waiting = false;
    if (stoppable && t->store)
        store_set_stop(t->store, NULL, NULL);
    pthread_mutex_destroy(&j.lock);
    if (j.rc)
        *err = j.err;
    return j.rc;
}

int tui_wait(tui_t *t, const char *what, tui_work_fn work, void *ud, rs_error_t *err)
{
    return wait_for(t, &what, 1, work, ud, true, err);
}

int tui_wait_named(tui_t *t, const char *const *names, int n_names, tui_work_fn work, void *ud, rs_error_t *err)
{
    return wait_for(t, names, n_names, work, ud, true, err);
}

int tui_wait_unstoppable(tui_t *t, const char *what, tui_work_fn work, void *ud, rs_error_t *err)
{
    return wait_for(t, &what, 1, work, ud, false, err);
}
