/* rfile: the one way the front ends read a whole input file (routines, HLO
 * dumps, CSVs, the configuration file, the man page template). */
#ifndef RS_RFILE_H
#define RS_RFILE_H

#include <stddef.h>

#include "util/error.h"

/* Reads the whole file at path into a new NUL-terminated buffer (*text,
 * free(); *len bytes before the NUL).  A directory, a file that cannot be
 * opened or read, or memory running out is an error naming path. */
int rfile_read(const char *path, char **text, size_t *len, rs_error_t *err);

#endif
