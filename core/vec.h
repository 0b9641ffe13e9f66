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

#endif
