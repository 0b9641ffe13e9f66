/* hlo_alias: donated buffers (DESIGN §10): the HloModule line's
 * input_output_alias read, and each of its pairs applied to the ENTRY's
 * nodes, so that an output written into a parameter's buffer is not counted
 * a second time. */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/vec.h"

/* ---- the attribute -------------------------------------------------------- */

/* A shape index `{}`, `{k}`, `{k,j,...}`; with keep, appended to
 * p->alias_path. */
static int parse_index(hp_t *p, bool keep, const char *what)
{
    int rc = hlo_expect(p, '{', what);
    if (rc || (rc = hlo_skip_ws(p)))
        return rc;
    if (hlo_accept(p, '}'))
        return RS_OK;
    for (;;) {
        int64_t k;
        bool done;
        if ((rc = hlo_read_int(p, &k, "an index (a number) in the shape index")))
            return rc;
        if (keep) {
            if (vec_reserve((void **)&p->alias_path, &p->cap_path, (int64_t)p->n_path + 1, sizeof *p->alias_path))
                return hlo_oom(p);
            p->alias_path[p->n_path++] = k;
        }
        if ((rc = hlo_list_sep(p, '}', "',' or '}' in the shape index", &done)) || done)
            return rc;
    }
}

/* {OUT}: (P, {PI}[, must-alias|may-alias]) */
static int parse_pair(hp_t *p)
{
    if (vec_reserve((void **)&p->alias, &p->cap_alias, (int64_t)p->n_alias + 1, sizeof *p->alias))
        return hlo_oom(p);
    alias_pair_t *a = &p->alias[p->n_alias];
    a->path_off = p->n_path;
    int rc = parse_index(p, true, "an output's shape index ({}, {k} or {k,j,...})");
    if (rc || (rc = hlo_expect(p, ':', "':' after the output's shape index")) ||
        (rc = hlo_expect(p, '(', "'(' opening (PARAMETER, {INDEX}[, must-alias])")) ||
        (rc = hlo_read_int(p, &a->param, "the parameter's number")) ||
        (rc = hlo_expect(p, ',', "',' after the parameter's number")) ||
        (rc = parse_index(p, false, "the parameter's shape index ({}, {k} ...)")) || (rc = hlo_skip_ws(p)))
        return rc;
    if (hlo_accept(p, ',')) {
        slice_t kind;
        if ((rc = hlo_skip_ws(p)))
            return rc;
        loc_t at = hlo_here(p);
        if ((rc = hlo_read_name(p, &kind, "must-alias or may-alias")))
            return rc;
        if (!hlo_slice_is(p, kind, "must-alias") && !hlo_slice_is(p, kind, "may-alias"))
            return hlo_fail_at(p, at, "expected must-alias or may-alias, found '%.*s'",
                               (int)(kind.len > 40 ? 40 : kind.len), p->s + kind.off);
    }
    if ((rc = hlo_expect(p, ')', "')' closing the pair's (PARAMETER, {INDEX}[, KIND])")))
        return rc;
    a->path_len = p->n_path - a->path_off;
    p->n_alias++;
    return RS_OK;
}

int hlo_parse_alias(hp_t *p)
{
    loc_t at = hlo_here(p);
    if (p->seen_alias)
        return hlo_fail_at(p, at, "input_output_alias given twice");
    p->seen_alias = true;
    int rc = hlo_expect(p, '{', "'{' opening input_output_alias={ {OUT}: (P, {}, must-alias), ... }");
    if (rc || (rc = hlo_skip_ws(p)))
        return rc;
    if (hlo_accept(p, '}'))
        return RS_OK;
    for (;;) {
        bool done;
        if ((rc = parse_pair(p)) || (rc = hlo_list_sep(p, '}', "',' or '}' after an alias pair", &done)) || done)
            return rc;
    }
}

/* ---- the pairs applied ------------------------------------------------------ */

typedef struct param_node {
    int64_t number;
    int32_t node;
} param_node_t;

static int by_number(const void *a, const void *b)
{
    const param_node_t *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* The node of parameter(number), the first in text order; -1 when none. */
static int32_t param_of(const param_node_t *pn, int32_t n, int64_t number)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (pn[mid].number < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && pn[lo].number == number ? pn[lo].node : -1;
}

/* The shape trees of the instructions an index has been followed into,
 * each built once: a file's pairs cost time linear in the file, however
 * many descend into one wide tuple. */
typedef struct trees {
    shape_tree_t t;
    int32_t *root; /* per node: its instruction's tree's root, or -1 */
} trees_t;

/* The node output leaf a names and the leaf's bytes: followed from the
 * ROOT's value through tuples, then into the shape of the one node it
 * reaches; -1 when a names no array leaf of exactly one node. */
static int leaf_node(hp_t *p, cmap_t *m, const alias_pair_t *a, trees_t *tr, int64_t *bytes, int32_t *node)
{
    const int64_t *path = a->path_len ? p->alias_path + a->path_off : NULL; /* NULL + 0 is undefined */
    int32_t cur = m->root_val, d = 0;
    *node = -1;
    for (; d < a->path_len && m->vals[cur].kind == VAL_TUPLE; d++) {
        if (path[d] >= m->vals[cur].len)
            return RS_OK;
        cur = m->kid[m->vals[cur].off + path[d]];
    }
    const val_t *v = &m->vals[cur];
    if (v->kind != VAL_NODES || v->whole >= 0 || v->len != 1)
        return RS_OK; /* a tuple, a token, or several nodes */
    int32_t n = m->res[v->off];
    const mnode_t *nd = &m->nodes[n];
    if (d < a->path_len) {
        /* into a tuple-shaped node's own shape */
        const ins_t *in = &p->ins[nd->ins];
        if (nd->array || nd->kind != MN_NODE || nd->bytes != in->bytes)
            return RS_OK;
        int rc;
        if (tr->root[n] < 0 && (rc = hlo_shape_tree(p, in->shape_pos, &tr->t, &tr->root[n])))
            return rc;
        const shape_node_t *sn = &tr->t.node[tr->root[n]];
        for (; d < a->path_len; d++) {
            if (sn->n_kids < 0 || path[d] >= sn->n_kids)
                return RS_OK; /* an array or a token has no elements; an index past the end */
            sn = &tr->t.node[tr->t.kid[sn->kids + path[d]]];
        }
        if (sn->n_kids != -1)
            return RS_OK; /* a tuple, or a token */
        *bytes = sn->bytes;
    } else if (!nd->array) {
        return RS_OK; /* a tuple */
    } else {
        *bytes = nd->bytes;
    }
    *node = n;
    return RS_OK;
}

int hlo_donate(hp_t *p, cmap_t *m, int64_t *cut, int32_t *into, routine_donation_t *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->pairs = p->n_alias;
    int32_t nn = m->n_nodes;
    if (!p->n_alias || !nn)
        return RS_OK;
    param_node_t *pn = malloc(((size_t)nn + 1) * sizeof *pn);
    if (!pn)
        return hlo_oom(p);
    int32_t np = 0;
    for (int32_t j = 0; j < nn; j++) {
        const ins_t *in = &p->ins[m->nodes[j].ins];
        if (m->nodes[j].kind == MN_PARAM && in->index >= 0)
            pn[np++] = (param_node_t){ in->index, j };
    }
    qsort(pn, (size_t)np, sizeof *pn, by_number);
    trees_t tr = { { 0 }, malloc(((size_t)nn + 1) * sizeof *tr.root) };
    int rc = tr.root ? RS_OK : hlo_oom(p);
    for (int32_t k = 0; !rc && k < nn; k++)
        tr.root[k] = -1;
    for (int32_t k = 0; !rc && k < p->n_alias; k++) {
        int64_t leaf = 0;
        int32_t n;
        rc = leaf_node(p, m, &p->alias[k], &tr, &leaf, &n);
        int32_t param = param_of(pn, np, p->alias[k].param);
        if (rc || n < 0 || param < 0)
            continue;
        const mnode_t *nd = &m->nodes[n];
        if (nd->kind == MN_PARAM || nd->kind == MN_CONST)
            continue; /* a passthrough: the buffer is the parameter's, or read-only data */
        if (m->nodes[param].last > nd->don_step)
            continue; /* the parameter is read after: XLA copies it first, the node keeps its bytes */
        int64_t left = nd->bytes - cut[n];
        int64_t taken = leaf < left ? leaf : left;
        bool first_into = nd->array && left - taken == 0 && into[n] < 0;
        if (first_into)
            into[n] = param;
        if (taken > 0 || first_into) {
            cut[n] += taken;
            sum->donated++;
            sum->bytes = sat_add(sum->bytes, taken);
        }
    }
    free(pn);
    free(tr.root);
    free(tr.t.node);
    free(tr.t.kid);
    return rc;
}
