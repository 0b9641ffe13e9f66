/* rfile: the one way the tool reads a file it is given (routines, HLO
 * dumps, CSVs of every kind, the configuration file, themes, the man page
 * template), as wfile is the one way it writes one.  It reads only a
 * regular file (a directory, a FIFO, a device such as /dev/zero or a
 * socket is refused by name, before it is opened: a FIFO would block,
 * /dev/zero never ends), and at most RFILE_MAX bytes. */
#ifndef RS_RFILE_H
#define RS_RFILE_H

#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

/* The most bytes the tool reads from one file (1 GiB: a 46 MB HLO dump is
 * large; more would be a file that is no input). */
#define RFILE_MAX ((size_t)1 << 30)

/* Opens path to read it ("rb") once it is known to be a regular file of
 * at most RFILE_MAX bytes; RS_EINPUT naming path otherwise (what it is:
 * "a directory", "a FIFO", "a device", ...), or when it cannot be opened.
 * *size is its size (may be NULL). */
int rfile_open(const char *path, FILE **f, size_t *size, rs_error_t *err);

/* Reads the whole file at path (rfile_open's rules) into a new
 * NUL-terminated buffer (*text, free(); *len bytes before the NUL).  A file
 * that cannot be read, grows past RFILE_MAX while read, or memory running
 * out is an error naming path. */
int rfile_read(const char *path, char **text, size_t *len, rs_error_t *err);

#endif
