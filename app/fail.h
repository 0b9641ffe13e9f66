/* fail: how a run that failed says so, from either front end: one line
 * "rematscope: FILE:LINE:COL: message" on stderr and the exit status. */
#ifndef RS_FAIL_H
#define RS_FAIL_H

#include "util/error.h"

/* Prints "rematscope: <error>" on stderr (one line: newlines and control
 * bytes in it shown escaped); returns the exit status for it (2 bad input,
 * 3 store, 1 otherwise). */
int fail_print(const rs_error_t *e);

#endif
