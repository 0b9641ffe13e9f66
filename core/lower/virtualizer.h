/* place: placement vectors, the default policy, and the virtualizer that
 * settles which inline preferences are legal (DESIGN §2). */
#ifndef RS_VIRTUALIZER_H
#define RS_VIRTUALIZER_H

#include <stdint.h>

#include "lower/lower.h"
#include "util/error.h"

typedef enum virtualizer_reason {
    REJECT_NONE = 0,
    REJECT_RESIDENT,
    REJECT_OUTPUT,
    REJECT_PINNED,
    REJECT_ACCUMULATED,
    REJECT_DEPTH,
    REJECT_INTO     /* @into: written into an input's buffer, never inline */
} virtualizer_reason_t;

typedef struct virtualizer_rejection {
    int32_t node;
    uint8_t reason;  /* virtualizer_reason_t */
    int32_t depth;   /* for REJECT_DEPTH: the depth inlining would have made */
} virtualizer_rejection_t;

typedef struct placement {
    int32_t n_nodes;
    uint8_t *is_inline;   /* 1 = inline, 0 = materialized; residents always 0 */
    int32_t *depth;       /* inline depth of inline nodes, 0 for materialized */
    virtualizer_rejection_t *rejected; /* in node order */
    int32_t n_rejected;
} placement_t;

/* Settles the placement of l: the default policy (@inline nodes) plus
 * prefs (prefs[i] != 0: a preference to inline node i; prefs may be NULL),
 * visiting nodes in definition order; an illegal preference is rejected
 * with its reason and the node stays materialized.  out is initialized
 * here; free it with virtualizer_free. */
int virtualizer_run(const lowering_t *l, const uint8_t *prefs, int32_t max_inline_depth,
                     placement_t *out, rs_error_t *err);

void virtualizer_free(placement_t *p);

/* "resident", "output", "pinned", "accumulated", "depth", "into". */
const char *virtualizer_reason_name(virtualizer_reason_t r);

#endif
