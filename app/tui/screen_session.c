/* The Session screen: routines and profiles in the store; open a routine,
 * pick the profile, edit bindings, import a file. */
#include "tui/screen_session.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "model/hlo.h"
#include "model/units.h"
#include "text.h"
#include "util/path.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_model.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"

#define LIST_Y 3

/* Baseline footprint of the stored routine id under its own bindings, and
 * its buffers; -2 when it does not score.  Reads the store: on a wait's
 * worker (a 13.5k-instruction dump takes 0.2 s). */
static int64_t baseline_of(store_t *store, int64_t id, int32_t *buffers)
{
    char *src = NULL, *name = NULL;
    size_t len;
    routine_t *r = NULL;
    bindings_t b = { 0 };
    lowering_t *l = NULL;
    footprint_t fp;
    rs_error_t err;
    int64_t total = -2;
    if (!library_routine_source(store, id, &src, &len, &name, &err) && !hlo_read_any(name, src, len, &r, &err) &&
        !routine_bindings(r, NULL, 0, &b, &err) && !lower_routine(r, &b, &l, &err)) {
        score_config_t cfg;
        score_config_default(&cfg);
        if (!score_lowering(l, NULL, &cfg, &fp, NULL, &err)) {
            total = fp.total;
            *buffers = fp.buffers;
        }
    }
    lower_free(l);
    bindings_free(&b);
    routine_free(r);
    free(src);
    free(name);
    return total;
}

/* The baselines of the rows shown, made on a worker into its own arrays
 * (the screen under the bar draws "..." for them meanwhile). */
typedef struct baseline_work {
    store_t *store;
    const routine_row_t *rows;
    const int *which;
    int n, done;
    int64_t *total;
    int32_t *buffers;
} baseline_work_t;

static int baseline_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    (void)err;
    baseline_work_t *w = ud;
    for (; w->done < w->n; w->done++) {
        if (tui_job_progress(job, w->done, w->n))
            return error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
        const routine_row_t *row = &w->rows[w->which[w->done]];
        tui_job_doing(job, "%s", row->name);
        w->total[w->done] = baseline_of(w->store, row->id, &w->buffers[w->done]);
    }
    return RS_OK;
}

static int list_rows(const tui_t *t);

void screen_session_prepare(tui_t *t)
{
    if (!t->routine_total || t->waiting)
        return;
    int rows = list_rows(t), n = 0;
    int *which = malloc(((size_t)(rows > 0 ? rows : 0) + 1) * sizeof *which);
    for (int k = 0; which && k < rows && t->top_routine + k < t->n_routines; k++)
        if (t->routine_total[t->top_routine + k] == ROUTINE_TOTAL_UNKNOWN)
            which[n++] = t->top_routine + k;
    int64_t *total = n ? malloc((size_t)n * sizeof *total) : NULL;
    int32_t *buffers = n ? calloc((size_t)n, sizeof *buffers) : NULL;
    if (n && total && buffers) {
        baseline_work_t w = { .store = t->store, .rows = t->routines, .which = which, .n = n, .total = total,
                              .buffers = buffers };
        char what[48];
        snprintf(what, sizeof what, "the baseline of %d routine%s", n, n == 1 ? "" : "s");
        rs_error_t err;
        int rc = tui_wait(t, what, baseline_work, &w, &err);
        for (int k = 0; k < n; k++) { /* those a stop left go unscored until the list is read again */
            t->routine_total[which[k]] = k < w.done ? total[k] : ROUTINE_TOTAL_STOPPED;
            if (k < w.done && t->routine_buffers)
                t->routine_buffers[which[k]] = buffers[k];
        }
        if (rc == RS_ECANCELED)
            tui_status(t, false, "baselines stopped: %d of %d scored", w.done, n);
    }
    free(which);
    free(total);
    free(buffers);
}

enum { OPEN_FIELDS = 9 };

/* The open routine's footprint as fields for tui_put_fields. */
static int open_fields(const tui_t *t, char f[OPEN_FIELDS][200], const char *fields[OPEN_FIELDS])
{
    char tot[32], lp[32], fl[32];
    units_format_bytes(t->arena.fp.total, tot, sizeof tot);
    units_format_bytes(t->arena.fp.live_peak, lp, sizeof lp);
    units_format_flops(t->arena.fp.compute, fl, sizeof fl);
    int n = 0;
    snprintf(f[n++], sizeof f[0], "open: %s", t->open_name);
    snprintf(f[n++], sizeof f[0], "arena %s (%lld B)", tot, (long long)t->arena.fp.total);
    if (t->tgt.xla_bytes >= 0) { /* XLA's own figure beside the dump (§10) */
        char xb[32];
        units_format_bytes(t->tgt.xla_bytes, xb, sizeof xb);
        snprintf(f[n++], sizeof f[0], "XLA's allocation %s (%lld B)", xb, (long long)t->tgt.xla_bytes);
    }
    snprintf(f[n++], sizeof f[0], "max live %s", lp);
    snprintf(f[n++], sizeof f[0], "%s", text_count(t->arena.fp.buffers, "buffer", NULL));
    snprintf(f[n++], sizeof f[0], "peak @ step %d", (int)t->arena.fp.peak_step);
    snprintf(f[n++], sizeof f[0], "compute %s", fl);
    snprintf(f[n++], sizeof f[0], "alignment %lld", (long long)t->tgt.cfg.alignment);
    snprintf(f[n++], sizeof f[0], "inline depth %d", (int)t->tgt.cfg.max_inline_depth); /* the profile: the status bar's */
    for (int k = 0; k < n; k++)
        fields[k] = f[k];
    return n;
}

/* Rows under the lists for the open routine's footprint (tui_detail_rows). */
static int detail_rows(const tui_t *t)
{
    if (!t->open)
        return 2;
    char f[OPEN_FIELDS][200];
    const char *fields[OPEN_FIELDS];
    return tui_detail_rows(fields, open_fields(t, f, fields), t->cols - 2, 2, "  ");
}

static int list_rows(const tui_t *t) { return t->rows - LIST_Y - 6 - detail_rows(t); }

/* The last part of a path ("bert.hlo" of "/dumps/bert.hlo"; a folder's
 * "dumps/" stays whole). */
static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

/* Where routine i came from in as few of its path's last parts as tell it
 * from every other routine's file ("llama_scan/after.hlo" beside
 * "cnn/after.hlo", where "after.hlo" named both: issue 43); "" when not
 * recorded.  Versions of one file share it. */
static const char *file_label(const tui_t *t, int i)
{
    const char *path = t->routines[i].path;
    for (int parts = 1; parts < 64; parts++) {
        const char *tail = path_tail(path, parts);
        bool clash = false;
        for (int j = 0; j < t->n_routines && !clash && tail != path; j++)
            clash = strcmp(t->routines[j].path, path) != 0 && strcmp(path_tail(t->routines[j].path, parts), tail) == 0;
        if (!clash || tail == path)
            return tail;
    }
    return path;
}

static void clamp(int *sel, int *top, int n, int rows)
{
    if (*sel >= n)
        *sel = n - 1;
    if (*sel < 0)
        *sel = 0;
    if (*sel < *top)
        *top = *sel;
    if (rows > 0 && *sel >= *top + rows)
        *top = *sel - rows + 1;
    if (*top < 0)
        *top = 0;
}

/* A name's columns as drawn (escaped). */
static int name_cols(const char *name)
{
    char e[160];
    return tui_cols(text_escape(name, e, sizeof e));
}

/* Where the routines pane ends: three fifths of the row, moved so that a
 * pane whose names would be cut takes the columns the other leaves free
 * ("jetson-orin-nano-8…" was cut beside short routine names). */
static int routines_width(const tui_t *t)
{
    int lw = t->cols * 3 / 5;
    int nr = 8, np = 8; /* the name columns' least */
    for (int i = 0; i < t->n_routines && nr < 23; i++)
        nr = nr > name_cols(t->routines[i].name) ? nr : name_cols(t->routines[i].name);
    for (int i = 0; i < t->n_profiles && np < 21; i++)
        np = np > name_cols(t->profiles[i].name) ? np : name_cols(t->profiles[i].name);
    int want_r = 28 + (nr < 23 ? nr : 23), want_p = 12 + (np < 21 ? np : 21);
    int rw = t->cols - lw - 1;
    if (rw < want_p && lw > want_r)
        lw -= want_p - rw < lw - want_r ? want_p - rw : lw - want_r;
    else if (lw < want_r && rw > want_p)
        lw += want_r - lw < rw - want_p ? want_r - lw : rw - want_p;
    return lw;
}

void screen_session_draw(tui_t *t)
{
    int lw = routines_width(t), rw = t->cols - lw - 1;
    int rows = list_rows(t);
    bool on_r = t->session_pane == 0;
    tui_putf(t, 2, 1, lw - 1, (on_r ? t->attr[T_SELECTED] : t->attr[T_NORMAL]) | A_BOLD,
             " Routines (%d) ", t->n_routines);
    /* names give way first, so the numbers are never cut; from 120
     * columns the file each came from has a column (two SyncTensorsGraph
     * modules tell apart by it), narrower the row under the list says it */
    int nw = lw - 1 - 1 - 26;
    nw = nw < 8 ? 8 : nw > 23 ? 23 : nw;
    int fw = lw - 2 - 26 - nw - 2;
    fw = fw < 12 ? 0 : fw > 40 ? 40 : fw;
    tui_putf(t, LIST_Y, 1, lw - 1, t->attr[T_DIM], "%-*s %6s %7s %10s%s%s", nw + 1, "name", "steps", "buffers",
             "baseline", fw ? "  " : "", fw ? "file" : "");
    clamp(&t->sel_routine, &t->top_routine, t->n_routines, rows);
    for (int k = 0; k < rows && t->top_routine + k < t->n_routines; k++) {
        int i = t->top_routine + k;
        int64_t tot = t->routine_total ? t->routine_total[i] : ROUTINE_TOTAL_ERROR;
        char b[32], nb[16];
        if (tot >= 0)
            units_format_bytes(tot, b, sizeof b);
        else
            snprintf(b, sizeof b, "%s", tot == ROUTINE_TOTAL_ERROR ? "error" : tot == ROUTINE_TOTAL_STOPPED ? "-" : "...");
        if (tot >= 0 && t->routine_buffers)
            snprintf(nb, sizeof nb, "%d", (int)t->routine_buffers[i]);
        else
            snprintf(nb, sizeof nb, "%s", b[0] == 'e' || b[0] == '-' ? "-" : "...");
        unsigned a = (i == t->sel_routine && on_r) ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        bool is_open = t->open && strcmp(t->open_name, t->routines[i].name) == 0;
        char clip[160], file[600];
        tui_putf(t, LIST_Y + 1 + k, 1, lw - 1, a, "%s%s %6d %7s %10s%*s", is_open ? "*" : " ",
                 tui_clip_name(t, text_shown(t->routines[i].name), nw, clip, sizeof clip), (int)t->routines[i].steps, nb, b,
                 fw ? fw + 2 : 0, "");
        if (fw) /* cut on the left: the file's own name and the folder that tells it apart stay */
            tui_put_left_cut(t, LIST_Y + 1 + k, nw + 30, fw, a, text_escape(file_label(t, i), file, sizeof file));
    }
    if (!t->n_routines)
        tui_put(t, LIST_Y + 1, 2, lw - 2, t->attr[T_DIM], "(none: press i to import samples/ or a file)");
    /* profiles: "none" first */
    int x = lw + 1;
    if (t->n_profiles > t->n_stored_profiles)
        tui_putf(t, 2, x, rw, (!on_r ? t->attr[T_SELECTED] : t->attr[T_NORMAL]) | A_BOLD,
                 " Profiles (%d stored, %d bundled) ", t->n_stored_profiles, t->n_profiles - t->n_stored_profiles);
    else
        tui_putf(t, 2, x, rw, (!on_r ? t->attr[T_SELECTED] : t->attr[T_NORMAL]) | A_BOLD, " Profiles (%d) ",
                 t->n_profiles);
    bool align = rw >= 40; /* narrow: the alignment column goes, the name shrinks */
    int pw = rw - 1 - 10 - (align ? 7 : 0); /* a size is 8 columns at most ("1.00 TiB") */
    pw = pw < 8 ? 8 : pw > 21 ? 21 : pw;
    tui_putf(t, LIST_Y, x, rw, t->attr[T_DIM], "%-*s %9s %6s", pw + 1, "name", "memory", align ? "align" : "");
    clamp(&t->sel_profile, &t->top_profile, t->n_profiles + 1, rows);
    for (int k = 0; k < rows && t->top_profile + k <= t->n_profiles; k++) {
        int i = t->top_profile + k; /* 0 is "none" */
        unsigned a = (i == t->sel_profile && !on_r) ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        bool active = (i == 0 && t->profile < 0) || (i > 0 && t->profile == i - 1);
        if (i == 0) {
            tui_putf(t, LIST_Y + 1 + k, x, rw, a, "%s%-*s %9s %6s", active ? "*" : " ", pw, "(none)", "-",
                     align ? "1" : "");
            continue;
        }
        const profile_t *p = &t->profiles[i - 1];
        char m[32], name[160], clip[200];
        units_format_bytes(p->memory_bytes, m, sizeof m);
        char al[24] = "";
        if (align)
            snprintf(al, sizeof al, "%lld", (long long)p->alignment);
        tui_putf(t, LIST_Y + 1 + k, x, rw, a, "%s%s %9s %6s", active ? "*" : " ",
                 tui_clip(t, text_escape(p->name, name, sizeof name), pw, clip, sizeof clip), m, al);
    }
    /* the highlighted routine: its bindings and its file; then the open
     * one's footprint, wrapped between fields so no number is cut */
    int details = detail_rows(t), y = t->rows - 5 - details;
    tui_hline(t, y, 1, 64, t->attr[T_DIM]);
    if (t->n_routines) {
        const routine_row_t *r = &t->routines[t->sel_routine];
        const char *b = tui_binds_of(t, r->name);
        char f[3][600], path[512], date[32], v[4][700];
        snprintf(f[0], sizeof f[0], "bindings of %s: %s   (b edits, e.g. B=512; r renames)", r->name,
                 b[0] ? b : "(the routine's own)");
        snprintf(f[1], sizeof f[1], "bindings of %s: %s   (b edits)", r->name, b[0] ? b : "(the routine's own)");
        snprintf(f[2], sizeof f[2], "bindings of %s: %s", r->name, b[0] ? b : "(the routine's own)");
        tui_put_fit(t, y + 1, 1, t->cols - 2, t->attr[T_NORMAL], (const char *const[]){ f[0], f[1], f[2] }, 3);
        text_escape(r->path[0] ? r->path : "(not recorded)", path, sizeof path);
        snprintf(date, sizeof date, "%.10s", r->imported_at);
        snprintf(v[0], sizeof v[0], "from %s (version %d, %s, imported %s)", path, (int)r->version, r->kind, date);
        snprintf(v[1], sizeof v[1], "from %s (version %d, %s)", path, (int)r->version, r->kind);
        char label[512];
        text_escape(file_label(t, t->sel_routine), label, sizeof label);
        snprintf(v[2], sizeof v[2], "from %s (v%d)", label, (int)r->version);
        snprintf(v[3], sizeof v[3], "from %s", label);
        tui_put_fit(t, y + 2, 1, t->cols - 2, t->attr[T_DIM], (const char *const[]){ v[0], v[1], v[2], v[3] }, 4);
    }
    if (t->open) {
        char f[OPEN_FIELDS][200];
        const char *fields[OPEN_FIELDS];
        int n = open_fields(t, f, fields);
        tui_put_fields(t, y + 3, 1, t->cols - 2, details, 2, t->attr[T_NORMAL] | A_BOLD, fields, n, "  ");
    } else {
        tui_put(t, y + 3, 1, t->cols - 2, t->attr[T_DIM], "no routine open: Enter opens the selected one");
    }
}

static const char *routine_name(const tui_t *t, int i) { return t->routines[i].name; }

/* An import on a worker (import.h: every file read and checked, then all
 * written in one transaction): it cannot be stopped part-way, and the bar
 * says what is being read or written. */
typedef struct import_work {
    const cmdline_t *c;
    store_t *store;
    const char *path;
    char *report;             /* what each file added, a line each */
    size_t len;
    tui_job_t *job;
} import_work_t;

static void import_said(void *job, const char *doing, const char *path, int done, int total)
{
    tui_job_doing(job, "%s %s", doing, text_shown(base_name(path)));
    tui_job_progress(job, done, total);
}

static int import_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    import_work_t *w = ud;
    FILE *f = open_memstream(&w->report, &w->len);
    const char *paths[1] = { w->path };
    import_progress_t pr = { .say = import_said, .ud = job };
    int rc = import_paths(w->c, w->store, paths, 1, f, &pr, NULL, err);
    if (f)
        fclose(f);
    return rc;
}

/* Imports path (a file or folder) and says what came in. */
static void import_path(tui_t *t, const char *typed)
{
    char path[4096]; /* "dumps/" names "dumps/a.hlo", never "dumps//a.hlo" */
    snprintf(path, sizeof path, "%s", typed);
    path_tidy(path);
    import_work_t w = { .c = t->cmdline, .store = t->store, .path = path };
    char what[600];
    snprintf(what, sizeof what, "importing %s", text_shown(base_name(path)));
    rs_error_t err;
    int rc = tui_wait_unstoppable(t, what, import_work, &w, &err);
    if (rc) {
        tui_error(t, NULL, &err);
        free(w.report);
        return;
    }
    tui_reload(t);
    int files = 0;
    const char *last = "";
    for (char *line = w.report; line && *line; files++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        last = line;
        line = nl ? nl + 1 : line + strlen(line);
    }
    if (files == 1)
        tui_status(t, false, "imported %s", last);
    else
        tui_status(t, false, "imported %d files from %s (the last: %s)", files, path, last);
    free(w.report);
}

/* Enter on a routine: opened (the open one again: its newest version),
 * after asking when that drops a fit not saved (it closed it silently). */
static void open_selected(tui_t *t)
{
    char name[sizeof t->open_name], change[sizeof t->open_name + 16], dropped[160];
    snprintf(name, sizeof name, "%s", t->routines[t->sel_routine].name);
    snprintf(change, sizeof change, "opening %s", name);
    if (tui_fit_may_go(t, change, dropped, sizeof dropped) && tui_open_routine(t, name))
        t->screen = SCR_ARENA;
}

int screen_session_key(tui_t *t, action_t a, int key)
{
    (void)key;
    int *sel = t->session_pane == 0 ? &t->sel_routine : &t->sel_profile;
    int n = t->session_pane == 0 ? t->n_routines : t->n_profiles + 1;
    int page = list_rows(t) > 1 ? list_rows(t) - 1 : 1;
    switch (a) {
    case ACT_UP: *sel -= *sel > 0; return KEY_REDRAW;
    case ACT_DOWN: *sel += *sel + 1 < n; return KEY_REDRAW;
    case ACT_PGUP: *sel = *sel > page ? *sel - page : 0; return KEY_REDRAW;
    case ACT_PGDN: *sel = *sel + page < n ? *sel + page : n - 1; return KEY_REDRAW;
    case ACT_TOP: *sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: *sel = n ? n - 1 : 0; return KEY_REDRAW;
    case ACT_NEXT_PANE:
    case ACT_LEFT:
    case ACT_RIGHT: t->session_pane ^= 1; return KEY_REDRAW;
    case ACT_PROFILE: t->session_pane = 1; return KEY_REDRAW;
    case ACT_OPEN:
        if (t->session_pane == 1) {
            tui_choose_profile(t, t->sel_profile - 1);
            return KEY_REDRAW;
        }
        if (t->n_routines)
            open_selected(t);
        return KEY_REDRAW;
    case ACT_BINDINGS: {
        /* the highlighted routine's bindings, named in the prompt */
        if (!t->n_routines)
            return KEY_REDRAW;
        char name[128], label[200], buf[sizeof t->binds], old[sizeof t->binds];
        snprintf(name, sizeof name, "%s", t->routines[t->sel_routine].name);
        snprintf(label, sizeof label, "bindings of %s (K=V ..., empty: its own): ", name);
        snprintf(old, sizeof old, "%s", tui_binds_of(t, name));
        snprintf(buf, sizeof buf, "%s", old);
        bool is_open = t->open && strcmp(t->open_name, name) == 0;
        char dropped[160] = "";
        if (!tui_prompt(t, label, buf, sizeof buf, false) || strcmp(buf, old) == 0 ||
            (is_open && !tui_fit_may_go(t, "changing the bindings", dropped, sizeof dropped)) ||
            !tui_binds_set(t, name, buf))
            return KEY_REDRAW;
        if (is_open) {
            if (!tui_open_routine(t, name)) { /* a bad binding keeps the ones that worked */
                char msg[512];
                snprintf(msg, sizeof msg, "%s", t->status);
                tui_binds_set(t, name, old);
                tui_open_routine(t, name);
                tui_status(t, true, "%s", msg);
            } else if (dropped[0]) {
                tui_status_append(t, dropped);
            }
        } else if (!tui_check_binds(t, name)) { /* refused now, as --bind is, not at Enter */
            tui_binds_set(t, name, old);
        } else {
            tui_status(t, false, "bindings of %s: %s; Enter opens it with them", name, buf[0] ? buf : "its own");
        }
        return KEY_REDRAW;
    }
    case ACT_RENAME: {
        if (!t->n_routines)
            return KEY_REDRAW;
        char from[128], label[200], to[128], path[512];
        int renamed;
        snprintf(from, sizeof from, "%s", t->routines[t->sel_routine].name);
        snprintf(path, sizeof path, "%s", t->routines[t->sel_routine].path);
        snprintf(label, sizeof label, "rename %s to: ", from);
        snprintf(to, sizeof to, "%s", from);
        if (tui_prompt(t, label, to, sizeof to, false) && to[0] && strcmp(to, from) != 0 &&
            tui_rename_routine(t, from, path, to, &renamed))
            tui_status(t, false, "renamed %s (%d version%s from %s) to %s: its plans and bindings go with it", from,
                       renamed, renamed == 1 ? "" : "s", path[0] ? path : "no file", to);
        return KEY_REDRAW;
    }
    case ACT_IMPORT: {
        char buf[512] = "";
        if (tui_prompt(t, "import (Tab completes): ", buf, sizeof buf, true) && buf[0])
            import_path(t, buf);
        return KEY_REDRAW;
    }
    case ACT_SEARCH: {
        char buf[64] = "";
        if (tui_prompt(t, "routine: ", buf, sizeof buf, false) && buf[0]) {
            int i = tui_find(t, t->n_routines, 0, routine_name, buf);
            snprintf(t->search[SCR_SESSION], sizeof t->search[SCR_SESSION], "%s", buf);
            if (i >= 0) {
                t->session_pane = 0;
                t->sel_routine = i;
            } else {
                tui_status(t, true, "no routine matches '%s'", buf);
            }
        }
        return KEY_REDRAW;
    }
    case ACT_SEARCH_NEXT:
        for (int k = 1; k <= t->n_routines && t->search[SCR_SESSION][0]; k++) {
            int i = (t->sel_routine + k) % t->n_routines;
            if (strstr(t->routines[i].name, t->search[SCR_SESSION])) {
                t->sel_routine = i;
                break;
            }
        }
        return KEY_REDRAW;
    default:
        return KEY_UNHANDLED;
    }
}

int screen_session_click(tui_t *t, int y, int x)
{
    int lw = routines_width(t);
    int row = y - LIST_Y - 1;
    if (row < 0 || row >= list_rows(t))
        return KEY_HANDLED;
    if (x < lw) {
        t->session_pane = 0;
        if (t->top_routine + row < t->n_routines)
            t->sel_routine = t->top_routine + row;
    } else {
        t->session_pane = 1;
        if (t->top_profile + row <= t->n_profiles)
            t->sel_profile = t->top_profile + row;
    }
    return KEY_REDRAW;
}
