/* profiles: the hardware-profile CSV (DESIGN §7):
 * name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s */
#ifndef RS_PROFILES_H
#define RS_PROFILES_H

#include <stdint.h>
#include <stdio.h>

#include "model/profile.h"
#include "util/error.h"

typedef struct profile_list {
    profile_t *items;
    int32_t n;
} profile_list_t;

/* Reads path; columns may come in any order but all six are required and an
 * unknown column is an error naming it.  Numbers are integers, optionally
 * in the form 312e12 (exact).  Errors: RS_EINPUT with file, line, column. */
int profiles_read(const char *path, profile_list_t *out, rs_error_t *err);
/* The same over an open stream (path names it in errors). */
int profiles_read_stream(FILE *f, const char *path, profile_list_t *out, rs_error_t *err);

void profiles_free(profile_list_t *l);

/* The profile named name, or NULL. */
const profile_t *profiles_find(const profile_list_t *l, const char *name);

#endif
