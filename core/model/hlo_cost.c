/* hlo_cost: the FLOP rules of DESIGN §10, an instruction's own and those
 * through the computations it calls. */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

/* The instruction's own cost by the rules that need no other computation. */
int hlo_cost_direct(hp_t *p, ins_t *in, const int64_t *contract, int32_t n_contract, slice_t dim_labels,
                       slice_t window)
{
    int64_t c = 0;
    const ins_t *a = hlo_operand(p, in, 0), *b = hlo_operand(p, in, 1);
    bool ok = true;
    switch (in->cls) {
    case OPC_PARAMETER: case OPC_CONSTANT: case OPC_TUPLE: case OPC_GTE: case OPC_ALIAS_FIRST: case OPC_AFTER_ALL:
    case OPC_FUSION: case OPC_WHILE: case OPC_CONDITIONAL: case OPC_CALL:
        c = 0;
        break;
    case OPC_DOT: {
        int64_t k = 1;
        for (int32_t i = 0; i < n_contract; i++) {
            if (!a || !a->array || contract[i] >= a->ndims)
                return hlo_fail_at(p, in->at, "lhs_contracting_dims names dimension %lld, which the lhs lacks",
                               (long long)contract[i]);
            ok = ok && checked_mul(k, p->dims[a->dim_off + contract[i]], &k);
        }
        ok = ok && checked_mul(2, in->elems, &c) && checked_mul(c, k, &c);
        break;
    }
    case OPC_CONV: {
        int64_t kern = b ? b->elems : 0, o = 1;
        /* dim_labels=b01f_01io->b01f: the kernel's labels sit between '_'
         * and "->"; 'o' is its output-feature dim */
        if (b && b->array && dim_labels.len) {
            const char *s = p->s + dim_labels.off, *us = memchr(s, '_', dim_labels.len);
            if (us) {
                size_t k = 0;
                for (const char *q = us + 1; q < s + dim_labels.len && *q != '-'; q++, k++)
                    if (*q == 'o' && (int32_t)k < b->ndims)
                        o = p->dims[b->dim_off + (int32_t)k];
            }
        }
        ok = checked_mul(2, in->elems, &c) && checked_mul(c, o ? kern / o : 0, &c);
        break;
    }
    case OPC_REDUCE:
        c = a ? a->elems : 0;
        break;
    case OPC_REDUCE_WINDOW: {
        int64_t w = 1;
        if (window.len) {
            /* size=3x3 */
            for (size_t i = window.off; i + 5 <= window.off + window.len; i++) {
                if (memcmp(p->s + i, "size=", 5) != 0 || (i > window.off && p->s[i - 1] != ' ' && p->s[i - 1] != '{'))
                    continue;
                size_t j = i + 5;
                while (j < window.off + window.len && p->s[j] >= '0' && p->s[j] <= '9') {
                    int64_t d = 0;
                    /* j advances outside the && chain: an overflow must not stall the scan */
                    for (; j < window.off + window.len && p->s[j] >= '0' && p->s[j] <= '9'; j++)
                        ok = ok && checked_mul(d, 10, &d) && checked_add(d, p->s[j] - '0', &d);
                    ok = ok && checked_mul(w, d, &w);
                    if (j < window.off + window.len && p->s[j] == 'x')
                        j++;
                }
                break;
            }
        }
        ok = ok && checked_mul(a ? a->elems : 0, w, &c);
        break;
    }
    default:
        c = in->elems;
    }
    if (!ok)
        return hlo_fail_at(p, in->at, "the cost of '%.*s' overflows 64 bits", (int)in->name.len, p->s + in->name.off);
    in->cost = c;
    return RS_OK;
}

/* ---- costs through called computations ------------------------------------ */

static int called(hp_t *p, const ins_t *in, int32_t k, int32_t *ci)
{
    slice_t r = p->refs[in->ref_off + k];
    *ci = strmap_get(p->comp_names, p->s + r.off, r.len);
    if (*ci < 0)
        return hlo_fail_at(p, in->ref_at, "no computation named '%.*s'", (int)(r.len > 80 ? 80 : r.len), p->s + r.off);
    return RS_OK;
}

/* The cost of an instruction that calls computations, whose costs are
 * known. */
static int call_cost(hp_t *p, ins_t *in)
{
    int64_t c = 0;
    bool ok = true;
    for (int32_t k = 0; k < in->nref; k++) {
        int32_t ci;
        int rc = called(p, in, k, &ci);
        if (rc)
            return rc;
        int64_t x = p->comps[ci].cost;
        if (in->cls == OPC_CONDITIONAL)
            c = x > c ? x : c;
        else
            ok = ok && checked_add(c, x, &c);
    }
    if (in->cls == OPC_WHILE)
        ok = ok && checked_mul(c, in->trip, &c);
    if (!ok)
        return hlo_fail_at(p, in->at, "the cost of '%.*s' overflows 64 bits", (int)in->name.len, p->s + in->name.off);
    in->cost = c;
    return RS_OK;
}

static bool calls_out(const ins_t *in)
{
    return in->cls == OPC_FUSION || in->cls == OPC_WHILE || in->cls == OPC_CONDITIONAL || in->cls == OPC_CALL;
}

/* Costs every computation, callees first, with an explicit stack (a chain
 * of calls may be as long as the file); a computation that calls itself is
 * an error. */
int hlo_cost_calls(hp_t *p)
{
    int32_t *stack = malloc(((size_t)p->n_comps + 1) * sizeof *stack);
    int32_t *next = calloc((size_t)p->n_comps + 1, sizeof *next); /* the instruction each resumes at */
    if (!stack || !next) {
        free(stack);
        free(next);
        return hlo_oom(p);
    }
    int rc = RS_OK;
    for (int32_t root = 0; root < p->n_comps && !rc; root++) {
        if (p->comps[root].state)
            continue;
        int32_t sp = 0;
        stack[sp++] = root;
        p->comps[root].state = 1;
        while (sp && !rc) {
            int32_t ci = stack[sp - 1];
            comp_t *c = &p->comps[ci];
            bool pushed = false;
            while (next[ci] < c->n && !pushed && !rc) {
                ins_t *in = &p->ins[c->first + next[ci]];
                for (int32_t k = 0; calls_out(in) && k < in->nref && !pushed && !rc; k++) {
                    int32_t cj;
                    if ((rc = called(p, in, k, &cj)))
                        break;
                    if (p->comps[cj].state == 1)
                        rc = hlo_fail_at(p, in->ref_at, "computation '%.*s' calls itself", (int)p->comps[cj].name.len,
                                     p->s + p->comps[cj].name.off);
                    else if (p->comps[cj].state == 0) {
                        p->comps[cj].state = 1;
                        stack[sp++] = cj;
                        pushed = true;
                    }
                }
                if (!pushed && !rc) {
                    if (calls_out(in))
                        rc = call_cost(p, in);
                    if (!rc && !checked_add(c->cost, in->cost, &c->cost))
                        rc = hlo_fail_at(p, in->at, "the cost of computation '%.*s' overflows 64 bits", (int)c->name.len,
                                     p->s + c->name.off);
                    next[ci]++;
                }
            }
            if (!pushed && !rc) {
                c->state = 2;
                sp--;
            }
        }
    }
    free(stack);
    free(next);
    return rc;
}
