/* import: `rematscope import` and the TUI's import share this. */
#ifndef RS_IMPORT_H
#define RS_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmdline.h"
#include "store.h"

/* What an import is doing, for a progress bar: each file as it is read
 * (done files read before it, total 0: not known until the folders are
 * walked), then each as it is written (done of total). */
typedef struct import_progress {
    void (*say)(void *ud, const char *doing, const char *path, int done, int total);
    void *ud;
} import_progress_t;

/* The routine an import's first routine file is stored as: the name its
 * text is under (the file's own, --name's, or the one the same text was
 * stored under before) and that version, which may be older than the
 * latest of the name. */
typedef struct import_routine {
    bool any; /* false: the import held no routine */
    char name[128];
    int32_t version;
} import_routine_t;

/* Imports paths[0..n) (files or folders) into store (NULL: open c's store):
 * every file is read and checked first, then all are written in one
 * transaction, so one bad file imports nothing.  A line per file goes to
 * report (may be NULL); progress (may be NULL) hears of each file; first
 * (may be NULL) is the first routine's name and version as stored. */
int import_paths(const cmdline_t *c, store_t *store, const char *const *paths, int n, FILE *report,
                 const import_progress_t *progress, import_routine_t *first, rs_error_t *err);

#endif
