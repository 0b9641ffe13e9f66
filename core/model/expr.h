/* expr: 64-bit integer expressions over named symbols (bindings).
 * Grammar: + - * / (floor division), << (shift left), unary -, parentheses,
 * decimal literals and names.  Compiled once to a small postfix program in
 * a pool and evaluated many times; overflow and division by zero are errors
 * that name the column of the operator. */
#ifndef RS_EXPR_H
#define RS_EXPR_H

#include <stdint.h>

#include "model/lex.h"
#include "util/error.h"
#include "util/strmap.h"

typedef struct expr_op {
    uint8_t kind;  /* internal opcode */
    int32_t col;   /* source column, counted from the program's column */
    int64_t value; /* literal, or symbol id */
} expr_op_t;

/* A compiled program: ops[off..off+n) of a pool, which leave one value for
 * each expression it was built from (a shape's dimensions, or one cost).
 * Identical programs share their ops: a routine that writes `[B, D]` a
 * million times keeps those ops once. */
typedef struct expr {
    int32_t off, n;
    int32_t line;
    int32_t col;    /* where its first expression starts */
} expr_t;

/* Where a routine's programs live, with an index that finds a program
 * identical to one just built. */
typedef struct expr_pool {
    expr_op_t *ops; /* owned */
    int32_t n, cap;
    expr_t *index;  /* open addressing by content; n == 0 marks a free slot */
    int32_t index_cap, index_used;
} expr_pool_t;

/* Symbols of one routine: an interning map plus their names, indexed by id. */
typedef struct expr_syms {
    strmap_t *map;
    char **names; /* owned */
    int32_t n, cap;
} expr_syms_t;

/* What an evaluation looks symbols up in; values[i] is used when bound[i]. */
typedef struct expr_env {
    const int64_t *values;
    const unsigned char *bound;
    const expr_syms_t *syms;
    const char *file;
    const expr_pool_t *pool; /* where the programs' ops are */
} expr_env_t;

void expr_pool_init(expr_pool_t *pool);
void expr_pool_free(expr_pool_t *pool);

/* Gives back the pool's growth slack and its index, once no more programs
 * are coming: the programs stay valid, and any added later are not shared
 * with earlier ones. */
void expr_pool_compact(expr_pool_t *pool);

/* Starts an empty program in pool at the cursor (after blanks).  Only one
 * program is built at a time in a pool: the newest, until expr_end. */
void expr_begin(expr_pool_t *pool, lex_t *lx, expr_t *e);

/* Parses one expression at the cursor (after blanks) onto the end of e's
 * program, interning every name in syms.  Stops before the first character
 * that cannot continue the expression.  On error the program is dropped
 * (as by expr_abandon). */
int expr_parse_next(lex_t *lx, expr_syms_t *syms, expr_pool_t *pool, expr_t *e, rs_error_t *err);

/* Ends e's program; one identical to an earlier program shares its ops. */
void expr_end(expr_pool_t *pool, expr_t *e);

/* Drops the program being built: the pool forgets its ops. */
void expr_abandon(expr_pool_t *pool, expr_t *e);

/* One expression at the cursor as a program of its own (begin, parse_next,
 * end). */
int expr_parse(lex_t *lx, expr_syms_t *syms, expr_pool_t *pool, expr_t *out, rs_error_t *err);

/* Evaluates a program's first expression; an unbound name, an overflow or a
 * division by zero is an RS_EINPUT error at the column where it happens. */
int expr_eval(const expr_t *e, const expr_env_t *env, int64_t *out, rs_error_t *err);

/* Evaluates the first n expressions of a program (it has at least n) into
 * out[0..n), and when cols is not NULL the column each starts at into
 * cols[0..n).  Errors as expr_eval. */
int expr_eval_list(const expr_t *e, const expr_env_t *env, int64_t *out, int32_t *cols, int32_t n,
                   rs_error_t *err);

/* Evaluates expression k (from 0) of a program, skipping the ones before it
 * unevaluated.  Errors as expr_eval. */
int expr_eval_at(const expr_t *e, const expr_env_t *env, int32_t k, int64_t *out, rs_error_t *err);

/* Interns name[0..len) and returns its id, or -1 when out of memory. */
int32_t expr_syms_intern(expr_syms_t *s, const char *name, size_t len);
int expr_syms_init(expr_syms_t *s);
void expr_syms_free(expr_syms_t *s);

#endif
