/* answer: a plan's flips as a user acts on them (DESIGN §13): grouped by
 * where each node came from (its source line, else its operation), and
 * marked where a flip buys too little memory for the compute it adds. */
#ifndef RS_ANSWER_H
#define RS_ANSWER_H

#include <stdint.h>

#include "model/routine.h"
#include "plan/fit.h"
#include "util/error.h"

/* One origin's flips: "modeling_llama.py:200" or "dot". */
typedef struct answer_origin {
    const char *origin;  /* borrowed from the routine */
    const char *function; /* the source's function (§10), NULL when none; borrowed */
    int64_t relief;      /* summed, saturating */
    int64_t recompute;   /* summed, saturating */
    int32_t flips;
    int32_t reserved;    /* 0 */
} answer_origin_t;

/* Where node i came from, as §13 groups flips: its source ("file:line")
 * when it has one, else its operation (the op of its first definition;
 * "input"/"param" for a resident).  Borrowed from r. */
const char *answer_origin_of(const routine_t *r, int32_t i);

/* The flips f[0..n) of a plan of r grouped by answer_origin_of, biggest
 * summed relief first, ties by the origin's byte order: a new array
 * (*out, free()) of *n_out groups.  group_of (n entries, may be NULL)
 * receives each flip's group index.  RS_ENOMEM only. */
int answer_by_origin(const routine_t *r, const fit_flip_t *f, int32_t n, answer_origin_t **out, int32_t *n_out,
                     int32_t *group_of, rs_error_t *err);

/* The load-bearing groups among flips f[0..n) in acceptance order (DESIGN
 * §5, §13: a group's held members are accepted with relief 0 just before
 * the flip that closed it, which carries the group's relief and
 * recompute).  closer[i] is, for a held member, the index of the flip that
 * closed its group; for that flip, its own index; else -1.  Returns the
 * number of held members. */
int32_t answer_groups(const fit_flip_t *f, int32_t n, int32_t *closer);

/* The rule that marks a flip that does not pay (docs/design-notes.md, "Choices"): a
 * flip, or a committed group taken whole (the relief-0 members before the
 * flip that closed it: §5 credits that one with the group's relief and
 * recompute), adds compute while the share of the baseline's compute it
 * adds is more than ANSWER_UNPAID_FACTOR times the share of the baseline's
 * footprint it relieves:
 *     recompute / baseline_compute > 100 * relief / baseline_total.
 * Sets unpaid[i] to 1 for every flip of such a flip or group, else 0, and
 * returns how many flips it marked.  A warning only: the plan is §5's. */
#define ANSWER_UNPAID_FACTOR 100
int32_t answer_unpaid(const fit_flip_t *f, int32_t n, int64_t baseline_total, int64_t baseline_compute,
                      uint8_t *unpaid);

#endif
