/* dtype: the element types of DESIGN §1 and §10: their names, their sizes
 * and the bytes of a buffer of them. */
#include "model/dtype.h"

#include <string.h>

static const char *DTYPE_NAMES[DT_COUNT] = {
    "u8", "i8", "f16", "bf16", "f32", "i32", "f64", "i64",
    "pred", "s8", "s16", "u16", "s32", "u32", "s64", "u64", "c64", "c128", "s4", "u4",
    "f8e5m2", "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz", "f8e3m4", "f8e8m0fnu",
    "f4e2m1fn",
};
static const int DTYPE_BITS[DT_COUNT] = {
    8, 8, 16, 16, 32, 32, 64, 64,
    8, 8, 16, 16, 32, 32, 64, 64, 64, 128, 4, 4,
    8, 8, 8, 8, 8, 8, 8, 8,
    4,
};

int dtype_bits(dtype_t t) { return (unsigned)t < DT_COUNT ? DTYPE_BITS[t] : 0; }
int dtype_size(dtype_t t) { return (unsigned)t < DT_COUNT ? (DTYPE_BITS[t] + 7) / 8 : 0; }
const char *dtype_name(dtype_t t) { return (unsigned)t < DT_COUNT ? DTYPE_NAMES[t] : "?"; }

bool dtype_bytes(dtype_t t, int64_t elems, int64_t *bytes)
{
    /* whole groups of 8 elements are whole bytes, so only the rest rounds
     * up: counting bits for all of them would overflow 4x below 2^63 bytes */
    int64_t bits = dtype_bits(t), whole;
    if (elems < 0 || __builtin_mul_overflow(elems / 8, bits, &whole))
        return false;
    return !__builtin_add_overflow(whole, ((elems % 8) * bits + 7) / 8, bytes);
}

int dtype_lookup(const char *s, size_t n)
{
    for (int i = 0; i < DT_COUNT; i++)
        if (strlen(DTYPE_NAMES[i]) == n && memcmp(DTYPE_NAMES[i], s, n) == 0)
            return i;
    return -1;
}
