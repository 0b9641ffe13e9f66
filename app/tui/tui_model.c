/* tui_model: the session's state behind the screens: opening a routine
 * under the chosen bindings and profile, scoring for the arena, running fit
 * on a worker with a progress bar, reloading the store's lists. */
#include <curses.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "units.h"

/* ---- scoring for the screens -------------------------------------------------------- */

void tui_arena_free(arena_view_t *a)
{
    free(a->bufs);
    free(a->live);
    memset(a, 0, sizeof *a);
}

bool tui_score(tui_t *t, const uint8_t *prefs, score_detail_t *det, arena_view_t *a)
{
    score_detail_free(det);
    tui_arena_free(a);
    rs_error_t err;
    if (score_lowering(t->tgt.lowering, prefs, &t->tgt.cfg, &a->fp, det, &err)) {
        tui_status(t, true, "%s", err.msg);
        return false;
    }
    if (view_buffers(t->tgt.lowering, det, &a->bufs, &a->n)) {
        tui_status(t, true, "out of memory");
        return false;
    }
    a->steps = t->tgt.lowering->n_steps > 0 ? t->tgt.lowering->n_steps : 1;
    a->live = view_live_bytes(a->bufs, a->n, a->steps);
    return a->live != NULL;
}

static void close_fit(tui_t *t)
{
    fit_plan_free(t->plan);
    t->plan = NULL;
    fit_context_free(t->ctx);
    t->ctx = NULL;
    tui_arena_free(&t->ev_arena);
    score_detail_free(&t->ev_det);
    t->ev_accepted = -1;
    for (int i = 0; i < t->n_budgets; i++) {
        fit_plan_free(t->cmp[i]);
        t->cmp[i] = NULL;
    }
    t->cmp_stale = t->n_budgets > 0;
}

void tui_set_layout(tui_t *t, arena_strategy_t s)
{
    int64_t was = t->arena.fp.total;
    arena_strategy_t from = t->tgt.cfg.layout;
    close_fit(t);
    t->tgt.cfg.layout = s;
    if (!tui_score(t, t->tgt.prefs, &t->det, &t->arena))
        return;
    if (t->sel_buf >= t->arena.n)
        t->sel_buf = 0;
    char now[32], before[32];
    units_format_bytes(t->arena.fp.total, now, sizeof now);
    units_format_bytes(was, before, sizeof before);
    tui_status(t, false, "layout %s: arena %s (%s with %s, %+.2f%%)%s", arena_strategy_name(s), now, before,
               arena_strategy_name(from), was ? 100.0 * (double)(t->arena.fp.total - was) / (double)was : 0.0,
               t->arena.fp.total == t->arena.fp.live_peak ? ", at max live: optimal" : "");
}

void tui_close_routine(tui_t *t)
{
    close_fit(t);
    tui_arena_free(&t->arena);
    score_detail_free(&t->det);
    free(t->cand);
    t->cand = NULL;
    t->n_cand = 0;
    /* the store handle belongs to the session, not to the target */
    t->tgt.store = NULL;
    target_free(&t->tgt);
    t->open = false;
}

/* Splits "B=512 D=1024" into a cli_t's binds (pointing into copy). */
static int split_binds(char *copy, const char **out, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ,", &save); tok && n < max; tok = strtok_r(NULL, " ,", &save))
        out[n++] = tok;
    return n;
}

bool tui_open_routine(tui_t *t, const char *name)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", t->binds);
    const char *binds[32];
    cli_t c = *t->cli;
    c.binds = binds;
    c.n_binds = split_binds(copy, binds, 32);
    c.inlines = NULL;
    c.n_inlines = 0;
    c.profile = t->profile >= 0 ? t->profiles[t->profile].name : NULL;
    target_t nt;
    rs_error_t err;
    /* the session's store answers routine names */
    memset(&nt, 0, sizeof nt);
    int rc = target_open(&c, name, &nt, &err);
    if (rc) {
        char msg[1024];
        error_format(&err, msg, sizeof msg);
        tui_status(t, true, "%s", msg);
        return false;
    }
    tui_close_routine(t);
    t->tgt = nt;
    if (t->tgt.store) { /* target opened its own handle: keep the session's */
        store_close(t->tgt.store);
        t->tgt.store = NULL;
    }
    snprintf(t->open_name, sizeof t->open_name, "%s", name);
    t->open = true;
    t->sel_buf = 0;
    t->view_step0 = t->view_step1 = 0;
    if (!tui_score(t, t->tgt.prefs, &t->det, &t->arena))
        return false;
    if (flip_candidates(t->tgt.lowering, &t->det.place, &t->det.live, &t->cand, &t->n_cand, &err))
        tui_status(t, true, "%s", err.msg);
    /* select the biggest buffer at the peak: where a reader looks first */
    int64_t best = -1;
    for (int32_t i = 0; i < t->arena.n; i++) {
        const view_buf_t *b = &t->arena.bufs[i];
        if (b->start <= t->arena.fp.peak_step && t->arena.fp.peak_step <= b->end && b->size > best) {
            best = b->size;
            t->sel_buf = i;
        }
    }
    char tot[32];
    units_format_bytes(t->arena.fp.total, tot, sizeof tot);
    tui_status(t, false, "opened %s: arena %s, %d buffers, %d steps", name, tot, (int)t->arena.fp.buffers,
               (int)t->tgt.lowering->n_steps);
    return true;
}

/* ---- fit with a progress bar -------------------------------------------------------- */

typedef struct fit_job {
    fit_options_t opt;
    const fit_context_t *ctx;
    fit_plan_t *plan;
    rs_error_t err;
    int rc;
    atomic_int done, total, cancel, finished;
} fit_job_t;

static int job_progress(void *ud, int32_t done, int32_t total)
{
    fit_job_t *j = ud;
    atomic_store(&j->done, done);
    atomic_store(&j->total, total);
    return atomic_load(&j->cancel);
}

static void *job_run(void *arg)
{
    fit_job_t *j = arg;
    j->rc = fit_run(&j->opt, j->ctx, NULL, &j->plan, &j->err);
    atomic_store(&j->finished, 1);
    return NULL;
}

bool tui_run_fit(tui_t *t, const char *budget)
{
    if (!t->open) {
        tui_status(t, true, "open a routine first (Session screen, Enter)");
        return false;
    }
    fit_job_t *j = calloc(1, sizeof *j);
    if (!j)
        return false;
    rs_error_t err;
    if (units_parse_budget(budget, "budget", &j->opt.budget, &err)) {
        tui_status(t, true, "%s", err.msg);
        free(j);
        return false;
    }
    close_fit(t);
    if (target_context(&t->tgt, &t->ctx, &err)) {
        free(j);
        tui_status(t, true, "%s", err.msg);
        return false;
    }
    j->opt.max_candidates = t->fit_cap;
    t->fit_cap = -1;
    j->opt.device_bytes = t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1;
    j->opt.progress = job_progress;
    j->opt.progress_ud = j;
    j->ctx = t->ctx;
    pthread_t tid;
    if (pthread_create(&tid, NULL, job_run, j) != 0) {
        j->rc = fit_run(&j->opt, j->ctx, NULL, &j->plan, &j->err);
        atomic_store(&j->finished, 1);
    } else {
        timeout(50);
        while (!atomic_load(&j->finished)) {
            int done = atomic_load(&j->done), total = atomic_load(&j->total);
            int y = t->rows - 2, w = t->cols - 30 > 10 ? t->cols - 30 : 10;
            tui_fill(t, y, 0, t->cols, t->attr[T_NORMAL]);
            int filled = total > 0 ? (int)((int64_t)w * done / total) : 0;
            tui_putf(t, y, 0, 24, t->attr[T_NORMAL] | A_BOLD, "fit %s %d/%d", budget, done, total);
            for (int i = 0; i < w; i++)
                tui_put(t, y, 24 + i, 1, i < filled ? t->attr[T_SELECTED] : t->attr[T_DIM],
                        i < filled ? tui_glyph(t, "█", "#") : tui_glyph(t, "░", "."));
            tui_put(t, t->rows - 1, 0, t->cols, t->attr[T_STATUS], " ^C cancels the fit (the app stays open)");
            refresh();
            int ch = getch();
            if (ch == 3 || ch == 27)
                atomic_store(&j->cancel, 1);
        }
        timeout(-1);
        pthread_join(tid, NULL);
    }
    bool ok = j->rc == RS_OK;
    if (ok) {
        t->plan = j->plan;
        t->event = 0;
        t->fit_sel = 0;
        t->fit_top = 0;
        t->ev_accepted = -1;
        t->budget = t->plan->minimize ? -1 : t->plan->budget;
        snprintf(t->budget_text, sizeof t->budget_text, "%s", budget);
        tui_status(t, false, "fit %s: %d flips, %d events; n/p step, a accept, r round two, e end, Enter why",
                   budget, (int)t->plan->n_flips, (int)t->plan->n_events);
    } else if (j->rc == RS_ECANCELED) {
        tui_status(t, false, "fit cancelled");
    } else {
        char msg[1024];
        error_format(&j->err, msg, sizeof msg);
        tui_status(t, true, "%s", msg);
    }
    free(j);
    return ok;
}

/* ---- session data -------------------------------------------------------------------- */

void tui_reload(tui_t *t)
{
    rs_error_t err;
    library_routine_rows_free(t->routines, t->n_routines);
    t->routines = NULL;
    t->n_routines = 0;
    free(t->routine_total);
    t->routine_total = NULL;
    free(t->routine_buffers);
    t->routine_buffers = NULL;
    free(t->profiles);
    t->profiles = NULL;
    t->n_profiles = 0;
    plans_list_free(t->plans, t->n_plans);
    t->plans = NULL;
    t->n_plans = 0;
    if (library_routine_list(t->store, &t->routines, &t->n_routines, &err) ||
        library_profile_list(t->store, &t->profiles, &t->n_profiles, &err) ||
        plans_list(t->store, &t->plans, &t->n_plans, &err))
        tui_status(t, true, "%s", err.msg);
    /* only the latest version of each routine is listed */
    int m = 0;
    for (int i = 0; i < t->n_routines; i++) {
        if (i + 1 < t->n_routines && strcmp(t->routines[i].name, t->routines[i + 1].name) == 0) {
            free(t->routines[i].name);
            free(t->routines[i].hash);
            free(t->routines[i].path);
            free(t->routines[i].imported_at);
            continue;
        }
        t->routines[m++] = t->routines[i];
    }
    t->n_routines = m;
    t->routine_total = malloc(((size_t)m + 1) * sizeof *t->routine_total);
    t->routine_buffers = calloc((size_t)m + 1, sizeof *t->routine_buffers);
    for (int i = 0; t->routine_total && i < m; i++)
        t->routine_total[i] = -1;
    if (t->sel_routine >= m)
        t->sel_routine = m ? m - 1 : 0;
    if (t->profile >= t->n_profiles)
        t->profile = -1;
    free(t->marked);
    free(t->order);
    t->marked = calloc((size_t)t->n_plans + 1, sizeof *t->marked);
    t->order = calloc((size_t)t->n_plans + 1, sizeof *t->order);
    t->n_order = 0;
    if (t->plan_sel >= t->n_plans)
        t->plan_sel = t->n_plans ? t->n_plans - 1 : 0;
}

