#include "model/expr.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

enum { OP_CONST, OP_SYM, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SHL, OP_NEG };

#define EXPR_MAX_DEPTH 64

typedef struct parser {
    lex_t *lx;
    expr_syms_t *syms;
    expr_t *e;
    int32_t cap;
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
    if (p->e->n == p->cap) {
        int32_t ncap = p->cap ? p->cap * 2 : 8;
        expr_op_t *no = realloc(p->e->ops, (size_t)ncap * sizeof *no);
        if (!no)
            return error_set(p->err, RS_ENOMEM, p->lx->file, p->lx->line, col, "out of memory");
        p->e->ops = no;
        p->cap = ncap;
    }
    p->e->ops[p->e->n++] = (expr_op_t){ .kind = kind, .col = col, .value = value };
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

int expr_parse(lex_t *lx, expr_syms_t *syms, expr_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    lex_skip_ws(lx);
    out->line = lx->line;
    out->col = lex_col(lx);
    parser_t p = { .lx = lx, .syms = syms, .e = out, .err = err };
    int rc = parse_shift(&p);
    if (!rc && p.maxstack > EXPR_MAX_DEPTH)
        rc = error_set(err, RS_EINPUT, lx->file, lx->line, out->col,
                       "expression needs more than %d intermediate values", EXPR_MAX_DEPTH);
    if (rc) {
        expr_free(out);
        return rc;
    }
    /* most expressions are one or three ops: keep no slack (a million-step
     * routine holds millions of them) */
    if (out->n < p.cap) {
        expr_op_t *fit = realloc(out->ops, (size_t)out->n * sizeof *fit);
        if (fit)
            out->ops = fit;
    }
    return RS_OK;
}

void expr_free(expr_t *e)
{
    free(e->ops);
    e->ops = NULL;
    e->n = 0;
}

static int overflow(const expr_env_t *env, const expr_t *e, int col, rs_error_t *err)
{
    return error_set(err, RS_EINPUT, env->file, e->line, col, "integer overflow (64-bit)");
}

int expr_eval(const expr_t *e, const expr_env_t *env, int64_t *out, rs_error_t *err)
{
    int64_t st[EXPR_MAX_DEPTH + 1];
    int sp = 0;
    for (int32_t i = 0; i < e->n; i++) {
        const expr_op_t *op = &e->ops[i];
        int64_t a, b, r;
        switch (op->kind) {
        case OP_CONST:
            st[sp++] = op->value;
            continue;
        case OP_SYM:
            if (!env->bound || !env->bound[op->value])
                return error_set(err, RS_EINPUT, env->file, e->line, op->col,
                                 "unbound symbol '%s' (bind it with `bind %s=...` or --bind %s=N)",
                                 env->syms->names[op->value], env->syms->names[op->value],
                                 env->syms->names[op->value]);
            st[sp++] = env->values[op->value];
            continue;
        case OP_NEG:
            if (st[sp - 1] == INT64_MIN)
                return overflow(env, e, op->col, err);
            st[sp - 1] = -st[sp - 1];
            continue;
        default:
            break;
        }
        b = st[--sp];
        a = st[--sp];
        switch (op->kind) {
        case OP_ADD:
            if (!checked_add(a, b, &r))
                return overflow(env, e, op->col, err);
            break;
        case OP_SUB:
            if (!checked_sub(a, b, &r))
                return overflow(env, e, op->col, err);
            break;
        case OP_MUL:
            if (!checked_mul(a, b, &r))
                return overflow(env, e, op->col, err);
            break;
        case OP_DIV:
            if (b == 0)
                return error_set(err, RS_EINPUT, env->file, e->line, op->col, "division by zero");
            if (a == INT64_MIN && b == -1)
                return overflow(env, e, op->col, err);
            r = floor_div(a, b);
            break;
        case OP_SHL:
            if (b < 0 || b > 63 || a < 0 || (b > 0 && a > (INT64_MAX >> b)))
                return overflow(env, e, op->col, err);
            r = a << b;
            break;
        default:
            return error_set(err, RS_EINVAL, env->file, e->line, op->col, "corrupt expression");
        }
        st[sp++] = r;
    }
    *out = st[0];
    return RS_OK;
}
