/* sorted: sorted int64 arrays — the coordinate lists the layout searches
 * and the arena view cut time and offsets into. */
#ifndef RS_SORTED_H
#define RS_SORTED_H

#include <stdint.h>

/* Sorts a[0..n) ascending and drops repeats; returns the new length. */
int32_t sorted_unique(int64_t *a, int32_t n);

/* The last index i in [0, n) with a[i] <= v (a ascending, n >= 1); 0 when
 * every element is above v. */
int32_t sorted_last_le(const int64_t *a, int32_t n, int64_t v);

/* The same over int32 (offset tables: the range [a[i], a[i+1]) holding v). */
int32_t sorted_last_le32(const int32_t *a, int32_t n, int64_t v);

#endif
