#include "model/profile.h"

void profile_apply(const profile_t *p, score_config_t *cfg)
{
    cfg->alignment = p->alignment;
    cfg->max_inline_depth = p->max_inline_depth;
}

double profile_seconds(const profile_t *p, int64_t ops)
{
    return p->flops_per_s > 0 ? (double)ops / (double)p->flops_per_s : 0.0;
}
