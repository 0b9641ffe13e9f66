/* dtype: the element types of DESIGN §1 and §10, their names and sizes. */
#ifndef RS_DTYPE_H
#define RS_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The first eight are §1's own names; the rest are XLA's element types
 * (DESIGN §10), accepted by both readers.  s4 u4 f4e2m1fn hold half a byte:
 * a buffer of them rounds up to whole bytes. */
typedef enum dtype {
    DT_U8, DT_I8, DT_F16, DT_BF16, DT_F32, DT_I32, DT_F64, DT_I64,
    DT_PRED, DT_S8, DT_S16, DT_U16, DT_S32, DT_U32, DT_S64, DT_U64, DT_C64, DT_C128, DT_S4, DT_U4,
    DT_F8E5M2, DT_F8E4M3, DT_F8E4M3FN, DT_F8E4M3B11FNUZ, DT_F8E5M2FNUZ, DT_F8E4M3FNUZ, DT_F8E3M4, DT_F8E8M0FNU,
    DT_F4E2M1FN, DT_COUNT
} dtype_t;

/* Byte size of one element of t (1 for the half-byte types: see
 * dtype_bits). */
int dtype_size(dtype_t t);
/* Bits of one element of t (4, 8, ..., 128). */
int dtype_bits(dtype_t t);
const char *dtype_name(dtype_t t);
/* The type named s[0..n), or -1. */
int dtype_lookup(const char *s, size_t n);
/* Bytes of elems elements of t, rounded up to whole bytes; false on
 * overflow. */
bool dtype_bytes(dtype_t t, int64_t elems, int64_t *bytes);

#endif
