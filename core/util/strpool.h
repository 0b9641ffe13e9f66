/* strpool: append-only storage for many small strings whose addresses stay
 * put until the pool is freed; one allocation per chunk, not per string (a
 * million names cost their bytes, not a million malloc headers). */
#ifndef RS_STRPOOL_H
#define RS_STRPOOL_H

#include <stddef.h>

typedef struct strpool_chunk strpool_chunk_t;

typedef struct strpool {
    strpool_chunk_t *head; /* the chunk being filled; older ones follow */
    size_t used, cap;      /* bytes of head used and available */
} strpool_t;

/* An empty pool (all zeros is one too). */
void strpool_init(strpool_t *p);

/* Releases every string the pool handed out. */
void strpool_free(strpool_t *p);

/* Room for n bytes at a multiple of align (a power of two, at most
 * alignof(max_align_t)), valid until strpool_free; NULL when out of memory
 * or align is not such. */
void *strpool_alloc(strpool_t *p, size_t n, size_t align);

/* A NUL-terminated copy of s[0..n) (s may hold NULs), or NULL when out of
 * memory. */
char *strpool_dup(strpool_t *p, const char *s, size_t n);

#endif
