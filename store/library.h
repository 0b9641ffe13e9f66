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
    int64_t xla_bytes;   /* XLA's buffer assignment's total beside the dump, -1 when none */
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

/* As library_routine_put for a routine read from a file under name, its
 * text's own: when that text is stored already under another name (a
 * rename, or an import --name), it is that routine (*was_new false) and
 * *stored_as (a new string) names it; else *stored_as is NULL and the
 * text goes in under name as library_routine_put puts it. */
int library_routine_put_own(store_t *s, const char *name, const char *source, size_t len, const char *path,
                            int32_t steps, int32_t nodes, int64_t *id, int32_t *version, bool *was_new,
                            char **stored_as, rs_error_t *err);

/* Records XLA's own figure (its memory-usage report's total) for routine
 * row id (inside a transaction). */
int library_routine_set_xla(store_t *s, int64_t id, int64_t bytes, rs_error_t *err);
/* XLA's figure for routine name's newest version, -1 when none. */
int library_routine_xla(store_t *s, const char *name, int64_t *bytes, rs_error_t *err);

/* The file version of routine name came from (a new string, "" when not
 * recorded); *found false when there is no such version. */
int library_routine_path(store_t *s, const char *name, int32_t version, char **path, bool *found, rs_error_t *err);

/* Whether name can name a routine in the store (what names it, e.g.
 * "--name", starts the error): 1 to 127 bytes, no blank, control byte or
 * '/', and not ending in .routine or .hlo, which a ROUTINE argument reads
 * as a file. */
int library_routine_name_check(const char *name, const char *what, rs_error_t *err);

/* Whether name reads as a file's rather than a stored routine's: it ends
 * in .routine or .hlo, in either case (the names the check above refuses,
 * so a command line can tell the two apart). */
bool library_name_is_file(const char *name);

/* Renames routine from to to (inside a transaction): every version, or
 * with path only the versions imported from that file (two dumps of one
 * module name become two routines), numbered 1, 2, ... in their order;
 * their plans, contexts and sweeps stay attached (they hold row ids).
 * *renamed counts the versions.  RS_EINPUT when none matches, or a
 * routine named to is stored already. */
int library_routine_rename(store_t *s, const char *from, const char *to, const char *path, int *renamed,
                           rs_error_t *err);

/* The session's own settings kept in the store (the TUI's chosen
 * profile): *value a new string, NULL when key was never set. */
int library_setting_get(store_t *s, const char *key, char **value, rs_error_t *err);
/* Sets key to value (inside a transaction, or alone). */
int library_setting_set(store_t *s, const char *key, const char *value, rs_error_t *err);

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
