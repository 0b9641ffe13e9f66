/* tui: terminal setup and restore, the event loop, status bar, overlays,
 * prompts, and the arena drawing the screens share. */
#include "tui.h"

#include <curses.h>
#include <dirent.h>
#include <langinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import.h"
#include "text.h"
#include "rebuild.h"
#include "units.h"

#ifndef RS_THEMES_DIR
#define RS_THEMES_DIR "themes"
#endif

/* ---- terminal safety --------------------------------------------------------- */

static volatile sig_atomic_t curses_on;

/* Restores the terminal from any signal that ends us: Ctrl-C from outside,
 * SIGTERM, SIGHUP, and crashes; then lets the signal do what it does. */
static void restore_and_reraise(int sig)
{
    if (curses_on) {
        endwin();
        curses_on = 0;
        if (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT) {
            static const char msg[] = "rematscope: crashed; the terminal was restored\n";
            ssize_t w = write(2, msg, sizeof msg - 1);
            (void)w;
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = restore_and_reraise;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* ---- drawing helpers ---------------------------------------------------------- */

/* Bytes of the first w display columns of s (one column a code point). */
static size_t bytes_for_cols(const char *s, int w, int *cols)
{
    size_t i = 0;
    int c = 0;
    while (s[i] && c < w) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        c++;
    }
    *cols = c;
    return i;
}

void tui_put(tui_t *t, int y, int x, int w, unsigned attr, const char *s)
{
    if (y < 0 || y >= t->rows || x >= t->cols || w <= 0)
        return;
    if (x + w > t->cols)
        w = t->cols - x;
    /* whatever a name holds, the terminal gets no control bytes */
    char safe[2048];
    s = text_escape(s, safe, sizeof safe);
    int cols;
    size_t n = bytes_for_cols(s, w, &cols);
    attron(attr);
    mvaddnstr(y, x, s, (int)n);
    attroff(attr);
}

void tui_putf(tui_t *t, int y, int x, int w, unsigned attr, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tui_put(t, y, x, w, attr, buf);
}

/* Fills a row segment with spaces in attr. */
static void fill(tui_t *t, int y, int x, int w, unsigned attr)
{
    attron(attr);
    for (int i = 0; i < w && x + i < t->cols; i++)
        mvaddch(y, x + i, ' ');
    attroff(attr);
}

const char *tui_glyph(const tui_t *t, const char *utf8, const char *ascii) { return t->utf8 ? utf8 : ascii; }

void tui_status(tui_t *t, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->status, sizeof t->status, fmt, ap);
    va_end(ap);
    t->status_error = error;
}

/* ---- theme -------------------------------------------------------------------- */

static short curses_colour(tui_t *t, short c)
{
    if (c < 0)
        return -1;
    if (c >= 8 && COLORS < 16)
        return (short)(c - 8); /* bright on 8 colours: bold is added below */
    return c;
}

static void apply_theme(tui_t *t)
{
    for (int s = 0; s < T_COUNT; s++) {
        unsigned a = 0, ta = t->theme.attr[s];
        if (ta & THEME_BOLD)
            a |= A_BOLD;
        if (ta & THEME_REVERSE)
            a |= A_REVERSE;
        if (ta & THEME_UNDERLINE)
            a |= A_UNDERLINE;
        if (ta & THEME_DIM)
            a |= A_DIM;
        if (t->color) {
            init_pair((short)(s + 1), curses_colour(t, t->theme.fg[s]), curses_colour(t, t->theme.bg[s]));
            a |= COLOR_PAIR(s + 1);
            if (t->theme.fg[s] >= 8 && COLORS < 16)
                a |= A_BOLD;
        } else {
            /* monochrome is a scheme of its own: attributes, glyphs do the rest */
            static const unsigned mono[T_COUNT] = {
                [T_HEADER] = A_REVERSE | A_BOLD, [T_STATUS] = A_REVERSE,  [T_SELECTED] = A_REVERSE | A_BOLD,
                [T_HELP] = A_NORMAL,             [T_ERROR] = A_BOLD,      [T_DIM] = A_DIM,
                [T_PEAK] = A_BOLD,               [T_BUDGET] = A_BOLD,     [T_ACCEPTED] = A_BOLD,
                [T_HELD] = A_UNDERLINE,          [T_DISCARDED] = A_DIM,   [T_REJECTED] = A_UNDERLINE,
            };
            a = mono[s];
        }
        t->attr[s] = a;
    }
}

/* ---- overlays and prompts -------------------------------------------------------- */

void tui_overlay_close(tui_t *t)
{
    for (int i = 0; i < t->n_overlay; i++)
        free(t->overlay[i]);
    free(t->overlay);
    t->overlay = NULL;
    t->n_overlay = 0;
    t->overlay_top = 0;
}

void tui_overlay(tui_t *t, const char *title, char *const *lines, int n)
{
    tui_overlay_close(t);
    t->overlay = calloc((size_t)(n ? n : 1), sizeof *t->overlay);
    if (!t->overlay)
        return;
    for (int i = 0; i < n; i++)
        t->overlay[i] = strdup(lines[i]);
    t->n_overlay = n;
    snprintf(t->overlay_title, sizeof t->overlay_title, "%s", title);
}

static void draw_overlay(tui_t *t)
{
    int w = t->cols - 4, h = t->rows - 4;
    if (w < 20 || h < 4)
        return;
    int y0 = 2, x0 = 2;
    for (int y = 0; y < h; y++)
        fill(t, y0 + y, x0, w, t->attr[T_HELP]);
    attron(t->attr[T_HELP]);
    mvhline(y0, x0, t->utf8 ? ACS_HLINE : '-', w);
    mvhline(y0 + h - 1, x0, t->utf8 ? ACS_HLINE : '-', w);
    mvvline(y0, x0, t->utf8 ? ACS_VLINE : '|', h);
    mvvline(y0, x0 + w - 1, t->utf8 ? ACS_VLINE : '|', h);
    attroff(t->attr[T_HELP]);
    tui_putf(t, y0, x0 + 2, w - 4, t->attr[T_HELP] | A_BOLD, " %s ", t->overlay_title);
    tui_putf(t, y0 + h - 1, x0 + 2, w - 4, t->attr[T_HELP], " Esc/q close  Up/Down/PgUp/PgDn scroll  %d/%d ",
             t->overlay_top + 1, t->n_overlay);
    for (int i = 0; i < h - 3 && t->overlay_top + i < t->n_overlay; i++)
        tui_put(t, y0 + 2 + i, x0 + 2, w - 4, t->attr[T_HELP], t->overlay[t->overlay_top + i]);
}

static void help_overlay(tui_t *t)
{
    int n;
    const key_entry_t *k = keymap_entries(&n);
    char **lines = calloc((size_t)n + 8, sizeof *lines);
    int m = 0;
    char buf[256];
    for (int pass = 0; pass < 2 && lines; pass++) {
        snprintf(buf, sizeof buf, pass ? "everywhere" : "%s screen", keymap_screen_name(t->screen));
        lines[m++] = strdup(buf);
        for (int i = 0; i < n; i++) {
            bool here = k[i].screens & (1u << t->screen);
            bool global = k[i].screens == KEYS_ALL;
            if (!here || global != (pass == 1))
                continue;
            /* one line per action: the first row names it, later keys join it */
            bool dup = false;
            for (int j = 0; j < i; j++)
                if (k[j].action == k[i].action && (k[j].screens & (1u << t->screen)) &&
                    (k[j].screens == KEYS_ALL) == global)
                    dup = true;
            if (dup)
                continue;
            char keys[64] = "";
            size_t w = 0;
            for (int j = i; j < n; j++) {
                if (k[j].action != k[i].action || !(k[j].screens & (1u << t->screen)) ||
                    (k[j].screens == KEYS_ALL) != global)
                    continue;
                bool seen = false; /* Enter is both '\n' and KEY_ENTER */
                for (int q = i; q < j && !seen; q++)
                    seen = k[q].action == k[i].action && strcmp(k[q].key_name, k[j].key_name) == 0;
                if (!seen)
                    w += (size_t)snprintf(keys + w, sizeof keys - w, "%s%s", w ? " " : "", k[j].key_name);
            }
            snprintf(buf, sizeof buf, "  %-16s %s", keys, k[i].help);
            lines[m++] = strdup(buf);
        }
        lines[m++] = strdup("");
    }
    if (t->mouse)
        lines[m++] = strdup("mouse: wheel scrolls, click selects (--no-mouse turns it off)");
    char title[64];
    snprintf(title, sizeof title, "Help: %s", keymap_screen_name(t->screen));
    tui_overlay(t, title, lines, m);
    for (int i = 0; i < m; i++)
        free(lines[i]);
    free(lines);
}

/* Completes the path in buf: the longest common extension of the names in
 * its folder; lists the choices in the status line when there are several. */
static void complete_path(tui_t *t, char *buf, size_t n)
{
    char dir[1024], *slash = strrchr(buf, '/');
    const char *base = buf;
    if (slash) {
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - buf + 1), buf);
        base = slash + 1;
    } else {
        snprintf(dir, sizeof dir, "./");
    }
    DIR *d = opendir(dir);
    if (!d)
        return;
    char common[256] = "";
    int matches = 0;
    char shown[400] = "";
    size_t sw = 0;
    struct dirent *e;
    size_t bl = strlen(base);
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, base, bl) != 0 || (e->d_name[0] == '.' && base[0] != '.'))
            continue;
        if (matches++ == 0)
            snprintf(common, sizeof common, "%s", e->d_name);
        else
            for (size_t i = 0; common[i]; i++)
                if (common[i] != e->d_name[i]) {
                    common[i] = 0;
                    break;
                }
        if (sw < sizeof shown - 40)
            sw += (size_t)snprintf(shown + sw, sizeof shown - sw, "%s ", e->d_name);
    }
    closedir(d);
    if (!matches)
        return;
    size_t keep = (size_t)(base - buf);
    snprintf(buf + keep, n - keep, "%s", common);
    if (matches == 1) {
        char full[1400];
        snprintf(full, sizeof full, "%s%s", slash ? dir : "", common);
        DIR *isdir = opendir(full);
        if (isdir) {
            closedir(isdir);
            size_t l = strlen(buf);
            if (l + 1 < n) {
                buf[l] = '/';
                buf[l + 1] = 0;
            }
        }
    } else {
        tui_status(t, false, "%s", shown);
    }
}

bool tui_prompt(tui_t *t, const char *label, char *buf, size_t n, bool complete_paths)
{
    curs_set(1);
    size_t len = strlen(buf);
    for (;;) {
        int y = t->rows - 2;
        fill(t, y, 0, t->cols, t->attr[T_NORMAL]);
        tui_put(t, y, 0, t->cols, t->attr[T_NORMAL] | A_BOLD, label);
        int lx = (int)strlen(label);
        const char *shown = buf;
        int room = t->cols - lx - 1;
        if ((int)len > room)
            shown = buf + len - (size_t)room;
        tui_put(t, y, lx, room, t->attr[T_NORMAL], shown);
        if (t->status[0]) {
            fill(t, t->rows - 1, 0, t->cols, t->attr[T_STATUS]);
            tui_put(t, t->rows - 1, 0, t->cols, t->attr[T_STATUS], t->status);
        }
        move(y, lx + (int)strlen(shown));
        refresh();
        int ch = getch();
        if (ch == 27 || ch == 3 || ch == 7) {
            curs_set(0);
            t->status[0] = 0;
            return false;
        }
        if (ch == '\n' || ch == KEY_ENTER || ch == '\r') {
            curs_set(0);
            t->status[0] = 0;
            return true;
        }
        if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
            while (len > 0 && ((unsigned char)buf[len - 1] & 0xC0) == 0x80)
                len--;
            buf[--len] = 0;
        } else if (ch == 21) { /* ^U */
            len = 0;
            buf[0] = 0;
        } else if (ch == '\t' && complete_paths) {
            complete_path(t, buf, n);
            len = strlen(buf);
        } else if (ch == KEY_RESIZE) {
            getmaxyx(stdscr, t->rows, t->cols);
        } else if (ch >= 0x20 && ch < 0x100 && ch != 0x7f && len + 1 < n) {
            buf[len++] = (char)ch;
            buf[len] = 0;
        }
    }
}

bool tui_confirm(tui_t *t, const char *question)
{
    int y = t->rows - 2;
    fill(t, y, 0, t->cols, t->attr[T_ERROR]);
    tui_putf(t, y, 0, t->cols, t->attr[T_ERROR], "%s (y/n)", question);
    refresh();
    int ch = getch();
    return ch == 'y' || ch == 'Y';
}

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

static void close_routine(tui_t *t)
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
    close_routine(t);
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
            fill(t, y, 0, t->cols, t->attr[T_NORMAL]);
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

/* ---- the arena -------------------------------------------------------------------- */

static const char *role_glyph(const tui_t *t, uint8_t role)
{
    static const char *u[ROLE_COUNT] = { "▒", "▞", "▓", "█", "╳" };
    static const char *a[ROLE_COUNT] = { ":", "&", "@", "#", "x" };
    return t->utf8 ? u[role] : a[role];
}

/* A filled area in braille: two samples a cell, four levels a row. */
static void draw_braille(tui_t *t, int y, int x, int h, int w, const int64_t *half, int64_t top)
{
    static const unsigned left[4] = { 0x40, 0x04, 0x02, 0x01 }, right[4] = { 0x80, 0x20, 0x10, 0x08 };
    for (int c = 0; c < w; c++) {
        int64_t lv[2];
        for (int k = 0; k < 2; k++)
            lv[k] = top > 0 ? (int64_t)((__int128)half[2 * c + k] * h * 4 / top) : 0;
        for (int r = 0; r < h; r++) {
            unsigned bits = 0;
            for (int k = 0; k < 2; k++) {
                int64_t dots = lv[k] - (int64_t)(h - 1 - r) * 4;
                for (int d = 0; d < 4 && d < dots; d++)
                    bits |= k ? right[d] : left[d];
            }
            if (!bits)
                continue;
            char g[4] = { (char)0xE2, (char)(0xA0 + (bits >> 6)), (char)(0x80 + (bits & 0x3F)), 0 };
            tui_put(t, y + r, x + c, 1, t->attr[T_CURVE], g);
        }
    }
}

/* A filled curve column of height frac (0..1) over h rows, bottom up. */
static void draw_curve(tui_t *t, int y, int x, int h, int w, const int64_t *cols, int64_t top)
{
    static const char *blocks[9] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
    for (int c = 0; c < w; c++) {
        int64_t eighths = top > 0 ? (int64_t)((__int128)cols[c] * h * 8 / top) : 0;
        for (int r = 0; r < h; r++) {
            int64_t level = eighths - (int64_t)(h - 1 - r) * 8; /* this row's share, 0..8 */
            if (level <= 0)
                continue;
            if (level > 8)
                level = 8;
            const char *g = t->utf8 ? blocks[level] : (level >= 6 ? "#" : level >= 3 ? ":" : ".");
            tui_put(t, y + r, x + c, 1, t->attr[T_CURVE], g);
        }
    }
}

void tui_draw_arena(tui_t *t, const arena_view_t *a, int y, int x, int h, int w, int selected, bool curve)
{
    if (h < 6 || w < 20 || !a->bufs)
        return;
    int axis_w = 6;
    int curve_h = curve ? (h >= 18 ? 4 : 2) : 0;
    int grid_h = h - 2 - (curve ? curve_h + 1 : 0);
    int grid_w = w - axis_w;
    int64_t s0 = t->view_step0, s1 = t->view_step1;
    if (s1 <= s0) {
        s0 = 0;
        s1 = a->steps;
    }
    int64_t top = a->fp.total > 0 ? a->fp.total : 1;
    if (t->budget > top)
        top = t->budget + t->budget / 16 + 1;
    view_grid_t g;
    if (grid_h < 1 || view_grid_build(a->bufs, a->n, s0, s1, 0, top, grid_w, grid_h, &g))
        return;
    /* top axis: the steps shown and the peak marker */
    int64_t cs0, cs1;
    view_col_steps(&g, 0, &cs0, &cs1);
    char scale[64];
    units_format_bytes((top + grid_h - 1) / grid_h, scale, sizeof scale);
    tui_putf(t, y, x, w, t->attr[T_DIM], "steps %lld-%lld  (col = %lld step%s, row = %s)", (long long)s0,
             (long long)s1 - 1, (long long)(cs1 - cs0), cs1 - cs0 == 1 ? "" : "s", scale);
    int pc = view_step_col(&g, a->fp.peak_step);
    if (pc >= 0) {
        /* the marker over the peak column, its label beside it where it fits */
        char lbl[48];
        int mx = x + axis_w + pc;
        int len = snprintf(lbl, sizeof lbl, "peak @ step %d", (int)a->fp.peak_step);
        int lx = mx + 2 + len <= x + w ? mx + 2 : mx - 1 - len;
        if (lx >= x)
            tui_put(t, y, lx, len, t->attr[T_PEAK], lbl);
        tui_put(t, y, mx, 1, t->attr[T_PEAK], tui_glyph(t, "▼", "v"));
    }
    /* the grid, with the offset axis on the left */
    int budget_row = t->budget >= 0 ? view_offset_row(&g, t->budget) : -1;
    const view_buf_t *sel = selected >= 0 && selected < a->n ? &a->bufs[selected] : NULL;
    for (int r = 0; r < grid_h; r++) {
        int64_t oa = (int64_t)((__int128)top * (grid_h - 1 - r) / grid_h);
        if (r % 4 == 0 || r == grid_h - 1) {
            char lbl[16];
            view_axis_bytes(r == grid_h - 1 ? 0 : oa, lbl, sizeof lbl);
            tui_putf(t, y + 1 + r, x, axis_w - 1, t->attr[T_DIM], "%5s", lbl);
        }
        tui_put(t, y + 1 + r, x + axis_w - 1, 1, t->attr[T_DIM], tui_glyph(t, "│", "|"));
        for (int c = 0; c < grid_w; c++) {
            int32_t b = g.cell[(size_t)r * (size_t)grid_w + (size_t)c];
            if (r == budget_row && b < 0) {
                tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_BUDGET], tui_glyph(t, "─", "-"));
                continue;
            }
            if (b < 0) {
                if (c == pc)
                    tui_put(t, y + 1 + r, x + axis_w + c, 1, t->attr[T_PEAK] | A_DIM, tui_glyph(t, "┊", ":"));
                continue;
            }
            unsigned attr = (sel && &a->bufs[b] == sel) ? t->attr[T_SELECTED] : t->attr[role_attr_slot(a->bufs[b].role)];
            if (r == budget_row)
                attr = t->attr[T_BUDGET];
            tui_put(t, y + 1 + r, x + axis_w + c, 1, attr, role_glyph(t, a->bufs[b].role));
        }
    }
    if (budget_row >= 0) {
        char lbl[48], bb[32];
        units_format_bytes(t->budget, bb, sizeof bb);
        snprintf(lbl, sizeof lbl, " budget %s ", bb);
        tui_put(t, y + 1 + budget_row, x + w - (int)strlen(lbl), (int)strlen(lbl), t->attr[T_BUDGET], lbl);
    }
    /* the bottom axis */
    int ay = y + 1 + grid_h;
    for (int c = 0; c < grid_w; c += 12) {
        int64_t sa, sb;
        view_col_steps(&g, c, &sa, &sb);
        tui_putf(t, ay, x + axis_w + c, 11, t->attr[T_DIM], "%s%lld", tui_glyph(t, "╵", "'"), (long long)sa);
    }
    /* the live-bytes curve with the two marks labelled */
    if (curve) {
        view_grid_t g2; /* twice the columns, for braille's two samples a cell */
        if (t->braille && t->utf8 && view_grid_build(NULL, 0, s0, s1, 0, top, 2 * grid_w, 1, &g2) == RS_OK) {
            int64_t *half = view_live_columns(&g2, a->live, a->steps);
            if (half)
                draw_braille(t, ay + 1, x + axis_w, curve_h, grid_w, half, top);
            free(half);
            view_grid_free(&g2);
        } else {
            int64_t *cols = view_live_columns(&g, a->live, a->steps);
            if (cols) {
                draw_curve(t, ay + 1, x + axis_w, curve_h, grid_w, cols, top);
                free(cols);
            }
        }
        char lp[32], tt[32];
        units_format_bytes(a->fp.live_peak, lp, sizeof lp);
        units_format_bytes(a->fp.total, tt, sizeof tt);
        tui_putf(t, ay + 1 + curve_h, x, w, t->attr[T_DIM], "live bytes: max live %s (lower bound) %s arena %s (%+.2f%%)",
                 lp, tui_glyph(t, "│", "|"), tt,
                 a->fp.live_peak ? 100.0 * (double)(a->fp.total - a->fp.live_peak) / (double)a->fp.live_peak : 0.0);
    }
    view_grid_free(&g);
}

/* ---- the loop ------------------------------------------------------------------------ */

static void draw_header(tui_t *t)
{
    fill(t, 0, 0, t->cols, t->attr[T_HEADER]);
    int x = 1;
    tui_put(t, 0, x, 11, t->attr[T_HEADER] | A_BOLD, "rematscope");
    x += 12;
    for (int s = 0; s < SCR_COUNT; s++) {
        char lbl[32];
        snprintf(lbl, sizeof lbl, " %d %s ", s + 1, keymap_screen_name((screen_id_t)s));
        unsigned a = s == (int)t->screen ? t->attr[T_SELECTED] : t->attr[T_HEADER];
        tui_put(t, 0, x, (int)strlen(lbl), a, lbl);
        x += (int)strlen(lbl) + 1;
    }
}

static void draw_status(tui_t *t)
{
    int y = t->rows - 1;
    fill(t, y, 0, t->cols, t->attr[T_STATUS]);
    char bud[64] = "none";
    if (t->plan)
        snprintf(bud, sizeof bud, "%s", t->budget_text);
    else if (t->budget >= 0)
        units_format_bytes(t->budget, bud, sizeof bud);
    int64_t reused = 0, lowered = 0;
    if (t->plan) {
        reused = t->plan->reused;
        lowered = t->plan->lowered;
    }
    tui_putf(t, y, 0, t->cols, t->attr[T_STATUS], " routine %s %s profile %s %s budget %s %s reuse %lld/%lld %s ? help",
             t->open ? t->open_name : "-", tui_glyph(t, "│", "|"),
             t->profile >= 0 ? t->profiles[t->profile].name : "none", tui_glyph(t, "│", "|"), bud,
             tui_glyph(t, "│", "|"), (long long)reused, (long long)lowered, tui_glyph(t, "│", "|"));
    if (t->status[0]) {
        fill(t, y - 1, 0, t->cols, t->status_error ? t->attr[T_ERROR] : t->attr[T_NORMAL]);
        tui_put(t, y - 1, 0, t->cols, t->status_error ? t->attr[T_ERROR] : t->attr[T_NORMAL], t->status);
    }
}

static void draw(tui_t *t)
{
    erase();
    if (t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS) {
        char msg[80];
        snprintf(msg, sizeof msg, "terminal too small: %dx%d", t->cols, t->rows);
        char need[80];
        snprintf(need, sizeof need, "needs %dx%d", TUI_MIN_COLS, TUI_MIN_ROWS);
        tui_put(t, t->rows / 2 - 1, 0, t->cols, A_BOLD, msg);
        tui_put(t, t->rows / 2, 0, t->cols, A_NORMAL, need);
        refresh();
        return;
    }
    draw_header(t);
    switch (t->screen) {
    case SCR_SESSION: screen_session_draw(t); break;
    case SCR_ARENA: screen_arena_draw(t); break;
    case SCR_FIT: screen_fit_draw(t); break;
    case SCR_COMPARE: screen_compare_draw(t); break;
    case SCR_PLANS: screen_plans_draw(t); break;
    default: break;
    }
    draw_status(t);
    if (t->n_overlay)
        draw_overlay(t);
    refresh();
}

static int overlay_key(tui_t *t, action_t a)
{
    int page = t->rows - 8 > 1 ? t->rows - 8 : 1;
    switch (a) {
    case ACT_BACK:
    case ACT_HELP:
    case ACT_QUIT:
        tui_overlay_close(t);
        break;
    case ACT_UP: t->overlay_top -= t->overlay_top > 0; break;
    case ACT_DOWN: t->overlay_top += t->overlay_top + 1 < t->n_overlay; break;
    case ACT_PGUP: t->overlay_top = t->overlay_top > page ? t->overlay_top - page : 0; break;
    case ACT_PGDN: t->overlay_top = t->overlay_top + page < t->n_overlay ? t->overlay_top + page : t->overlay_top; break;
    case ACT_TOP: t->overlay_top = 0; break;
    case ACT_BOTTOM: t->overlay_top = t->n_overlay > page ? t->n_overlay - page : 0; break;
    default: break;
    }
    return KEY_REDRAW;
}

static int screen_key(tui_t *t, action_t a, int key)
{
    switch (t->screen) {
    case SCR_SESSION: return screen_session_key(t, a, key);
    case SCR_ARENA: return screen_arena_key(t, a, key);
    case SCR_FIT: return screen_fit_key(t, a, key);
    case SCR_COMPARE: return screen_compare_key(t, a, key);
    case SCR_PLANS: return screen_plans_key(t, a, key);
    default: return KEY_UNHANDLED;
    }
}

static void handle_mouse(tui_t *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    if (ev.bstate & BUTTON4_PRESSED) {
        for (int i = 0; i < 3; i++)
            t->n_overlay ? overlay_key(t, ACT_UP) : screen_key(t, ACT_UP, KEY_UP);
        return;
    }
#ifdef BUTTON5_PRESSED
    if (ev.bstate & BUTTON5_PRESSED) {
        for (int i = 0; i < 3; i++)
            t->n_overlay ? overlay_key(t, ACT_DOWN) : screen_key(t, ACT_DOWN, KEY_DOWN);
        return;
    }
#endif
    if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) || t->n_overlay)
        return;
    if (ev.y == 0) { /* the screen tabs */
        int x = 13;
        for (int s = 0; s < SCR_COUNT; s++) {
            int w = (int)strlen(keymap_screen_name((screen_id_t)s)) + 4;
            if (ev.x >= x && ev.x < x + w)
                t->screen = (screen_id_t)s;
            x += w + 1;
        }
        return;
    }
    switch (t->screen) {
    case SCR_SESSION: screen_session_click(t, ev.y, ev.x); break;
    case SCR_ARENA: screen_arena_click(t, ev.y, ev.x); break;
    case SCR_FIT: screen_fit_click(t, ev.y, ev.x); break;
    case SCR_PLANS: screen_plans_click(t, ev.y, ev.x); break;
    default: break;
    }
}

static void go(tui_t *t, screen_id_t s)
{
    if ((s == SCR_ARENA || s == SCR_FIT || s == SCR_COMPARE) && !t->open) {
        tui_status(t, true, "open a routine first: select one and press Enter");
        t->screen = SCR_SESSION;
        return;
    }
    t->screen = s;
    if (s == SCR_PLANS)
        tui_reload(t);
}

static void loop(tui_t *t)
{
    while (!t->quit) {
        getmaxyx(stdscr, t->rows, t->cols);
        draw(t);
        int ch = getch();
        if (ch == ERR)
            continue;
        if (ch == KEY_RESIZE) {
            getmaxyx(stdscr, t->rows, t->cols);
            clear();
            continue;
        }
        if (ch == KEY_MOUSE) {
            handle_mouse(t);
            continue;
        }
        if (getenv("RS_TEST_CRASH") && ch == 'Z')
            raise(SIGSEGV); /* the terminal-safety tests' trigger */
        if (getenv("RS_TEST_CRASH") && ch == 'Y')
            abort(); /* as a failed assertion does */
        if (t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS) {
            if (ch == 'q' || ch == 'Q')
                t->quit = true;
            continue;
        }
        action_t a = keymap_lookup(t->screen, ch);
        if (t->n_overlay) {
            overlay_key(t, a);
            continue;
        }
        if (ch == 3) /* ^C outside a fit: nothing to cancel */
            continue;
        int r = screen_key(t, a, ch);
        if (!(r & KEY_UNHANDLED))
            continue;
        switch (a) {
        case ACT_HELP: help_overlay(t); break;
        case ACT_QUIT: t->quit = true; break;
        case ACT_BACK:
            if (t->screen == SCR_SESSION)
                t->quit = true;
            else
                t->screen = t->screen == SCR_FIT && t->open ? SCR_ARENA : SCR_SESSION;
            break;
        case ACT_GO_SESSION: go(t, SCR_SESSION); break;
        case ACT_GO_ARENA: go(t, SCR_ARENA); break;
        case ACT_GO_FIT: go(t, SCR_FIT); break;
        case ACT_GO_COMPARE: go(t, SCR_COMPARE); break;
        case ACT_GO_PLANS: go(t, SCR_PLANS); break;
        case ACT_REDRAW: clear(); break;
        case ACT_CURVE_STYLE:
            t->braille = !t->braille && t->utf8;
            tui_status(t, false, "curve: %s", t->braille ? "braille" : "blocks");
            break;
        default: break;
        }
    }
}

int tui_run(const cli_t *c)
{
    rs_error_t err;
    error_clear(&err);
    tui_t *t = calloc(1, sizeof *t);
    if (!t)
        return 1;
    t->cli = c;
    t->profile = -1;
    t->budget = -1;
    t->ev_accepted = -1;
    t->fit_cap = -1;
    const char *themes = getenv("RS_THEMES");
    if (theme_load(c->theme ? c->theme : "default", themes && *themes ? themes : RS_THEMES_DIR, &t->theme, &err)) {
        free(t);
        return cli_fail(&err);
    }
    if (store_open(c->db, &t->store, &err)) {
        free(t);
        return cli_fail(&err);
    }
    if (c->n_pos && import_paths(c, t->store, c->pos, c->n_pos, NULL, &err)) {
        store_close(t->store);
        free(t);
        return cli_fail(&err);
    }
    if (!isatty(0) || !isatty(1)) {
        error_set(&err, RS_EINPUT, NULL, 0, 0, "the TUI needs a terminal (use a subcommand from scripts)");
        store_close(t->store);
        free(t);
        return cli_fail(&err);
    }
    const char *cs = nl_langinfo(CODESET);
    t->utf8 = cs && strcmp(cs, "UTF-8") == 0;
    /* braille where the terminal can draw it: UTF-8, and not the Linux
     * console, whose fonts lack the dots */
    const char *term = getenv("TERM");
    t->braille = t->utf8 && !(term && strcmp(term, "linux") == 0);
    install_handlers();
    initscr();
    curses_on = 1;
    raw(); /* ^C is a key (it cancels a fit), not a signal that kills the app */
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    const char *no_color = getenv("NO_COLOR");
    t->color = has_colors() && !(no_color && *no_color);
    if (t->color) {
        start_color();
        use_default_colors();
    }
    apply_theme(t);
    bkgd(t->attr[T_NORMAL]);
    t->mouse = !c->no_mouse;
    if (t->mouse)
        mousemask(ALL_MOUSE_EVENTS, NULL);
    tui_reload(t);
    if (t->n_routines == 0)
        tui_status(t, false, "no routines yet: press i to import a file (samples/ has some), ? for help");
    else
        tui_status(t, false, "%d routines, %d profiles: Enter opens a routine, Tab switches to profiles, ? help",
                   t->n_routines, t->n_profiles);
    loop(t);
    endwin();
    curses_on = 0;
    close_routine(t);
    tui_overlay_close(t);
    library_routine_rows_free(t->routines, t->n_routines);
    free(t->routine_total);
    free(t->profiles);
    plans_list_free(t->plans, t->n_plans);
    free(t->marked);
    free(t->order);
    store_close(t->store);
    free(t);
    return 0;
}
