/* verify: a second scorer for `rematscope verify` (DESIGN §12), written
 * plainly and on its own — placement, recompute, liveness by scanning every
 * step for every node (quadratic), the §3 greedy by scanning every placed
 * buffer — so a stored plan can be checked by code that shares nothing with
 * lower/virtualizer.c, lower/live.c or layout/ but the lowering itself. */
#ifndef RS_VERIFY_H
#define RS_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "lower/lower.h"
#include "lower/score.h"
#include "util/error.h"

/* The materialized buffers of one plain scoring, in node order. */
typedef struct verify_layout {
    int32_t n;
    int32_t *node;
    int64_t *start, *end;   /* inclusive steps */
    int64_t *size;          /* aligned bytes */
    int64_t *offset;        /* the plain greedy's */
    uint8_t *copy;          /* 1: a remat flip's copy of node (DESIGN §14) */
} verify_layout_t;

/* Scores l with prefs (per node, may be NULL) the plain way: the footprint
 * of DESIGN §2-3 with the §3 greedy (cfg->layout is not consulted; the
 * caller decides what a non-greedy plan's total is checked against).
 * lay may be NULL; else it is filled (free with verify_layout_free). */
int verify_score(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, footprint_t *out,
                 verify_layout_t *lay, rs_error_t *err);
void verify_layout_free(verify_layout_t *lay);

/* verify_score under DESIGN §14 as well: remat (per node, may be NULL) the
 * remat flips on top of the inline preferences prefs.  The schedule is a
 * list with each recompute step inserted into it, every read found by
 * expanding every running step's arguments (quadratic), sharing nothing
 * with lower/remat.c.  *n_steps (may be NULL) gets S', the steps after
 * renumbering; lay's buffers are the nodes' and, after each, its copy. */
int verify_score_remat(const lowering_t *l, const uint8_t *prefs, const uint8_t *remat, const score_config_t *cfg,
                       footprint_t *out, int32_t *n_steps, verify_layout_t *lay, rs_error_t *err);

/* Whether two of the n buffers whose spans share a step overlap in offset
 * (zero-byte buffers overlap nothing); *a, *b get the first such pair. */
bool verify_overlap(int32_t n, const int64_t *start, const int64_t *end, const int64_t *size,
                    const int64_t *offset, int32_t *a, int32_t *b);

#endif
