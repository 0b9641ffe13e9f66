/* monotime: see monotime.h. */
#include "monotime.h"

#include <time.h>

int64_t monotime_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}
