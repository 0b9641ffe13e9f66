#include "alloc.h"

#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

void alloc_tune(void)
{
#ifdef __GLIBC__
    /* fixed thresholds also stop glibc's own adjusting of them */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}
