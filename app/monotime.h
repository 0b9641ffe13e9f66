/* monotime: the one clock the front ends time things with (elapsed times,
 * deadlines): monotonic, so a changed wall clock never moves a deadline. */
#ifndef RS_MONOTIME_H
#define RS_MONOTIME_H

#include <stdint.h>

/* Microseconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
int64_t monotime_us(void);

#endif
