/* hlo_val: what an instruction gives its readers (DESIGN §10): nodes read
 * whole, or tuples whose elements `#K` and get-tuple-element pick, read
 * whole through an explicit stack. */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

#define GROW(p, arr, n, cap, k) (vec_reserve((void **)&(arr), &(cap), (int64_t)(n) + (k), sizeof *(arr)) ? hlo_oom(p) : RS_OK)

static int budget_spent(hp_t *p, const ins_t *in)
{
    return hlo_fail_at(p, in->at, "tuples here expand to more operands than the file has bytes (nested too "
                                  "repetitively)");
}

/* ---- values ------------------------------------------------------------ */

static int val_new(hp_t *p, cmap_t *m, uint8_t kind, int32_t off, int32_t len, int32_t *out)
{
    int rc = GROW(p, m->vals, m->n_vals, m->cap_vals, 1);
    if (rc)
        return rc;
    m->vals[m->n_vals] = (val_t){ kind, off, len, -1 };
    *out = m->n_vals++;
    return RS_OK;
}

/* A value reading nodes n[0..k). */
int hlo_val_nodes(hp_t *p, cmap_t *m, const int32_t *n, int32_t k, int32_t *out)
{
    int rc = GROW(p, m->res, m->n_res, m->cap_res, k);
    if (rc)
        return rc;
    if (k)
        memcpy(m->res + m->n_res, n, (size_t)k * sizeof *n);
    m->n_res += k;
    return val_new(p, m, VAL_NODES, m->n_res - k, k, out);
}

int hlo_val_node(hp_t *p, cmap_t *m, int32_t node, int32_t *out) { return hlo_val_nodes(p, m, &node, 1, out); }

/* A tuple of values kids[0..k). */
int hlo_val_tuple(hp_t *p, cmap_t *m, const int32_t *kids, int32_t k, int32_t *out)
{
    int rc = GROW(p, m->kid, m->n_kid, m->cap_kid, k);
    if (rc)
        return rc;
    if (k)
        memcpy(m->kid + m->n_kid, kids, (size_t)k * sizeof *kids);
    m->n_kid += k;
    return val_new(p, m, VAL_TUPLE, m->n_kid - k, k, out);
}

int hlo_val_element(hp_t *p, cmap_t *m, int32_t v, int64_t k, const ins_t *in, int32_t *out)
{
    const val_t *x = &m->vals[v];
    if (x->kind != VAL_TUPLE) {
        *out = v; /* a tuple-shaped node is one buffer: any element reads it whole */
        return RS_OK;
    }
    if (k >= x->len)
        return hlo_fail_at(p, in->at, in->cls == OPC_GTE ? "index=%lld of a tuple of %d" : "#%lld of a tuple of %d",
                           (long long)k, (int)x->len);
    *out = m->kid[x->off + k];
    return RS_OK;
}

int hlo_val_flatten(hp_t *p, cmap_t *m, int32_t v, const ins_t *in)
{
    /* an explicit stack: tuples may nest as deep as the file is long */
    int32_t *stk = NULL, n = 0, cap = 0;
    int rc = GROW(p, stk, n, cap, 1);
    m->n_tmp = 0;
    if (!rc)
        stk[n++] = v;
    while (!rc && n) {
        const val_t *x = &m->vals[stk[--n]];
        if (m->budget-- <= 0) {
            rc = budget_spent(p, in);
            break;
        }
        if (x->whole >= 0) {
            stk[n++] = x->whole;
            continue;
        }
        if (x->kind == VAL_NODES) {
            if ((rc = GROW(p, m->tmp, m->n_tmp, m->cap_tmp, x->len)))
                break;
            for (int32_t i = 0; i < x->len; i++)
                m->tmp[m->n_tmp++] = m->res[x->off + i];
            if ((m->budget -= x->len) < 0)
                rc = budget_spent(p, in);
            continue;
        }
        if ((rc = GROW(p, stk, n, cap, x->len)))
            break;
        for (int32_t i = x->len - 1; i >= 0; i--)
            stk[n++] = m->kid[x->off + i];
    }
    free(stk);
    return rc;
}

