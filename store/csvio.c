#include "csvio.h"

#include <csv.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rfile.h"
#include "util/vec.h"

typedef struct reader {
    csvio_row_fn fn;
    void *ud;
    rs_error_t *err;
    const char *path;
    char **field;
    size_t *len;
    int *col;
    int n, cap;
    int row_line;       /* line where the current row started */
    int start_line;     /* line where the next row starts (not inside quotes) */
    int line;           /* physical line being fed */
    const char *text;   /* the physical line being fed */
    size_t text_len;
    char *row_text;     /* every physical line of the current row */
    size_t row_len, row_cap;
    bool row_open;
    int rc;
    /* quoting followed line by line, to place a malformed-CSV error */
    bool in_quotes;     /* a quoted field runs on past the current line */
    int open_line, open_col; /* where that field's quote opened */
    int bad_col;        /* the current line's first quote out of place, or 0 */
} reader_t;

enum { Q_START, Q_BARE, Q_QUOTED, Q_QUOTE, Q_CLOSED };

/* Follows RFC 4180 quoting over the line being fed (libcsv reports only that
 * something is wrong, not where): sets bad_col to the column of the first
 * quote out of place or character after a closing quote, and keeps
 * in_quotes, open_line and open_col for a quote left open. */
static void scan_quotes(reader_t *r)
{
    int st = r->in_quotes ? Q_QUOTED : Q_START, col = 0;
    r->bad_col = 0;
    for (size_t i = 0; i < r->text_len && !r->bad_col; i++) {
        unsigned char c = (unsigned char)r->text[i];
        if ((c & 0xC0) != 0x80)
            col++;
        bool blank = c == ' ' || c == '\t', end = c == '\r' || c == '\n';
        switch (st) {
        case Q_START:
            if (c == '"') {
                st = Q_QUOTED;
                r->open_line = r->line;
                r->open_col = col;
            } else if (c != ',' && !blank && !end) {
                st = Q_BARE;
            }
            break;
        case Q_BARE:
            if (c == '"')
                r->bad_col = col;
            else if (c == ',' || end)
                st = Q_START;
            break;
        case Q_QUOTED:
            if (c == '"')
                st = Q_QUOTE;
            break;
        case Q_QUOTE: /* an escaped quote, or the field's end */
        case Q_CLOSED:
            if (c == '"' && st == Q_QUOTE)
                st = Q_QUOTED;
            else if (c == ',' || end)
                st = Q_START;
            else if (blank)
                st = Q_CLOSED;
            else
                r->bad_col = col;
            break;
        }
    }
    r->in_quotes = st == Q_QUOTED;
}

static void on_field(void *data, size_t len, void *ud)
{
    reader_t *r = ud;
    if (r->rc)
        return;
    if (!r->row_open) {
        r->row_open = true;
        r->row_line = r->start_line;
    }
    if (r->n == r->cap) {
        void **const arrays[] = { (void **)&r->field, (void **)&r->len, (void **)&r->col };
        const size_t sizes[] = { sizeof *r->field, sizeof *r->len, sizeof *r->col };
        int old = r->cap;
        if (vec_reserve_many(arrays, sizes, 3, &r->cap, (int64_t)r->n + 1)) {
            r->rc = error_set(r->err, RS_ENOMEM, r->path, r->line, 0, "out of memory");
            return;
        }
        for (int i = old; i < r->cap; i++)
            r->field[i] = NULL; /* each slot keeps its copy's buffer across rows */
    }
    char *copy = realloc(r->field[r->n], len + 1);
    if (!copy) {
        r->rc = error_set(r->err, RS_ENOMEM, r->path, r->line, 0, "out of memory");
        return;
    }
    if (len)
        memcpy(copy, data, len);
    copy[len] = 0;
    r->field[r->n] = copy;
    r->len[r->n] = len;
    r->n++;
}

/* Puts back what libcsv trimmed: an unquoted field is kept as written,
 * blanks included (a MiniMalloc id "\tt" is not "t"; numbers and headers
 * skip blanks where they are read).  Columns are known for the fields on
 * the row's first line (quotes are followed: a comma inside them
 * separates nothing); a field past it is placed at column 1. */
static int fill_fields(reader_t *r)
{
    for (int i = 0; i < r->n; i++)
        r->col[i] = 1;
    const char *t = r->row_text;
    size_t n = r->row_len, start = 0;
    bool in_q = false, quoted = false, first_line = true;
    int col = 1, k = 0;
    for (size_t i = 0; i <= n && k < r->n; i++) {
        unsigned char c = i < n ? (unsigned char)t[i] : '\n';
        if (in_q) {
            if (c == '"')
                in_q = false; /* an escaped "" opens again at once */
            else if (c == '\n' || c == '\r')
                first_line = false;
        } else if (c == '"') {
            in_q = quoted = true;
        } else if (c == ',' || c == '\n' || c == '\r') {
            if (!quoted && r->len[k] != i - start) {
                char *copy = realloc(r->field[k], i - start + 1);
                if (!copy)
                    return error_set(r->err, RS_ENOMEM, r->path, r->line, 0, "out of memory");
                memcpy(copy, t + start, i - start);
                copy[i - start] = 0;
                r->field[k] = copy;
                r->len[k] = i - start;
            }
            if (c != ',')
                break;
            start = i + 1;
            quoted = false;
            if (++k < r->n && first_line)
                r->col[k] = col + 1;
        }
        if ((c & 0xC0) != 0x80)
            col++;
    }
    return RS_OK;
}

/* RS_EINPUT at a field holding a NUL byte: C strings would cut it short
 * (a profile "dev\0x" stored as "dev").  Not in the first row: a header
 * reader refuses what is not its words, and says a binary file is not the
 * CSV it expected. */
static int refuse_nul(const reader_t *r)
{
    for (int k = 0; k < r->n && r->row_line > 1; k++) {
        const char *z = memchr(r->field[k], 0, r->len[k]);
        if (z)
            return error_set(r->err, RS_EINPUT, r->path, r->row_line, r->col[k],
                             "a NUL byte in field %d (byte %zu): text may not hold one", k + 1,
                             (size_t)(z - r->field[k]) + 1);
    }
    return RS_OK;
}

static void on_row(int term, void *ud)
{
    reader_t *r = ud;
    (void)term;
    if (r->rc)
        return;
    if (!r->row_open)
        r->row_line = r->line;
    if ((r->rc = fill_fields(r)) || (r->rc = refuse_nul(r)))
        return;
    csvio_row_t row = { r->field, r->len, r->col, r->n, r->row_line, r->path, r->row_line == r->line };
    r->rc = r->fn(r->ud, &row, r->err);
    r->n = 0;
    r->row_open = false;
}

int csvio_read_file(const char *path, csvio_row_fn fn, void *ud, rs_error_t *err)
{
    FILE *f;
    int rc = rfile_open(path, &f, NULL, err);
    if (rc)
        return rc;
    rc = csvio_read_stream(f, path, fn, ud, err);
    fclose(f);
    return rc;
}

/* Grows *buf to hold need bytes, doubling: a 1 MB field is a few
 * reallocations, not eight thousand. */
static bool reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    char *b = realloc(*buf, n);
    if (!b)
        return false;
    *buf = b;
    *cap = n;
    return true;
}

/* The next physical line of f into *buf, ending with its LF, CRLF or lone
 * CR (each ends a line, as in a routine); its length, 0 at the end, -1
 * when out of memory. */
static ssize_t read_line(FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    int c;
    while ((c = getc_unlocked(f)) != EOF) {
        if (!reserve(buf, cap, n + 3))
            return -1;
        (*buf)[n++] = (char)c;
        if (c == '\n')
            break;
        if (c == '\r') {
            int d = getc_unlocked(f);
            if (d == '\n')
                (*buf)[n++] = '\n';
            else if (d != EOF)
                ungetc(d, f);
            break;
        }
    }
    if (n)
        (*buf)[n] = 0;
    return (ssize_t)n;
}

int csvio_read_stream(FILE *f, const char *path, csvio_row_fn fn, void *ud, rs_error_t *err)
{
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    reader_t r = { .fn = fn, .ud = ud, .err = err, .path = path };
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while (!r.rc && (got = read_line(f, &line, &cap)) > 0) {
        r.line++;
        r.text = line;
        r.text_len = (size_t)got;
        if (!r.in_quotes && !r.row_open) {
            r.start_line = r.line;
            r.row_len = 0;
        }
        if (!reserve(&r.row_text, &r.row_cap, r.row_len + (size_t)got + 1)) {
            r.rc = error_set(err, RS_ENOMEM, path, r.line, 0, "out of memory");
            break;
        }
        memcpy(r.row_text + r.row_len, line, (size_t)got);
        r.row_len += (size_t)got;
        /* libcsv grows a field by its block size each time: make that the
         * buffer's size so far (and at least the line), so it doubles */
        size_t blk = csv_get_buffer_size(&p);
        csv_set_blk_size(&p, blk > (size_t)got ? blk : (size_t)got > 128 ? (size_t)got : 128);
        if (r.in_quotes || memchr(line, '"', (size_t)got))
            scan_quotes(&r);
        if (csv_parse(&p, line, (size_t)got, on_field, on_row, &r) != (size_t)got && !r.rc)
            r.rc = error_set(err, RS_EINPUT, path, r.line, r.bad_col ? r.bad_col : 1,
                             "malformed CSV: %s (a quote out of place?)", csv_strerror(csv_error(&p)));
    }
    if (!r.rc && got < 0)
        r.rc = error_set(err, RS_ENOMEM, path, r.line, 0, "out of memory");
    if (!r.rc && ferror(f))
        r.rc = error_set(err, RS_EINPUT, path, r.line, 0, "read error: %s", strerror(errno));
    if (!r.rc && csv_fini(&p, on_field, on_row, &r) != 0 && !r.rc)
        r.rc = error_set(err, RS_EINPUT, path, r.in_quotes ? r.open_line : r.line, r.in_quotes ? r.open_col : 1,
                         "malformed CSV: %s (%s)", csv_strerror(csv_error(&p)),
                         r.in_quotes ? "this quote is never closed" : "an unterminated quote?");
    csv_free(&p);
    free(line);
    free(r.row_text);
    for (int i = 0; i < r.cap; i++)
        free(r.field[i]);
    free(r.field);
    free(r.len);
    free(r.col);
    return r.rc;
}

int csvio_write_field(FILE *f, const char *s, size_t len)
{
    if (!memchr(s, ',', len) && !memchr(s, '"', len) && !memchr(s, '\n', len) && !memchr(s, '\r', len))
        return fwrite(s, 1, len, f) == len ? 0 : -1;
    return csv_fwrite(f, s, len);
}

#define CSVIO_STR2(x) #x
#define CSVIO_STR(x) CSVIO_STR2(x)

const char *csvio_libcsv_version(void)
{
    return CSVIO_STR(CSV_MAJOR) "." CSVIO_STR(CSV_MINOR) "." CSVIO_STR(CSV_RELEASE);
}

int csvio_write_cell(FILE *f, const char *s, bool raw)
{
    size_t n = strlen(s);
    if (raw || !s[0] || !strchr("=+-@\t\r", s[0]))
        return csvio_write_field(f, s, n);
    char *q = malloc(n + 2); /* the ' inside the quotes a comma may need */
    if (!q)
        return -1;
    q[0] = '\'';
    memcpy(q + 1, s, n + 1);
    int rc = csvio_write_field(f, q, n + 1);
    free(q);
    return rc;
}

int csvio_col_after(const csvio_row_t *row)
{
    if (row->n == 0 || !row->one_line)
        return 1;
    const char *f = row->field[row->n - 1];
    int col = row->col[row->n - 1];
    for (size_t i = 0; i < row->len[row->n - 1]; i++)
        col += ((unsigned char)f[i] & 0xC0) != 0x80;
    return col;
}

int csvio_check_count(const csvio_row_t *row, int want, rs_error_t *err)
{
    if (row->n == want)
        return RS_OK;
    /* at the first field too many, or where the next one was expected */
    int col = row->n > want ? row->col[want] : csvio_col_after(row);
    return error_set(err, RS_EINPUT, row->path, row->line, col, "expected %d fields, found %d", want, row->n);
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

const char *csvio_field_trim(const csvio_row_t *row, int k, size_t *n)
{
    const char *s = row->field[k];
    size_t len = row->len[k];
    while (len && blank(*s)) {
        s++;
        len--;
    }
    while (len && blank(s[len - 1]))
        len--;
    *n = len;
    return s;
}

int csvio_field_int(const csvio_row_t *row, int k, const char *what, long long *out, rs_error_t *err)
{
    const char *s = row->field[k];
    size_t n;
    const char *t = csvio_field_trim(row, k, &n);
    size_t i = (size_t)(t - s);
    n += i;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    long long v = 0;
    bool ok = i < n;
    for (; ok && i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || __builtin_mul_overflow(v, 10, &v) ||
            __builtin_sub_overflow(v, s[i] - '0', &v)) /* accumulate negatively: reaches INT64_MIN */
            ok = false;
    }
    if (ok && !neg && v == INT64_MIN)
        ok = false;
    if (!ok && row->len[k] == 0)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[k],
                         "expected an integer for %s, found an empty field", what);
    if (!ok) {
        char shown[48] = "";
        size_t sl = row->len[k] < 40 ? row->len[k] : 40;
        size_t j = 0;
        for (size_t q = 0; q < sl && j + 5 < sizeof shown; q++) {
            unsigned char c = (unsigned char)s[q];
            j += (size_t)snprintf(shown + j, sizeof shown - j, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
        }
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[k],
                         "expected an integer for %s, found '%s'%s", what, shown, row->len[k] > 40 ? "..." : "");
    }
    *out = neg ? v : -v;
    return RS_OK;
}
