/* tui_draw: the drawing primitives: clipped and wrapped text by display
 * columns, filled rows, lines and boxes as text. */
#include "tui/tui_draw.h"

#include <curses.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "text.h"
#include "view.h"

void tui_suspend(void)
{
    def_prog_mode();
    endwin(); /* the shell's terminal: cooked, echoing, the cursor shown, the main screen back */
    /* the default action stops us: ncurses' own SIGTSTP handler (when it
     * installed one) would endwin a second time */
    struct sigaction dfl, old;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &old);
    kill(0, SIGTSTP); /* the job, as the terminal's ^Z would (a pipeline stops whole) */
    sigaction(SIGTSTP, &old, NULL);
    /* fg (SIGCONT) goes on from here */
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
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
    size_t n = text_bytes_for_cols(s, w, &cols);
    bool cut = false;
    for (const char *r = s + n; *r && !cut; r++)
        cut = *r != ' ';
    attron(attr);
    if (cut) { /* the last column says so */
        mvaddnstr(y, x, s, (int)text_bytes_for_cols(s, w - 1, &cols));
        mvaddstr(y, x + w - 1, tui_glyph(t, "…", "~"));
    } else {
        mvaddnstr(y, x, s, (int)n);
    }
    attroff(attr);
}

const char *tui_bytes(int64_t v, int w, char *buf, size_t n)
{
    char d[32], u[32];
    int len = snprintf(d, sizeof d, "%lld", (long long)v);
    if (len > w) { /* in units, else short: never digits cut */
        units_format_bytes(v, u, sizeof u);
        if ((int)strlen(u) > w)
            view_axis_bytes(v, u, sizeof u);
        snprintf(d, sizeof d, "%s", u);
    }
    int pad = w - tui_cols(d); /* right-aligned, as much as buf holds besides the number */
    int room = (int)n - 1 - (int)strlen(d);
    pad = pad < 0 ? 0 : pad > room ? (room > 0 ? room : 0) : pad;
    snprintf(buf, n, "%*s%s", pad, "", d);
    return buf;
}

const char *tui_flops_short(int64_t flops, bool sign, char *buf, size_t n)
{
    char f[32];
    units_format_flops(flops, f, sizeof f);
    const char *sp = strchr(f, ' ');
    size_t k = sp ? (size_t)(sp - f) : strlen(f);
    snprintf(buf, n, "%s%.*s%.*s", sign && flops >= 0 ? "+" : "", (int)k, f, sp && sp[1] != 'F' ? 1 : 0,
             sp ? sp + 1 : "");
    return buf;
}

void tui_put_left_cut(tui_t *t, int y, int x, int w, unsigned attr, const char *s)
{
    size_t len = strlen(s);
    if (w < 2)
        return;
    if (tui_cols(s) <= w) {
        tui_put(t, y, x, w, attr, s);
        return;
    }
    const char *tail = s + len;
    while (tail > s && tui_cols(tail - 1) <= w - 1)
        tail--;
    while ((*tail & 0xC0) == 0x80) /* not inside a UTF-8 character */
        tail++;
    tui_put(t, y, x, 1, attr, tui_glyph(t, "…", "~"));
    tui_put(t, y, x + 1, w - 1, attr, tail);
}

void tui_put_tail(tui_t *t, int y, int x, int w, unsigned attr, const char *s, size_t tail)
{
    size_t len = strlen(s);
    if (tail > len)
        tail = len;
    int tw = tui_cols(s + tail);
    if (tui_cols(s) <= w || tw >= w) {
        tui_put(t, y, x, w, attr, s);
        return;
    }
    char head[1024], clip[1100];
    snprintf(head, sizeof head, "%.*s", (int)(tail < sizeof head ? tail : sizeof head - 1), s);
    tui_put(t, y, x, w - tw, attr, tui_clip_name(t, head, w - tw, clip, sizeof clip));
    tui_put(t, y, x + w - tw, tw, attr, s + tail);
}

/* Where fields go: row[i], col[i] of each, a row breaking between fields,
 * until one would need a row past max_rows; returns how many fit. */
static int lay_fields(const char *const *f, int n, int w, int max_rows, int indent, int sl, int *row, int *col)
{
    int r = 0, c = 0;
    for (int i = 0; i < n; i++) {
        int fw = tui_cols(f[i]), row0 = r ? indent : 0;
        if (c > row0 && c + sl + fw > w) {
            if (r + 1 >= max_rows)
                return i;
            r++;
            c = indent;
        } else if (c > row0) {
            c += sl;
        }
        row[i] = r;
        col[i] = c;
        c += fw;
    }
    return n;
}

int tui_put_fields(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr,
                   const char *const *fields, int n, const char *sep)
{
    if (n <= 0 || max_rows <= 0)
        return 0;
    int *row = malloc(((size_t)n + 1) * sizeof *row), *col = malloc(((size_t)n + 1) * sizeof *col);
    if (!row || !col) {
        free(row);
        free(col);
        return 0;
    }
    int sl = tui_cols(sep), k = lay_fields(fields, n, w, max_rows, indent, sl, row, col);
    char more[48] = "";
    int mr = 0, mc = 0;
    if (k < n) { /* the fields that fit with "… N more" after them */
        for (; k > 0; k--) {
            snprintf(more, sizeof more, "%s %d more", tui_glyph(t, "…", "..."), n - k);
            int end = col[k - 1] + tui_cols(fields[k - 1]), mw = tui_cols(more);
            if (end + sl + mw <= w) {
                mr = row[k - 1], mc = end + sl;
                break;
            }
            if (row[k - 1] + 1 < max_rows) {
                mr = row[k - 1] + 1, mc = indent;
                break;
            }
        }
        if (k == 0)
            snprintf(more, sizeof more, "%s %d more", tui_glyph(t, "…", "..."), n);
    }
    int rows = k ? row[k - 1] + 1 : 1;
    for (int i = 0; i < k; i++) {
        if (i && row[i] == row[i - 1])
            tui_put(t, y + row[i], x + col[i] - sl, sl, attr, sep);
        tui_put(t, y + row[i], x + col[i], w - col[i], attr, fields[i]);
    }
    if (more[0]) {
        tui_put(t, y + mr, x + mc, w - mc, attr, more);
        rows = mr + 1 > rows ? mr + 1 : rows;
    }
    free(row);
    free(col);
    return rows;
}

int tui_fields_rows(const char *const *fields, int n, int w, int indent, const char *sep)
{
    if (n <= 0)
        return 0;
    int *row = malloc((size_t)n * sizeof *row), *col = malloc((size_t)n * sizeof *col), rows = 0;
    if (row && col && lay_fields(fields, n, w, INT_MAX, indent, tui_cols(sep), row, col) == n)
        rows = row[n - 1] + 1;
    free(row);
    free(col);
    return rows;
}

int tui_detail_rows(const char *const *fields, int n, int w, int indent, const char *sep)
{
    int need = tui_fields_rows(fields, n, w, indent, sep);
    return need < 2 ? 2 : need > 3 ? 3 : need;
}

const char *tui_clip(const tui_t *t, const char *s, int w, char *buf, size_t n)
{
    int cols = tui_cols(s), kept;
    size_t len;
    if (cols <= w)
        len = (size_t)snprintf(buf, n, "%s", s);
    else
        len = (size_t)snprintf(buf, n, "%.*s%s", (int)text_bytes_for_cols(s, w > 1 ? w - 1 : 0, &kept), s,
                               tui_glyph(t, "…", "~"));
    for (int c = cols < w ? cols : w; c < w && len + 1 < n; c++) /* padded to w columns */
        buf[len++] = ' ';
    if (len < n)
        buf[len] = 0;
    return buf;
}

/* The bytes of s's last cols display columns, whole characters. */
static size_t tail_bytes(const char *s, int cols)
{
    size_t len = strlen(s), k = len;
    int c = 0;
    while (k > 0) {
        size_t j = k - 1;
        while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80)
            j--;
        char ch[8];
        snprintf(ch, sizeof ch, "%.*s", (int)(k - j < sizeof ch ? k - j : sizeof ch - 1), s + j);
        int cw = tui_cols(ch);
        if (c + cw > cols)
            break;
        c += cw;
        k = j;
    }
    return len - k;
}

/* Where the part of a name that tells instances apart begins: at its first
 * '.' before a digit (HLO's instance number and what a tool appended after
 * it: ".250_b17", ".12.clone.1"), else at its numeric suffix with the
 * separator before it; len when it has neither. */
static size_t instance_suffix(const char *s, size_t len)
{
    for (size_t i = 1; i + 1 < len; i++)
        if (s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9')
            return i;
    size_t k = len;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k < len && k > 0 && strchr("._-", s[k - 1]))
        k--;
    return k;
}

const char *tui_clip_name(const tui_t *t, const char *s, int w, char *buf, size_t n)
{
    if (w < 5 || tui_cols(s) <= w)
        return tui_clip(t, s, w, buf, n);
    size_t len = strlen(s), k = instance_suffix(s, len);
    /* the suffix (ASCII), else the last third; the head keeps 3 columns at least */
    int tail = k < len && k > 0 ? (int)(len - k) : (w - 1) / 3;
    if (tail > w - 1 - 3)
        tail = w - 1 - 3;
    int kept;
    size_t head = text_bytes_for_cols(s, w - 1 - tail, &kept), tb = tail_bytes(s, tail);
    int len_out = snprintf(buf, n, "%.*s%s%s", (int)head, s, tui_glyph(t, "…", "~"), s + len - tb);
    for (int c = kept + 1 + tui_cols(s + len - tb); c < w && len_out >= 0 && (size_t)len_out + 1 < n; c++)
        buf[len_out++] = ' '; /* padded to w columns (a wide character may leave one) */
    if (len_out >= 0 && (size_t)len_out < n)
        buf[len_out] = 0;
    return buf;
}

int tui_name_col(int n, const char *(*name)(const void *ud, int i, char *buf, size_t size), const void *ud, int min,
                 int max)
{
    int widest = 0;
    for (int i = 0; i < n && widest < max; i++) {
        char buf[600];
        int c = tui_cols(name(ud, i, buf, sizeof buf));
        widest = c > widest ? c : widest;
    }
    widest = widest < max ? widest : max;
    return widest > min ? widest : min;
}

int tui_cols(const char *s)
{
    int cols;
    text_bytes_for_cols(s, INT_MAX, &cols);
    return cols;
}

void tui_put_fit(tui_t *t, int y, int x, int w, unsigned attr, const char *const *variants, int n)
{
    int k = 0;
    while (k + 1 < n && tui_cols(variants[k]) > w)
        k++;
    tui_put(t, y, x, w, attr, variants[k]);
}

size_t tui_wrap(const char *s, int w, const char **next)
{
    int cols;
    size_t n = text_bytes_for_cols(s, w, &cols);
    if (!s[n]) {
        *next = s + n;
        return n;
    }
    size_t cut = n;
    while (cut > 0 && s[cut] != ' ')
        cut--;
    int word = 0; /* the columns of the word after that space */
    if (cut > 0)
        for (const char *p = s + cut + 1; *p && *p != ' '; p++)
            word += ((unsigned char)*p & 0xC0) != 0x80;
    if (cut > 0 && (cut >= n / 3 || word <= w)) {
        *next = s + cut + 1;
        return cut;
    }
    /* a word longer than the row: after its last '/' here, else at the end */
    size_t slash = n;
    while (slash > cut + 1 && s[slash - 1] != '/')
        slash--;
    cut = slash > cut + 1 ? slash : n;
    *next = s + cut;
    return cut;
}

int tui_put_wrapped(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr, const char *s)
{
    int r = 0;
    while (r < max_rows && *s) {
        int in = r ? indent : 0;
        const char *next;
        size_t n = tui_wrap(s, w - in, &next);
        char row[1024];
        snprintf(row, sizeof row, "%.*s", (int)(n < sizeof row ? n : sizeof row - 1), s);
        /* the last row of text that goes on is cut with the ellipsis, so it does not read as whole */
        tui_put(t, y + r, x + in, w - in, attr, r == max_rows - 1 && *next ? s : row);
        s = next;
        r++;
    }
    return r;
}

/* Whether the n bytes at w are a unit a number is said in (trailing
 * punctuation aside): what tui_put_prose keeps on the number's row. */
static bool is_unit(const char *w, size_t n)
{
    static const char *const UNITS[] = { "B",      "KiB",    "MiB",    "GiB",    "TiB",    "PiB",   "EiB", "FLOPs",
                                         "kFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs", "EFLOPs", "ns",  "us",
                                         "ms",     "s",      "min",    "h",      "steps" };
    while (n > 0 && strchr(",;:.)", w[n - 1]))
        n--;
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++)
        if (strlen(UNITS[i]) == n && strncmp(UNITS[i], w, n) == 0)
            return true;
    return false;
}

/* The next token of s from *at: a word, or a number with its unit; its
 * bytes in *len.  NULL at the end. */
static const char *prose_token(const char *s, size_t *at, size_t *len)
{
    size_t i = *at;
    while (s[i] == ' ')
        i++;
    if (!s[i])
        return NULL;
    size_t e = i;
    while (s[e] && s[e] != ' ')
        e++;
    if (e > i && s[e - 1] >= '0' && s[e - 1] <= '9' && s[e] == ' ') { /* "45.6" then "MiB," */
        size_t u = e + 1, ue = u;
        while (s[ue] && s[ue] != ' ')
            ue++;
        if (ue > u && is_unit(s + u, ue - u))
            e = ue;
    }
    *at = e;
    *len = e - i;
    return s + i;
}

/* tui_put_prose's work: with t NULL it only counts the rows. */
static int prose(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr, const char *s, bool *cut)
{
    char row[1024];
    size_t len = 0, at = 0, tl, ends[256]; /* ends[k]: row's length after its k+1 tokens */
    int n_row = 0, cols = 0, r = 0;
    const char *tok = prose_token(s, &at, &tl);
    if (cut)
        *cut = false;
    while (tok && r < max_rows) {
        int avail = w - (r ? indent : 0);
        char one[1024];
        snprintf(one, sizeof one, "%.*s", (int)(tl < sizeof one ? tl : sizeof one - 1), tok);
        int tc = tui_cols(one), need = tc + (n_row ? 1 : 0);
        if (n_row && (cols + need > avail || n_row == 256 || len + tl + 2 >= sizeof row)) {
            if (r + 1 == max_rows) { /* words left over: " …" after the whole words that fit */
                while (n_row > 1 && cols + 2 > avail) {
                    len = ends[--n_row - 1];
                    row[len] = 0;
                    cols = tui_cols(row);
                }
                /* (a lone word too wide for it is cut by tui_put, the ellipsis last) */
                snprintf(row + len, sizeof row - len, " %s", t ? tui_glyph(t, "…", "~") : "~");
                if (cut)
                    *cut = true;
                break;
            }
            if (t)
                tui_put(t, y + r, x + (r ? indent : 0), avail, attr, row);
            r++;
            n_row = cols = 0;
            len = 0;
            continue; /* the token again, on the next row */
        }
        len += (size_t)snprintf(row + len, sizeof row - len, "%s%s", n_row ? " " : "", one);
        cols += need;
        ends[n_row++] = len;
        tok = prose_token(s, &at, &tl);
    }
    if (n_row && r < max_rows) {
        if (t)
            tui_put(t, y + r, x + (r ? indent : 0), w - (r ? indent : 0), attr, row);
        r++;
    }
    return r;
}

int tui_put_prose(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr, const char *s, bool *cut)
{
    return prose(t, y, x, w, max_rows, indent, attr, s, cut);
}

int tui_prose_rows(const char *s, int w, int indent)
{
    return prose(NULL, 0, 0, w, INT_MAX, indent, 0, s, NULL);
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
void tui_fill(tui_t *t, int y, int x, int w, unsigned attr)
{
    attron(attr);
    for (int i = 0; i < w && x + i < t->cols; i++)
        mvaddch(y, x + i, ' ');
    attroff(attr);
}

const char *tui_glyph(const tui_t *t, const char *utf8, const char *ascii) { return t->utf8 ? utf8 : ascii; }

/* Line drawing as text ("─" or "-"), never the terminal's alternate
 * character set: through tmux with TERM=xterm-256color that came out as
 * "qqqq", and under LANG=C the UTF-8 came out raw. */
void tui_hline(tui_t *t, int y, int x, int w, unsigned attr)
{
    const char *g = tui_glyph(t, "─", "-");
    for (int i = 0; i < w; i++)
        tui_put(t, y, x + i, 1, attr, g);
}

void tui_box(tui_t *t, int y, int x, int h, int w, unsigned attr)
{
    tui_hline(t, y, x + 1, w - 2, attr);
    tui_hline(t, y + h - 1, x + 1, w - 2, attr);
    for (int r = 1; r < h - 1; r++) {
        tui_put(t, y + r, x, 1, attr, tui_glyph(t, "│", "|"));
        tui_put(t, y + r, x + w - 1, 1, attr, tui_glyph(t, "│", "|"));
    }
    tui_put(t, y, x, 1, attr, tui_glyph(t, "┌", "+"));
    tui_put(t, y, x + w - 1, 1, attr, tui_glyph(t, "┐", "+"));
    tui_put(t, y + h - 1, x, 1, attr, tui_glyph(t, "└", "+"));
    tui_put(t, y + h - 1, x + w - 1, 1, attr, tui_glyph(t, "┘", "+"));
}
