/* hlo_lex: the HLO reader's tokens: blanks and comments (newlines are
 * blanks, as in XLA's own lexer), punctuation, names, numbers, strings and
 * attribute values skipped whole, and errors located at FILE:LINE:COL. */
#include "model/hlo_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/checked.h"

/* ---- locations and errors --------------------------------------------- */

static int col_of(const hp_t *p, loc_t at)
{
    int col = 1;
    for (size_t i = at.line_start; i < at.pos && i < p->len; i++)
        if (((unsigned char)p->s[i] & 0xC0) != 0x80)
            col++;
    return col;
}

int hlo_fail_at(hp_t *p, loc_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int hlo_fail_at(hp_t *p, loc_t at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_set(p->err, RS_EINPUT, p->path, at.line, col_of(p, at), "%s", msg);
}

int hlo_oom(hp_t *p) { return error_set(p->err, RS_ENOMEM, p->path, p->line, 0, "out of memory"); }

static void describe(const hp_t *p, char *buf, size_t n)
{
    if (p->pos >= p->len) {
        snprintf(buf, n, "end of file");
        return;
    }
    unsigned char c = (unsigned char)p->s[p->pos];
    if (c < 0x20 || c >= 0x7f) {
        snprintf(buf, n, "byte 0x%02x", c);
        return;
    }
    size_t e = p->pos + 1;
    while (e < p->len && e - p->pos < 24 && p->s[e] > ' ' && p->s[e] < 0x7f && !strchr("(){}[],=", p->s[e]))
        e++;
    snprintf(buf, n, "'%.*s'", (int)(e - p->pos), p->s + p->pos);
}

int hlo_expected(hp_t *p, const char *what)
{
    char found[64];
    describe(p, found, sizeof found);
    return hlo_fail_at(p, hlo_here(p), "expected %s, found %s", what, found);
}

/* ---- characters --------------------------------------------------------- */

/* Skips blanks, newlines, and comments; an unterminated comment is an
 * error. */
int hlo_skip_ws(hp_t *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            hlo_advance(p);
        } else if (c == '/' && p->pos + 1 < p->len && p->s[p->pos + 1] == '*') {
            loc_t at = hlo_here(p);
            hlo_advance(p);
            hlo_advance(p);
            while (p->pos < p->len && !(p->s[p->pos] == '*' && p->pos + 1 < p->len && p->s[p->pos + 1] == '/'))
                hlo_advance(p);
            if (p->pos >= p->len)
                return hlo_fail_at(p, at, "unterminated comment");
            p->pos += 2;
        } else if (c == '/' && p->pos + 1 < p->len && p->s[p->pos + 1] == '/') {
            while (p->pos < p->len && p->s[p->pos] != '\n' && p->s[p->pos] != '\r')
                p->pos++;
        } else {
            break;
        }
    }
    return RS_OK;
}

int hlo_expect(hp_t *p, char c, const char *what)
{
    int rc = hlo_skip_ws(p);
    if (rc)
        return rc;
    return hlo_accept(p, c) ? RS_OK : hlo_expected(p, what);
}

/* After a list's item: `close` ends the list (*done), ',' goes on; else
 * an error naming what was expected. */
int hlo_list_sep(hp_t *p, char close, const char *what, bool *done)
{
    int rc = hlo_skip_ws(p);
    if (rc)
        return rc;
    *done = hlo_accept(p, close);
    return *done || hlo_accept(p, ',') ? RS_OK : hlo_expected(p, what);
}

/* After blanks: [%]NAME, XLA's [A-Za-z_][A-Za-z0-9_.-]*; the slice leaves
 * out the '%'. */
int hlo_read_name(hp_t *p, slice_t *out, const char *what)
{
    int rc = hlo_skip_ws(p);
    if (rc)
        return rc;
    size_t b = p->pos;
    if (hlo_peek(p) == '%')
        p->pos++;
    if (!hlo_name_start(hlo_peek(p))) {
        p->pos = b;
        return hlo_expected(p, what);
    }
    out->off = p->pos;
    while (p->pos < p->len && hlo_name_char((unsigned char)p->s[p->pos]))
        p->pos++;
    out->len = p->pos - out->off;
    return RS_OK;
}

bool hlo_slice_is(const hp_t *p, slice_t s, const char *w)
{
    return strlen(w) == s.len && memcmp(p->s + s.off, w, s.len) == 0;
}

/* A double-quoted string with backslash escapes, skipped. */
static int skip_string(hp_t *p)
{
    loc_t at = hlo_here(p);
    hlo_advance(p);
    while (p->pos < p->len && p->s[p->pos] != '"') {
        if (p->s[p->pos] == '\\' && p->pos + 1 < p->len)
            hlo_advance(p);
        hlo_advance(p);
    }
    if (p->pos >= p->len)
        return hlo_fail_at(p, at, "unterminated string");
    hlo_advance(p);
    return RS_OK;
}

/* An attribute's value: everything up to a blank, ',' or closing bracket
 * outside brackets and strings (brackets nest, comments inside are
 * skipped).  *out is the raw text. */
int hlo_skip_value(hp_t *p, slice_t *out)
{
    char stack[MAX_NEST];
    int depth = 0;
    loc_t opened = hlo_here(p); /* the outermost bracket, for an unclosed one */
    out->off = p->pos;
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (depth == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ')' || c == '}' ||
                           c == ']'))
            break;
        if (c == '"') {
            int rc = skip_string(p);
            if (rc)
                return rc;
            continue;
        }
        if (c == '/' && p->pos + 1 < p->len && (p->s[p->pos + 1] == '*' || p->s[p->pos + 1] == '/')) {
            if (depth == 0)
                break;
            int rc = hlo_skip_ws(p);
            if (rc)
                return rc;
            continue;
        }
        if (c == '(' || c == '{' || c == '[') {
            if (depth == MAX_NEST)
                return hlo_fail_at(p, hlo_here(p), "brackets nested deeper than %d levels", MAX_NEST);
            if (depth == 0)
                opened = hlo_here(p);
            stack[depth++] = c == '(' ? ')' : c == '{' ? '}' : ']';
        } else if (c == ')' || c == '}' || c == ']') {
            if (c != stack[depth - 1])
                return hlo_fail_at(p, hlo_here(p), "'%c' closes a '%c'", c,
                               stack[depth - 1] == ')' ? '(' : stack[depth - 1] == '}' ? '{' : '[');
            depth--;
        }
        hlo_advance(p);
    }
    if (depth > 0)
        return hlo_fail_at(p, hlo_here(p), "unexpected end of file inside an attribute value: the '%c' at line %d, "
                                           "column %d is never closed",
                           stack[0] == ')' ? '(' : stack[0] == '}' ? '{' : '[', opened.line,
                           col_of(p, opened));
    out->len = p->pos - out->off;
    if (!out->len)
        return hlo_expected(p, "an attribute value");
    return RS_OK;
}

int hlo_read_int(hp_t *p, int64_t *v, const char *what)
{
    int rc = hlo_skip_ws(p);
    if (rc)
        return rc;
    if (hlo_peek(p) < '0' || hlo_peek(p) > '9')
        return hlo_expected(p, what);
    loc_t at = hlo_here(p);
    int64_t x = 0;
    while (hlo_peek(p) >= '0' && hlo_peek(p) <= '9') {
        if (!checked_mul(x, 10, &x) || !checked_add(x, p->s[p->pos] - '0', &x))
            return hlo_fail_at(p, at, "number out of range");
        p->pos++;
    }
    *v = x;
    return RS_OK;
}
