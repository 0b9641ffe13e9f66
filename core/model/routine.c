/* routine: what a parsed routine is asked (its nodes, where they came
 * from, its bindings) and its free; routine_parse.c reads §1 text into one. */
#include "model/routine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const routine_origin_t routine_no_origin = { NULL, NULL, NULL, NULL };

int routine_set_name(routine_t *r, const char *name, rs_error_t *err)
{
    char *copy = strdup(name);
    if (!copy)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    free(r->name);
    r->name = copy;
    return RS_OK;
}

void routine_free(routine_t *r)
{
    if (!r)
        return;
    free(r->nodes);
    free(r->steps);
    free(r->args);
    free(r->into);
    free(r->into_by_input);
    free(r->bind_value);
    free(r->bind_set);
    expr_syms_free(&r->syms);
    expr_syms_free(&r->ops);
    expr_pool_free(&r->exprs);
    strpool_free(&r->strings);
    strmap_free(r->node_map);
    free(r->name);
    free(r->path);
    free(r);
}

int32_t routine_find_node(const routine_t *r, const char *name)
{
    return strmap_get(r->node_map, name, strlen(name));
}

/* The first of a[0..n) whose node (by_input: input) is at least key; a is
 * sorted by it. */
static int32_t into_lower_bound(const routine_into_t *a, int32_t n, bool by_input, int32_t key)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if ((by_input ? a[mid].input : a[mid].node) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int32_t routine_into(const routine_t *r, int32_t i)
{
    int32_t k = into_lower_bound(r->into, r->n_into, false, i);
    return k < r->n_into && r->into[k].node == i ? r->into[k].input : -1;
}

const char *routine_into_text(const routine_t *r, int32_t i, char *buf, size_t n)
{
    buf[0] = 0;
    int32_t x = routine_into(r, i);
    if (x >= 0) {
        snprintf(buf, n, "written into %s's buffer: donated", r->nodes[x].name);
        return buf;
    }
    /* the nodes written into input i: a run of into_by_input */
    int32_t lo = into_lower_bound(r->into_by_input, r->n_into, true, i);
    int32_t first = lo < r->n_into ? r->into_by_input[lo].node : -1, count = 0;
    while (lo + count < r->n_into && r->into_by_input[lo + count].input == i)
        count++;
    if (count == 1)
        snprintf(buf, n, "takes %s's result: donated", r->nodes[first].name);
    else if (count > 1)
        snprintf(buf, n, "takes %s's result and %d more: donated", r->nodes[first].name, (int)count - 1);
    return buf;
}

const char *routine_node_origin(const routine_t *r, int32_t i, char *buf, size_t n)
{
    const routine_node_t *nd = &r->nodes[i];
    size_t w = 0;
    buf[0] = 0;
    const routine_origin_t *o = nd->origin;
    const char *parts[3] = { o->hlo && strcmp(o->hlo, nd->name) != 0 ? o->hlo : NULL, o->op_name, o->source };
    for (int k = 0; k < 3; k++)
        if (parts[k] && parts[k][0] && w + 1 < n)
            w += (size_t)snprintf(buf + w, n - w, "%s%s%s", w ? " " : "", k == 0 ? "%" : "", parts[k]);
    if (o->function && o->function[0] && w + 1 < n)
        snprintf(buf + w, n - w, "%s(%s)", w ? " " : "", o->function);
    return buf;
}

int routine_bindings(const routine_t *r, const char *const *overrides, int n_overrides,
                     bindings_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int32_t n = r->syms.n;
    out->n = n;
    out->value = calloc(n ? (size_t)n : 1, sizeof *out->value);
    out->set = calloc(n ? (size_t)n : 1, 1);
    if (!out->value || !out->set) {
        bindings_free(out);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (n) {
        memcpy(out->value, r->bind_value, (size_t)n * sizeof *out->value);
        memcpy(out->set, r->bind_set, (size_t)n);
    }
    for (int i = 0; i < n_overrides; i++) {
        const char *kv = overrides[i];
        const char *eq = strchr(kv, '=');
        if (!eq || eq == kv) {
            bindings_free(out);
            return error_set(err, RS_EINPUT, "--bind", 0, 0, "expected NAME=INT, found '%s'", kv);
        }
        int32_t id = strmap_get(r->syms.map, kv, (size_t)(eq - kv));
        if (id < 0) {
            bindings_free(out);
            return error_set(err, RS_EINPUT, "--bind", 0, 0, "routine '%s' uses no symbol '%.*s'",
                             r->name, (int)(eq - kv), kv);
        }
        const char *v = eq + 1;
        bool neg = *v == '-';
        if (neg)
            v++;
        int64_t x = 0;
        if (!*v) {
            bindings_free(out);
            return error_set(err, RS_EINPUT, "--bind", 0, 0, "expected NAME=INT, found '%s'", kv);
        }
        for (; *v; v++) {
            if (*v < '0' || *v > '9' || __builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, *v - '0', &x)) {
                bindings_free(out);
                return error_set(err, RS_EINPUT, "--bind", 0, 0, "expected NAME=INT (64-bit), found '%s'", kv);
            }
        }
        out->value[id] = neg ? -x : x;
        out->set[id] = 1;
    }
    return RS_OK;
}

void bindings_free(bindings_t *b)
{
    free(b->value);
    free(b->set);
    memset(b, 0, sizeof *b);
}
