/* remat_out: `rematscope score ROUTINE --remat NODE...`: a routine scored
 * with DESIGN §14's remat flips (on top of its --inline preferences), as
 * text or JSON. */
#ifndef RS_REMAT_OUT_H
#define RS_REMAT_OUT_H

#include <stdbool.h>

#include "target.h"

/* Scores t with its inline preferences and remat flips and prints the
 * footprint, the buffers (each copy its own row), the schedule's length and
 * the flips that did not apply; returns the exit status. */
int remat_out_score(const target_t *t, bool json);

#endif
