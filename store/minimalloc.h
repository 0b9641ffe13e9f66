/* minimalloc: buffer-placement problems in MiniMalloc's CSV format
 * (`id,lower,upper,size`, live over the half-open [lower, upper)) and
 * solutions (`id,lower,upper,size,offset`). */
#ifndef RS_MINIMALLOC_H
#define RS_MINIMALLOC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "layout/arena.h"
#include "util/error.h"

typedef struct minimalloc_problem {
    int32_t n;
    char **ids;        /* as written; they live in the pool */
    arena_buf_t *bufs; /* inclusive spans: [lower, upper - 1] */
    int64_t *offsets;  /* from an `offset` column, or NULL */
    int32_t cap;
    char **pool;       /* chunks holding the ids: no allocation per row */
    int32_t n_pool;
    size_t pool_used;  /* bytes used in the last chunk */
} minimalloc_problem_t;

/* Appends a buffer (its id copied into the pool); with_offset keeps an
 * offset too (every buffer of a problem must agree).  RS_ENOMEM on
 * failure. */
int minimalloc_add(minimalloc_problem_t *p, const char *id, arena_buf_t b, bool with_offset, int64_t offset);

/* Reads path.  The header must be id,lower,upper,size (an offset column may
 * follow); each row needs integers with 0 <= lower < upper and size >= 0.
 * Errors are RS_EINPUT with file, line and column. */
int minimalloc_read(const char *path, minimalloc_problem_t *out, rs_error_t *err);
/* The same over an open stream (path names it in errors). */
int minimalloc_read_stream(FILE *f, const char *path, minimalloc_problem_t *out, rs_error_t *err);

void minimalloc_free(minimalloc_problem_t *p);

/* Writes the solution as id,lower,upper,size,offset through libcsv, with
 * a sixth column, source, when sources is not NULL (sources[i] may be
 * NULL: empty; minimalloc_read accepts it back and ignores it).  Ids and
 * sources are text cells, defused unless raw (csvio_write_cell).  The
 * file goes through wfile_open (never over the store at store; written
 * whole to a temporary name and renamed, so a failure leaves no partial
 * file). */
/* The columns a layout export adds after offset, and how many: where each
 * buffer's node came from, as every CSV that describes nodes names them. */
#define MINIMALLOC_ORIGIN_COLUMNS "hlo,op_name,source,function"
#define MINIMALLOC_ORIGIN_N 4

int minimalloc_write_solution(const char *path, const char *store, const minimalloc_problem_t *p,
                              const int64_t *offsets, const char *const *sources, bool raw, rs_error_t *err);

#endif
