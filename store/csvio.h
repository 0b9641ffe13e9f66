/* csvio: streaming CSV reading and writing through libcsv, with the
 * line and column of each field for error messages. */
#ifndef RS_CSVIO_H
#define RS_CSVIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

typedef struct csvio_row {
    char **field;      /* NUL-terminated copies, valid during the callback */
    size_t *len;
    int *col;          /* 1-based column of each field (1 for a field past
                          the first line of a row over several lines) */
    int n;
    int line;          /* physical line where the row starts (1-based) */
    const char *path;
    int one_line;      /* the row sits on one line: columns past it are known */
} csvio_row_t;

/* Called once per row (the header included); a nonzero return stops the
 * read and is returned by csvio_read_file.  A field holds its text as
 * written, blanks included (libcsv's trimming is put back); a NUL byte in
 * a field past the first row is an error before fn sees the row. */
typedef int (*csvio_row_fn)(void *ud, const csvio_row_t *row, rs_error_t *err);

/* Streams path row by row into fn; memory is bounded by the longest row.
 * Malformed CSV is an RS_EINPUT error with the line. */
int csvio_read_file(const char *path, csvio_row_fn fn, void *ud, rs_error_t *err);

/* The same over an open stream; path names it in errors. */
int csvio_read_stream(FILE *f, const char *path, csvio_row_fn fn, void *ud, rs_error_t *err);

/* libcsv's version ("3.0.3"), from the header it was built with: the
 * library has no call that says its own. */
const char *csvio_libcsv_version(void);

/* Writes one field, quoted only when it holds a comma, quote, CR or LF. */
int csvio_write_field(FILE *f, const char *s, size_t len);

/* Writes one text cell (a label, a name, an id, a sentence) as
 * csvio_write_field does; one that begins with = + - @ TAB or CR gets a
 * leading ' so a spreadsheet shows it instead of running it as a formula
 * (OWASP's CSV injection advice), unless raw. */
int csvio_write_cell(FILE *f, const char *s, bool raw);

/* The column just past the row's last field (on a one-line row without
 * quoting: where a missing field was expected). */
int csvio_col_after(const csvio_row_t *row);

/* RS_OK when the row has want fields; else RS_EINPUT at the first field
 * too many, or just past the last one when fields are missing. */
int csvio_check_count(const csvio_row_t *row, int want, rs_error_t *err);

/* Field k of row without the blanks (space, TAB, CR) around it: *n bytes
 * from the pointer returned.  Fields are read as written, so a reader
 * that wants a number or a header word skips blanks with this. */
const char *csvio_field_trim(const csvio_row_t *row, int k, size_t *n);

/* Parses a whole-field decimal int64 (surrounding blanks allowed); RS_EINPUT
 * naming the row's file, line, the field's column and `what` otherwise. */
int csvio_field_int(const csvio_row_t *row, int k, const char *what, long long *out, rs_error_t *err);

#endif
