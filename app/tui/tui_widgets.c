/* tui_widgets: the status line, overlays (help, why, diff), the one-line
 * prompt, and what a screen asks through them. */
#include "tui/tui_widgets.h"

#include <curses.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/tui_draw.h"

void tui_status(tui_t *t, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->status, sizeof t->status, fmt, ap);
    va_end(ap);
    t->status_error = error;
}

void tui_status_append(tui_t *t, const char *more)
{
    char msg[sizeof t->status];
    size_t m = strlen(more);
    int keep = m < sizeof msg ? (int)(sizeof msg - m - 1) : 0;
    snprintf(msg, sizeof msg, "%.*s%s", keep, t->status, more);
    tui_status(t, false, "%s", msg);
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
    t->overlay_hang = 0;
    snprintf(t->overlay_title, sizeof t->overlay_title, "%s", title);
}

/* The column a wrapped row of line goes on at: under the help's
 * descriptions for its key and column rows (at 80 columns they went on
 * under the key column), else 4 columns in. */
static int hanging_indent(const tui_t *t, const char *line)
{
    return t->overlay_hang > 0 && strncmp(line, "  ", 2) == 0 ? t->overlay_hang : 4;
}

/* The rows the overlay's lines take wrapped to w columns. */
static int overlay_rows(const tui_t *t, int w)
{
    int rows = 0;
    for (int i = 0; i < t->n_overlay; i++) {
        const char *s = t->overlay[i];
        do {
            const char *next;
            int in = s == t->overlay[i] ? 0 : hanging_indent(t, t->overlay[i]);
            tui_wrap(s, w - 4 - in, &next);
            rows++;
            s = next;
        } while (*s);
    }
    return rows;
}

/* OVERLAY_MIN_W columns at least (the whole width below it): a popup keeps
 * the place and the width it had on screens up to 120 columns */
#define OVERLAY_MIN_W 116

void tui_draw_overlay(tui_t *t)
{
    int w = t->cols - 4, h = t->rows - 4;
    if (w < 20 || h < 4)
        return;
    /* on a wide screen as wide as what it says, and as tall everywhere, not
     * the whole screen (a Why of ten lines was a 150x41 box of blanks at
     * 160x45) */
    int widest = tui_cols(t->overlay_title) + 8;
    for (int i = 0; i < t->n_overlay; i++)
        widest = tui_cols(t->overlay[i]) + 4 > widest ? tui_cols(t->overlay[i]) + 4 : widest;
    widest = widest < OVERLAY_MIN_W ? OVERLAY_MIN_W : widest;
    w = widest < w ? widest : w;
    int need = overlay_rows(t, w) + 3;
    h = need < h ? need : h;
    int y0 = 2, x0 = 2;
    for (int y = 0; y < h; y++)
        tui_fill(t, y0 + y, x0, w, t->attr[T_HELP]);
    tui_box(t, y0, x0, h, w, t->attr[T_HELP]);
    tui_putf(t, y0, x0 + 2, w - 4, t->attr[T_HELP] | A_BOLD, " %s ", t->overlay_title);
    /* the lines wrapped to the width (continuations indented), scrolled by row */
    int rows = 0, shown = h - 3;
    for (int i = 0; i < t->n_overlay; i++) {
        const char *s = t->overlay[i];
        do {
            const char *next;
            int in = s == t->overlay[i] ? 0 : hanging_indent(t, t->overlay[i]);
            size_t n = tui_wrap(s, w - 4 - in, &next);
            if (rows >= t->overlay_top && rows - t->overlay_top < shown) {
                char row[1024];
                snprintf(row, sizeof row, "%.*s", (int)(n < sizeof row ? n : sizeof row - 1), s);
                tui_put(t, y0 + 2 + rows - t->overlay_top, x0 + 2 + in, w - 4 - in, t->attr[T_HELP], row);
            }
            rows++;
            s = next;
        } while (*s);
    }
    t->overlay_rows = rows;
    tui_putf(t, y0 + h - 1, x0 + 2, w - 4, t->attr[T_HELP], " Esc/q close  Up/Down/PgUp/PgDn scroll  %d-%d of %d ",
             rows ? t->overlay_top + 1 : 0, t->overlay_top + shown < rows ? t->overlay_top + shown : rows, rows);
}

#define HELP_KEY_COLS 16 /* the help's key column, a description after it */

void tui_help_overlay(tui_t *t) { tui_help_overlay_for(t, NULL, NULL, 0); }

/* The view's row for action a, or NULL when the view does not list it. */
static const help_row_t *view_row(action_t a, const help_row_t *rows, int n_rows)
{
    for (int i = 0; i < n_rows; i++)
        if (rows[i].action == a)
            return &rows[i];
    return NULL;
}

/* Which part of the help a key row goes in: 0 the screen's (or view's) own
 * keys, 1 the keys that work everywhere, -1 none. */
static int help_part(const tui_t *t, const key_entry_t *k, const help_row_t *rows, int n_rows)
{
    if (!keymap_row_on(t->screen, k))
        return -1;
    if (rows) { /* a view lists only the keys it takes: its own, then the screen's it passes on */
        const help_row_t *r = view_row(k->action, rows, n_rows);
        return !r ? -1 : r->help ? 0 : 1;
    }
    return k->screens == KEYS_ALL ? 1 : 0;
}

void tui_help_overlay_for(tui_t *t, const char *view, const help_row_t *rows, int n_rows)
{
    int n;
    const key_entry_t *k = keymap_entries(&n);
    char **lines = calloc((size_t)n + 8, sizeof *lines);
    int m = 0;
    char buf[640]; /* a column's meaning runs to a few rows */
    for (int pass = 0; pass < 2 && lines; pass++) {
        if (view)
            snprintf(buf, sizeof buf, pass ? "everywhere" : "%s", view);
        else
            snprintf(buf, sizeof buf, pass ? "everywhere" : "%s screen", keymap_screen_name(t->screen));
        lines[m++] = strdup(buf);
        for (int i = 0; i < n; i++) {
            if (help_part(t, &k[i], rows, n_rows) != pass)
                continue;
            /* one line per action: the first row names it, later keys join it */
            bool dup = false;
            for (int j = 0; j < i && !dup; j++)
                dup = k[j].action == k[i].action && help_part(t, &k[j], rows, n_rows) == pass;
            if (dup)
                continue;
            char keys[64] = "";
            size_t w = 0;
            for (int j = i; j < n; j++) {
                if (k[j].action != k[i].action || help_part(t, &k[j], rows, n_rows) != pass)
                    continue;
                bool seen = false; /* Enter is both '\n' and KEY_ENTER */
                for (int q = i; q < j && !seen; q++)
                    seen = k[q].action == k[i].action && strcmp(k[q].key_name, k[j].key_name) == 0;
                if (!seen)
                    w += (size_t)snprintf(keys + w, sizeof keys - w, "%s%s", w ? " " : "", k[j].key_name);
            }
            const char *help = pass == 0 && rows ? view_row(k[i].action, rows, n_rows)->help : k[i].help;
            snprintf(buf, sizeof buf, "  %-*s %s", HELP_KEY_COLS, keys, help);
            lines[m++] = strdup(buf);
        }
        lines[m++] = strdup("");
    }
    int nc;
    const column_legend_t *cols = view ? NULL : keymap_columns(t->screen, &nc);
    if (cols) {
        char **more = realloc(lines, ((size_t)m + (size_t)nc + 4) * sizeof *lines);
        if (more) {
            lines = more;
            lines[m++] = strdup("the table's columns");
            for (int i = 0; i < nc; i++) {
                snprintf(buf, sizeof buf, "  %-*s %s", HELP_KEY_COLS, cols[i].heading, cols[i].meaning);
                lines[m++] = strdup(buf);
            }
            lines[m++] = strdup("");
        }
    }
    if (t->mouse && lines)
        lines[m++] = strdup("mouse: wheel scrolls, click selects (--no-mouse turns it off)");
    char title[64];
    snprintf(title, sizeof title, "Help: %s", view ? view : keymap_screen_name(t->screen));
    tui_overlay(t, title, lines, m);
    t->overlay_hang = 2 + HELP_KEY_COLS + 1; /* the description column */
    for (int i = 0; i < m; i++)
        free(lines[i]);
    free(lines);
}

/* "~/x" is $HOME/x, as a shell would have it. */
static void expand_home(char *buf, size_t n)
{
    const char *home = getenv("HOME");
    if (buf[0] != '~' || (buf[1] && buf[1] != '/') || !home || !*home)
        return;
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s%s", home, buf + 1);
    snprintf(buf, n, "%s", tmp);
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
    /* offered text starts selected: typing replaces it, Backspace, Right
     * or End edit it instead */
    bool offered = len > 0;
    for (;;) {
        int y = t->rows - 2;
        tui_fill(t, y, 0, t->cols, t->attr[T_NORMAL]);
        tui_put(t, y, 0, t->cols, t->attr[T_NORMAL] | A_BOLD, label);
        int lx = (int)strlen(label);
        const char *shown = buf;
        int room = t->cols - lx - 1;
        if ((int)len > room)
            shown = buf + len - (size_t)room;
        tui_put(t, y, lx, room, t->attr[T_NORMAL] | (offered ? A_REVERSE : 0), shown);
        if (t->status[0]) { /* the message the prompt took the row of goes above it; the status bar stays */
            unsigned a = t->status_error ? t->attr[T_ERROR] : t->attr[T_NORMAL];
            tui_fill(t, y - 1, 0, t->cols, a);
            tui_put(t, y - 1, 0, t->cols, a, t->status);
        }
        move(y, lx + (int)strlen(shown));
        refresh();
        int ch = getch();
        if (ch == TUI_KEY_SUSPEND) { /* the prompt and what was typed stay */
            tui_suspend();
            continue;
        }
        if (ch == 27 || ch == 3 || ch == 7) {
            curs_set(0);
            t->status[0] = 0;
            return false;
        }
        if (ch == '\n' || ch == KEY_ENTER || ch == '\r') {
            if (complete_paths)
                expand_home(buf, n);
            curs_set(0);
            t->status[0] = 0;
            return true;
        }
        if (ch == KEY_RIGHT || ch == KEY_END) {
            offered = false;
            continue;
        }
        if (offered && ch >= 0x20 && ch < 0x100 && ch != 0x7f) {
            len = 0;
            buf[0] = 0;
        }
        if (ch != KEY_RESIZE)
            offered = false;
        if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
            while (len > 0 && ((unsigned char)buf[len - 1] & 0xC0) == 0x80)
                len--;
            buf[--len] = 0;
        } else if (ch == 21) { /* ^U */
            len = 0;
            buf[0] = 0;
        } else if (ch == '\t' && complete_paths) {
            expand_home(buf, n);
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

void tui_error(tui_t *t, const char *what, const rs_error_t *err)
{
    static const struct {
        const char *flag, *tui;
    } keys[] = {
        { "--bind", "bindings (b on Session)" },    { "--budget", "budget" },
        { "--profile", "profile (p on Session)" }, { "--layout", "layout (L on Arena)" },
        { "--inline", "inline preference" },       { "--max-candidates", "candidate cap" },
    };
    char where[300] = "", msg[600];
    snprintf(msg, sizeof msg, "%s", err->msg);
    const char *flag_hint = strstr(msg, "(--profile NAME)");
    if (flag_hint) /* the CLI's remedy, said with keys */
        snprintf(msg + (flag_hint - msg), sizeof msg - (size_t)(flag_hint - msg), "(pick one: 1, p, Enter)%s",
                 err->msg + (flag_hint - msg) + strlen("(--profile NAME)"));
    if (strcmp(err->file, "budget") == 0 || strcmp(err->file, "--budget") == 0) {
        /* a budget typed in a prompt: no line and column to point at */
        snprintf(where, sizeof where, "%s", strncmp(msg, "budget", 6) == 0 ? "" : "budget: ");
    } else if (strncmp(err->file, "--", 2) == 0) {
        snprintf(where, sizeof where, "%s: ", err->file + 2);
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
            if (strcmp(err->file, keys[i].flag) == 0)
                snprintf(where, sizeof where, "%s: ", keys[i].tui);
    } else if (err->file[0]) {
        rs_error_t e = *err;
        snprintf(e.msg, sizeof e.msg, "%.500s", msg);
        error_format(&e, msg, sizeof msg);
    }
    if (what && strstr(msg, what)) /* the message names it already */
        what = NULL;
    tui_status(t, true, "%s%s%s%s", what ? what : "", what ? ": " : "", where, msg);
}

int tui_find(const tui_t *t, int n, int from, const char *(*name)(const tui_t *, int), const char *q)
{
    for (int pass = 0; pass < 2; pass++) /* "s_1" lands on s_1, not on ds_1 listed before it */
        for (int k = 0; k < n; k++) {
            int i = ((from % n) + k) % n;
            const char *s = name(t, i);
            if (pass == 0 ? strcmp(s, q) == 0 : strstr(s, q) != NULL)
                return i;
        }
    return -1;
}

static bool origin_holds(const tui_t *t, int32_t node, const char *q)
{
    const routine_origin_t *o = t->tgt.routine->nodes[node].origin;
    return (o->source && strstr(o->source, q)) || (o->function && strstr(o->function, q));
}

int tui_find_node(const tui_t *t, int n, int from, int32_t (*node)(const tui_t *, int), const char *q,
                  bool *by_origin)
{
    for (int pass = 0; pass < 3; pass++) /* names first: "s_1" lands on s_1, not on ds_1 listed before it */
        for (int k = 0; k < n; k++) {
            int i = ((from % n) + k) % n;
            int32_t v = node(t, i);
            const char *s = t->tgt.routine->nodes[v].name;
            if (pass == 0 ? strcmp(s, q) == 0 : pass == 1 ? strstr(s, q) != NULL : origin_holds(t, v, q)) {
                if (by_origin)
                    *by_origin = pass == 2;
                return i;
            }
        }
    return -1;
}

bool tui_node_matches(const tui_t *t, int32_t node, const char *q)
{
    return strstr(t->tgt.routine->nodes[node].name, q) || origin_holds(t, node, q);
}

/* The rows s takes wrapped at w columns. */
static int wrapped_rows(const char *s, int w)
{
    int r = 0;
    while (*s) {
        const char *next;
        tui_wrap(s, w, &next);
        s = next;
        r++;
    }
    return r ? r : 1;
}

bool tui_confirm(tui_t *t, const char *question) { return tui_ask(t, question, "(y/n)", "y") == 'y'; }

int tui_ask(tui_t *t, const char *question, const char *answers, const char *keys)
{
    /* a question longer than the row goes on the rows above it, so its
     * end, "(y/n)", is never cut (at 80 columns it was) */
    char q[1024];
    snprintf(q, sizeof q, "%s %s", question, answers);
    int rows = wrapped_rows(q, t->cols), most = t->rows / 3 > 1 ? t->rows / 3 : 1;
    rows = rows < most ? rows : most;
    int y = t->rows - 1 - rows;
    for (int r = 0; r < rows; r++)
        tui_fill(t, y + r, 0, t->cols, t->attr[T_ERROR]);
    tui_put_wrapped(t, y, 0, t->cols, rows, 0, t->attr[T_ERROR], q);
    refresh();
    int ch;
    while ((ch = getch()) == TUI_KEY_SUSPEND) /* ^Z is no answer: the question waits */
        tui_suspend();
    if (ch >= 'A' && ch <= 'Z')
        ch += 'a' - 'A';
    return ch > 0 && ch < 128 && strchr(keys, ch) ? ch : 0;
}


int tui_cancel_poll(void *ud)
{
    tui_cancel_t *c = ud;
    if (c->stopped)
        return 1;
    if (++c->calls % 32)
        return 0;
    nodelay(stdscr, TRUE);
    int ch = getch();
    nodelay(stdscr, FALSE);
    if (ch == 3 || ch == 27)
        c->stopped = true;
    else if (ch != ERR)
        ungetch(ch); /* any other key waits for the screen */
    return c->stopped;
}
