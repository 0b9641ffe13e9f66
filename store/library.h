/* library: what a session imports: routines (source text, versioned by
 * content), hardware profiles and MiniMalloc layout problems. */
#ifndef RS_LIBRARY_H
#define RS_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "minimalloc.h"
#include "model/profile.h"
#include "store.h"

typedef struct routine_row {
    int64_t id;
    char *name;
    int32_t version;
    int32_t steps, nodes;
    char *hash;
    char *path;
    char *imported_at;
    char *kind;          /* "routine" (§1 text) or "hlo" (XLA HLO text, §10) */
} routine_row_t;

typedef struct layout_row {
    int64_t id;
    char *name;
    int32_t n_buffers;
    char *path;
    char *imported_at;
} layout_row_t;

/* The content hash of text (32 hex digits). */
void library_hash(const char *text, size_t len, char out[33]);

/* Records a routine's source (inside a transaction).  The same text under
 * the same name is a no-op (*was_new false, *id the existing row); a
 * changed text becomes the next version. */
int library_routine_put(store_t *s, const char *name, const char *source, size_t len, const char *path,
                        int32_t steps, int32_t nodes, int64_t *id, int32_t *version, bool *was_new, rs_error_t *err);

/* The latest version of routine name: its row id, source (new string, its
 * length) and the path it came from.  *found false when there is none. */
int library_routine_find(store_t *s, const char *name, int64_t *id, char **source, size_t *len, char **path,
                         bool *found, rs_error_t *err);

/* Routine id's source (new string). */
int library_routine_source(store_t *s, int64_t id, char **source, size_t *len, char **name, rs_error_t *err);

/* Every routine version, by name then version. */
int library_routine_list(store_t *s, routine_row_t **rows, int *n, rs_error_t *err);
void library_routine_rows_free(routine_row_t *rows, int n);
/* Frees what one row owns (its strings), for a caller that drops rows
 * from a list it keeps: the one place that knows a row's fields. */
void library_routine_row_free(routine_row_t *r);

/* Inserts or replaces the profile named p->name (inside a transaction). */
int library_profile_put(store_t *s, const profile_t *p, int64_t *id, rs_error_t *err);
/* The same for n profiles through one prepared statement (a million rows
 * in seconds: preparing per row is what costs). */
int library_profiles_put(store_t *s, const profile_t *p, int32_t n, rs_error_t *err);
int library_profile_find(store_t *s, const char *name, profile_t *out, int64_t *id, bool *found, rs_error_t *err);
int library_profile_list(store_t *s, profile_t **out, int *n, rs_error_t *err);

/* Records a layout problem (inside a transaction); the same buffers under
 * the same name are a no-op. */
int library_layout_put(store_t *s, const char *name, const char *path, const minimalloc_problem_t *p, bool *was_new,
                       rs_error_t *err);
int library_layout_list(store_t *s, layout_row_t **rows, int *n, rs_error_t *err);
void library_layout_rows_free(layout_row_t *rows, int n);
/* A stored layout problem by name (the latest import). */
int library_layout_get(store_t *s, const char *name, minimalloc_problem_t *out, bool *found, rs_error_t *err);

#endif
