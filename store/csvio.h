/* csvio: streaming CSV reading and writing through libcsv, with the
 * line and column of each field for error messages. */
#ifndef RS_CSVIO_H
#define RS_CSVIO_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

typedef struct csvio_row {
    char **field;      /* NUL-terminated copies, valid during the callback */
    size_t *len;
    int *col;          /* 1-based column of each field, 0 when not known */
    int n;
    int line;          /* physical line where the row starts (1-based) */
    const char *path;
} csvio_row_t;

/* Called once per row (the header included); a nonzero return stops the
 * read and is returned by csvio_read_file. */
typedef int (*csvio_row_fn)(void *ud, const csvio_row_t *row, rs_error_t *err);

/* Streams path row by row into fn; memory is bounded by the longest row.
 * Malformed CSV is an RS_EINPUT error with the line. */
int csvio_read_file(const char *path, csvio_row_fn fn, void *ud, rs_error_t *err);

/* The same over an open stream; path names it in errors. */
int csvio_read_stream(FILE *f, const char *path, csvio_row_fn fn, void *ud, rs_error_t *err);

/* Writes one field, quoted only when it holds a comma, quote, CR or LF. */
int csvio_write_field(FILE *f, const char *s, size_t len);

/* Parses a whole-field decimal int64 (surrounding blanks allowed); RS_EINPUT
 * naming the row's file, line, the field's column and `what` otherwise. */
int csvio_field_int(const csvio_row_t *row, int k, const char *what, long long *out, rs_error_t *err);

#endif
