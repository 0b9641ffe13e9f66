/* wfile: writing a file whole or not at all — into a temporary name beside
 * it (`PATH.tmpPID`), renamed into place only when every write succeeded.
 * Only a regular file or a new path is replaced that way: a device, a FIFO
 * or a symlink (/dev/stdout) is written through, in place.  SIGINT, SIGTERM
 * and SIGHUP while a temporary exists remove it; temporaries that a killed
 * process left beside PATH are swept on the next open of PATH. */
#ifndef RS_WFILE_H
#define RS_WFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

typedef struct wfile {
    FILE *f;     /* write here */
    char *tmp;   /* NULL when writing path in place */
    char *path;
} wfile_t;

/* Opens a temporary file beside path (or path itself when it exists and is
 * not a regular file); RS_EINPUT naming path on failure. */
int wfile_open(wfile_t *w, const char *path, rs_error_t *err);

/* Finishes: with ok (and no write error seen, ENOSPC on close included)
 * the file replaces path; otherwise it is removed and path is left as it
 * was (written in place: as far as it got).  Returns RS_OK, or
 * RS_EINPUT naming path. */
int wfile_close(wfile_t *w, bool ok, rs_error_t *err);

#endif
