#include "model/lex.h"

#include <stdio.h>
#include <string.h>

void lex_skip_ws(lex_t *lx)
{
    while (lx->pos < lx->len && (lx->s[lx->pos] == ' ' || lx->s[lx->pos] == '\t' || lx->s[lx->pos] == '\r'))
        lx->pos++;
}

bool lex_at_end(lex_t *lx)
{
    lex_skip_ws(lx);
    return lx->pos >= lx->len || lx->s[lx->pos] == '#';
}

int lex_col_at(lex_t *lx, size_t pos)
{
    if (pos > lx->len)
        pos = lx->len;
    size_t i = 0;
    int col = 1;
    if (lx->col_at > 0 && lx->col_pos <= pos) {
        i = lx->col_pos;
        col = lx->col_at;
    }
    for (; i < pos; i++)
        if (((unsigned char)lx->s[i] & 0xC0) != 0x80)
            col++;
    lx->col_pos = pos;
    lx->col_at = col;
    return col;
}

int lex_col(lex_t *lx) { return lex_col_at(lx, lx->pos); }

static bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9') || c == '.'; }

bool lex_ident(lex_t *lx, const char **start, size_t *len)
{
    lex_skip_ws(lx);
    if (lx->pos >= lx->len || !ident_start(lx->s[lx->pos]))
        return false;
    size_t b = lx->pos;
    while (lx->pos < lx->len && ident_char(lx->s[lx->pos]))
        lx->pos++;
    *start = lx->s + b;
    *len = lx->pos - b;
    return true;
}

bool lex_accept(lex_t *lx, const char *tok)
{
    lex_skip_ws(lx);
    size_t n = strlen(tok);
    if (lx->len - lx->pos >= n && memcmp(lx->s + lx->pos, tok, n) == 0) {
        lx->pos += n;
        return true;
    }
    return false;
}

void lex_describe_next(lex_t *lx, char *buf, size_t n)
{
    if (lex_at_end(lx)) {
        snprintf(buf, n, "end of line");
        return;
    }
    unsigned char c = (unsigned char)lx->s[lx->pos];
    if (c >= 0x20 && c < 0x7f) {
        /* show the rest of the token, short */
        size_t e = lx->pos + 1;
        if (ident_char((char)c))
            while (e < lx->len && ident_char(lx->s[e]) && e - lx->pos < 24)
                e++;
        snprintf(buf, n, "'%.*s'", (int)(e - lx->pos), lx->s + lx->pos);
    } else {
        snprintf(buf, n, "byte 0x%02x", c);
    }
}

size_t lex_line_span(const char *text, size_t len, size_t i, size_t *next)
{
    size_t e = i;
    while (e < len && text[e] != '\n' && text[e] != '\r')
        e++;
    *next = e + (e < len) + (e + 1 < len && text[e] == '\r' && text[e + 1] == '\n');
    return e - i;
}
