/* wfile: the one door every file the tool writes goes through (exports of
 * every kind, layout solutions, pictures, generated and converted
 * routines; CLI and TUI alike).  It never writes over the session store
 * or its -wal/-shm, however the path is spelled or linked, and writes a
 * file whole or not at all — into a temporary name beside it
 * (`PATH.tmpPID`), renamed into place only when every write succeeded.
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
 * not a regular file); RS_EINPUT naming path on failure, and when path is
 * the session store at store (NULL: the default location; ":memory:" has
 * no file) or its -wal or -shm: the same final name in the same folder
 * once every symlink is followed (one to a file not there yet included),
 * or the same file by device and inode.  what says what would have been
 * written there ("the export"), for that message. */
int wfile_open(wfile_t *w, const char *path, const char *store, const char *what, rs_error_t *err);

/* wfile_open's refusal alone, for a command that writes two files and
 * must write neither when the second would hit the store: RS_EINPUT
 * naming path when it is the store at store or its -wal or -shm. */
int wfile_refuse(const char *path, const char *store, const char *what, rs_error_t *err);

/* Finishes: with ok (and no write error seen, ENOSPC on close included)
 * the file replaces path; otherwise it is removed and path is left as it
 * was (written in place: as far as it got).  Returns RS_OK, or
 * RS_EINPUT naming path. */
int wfile_close(wfile_t *w, bool ok, rs_error_t *err);

#endif
