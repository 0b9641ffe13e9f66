/* expr: 64-bit integer expressions over named symbols (bindings).
 * Grammar: + - * / (floor division), << (shift left), unary -, parentheses,
 * decimal literals and names.  Compiled once to a small postfix program and
 * evaluated many times; overflow and division by zero are errors that name
 * the column of the operator. */
#ifndef RS_EXPR_H
#define RS_EXPR_H

#include <stdint.h>

#include "model/lex.h"
#include "util/error.h"
#include "util/strmap.h"

typedef struct expr_op {
    uint8_t kind;  /* internal opcode */
    int32_t col;   /* source column, for errors */
    int64_t value; /* literal, or symbol id */
} expr_op_t;

typedef struct expr {
    expr_op_t *ops; /* owned */
    int32_t n;
    int32_t line;
    int32_t col;    /* where the expression starts */
} expr_t;

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
} expr_env_t;

/* Parses an expression at the cursor (after blanks), interning every name
 * in syms.  Fills *out (free with expr_free).  Stops before the first
 * character that cannot continue the expression. */
int expr_parse(lex_t *lx, expr_syms_t *syms, expr_t *out, rs_error_t *err);

/* Evaluates e; an unbound name, an overflow or a division by zero is an
 * RS_EINPUT error at the column where it happens. */
int expr_eval(const expr_t *e, const expr_env_t *env, int64_t *out, rs_error_t *err);

/* Releases what e owns (e itself is the caller's). */
void expr_free(expr_t *e);

/* Interns name[0..len) and returns its id, or -1 when out of memory. */
int32_t expr_syms_intern(expr_syms_t *s, const char *name, size_t len);
int expr_syms_init(expr_syms_t *s);
void expr_syms_free(expr_syms_t *s);

#endif
