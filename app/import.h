/* import: `rematscope import` and the TUI's import share this. */
#ifndef RS_IMPORT_H
#define RS_IMPORT_H

#include <stdio.h>

#include "cmdline.h"
#include "store.h"

/* Imports paths[0..n) (files or folders) into store (NULL: open c's store):
 * every file is read and checked first, then all are written in one
 * transaction, so one bad file imports nothing.  A line per file goes to
 * report (may be NULL). */
int import_paths(const cmdline_t *c, store_t *store, const char *const *paths, int n, FILE *report, rs_error_t *err);

#endif
