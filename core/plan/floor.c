#include "plan/floor.h"

#include <stdlib.h>
#include <string.h>

#include "layout/arena.h"
#include "plan/cand.h"
#include "util/checked.h"

const char *floor_role_name(lower_role_t r)
{
    static const char *names[FLOOR_ROLES] = { "resident", "output", "pinned", "candidate" };
    return (unsigned)r < FLOOR_ROLES ? names[r] : "?";
}

/* Buffer i's span as the scoring laid it out (score.c's rule): its live
 * span, or the whole routine with buffer_aliasing off. */
static void span_of(const lowering_t *l, const score_detail_t *d, const score_config_t *cfg, int32_t i, int64_t *s,
                    int64_t *e)
{
    if (cfg->aliasing) {
        *s = d->live.start[i];
        *e = d->live.end[i];
    } else {
        *s = 0;
        *e = l->n_steps > 0 ? l->n_steps - 1 : 0;
    }
}

/* Does node i count toward the floor: materialized, and no candidate or held. */
static bool stays(const lowering_t *l, const score_detail_t *d, const uint8_t *held, int32_t i)
{
    return !d->place.is_inline[i] && (lower_role(l, i) != LOWER_CANDIDATE || (held && held[i]));
}

/* role[] at step over every buffer of d, or only those that stay. */
static void split(const lowering_t *l, const score_detail_t *d, const score_config_t *cfg, const uint8_t *held,
                  bool only_staying, int32_t step, int64_t role[FLOOR_ROLES])
{
    memset(role, 0, FLOOR_ROLES * sizeof *role);
    for (int32_t i = 0; i < l->n_nodes; i++) {
        if (d->place.is_inline[i] || (only_staying && !stays(l, d, held, i)))
            continue;
        int64_t s, e;
        span_of(l, d, cfg, i, &s, &e);
        if (s <= step && step <= e) {
            lower_role_t r = lower_role(l, i);
            role[r] = sat_add(role[r], d->aligned[i]);
        }
    }
}

void floor_split_at(const lowering_t *l, const score_detail_t *d, const score_config_t *cfg, int32_t step,
                    int64_t role[FLOOR_ROLES])
{
    split(l, d, cfg, NULL, false, step, role);
}

int floor_compute(const lowering_t *l, const score_detail_t *d, const score_config_t *cfg, const uint8_t *held,
                  floor_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    arena_buf_t *bufs = malloc(((size_t)l->n_nodes + 1) * sizeof *bufs);
    if (!bufs)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int32_t m = 0;
    for (int32_t i = 0; i < l->n_nodes; i++)
        if (stays(l, d, held, i)) {
            int64_t s, e;
            span_of(l, d, cfg, i, &s, &e);
            bufs[m++] = (arena_buf_t){ l->bytes[i], s, e };
        }
    /* the max-live sweep of §3's lower bound, over these buffers alone:
     * aligned as the arena aligns them, the first step on ties */
    int64_t step;
    int64_t bytes = arena_max_live(bufs, m, cfg->alignment, &step);
    free(bufs);
    if (bytes < 0)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    out->bytes = bytes;
    out->step = (int32_t)step;
    split(l, d, cfg, held, true, out->step, out->role);
    return RS_OK;
}

int floor_of_fit(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, int32_t cap, floor_fit_t *out,
                 rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    score_detail_t d;
    flip_candidate_t *cand = NULL;
    int32_t n = 0;
    uint8_t *held = NULL;
    int rc = score_lowering(l, prefs, cfg, &out->baseline, &d, err);
    if (!rc)
        rc = flip_candidates(l, &d.place, &d.live, &cand, &n, err);
    if (!rc)
        rc = floor_compute(l, &d, cfg, NULL, &out->floor, err);
    if (!rc) {
        int32_t m = 0; /* the Inline ones, as fit takes them */
        for (int32_t k = 0; k < n; k++)
            if (cand[k].dir == FLIP_INLINE)
                cand[m++] = cand[k];
        int32_t kept = flip_candidates_cut(cand, m, cap);
        out->candidates = m;
        out->dropped = m - kept;
        out->cap = out->floor;
        if (out->dropped > 0) {
            held = calloc((size_t)l->n_nodes + 1, 1);
            if (!held)
                rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            for (int32_t k = kept; k < m && held; k++)
                held[cand[k].node] = 1;
            if (!rc)
                rc = floor_compute(l, &d, cfg, held, &out->cap, err);
        }
    }
    free(held);
    free(cand);
    score_detail_free(&d);
    return rc;
}
