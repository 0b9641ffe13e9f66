#include "lower/live.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

int live_compute(const lowering_t *l, const placement_t *p, liveness_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int32_t N = l->n_nodes, S = l->n_steps;
    size_t nn = N ? (size_t)N : 1;
    out->n_nodes = N;
    out->start = malloc(nn * sizeof *out->start);
    out->end = malloc(nn * sizeof *out->end);
    out->last_read = malloc(nn * sizeof *out->last_read);
    out->reads = malloc(nn * sizeof *out->reads);
    out->exec = malloc(nn * sizeof *out->exec);
    if (!out->start || !out->end || !out->last_read || !out->reads || !out->exec) {
        live_free(out);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    const uint8_t *inl = p->is_inline;
    /* Readers of N are owned by nodes of larger index when they are inline
     * (an inline node has one definition, after its arguments), so one pass
     * in reverse index order sees every inline reader settled first.  An
     * inline reader's step does not run by itself: N is read wherever that
     * reader is effectively read. */
    for (int32_t i = N - 1; i >= 0; i--) {
        int32_t last = -1;
        int64_t r = 0;
        for (int32_t k = l->rd_off[i]; k < l->rd_off[i + 1]; k++) {
            int32_t s = l->rd_step[k];
            int32_t owner = l->step_owner[s];
            if (inl[owner]) {
                if (out->last_read[owner] > last)
                    last = out->last_read[owner];
                r = sat_add(r, out->exec[owner]);
            } else {
                if (s > last)
                    last = s;
                r = sat_add(r, 1);
            }
        }
        out->last_read[i] = last;
        out->reads[i] = r;
        out->exec[i] = inl[i] ? r : l->ndefs[i];
    }
    int32_t final_step = S > 0 ? S - 1 : 0;
    for (int32_t i = 0; i < N; i++) {
        if (inl[i]) {
            out->start[i] = out->end[i] = -1;
            continue;
        }
        bool resident = lower_is_resident(l, i);
        int32_t start = resident ? 0 : l->first_def[i];
        int32_t end = resident ? final_step : l->last_def[i];
        if (out->last_read[i] > end)
            end = out->last_read[i];
        if (resident || (l->flags[i] & FLAG_OUTPUT))
            end = final_step;
        out->start[i] = start;
        out->end[i] = end;
    }
    int64_t compute = 0;
    for (int32_t s = 0; s < S; s++) {
        int32_t owner = l->step_owner[s];
        int64_t times = inl[owner] ? out->reads[owner] : 1, cost;
        /* a read count that saturated stands for more than it says */
        if (!checked_mul(times, l->step_cost[s], &cost) || !checked_add(compute, cost, &compute) ||
            (times == INT64_MAX && l->step_cost[s] > 0)) {
            const routine_node_t *n = &l->routine->nodes[owner];
            live_free(out);
            return error_set(err, RS_EINPUT, l->routine->path, n->line, n->col,
                             "the total compute overflows 64 bits at '%s' (cost %lld, run %s%lld time%s)", n->name,
                             (long long)l->step_cost[s], times == INT64_MAX ? "more than " : "", (long long)times,
                             times == 1 ? "" : "s");
        }
    }
    out->compute = compute;
    return RS_OK;
}

void live_free(liveness_t *lv)
{
    free(lv->start);
    free(lv->end);
    free(lv->last_read);
    free(lv->reads);
    free(lv->exec);
    memset(lv, 0, sizeof *lv);
}
