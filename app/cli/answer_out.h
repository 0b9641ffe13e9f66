/* answer_out: DESIGN §13's answers as score, fit, sweep and show print
 * them: the floors, the peak by role, the flips with the compute each added
 * and the mark of those that do not pay, and the flips by origin; as text
 * and as JSON.  core computes every figure (plan/floor, plan/answer). */
#ifndef RS_ANSWER_OUT_H
#define RS_ANSWER_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/json.h"
#include "model/routine.h"
#include "plan/fit.h"
#include "plan/floor.h"

/* A plan's flips as the tables show them: node indices into r (NULL when
 * the plan's routine could not be read back: then names[] name them and
 * nothing needs the routine), and whether each flip's recompute is known
 * (plans saved before schema 7 have none). */
typedef struct answer_flips {
    const routine_t *r;
    const fit_flip_t *f;
    const char *const *names; /* may be NULL when r is given */
    int32_t n;
    bool recompute_known;
    footprint_t baseline;
} answer_flips_t;

/* "floor      ... no plan goes below it" and, when dropped > 0, the floor
 * under the cap that kept kept of kept + dropped candidates. */
void answer_out_floors(const floor_t *floor, const floor_t *cap, int32_t kept, int32_t dropped);

/* "peak       live 124 B at step 1: resident 4 B, output 0 B, pinned 20 B, candidate 100 B". */
void answer_out_peak(const footprint_t *fp, const int64_t role[FLOOR_ROLES]);

/* "rematscope: floor: the budget ... is below ...; fitting anyway" on
 * stderr, when budget (>= 0) is below the floor or the floor under the cap.
 * Returns whether it said anything. */
bool answer_out_warn(int64_t budget, const floor_fit_t *ff);

/* After "within budget: no": ", missed by 23.0 MiB (24117248 B)" for a
 * byte budget (budget >= 0) the final arena is over; nothing else. */
void answer_out_missed_by(int64_t budget, int64_t final, bool within);

/* The flips table (with a "!" before each flip that does not pay and a note
 * under it saying what they cost), then the flips by origin. */
void answer_out_flips(const answer_flips_t *a);

/* Under an event of `--events` that ends a group (commit-group,
 * discard-group) of n members, more than its sentence names: "the group:
 * a b c", names space-separated as the events CSV's members column, under
 * the sentences' column.  Nothing for n <= 3. */
void answer_out_event_group(const char *kind, int32_t n, const char *names);

/* {"bytes", "step", "resident", "output", "pinned", "candidate"} under key. */
void answer_out_json_floor(json_t *j, const char *key, const floor_t *f);
/* {"resident", "output", "pinned", "candidate"} under key. */
void answer_out_json_roles(json_t *j, const char *key, const int64_t role[FLOOR_ROLES]);
/* "flips": [{"node", "relief", "cost", "recompute", "pays", origin...}];
 * recompute and pays are null when not known. */
void answer_out_json_flips(json_t *j, const answer_flips_t *a);
/* "by_origin": [{"origin", "flips", "relief", "recompute"}] (recompute null
 * when not known); nothing when r is NULL. */
void answer_out_json_origins(json_t *j, const answer_flips_t *a);

#endif
