#include "plan/cand.h"

#include <stdlib.h>

#include "util/checked.h"

const char *flip_dir_name(flip_dir_t d) { return d == FLIP_INLINE ? "Inline" : "Materialize"; }

int flip_candidates(const lowering_t *l, const placement_t *p, const liveness_t *lv,
                    flip_candidate_t **out, int32_t *n, rs_error_t *err)
{
    *out = NULL;
    *n = 0;
    flip_candidate_t *c = malloc((l->n_nodes ? (size_t)l->n_nodes : 1) * sizeof *c);
    if (!c)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int32_t m = 0;
    for (int32_t i = 0; i < l->n_nodes; i++) {
        if (lower_role(l, i) != LOWER_CANDIDATE)
            continue;
        if (p->is_inline[i]) {
            c[m++] = (flip_candidate_t){ i, FLIP_MATERIALIZE, 0 };
        } else {
            int64_t r = lv->reads[i] > 1 ? lv->reads[i] : 1;
            c[m++] = (flip_candidate_t){ i, FLIP_INLINE, sat_mul(l->cost[i], r) };
        }
    }
    *out = c;
    *n = m;
    return RS_OK;
}

static int cmp_cheapest(const void *pa, const void *pb)
{
    const flip_candidate_t *a = pa, *b = pb;
    if (a->cost_bound != b->cost_bound)
        return a->cost_bound < b->cost_bound ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

int32_t flip_candidates_cut(flip_candidate_t *c, int32_t n, int32_t cap)
{
    qsort(c, (size_t)n, sizeof *c, cmp_cheapest);
    return cap < 0 || cap > n ? n : cap;
}

/* floor(a / b) and the remainder in [0, b), for b > 0, without overflow */
static void floor_divmod(int64_t a, int64_t b, int64_t *q, int64_t *r)
{
    *q = a / b;
    *r = a % b;
    if (*r < 0) {
        *r += b;
        *q -= 1;
    }
}

int compare_relief_ratio(int64_t ra, int64_t ca, int64_t rb, int64_t cb)
{
    /* a/b vs c/d: compare the integer parts; when equal, the fractional parts
     * ra'/b vs rc'/d compare as the reciprocals d... reversed, so the descent
     * flips the sign at every level. */
    int64_t a = ra, b = ca, c = rb, d = cb;
    int sign = 1;
    for (;;) {
        int64_t qa, xa, qc, xc;
        floor_divmod(a, b, &qa, &xa);
        floor_divmod(c, d, &qc, &xc);
        if (qa != qc)
            return qa < qc ? -sign : sign;
        if (xa == 0 || xc == 0) {
            if (xa == xc)
                return 0;
            return xa == 0 ? -sign : sign;
        }
        /* xa/b vs xc/d  <=>  d/xc vs b/xa */
        a = b;
        b = xa;
        c = d;
        d = xc;
        sign = -sign;
    }
}
