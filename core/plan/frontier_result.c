/* The frontier planner's results (DESIGN §14, frontier.h): §14's
 * objective, a result taken from another budget's search, and freeing. */
#include "plan/frontier.h"

#include <stdlib.h>
#include <string.h>

const char *frontier_kind_name(frontier_kind_t k) { return k == FRONTIER_REMAT ? "remat" : "inline"; }

int frontier_adopt(frontier_result_t *dst, const frontier_result_t *src, bool minimize, int64_t budget,
                   rs_error_t *err)
{
    frontier_flip_t *flips = malloc(((size_t)src->n_flips + 1) * sizeof *flips);
    if (!flips)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(flips, src->flips, (size_t)src->n_flips * sizeof *flips);
    free(dst->flips);
    dst->flips = flips;
    dst->n_flips = src->n_flips;
    dst->final = src->final;
    dst->within_budget = minimize || src->final.total <= budget;
    dst->adopted = true;
    return RS_OK;
}

void frontier_result_free(frontier_result_t *r)
{
    if (!r)
        return;
    free(r->flips);
    memset(r, 0, sizeof *r);
}

bool frontier_better(bool minimize, int64_t budget, const footprint_t *a, const footprint_t *b)
{
    bool by_total = minimize;
    if (!by_total) {
        bool fa = a->total <= budget, fb = b->total <= budget;
        if (fa != fb)
            return fa;
        by_total = !fa;
    }
    if (by_total)
        return a->total < b->total || (a->total == b->total && a->compute < b->compute);
    return a->compute < b->compute || (a->compute == b->compute && a->total < b->total);
}
