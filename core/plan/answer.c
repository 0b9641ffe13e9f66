#include "plan/answer.h"

#include <stdlib.h>
#include <string.h>

#include "plan/cand.h"
#include "util/checked.h"

const char *answer_origin_of(const routine_t *r, int32_t i)
{
    const char *src = r->nodes[i].origin->source;
    if (src && src[0])
        return src;
    if (r->nodes[i].kind != NODE_DEF)
        return r->nodes[i].kind == NODE_INPUT ? "input" : "param";
    for (int32_t s = 0; s < r->n_steps; s++)
        if (r->steps[s].node == i)
            return routine_op(r, s);
    return "?";
}

typedef struct keyed {
    const char *key;
    int32_t flip;
} keyed_t;

static int cmp_keyed(const void *pa, const void *pb)
{
    const keyed_t *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->flip > b->flip) - (a->flip < b->flip);
}

/* a group with its index in key order, so each flip finds it after the sort */
typedef struct ranked_origin {
    answer_origin_t o;
    int32_t key_rank;
} ranked_origin_t;

static int cmp_origin(const void *pa, const void *pb)
{
    const answer_origin_t *a = &((const ranked_origin_t *)pa)->o, *b = &((const ranked_origin_t *)pb)->o;
    if (a->relief != b->relief)
        return a->relief > b->relief ? -1 : 1;
    return strcmp(a->origin, b->origin);
}

/* Each flip's origin, with the op of every node's first definition read
 * in one pass over the steps (a lookup per flip would be quadratic). */
static int origins(const routine_t *r, const fit_flip_t *f, int32_t n, keyed_t *k, rs_error_t *err)
{
    int32_t *first = malloc(((size_t)r->n_nodes + 1) * sizeof *first);
    if (!first)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; i < r->n_nodes; i++)
        first[i] = -1;
    for (int32_t s = r->n_steps - 1; s >= 0; s--)
        first[r->steps[s].node] = s;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = f[i].node;
        const char *src = r->nodes[v].origin->source;
        k[i].flip = i;
        k[i].key = src && src[0] ? src : first[v] >= 0 ? routine_op(r, first[v]) : answer_origin_of(r, v);
    }
    free(first);
    return RS_OK;
}

int answer_by_origin(const routine_t *r, const fit_flip_t *f, int32_t n, answer_origin_t **out, int32_t *n_out,
                     int32_t *group_of, rs_error_t *err)
{
    *out = NULL;
    *n_out = 0;
    size_t nn = (size_t)n + 1;
    keyed_t *k = malloc(nn * sizeof *k);
    ranked_origin_t *g = malloc(nn * sizeof *g);
    int32_t *slot = malloc(nn * sizeof *slot);  /* flip -> group in key order */
    int32_t *where = malloc(nn * sizeof *where); /* group in key order -> in the answer's order */
    answer_origin_t *res = malloc(nn * sizeof *res);
    int rc = k && g && slot && where && res ? origins(r, f, n, k, err)
                                            : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc) {
        free(res);
        goto done;
    }
    qsort(k, (size_t)n, sizeof *k, cmp_keyed);
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0) {
            const routine_origin_t *ro = r->nodes[f[k[i].flip].node].origin;
            const char *fn = ro->source && ro->source[0] && ro->function && ro->function[0] ? ro->function : NULL;
            g[m] = (ranked_origin_t){ .o = { .origin = k[i].key, .function = fn }, .key_rank = m };
            m++;
        }
        answer_origin_t *o = &g[m - 1].o;
        const fit_flip_t *x = &f[k[i].flip];
        o->flips++;
        o->relief = sat_add(o->relief, x->relief);
        o->recompute = sat_add(o->recompute, x->recompute);
        slot[k[i].flip] = m - 1;
    }
    qsort(g, (size_t)m, sizeof *g, cmp_origin);
    for (int32_t j = 0; j < m; j++) {
        res[j] = g[j].o;
        where[g[j].key_rank] = j;
    }
    for (int32_t i = 0; group_of && i < n; i++)
        group_of[i] = where[slot[i]];
    *out = res;
    *n_out = m;
done:
    free(k);
    free(g);
    free(slot);
    free(where);
    return rc;
}

/* recompute / compute > 100 * relief / total, exactly */
static bool does_not_pay(int64_t relief, int64_t recompute, int64_t total, int64_t compute)
{
    if (recompute <= 0)
        return false;
    if (compute <= 0 || total <= 0)
        return true;
    /* 100 relief / recompute < total / compute */
    return compare_relief_ratio(sat_mul(relief, ANSWER_UNPAID_FACTOR), recompute, total, compute) < 0;
}

/* A held member: accepted with relief 0, its group's closer after it. */
static bool held_member(const fit_flip_t *f, int32_t n, int32_t i) { return f[i].relief == 0 && i + 1 < n; }

int32_t answer_groups(const fit_flip_t *f, int32_t n, int32_t *closer)
{
    int32_t members = 0, from = 0;
    for (int32_t i = 0; i < n; i++) {
        closer[i] = -1;
        if (held_member(f, n, i))
            continue;
        for (int32_t k = from; k < i; k++)
            closer[k] = i, members++;
        if (i > from)
            closer[i] = i;
        from = i + 1;
    }
    return members;
}

int32_t answer_unpaid(const fit_flip_t *f, int32_t n, int64_t baseline_total, int64_t baseline_compute,
                      uint8_t *unpaid)
{
    int32_t marked = 0, from = 0;
    for (int32_t i = 0; i < n; i++) {
        unpaid[i] = 0;
        if (held_member(f, n, i))
            continue; /* judged with the flip that closes its group */
        int64_t recompute = 0;
        for (int32_t k = from; k <= i; k++)
            recompute = sat_add(recompute, f[k].recompute);
        if (does_not_pay(f[i].relief, recompute, baseline_total, baseline_compute))
            for (int32_t k = from; k <= i; k++)
                unpaid[k] = 1, marked++;
        from = i + 1;
    }
    return marked;
}
