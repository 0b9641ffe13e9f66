/* tui_sweep: Compare's rows made on a worker with a progress bar: every
 * budget fitted as one search (fit_sweep), the best row of each (x), and
 * whether the rows there are still those of what is open. */
#include "tui/tui_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "monotime.h"
#include "text.h"
#include "tui/tui_model.h"
#include "tui/tui_rows.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"

#define BEST_SECONDS 3.0

/* The best plan beside every budget's (x), on a worker: each exact
 * search up to BEST_SECONDS; a budget found before keeps its own. */
typedef struct best_work {
    const fit_context_t *ctx;
    const compare_row_t *rows; /* read only: a row with a best plan is not searched again */
    best_plan_t found[TUI_MAX_BUDGETS];
    int n;
    char failed[48 + 2 + 141]; /* the first budget's error: "budget: " and 140 bytes of it */
} best_work_t;

static int best_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    (void)err;
    best_work_t *w = ud;
    for (int i = 0; i < w->n && !tui_job_stopped(job); i++) {
        const compare_row_t *r = &w->rows[i];
        tui_job_doing(job, "budget %s (up to %.0f s)", r->budget, BEST_SECONDS);
        tui_job_progress(job, i, w->n);
        if (r->best.kind || !r->plan)
            continue;
        rs_error_t e;
        if (best_run_cancellable(BEST_EXACT, r->plan, w->ctx, (best_limits_t){ BEST_SECONDS, 0 }, false,
                                 tui_job_stop_cb, job, &w->found[i], &e)) {
            if (!w->failed[0])
                snprintf(w->failed, sizeof w->failed, "%s: %.140s", r->budget, e.msg);
            best_plan_free(&w->found[i]);
        }
    }
    return RS_OK; /* a stop keeps what was found: a search stopped says it is not proved */
}

static void run_best(tui_t *t, const fit_context_t *ctx)
{
    best_work_t w = { .ctx = ctx, .rows = t->cmp_rows, .n = t->n_cmp_rows };
    rs_error_t err;
    tui_wait(t, "the best plan of every budget", best_work, &w, &err);
    for (int i = 0; i < t->n_cmp_rows; i++)
        if (w.found[i].kind) /* installed after the wait: the screen under the bar draws the rows */
            t->cmp_rows[i].best = w.found[i];
    if (w.failed[0])
        tui_status(t, true, "%s", w.failed);
}

void tui_sweep_best(tui_t *t)
{
    fit_context_t *ctx = NULL;
    rs_error_t err;
    if (target_context(&t->tgt, &ctx, &err)) {
        tui_error(t, NULL, &err);
        return;
    }
    run_best(t, ctx);
    fit_context_free(ctx);
}

/* The order of the rows: the biggest budget first, Minimize last, failed
 * rows at the end; the selection follows its row. */
static int64_t row_key(const fit_plan_t *p) { return !p ? -2 : p->minimize ? -1 : p->budget; }

static void sort_rows(tui_t *t)
{
    for (int i = 1; i < t->n_cmp_rows; i++)
        for (int j = i; j > 0 && row_key(t->cmp_rows[j].plan) > row_key(t->cmp_rows[j - 1].plan); j--)
            tui_rows_swap(t, j, j - 1);
}

/* The rows that need a plan fitted as one search, on a worker: the plans,
 * each row's time (since the row before was made), the search's counters. */
typedef struct sweep_work {
    fit_options_t opt;
    const fit_context_t *ctx;
    const budget_spec_t *specs;
    const compare_row_t *rows; /* read only: their budgets, as the bar says them */
    const int *at;            /* specs[k] is row at[k]'s */
    int n;
    fit_plan_t *plans[TUI_MAX_BUDGETS];      /* by row; a stop keeps those finished */
    int64_t elapsed[TUI_MAX_BUDGETS];        /* by row */
    rs_error_t failed[TUI_MAX_BUDGETS];      /* by row: why it has no plan (code 0: it has one) */
    int64_t reused, lowered, t0;
    const char *budgets[TUI_MAX_BUDGETS]; /* specs[k] as typed, for the bar */
    tui_fit_watch_t watch;                /* the bar: each budget's stage and its own count */
} sweep_work_t;

/* A budget of the sweep is done: its plan is copied, as fit_sweep frees
 * every plan it made when a later budget is stopped, and a budget finished
 * is what a fit of it alone gives (^C keeps it). */
static void sweep_plan_done(void *ud, int32_t i, const fit_plan_t *p)
{
    sweep_work_t *w = ud;
    int64_t now = monotime_us();
    int row = w->at[i];
    w->elapsed[row] = now - w->t0;
    w->t0 = now;
    rs_error_t e;
    if (fit_plan_copy(p, &w->plans[row], &e)) /* out of memory: the row is fitted again next time */
        w->plans[row] = NULL;
}

/* After a sweep that failed for another reason than a stop: the budgets
 * without a plan one fit each, so each budget's error is told on its row. */
static int fit_one_by_one(sweep_work_t *w, reuse_cell_t *cell, rs_error_t *err)
{
    w->opt.plan_done = NULL;
    w->watch.shared = false; /* each budget its own search, its own round one */
    for (int k = 0; k < w->n; k++) {
        int row = w->at[k];
        if (w->plans[row])
            continue;
        w->watch.first = k;
        int64_t t0 = monotime_us();
        w->opt.budget = w->specs[k];
        int r = fit_run(&w->opt, w->ctx, cell, &w->plans[row], &w->failed[row]);
        w->elapsed[row] = monotime_us() - t0;
        if (r == RS_ECANCELED)
            return error_set(err, r, NULL, 0, 0, "stopped");
    }
    return RS_OK;
}

static int sweep_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    sweep_work_t *w = ud;
    for (int k = 0; k < w->n; k++)
        w->budgets[k] = w->rows[w->at[k]].budget;
    w->watch = (tui_fit_watch_t){ .job = job, .budgets = w->budgets, .n_budgets = w->n, .shared = w->n > 1 };
    tui_fit_watch(&w->watch, &w->opt);
    w->opt.plan_done = sweep_plan_done;
    w->opt.plan_done_ud = w;
    reuse_cell_t *cell = reuse_cell_new();
    if (!cell)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    fit_plan_t *plans[TUI_MAX_BUDGETS];
    w->t0 = monotime_us();
    int rc = fit_sweep(&w->opt, w->specs, w->n, w->ctx, cell, plans, err);
    if (rc == RS_OK) {
        for (int k = 0; k < w->n; k++) { /* the sweep's own plans, not the copies */
            fit_plan_free(w->plans[w->at[k]]);
            w->plans[w->at[k]] = plans[k];
        }
    } else if (rc != RS_ECANCELED) {
        rc = fit_one_by_one(w, cell, err);
    }
    reuse_cell_counters(cell, &w->reused, &w->lowered);
    reuse_cell_free(cell);
    return rc;
}

/* The rows' plans go (their best rows with them unless keep_best). */
static void free_rows(tui_t *t, bool keep_best)
{
    for (int i = 0; i < t->n_cmp_rows; i++)
        tui_rows_clear(&t->cmp_rows[i], keep_best);
}

bool tui_sweep_current(const tui_t *t)
{
    char key[sizeof t->cmp_key];
    tui_compare_key(t, key, sizeof key);
    return !t->cmp_stale && strcmp(key, t->cmp_key) == 0;
}

/* The search's names for the bar, longest first: at 80 columns beside
 * "budget 2 of 2: minimize: round two" only "Compare" fits whole. */
static int sweep_names(const tui_t *t, int n, char (*buf)[sizeof t->open_name + 48], const char **names)
{
    const char *s = n == 1 ? "" : "s";
    snprintf(buf[0], sizeof buf[0], "Compare: %d budget%s on %s", n, s, t->open_name);
    snprintf(buf[1], sizeof buf[1], "%d budget%s on %s", n, s, t->open_name);
    snprintf(buf[2], sizeof buf[2], "Compare %d budget%s", n, s);
    snprintf(buf[3], sizeof buf[3], "Compare");
    for (int k = 0; k < 4; k++)
        names[k] = buf[k];
    return 4;
}

/* The status a search leaves: what it fitted and what it kept, so no word
 * of a search before (a stop's "Enter on a row fits them all") stays. */
static void say_search(tui_t *t, int fitted, int asked, int kept, bool stopped)
{
    if (!asked) /* nothing searched: the status stays what it was */
        return;
    char also[48] = "";
    if (kept)
        snprintf(also, sizeof also, "; %s kept as %s", text_count(kept, "row", NULL), kept == 1 ? "it was" : "they were");
    if (!stopped)
        tui_status(t, false, "Compare fitted %s%s", text_count(fitted, "budget", NULL), also);
    else if (!fitted && !kept)
        tui_status(t, false, "Compare stopped: Enter on a row fits them all");
    else
        tui_status(t, false, "Compare stopped with %d of %s fitted%s: Enter on a row fits the rest", fitted,
                   text_count(asked, "budget", NULL), also);
}

/* tui_sweep_run with the rows that need a plan fitted under cap. */
static int sweep_rows(tui_t *t, int32_t cap);

int tui_sweep_run(tui_t *t) { return sweep_rows(t, t->cap); }

int tui_sweep_refit_all(tui_t *t)
{
    if (!tui_sweep_current(t)) /* rows of what was open before: fitted again anyway, under the cap C set */
        return tui_sweep_run(t);
    int n = 0;
    char said[256];
    for (int i = 0; i < t->n_cmp_rows; i++)
        if (t->cmp_rows[i].plan && text_cap_hides(t->cmp_rows[i].plan, t->cmp_rows[i].budget, "", said, sizeof said)) {
            tui_rows_clear(&t->cmp_rows[i], false);
            n++;
        }
    if (!n) {
        tui_status(t, false, "A: no row missed only because of the cap (within says \"no, cap\" where one did)");
        return RS_OK;
    }
    return sweep_rows(t, FIT_CAP_ALL);
}

static int sweep_rows(tui_t *t, int32_t cap)
{
    /* rows fitted on what is open now keep their plans; the rest (all of
     * them when the routine or a setting changed) are fitted */
    if (!tui_sweep_current(t))
        free_rows(t, false);
    t->cmp_stale = false;
    tui_compare_key(t, t->cmp_key, sizeof t->cmp_key);
    t->cmp_stopped = false;
    fit_context_t *ctx = NULL;
    rs_error_t err;
    if (!t->open || !t->n_cmp_rows || target_context(&t->tgt, &ctx, &err)) {
        if (t->open && t->n_cmp_rows)
            tui_error(t, NULL, &err);
        free_rows(t, false);
        return RS_OK;
    }
    sweep_work_t w = { .opt = { .name = "compare", .max_candidates = cap,
                                .device_bytes = t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1 },
                       .ctx = ctx, .rows = t->cmp_rows };
    budget_spec_t specs[TUI_MAX_BUDGETS];
    int at[TUI_MAX_BUDGETS], kept = 0;
    for (int i = 0; i < t->n_cmp_rows; i++) {
        if (t->cmp_rows[i].plan)
            kept++;
        else if (!units_parse_budget(t->cmp_rows[i].budget, "budget", &specs[w.n], &w.failed[i]))
            at[w.n++] = i;
    }
    w.specs = specs;
    w.at = at;
    char buf[4][sizeof t->open_name + 48];
    const char *names[4];
    int n_names = sweep_names(t, w.n, buf, names);
    t->cmp_running = true; /* the rows drawn under the bar say they are being fitted */
    int rc = w.n ? tui_wait_named(t, names, n_names, sweep_work, &w, &err) : RS_OK;
    t->cmp_running = false;
    if (rc && rc != RS_ECANCELED) {
        for (int i = 0; i < TUI_MAX_BUDGETS; i++)
            fit_plan_free(w.plans[i]);
        t->cmp_stopped = true;
        fit_context_free(ctx);
        tui_error(t, NULL, &err);
        return rc;
    }
    /* a stop keeps the budgets it finished: each is the plan a fit of it gives */
    int fitted = 0;
    for (int k = 0; k < w.n; k++)
        fitted += w.plans[at[k]] != NULL;
    say_search(t, fitted, w.n, kept, rc == RS_ECANCELED);
    for (int k = 0; k < w.n; k++) {
        compare_row_t *r = &t->cmp_rows[at[k]];
        r->plan = w.plans[at[k]];
        r->elapsed_us = w.elapsed[at[k]];
    }
    for (int i = 0; i < t->n_cmp_rows; i++)
        if (!t->cmp_rows[i].plan && w.failed[i].code)
            tui_error(t, t->cmp_rows[i].budget, &w.failed[i]);
    if (w.n) { /* the counters of the latest search */
        t->cmp_reused = w.reused;
        t->cmp_lowered = w.lowered;
    }
    sort_rows(t);
    if (rc == RS_ECANCELED) {
        t->cmp_stopped = true;
        fit_context_free(ctx);
        return rc;
    }
    if (t->cmp_show_best)
        run_best(t, ctx);
    fit_context_free(ctx);
    /* a byte budget missed while the cap dropped candidates: say so once, as `sweep` does */
    for (int i = 0; i < t->n_cmp_rows; i++) {
        const fit_plan_t *p = t->cmp_rows[i].plan;
        char said[256];
        if (p && text_cap_hides(p, t->cmp_rows[i].budget, "", said, sizeof said)) {
            tui_status(t, true, "row %d (%s) missed: %s", i + 1, t->cmp_rows[i].budget,
                       "the cap alone kept it out of reach: A fits the rows that say no, cap with every candidate");
            break;
        }
        if (p && text_cap_may(p, said, sizeof said)) { /* below the floor no cap helps */
            tui_status(t, true, "row %d (%s) %s", i + 1, t->cmp_rows[i].budget, said);
            break;
        }
    }
    return RS_OK;
}
