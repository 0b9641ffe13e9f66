#include "theme.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datadir.h"
#include "rfile.h"
#include "model/lex.h"
#include "util/path.h"

static const char *SLOTS[T_COUNT] = { "normal", "header", "status", "selected", "help", "error", "dim", "peak",
                                      "budget", "curve", "resident", "intermediate", "output", "candidate",
                                      "rejected", "accepted", "held", "discarded" };
static const char *COLOURS[] = { "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white" };

const char *theme_dir(void) { return datadir_themes(); }

const char *theme_slot_name(theme_slot_t s) { return (unsigned)s < T_COUNT ? SLOTS[s] : "?"; }

void theme_builtin(theme_t *t)
{
    static const short fg[T_COUNT] = { -1, 0, 0, 0, 7, 15, 8, 9, 11, 6, 4, 5, 2, 6, 1, 10, 3, 8 };
    static const short bg[T_COUNT] = { -1, 6, 7, 3, 4, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "builtin");
    for (int i = 0; i < T_COUNT; i++) {
        t->fg[i] = fg[i];
        t->bg[i] = bg[i];
    }
    t->attr[T_HEADER] = t->attr[T_SELECTED] = t->attr[T_ERROR] = t->attr[T_PEAK] = t->attr[T_BUDGET] = THEME_BOLD;
    t->attr[T_ACCEPTED] = t->attr[T_HELD] = THEME_BOLD;
}

static int colour(const char *w, size_t n, short *out)
{
    if (n == 7 && strncmp(w, "default", 7) == 0) {
        *out = -1;
        return 0;
    }
    short bright = 0;
    if (n > 7 && strncmp(w, "bright-", 7) == 0) {
        bright = 8;
        w += 7;
        n -= 7;
    }
    for (short c = 0; c < 8; c++)
        if (strlen(COLOURS[c]) == n && strncmp(COLOURS[c], w, n) == 0) {
            *out = (short)(c + bright);
            return 0;
        }
    return -1;
}

/* Words are letters, digits and '-'. */
static bool word(lex_t *lx, const char **w, size_t *n)
{
    lex_skip_ws(lx);
    size_t b = lx->pos;
    while (lx->pos < lx->len && (lx->s[lx->pos] == '-' || lx->s[lx->pos] == '_' ||
                                 (lx->s[lx->pos] >= 'a' && lx->s[lx->pos] <= 'z') ||
                                 (lx->s[lx->pos] >= '0' && lx->s[lx->pos] <= '9')))
        lx->pos++;
    *w = lx->s + b;
    *n = lx->pos - b;
    return *n > 0;
}

static int parse_line(theme_t *t, lex_t *lx, rs_error_t *err)
{
    if (lex_at_end(lx))
        return RS_OK;
    const char *w;
    size_t n;
    int col = lex_col(lx);
    if (!word(lx, &w, &n))
        return error_set(err, RS_EINPUT, lx->file, lx->line, col, "expected a slot name (normal, header, ...)");
    int slot = -1;
    for (int s = 0; s < T_COUNT; s++)
        if (strlen(SLOTS[s]) == n && strncmp(SLOTS[s], w, n) == 0)
            slot = s;
    if (slot < 0)
        return error_set(err, RS_EINPUT, lx->file, lx->line, col, "unknown slot '%.*s'", (int)n, w);
    if (!lex_accept(lx, "="))
        return error_set(err, RS_EINPUT, lx->file, lx->line, lex_col(lx), "expected '=' after the slot name");
    short c[2];
    for (int k = 0; k < 2; k++) {
        col = lex_col(lx) + 1;
        if (!word(lx, &w, &n) || colour(w, n, &c[k]) != 0)
            return error_set(err, RS_EINPUT, lx->file, lx->line, col,
                             "expected a %s colour (default, black, red, green, yellow, blue, magenta, cyan, white, "
                             "bright-...)", k ? "background" : "foreground");
    }
    unsigned attr = 0;
    while (!lex_at_end(lx)) {
        col = lex_col(lx) + 1;
        word(lx, &w, &n);
        if (n == 4 && strncmp(w, "bold", 4) == 0)
            attr |= THEME_BOLD;
        else if (n == 7 && strncmp(w, "reverse", 7) == 0)
            attr |= THEME_REVERSE;
        else if (n == 9 && strncmp(w, "underline", 9) == 0)
            attr |= THEME_UNDERLINE;
        else if (n == 3 && strncmp(w, "dim", 3) == 0)
            attr |= THEME_DIM;
        else
            return error_set(err, RS_EINPUT, lx->file, lx->line, col,
                             "expected bold, reverse, underline or dim, found '%.*s'", (int)(n ? n : 1), n ? w : lx->s + lx->pos);
    }
    t->fg[slot] = c[0];
    t->bg[slot] = c[1];
    t->attr[slot] = attr;
    return RS_OK;
}

int theme_load(const char *name, const char *dir, theme_t *t, rs_error_t *err)
{
    theme_builtin(t);
    size_t n = strspn(name, THEME_NAME_CHARS);
    if (!name[0] || name[n] || n >= sizeof t->name)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "'%.40s%s' is not a theme name: a theme is the name of a "
                         "file NAME.theme in %s (letters, digits, - and _), never a path", name,
                         strlen(name) > 40 ? "..." : "", dir);
    char path[4096];
    char file[320];
    snprintf(file, sizeof file, "%s.theme", name);
    path_join(path, sizeof path, dir, file);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return error_set(err, RS_EINPUT, path, 0, 0, "no such theme (themes are %s/*.theme)", dir);
    /* read as every file is (rfile: a regular file, capped) and cut into
     * lines as every format is (LF, CRLF or a lone CR; any length) */
    char *text;
    size_t len;
    int rc = rfile_read(path, &text, &len, err);
    if (rc)
        return rc;
    snprintf(t->name, sizeof t->name, "%s", name);
    size_t at = 0, next;
    for (int ln = 1; !rc && at < len; ln++, at = next) {
        size_t span = lex_line_span(text, len, at, &next);
        const char *nul = memchr(text + at, 0, span);
        if (nul)
            rc = error_set(err, RS_EINPUT, path, ln, (int)(nul - (text + at)) + 1, "a NUL byte");
        lex_t lx = { .file = path, .s = text + at, .len = span, .line = ln };
        if (!rc)
            rc = parse_line(t, &lx, err);
    }
    free(text);
    return rc;
}
