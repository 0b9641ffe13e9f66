/* frontiers: the frontier plan (DESIGN §14) saved beside a plan of the
 * same budget (`fit --planner frontier --save`), its flips with their kind,
 * and reading it back. */
#ifndef RS_FRONTIERS_H
#define RS_FRONTIERS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/routine.h"
#include "plan/frontier.h"
#include "store.h"

typedef struct stored_frontier_flip {
    char *node;
    frontier_kind_t kind;
    int64_t relief, recompute;
} stored_frontier_flip_t;

typedef struct stored_frontier {
    bool present;            /* false: the plan has none (a two-round fit, or saved before schema 10) */
    footprint_t final;
    int64_t explored;
    bool within_budget, stopped, seeds_cut;
    int64_t elapsed_us;
    stored_frontier_flip_t *flips; /* in the planner's order */
    int32_t n_flips;
} stored_frontier_t;

/* Saves f, run on r beside plan plan_id (already saved, inside the same
 * transaction), which took elapsed_us. */
int frontiers_save(store_t *s, int64_t plan_id, const routine_t *r, const frontier_result_t *f, int64_t elapsed_us,
                   rs_error_t *err);

/* Loads plan plan_id's frontier plan into out (out->present false when it
 * has none); RS_ESTORE when a stored value is out of its range (a kind
 * other than inline or remat, a negative count) or flips are missing.
 * Free with stored_frontier_free (also after an error). */
int frontiers_load(store_t *s, int64_t plan_id, stored_frontier_t *out, rs_error_t *err);
void stored_frontier_free(stored_frontier_t *f);

/* f's flips as the planner's, their nodes found by name in r: a new array
 * (*out, free()); RS_ESTORE when a flip names no node of r. */
int frontiers_flips(const stored_frontier_t *f, const routine_t *r, frontier_flip_t **out, rs_error_t *err);

#endif
