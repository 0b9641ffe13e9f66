/* strmap: a string -> int32 map (open addressing), used for names. */
#ifndef RS_STRMAP_H
#define RS_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct strmap strmap_t;

/* A new empty map, or NULL when out of memory. */
strmap_t *strmap_new(void);
void strmap_free(strmap_t *m);

/* The value stored for key[0..len), or -1 when absent. */
int32_t strmap_get(const strmap_t *m, const char *key, size_t len);

/* Stores value (>= 0) for key[0..len), copying the key; replaces an existing
 * value.  Returns 0, or -1 when out of memory. */
int strmap_put(strmap_t *m, const char *key, size_t len, int32_t value);

#endif
