/* tui_fit: the plan on the Fit screen: fit runs on the open routine with
 * a progress bar, a plan shown there from elsewhere (a Compare row, a
 * stored plan replayed), the best or improved plan beside it, the
 * candidate cap, saving. */
#include "tui/tui_fit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "monotime.h"
#include "replay.h"
#include "save.h"
#include "text.h"
#include "tui/tui_arena.h"
#include "tui/tui_frontier.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"

void tui_best_free(tui_t *t)
{
    best_plan_free(&t->best);
    tui_arena_free(&t->best_arena);
    score_detail_free(&t->best_det);
    t->show_best = false;
}

void tui_fit_close(tui_t *t)
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
    tui_frontier_free(t);
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
        snprintf(what, n, "; closed the saved fit"); /* "dropped" read as deleted */
    else
        snprintf(what, n, "; dropped the fit to %s (f fits again)", t->fit_budget_text);
    /* Fit, empty from now on, says why (the status line is gone by the time one looks) */
    snprintf(t->fit_gone, sizeof t->fit_gone, "%c%s closed the fit to %s%s", toupper((unsigned char)change[0]),
             change + 1, t->fit_budget_text, t->plan_saved ? " (it is saved: Plans has it)" : " (it was not saved)");
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

bool tui_fit_may_replace(tui_t *t, const char *what, const fit_plan_t *next)
{
    if (!t->plan || t->plan_saved || (next && same_plan(t->plan, next)))
        return true;
    char q[256];
    snprintf(q, sizeof q, "%s replaces the fit to %s you did not save: go on? (S on Fit saves it)", what,
             t->fit_budget_text);
    if (tui_confirm(t, q))
        return true;
    tui_status(t, false, "kept the fit to %s", t->fit_budget_text);
    return false;
}

void tui_plan_saved(tui_t *t, const fit_plan_t *p)
{
    if (t->plan && (t->plan == p || same_plan(t->plan, p)))
        t->plan_saved = true;
}

/* ---- fit with a progress bar -------------------------------------------------------- */

typedef struct fit_work {
    fit_options_t opt;
    const fit_context_t *ctx;
    fit_plan_t *plan;
    int64_t elapsed_us;
    tui_fit_watch_t watch; /* the bar: the fit's stage and its own count */
} fit_work_t;

static int fit_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    fit_work_t *w = ud;
    w->watch = (tui_fit_watch_t){ .job = job };
    tui_fit_watch(&w->watch, &w->opt);
    int64_t t0 = monotime_us();
    int rc = fit_run(&w->opt, w->ctx, NULL, &w->plan, err);
    w->elapsed_us = monotime_us() - t0;
    return rc;
}

void tui_budget_offer(const tui_t *t, char *buf, size_t n)
{
    const char *configured = config_text(t->cmdline->config, CONFIG_MEMORY_BUDGET);
    snprintf(buf, n, "%s", t->unfitted_budget[0]       ? t->unfitted_budget
                           : t->plan || t->budget >= 0 ? t->budget_text
                           : t->last_budget[0]         ? t->last_budget
                           : configured          ? configured
                                                 : "");
}

/* Makes plan (fitted on ctx under budget) the Fit screen's, both owned
 * from now on; the fit before it goes.  what names it in the status line. */
static void install_fit(tui_t *t, fit_context_t *ctx, fit_plan_t *plan, int64_t elapsed_us, const char *budget,
                        const char *what)
{
    tui_fit_close(t);
    t->fit_gone[0] = 0;
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
    t->unfitted_budget[0] = 0; /* fitted: the fit's budget is what is offered now */
    char floor[64], hides[256];
    units_format_bytes(t->plan->floor.bytes, floor, sizeof floor);
    const fit_plan_t *p = t->plan;
    if (text_below_floor(p) && p->dropped > 0) /* no cap helps there, but it is why so few flips */
        tui_status(t, true, "%s: budget missed: below the floor, %s, no plan reaches it; the cap kept %d of %d "
                   "(C sets it)", what, floor, (int)p->considered, (int)(p->considered + p->dropped));
    else if (text_below_floor(p))
        tui_status(t, true, "%s: budget missed: it is below the floor, %s: no plan can reach it", what, floor);
    else if (text_cap_hides(p, budget, "C all", hides, sizeof hides)) /* the cap alone kept the budget out of reach */
        tui_status(t, true, "%s: budget missed: %s", what, hides);
    else if (text_cap_may(p, hides, sizeof hides))
        tui_status(t, true, "%s: budget %s", what, hides);
    else if (!p->within_budget) {
        char by[32];
        units_format_bytes(p->final.total - p->budget, by, sizeof by);
        tui_status(t, true, "%s: budget missed by %s after %d flip%s, events 0-%d: Enter why, e end", what, by,
                   (int)p->n_flips, p->n_flips == 1 ? "" : "s", (int)p->n_events - 1);
    } else
        /* numbered as the header numbers them ("event 0/1574"), not counted */
        tui_status(t, false, "%s: %d flip%s, events 0-%d: Enter why, n/p step, a accept, e end", what,
                   (int)p->n_flips, p->n_flips == 1 ? "" : "s", (int)p->n_events - 1);
}

/* Shows plan (owned from now on), fitted on the open routine under budget,
 * as install_fit; false (plan freed) on error. */
static bool adopt_plan(tui_t *t, fit_plan_t *plan, int64_t elapsed_us, const char *budget, const char *what)
{
    rs_error_t err;
    fit_context_t *ctx = NULL;
    if (target_context(&t->tgt, &ctx, &err)) {
        fit_plan_free(plan);
        tui_error(t, NULL, &err);
        return false;
    }
    install_fit(t, ctx, plan, elapsed_us, budget, what);
    return true;
}

/* A stored plan read back on a worker: its events loaded, its plan rebuilt
 * from them (replay.h), the floors scored once; nothing of the session
 * changes.  ^C stops it after the reading. */
typedef struct replay_work {
    store_t *store;
    int64_t id;
    const target_t *tgt;
    fit_plan_t *plan;
    int64_t elapsed_us;
} replay_work_t;

static int replay_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    replay_work_t *w = ud;
    stored_plan_t sp;
    tui_job_doing(job, "reading its events");
    int rc = plans_load(w->store, w->id, true, &sp, err);
    if (rc)
        return rc;
    if (tui_job_stopped(job)) { /* between its two stages: the reading, the replay */
        stored_plan_free(&sp);
        return error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
    }
    tui_job_doing(job, "its %d events and the floors", (int)sp.n_events);
    rc = replay_plan(&sp, w->tgt->lowering, w->tgt->prefs, &w->tgt->cfg, &w->plan, err);
    w->elapsed_us = sp.elapsed_us;
    stored_plan_free(&sp);
    return rc;
}

int tui_replay_plan(tui_t *t, int64_t id, const char *budget)
{
    replay_work_t w = { .store = t->store, .id = id, .tgt = &t->tgt };
    char what[96];
    snprintf(what, sizeof what, "replaying plan %lld from the store", (long long)id);
    rs_error_t err;
    int rc = tui_wait(t, what, replay_work, &w, &err);
    if (rc == RS_ECANCELED) {
        fit_plan_free(w.plan);
        tui_status(t, false, "replay of plan %lld stopped", (long long)id);
        return rc;
    }
    if (rc) {
        fit_plan_free(w.plan);
        tui_error(t, NULL, &err);
        return rc;
    }
    snprintf(what, sizeof what, "plan %lld replayed from the store (no fit)", (long long)id);
    return adopt_plan(t, w.plan, w.elapsed_us, budget, what) ? RS_OK : RS_ENOMEM;
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
    fit_work_t w = { 0 };
    rs_error_t err;
    if (units_parse_budget(budget, "budget", &w.opt.budget, &err)) {
        tui_error(t, NULL, &err);
        return false;
    }
    /* the fit on screen stays until this one succeeds: a cancel keeps it */
    fit_context_t *ctx = NULL;
    if (target_context(&t->tgt, &ctx, &err)) {
        tui_error(t, NULL, &err);
        return false;
    }
    w.opt.max_candidates = t->fit_cap >= 0 ? t->fit_cap : t->cap;
    t->fit_cap = -1;
    w.opt.device_bytes = t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1;
    w.ctx = ctx;
    char what[sizeof t->open_name + 80];
    snprintf(what, sizeof what, "fit %s on %s", budget, t->open_name);
    int rc = tui_wait(t, what, fit_work, &w, &err);
    if (!rc) {
        snprintf(what, sizeof what, "fit %s", budget);
        install_fit(t, ctx, w.plan, w.elapsed_us, budget, what);
        return true;
    }
    fit_context_free(ctx);
    if (rc == RS_ECANCELED)
        tui_status(t, false, t->plan ? "fit cancelled; the fit before it stays" : "fit cancelled");
    else
        tui_error(t, NULL, &err);
    return false;
}

/* The best or improved plan of the Fit screen's, on a worker: the search,
 * then its arena scored; the session is untouched until it is done. */
typedef struct best_work {
    best_kind_t kind;
    const fit_plan_t *plan;
    const fit_context_t *ctx;
    const target_t *tgt;
    best_plan_t best;
    score_detail_t det;
    arena_view_t arena;
} best_work_t;

static int best_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    best_work_t *w = ud;
    tui_job_doing(job, w->kind == BEST_EXACT ? "every subset of %s" : "moves near the two-round plan, %s",
                  text_count(w->plan->considered, "candidate", NULL));
    tui_job_time_limit(job, (int64_t)(BEST_DEFAULT_SECONDS * 1e6));
    int rc = best_run_cancellable(w->kind, w->plan, w->ctx, (best_limits_t){ 0, 0 }, false, tui_job_stop_cb, job,
                                  &w->best, err);
    uint8_t *prefs = rc ? NULL : calloc((size_t)w->tgt->routine->n_nodes + 1, 1);
    if (!rc && !prefs)
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc) {
        tui_job_time_limit(job, 0);
        tui_job_doing(job, "its arena");
        fit_context_prefs(w->ctx, prefs);
        for (int32_t i = 0; i < w->best.n_flips; i++)
            prefs[w->best.flips[i]] = 1;
        rc = tui_arena_score(w->tgt, prefs, &w->det, &w->arena, err);
    }
    free(prefs);
    return rc;
}

void tui_best_run(tui_t *t, best_kind_t kind)
{
    tui_best_free(t);
    best_work_t w = { .kind = kind, .plan = t->plan, .ctx = t->ctx, .tgt = &t->tgt };
    rs_error_t err;
    int rc = tui_wait(t, kind == BEST_EXACT ? "the best plan" : "an improved plan", best_work, &w, &err);
    if (rc) {
        best_plan_free(&w.best);
        score_detail_free(&w.det);
        tui_arena_free(&w.arena);
        tui_status(t, true, "%s", err.msg);
        return;
    }
    t->best = w.best;
    t->best_det = w.det;
    t->best_arena = w.arena;
    t->show_best = true;
    tui_status(t, false, "%s in %.2f s, %s scored%s; %s again hides it", best_kind_name(kind),
               (double)t->best.elapsed_us / 1e6, text_count(t->best.explored, "subset", NULL),
               t->best.proved ? "" : " (stopped: not proved)", kind == BEST_EXACT ? "x" : "I");
}

bool tui_set_cap(tui_t *t)
{
    char buf[32] = "";
    bool offered = false;
    if (t->cap == INT32_MAX)
        snprintf(buf, sizeof buf, "all");
    else if (t->cap >= 0)
        snprintf(buf, sizeof buf, "%d", (int)t->cap);
    else if ((offered = t->cap_offer[0] != 0)) /* none set in this session: the last session's choice */
        snprintf(buf, sizeof buf, "%s", t->cap_offer);
    if (!tui_prompt(t, offered ? "candidate cap (N, all; empty: 32, minimize all; as chosen last time): "
                               : "candidate cap (N, all; empty: 32, minimize all): ",
                    buf, sizeof buf, false))
        return false;
    char *end = NULL;
    long v = strtol(buf, &end, 10);
    int32_t cap;
    if (!buf[0])
        cap = -1;
    else if (strcmp(buf, "all") == 0)
        cap = INT32_MAX;
    else if (end != buf && !*end && v >= 0 && v <= INT32_MAX)
        cap = (int32_t)v;
    else {
        tui_status(t, true, "candidate cap '%s': expected a number, all, or nothing", buf);
        return false;
    }
    tui_cap_set(t, cap);
    return true;
}

void tui_cap_set(tui_t *t, int32_t cap)
{
    t->cap = cap;
    t->cmp_stale = t->n_cmp_rows > 0;
    /* kept with the session, offered again next time (tui_recall_cap) */
    char *kept = t->cap_offer;
    kept[0] = 0;
    if (t->cap == INT32_MAX)
        snprintf(kept, sizeof t->cap_offer, "all");
    else if (t->cap >= 0)
        snprintf(kept, sizeof t->cap_offer, "%d", (int)t->cap);
    rs_error_t err;
    if (library_setting_set(t->store, "cap", kept, &err)) {
        tui_error(t, "remembering the cap", &err);
        return;
    }
    if (t->cap < 0)
        tui_status(t, false, "candidate cap: the default (32 cheapest; minimize considers all)");
    else if (t->cap == INT32_MAX)
        tui_status(t, false, "candidate cap: all, every candidate is considered (f or b fits again)");
    else
        tui_status(t, false, "candidate cap: the %d cheapest (f or b fits again)", (int)t->cap);
}

void tui_recall_cap(tui_t *t)
{
    char *kept = NULL;
    rs_error_t err;
    if (library_setting_get(t->store, "cap", &kept, &err) || !kept)
        return;
    snprintf(t->cap_offer, sizeof t->cap_offer, "%s", kept);
    free(kept);
}

/* A plan saved on a worker (save.h: one transaction, so a stop leaves
 * nothing of it); the session is untouched until it is done. */
typedef struct save_work {
    cmdline_t c;
    target_t tgt;             /* the open one's, with the session's store */
    fit_plan_t *plans[1];
    int64_t elapsed_us;
    const char *asked[1];
    double frontier_s[1];
    save_extra_t x;
    int64_t id;
} save_work_t;

static int save_progress(void *job, int64_t done, int64_t total) { return tui_job_progress(job, done, total); }

static int save_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    save_work_t *w = ud;
    tui_job_doing(job, "events");
    w->x.progress = save_progress;
    w->x.progress_ud = job;
    return save_plans(&w->c, &w->tgt, w->plans, &w->elapsed_us, 1, &w->x, &w->id, err);
}

/* What the status says was stored with p besides it: the gap (DESIGN
 * §12), the best (x) or improved (I) plan shown beside p, which `show`
 * and Plans say with it: ", with the best plan x found beside it (6.41
 * MiB, 254 KiB less)", "(...; not proved)", ", with the best plan x
 * looked for beside it: no subset of the candidates fits the budget" (a
 * search that stopped: "none found in the time limit (not proved)"). */
static void gap_said(const fit_plan_t *p, const best_plan_t *g, char *buf, size_t n)
{
    bool exact = g->kind == BEST_EXACT;
    const char *who = exact ? "the best plan x" : "the improved plan I";
    if (!g->found) {
        snprintf(buf, n, ", with %s looked for beside it: %s", who,
                 g->proved ? "no subset of the candidates fits the budget" : "none found in the time limit (not proved)");
        return;
    }
    char size[32], d[32], than[48];
    units_format_bytes(g->final.total, size, sizeof size);
    int64_t delta = p->final.total - g->final.total;
    units_format_bytes(delta < 0 ? -delta : delta, d, sizeof d);
    if (delta == 0)
        snprintf(than, sizeof than, "the same");
    else
        snprintf(than, sizeof than, "%s %s", d, delta > 0 ? "less" : "more");
    snprintf(buf, n, ", with %s found beside it (%s, %s%s)", who, size, than, exact && !g->proved ? "; not proved" : "");
}

bool tui_save_plan(tui_t *t, fit_plan_t *p, int64_t elapsed_us, const char *budget, const best_plan_t *gap,
                   const char *prompt, const char *what)
{
    char label[128] = "";
    if (!tui_prompt(t, prompt, label, sizeof label, false))
        return false;
    save_work_t w = { .c = *t->cmdline, .tgt = t->tgt, .plans = { p }, .elapsed_us = elapsed_us,
                      .asked = { budget } };
    w.c.label = label[0] ? label : NULL;
    w.tgt.store = t->store;
    w.x.budgets = w.asked;
    /* the frontier plan found for this plan (F) is saved beside it, as fit --planner frontier --save does */
    bool with_frontier = t->has_frontier && p == t->plan;
    if (with_frontier) {
        w.frontier_s[0] = t->frontier_s;
        w.x.frontiers = &t->frontier;
        w.x.frontier_seconds = w.frontier_s;
    }
    char head[64];
    snprintf(head, sizeof head, "saving the plan of %d flip%s", (int)p->n_flips, p->n_flips == 1 ? "" : "s");
    rs_error_t err;
    int rc = tui_wait(t, head, save_work, &w, &err);
    if (rc == RS_ECANCELED) {
        tui_status(t, false, "save stopped: nothing saved (S saves it)");
        return false;
    }
    if (rc) {
        tui_error(t, NULL, &err);
        return false;
    }
    int64_t id = w.id;
    t->plan_focus = id;
    tui_plan_saved(t, p);
    char with[160] = "";
    if (gap && gap->kind)
        gap_said(p, gap, with, sizeof with);
    if (gap && gap->kind && save_gap(&w.tgt, p, id, gap, &err))
        tui_status(t, true, "%s%ssaved as plan %lld, but not the %s plan beside it: %s", what, what[0] ? " " : "",
                   (long long)id, gap->kind == BEST_EXACT ? "best" : "improved", err.msg);
    else
        tui_status(t, false, "%s%ssaved as plan %lld%s%s", what, what[0] ? " " : "", (long long)id,
                   with_frontier ? " with its frontier plan" : "", with);
    return true;
}
