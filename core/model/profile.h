/* profile: a hardware profile (DESIGN §7).  Data only: whoever scores reads
 * its alignment and max_inline_depth into its own score configuration. */
#ifndef RS_PROFILE_H
#define RS_PROFILE_H

#include <stdint.h>

typedef struct profile {
    char name[64];
    int64_t memory_bytes;
    int64_t alignment;
    int32_t max_inline_depth;
    int64_t flops_per_s;
    int64_t bytes_per_s;
} profile_t;

/* Estimated seconds to run `ops` operations on p (0 when flops unknown). */
double profile_seconds(const profile_t *p, int64_t ops);

#endif
