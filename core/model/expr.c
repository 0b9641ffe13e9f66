#include "model/expr.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

/* OP_END closes one expression of a program: its value is the next result,
 * and its column is where that expression starts. */
enum { OP_CONST, OP_SYM, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SHL, OP_NEG, OP_END };

#define EXPR_MAX_DEPTH 64

typedef struct parser {
    lex_t *lx;
    expr_syms_t *syms;
    expr_pool_t *pool;
    expr_t *e;
    int depth;    /* nesting, bounded so hostile input cannot blow the stack */
    int stack;    /* evaluation stack height after the ops so far */
    int maxstack;
    rs_error_t *err;
} parser_t;

int expr_syms_init(expr_syms_t *s)
{
    memset(s, 0, sizeof *s);
    s->map = strmap_new();
    return s->map ? RS_OK : RS_ENOMEM;
}

void expr_syms_free(expr_syms_t *s)
{
    strmap_free(s->map);
    for (int32_t i = 0; i < s->n; i++)
        free(s->names[i]);
    free(s->names);
    memset(s, 0, sizeof *s);
}

int32_t expr_syms_intern(expr_syms_t *s, const char *name, size_t len)
{
    int32_t id = strmap_get(s->map, name, len);
    if (id >= 0)
        return id;
    if (s->n == s->cap) {
        int32_t ncap = s->cap ? s->cap * 2 : 8;
        char **nn = realloc(s->names, (size_t)ncap * sizeof *nn);
        if (!nn)
            return -1;
        s->names = nn;
        s->cap = ncap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, name, len);
    copy[len] = 0;
    if (strmap_put(s->map, name, len, s->n) != 0) {
        free(copy);
        return -1;
    }
    s->names[s->n] = copy;
    return s->n++;
}

static int emit(parser_t *p, uint8_t kind, int32_t col, int64_t value)
{
    expr_pool_t *pool = p->pool;
    if (pool->n == pool->cap) {
        if (pool->cap > INT32_MAX / 2)
            return error_set(p->err, RS_EINPUT, p->lx->file, p->lx->line, col, "more than 2^30 expression terms");
        int32_t ncap = pool->cap ? pool->cap * 2 : 16;
        expr_op_t *no = realloc(pool->ops, (size_t)ncap * sizeof *no);
        if (!no)
            return error_set(p->err, RS_ENOMEM, p->lx->file, p->lx->line, col, "out of memory");
        pool->ops = no;
        pool->cap = ncap;
    }
    pool->ops[pool->n++] = (expr_op_t){ .kind = kind, .col = col - p->e->col, .value = value };
    p->e->n++;
    if (kind == OP_CONST || kind == OP_SYM)
        p->stack++;
    else if (kind != OP_NEG)
        p->stack--;
    if (p->stack > p->maxstack)
        p->maxstack = p->stack;
    return RS_OK;
}

static int parse_shift(parser_t *p);

static int fail_expected(parser_t *p, const char *what)
{
    char found[64];
    lex_describe_next(p->lx, found, sizeof found);
    return error_set(p->err, RS_EINPUT, p->lx->file, p->lx->line, lex_col(p->lx),
                     "expected %s, found %s", what, found);
}

static int parse_primary(parser_t *p)
{
    lex_t *lx = p->lx;
    lex_skip_ws(lx);
    int col = lex_col(lx);
    if (lx->pos < lx->len && lx->s[lx->pos] >= '0' && lx->s[lx->pos] <= '9') {
        int64_t v = 0;
        while (lx->pos < lx->len && lx->s[lx->pos] >= '0' && lx->s[lx->pos] <= '9') {
            if (!checked_mul(v, 10, &v) || !checked_add(v, lx->s[lx->pos] - '0', &v))
                return error_set(p->err, RS_EINPUT, lx->file, lx->line, col,
                                 "integer literal does not fit in 64 bits");
            lx->pos++;
        }
        return emit(p, OP_CONST, col, v);
    }
    const char *name;
    size_t len;
    if (lex_ident(lx, &name, &len)) {
        int32_t id = expr_syms_intern(p->syms, name, len);
        if (id < 0)
            return error_set(p->err, RS_ENOMEM, lx->file, lx->line, col, "out of memory");
        return emit(p, OP_SYM, col, id);
    }
    if (lex_accept(lx, "(")) {
        int rc = parse_shift(p);
        if (rc)
            return rc;
        if (!lex_accept(lx, ")"))
            return fail_expected(p, "')'");
        return RS_OK;
    }
    return fail_expected(p, "a number, a name or '('");
}

static int parse_unary(parser_t *p)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return error_set(p->err, RS_EINPUT, p->lx->file, p->lx->line, lex_col(p->lx),
                         "expression nested deeper than %d levels", EXPR_MAX_DEPTH);
    int rc;
    lex_skip_ws(p->lx);
    int col = lex_col(p->lx);
    if (lex_accept(p->lx, "-")) {
        rc = parse_unary(p);
        if (!rc)
            rc = emit(p, OP_NEG, col, 0);
    } else {
        rc = parse_primary(p);
    }
    p->depth--;
    return rc;
}

static int parse_mul(parser_t *p)
{
    int rc = parse_unary(p);
    while (!rc) {
        lex_skip_ws(p->lx);
        int col = lex_col(p->lx);
        uint8_t op;
        if (lex_accept(p->lx, "*"))
            op = OP_MUL;
        else if (lex_accept(p->lx, "/"))
            op = OP_DIV;
        else
            break;
        rc = parse_unary(p);
        if (!rc)
            rc = emit(p, op, col, 0);
    }
    return rc;
}

static int parse_add(parser_t *p)
{
    int rc = parse_mul(p);
    while (!rc) {
        lex_skip_ws(p->lx);
        int col = lex_col(p->lx);
        uint8_t op;
        if (lex_accept(p->lx, "+"))
            op = OP_ADD;
        else if (p->lx->pos < p->lx->len && p->lx->s[p->lx->pos] == '-' && lex_accept(p->lx, "-"))
            op = OP_SUB;
        else
            break;
        rc = parse_mul(p);
        if (!rc)
            rc = emit(p, op, col, 0);
    }
    return rc;
}

static int parse_shift(parser_t *p)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return error_set(p->err, RS_EINPUT, p->lx->file, p->lx->line, lex_col(p->lx),
                         "expression nested deeper than %d levels", EXPR_MAX_DEPTH);
    int rc = parse_add(p);
    while (!rc) {
        lex_skip_ws(p->lx);
        int col = lex_col(p->lx);
        if (!lex_accept(p->lx, "<<"))
            break;
        rc = parse_add(p);
        if (!rc)
            rc = emit(p, OP_SHL, col, 0);
    }
    p->depth--;
    return rc;
}

void expr_pool_init(expr_pool_t *pool) { memset(pool, 0, sizeof *pool); }

void expr_pool_free(expr_pool_t *pool)
{
    free(pool->ops);
    free(pool->index);
    expr_pool_init(pool);
}

void expr_pool_compact(expr_pool_t *pool)
{
    free(pool->index);
    pool->index = NULL;
    pool->index_cap = pool->index_used = 0;
    expr_op_t *fit = pool->n ? realloc(pool->ops, (size_t)pool->n * sizeof *fit) : NULL;
    if (fit) {
        pool->ops = fit;
        pool->cap = pool->n;
    }
}

void expr_begin(expr_pool_t *pool, lex_t *lx, expr_t *e)
{
    lex_skip_ws(lx);
    *e = (expr_t){ .off = pool->n, .n = 0, .line = lx->line, .col = lex_col(lx) };
}

void expr_abandon(expr_pool_t *pool, expr_t *e)
{
    if (e->off + e->n == pool->n) /* the newest program, not a shared one */
        pool->n = e->off;
    e->n = 0;
}

int expr_parse_next(lex_t *lx, expr_syms_t *syms, expr_pool_t *pool, expr_t *e, rs_error_t *err)
{
    lex_skip_ws(lx);
    int start = lex_col(lx);
    parser_t p = { .lx = lx, .syms = syms, .pool = pool, .e = e, .err = err };
    int rc = parse_shift(&p);
    if (!rc && p.maxstack > EXPR_MAX_DEPTH)
        rc = error_set(err, RS_EINPUT, lx->file, lx->line, start,
                       "expression needs more than %d intermediate values", EXPR_MAX_DEPTH);
    if (!rc)
        rc = emit(&p, OP_END, start, 0);
    if (rc)
        expr_abandon(pool, e);
    return rc;
}

static uint32_t program_hash(const expr_op_t *ops, int32_t n)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)n;
    for (int32_t i = 0; i < n; i++) {
        h = (h ^ ops[i].kind) * 1099511628211ull;
        h = (h ^ (uint32_t)ops[i].col) * 1099511628211ull;
        h = (h ^ (uint64_t)ops[i].value) * 1099511628211ull;
    }
    return (uint32_t)(h ^ (h >> 32));
}

static bool same_program(const expr_op_t *a, const expr_op_t *b, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (a[i].kind != b[i].kind || a[i].col != b[i].col || a[i].value != b[i].value)
            return false;
    return true;
}

/* The slot holding a program equal to ops[0..n), or the free slot where it
 * goes. */
static expr_t *index_slot(const expr_pool_t *pool, const expr_op_t *ops, int32_t n)
{
    uint32_t mask = (uint32_t)pool->index_cap - 1;
    for (uint32_t i = program_hash(ops, n) & mask;; i = (i + 1) & mask) {
        expr_t *s = &pool->index[i];
        if (s->n == 0 || (s->n == n && same_program(pool->ops + s->off, ops, n)))
            return s;
    }
}

static bool index_grow(expr_pool_t *pool)
{
    int32_t ncap = pool->index_cap ? pool->index_cap * 2 : 64;
    if (pool->index_cap > INT32_MAX / 4)
        return false;
    expr_t *old = pool->index;
    int32_t old_cap = pool->index_cap;
    pool->index = calloc((size_t)ncap, sizeof *pool->index);
    if (!pool->index) {
        pool->index = old;
        return false;
    }
    pool->index_cap = ncap;
    for (int32_t i = 0; i < old_cap; i++)
        if (old[i].n)
            *index_slot(pool, pool->ops + old[i].off, old[i].n) = old[i];
    free(old);
    return true;
}

void expr_end(expr_pool_t *pool, expr_t *e)
{
    if (e->n == 0)
        return;
    /* without room for the index the program is simply kept unshared */
    if ((pool->index_used + 1) * 2 > pool->index_cap && !index_grow(pool))
        return;
    expr_t *slot = index_slot(pool, pool->ops + e->off, e->n);
    if (slot->n) {
        expr_abandon(pool, e);
        e->off = slot->off;
        e->n = slot->n;
        return;
    }
    *slot = (expr_t){ .off = e->off, .n = e->n };
    pool->index_used++;
}

int expr_parse(lex_t *lx, expr_syms_t *syms, expr_pool_t *pool, expr_t *out, rs_error_t *err)
{
    expr_begin(pool, lx, out);
    int rc = expr_parse_next(lx, syms, pool, out, err);
    if (!rc)
        expr_end(pool, out);
    return rc;
}

static int overflow(const expr_env_t *env, const expr_t *e, const expr_op_t *op, rs_error_t *err)
{
    return error_set(err, RS_EINPUT, env->file, e->line, e->col + op->col, "integer overflow (64-bit)");
}

/* Expressions first..first+n-1 of e's program into out (and their columns
 * into cols); the ones before first are skipped unevaluated, the ones after
 * are not reached. */
static int run(const expr_t *e, const expr_env_t *env, int32_t first, int32_t n, int64_t *out, int32_t *cols,
               rs_error_t *err)
{
    int64_t st[EXPR_MAX_DEPTH + 1];
    int sp = 0;
    int32_t k = 0, i = 0;
    /* a routine of scalars has no ops at all: NULL + 0 is undefined */
    const expr_op_t *ops = e->n ? env->pool->ops + e->off : NULL;
    for (int32_t skipped = 0; skipped < first && i < e->n; i++)
        skipped += ops[i].kind == OP_END;
    for (; k < n && i < e->n; i++) {
        const expr_op_t *op = &ops[i];
        int64_t a, b, r;
        switch (op->kind) {
        case OP_CONST:
            st[sp++] = op->value;
            continue;
        case OP_SYM:
            if (!env->bound || !env->bound[op->value])
                return error_set(err, RS_EINPUT, env->file, e->line, e->col + op->col,
                                 "unbound symbol '%s' (bind it with `bind %s=...` or --bind %s=N)",
                                 env->syms->names[op->value], env->syms->names[op->value],
                                 env->syms->names[op->value]);
            st[sp++] = env->values[op->value];
            continue;
        case OP_NEG:
            if (st[sp - 1] == INT64_MIN)
                return overflow(env, e, op, err);
            st[sp - 1] = -st[sp - 1];
            continue;
        case OP_END:
            if (sp != 1)
                return error_set(err, RS_EINVAL, env->file, e->line, e->col + op->col, "corrupt expression");
            if (cols)
                cols[k] = e->col + op->col;
            out[k++] = st[--sp];
            continue;
        default:
            break;
        }
        b = st[--sp];
        a = st[--sp];
        switch (op->kind) {
        case OP_ADD:
            if (!checked_add(a, b, &r))
                return overflow(env, e, op, err);
            break;
        case OP_SUB:
            if (!checked_sub(a, b, &r))
                return overflow(env, e, op, err);
            break;
        case OP_MUL:
            if (!checked_mul(a, b, &r))
                return overflow(env, e, op, err);
            break;
        case OP_DIV:
            if (b == 0)
                return error_set(err, RS_EINPUT, env->file, e->line, e->col + op->col, "division by zero");
            if (a == INT64_MIN && b == -1)
                return overflow(env, e, op, err);
            r = floor_div(a, b);
            break;
        case OP_SHL:
            if (b < 0 || b > 63 || a < 0 || (b > 0 && a > (INT64_MAX >> b)))
                return overflow(env, e, op, err);
            r = a << b;
            break;
        default:
            return error_set(err, RS_EINVAL, env->file, e->line, e->col + op->col, "corrupt expression");
        }
        st[sp++] = r;
    }
    if (k != n)
        return error_set(err, RS_EINVAL, env->file, e->line, e->col, "corrupt expression");
    return RS_OK;
}

int expr_eval_list(const expr_t *e, const expr_env_t *env, int64_t *out, int32_t *cols, int32_t n,
                   rs_error_t *err)
{
    return run(e, env, 0, n, out, cols, err);
}

int expr_eval_at(const expr_t *e, const expr_env_t *env, int32_t k, int64_t *out, rs_error_t *err)
{
    return run(e, env, k, 1, out, NULL, err);
}

int expr_eval(const expr_t *e, const expr_env_t *env, int64_t *out, rs_error_t *err)
{
    return run(e, env, 0, 1, out, NULL, err);
}
