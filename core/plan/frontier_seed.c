#include "plan/frontier_seed.h"

const int64_t frontier_seed_fpb[FRONTIER_SEED_COUNT] = { 4, 16, 64, 256, 2048 };

/* cost <= max_fpb x bytes, without overflow */
static int cheap(int64_t cost, int64_t bytes, int64_t max_fpb)
{
    if (bytes <= 0 || max_fpb <= 0)
        return 0;
    if (bytes > INT64_MAX / max_fpb)
        return 1;
    return cost <= bytes * max_fpb;
}

int32_t frontier_seed_threshold(const lowering_t *l, const int32_t *elig, int32_t n_elig, const uint8_t *skip,
                                int64_t max_fpb, int32_t *out)
{
    int32_t n = 0;
    for (int32_t k = 0; k < n_elig; k++) {
        int32_t node = elig[k];
        if ((!skip || !skip[node]) && cheap(l->cost[node], l->bytes[node], max_fpb))
            out[n++] = node;
    }
    return n;
}
