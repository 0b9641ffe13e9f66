#include "util/strpool.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct strpool_chunk {
    strpool_chunk_t *next;
    alignas(max_align_t) unsigned char bytes[];
};

/* Chunks double from small (a pool per routine, most routines are tiny) to
 * a cap, so the slack of the last chunk stays a sliver of a big pool. */
enum { FIRST_CHUNK = 256, MAX_CHUNK = 1 << 20 };

void strpool_init(strpool_t *p) { memset(p, 0, sizeof *p); }

void strpool_free(strpool_t *p)
{
    for (strpool_chunk_t *c = p->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    strpool_init(p);
}

/* n bytes at a multiple of align (a power of two) from the chunk start,
 * which malloc aligns for anything. */
static void *take(strpool_t *p, size_t n, size_t align)
{
    size_t at = (p->used + align - 1) & ~(align - 1);
    if (p->head && at <= p->cap && p->cap - at >= n) {
        p->used = at + n;
        return p->head->bytes + at;
    }
    size_t cap = p->cap ? p->cap * 2 : FIRST_CHUNK;
    if (cap > MAX_CHUNK)
        cap = MAX_CHUNK;
    if (cap < n)
        cap = n;
    if (cap > SIZE_MAX - sizeof(strpool_chunk_t))
        return NULL;
    strpool_chunk_t *c = malloc(sizeof *c + cap);
    if (!c)
        return NULL;
    c->next = p->head;
    p->head = c;
    p->cap = cap;
    p->used = n;
    return p->head->bytes;
}

void *strpool_alloc(strpool_t *p, size_t n, size_t align)
{
    return align && align <= alignof(max_align_t) && !(align & (align - 1)) ? take(p, n, align) : NULL;
}

char *strpool_dup(strpool_t *p, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *d = take(p, n + 1, 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}
