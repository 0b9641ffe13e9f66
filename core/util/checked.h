/* checked: 64-bit integer arithmetic that reports overflow instead of
 * wrapping, and a floor division.  Header-only. */
#ifndef RS_CHECKED_H
#define RS_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

/* Each returns true and stores the result on success, false on overflow. */
static inline bool checked_add(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }
static inline bool checked_sub(int64_t a, int64_t b, int64_t *r) { return !__builtin_sub_overflow(a, b, r); }
static inline bool checked_mul(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }

/* Saturating forms for counts that only grow (recompute multiplicities), and
 * differences of stored numbers a damaged store could push past 64 bits. */
static inline int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? (a < 0 && b < 0 ? INT64_MIN : INT64_MAX) : r;
}
static inline int64_t sat_sub(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_sub_overflow(a, b, &r) ? (b < 0 ? INT64_MAX : INT64_MIN) : r;
}
static inline int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? (((a < 0) != (b < 0)) ? INT64_MIN : INT64_MAX) : r;
}

/* Floor division (rounds toward negative infinity); b != 0 and not
 * (a == INT64_MIN && b == -1), which the caller must rule out. */
static inline int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

#endif
