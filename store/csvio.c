#include "csvio.h"

#include <csv.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

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
    int line;           /* physical line being fed */
    const char *text;   /* the physical line being fed */
    size_t text_len;
    bool row_open;
    int rc;
} reader_t;

static void on_field(void *data, size_t len, void *ud)
{
    reader_t *r = ud;
    if (r->rc)
        return;
    if (!r->row_open) {
        r->row_open = true;
        r->row_line = r->line;
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

/* Columns are known when the row sits on one line without quotes. */
static void fill_columns(reader_t *r)
{
    bool simple = r->row_line == r->line && !memchr(r->text, '"', r->text_len);
    int col = 1, k = 0;
    for (int i = 0; i < r->n; i++)
        r->col[i] = 0;
    if (!simple) {
        if (r->n)
            r->col[0] = 1;
        return;
    }
    if (r->n)
        r->col[0] = 1;
    for (size_t i = 0; i < r->text_len && k + 1 < r->n; i++) {
        unsigned char c = (unsigned char)r->text[i];
        if ((c & 0xC0) != 0x80)
            col++;
        if (c == ',')
            r->col[++k] = col;
    }
}

static void on_row(int term, void *ud)
{
    reader_t *r = ud;
    (void)term;
    if (r->rc)
        return;
    if (!r->row_open)
        r->row_line = r->line;
    fill_columns(r);
    csvio_row_t row = { r->field, r->len, r->col, r->n, r->row_line, r->path };
    r->rc = r->fn(r->ud, &row, r->err);
    r->n = 0;
    r->row_open = false;
}

int csvio_read_file(const char *path, csvio_row_fn fn, void *ud, rs_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
    int rc = csvio_read_stream(f, path, fn, ud, err);
    fclose(f);
    return rc;
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
    while (!r.rc && (got = getline(&line, &cap, f)) > 0) {
        r.line++;
        r.text = line;
        r.text_len = (size_t)got;
        if (csv_parse(&p, line, (size_t)got, on_field, on_row, &r) != (size_t)got && !r.rc)
            r.rc = error_set(err, RS_EINPUT, path, r.line, 0, "malformed CSV: %s (a quote out of place?)",
                             csv_strerror(csv_error(&p)));
    }
    if (!r.rc && ferror(f))
        r.rc = error_set(err, RS_EINPUT, path, r.line, 0, "read error: %s", strerror(errno));
    if (!r.rc && csv_fini(&p, on_field, on_row, &r) != 0 && !r.rc)
        r.rc = error_set(err, RS_EINPUT, path, r.line, 0, "malformed CSV: %s (an unterminated quote?)",
                         csv_strerror(csv_error(&p)));
    csv_free(&p);
    free(line);
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

int csvio_field_int(const csvio_row_t *row, int k, const char *what, long long *out, rs_error_t *err)
{
    const char *s = row->field[k];
    size_t i = 0, n = row->len[k];
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
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
    if (!ok) {
        char shown[48];
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
