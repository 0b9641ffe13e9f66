/* tui_model: the session's state behind the screens: opening a routine
 * under the chosen bindings and profile, scoring for the arena, running fit
 * on a worker with a progress bar, reloading the store's lists. */
#include "tui/tui_model.h"

#include <curses.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/units.h"
#include "save.h"
#include "tui/tui_arena.h"
#include "tui/tui_draw.h"
#include "tui/tui_pair.h"
#include "tui/tui_widgets.h"

/* ---- scoring for the screens -------------------------------------------------------- */

void tui_best_free(tui_t *t)
{
    best_plan_free(&t->best);
    tui_arena_free(&t->best_arena);
    score_detail_free(&t->best_det);
    t->show_best = false;
}

bool tui_score(tui_t *t, const uint8_t *prefs, score_detail_t *det, arena_view_t *a)
{
    score_detail_free(det);
    tui_arena_free(a);
    rs_error_t err;
    if (score_lowering(t->tgt.lowering, prefs, &t->tgt.cfg, &a->fp, det, &err)) {
        tui_error(t, NULL, &err);
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
    t->ev_held = false; /* a new fit (or routine) starts on "accepted so far" */
    tui_best_free(t);
    for (int i = 0; i < t->n_budgets; i++) {
        fit_plan_free(t->cmp[i]);
        t->cmp[i] = NULL;
        best_plan_free(&t->cmp_best[i]);
    }
    t->cmp_stale = t->n_budgets > 0;
    if (tui_pair_shown(t, SCR_COMPARE)) /* it showed two of the rows just dropped */
        tui_pair_close(t);
}

void tui_set_layout(tui_t *t, layout_strategy_t s)
{
    int64_t was = t->arena.fp.total;
    layout_strategy_t from = t->tgt.cfg.layout;
    close_fit(t);
    t->tgt.cfg.layout = s;
    if (!tui_score(t, t->tgt.prefs, &t->det, &t->arena))
        return;
    if (t->sel_buf >= t->arena.n)
        t->sel_buf = 0;
    char now[32], before[32];
    units_format_bytes(t->arena.fp.total, now, sizeof now);
    units_format_bytes(was, before, sizeof before);
    tui_status(t, false, "layout %s: arena %s (%s with %s, %+.2f%%)%s", layout_strategy_name(s), now, before,
               layout_strategy_name(from), was ? 100.0 * (double)(t->arena.fp.total - was) / (double)was : 0.0,
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

/* Splits "B=512 D=1024" into a cmdline_t's binds (pointing into copy). */
static int split_binds(char *copy, const char **out, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ,", &save); tok && n < max; tok = strtok_r(NULL, " ,", &save))
        out[n++] = tok;
    return n;
}

const char *tui_binds_of(const tui_t *t, const char *routine)
{
    for (int i = 0; i < t->n_rbinds; i++)
        if (strcmp(t->rbinds[i].routine, routine) == 0)
            return t->rbinds[i].binds;
    return "";
}

bool tui_binds_set(tui_t *t, const char *routine, const char *binds)
{
    int i = 0;
    while (i < t->n_rbinds && strcmp(t->rbinds[i].routine, routine) != 0)
        i++;
    if (i == t->n_rbinds) {
        struct tui_binds *nb = realloc(t->rbinds, ((size_t)t->n_rbinds + 1) * sizeof *nb);
        if (!nb)
            return false;
        t->rbinds = nb;
        snprintf(nb[i].routine, sizeof nb[i].routine, "%s", routine);
        t->n_rbinds++;
    }
    snprintf(t->rbinds[i].binds, sizeof t->rbinds[i].binds, "%s", binds);
    return true;
}

/* Routine name with its bindings and the session's profile, as the CLI
 * would open it; an error is shown and false returned. */
static bool open_target(tui_t *t, const char *name, target_t *nt)
{
    /* as many bindings as the text holds: a plan re-opened brings all of its own */
    char copy[sizeof t->binds];
    snprintf(copy, sizeof copy, "%s", tui_binds_of(t, name));
    const char *binds[sizeof t->binds / 2];
    cmdline_t c = *t->cmdline;
    c.binds = binds;
    c.n_binds = split_binds(copy, binds, (int)(sizeof binds / sizeof binds[0]));
    c.inlines = NULL;
    c.n_inlines = 0;
    c.profile = t->profile >= 0 ? t->profiles[t->profile].name : ""; /* "": none, not the config's */
    rs_error_t err;
    /* the session's store answers routine names */
    memset(nt, 0, sizeof *nt);
    if (target_open(&c, name, nt, &err)) {
        tui_error(t, NULL, &err);
        return false;
    }
    return true;
}

bool tui_check_binds(tui_t *t, const char *name)
{
    target_t nt;
    if (!open_target(t, name, &nt))
        return false;
    target_free(&nt);
    return true;
}

bool tui_open_routine(tui_t *t, const char *name)
{
    target_t nt;
    if (!open_target(t, name, &nt))
        return false;
    bool same = t->open && strcmp(t->open_name, name) == 0;
    tui_close_routine(t);
    if (!same) { /* a budget line is about one routine's bytes */
        t->budget = -1;
        t->budget_text[0] = 0;
    }
    t->tgt = nt;
    if (t->tgt.store) { /* target opened its own handle: keep the session's */
        store_close(t->tgt.store);
        t->tgt.store = NULL;
    }
    snprintf(t->open_name, sizeof t->open_name, "%s", name);
    snprintf(t->binds, sizeof t->binds, "%s", tui_binds_of(t, name));
    t->open = true;
    t->sel_buf = 0;
    t->view_step0 = t->view_step1 = 0;
    t->inspect = false;
    t->step_cursor = 0;
    t->origins = false;
    for (int32_t i = 0; i < t->tgt.routine->n_nodes && !t->origins; i++)
        t->origins = t->tgt.routine->nodes[i].origin->source != NULL;
    if (!tui_score(t, t->tgt.prefs, &t->det, &t->arena))
        return false;
    rs_error_t err;
    if (flip_candidates(t->tgt.lowering, &t->det.place, &t->det.live, &t->cand, &t->n_cand, &err))
        tui_error(t, NULL, &err);
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

bool tui_rename_routine(tui_t *t, const char *from, const char *path, const char *to, int *renamed)
{
    rs_error_t err;
    int rc = store_begin(t->store, &err);
    if (!rc && (rc = library_routine_rename(t->store, from, to, path, renamed, &err)))
        store_rollback(t->store);
    else if (!rc)
        rc = store_commit(t->store, &err);
    if (rc) {
        tui_error(t, NULL, &err);
        return false;
    }
    for (int i = 0; i < t->n_rbinds; i++) /* its bindings are the routine's, under any name */
        if (strcmp(t->rbinds[i].routine, from) == 0)
            snprintf(t->rbinds[i].routine, sizeof t->rbinds[i].routine, "%s", to);
    if (t->open && strcmp(t->open_name, from) == 0) { /* the open one is the latest version: renamed */
        snprintf(t->open_name, sizeof t->open_name, "%s", to);
        if (routine_set_name(t->tgt.routine, to, &err))
            tui_error(t, NULL, &err);
    }
    tui_reload(t);
    for (int i = 0; i < t->n_routines; i++)
        if (strcmp(t->routines[i].name, to) == 0)
            t->sel_routine = i;
    return true;
}

bool tui_fit_may_go(tui_t *t, const char *change, char *what, size_t n)
{
    what[0] = 0;
    if (!t->plan)
        return true;
    char q[256];
    snprintf(q, sizeof q, "%s drops the fit to %s you did not save: go on? (S on Fit saves it)", change,
             t->fit_budget_text);
    if (!t->plan_saved && !tui_confirm(t, q))
        return false;
    if (t->plan_saved)
        snprintf(what, n, "; dropped the saved fit");
    else
        snprintf(what, n, "; dropped the fit to %s (f fits again)", t->fit_budget_text);
    return true;
}

/* Whether a and b are one plan: the same budget, cap and flips. */
static bool same_plan(const fit_plan_t *a, const fit_plan_t *b)
{
    if (a->minimize != b->minimize || (!a->minimize && a->budget != b->budget) || a->cap != b->cap ||
        a->n_flips != b->n_flips || a->final.total != b->final.total)
        return false;
    for (int32_t i = 0; i < a->n_flips; i++)
        if (a->flips[i].node != b->flips[i].node || a->flips[i].relief != b->flips[i].relief)
            return false;
    return true;
}

void tui_plan_saved(tui_t *t, const fit_plan_t *p)
{
    if (t->plan && (t->plan == p || same_plan(t->plan, p)))
        t->plan_saved = true;
}

bool tui_choose_profile(tui_t *t, int profile)
{
    char what[160];
    if (profile != t->profile && !tui_fit_may_go(t, "changing the profile", what, sizeof what))
        return false;
    t->profile = profile;
    const char *name = profile >= 0 ? t->profiles[profile].name : "";
    rs_error_t err;
    if (library_setting_set(t->store, "profile", name, &err))
        tui_error(t, "remembering the profile", &err);
    char now[64] = "";
    if (t->open) {
        char open[128];
        snprintf(open, sizeof open, "%s", t->open_name);
        if (!tui_open_routine(t, open))
            return true; /* the status says why */
        units_format_bytes(t->arena.fp.total, now, sizeof now);
        tui_status(t, false, "profile %s: arena %s, alignment %lld%s", name[0] ? name : "none", now,
                   (long long)t->tgt.cfg.alignment, what);
    } else {
        tui_status(t, false, "profile %s (the store remembers it for the next session)", name[0] ? name : "none");
    }
    return true;
}

void tui_recall_profile(tui_t *t)
{
    char *name = NULL;
    rs_error_t err;
    const char *configured = config_text(t->cmdline->config, CONFIG_PROFILE);
    if (library_setting_get(t->store, "profile", &name, &err) || !name)
        return;
    if (configured) { /* the config file's profile wins (DESIGN §11): the status says what was chosen last */
        if (strcmp(configured, name) != 0)
            tui_status(t, false, "profile %s from the config file (%s was chosen last time: p picks one)", configured,
                       name[0] ? name : "none");
        free(name);
        return;
    }
    for (int i = 0; i < t->n_profiles; i++)
        if (strcmp(t->profiles[i].name, name) == 0)
            t->profile = i;
    free(name);
}

/* ---- fit with a progress bar -------------------------------------------------------- */

typedef struct fit_job {
    fit_options_t opt;
    const fit_context_t *ctx;
    fit_plan_t *plan;
    rs_error_t err;
    int rc;
    int64_t elapsed_us;
    atomic_int done, total, cancel, finished;
} fit_job_t;

int64_t tui_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

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
    int64_t t0 = tui_now_us();
    j->rc = fit_run(&j->opt, j->ctx, NULL, &j->plan, &j->err);
    j->elapsed_us = tui_now_us() - t0;
    atomic_store(&j->finished, 1);
    return NULL;
}

void tui_budget_offer(const tui_t *t, char *buf, size_t n)
{
    const char *configured = config_text(t->cmdline->config, CONFIG_MEMORY_BUDGET);
    snprintf(buf, n, "%s", t->plan || t->budget >= 0 ? t->budget_text
                           : t->last_budget[0]   ? t->last_budget
                           : configured          ? configured
                                                 : "");
}

/* Makes plan (fitted on ctx under budget) the Fit screen's, both owned
 * from now on; the fit before it goes.  what names it in the status line. */
static void install_fit(tui_t *t, fit_context_t *ctx, fit_plan_t *plan, int64_t elapsed_us, const char *budget,
                        const char *what)
{
    close_fit(t);
    t->ctx = ctx;
    t->plan = plan;
    t->plan_elapsed_us = elapsed_us;
    t->plan_saved = false;
    t->event = 0;
    t->fit_sel = 0;
    t->fit_top = 0;
    t->ev_accepted = -1;
    t->budget = t->plan->minimize ? -1 : t->plan->budget;
    snprintf(t->budget_text, sizeof t->budget_text, "%s", budget);
    snprintf(t->fit_budget_text, sizeof t->fit_budget_text, "%s", budget);
    snprintf(t->last_budget, sizeof t->last_budget, "%s", budget);
    if (!t->plan->within_budget && t->plan->dropped > 0)
        tui_status(t, true, "%s: budget missed; the cap kept %d of %d candidates: C sets it",
                   what, (int)t->plan->considered, (int)(t->plan->considered + t->plan->dropped));
    else
        tui_status(t, false, "%s: %d flip%s, %d events: Enter why, n/p step, a accept, e end", what,
                   (int)t->plan->n_flips, t->plan->n_flips == 1 ? "" : "s", (int)t->plan->n_events);
}

bool tui_show_plan(tui_t *t, const fit_plan_t *plan, int64_t elapsed_us, const char *budget, const char *what)
{
    rs_error_t err;
    fit_context_t *ctx = NULL;
    fit_plan_t *copy = NULL;
    if (target_context(&t->tgt, &ctx, &err) || fit_plan_copy(plan, &copy, &err)) {
        fit_context_free(ctx);
        tui_error(t, NULL, &err);
        return false;
    }
    install_fit(t, ctx, copy, elapsed_us, budget, what);
    return true;
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
        tui_error(t, NULL, &err);
        free(j);
        return false;
    }
    /* the fit on screen stays until this one succeeds: a cancel keeps it */
    fit_context_t *ctx = NULL;
    if (target_context(&t->tgt, &ctx, &err)) {
        free(j);
        tui_error(t, NULL, &err);
        return false;
    }
    j->opt.max_candidates = t->fit_cap >= 0 ? t->fit_cap : t->cap;
    t->fit_cap = -1;
    j->opt.device_bytes = t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1;
    j->opt.progress = job_progress;
    j->opt.progress_ud = j;
    j->ctx = ctx;
    pthread_t tid;
    if (pthread_create(&tid, NULL, job_run, j) != 0) {
        job_run(j);
    } else {
        /* the screen under the progress is redrawn whole after a resize or
         * ^L; keys other than ^C/Esc wait for the fit and run after it */
        timeout(50);
        bool full = true;
        int queued[32], nq = 0;
        while (!atomic_load(&j->finished)) {
            if (full && t->redraw)
                t->redraw(t);
            full = false;
            if (t->cols >= TUI_MIN_COLS && t->rows >= TUI_MIN_ROWS) {
                int done = atomic_load(&j->done), total = atomic_load(&j->total);
                int y = t->rows - 2, w = t->cols - 30 > 10 ? t->cols - 30 : 10;
                tui_fill(t, y, 0, t->cols, t->attr[T_NORMAL]);
                int filled = total > 0 ? (int)((int64_t)w * done / total) : 0;
                tui_putf(t, y, 0, 24, t->attr[T_NORMAL] | A_BOLD, "fit %s %d/%d", budget, done, total);
                for (int i = 0; i < w; i++)
                    tui_put(t, y, 24 + i, 1, i < filled ? t->attr[T_SELECTED] : t->attr[T_DIM],
                            i < filled ? tui_glyph(t, "█", "#") : tui_glyph(t, "░", "."));
                tui_fill(t, t->rows - 1, 0, t->cols, t->attr[T_STATUS]);
                tui_putf(t, t->rows - 1, 0, t->cols, t->attr[T_STATUS], " ^C cancels the fit (the app stays open)%s",
                         nq == 0 ? "" : nq == 1 ? "; 1 key waits for it" : "; keys wait for it");
            }
            refresh();
            int ch = getch();
            if (ch == 3 || ch == 27) {
                atomic_store(&j->cancel, 1);
                nq = 0; /* cancelled: what was typed for after the fit goes too */
            } else if (ch == KEY_RESIZE) {
                getmaxyx(stdscr, t->rows, t->cols);
                full = true;
            } else if (ch == 12) { /* ^L */
                clearok(curscr, TRUE);
                full = true;
            } else if (ch != ERR && ch != KEY_MOUSE && nq < (int)(sizeof queued / sizeof *queued)) {
                queued[nq++] = ch;
            }
        }
        while (nq > 0)
            ungetch(queued[--nq]);
        timeout(-1);
        pthread_join(tid, NULL);
    }
    bool ok = j->rc == RS_OK;
    if (ok) {
        char what[80];
        snprintf(what, sizeof what, "fit %s", budget);
        install_fit(t, ctx, j->plan, j->elapsed_us, budget, what);
    } else {
        fit_context_free(ctx);
        if (j->rc == RS_ECANCELED)
            tui_status(t, false, t->plan ? "fit cancelled; the fit before it stays" : "fit cancelled");
        else
            tui_error(t, NULL, &j->err);
    }
    free(j);
    return ok;
}

bool tui_set_cap(tui_t *t)
{
    char buf[32] = "";
    if (t->cap == INT32_MAX)
        snprintf(buf, sizeof buf, "all");
    else if (t->cap >= 0)
        snprintf(buf, sizeof buf, "%d", (int)t->cap);
    if (!tui_prompt(t, "candidate cap of the fits that follow (a number, all, empty: 32, minimize none): ", buf,
                    sizeof buf, false))
        return false;
    char *end = NULL;
    long v = strtol(buf, &end, 10);
    if (!buf[0])
        t->cap = -1;
    else if (strcmp(buf, "all") == 0)
        t->cap = INT32_MAX;
    else if (end != buf && !*end && v >= 0 && v <= INT32_MAX)
        t->cap = (int32_t)v;
    else {
        tui_status(t, true, "candidate cap '%s': expected a number, all, or nothing", buf);
        return false;
    }
    t->cmp_stale = t->n_budgets > 0;
    if (t->cap < 0)
        tui_status(t, false, "candidate cap: the default (32 cheapest; minimize considers all)");
    else if (t->cap == INT32_MAX)
        tui_status(t, false, "candidate cap: none, every candidate is considered (f or b fits again)");
    else
        tui_status(t, false, "candidate cap: the %d cheapest (f or b fits again)", (int)t->cap);
    return true;
}

bool tui_save_plan(tui_t *t, fit_plan_t *p, int64_t elapsed_us, const char *budget, const best_plan_t *gap,
                   const char *prompt, const char *what)
{
    char label[128] = "";
    if (!tui_prompt(t, prompt, label, sizeof label, false))
        return false;
    cmdline_t c = *t->cmdline;
    c.label = label[0] ? label : NULL;
    target_t tmp = t->tgt;
    tmp.store = t->store;
    rs_error_t err;
    fit_plan_t *plans[1] = { p };
    int64_t id;
    const char *asked[1] = { budget };
    save_extra_t x = { .budgets = asked };
    if (save_plans(&c, &tmp, plans, &elapsed_us, 1, &x, &id, &err)) {
        tui_error(t, NULL, &err);
        return false;
    }
    t->plan_focus = id;
    tui_plan_saved(t, p);
    if (gap && gap->kind && save_gap(&tmp, p, id, gap, &err))
        tui_status(t, true, "%s%ssaved as plan %lld, but not its gap: %s", what, what[0] ? " " : "", (long long)id,
                   err.msg);
    else
        tui_status(t, false, "%s%ssaved as plan %lld%s", what, what[0] ? " " : "", (long long)id,
                   gap && gap->kind ? " with its gap" : "");
    return true;
}

/* ---- session data -------------------------------------------------------------------- */

/* The bundled profiles the store lacks, after the stored ones: a profile
 * the CLI finds by name is one the Session list offers. */
static void add_bundled_profiles(tui_t *t)
{
    profile_list_t l;
    rs_error_t err;
    if (target_bundled_profiles(&l, &err))
        return; /* no bundled list: the stored ones are all there is */
    profile_t *all = realloc(t->profiles, ((size_t)t->n_profiles + (size_t)l.n + 1) * sizeof *all);
    if (all) {
        t->profiles = all;
        t->n_stored_profiles = t->n_profiles;
        for (int32_t i = 0; i < l.n; i++) {
            bool stored = false;
            for (int k = 0; k < t->n_stored_profiles && !stored; k++)
                stored = strcmp(all[k].name, l.items[i].name) == 0;
            if (!stored)
                all[t->n_profiles++] = l.items[i];
        }
    }
    profiles_free(&l);
}

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
        tui_error(t, NULL, &err);
    add_bundled_profiles(t);
    /* only the latest version of each routine is listed */
    int m = 0;
    for (int i = 0; i < t->n_routines; i++) {
        if (i + 1 < t->n_routines && strcmp(t->routines[i].name, t->routines[i + 1].name) == 0) {
            library_routine_row_free(&t->routines[i]);
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

