/* lex: a cursor over one line of text, shared by the routine and expression
 * parsers.  Columns are 1-based and count characters (UTF-8 code points). */
#ifndef RS_LEX_H
#define RS_LEX_H

#include <stdbool.h>
#include <stddef.h>

typedef struct lex {
    const char *file; /* for error messages */
    const char *s;    /* the line, without its newline */
    size_t len;
    size_t pos;
    int line;         /* 1-based */
    /* the column of byte col_pos, so that asking for columns left to right
     * costs the line's length once, not once per token (0: none yet) */
    size_t col_pos;
    int col_at;
} lex_t;

/* Whether text[i] ends a line: an LF, or a CR not before an LF.  LF,
 * CRLF and a lone CR (old Mac files) each end one, in every text the tool
 * reads (routines, HLO, CSV, the configuration file), so a CR-only file is
 * not read as one long line and its errors are placed where they stand. */
static inline bool lex_line_ends(const char *text, size_t len, size_t i)
{
    return text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'));
}

/* The line starting at text[i]: its length without the line end, and in
 * *next where the next one starts. */
size_t lex_line_span(const char *text, size_t len, size_t i, size_t *next);

/* Skips blanks (space, tab, CR). */
void lex_skip_ws(lex_t *lx);

/* True when only blanks or a `#` comment remain. */
bool lex_at_end(lex_t *lx);

/* The 1-based character column of byte offset pos: counted from the last
 * column asked for when pos is at or after it, so a parse that asks at each
 * token as it goes is linear in the line's length. */
int lex_col_at(lex_t *lx, size_t pos);
int lex_col(lex_t *lx);

/* After blanks: consumes an identifier [A-Za-z_][A-Za-z0-9_.]* and returns
 * true with *start, *len set; false (nothing consumed) otherwise. */
bool lex_ident(lex_t *lx, const char **start, size_t *len);

/* After blanks: consumes the literal text `tok` if it is next. */
bool lex_accept(lex_t *lx, const char *tok);

/* A short printable description of what is next ("end of line", "'x'"), for
 * "expected ..., found ..." messages. */
void lex_describe_next(lex_t *lx, char *buf, size_t n);

#endif
