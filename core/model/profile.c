#include "model/profile.h"

double profile_seconds(const profile_t *p, int64_t ops)
{
    return p->flops_per_s > 0 ? (double)ops / (double)p->flops_per_s : 0.0;
}
