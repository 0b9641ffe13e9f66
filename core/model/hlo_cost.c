/* hlo_cost: the FLOP rules of DESIGN §10, an instruction's own and those
 * through the computations it calls. */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

/* A convolution's FLOPs (§10): 2 × its output's elements × the kernel's
 * elements ÷ the kernel's output-feature dim, read from dim_labels
 * (b01f_01io->b01f: the kernel's labels sit between '_' and "->"). */
static bool conv_flops(const hp_t *p, int64_t out_elems, const shape_t *kern, const int64_t *kdims, slice_t dim_labels,
                       int64_t *c)
{
    int64_t o = 1;
    if (kern->array && dim_labels.len) {
        const char *s = p->s + dim_labels.off, *us = memchr(s, '_', dim_labels.len);
        if (us) {
            size_t k = 0;
            for (const char *q = us + 1; q < s + dim_labels.len && *q != '-'; q++, k++)
                if (*q == 'o' && (int32_t)k < kern->ndims)
                    o = kdims[k];
        }
    }
    return checked_mul(2, out_elems, c) && checked_mul(*c, o ? kern->elems / o : 0, c);
}

/* The numbers of "lhs_contracting_dimensions":["0","2"] in a cuBLAS call's
 * backend_config (gemm_backend_config.dot_dimension_numbers), into
 * contract (room for 64); the same rule as a dot's lhs_contracting_dims. */
static int gemm_contracting(hp_t *p, const ins_t *in, slice_t backend, int64_t *contract, int32_t *n)
{
    static const char KEY[] = "\"lhs_contracting_dimensions\"";
    const char *s = p->s + backend.off, *e = s + backend.len, *k = NULL;
    *n = 0;
    for (const char *q = s; q + sizeof KEY - 1 <= e; q++)
        if (memcmp(q, KEY, sizeof KEY - 1) == 0) {
            k = q + sizeof KEY - 1;
            break;
        }
    if (!k)
        return RS_OK;
    while (k < e && *k != '[' && *k != '}')
        k++;
    for (k++; k < e && *k != ']'; k++) {
        if (*k < '0' || *k > '9')
            continue;
        int64_t d = 0;
        for (; k < e && *k >= '0' && *k <= '9'; k++)
            if (!checked_mul(d, 10, &d) || !checked_add(d, *k - '0', &d))
                return hlo_fail_at(p, in->at, "lhs_contracting_dimensions out of range (more than 63 bits)");
        if (*n == 64)
            return hlo_fail_at(p, in->at, "lhs_contracting_dimensions names more than 64 dimensions");
        contract[(*n)++] = d;
        k--;
    }
    return RS_OK;
}

/* A dot's FLOPs: 2 × the result's elements × the product of the lhs's
 * contracting dims. */
static int dot_flops(hp_t *p, const ins_t *in, int64_t out_elems, const int64_t *contract, int32_t n_contract,
                     int64_t *c, bool *ok)
{
    shape_t a;
    int64_t adims[64];
    bool found;
    int rc = hlo_operand_shape(p, in, 0, &a, adims, &found);
    if (rc)
        return rc;
    int64_t k = 1;
    for (int32_t i = 0; i < n_contract; i++) {
        if (!found || !a.array || contract[i] >= a.ndims)
            return hlo_fail_at(p, in->at, "the contracting dims name dimension %lld, which the lhs lacks",
                               (long long)contract[i]);
        *ok = *ok && checked_mul(k, adims[contract[i]], &k);
    }
    *ok = *ok && checked_mul(2, out_elems, c) && checked_mul(*c, k, c);
    return RS_OK;
}

/* A cuBLAS or cuDNN call's FLOPs, as the dot or convolution it performs. */
static int library_flops(hp_t *p, const ins_t *in, slice_t dim_labels, slice_t backend, int64_t *c, bool *ok)
{
    static const int64_t FIRST[1] = { 0 };
    shape_t first, kern;
    int64_t fdims[64], kdims[64];
    bool found;
    int rc = hlo_element_shape(p, in, FIRST, in->array ? 0 : 1, &first, fdims, &found);
    if (rc)
        return rc;
    if (!found)
        first = (shape_t){ 0 };
    if (in->lib == LIB_GEMM) {
        int64_t contract[64];
        int32_t n;
        if ((rc = gemm_contracting(p, in, backend, contract, &n)))
            return rc;
        return dot_flops(p, in, first.elems, contract, n, c, ok);
    }
    int64_t out = first.elems;
    if (in->lib == LIB_CONV_BWD_FILTER) {
        /* the kernel is what it computes; the output is its operand 1 */
        kern = first;
        memcpy(kdims, fdims, sizeof kdims);
        shape_t o;
        if ((rc = hlo_operand_shape(p, in, 1, &o, fdims, &found)))
            return rc;
        out = found ? o.elems : 0;
    } else {
        if ((rc = hlo_operand_shape(p, in, 1, &kern, kdims, &found)))
            return rc;
        if (!found)
            kern = (shape_t){ 0 };
        if (in->lib == LIB_CONV_BWD_INPUT) {
            shape_t o;
            if ((rc = hlo_operand_shape(p, in, 0, &o, fdims, &found)))
                return rc;
            out = found ? o.elems : 0;
        }
    }
    *ok = *ok && conv_flops(p, out, &kern, kdims, dim_labels, c);
    return RS_OK;
}

/* The instruction's own cost by the rules that need no other computation. */
int hlo_cost_direct(hp_t *p, ins_t *in, const int64_t *contract, int32_t n_contract, slice_t dim_labels,
                    slice_t window, slice_t backend)
{
    int64_t c = 0;
    bool ok = true, found;
    int rc = RS_OK;
    shape_t a;
    int64_t dims[64];
    switch (in->cls) {
    case OPC_PARAMETER: case OPC_CONSTANT: case OPC_TUPLE: case OPC_GTE: case OPC_ALIAS_FIRST: case OPC_AFTER_ALL:
    case OPC_FUSION: case OPC_WHILE: case OPC_CONDITIONAL: case OPC_CALL:
        c = 0;
        break;
    case OPC_DOT:
        rc = dot_flops(p, in, in->elems, contract, n_contract, &c, &ok);
        break;
    case OPC_CONV:
        if (!(rc = hlo_operand_shape(p, in, 1, &a, dims, &found)))
            ok = conv_flops(p, in->elems, found ? &a : &(shape_t){ 0 }, dims, dim_labels, &c);
        break;
    case OPC_REDUCE:
        if (!(rc = hlo_operand_shape(p, in, 0, &a, dims, &found)))
            c = found ? a.elems : 0;
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
        if (!(rc = hlo_operand_shape(p, in, 0, &a, dims, &found)))
            ok = ok && checked_mul(found ? a.elems : 0, w, &c);
        break;
    }
    case OPC_CUSTOM:
        if (in->lib != LIB_NONE) {
            rc = library_flops(p, in, dim_labels, backend, &c, &ok);
            break;
        }
        c = in->elems;
        break;
    default:
        c = in->elems;
    }
    if (rc)
        return rc;
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

/* A `call` is pinned when its computation pins (§10); a computation pins
 * when it holds a pinned instruction, a call of one or a fusion of one. */
static void note_pins(hp_t *p, comp_t *c, ins_t *in)
{
    bool callee_pins = false;
    if (in->cls == OPC_CALL || in->cls == OPC_FUSION)
        for (int32_t k = 0; k < in->nref; k++) {
            int32_t ci;
            if (called(p, in, k, &ci) == RS_OK && p->comps[ci].pins)
                callee_pins = true;
        }
    if (in->cls == OPC_CALL)
        in->pinned = callee_pins;
    if (in->pinned || callee_pins)
        c->pins = true;
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
    int32_t n_post = 0;
    p->post = malloc(((size_t)p->n_comps + 1) * sizeof *p->post);
    if (!stack || !next || !p->post) {
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
                    if (!rc)
                        note_pins(p, c, in);
                    if (!rc && !checked_add(c->cost, in->cost, &c->cost))
                        rc = hlo_fail_at(p, in->at, "the cost of computation '%.*s' overflows 64 bits", (int)c->name.len,
                                     p->s + c->name.off);
                    next[ci]++;
                }
            }
            if (!pushed && !rc) {
                c->state = 2;
                p->post[n_post++] = ci;
                sp--;
            }
        }
    }
    free(stack);
    free(next);
    return rc;
}
