/* rebuild: a stored plan's scoring context made live again — the routine
 * parsed from its stored source, its bindings, config and preferences —
 * so its arena can be laid out and drawn. */
#ifndef RS_REBUILD_H
#define RS_REBUILD_H

#include <stdint.h>

#include "lower/lower.h"
#include "lower/score.h"
#include "model/routine.h"
#include "plans.h"
#include "store.h"

typedef struct rebuilt {
    char *source;
    routine_t *routine;
    bindings_t bind;
    lowering_t *lowering;
    score_config_t cfg;
    uint8_t *root_prefs;   /* per node */
    uint8_t *final_prefs;  /* root plus the plan's flips */
} rebuilt_t;

/* "alignment=1 max_inline_depth=8 aliasing=on layout=greedy" and back. */
void rebuild_config_format(const score_config_t *c, char *buf, size_t n);
int rebuild_config_parse(const char *text, score_config_t *c, rs_error_t *err);

/* "B=64 D=784": every bound symbol of b. */
char *rebuild_bindings_format(const routine_t *r, const bindings_t *b);

/* The routine of row routine_id, parsed from its stored text (either
 * format).  Free with routine_free. */
int rebuild_routine(store_t *s, int64_t routine_id, routine_t **out, rs_error_t *err);

/* Rebuilds plan p of store s.  Free with rebuild_free. */
int rebuild_plan(store_t *s, const stored_plan_t *p, rebuilt_t *out, rs_error_t *err);
void rebuild_free(rebuilt_t *r);

#endif
