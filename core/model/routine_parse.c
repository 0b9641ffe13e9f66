/* routine_parse: the §1 `.routine` text read, line by line and statement
 * by statement, into a routine. */
#include "model/routine_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"


static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

int routine_oom(parse_t *p) { return error_set(p->err, RS_ENOMEM, p->r->path, p->lx.line, 0, "out of memory"); }

int routine_expected(parse_t *p, const char *what)
{
    char found[64];
    lex_describe_next(&p->lx, found, sizeof found);
    return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, lex_col(&p->lx),
                     "expected %s, found %s", what, found);
}

/* `[e, e, ...]` -> a program of *n expressions in the routine's pool, left
 * open for more (a cost) unless `end`.  (Any error ends the parse and frees
 * the routine, pool and all, so what a failed statement left in the pools
 * needs no undoing.) */
static int parse_dims(parse_t *p, expr_t *shape, int32_t *n, int32_t *col, bool end)
{
    *n = 0;
    lex_skip_ws(&p->lx);
    *col = lex_col(&p->lx);
    if (!lex_accept(&p->lx, "["))
        return routine_expected(p, "'[' starting the shape (e.g. [B, D], or [] for a scalar)");
    expr_begin(&p->r->exprs, &p->lx, shape);
    if (lex_accept(&p->lx, "]"))
        return RS_OK; /* no program to end: it has no ops yet */
    for (;;) {
        int rc = expr_parse_next(&p->lx, &p->r->syms, &p->r->exprs, shape, p->err);
        if (rc)
            return rc;
        (*n)++;
        if (lex_accept(&p->lx, "]")) {
            if (end)
                expr_end(&p->r->exprs, shape);
            return RS_OK;
        }
        if (!lex_accept(&p->lx, ","))
            return routine_expected(p, "',' or ']' in the shape");
    }
}

/* Appends a node; the name is checked for redefinition by the caller. */
static int add_node(parse_t *p, const char *name, size_t nlen, uint8_t kind, int col, int32_t *idx)
{
    routine_t *r = p->r;
    if (vec_reserve((void **)&r->nodes, &p->cap_nodes, (int64_t)r->n_nodes + 1, sizeof *r->nodes))
        return routine_oom(p);
    routine_node_t *nd = &r->nodes[r->n_nodes];
    memset(nd, 0, sizeof *nd);
    nd->name = strpool_dup(&r->strings, name, nlen);
    nd->origin = &routine_no_origin;
    if (!nd->name || strmap_put(r->node_map, name, nlen, r->n_nodes) != 0)
        return routine_oom(p);
    nd->kind = kind;
    nd->dtype = (uint8_t)p->cur_dtype;
    nd->line = p->lx.line;
    nd->col = col;
    *idx = r->n_nodes++;
    return RS_OK;
}

static int check_new_name(parse_t *p, const char *name, size_t nlen, int col)
{
    int32_t prev = strmap_get(p->r->node_map, name, nlen);
    if (prev < 0)
        return RS_OK;
    return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                     "'%.*s' is already defined at line %d (use += to accumulate into it)",
                     (int)nlen, name, (int)p->r->nodes[prev].line);
}

static int stmt_routine(parse_t *p, int col)
{
    if (p->seen_routine)
        return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                         "a second `routine` statement (the name is given once, first)");
    const char *n;
    size_t nl;
    if (!lex_ident(&p->lx, &n, &nl))
        return routine_expected(p, "the routine's name after `routine`");
    if (!lex_at_end(&p->lx))
        return routine_expected(p, "end of line after the routine's name");
    p->r->name = dup_n(n, nl);
    if (!p->r->name)
        return routine_oom(p);
    p->seen_routine = true;
    p->routine_line = p->lx.line;
    return RS_OK;
}

static int ensure_bind_slots(parse_t *p)
{
    routine_t *r = p->r;
    if (r->syms.n <= p->bind_cap)
        return RS_OK;
    int32_t ncap = r->syms.cap > r->syms.n ? r->syms.cap : r->syms.n;
    int64_t *nv = realloc(r->bind_value, (size_t)ncap * sizeof *nv);
    if (nv)
        r->bind_value = nv;
    unsigned char *ns = realloc(r->bind_set, (size_t)ncap);
    if (ns)
        r->bind_set = ns;
    int32_t *nl = realloc(p->bind_line, (size_t)ncap * sizeof *nl);
    if (nl)
        p->bind_line = nl;
    if (!nv || !ns || !nl)
        return routine_oom(p);
    for (int32_t i = p->bind_cap; i < ncap; i++) {
        r->bind_value[i] = 0;
        r->bind_set[i] = 0;
        p->bind_line[i] = 0;
    }
    p->bind_cap = ncap;
    return RS_OK;
}

static int stmt_bind(parse_t *p)
{
    int count = 0;
    while (!lex_at_end(&p->lx)) {
        const char *n;
        size_t nl;
        int col = lex_col(&p->lx);
        if (!lex_ident(&p->lx, &n, &nl))
            return routine_expected(p, "NAME=INT in `bind`");
        if (!lex_accept(&p->lx, "="))
            return routine_expected(p, "'=' after the binding's name");
        expr_t e;
        int rc = expr_parse(&p->lx, &p->r->syms, &p->r->exprs, &e, p->err);
        if (rc)
            return rc;
        int32_t id = expr_syms_intern(&p->r->syms, n, nl);
        if (id < 0 || ensure_bind_slots(p))
            return routine_oom(p);
        if (p->r->bind_set[id]) {
            return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                             "'%.*s' is already bound at line %d", (int)nl, n, (int)p->bind_line[id]);
        }
        /* bindings may use earlier ones: `bind H=4*D` */
        expr_env_t env = routine_env(p->r, p->r->bind_value, p->r->bind_set);
        int64_t v;
        rc = expr_eval(&e, &env, &v, p->err);
        if (rc)
            return rc;
        p->r->bind_value[id] = v;
        p->r->bind_set[id] = 1;
        p->bind_line[id] = p->lx.line;
        count++;
        lex_accept(&p->lx, ","); /* optional separator */
    }
    if (!count)
        return routine_expected(p, "at least one NAME=INT after `bind`");
    return RS_OK;
}

static int stmt_dtype(parse_t *p)
{
    const char *n;
    size_t nl;
    int col = lex_col(&p->lx);
    if (!lex_ident(&p->lx, &n, &nl))
        return routine_expected(p, "a type after `dtype` (u8 i8 f16 bf16 f32 i32 f64 i64)");
    int t = dtype_lookup(n, nl);
    if (t < 0)
        return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col + 0,
                         "unknown type '%.*s' (expected u8 i8 f16 bf16 f32 i32 f64 i64, or an XLA type: pred s32 bf16 ...)", (int)nl, n);
    p->cur_dtype = t;
    return RS_OK;
}

/* An optional type name, at most once. */
static int parse_opt_dtype(parse_t *p, int *dt)
{
    lex_t save = p->lx;
    const char *n;
    size_t nl;
    if (!lex_ident(&p->lx, &n, &nl))
        return RS_OK;
    int t = dtype_lookup(n, nl);
    if (t < 0) {
        p->lx = save;
        return RS_OK;
    }
    *dt = t;
    return RS_OK;
}

static int stmt_resident(parse_t *p, uint8_t kind)
{
    const char *n;
    size_t nl;
    lex_skip_ws(&p->lx);
    int col = lex_col(&p->lx);
    if (!lex_ident(&p->lx, &n, &nl))
        return routine_expected(p, kind == NODE_INPUT ? "a name after `input`" : "a name after `param`");
    int rc = check_new_name(p, n, nl, col);
    if (rc)
        return rc;
    expr_t shape;
    int32_t nd, dcol;
    if ((rc = parse_dims(p, &shape, &nd, &dcol, true)))
        return rc;
    int dt = p->cur_dtype;
    uint8_t flags = 0;
    char *origin[4] = { NULL, NULL, NULL, NULL };
    char **fields[4] = { &origin[0], &origin[1], &origin[2], &origin[3] };
    parse_opt_dtype(p, &dt);
    rc = routine_parse_flags(p, &flags, NULL);
    for (bool took = true; !rc && took;) {
        const char *w;
        size_t wl;
        lex_skip_ws(&p->lx);
        int wcol = lex_col(&p->lx);
        lex_t save = p->lx;
        took = false;
        if (lex_ident(&p->lx, &w, &wl) && !(rc = routine_parse_origin(p, w, wl, wcol, fields, &took)) && !took)
            p->lx = save;
    }
    int32_t idx;
    if (rc || (!lex_at_end(&p->lx) && (rc = routine_expected(p, "a type, @flags, hlo=/op_name=/source= or end of line"))) ||
        (rc = add_node(p, n, nl, kind, col, &idx)))
        return rc;
    routine_node_t *node = &p->r->nodes[idx];
    node->shape = shape;
    node->ndims = nd;
    node->dtype = (uint8_t)dt;
    node->flags = flags;
    return routine_set_origin(p, node, origin);
}

/* The line of the first statement, from the current one on, that defines
 * name[0..nl) (its first word, or the one after input/param), or 0.  Asked
 * only on the error path, so a parse keeps no map of names defined later. */
int32_t routine_later_definition(const parse_t *p, const char *name, size_t nl)
{
    int32_t line = p->lx.line;
    for (size_t i = (size_t)(p->lx.s - p->text), next; i < p->text_len; i = next, line++) {
        size_t ll = lex_line_span(p->text, p->text_len, i, &next);
        lex_t lx = { .file = p->r->path, .s = p->text + i, .len = ll, .line = line };
        const char *n;
        size_t wl;
        if (!lex_ident(&lx, &n, &wl))
            continue;
        if ((wl == 5 && memcmp(n, "input", 5) == 0) || (wl == 5 && memcmp(n, "param", 5) == 0)) {
            lex_t save = lx;
            if (!lex_accept(&lx, "=") && !lex_accept(&lx, "+=")) {
                lx = save;
                if (!lex_ident(&lx, &n, &wl))
                    continue;
            }
        }
        if (wl == nl && memcmp(n, name, nl) == 0)
            return line;
    }
    return 0;
}

static int parse_args(parse_t *p, routine_step_t *s)
{
    routine_t *r = p->r;
    s->args_off = r->n_args;
    if (lex_accept(&p->lx, ")"))
        return RS_OK;
    for (;;) {
        const char *n;
        size_t nl;
        lex_skip_ws(&p->lx);
        int col = lex_col(&p->lx);
        if (!lex_ident(&p->lx, &n, &nl))
            return routine_expected(p, "an argument name");
        int32_t idx = strmap_get(p->r->node_map, n, nl);
        if (idx < 0) {
            int32_t later = routine_later_definition(p, n, nl);
            if (later > 0)
                return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                                 "'%.*s' is used before its definition at line %d "
                                 "(a cycle, or a use out of schedule order)", (int)nl, n, (int)later);
            return error_set(p->err, RS_EINPUT, p->r->path, p->lx.line, col,
                             "unknown name '%.*s' (not an input, param or earlier definition)", (int)nl, n);
        }
        if (r->n_args == INT32_MAX)
            return error_set(p->err, RS_EINPUT, r->path, p->lx.line, col, "more than 2^31 arguments in all");
        if (vec_reserve((void **)&r->args, &p->cap_args, (int64_t)r->n_args + 1, sizeof *r->args))
            return routine_oom(p);
        r->args[r->n_args++] = idx;
        s->nargs++;
        if (lex_accept(&p->lx, ")"))
            return RS_OK;
        if (!lex_accept(&p->lx, ","))
            return routine_expected(p, "',' or ')' in the argument list");
    }
}

static int stmt_define(parse_t *p, const char *name, size_t nlen, int col, bool accum)
{
    routine_t *r = p->r;
    int rc;
    int32_t node = strmap_get(r->node_map, name, nlen);
    if (accum && node < 0)
        return error_set(p->err, RS_EINPUT, r->path, p->lx.line, col,
                         "'+=' on '%.*s', which is not defined yet (define it with '=' first)", (int)nlen, name);
    if (accum && r->nodes[node].kind != NODE_DEF)
        return error_set(p->err, RS_EINPUT, r->path, p->lx.line, col,
                         "'+=' on '%.*s', which is an %s (only computed nodes accumulate)", (int)nlen, name,
                         r->nodes[node].kind == NODE_INPUT ? "input" : "param");
    if (!accum && (rc = check_new_name(p, name, nlen, col)))
        return rc;

    routine_step_t s;
    memset(&s, 0, sizeof s);
    s.accum = accum;
    s.dtype = -1;
    s.line = p->lx.line;
    s.col = col;
    const char *op;
    size_t ol;
    if (!lex_ident(&p->lx, &op, &ol))
        return routine_expected(p, "an operation name (e.g. matmul(x, w))");
    if ((s.op = expr_syms_intern(&r->ops, op, ol)) < 0)
        return routine_oom(p);
    if (!lex_accept(&p->lx, "("))
        return routine_expected(p, "'(' after the operation name");
    /* the shape's program stays open: a cost joins it, one program a step */
    if ((rc = parse_args(p, &s)) || (rc = parse_dims(p, &s.prog, &s.ndims, &s.dims_col, false)))
        return rc;
    uint8_t flags = 0;
    into_ref_t into = { 0 };
    char *origin[4] = { NULL, NULL, NULL, NULL };
    char **fields[4] = { &origin[0], &origin[1], &origin[2], &origin[3] };
    for (;;) {
        lex_skip_ws(&p->lx);
        int tcol = lex_col(&p->lx);
        lex_t save = p->lx;
        const char *w;
        size_t wl;
        if (lex_ident(&p->lx, &w, &wl)) {
            int t = dtype_lookup(w, wl);
            if (t >= 0 && s.dtype < 0) {
                s.dtype = (int8_t)t;
                continue;
            }
            bool took = false;
            if (!accum && ((rc = routine_parse_origin(p, w, wl, tcol, fields, &took)) || took)) {
                if (rc)
                    break;
                continue;
            }
            if (wl == 4 && memcmp(w, "cost", 4) == 0 && !s.has_cost) {
                if (!lex_accept(&p->lx, "=")) {
                    rc = routine_expected(p, "'=' after cost");
                    break;
                }
                if ((rc = expr_parse_next(&p->lx, &r->syms, &r->exprs, &s.prog, p->err)))
                    break;
                s.has_cost = true;
                continue;
            }
            p->lx = save;
            rc = error_set(p->err, RS_EINPUT, r->path, p->lx.line, tcol,
                           "unexpected '%.*s' (expected a type, cost=EXPR, @flags or end of line)",
                           (int)(wl > 40 ? 40 : wl), w);
            break;
        }
        if (p->lx.pos < p->lx.len && p->lx.s[p->lx.pos] == '@') {
            if (accum) {
                rc = error_set(p->err, RS_EINPUT, r->path, p->lx.line, tcol,
                               "flags belong on the first definition ('='), not on '+='");
                break;
            }
            if ((rc = routine_parse_flags(p, &flags, &into)))
                break;
            continue;
        }
        break;
    }
    if (!rc && !lex_at_end(&p->lx))
        rc = routine_expected(p, "a type, cost=EXPR, @flags, hlo=/op_name=/source= or end of line");
    if (rc)
        return rc;
    expr_end(&r->exprs, &s.prog);
    if (accum && s.dtype >= 0 && s.dtype != r->nodes[node].dtype) {
        int dt = s.dtype;
        return error_set(p->err, RS_EINPUT, r->path, p->lx.line, col,
                         "'+=' with type %s on '%.*s' of type %s", dtype_name((dtype_t)dt), (int)nlen, name,
                         dtype_name((dtype_t)r->nodes[node].dtype));
    }
    int32_t input = -1;
    if (into.name && (rc = routine_resolve_into(p, &into, name, nlen, &input)))
        return rc;
    if (vec_reserve((void **)&r->steps, &p->cap_steps, (int64_t)r->n_steps + 1, sizeof *r->steps))
        return routine_oom(p);
    if (!accum && (rc = add_node(p, name, nlen, NODE_DEF, col, &node)))
        return rc;
    if (input >= 0 && (rc = routine_add_into(p, node, input)))
        return rc;
    if (!accum) {
        routine_node_t *nd = &r->nodes[node];
        nd->flags = flags | (input >= 0 ? FLAG_INTO : 0);
        if ((rc = routine_set_origin(p, nd, origin)))
            return rc;
        if (s.dtype >= 0)
            nd->dtype = (uint8_t)s.dtype;
        /* the node's shape is its first definition's; steps keep their own
         * copy for the += shape check, so the node borrows none */
        nd->ndims = 0;
        nd->shape = (expr_t){ 0 };
    }
    s.node = node;
    r->steps[r->n_steps++] = s;
    return RS_OK;
}

static int parse_line(parse_t *p)
{
    lex_t *lx = &p->lx;
    if (lex_at_end(lx))
        return RS_OK;
    const char *nul = memchr(lx->s, 0, lx->len);
    if (nul)
        return error_set(p->err, RS_EINPUT, p->r->path, lx->line, lex_col_at(lx, (size_t)(nul - lx->s)),
                         "NUL byte in a text file (is this a routine file?)");
    lex_skip_ws(lx);
    int col = lex_col(lx);
    const char *w;
    size_t wl;
    if (!lex_ident(lx, &w, &wl)) {
        if (!p->seen_routine)
            return routine_expected(p, "`routine NAME` as the first statement");
        return routine_expected(p, "a statement (routine, bind, dtype, input, param, or NAME = OP(ARGS) [DIMS])");
    }
    lex_skip_ws(lx);
    const char *rest = lx->s + lx->pos;
    size_t rest_len = lx->len - lx->pos;
    bool is_def = (rest_len >= 2 && rest[0] == '+' && rest[1] == '=') ||
                  (rest_len >= 1 && rest[0] == '=' && !(rest_len >= 2 && rest[1] == '='));
    bool is_routine = !is_def && wl == 7 && memcmp(w, "routine", 7) == 0;
    if (!p->seen_routine && !is_routine)
        return error_set(p->err, RS_EINPUT, p->r->path, lx->line, col,
                         "expected `routine NAME` as the first statement");
    if (is_def) {
        bool accum = lex_accept(lx, "+=");
        if (!accum)
            lex_accept(lx, "=");
        return stmt_define(p, w, wl, col, accum);
    }
    if (is_routine)
        return stmt_routine(p, col);
    if (wl == 4 && memcmp(w, "bind", 4) == 0)
        return stmt_bind(p);
    if (wl == 5 && memcmp(w, "dtype", 5) == 0) {
        int rc = stmt_dtype(p);
        if (!rc && !lex_at_end(lx))
            return routine_expected(p, "end of line after the type");
        return rc;
    }
    if (wl == 5 && memcmp(w, "input", 5) == 0)
        return stmt_resident(p, NODE_INPUT);
    if (wl == 5 && memcmp(w, "param", 5) == 0)
        return stmt_resident(p, NODE_PARAM);
    return error_set(p->err, RS_EINPUT, p->r->path, lx->line, col,
                     "unknown statement '%.*s' (expected routine, bind, dtype, input, param, "
                     "or NAME = OP(ARGS) [DIMS])", (int)(wl > 40 ? 40 : wl), w);
}

/* Gives back the growth slack of the big arrays (a realloc that cannot
 * shrink keeps the block it had). */
static void shrink_to_fit(routine_t *r)
{
    void *q;
    if (r->n_steps && (q = realloc(r->steps, (size_t)r->n_steps * sizeof *r->steps)))
        r->steps = q;
    if (r->n_nodes && (q = realloc(r->nodes, (size_t)r->n_nodes * sizeof *r->nodes)))
        r->nodes = q;
    if (r->n_args && (q = realloc(r->args, (size_t)r->n_args * sizeof *r->args)))
        r->args = q;
    expr_pool_compact(&r->exprs);
}

int routine_parse(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err)
{
    *out = NULL;
    routine_t *r = calloc(1, sizeof *r);
    if (!r)
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    parse_t p = { .r = r, .err = err, .cur_dtype = DT_F32, .text = text, .text_len = len };
    int rc = RS_OK;
    r->path = dup_n(path, strlen(path));
    r->node_map = strmap_new();
    expr_pool_init(&r->exprs);
    strpool_init(&r->strings);
    int syms_rc = expr_syms_init(&r->syms), ops_rc = expr_syms_init(&r->ops);
    if (!r->path || !r->node_map || syms_rc != RS_OK || ops_rc != RS_OK) {
        rc = error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
        goto done;
    }
    int line = 1;
    for (size_t i = 0, next; i < len && !rc; line++, i = next) {
        size_t ll = lex_line_span(text, len, i, &next);
        p.lx = (lex_t){ .file = r->path, .s = text + i, .len = ll, .line = line };
        rc = parse_line(&p);
    }
    if (!rc && !p.seen_routine)
        rc = error_set(err, RS_EINPUT, path, 1, 1, len ? "expected `routine NAME` as the first statement"
                                                       : "empty file: expected `routine NAME` as the first statement");
    if (!rc && r->n_nodes == 0)
        rc = error_set(err, RS_EINPUT, path, p.routine_line, 1,
                       "routine '%s' declares nothing: expected input, param or NAME = OP(ARGS) [DIMS] after it",
                       r->name);
    if (!rc)
        rc = ensure_bind_slots(&p);
    if (!rc)
        rc = routine_index_into(&p);
    if (!rc)
        shrink_to_fit(r);
done:
    free(p.bind_line);
    if (rc) {
        routine_free(r);
        return rc;
    }
    *out = r;
    return RS_OK;
}
