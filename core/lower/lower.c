#include "lower/lower.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/sorted.h"

/* Points every array of l into base, from the counts; returns the bytes
 * used (base may be NULL to only measure). */
static size_t carve(lowering_t *l, char *base)
{
    size_t off = 0;
    size_t N = (size_t)l->n_nodes, S = (size_t)l->n_steps, A = (size_t)l->n_args, D = (size_t)l->n_dims;
#define TAKE(field, count)                                              \
    do {                                                                \
        off = (off + 7) & ~(size_t)7;                                   \
        if (base)                                                       \
            l->field = (void *)(base + off);                            \
        off += (count) * sizeof *l->field;                              \
    } while (0)
    TAKE(bytes, N);
    TAKE(elems, N);
    TAKE(cost, N);
    TAKE(dims, D);
    TAKE(step_cost, S);
    TAKE(ndefs, N);
    TAKE(first_def, N);
    TAKE(last_def, N);
    TAKE(dim_off, N + 1);
    TAKE(step_owner, S);
    TAKE(arg_off, S + 1);
    TAKE(args, A);
    TAKE(rd_off, N + 1);
    TAKE(rd_step, A);
    TAKE(kind, N);
    TAKE(flags, N);
#undef TAKE
    return off ? off : 8;
}

static int alloc_lowering(lowering_t *l, rs_error_t *err)
{
    l->block_bytes = carve(l, NULL);
    l->block = calloc(1, l->block_bytes);
    if (!l->block)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory lowering %d nodes", (int)l->n_nodes);
    carve(l, l->block);
    return RS_OK;
}

/* Evaluates a shape of nd dimensions (at most 64 when out is the caller's
 * scratch) into out and its element count into *elems. */
static int eval_shape(const expr_t *shape, int32_t nd, const expr_env_t *env, int64_t *out, int64_t *elems,
                      rs_error_t *err)
{
    int32_t cols_small[64], *cols = nd <= 64 ? cols_small : malloc((size_t)nd * sizeof *cols);
    if (!cols)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = expr_eval_list(shape, env, out, cols, nd, err);
    int64_t e = 1;
    for (int32_t k = 0; !rc && k < nd; k++) {
        if (out[k] < 0)
            rc = error_set(err, RS_EINPUT, env->file, shape->line, cols[k], "dimension is negative (%lld)",
                           (long long)out[k]);
        else if (!checked_mul(e, out[k], &e))
            rc = error_set(err, RS_EINPUT, env->file, shape->line, cols[k],
                           "the shape's element count overflows 64 bits");
    }
    if (cols != cols_small)
        free(cols);
    *elems = e;
    return rc;
}

int lower_routine(const routine_t *r, const bindings_t *b, lowering_t **out, rs_error_t *err)
{
    *out = NULL;
    lowering_t *l = calloc(1, sizeof *l);
    if (!l)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    l->routine = r;
    l->n_nodes = r->n_nodes;
    l->n_steps = r->n_steps;
    int64_t na = 0, nd = 0;
    for (int32_t s = 0; s < r->n_steps; s++)
        na += r->steps[s].nargs;
    for (int32_t i = 0; i < r->n_nodes; i++)
        nd += r->nodes[i].ndims;
    for (int32_t s = 0; s < r->n_steps; s++)
        if (!r->steps[s].accum)
            nd += r->steps[s].ndims;
    if (na > INT32_MAX || nd > INT32_MAX) {
        free(l);
        return error_set(err, RS_EINPUT, r->path, 0, 0, "routine too large");
    }
    l->n_args = (int32_t)na;
    l->n_dims = (int32_t)nd;
    int rc = alloc_lowering(l, err);
    if (rc) {
        free(l);
        return rc;
    }
    expr_env_t env = routine_env(r, b->value, b->set);
    int64_t scratch[64];
    int64_t *tmp = scratch;

    /* nodes: shape (from the declaration or the first definition), kind */
    for (int32_t i = 0; i < r->n_nodes; i++) {
        l->kind[i] = r->nodes[i].kind;
        l->flags[i] = r->nodes[i].flags;
        l->first_def[i] = -1;
        l->last_def[i] = -1;
    }
    for (int32_t s = 0; s < r->n_steps; s++) {
        int32_t n = r->steps[s].node;
        if (l->first_def[n] < 0)
            l->first_def[n] = s;
        l->last_def[n] = s;
        l->ndefs[n]++;
    }
    int32_t doff = 0;
    int64_t total = 0;
    for (int32_t i = 0; i < r->n_nodes; i++) {
        const routine_node_t *nd_ = &r->nodes[i];
        const expr_t *shape = &nd_->shape;
        int32_t k = nd_->ndims;
        if (nd_->kind == NODE_DEF) {
            shape = &r->steps[l->first_def[i]].prog;
            k = r->steps[l->first_def[i]].ndims;
        }
        l->dim_off[i] = doff;
        if ((rc = eval_shape(shape, k, &env, l->dims + doff, &l->elems[i], err)))
            goto fail;
        doff += k;
        if (!dtype_bytes((dtype_t)nd_->dtype, l->elems[i], &l->bytes[i])) {
            rc = error_set(err, RS_EINPUT, r->path, nd_->line, nd_->col,
                           "'%s' has more than 2^63 bytes", nd_->name);
            goto fail;
        }
        if (nd_->flags & FLAG_INTO)
            l->bytes[i] = 0; /* written into its input's buffer (§1 @into) */
        /* every arena is at most every buffer's bytes (unaligned): past 2^63
         * no layout could say its height, so say here whose bytes do it */
        int64_t sum;
        if (!checked_add(total, l->bytes[i], &sum) || sum == INT64_MAX) { /* a height layouts refuse */
            rc = error_set(err, RS_EINPUT, r->path, nd_->line, nd_->col,
                           "the buffers' bytes overflow 64 bits at '%s' (%lld B after %lld B)", nd_->name,
                           (long long)l->bytes[i], (long long)total);
            goto fail;
        }
        total = sum;
    }
    l->dim_off[r->n_nodes] = doff;

    /* steps: arguments, costs, the shape check of `+=` */
    int32_t aoff = 0;
    for (int32_t s = 0; s < r->n_steps; s++) {
        const routine_step_t *st = &r->steps[s];
        int32_t n = st->node;
        l->step_owner[s] = n;
        l->arg_off[s] = aoff;
        if (st->nargs) /* args is NULL for zeros() */
            memcpy(l->args + aoff, routine_args(r, s), (size_t)st->nargs * sizeof *l->args);
        aoff += st->nargs;
        int64_t elems = l->elems[n];
        if (st->accum) {
            int32_t want = l->dim_off[n + 1] - l->dim_off[n];
            if (st->ndims > 64) {
                rc = error_set(err, RS_EINPUT, r->path, st->line, st->dims_col, "more than 64 dimensions");
                goto fail;
            }
            tmp = scratch;
            if ((rc = eval_shape(&st->prog, st->ndims, &env, tmp, &elems, err)))
                goto fail;
            bool same = want == st->ndims;
            for (int32_t k = 0; same && k < want; k++)
                same = tmp[k] == l->dims[l->dim_off[n] + k];
            if (!same) {
                char have[160] = "", need[160] = "";
                size_t p = 0, q = 0;
                for (int32_t k = 0; k < st->ndims && p < sizeof have - 24; k++)
                    p += (size_t)snprintf(have + p, sizeof have - p, "%s%lld", k ? ", " : "", (long long)tmp[k]);
                for (int32_t k = 0; k < want && q < sizeof need - 24; k++)
                    q += (size_t)snprintf(need + q, sizeof need - q, "%s%lld", k ? ", " : "",
                                          (long long)l->dims[l->dim_off[n] + k]);
                rc = error_set(err, RS_EINPUT, r->path, st->line, st->dims_col,
                               "shape [%s] of '+=' does not match '%s' [%s] (line %d)", have,
                               r->nodes[n].name, need, (int)r->nodes[n].line);
                goto fail;
            }
        }
        int64_t c;
        if (st->has_cost) {
            if ((rc = expr_eval_at(&st->prog, &env, st->ndims, &c, err)))
                goto fail;
        } else if (!checked_mul(elems, st->nargs > 1 ? st->nargs : 1, &c)) {
            rc = error_set(err, RS_EINPUT, r->path, st->line, st->col, "default cost overflows 64 bits");
            goto fail;
        }
        l->step_cost[s] = c < 1 ? 1 : c;
        if (!checked_add(l->cost[n], l->step_cost[s], &l->cost[n])) {
            rc = error_set(err, RS_EINPUT, r->path, st->line, st->col,
                           "the summed cost of '%s' overflows 64 bits", r->nodes[n].name);
            goto fail;
        }
    }
    l->arg_off[r->n_steps] = aoff;

    /* readers: counting sort of (arg, step) by arg keeps steps ascending */
    for (int32_t a = 0; a < l->n_args; a++)
        l->rd_off[l->args[a] + 1]++;
    for (int32_t i = 0; i < r->n_nodes; i++)
        l->rd_off[i + 1] += l->rd_off[i];
    {
        int32_t *fill = malloc(((size_t)r->n_nodes + 1) * sizeof *fill);
        if (!fill) {
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            goto fail;
        }
        memcpy(fill, l->rd_off, ((size_t)r->n_nodes + 1) * sizeof *fill);
        for (int32_t s = 0; s < r->n_steps; s++)
            for (int32_t a = l->arg_off[s]; a < l->arg_off[s + 1]; a++)
                l->rd_step[fill[l->args[a]]++] = s;
        free(fill);
    }
    *out = l;
    return RS_OK;
fail:
    lower_free(l);
    return rc;
}

int lower_copy(const lowering_t *src, lowering_t **out, rs_error_t *err)
{
    *out = NULL;
    lowering_t *l = malloc(sizeof *l);
    if (!l)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    *l = *src;
    l->block = malloc(src->block_bytes);
    if (!l->block) {
        free(l);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory copying a lowering");
    }
    memcpy(l->block, src->block, src->block_bytes);
    carve(l, l->block);
    *out = l;
    return RS_OK;
}

void lower_free(lowering_t *l)
{
    if (!l)
        return;
    free(l->block);
    free(l);
}

typedef enum { BY_NODE, BY_STEP, BY_DIM, BY_ARG, BY_READ } diff_by_t;

typedef struct diff_walk {
    const lowering_t *a, *b;
    void (*fn)(void *ud, const lower_diff_t *d);
    void *ud;
    int64_t n;
} diff_walk_t;

static void differs(diff_walk_t *w, const char *field, diff_by_t by, int64_t i, int64_t va, int64_t vb)
{
    const lowering_t *a = w->a;
    lower_diff_t d = { .field = field, .index = i, .node = -1, .step = -1, .a = va, .b = vb };
    switch (by) {
    case BY_NODE: d.node = i < a->n_nodes ? (int32_t)i : -1; break;
    case BY_DIM: d.node = sorted_last_le32(a->dim_off, a->n_nodes, i); break;
    case BY_READ: d.node = sorted_last_le32(a->rd_off, a->n_nodes, i); break;
    case BY_STEP: d.step = i < a->n_steps ? (int32_t)i : -1; break;
    case BY_ARG: d.step = sorted_last_le32(a->arg_off, a->n_steps, i); break;
    }
    if (d.step >= 0)
        d.node = a->step_owner[d.step];
    w->n++;
    if (w->fn)
        w->fn(w->ud, &d);
}

#define DIFF_ARRAY(w, field, count, by)                                                   \
    for (size_t i_ = 0; i_ < (size_t)(count); i_++)                                       \
        if ((w)->a->field[i_] != (w)->b->field[i_])                                       \
            differs((w), #field, (by), (int64_t)i_, (int64_t)(w)->a->field[i_], (int64_t)(w)->b->field[i_])

int64_t lower_diff_each(const lowering_t *a, const lowering_t *b, void (*fn)(void *ud, const lower_diff_t *d),
                        void *ud)
{
    diff_walk_t w = { a, b, fn, ud, 0 };
    lower_diff_t d = { .field = "routine", .index = -1, .node = -1, .step = -1 };
    if (a->routine != b->routine) {
        if (fn)
            fn(ud, &d);
        return 1;
    }
    if (a->n_nodes != b->n_nodes || a->n_steps != b->n_steps || a->n_args != b->n_args || a->n_dims != b->n_dims) {
        d.field = "sizes";
        d.a = a->n_nodes;
        d.b = b->n_nodes;
        if (fn)
            fn(ud, &d);
        return 1;
    }
    size_t N = (size_t)a->n_nodes, S = (size_t)a->n_steps, A = (size_t)a->n_args;
    DIFF_ARRAY(&w, bytes, N, BY_NODE);
    DIFF_ARRAY(&w, elems, N, BY_NODE);
    DIFF_ARRAY(&w, cost, N, BY_NODE);
    DIFF_ARRAY(&w, kind, N, BY_NODE);
    DIFF_ARRAY(&w, flags, N, BY_NODE);
    DIFF_ARRAY(&w, ndefs, N, BY_NODE);
    DIFF_ARRAY(&w, first_def, N, BY_NODE);
    DIFF_ARRAY(&w, last_def, N, BY_NODE);
    DIFF_ARRAY(&w, dim_off, N + 1, BY_NODE);
    DIFF_ARRAY(&w, dims, (size_t)a->n_dims, BY_DIM);
    DIFF_ARRAY(&w, step_owner, S, BY_STEP);
    DIFF_ARRAY(&w, step_cost, S, BY_STEP);
    DIFF_ARRAY(&w, arg_off, S + 1, BY_STEP);
    DIFF_ARRAY(&w, args, A, BY_ARG);
    DIFF_ARRAY(&w, rd_off, N + 1, BY_NODE);
    DIFF_ARRAY(&w, rd_step, A, BY_READ);
    return w.n;
}

typedef struct first_diff {
    char *what;
    size_t n;
    bool seen;
} first_diff_t;

static void note_first(void *ud, const lower_diff_t *d)
{
    first_diff_t *f = ud;
    if (f->seen)
        return;
    f->seen = true;
    if (strcmp(d->field, "routine") == 0)
        snprintf(f->what, f->n, "lowered from different routines");
    else if (strcmp(d->field, "sizes") == 0)
        snprintf(f->what, f->n, "sizes differ");
    else
        snprintf(f->what, f->n, "%s[%lld] differs: %lld vs %lld", d->field, (long long)d->index, (long long)d->a,
                 (long long)d->b);
}

int lower_compare(const lowering_t *a, const lowering_t *b, char *what, size_t n)
{
    first_diff_t f = { what, n, false };
    return lower_diff_each(a, b, note_first, &f) != 0;
}
