/* vec: growing arrays.  Header-only. */
#ifndef RS_VEC_H
#define RS_VEC_H

#include <stdint.h>
#include <stdlib.h>

/* Makes room for need elements of size elem in *p (capacity *cap, doubled
 * as needed, at least 16).  Returns 0, or -1 when out of memory (then *p
 * and *cap are unchanged). */
static inline int vec_reserve(void **p, int32_t *cap, int64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int64_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    if (ncap > INT32_MAX)
        ncap = INT32_MAX;
    if (ncap < need)
        return -1;
    void *np = realloc(*p, (size_t)ncap * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = (int32_t)ncap;
    return 0;
}

/* vec_reserve for k parallel arrays sharing one capacity: *ptrs[i] holds
 * elements of elems[i] bytes.  0, or -1 when out of memory: then *cap is
 * unchanged and every array still holds at least *cap elements (some may
 * have grown already). */
static inline int vec_reserve_many(void **const ptrs[], const size_t elems[], int k, int32_t *cap, int64_t need)
{
    if (need <= *cap)
        return 0;
    int32_t c = *cap;
    for (int i = 0; i < k; i++) {
        c = *cap;
        if (vec_reserve(ptrs[i], &c, need, elems[i]))
            return -1;
    }
    *cap = c;
    return 0;
}

#endif
