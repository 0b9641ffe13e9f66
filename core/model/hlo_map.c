/* hlo_map: a computation's instructions mapped to nodes and steps by
 * DESIGN §10's rules: aliases and `#K` resolved through values, a `while`
 * in place, library calls with their scratch, the leaves of a multi-output
 * fusion, results written in place into an operand, async pairs, and the
 * working memory of the computations a `while`, `conditional` or pinned
 * `call` runs.  The ENTRY's map is written as §1 text (hlo_emit.c); a
 * callee's gives its live peak. */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/vec.h"

#define GROW(p, arr, n, cap, k) (vec_reserve((void **)&(arr), &(cap), (int64_t)(n) + (k), sizeof *(arr)) ? hlo_oom(p) : RS_OK)


/* The value of in's operand k: its instruction's, then each `#K`. */
static int operand_val(hp_t *p, cmap_t *m, const ins_t *in, int32_t k, int32_t *out)
{
    int32_t v = m->val_of[p->opds[in->opd_off + k] - m->c->first];
    int32_t sel = p->opd_sel[in->opd_off + k];
    for (int64_t d = 0; sel >= 0 && d < p->sels[sel]; d++) {
        int rc = hlo_val_element(p, m, v, p->sels[sel + 1 + d], in, &v);
        if (rc)
            return rc;
    }
    *out = v;
    return RS_OK;
}

/* ---- nodes and steps ----------------------------------------------------- */

static bool resident(const mnode_t *nd) { return nd->kind == MN_PARAM || nd->kind == MN_CONST; }

/* A new node of instruction in holding bytes; with dims, an array of that
 * shape (ndims of dims). */
static int node_new(hp_t *p, cmap_t *m, const ins_t *in, uint8_t kind, int64_t bytes, const shape_t *sh,
                    const int64_t *dims, int32_t *out)
{
    int rc = GROW(p, m->nodes, m->n_nodes, m->cap_nodes, 1);
    if (rc)
        return rc;
    mnode_t *nd = &m->nodes[m->n_nodes];
    memset(nd, 0, sizeof *nd);
    nd->ins = (int32_t)(in - p->ins);
    nd->kind = kind;
    nd->bytes = bytes;
    nd->first = nd->last = nd->don_step = -1;
    nd->dim_off = m->n_dims;
    if (sh && sh->array) {
        if ((rc = GROW(p, m->dims, m->n_dims, m->cap_dims, sh->ndims + 1)))
            return rc;
        if (sh->ndims) /* a scalar's dims may be no array at all */
            memcpy(m->dims + m->n_dims, dims, (size_t)sh->ndims * sizeof *dims);
        m->n_dims += sh->ndims;
        nd->array = true;
        nd->dtype = sh->dtype;
        nd->ndims = sh->ndims;
    }
    *out = m->n_nodes++;
    return RS_OK;
}

/* The node of an instruction whose whole shape it holds. */
static int node_of_ins(hp_t *p, cmap_t *m, const ins_t *in, uint8_t kind, int64_t bytes, int32_t *out)
{
    shape_t sh = { in->array, in->dtype, in->bytes, in->elems, in->ndims };
    return node_new(p, m, in, kind, bytes, &sh, p->dims + in->dim_off, out);
}

static int seq_push(hp_t *p, cmap_t *m, int32_t v)
{
    int rc = GROW(p, m->seq, m->n_seq, m->cap_seq, 1);
    if (!rc)
        m->seq[m->n_seq++] = v;
    return rc;
}

/* A step defining node (a further definition when accum), reading
 * args[0..n). */
static int step_new(hp_t *p, cmap_t *m, const ins_t *in, int32_t node, uint8_t op, int64_t cost, bool accum,
                    const int32_t *args, int32_t n)
{
    int rc = GROW(p, m->steps, m->n_steps, m->cap_steps, 1);
    if (rc || (rc = GROW(p, m->args, m->n_args, m->cap_args, n)) || (rc = seq_push(p, m, m->n_steps)))
        return rc;
    int32_t s = m->n_steps++;
    m->steps[s] = (mstep_t){ node, (int32_t)(in - p->ins), m->n_args, n, cost, accum, op };
    for (int32_t i = 0; i < n; i++) {
        m->args[m->n_args++] = args[i];
        m->nodes[args[i]].last = s;
    }
    mnode_t *nd = &m->nodes[node];
    if (nd->first < 0)
        nd->first = nd->don_step = s;
    nd->last = s;
    return RS_OK;
}

/* The nodes every operand of in reads, in order, repeats kept, then
 * extra[0..n_extra): a new array in *out. */
static int operand_nodes(hp_t *p, cmap_t *m, const ins_t *in, const int32_t *extra, int32_t n_extra, int32_t **out,
                         int32_t *n)
{
    int32_t *all = NULL, na = 0, cap = 0;
    int rc = RS_OK;
    for (int32_t k = 0; k < in->nopd && !rc; k++) {
        int32_t v;
        if ((rc = operand_val(p, m, in, k, &v)) || (rc = hlo_val_flatten(p, m, v, in)) ||
            (rc = GROW(p, all, na, cap, m->n_tmp)))
            break;
        if (m->n_tmp)
            memcpy(all + na, m->tmp, (size_t)m->n_tmp * sizeof *all);
        na += m->n_tmp;
    }
    if (!rc && !(rc = GROW(p, all, na, cap, n_extra + 1)) && n_extra)
        memcpy(all + na, extra, (size_t)n_extra * sizeof *all);
    if (rc) {
        free(all);
        return rc;
    }
    *out = all;
    *n = na + n_extra;
    return RS_OK;
}

/* ---- the rules -------------------------------------------------------------- */

/* The instruction behind bitcasts. */
static const ins_t *through_bitcasts(const hp_t *p, const ins_t *x)
{
    while (x && x->cls == OPC_ALIAS_FIRST && hlo_slice_is(p, x->op, "bitcast") && x->nopd)
        x = hlo_operand(p, x, 0);
    return x;
}

static const ins_t *root_of(const hp_t *p, const comp_t *c)
{
    for (int32_t k = 0; k < c->n; k++)
        if (p->ins[c->first + k].root)
            return &p->ins[c->first + k];
    return &p->ins[c->first + c->n - 1];
}

/* Which operand a fused instruction x (a fusion's output) writes into, in
 * place: a dynamic-update-slice's or one-input scatter's operand 0 that is
 * the fusion's parameter i (through bitcasts); -1 when none. */
static int32_t fused_inplace(const hp_t *p, const ins_t *x)
{
    x = through_bitcasts(p, x);
    if (!x || !(x->cls == OPC_DUS || (x->cls == OPC_SCATTER && x->nopd == 3)))
        return -1;
    const ins_t *o = through_bitcasts(p, hlo_operand(p, x, 0));
    return o && o->cls == OPC_PARAMETER && o->index >= 0 && o->index < INT32_MAX ? (int32_t)o->index : -1;
}

/* The operand in writes output element elem into (-1: the whole output),
 * by §10's "In place" rules; -1 when none. */
static int32_t inplace_operand(hp_t *p, const ins_t *in, int32_t elem)
{
    for (int32_t k = 0; k < in->n_oto; k++) {
        const oto_pair_t *o = &p->oto[in->oto_off + k];
        if (o->out == elem || (elem <= 0 && o->out == -1 && in->lib != LIB_NONE) ||
            (elem == -1 && o->out == 0 && in->lib != LIB_NONE))
            return o->opd < in->nopd ? o->opd : -1;
    }
    if (elem == -1 && (in->cls == OPC_DUS || (in->cls == OPC_SCATTER && in->nopd == 3)))
        return 0;
    if (in->cls != OPC_FUSION || in->nref < 1)
        return -1;
    int32_t ci = strmap_get(p->comp_names, p->s + p->refs[in->ref_off].off, p->refs[in->ref_off].len);
    if (ci < 0)
        return -1;
    const ins_t *r = root_of(p, &p->comps[ci]);
    if (elem >= 0) {
        if (r->cls != OPC_TUPLE || elem >= r->nopd)
            return -1;
        r = hlo_operand(p, r, elem);
    }
    int32_t i = fused_inplace(p, r);
    return i < in->nopd ? i : -1;
}

/* The node operand k resolves to when it is exactly one non-resident node
 * (what an in-place output becomes a definition of), else -1. */
static int inplace_target(hp_t *p, cmap_t *m, const ins_t *in, int32_t k, int32_t *x)
{
    *x = -1;
    if (k < 0)
        return RS_OK;
    int32_t v;
    int rc = operand_val(p, m, in, k, &v);
    if (rc || (rc = hlo_val_flatten(p, m, v, in)))
        return rc;
    if (m->n_tmp == 1 && !resident(&m->nodes[m->tmp[0]]))
        *x = m->tmp[0];
    return RS_OK;
}

/* The working memory of the computations in calls (§10): the largest. */
static int64_t work_of(hp_t *p, const ins_t *in)
{
    int64_t w = 0;
    for (int32_t k = 0; k < in->nref; k++) {
        slice_t r = p->refs[in->ref_off + k];
        int32_t ci = strmap_get(p->comp_names, p->s + r.off, r.len);
        if (ci >= 0 && p->comps[ci].work > w)
            w = p->comps[ci].work;
    }
    return w;
}

/* The elements of a tuple-shaped instruction's shape (its top level). */
static int elements(hp_t *p, const ins_t *in, shape_tree_t *t, int32_t *root)
{
    return hlo_shape_tree(p, in->shape_pos, t, root);
}

static int element_shape(hp_t *p, const ins_t *in, int64_t k, shape_t *sh, int64_t *dims)
{
    bool found;
    int rc = hlo_element_shape(p, in, &k, 1, sh, dims, &found);
    if (!rc && !found)
        *sh = (shape_t){ 0 };
    return rc;
}

/* A plain node: its own step reads every operand (and extra[0..n_extra)
 * after them); in place into an operand's node, a further definition of
 * it.  *node the node the step defines. */
static int plain(hp_t *p, cmap_t *m, const ins_t *in, int64_t bytes, const shape_t *sh, const int64_t *dims,
                 int32_t target, const int32_t *extra, int32_t n_extra, uint8_t op, int32_t *node)
{
    int32_t *args, na;
    int rc = operand_nodes(p, m, in, extra, n_extra, &args, &na);
    if (rc)
        return rc;
    if (target >= 0) {
        *node = target;
    } else if (sh) {
        rc = node_new(p, m, in, MN_NODE, bytes, sh, dims, node);
    } else {
        rc = node_of_ins(p, m, in, MN_NODE, bytes, node);
    }
    if (!rc) {
        m->nodes[*node].pinned |= target < 0 && in->pinned;
        rc = step_new(p, m, in, *node, op, in->cost, target >= 0, args, na);
    }
    free(args);
    return rc;
}

/* A node of its own step with no arguments, cost 1 (a scratch, a leaf, a
 * callee's working memory), pinned. */
static int side_node(hp_t *p, cmap_t *m, const ins_t *in, uint8_t kind, uint8_t op, int64_t bytes, const shape_t *sh,
                     const int64_t *dims, int32_t *node)
{
    int rc = node_new(p, m, in, kind, bytes, sh, dims, node);
    if (!rc) {
        m->nodes[*node].pinned = true;
        rc = step_new(p, m, in, *node, op, 1, false, NULL, 0);
    }
    return rc;
}

/* A multi-output fusion: a node a leaf (in place ones a further
 * definition of their operand's node), element 0 defined by the fusion's
 * own step, which reads the others after its operands. */
static int fusion_leaves(hp_t *p, cmap_t *m, const ins_t *in, int32_t *val)
{
    shape_tree_t t = { 0 };
    int32_t root, *leaf = NULL, *kids = NULL, *extra = NULL, ne = 0;
    int rc = elements(p, in, &t, &root);
    int32_t n = rc || t.node[root].n_kids < 0 ? 0 : t.node[root].n_kids; /* a token: -2, no elements */
    if (!rc && (!(leaf = malloc(((size_t)n + 1) * sizeof *leaf)) || !(kids = malloc(((size_t)n + 1) * sizeof *kids)) ||
                !(extra = malloc(((size_t)n + 1) * sizeof *extra))))
        rc = hlo_oom(p);
    int32_t x0 = -1;
    if (!rc && n)
        rc = inplace_target(p, m, in, inplace_operand(p, in, 0), &x0);
    /* the elements' shapes read in one pass (a fusion may have 200k leaves) */
    hp_t q = *p;
    q.pos = in->shape_pos;
    if (!rc && (rc = hlo_skip_ws(&q)) == RS_OK && !hlo_accept(&q, '('))
        n = 0;
    shape_t sh0 = { 0 };
    int64_t dims0[64];
    if (!rc && n && !(rc = hlo_parse_shape(&q, &sh0, dims0, false, 0))) {
        bool done;
        rc = hlo_list_sep(&q, ')', "',' or ')' in a tuple shape", &done);
    }
    for (int32_t k = 1; k < n && !rc; k++) {
        shape_t sh;
        int64_t dims[64];
        bool done;
        if ((rc = hlo_parse_shape(&q, &sh, dims, false, 0)) ||
            (k + 1 < n && (rc = hlo_list_sep(&q, ')', "',' or ')' in a tuple shape", &done))))
            break;
        const shape_node_t *e = &t.node[t.kid[t.node[root].kids + k]];
        int32_t x;
        leaf[k] = -1;
        if (e->n_kids == -2)
            continue; /* a token */
        if ((rc = inplace_target(p, m, in, inplace_operand(p, in, k), &x)))
            break;
        if (x >= 0) {
            leaf[k] = x;
            rc = step_new(p, m, in, x, MOP_LEAF, 1, true, NULL, 0);
        } else {
            rc = side_node(p, m, in, MN_LEAF, MOP_LEAF, sh.array ? sh.bytes : e->bytes, &sh, dims, &leaf[k]);
            if (!rc)
                m->nodes[leaf[k]].leaf = k;
        }
        if (!rc)
            extra[ne++] = leaf[k];
    }
    int32_t main = -1;
    if (!rc) {
        const shape_node_t *e0 = n ? &t.node[t.kid[t.node[root].kids]] : NULL;
        if (n && !sh0.array)
            sh0.bytes = e0->n_kids == -2 ? 0 : e0->bytes;
        rc = plain(p, m, in, sh0.bytes, &sh0, dims0, x0, extra, ne, MOP_INS, &main);
    }
    for (int32_t k = 0; k < n && !rc; k++) {
        int32_t who = k ? leaf[k] : main;
        rc = who >= 0 ? hlo_val_node(p, m, who, &kids[k]) : hlo_val_nodes(p, m, NULL, 0, &kids[k]);
    }
    for (int32_t k = 1; k < n && !rc; k++)
        if (leaf[k] >= 0)
            m->nodes[leaf[k]].don_step = m->nodes[main].last;
    if (!rc)
        rc = hlo_val_tuple(p, m, kids, n, val);
    free(t.node);
    free(t.kid);
    free(leaf);
    free(kids);
    free(extra);
    return rc;
}

/* A cuBLAS or cuDNN call: pure; the last element of a tuple shape that is
 * a rank-1 s8/u8 array is its scratch, a pinned node of its own defined
 * just before it and read by it last. */
static int library_call(hp_t *p, cmap_t *m, const ins_t *in, int32_t *val)
{
    shape_tree_t t = { 0 };
    int32_t root, node, scratch = -1;
    int rc = in->array ? RS_OK : elements(p, in, &t, &root);
    int32_t n = in->array || rc ? 0 : t.node[root].n_kids;
    shape_t last = { 0 }, first = { 0 };
    int64_t dims[64], fdims[64];
    if (!rc && n >= 2 && !(rc = element_shape(p, in, n - 1, &last, dims)) && last.array && last.ndims == 1 &&
        (last.dtype == DT_S8 || last.dtype == DT_U8))
        rc = side_node(p, m, in, MN_SCRATCH, MOP_SCRATCH, last.bytes, &last, dims, &scratch);
    if (!rc && scratch >= 0 && n == 2)
        rc = element_shape(p, in, 0, &first, fdims);
    int32_t target = -1;
    if (!rc)
        rc = inplace_target(p, m, in, inplace_operand(p, in, -1), &target);
    if (!rc) {
        int64_t bytes = in->bytes - (scratch >= 0 ? last.bytes : 0);
        shape_t none = { 0 };
        rc = plain(p, m, in, bytes, scratch < 0 ? NULL : first.array ? &first : &none, fdims, target,
                   scratch >= 0 ? &scratch : NULL, scratch >= 0, MOP_INS, &node);
    }
    if (!rc)
        rc = hlo_val_node(p, m, node, val);
    free(t.node);
    free(t.kid);
    return rc;
}

/* A `while` in place: one pinned step holding the body's working memory,
 * reading its operand; its result is its operand's value, whose nodes
 * hold the loop's state (pinned). */
static int while_loop(hp_t *p, cmap_t *m, const ins_t *in, int32_t *val)
{
    int32_t v, node;
    int rc = operand_val(p, m, in, 0, &v);
    if (rc || (rc = hlo_val_flatten(p, m, v, in)))
        return rc;
    for (int32_t i = 0; i < m->n_tmp; i++)
        if (!resident(&m->nodes[m->tmp[i]]))
            m->nodes[m->tmp[i]].pinned = true;
    shape_t none = { 0 };
    if ((rc = plain(p, m, in, work_of(p, in), &none, NULL, -1, NULL, 0, MOP_INS, &node)))
        return rc;
    m->nodes[node].pinned = true;
    *val = v;
    return RS_OK;
}

/* An async-start: element 0 its operands, the rest one pinned node; read
 * whole, its operands and that node once. */
static int async_start(hp_t *p, cmap_t *m, const ins_t *in, int32_t k, int32_t *val)
{
    shape_tree_t t = { 0 };
    int32_t root, node, ops, whole, *kids = NULL;
    int rc = elements(p, in, &t, &root);
    int32_t n = rc || t.node[root].n_kids < 0 ? 0 : t.node[root].n_kids; /* a token: -2, no elements */
    int64_t first = 0;
    if (!rc && n >= 1) {
        /* element 0, its operands, holds no bytes of its own */
        shape_t sh;
        int64_t dims[64];
        if (!(rc = element_shape(p, in, 0, &sh, dims)))
            first = sh.bytes;
    }
    if (!rc && !(kids = malloc(((size_t)in->nopd + (size_t)n + 2) * sizeof *kids)))
        rc = hlo_oom(p);
    shape_t none = { 0 };
    if (!rc)
        rc = plain(p, m, in, in->bytes - first, &none, NULL, -1, NULL, 0, MOP_ASYNC_START, &node);
    for (int32_t a = 0; a < in->nopd && !rc; a++)
        rc = operand_val(p, m, in, a, &kids[a]);
    if (!rc)
        rc = hlo_val_tuple(p, m, kids, in->nopd, &ops);
    int32_t me = -1;
    if (!rc)
        rc = hlo_val_node(p, m, node, &me);
    if (!rc) {
        kids[0] = ops;
        for (int32_t e = 1; e < n; e++)
            kids[e] = me;
        rc = hlo_val_tuple(p, m, kids, n ? n : 1, val);
    }
    if (!rc) {
        int32_t w[2] = { ops, me };
        rc = hlo_val_tuple(p, m, w, 2, &whole);
    }
    if (!rc) {
        m->vals[*val].whole = whole;
        m->start_of[k] = k;
    }
    free(kids);
    free(t.node);
    free(t.kid);
    return rc;
}

/* An async-update or -done of an async-start: a zero-byte pinned step
 * reading the start whole; its readers read the start's node. */
static int async_half(hp_t *p, cmap_t *m, const ins_t *in, int32_t k, int32_t *val, bool *done)
{
    *done = false;
    if (!in->nopd)
        return RS_OK;
    int32_t o = p->opds[in->opd_off] - m->c->first;
    int32_t s = p->opd_sel[in->opd_off] < 0 ? m->start_of[o] : -1;
    if (s < 0)
        return RS_OK;
    int32_t sv = m->val_of[s], node;
    int rc = hlo_val_flatten(p, m, sv, in);
    int32_t *args = NULL, na = m->n_tmp;
    if (!rc && !(args = malloc(((size_t)na + 1) * sizeof *args)))
        rc = hlo_oom(p);
    if (!rc) {
        if (na)
            memcpy(args, m->tmp, (size_t)na * sizeof *args);
        shape_t none = { 0 };
        rc = node_new(p, m, in, MN_NODE, 0, &none, NULL, &node);
    }
    if (!rc) {
        m->nodes[node].pinned = true;
        rc = step_new(p, m, in, node, in->cls == OPC_ASYNC_DONE ? MOP_ASYNC_DONE : MOP_ASYNC_UPDATE, in->cost, false,
                      args, na);
    }
    free(args);
    /* the start's own node: its value's last element */
    const val_t *x = &m->vals[sv];
    const val_t *me = &m->vals[m->kid[m->vals[x->whole].off + 1]];
    if (!rc)
        rc = hlo_val_node(p, m, m->res[me->off], val);
    if (!rc) {
        m->start_of[k] = s;
        *done = true;
    }
    return rc;
}

static int map_instruction(hp_t *p, cmap_t *m, int32_t k)
{
    const ins_t *in = &p->ins[m->c->first + k];
    int32_t *v = &m->val_of[k], node = -1;
    int rc = RS_OK;
    m->start_of[k] = -1;
    switch (in->cls) {
    case OPC_PARAMETER:
    case OPC_CONSTANT:
        rc = node_of_ins(p, m, in, in->cls == OPC_PARAMETER ? MN_PARAM : MN_CONST, m->callee ? 0 : in->bytes, &node);
        if (!rc && !(rc = seq_push(p, m, -(node + 1))))
            rc = hlo_val_node(p, m, node, v);
        return rc;
    case OPC_AFTER_ALL:
        return hlo_val_nodes(p, m, NULL, 0, v);
    case OPC_ALIAS_FIRST:
        return in->nopd ? operand_val(p, m, in, 0, v) : hlo_val_nodes(p, m, NULL, 0, v);
    case OPC_GTE: {
        int32_t o;
        if ((rc = operand_val(p, m, in, 0, &o)))
            return rc;
        return hlo_val_element(p, m, o, in->index, in, v);
    }
    case OPC_TUPLE: {
        int32_t *kids = malloc(((size_t)in->nopd + 1) * sizeof *kids);
        if (!kids)
            return hlo_oom(p);
        for (int32_t a = 0; a < in->nopd && !rc; a++)
            rc = operand_val(p, m, in, a, &kids[a]);
        if (!rc)
            rc = hlo_val_tuple(p, m, kids, in->nopd, v);
        free(kids);
        return rc;
    }
    case OPC_WHILE:
        return while_loop(p, m, in, v);
    case OPC_CONDITIONAL:
    case OPC_CALL:
        if (in->pinned) {
            int32_t work;
            shape_t none = { 0 };
            if ((rc = side_node(p, m, in, MN_WORK, MOP_WORK, work_of(p, in), &none, NULL, &work)) ||
                (rc = plain(p, m, in, in->bytes, NULL, NULL, -1, &work, 1, MOP_INS, &node)))
                return rc;
            return hlo_val_node(p, m, node, v);
        }
        break;
    case OPC_CUSTOM:
        if (in->lib != LIB_NONE)
            return library_call(p, m, in, v);
        break;
    case OPC_ASYNC_START:
        if (!in->array)
            return async_start(p, m, in, k, v);
        break;
    case OPC_ASYNC_UPDATE:
    case OPC_ASYNC_DONE: {
        bool done;
        if ((rc = async_half(p, m, in, k, v, &done)) || done)
            return rc;
        break;
    }
    case OPC_FUSION:
        if (!in->array)
            return fusion_leaves(p, m, in, v);
        break;
    default:
        break;
    }
    int32_t target = -1;
    if (in->array && (rc = inplace_target(p, m, in, inplace_operand(p, in, -1), &target)))
        return rc;
    if ((rc = plain(p, m, in, in->bytes, NULL, NULL, target, NULL, 0, MOP_INS, &node)))
        return rc;
    return hlo_val_node(p, m, node, v);
}

void hlo_map_free(cmap_t *m)
{
    free(m->val_of);
    free(m->start_of);
    free(m->vals);
    free(m->res);
    free(m->kid);
    free(m->nodes);
    free(m->steps);
    free(m->args);
    free(m->dims);
    free(m->seq);
    free(m->tmp);
    memset(m, 0, sizeof *m);
}

int hlo_map(hp_t *p, const comp_t *c, bool callee, cmap_t *m)
{
    memset(m, 0, sizeof *m);
    m->c = c;
    m->callee = callee;
    m->budget = (int64_t)p->len + 4096;
    m->val_of = malloc(((size_t)c->n + 1) * sizeof *m->val_of);
    m->start_of = malloc(((size_t)c->n + 1) * sizeof *m->start_of);
    int rc = m->val_of && m->start_of ? RS_OK : hlo_oom(p);
    for (int32_t k = 0; k < c->n && !rc; k++)
        rc = map_instruction(p, m, k);
    if (rc)
        return rc;
    /* what the ROOT resolves to is an output */
    const ins_t *root = root_of(p, c);
    m->root_val = m->val_of[root - p->ins - c->first];
    if ((rc = hlo_val_flatten(p, m, m->root_val, root)))
        return rc;
    for (int32_t i = 0; i < m->n_tmp; i++)
        m->nodes[m->tmp[i]].output = true;
    return RS_OK;
}

