#include "util/sorted.h"

#include <stdlib.h>

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

int32_t sorted_unique(int64_t *a, int32_t n)
{
    qsort(a, (size_t)n, sizeof *a, cmp_i64);
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (m == 0 || a[m - 1] != a[i])
            a[m++] = a[i];
    return m;
}

/* One binary search for both element widths: the body only reads a[mid]. */
#define LAST_LE(a, n, v)                          \
    do {                                          \
        int32_t lo = 0, hi = (n) - 1;             \
        while (lo < hi) {                         \
            int32_t mid = lo + (hi - lo + 1) / 2; \
            if ((a)[mid] <= (v))                  \
                lo = mid;                         \
            else                                  \
                hi = mid - 1;                     \
        }                                         \
        return lo;                                \
    } while (0)

int32_t sorted_last_le(const int64_t *a, int32_t n, int64_t v) { LAST_LE(a, n, v); }

int32_t sorted_last_le32(const int32_t *a, int32_t n, int64_t v) { LAST_LE(a, n, v); }
