/* wfile: writing a file whole or not at all — into a temporary name beside
 * it, renamed into place only when every write succeeded. */
#ifndef RS_WFILE_H
#define RS_WFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

typedef struct wfile {
    FILE *f;     /* write here */
    char *tmp;
    char *path;
} wfile_t;

/* Opens a temporary file beside path; RS_EINPUT naming path on failure. */
int wfile_open(wfile_t *w, const char *path, rs_error_t *err);

/* Finishes: with ok (and no write error seen) the file replaces path;
 * otherwise it is removed and path is left as it was.  Returns RS_OK, or
 * RS_EINPUT naming path. */
int wfile_close(wfile_t *w, bool ok, rs_error_t *err);

#endif
