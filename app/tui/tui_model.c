/* tui_model: the session's state behind the screens: opening a routine
 * under the chosen bindings and profile, scoring for the arena, running fit
 * on a worker with a progress bar, reloading the store's lists. */
#include "tui/tui_model.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/units.h"
#include "rebuild.h"
#include "save.h"
#include "text.h"
#include "tui/tui_arena.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_pair.h"
#include "tui/tui_rows.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"

/* ---- scoring for the screens -------------------------------------------------------- */

bool tui_score(tui_t *t, const uint8_t *prefs, score_detail_t *det, arena_view_t *a)
{
    rs_error_t err;
    if (tui_arena_score(&t->tgt, prefs, det, a, &err)) {
        tui_error(t, NULL, &err);
        return false;
    }
    return true;
}

/* The open routine scored under another layout, on a worker: the arena
 * the Arena screen shows until then stays.  The layouts (core/layout)
 * take no stop and report no progress: the bar runs without a fraction,
 * and says it cannot be stopped. */
typedef struct layout_work {
    target_t tgt;             /* the open one's, with the other layout */
    score_detail_t det;
    arena_view_t arena;
} layout_work_t;

static int layout_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    (void)job;
    layout_work_t *w = ud;
    return tui_arena_score(&w->tgt, w->tgt.prefs, &w->det, &w->arena, err);
}

void tui_set_layout(tui_t *t, layout_strategy_t s)
{
    int64_t was = t->arena.fp.total;
    layout_strategy_t from = t->tgt.cfg.layout;
    layout_work_t w = { .tgt = t->tgt };
    w.tgt.cfg.layout = s;
    char what[200];
    snprintf(what, sizeof what, "laying %s out with the %s layout", t->open_name, layout_strategy_name(s));
    rs_error_t err;
    int rc = tui_wait_unstoppable(t, what, layout_work, &w, &err);
    if (rc) {
        score_detail_free(&w.det);
        tui_arena_free(&w.arena);
        tui_error(t, NULL, &err);
        return;
    }
    tui_fit_close(t);
    t->tgt.cfg.layout = s;
    score_detail_free(&t->det);
    tui_arena_free(&t->arena);
    t->det = w.det;
    t->arena = w.arena;
    if (t->sel_buf >= t->arena.n)
        t->sel_buf = 0;
    char now[32], before[32];
    units_format_bytes(t->arena.fp.total, now, sizeof now);
    units_format_bytes(was, before, sizeof before);
    tui_status(t, false, "layout %s: arena %s (%s with %s, %+.2f%%)%s", layout_strategy_name(s), now, before,
               layout_strategy_name(from), was ? 100.0 * (double)(t->arena.fp.total - was) / (double)was : 0.0,
               t->arena.fp.total == t->arena.fp.live_peak ? ", at max live: optimal" : "");
}

/* FNV-1a of n bytes: a routine's source in the key without its megabytes. */
static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
    return h;
}

void tui_compare_key(const tui_t *t, char *buf, size_t n)
{
    if (!t->open) {
        snprintf(buf, n, "-");
        return;
    }
    char cfg[256];
    rebuild_config_format(&t->tgt.cfg, cfg, sizeof cfg);
    uint64_t src = fnv(t->tgt.text ? t->tgt.text : "", t->tgt.text ? t->tgt.len : 0, 0xcbf29ce484222325ull);
    uint64_t prefs = fnv(t->tgt.prefs, (size_t)t->tgt.routine->n_nodes, 0xcbf29ce484222325ull);
    snprintf(buf, n, "%s|%zu:%016llx|%s|%s|%s|%016llx|%d", t->open_name, t->tgt.len, (unsigned long long)src,
             t->binds, t->profile >= 0 ? t->profiles[t->profile].name : "", cfg, (unsigned long long)prefs,
             (int)t->cap);
}

/* After the open routine was replaced: Compare's rows, fitted on the one
 * before, stay when the key is the same (the same source under the same
 * settings: the same nodes), pointing at the new one; else they go. */
static void compare_rows_follow(tui_t *t)
{
    char key[sizeof t->cmp_key];
    tui_compare_key(t, key, sizeof key);
    bool same = strcmp(key, t->cmp_key) == 0;
    for (int i = 0; i < t->n_cmp_rows; i++) {
        compare_row_t *r = &t->cmp_rows[i];
        if (same && r->plan)
            r->plan->routine = t->tgt.routine;
        else
            tui_rows_clear(r, false);
    }
    if (!same) {
        t->cmp_key[0] = 0; /* whatever is open next, they are fitted again */
        if (tui_pair_shown(t, SCR_COMPARE)) /* it showed two of the rows just dropped */
            tui_pair_close(t);
    }
}

void tui_close_routine(tui_t *t)
{
    tui_fit_close(t);
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
 * would open it (on a worker too: it reads the session, changes none of it). */
static int open_target(const tui_t *t, const char *name, target_t *nt, rs_error_t *err)
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
    /* the session's store answers routine names */
    memset(nt, 0, sizeof *nt);
    return target_open(&c, name, nt, err);
}

int tui_score_routine(const tui_t *t, const char *name, footprint_t *fp, rs_error_t *err)
{
    target_t nt;
    int rc = open_target(t, name, &nt, err);
    if (rc)
        return rc;
    rc = score_lowering(nt.lowering, NULL, &t->tgt.cfg, fp, NULL, err);
    target_free(&nt);
    return rc;
}

bool tui_check_binds(tui_t *t, const char *name)
{
    target_t nt;
    rs_error_t err;
    if (open_target(t, name, &nt, &err)) {
        tui_error(t, NULL, &err);
        return false;
    }
    target_free(&nt);
    return true;
}

/* A routine opened on a worker: read, lowered, scored, its candidates
 * listed; the routine open until then stays on screen. */
typedef struct open_work {
    const tui_t *t;
    const char *name;
    const char *config, *prefs; /* a stored plan's, or NULL: the session's */
    target_t tgt;
    score_detail_t det;
    arena_view_t arena;
    flip_candidate_t *cand;
    int32_t n_cand;
    rs_error_t cand_err;
    int cand_rc;
} open_work_t;

/* tgt's context preferences: exactly the nodes names lists (those it has). */
static int set_prefs(target_t *tgt, const char *names, rs_error_t *err)
{
    char *copy = strdup(names);
    if (!copy)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    memset(tgt->prefs, 0, (size_t)tgt->routine->n_nodes);
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        int32_t id = routine_find_node(tgt->routine, tok);
        if (id >= 0)
            tgt->prefs[id] = 1;
    }
    free(copy);
    return RS_OK;
}

static int open_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    open_work_t *w = ud;
    tui_job_doing(job, "reading and lowering");
    int rc = open_target(w->t, w->name, &w->tgt, err);
    if (!rc && w->tgt.store) { /* target opened its own handle: the session's is the one kept */
        store_close(w->tgt.store);
        w->tgt.store = NULL;
    }
    if (!rc && w->config)
        rc = rebuild_config_parse(w->config, &w->tgt.cfg, err);
    if (!rc && w->prefs)
        rc = set_prefs(&w->tgt, w->prefs, err);
    if (!rc && tui_job_stopped(job))
        rc = error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
    if (!rc) {
        tui_job_doing(job, "laying out its %s", text_count(w->tgt.routine->n_nodes, "node", NULL));
        rc = tui_arena_score(&w->tgt, w->tgt.prefs, &w->det, &w->arena, err);
    }
    if (!rc && tui_job_stopped(job))
        rc = error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
    if (!rc) { /* no candidates is no reason not to open it: said after */
        tui_job_doing(job, "listing flip candidates");
        w->cand_rc = flip_candidates(w->tgt.lowering, &w->det.place, &w->det.live, &w->cand, &w->n_cand, &w->cand_err);
    }
    return rc;
}

static void open_work_free(open_work_t *w)
{
    score_detail_free(&w->det);
    tui_arena_free(&w->arena);
    free(w->cand);
    w->tgt.store = NULL;
    target_free(&w->tgt);
}

bool tui_open_routine(tui_t *t, const char *name) { return tui_open_routine_as(t, name, NULL, NULL); }

bool tui_open_routine_as(tui_t *t, const char *name, const char *config, const char *prefs)
{
    char copy[sizeof t->open_name]; /* name may be t->open_name, which closing clears */
    snprintf(copy, sizeof copy, "%s", name);
    name = copy;
    open_work_t w = { .t = t, .name = name, .config = config, .prefs = prefs };
    char what[sizeof t->open_name + 16];
    snprintf(what, sizeof what, "opening %s", name);
    rs_error_t err;
    int rc = tui_wait(t, what, open_work, &w, &err);
    if (rc) {
        open_work_free(&w);
        if (rc == RS_ECANCELED)
            tui_status(t, false, "opening %s stopped%s%s", name, t->open ? "; still open: " : "",
                       t->open ? t->open_name : "");
        else
            tui_error(t, NULL, &err);
        return false;
    }
    bool same = t->open && strcmp(t->open_name, name) == 0;
    tui_close_routine(t);
    if (!same) { /* a budget line is about one routine's bytes */
        t->budget = -1;
        t->budget_text[0] = 0;
        t->fit_gone[0] = 0; /* the fit it speaks of was another routine's */
    }
    t->tgt = w.tgt;
    t->det = w.det;
    t->arena = w.arena;
    t->cand = w.cand;
    t->n_cand = w.n_cand;
    snprintf(t->open_name, sizeof t->open_name, "%s", name);
    snprintf(t->binds, sizeof t->binds, "%s", tui_binds_of(t, name));
    t->open = true;
    compare_rows_follow(t);
    t->sel_buf = 0;
    t->view_step0 = t->view_step1 = 0;
    t->inspect = false;
    t->step_cursor = 0;
    t->origins = false;
    for (int32_t i = 0; i < t->tgt.routine->n_nodes && !t->origins; i++)
        t->origins = t->tgt.routine->nodes[i].origin->source != NULL;
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
    tui_status(t, false, "opened %s: arena %s, %s, %s", name, tot, text_count(t->arena.fp.buffers, "buffer", NULL),
               text_count(t->tgt.lowering->n_steps, "step", NULL));
    if (w.cand_rc)
        tui_error(t, NULL, &w.cand_err);
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
        t->routine_total[i] = ROUTINE_TOTAL_UNKNOWN;
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

