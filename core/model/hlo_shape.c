/* hlo_shape: the HLO reader's shapes: TYPE[DIMS]{LAYOUT}, tuples of them,
 * token[]; and a shape read again as a tree (for following an output index
 * into a tuple-shaped node, §10's donated buffers). */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/vec.h"

/* ---- shapes ------------------------------------------------------------- */


/* TYPE[DIMS]{LAYOUT} or (S, S, ...), token[]; dims of an array go to dims
 * (room for 64) when it is not NULL.  In a signature (sig), a '{' after an
 * array is its layout only when no '=' comes before its '}' (otherwise it
 * opens the computation's body). */
int hlo_parse_shape(hp_t *p, shape_t *sh, int64_t *dims, bool sig, int depth)
{
    memset(sh, 0, sizeof *sh);
    int rc = hlo_skip_ws(p);
    if (rc)
        return rc;
    if (hlo_peek(p) == '(') {
        if (depth >= MAX_NEST / 4)
            return hlo_fail_at(p, hlo_here(p), "tuple shapes nested deeper than %d levels", MAX_NEST / 4);
        hlo_advance(p);
        if ((rc = hlo_skip_ws(p)))
            return rc;
        if (hlo_accept(p, ')'))
            return RS_OK;
        for (;;) {
            shape_t leaf;
            loc_t at = hlo_here(p);
            if ((rc = hlo_parse_shape(p, &leaf, NULL, false, depth + 1)))
                return rc;
            if (!checked_add(sh->bytes, leaf.bytes, &sh->bytes) || !checked_add(sh->elems, leaf.elems, &sh->elems))
                return hlo_fail_at(p, at, "the tuple's size overflows 64 bits");
            bool done;
            if ((rc = hlo_list_sep(p, ')', "',' or ')' in a tuple shape", &done)) || done)
                return rc;
        }
    }
    loc_t at = hlo_here(p);
    if (!hlo_name_start(hlo_peek(p)))
        return hlo_expected(p, "a shape (TYPE[DIMS] or a tuple)");
    size_t b = p->pos;
    while ((hlo_peek(p) >= 'a' && hlo_peek(p) <= 'z') || (hlo_peek(p) >= '0' && hlo_peek(p) <= '9'))
        p->pos++;
    size_t tl = p->pos - b;
    bool token = (tl == 5 && memcmp(p->s + b, "token", 5) == 0) || (tl == 6 && memcmp(p->s + b, "opaque", 6) == 0);
    int t = token ? -1 : dtype_lookup(p->s + b, tl);
    if (!token && (t < 0 || t == DT_I8 || t == DT_I32 || t == DT_I64)) /* §1's own names are not XLA's */
        return hlo_fail_at(p, at, "unknown element type '%.*s'", (int)(tl > 40 ? 40 : tl), p->s + b);
    if (!hlo_accept(p, '['))
        return hlo_expected(p, "'[' after the element type");
    int64_t elems = 1;
    int32_t nd = 0;
    if ((rc = hlo_skip_ws(p)))
        return rc;
    if (!hlo_accept(p, ']')) {
        for (;;) {
            if ((rc = hlo_skip_ws(p)))
                return rc;
            loc_t dat = hlo_here(p);
            if (hlo_peek(p) == '<' && p->pos + 1 < p->len && p->s[p->pos + 1] == '=')
                p->pos += 2; /* a bounded dynamic dim counts its bound */
            int64_t d = 0;
            if (hlo_peek(p) == '?')
                return hlo_fail_at(p, dat, "an unbounded dynamic dimension has no size");
            if ((rc = hlo_read_int(p, &d, "a dimension")))
                return rc;
            if (nd == 64)
                return hlo_fail_at(p, dat, "more than 64 dimensions");
            if (dims)
                dims[nd] = d;
            nd++;
            if (!checked_mul(elems, d, &elems))
                return hlo_fail_at(p, dat, "the shape's element count overflows 64 bits");
            bool done;
            if ((rc = hlo_list_sep(p, ']', "',' or ']' in the dimensions", &done)))
                return rc;
            if (done)
                break;
        }
    }
    if (token) {
        if (nd)
            return hlo_fail_at(p, at, "a token has no dimensions");
        return RS_OK;
    }
    sh->array = true;
    sh->dtype = (uint8_t)t;
    sh->elems = elems;
    sh->ndims = nd;
    if (!dtype_bytes((dtype_t)t, elems, &sh->bytes))
        return hlo_fail_at(p, at, "the shape's byte count overflows 64 bits");
    /* the layout, tiling and memory space are skipped */
    if (hlo_peek(p) == '{') {
        if (sig) {
            for (size_t i = p->pos + 1; i < p->len && p->s[i] != '}'; i++)
                if (p->s[i] == '=')
                    return RS_OK;
        }
        slice_t v;
        return hlo_skip_value(p, &v);
    }
    return RS_OK;
}

/* One shape of the tree at q's position (blanks before it skipped), its
 * node index in *at; a tuple's children go through the stack stk, so that
 * each tuple's children end up contiguous in t->kid. */
static int tree_node(hp_t *q, shape_tree_t *t, int32_t **stk, int32_t *n_stk, int32_t *cap_stk, int depth,
                     int32_t *at)
{
    int rc = hlo_skip_ws(q);
    if (rc)
        return rc;
    if (vec_reserve((void **)&t->node, &t->cap, (int64_t)t->n + 1, sizeof *t->node))
        return hlo_oom(q);
    int32_t me = t->n++;
    *at = me;
    if (hlo_peek(q) != '(') {
        shape_t sh;
        if ((rc = hlo_parse_shape(q, &sh, NULL, false, depth)))
            return rc;
        t->node[me] = (shape_node_t){ sh.array ? sh.bytes : 0, 0, sh.array ? -1 : -2 };
        return RS_OK;
    }
    if (depth >= MAX_NEST / 4)
        return hlo_fail_at(q, hlo_here(q), "tuple shapes nested deeper than %d levels", MAX_NEST / 4);
    hlo_advance(q);
    int32_t base = *n_stk;
    if ((rc = hlo_skip_ws(q)))
        return rc;
    if (!hlo_accept(q, ')'))
        for (bool done = false; !done;) {
            int32_t kid;
            if ((rc = tree_node(q, t, stk, n_stk, cap_stk, depth + 1, &kid)))
                return rc;
            if (vec_reserve((void **)stk, cap_stk, (int64_t)*n_stk + 1, sizeof **stk))
                return hlo_oom(q);
            (*stk)[(*n_stk)++] = kid;
            if ((rc = hlo_list_sep(q, ')', "',' or ')' in a tuple shape", &done)))
                return rc;
        }
    int32_t k = *n_stk - base;
    if (vec_reserve((void **)&t->kid, &t->cap_kid, (int64_t)t->n_kid + k, sizeof *t->kid))
        return hlo_oom(q);
    memcpy(t->kid + t->n_kid, *stk + base, (size_t)k * sizeof *t->kid);
    t->node[me] = (shape_node_t){ 0, t->n_kid, k };
    t->n_kid += k;
    *n_stk = base;
    return RS_OK;
}

int hlo_shape_tree(hp_t *p, size_t pos, shape_tree_t *t, int32_t *root)
{
    /* the shape was parsed once already: read again from a copy of the
     * parser, which cannot fail but for memory */
    hp_t q = *p;
    q.pos = pos;
    int32_t *stk = NULL, n_stk = 0, cap_stk = 0;
    int rc = tree_node(&q, t, &stk, &n_stk, &cap_stk, 0, root);
    free(stk);
    return rc;
}


int hlo_element_shape(hp_t *p, const ins_t *in, const int64_t *sel, int32_t n, shape_t *sh, int64_t *dims,
                      bool *found)
{
    /* read again from a copy of the parser: the shape was parsed once */
    hp_t q = *p;
    q.pos = in->shape_pos;
    *found = false;
    memset(sh, 0, sizeof *sh);
    int rc;
    for (int32_t d = 0; d < n; d++) {
        if ((rc = hlo_skip_ws(&q)))
            return rc;
        if (!hlo_accept(&q, '('))
            return RS_OK; /* an array or a token has no elements */
        for (int64_t k = 0; k < sel[d]; k++) {
            shape_t skip;
            bool done;
            if ((rc = hlo_skip_ws(&q)))
                return rc;
            if (hlo_peek(&q) == ')')
                return RS_OK;
            if ((rc = hlo_parse_shape(&q, &skip, NULL, false, 0)) ||
                (rc = hlo_list_sep(&q, ')', "',' or ')' in a tuple shape", &done)))
                return rc;
            if (done)
                return RS_OK;
        }
        if ((rc = hlo_skip_ws(&q)))
            return rc;
        if (hlo_peek(&q) == ')')
            return RS_OK;
    }
    if ((rc = hlo_parse_shape(&q, sh, dims, false, 0)))
        return rc;
    *found = true;
    return RS_OK;
}

int hlo_operand_shape(hp_t *p, const ins_t *in, int32_t k, shape_t *sh, int64_t *dims, bool *found)
{
    *found = false;
    memset(sh, 0, sizeof *sh);
    if (k >= in->nopd)
        return RS_OK;
    int32_t sel = p->opd_sel[in->opd_off + k];
    const ins_t *o = &p->ins[p->opds[in->opd_off + k]];
    if (sel < 0 && !o->array) {
        *sh = (shape_t){ false, o->dtype, o->bytes, o->elems, 0 };
        *found = true;
        return RS_OK;
    }
    return hlo_element_shape(p, o, sel < 0 ? NULL : p->sels + sel + 1, sel < 0 ? 0 : (int32_t)p->sels[sel], sh, dims,
                             found);
}
