/* profile: a hardware profile (DESIGN §7) and what it sets in a scoring. */
#ifndef RS_PROFILE_H
#define RS_PROFILE_H

#include <stdint.h>

#include "lower/score.h"

typedef struct profile {
    char name[64];
    int64_t memory_bytes;
    int64_t alignment;
    int32_t max_inline_depth;
    int64_t flops_per_s;
    int64_t bytes_per_s;
} profile_t;

/* Sets alignment and max_inline_depth of cfg from p. */
void profile_apply(const profile_t *p, score_config_t *cfg);

/* Estimated seconds to run `ops` operations on p (0 when flops unknown). */
double profile_seconds(const profile_t *p, int64_t ops);

#endif
