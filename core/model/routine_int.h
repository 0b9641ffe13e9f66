/* routine_int: what the two halves of the §1 parser share.  routine_parse.c
 * reads the statements, routine_attr.c what follows a statement's shape:
 * flags (`@output @pinned @inline @into(X)`) and where a node came from
 * (`hlo= op_name= source=`, quoted strings).  Not for use outside
 * core/model's routine module. */
#ifndef RS_ROUTINE_INT_H
#define RS_ROUTINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/lex.h"
#include "model/routine.h"

/* Parser state for one file. */
typedef struct parse {
    routine_t *r;
    lex_t lx;
    rs_error_t *err;
    int cur_dtype;
    int32_t cap_nodes, cap_steps, cap_args, cap_into;
    int32_t *bind_line;   /* line of each symbol's bind, 0 when unbound */
    int32_t bind_cap;
    const char *text;     /* the whole file, for the error of a use before its definition */
    size_t text_len;
    bool seen_routine;
    int routine_line;
} parse_t;

/* What `@into(X)` named on a definition's line, checked once the line is
 * read (X must be an earlier input). */
typedef struct into_ref {
    const char *name;  /* NULL: no @into */
    size_t len;
    int col, flag_col; /* of X, and of the '@' */
} into_ref_t;

/* RS_ENOMEM at the current line. */
int routine_oom(parse_t *p);
/* "expected WHAT, found ..." at the cursor. */
int routine_expected(parse_t *p, const char *what);
/* The line of the first statement, from the current one on, that defines
 * name[0..nl), or 0 (asked on error paths only). */
int32_t routine_later_definition(const parse_t *p, const char *name, size_t nl);

/* Flags after a shape: `@output @pinned @inline`, and `@into(X)` into
 * *into (NULL on an input's or param's line, where @into is an error). */
int routine_parse_flags(parse_t *p, uint8_t *flags, into_ref_t *into);
/* The input `@into(X)` names on the line defining name[0..nlen): X must be
 * an input declared above; anything else is an error located at X. */
int routine_resolve_into(parse_t *p, const into_ref_t *into, const char *name, size_t nlen, int32_t *input);
/* Records that node is written into input's buffer (nodes arrive in
 * ascending order, so r->into stays sorted). */
int routine_add_into(parse_t *p, int32_t node, int32_t input);

/* Once every line is read: r->into_by_input, the @into pairs by input. */
int routine_index_into(parse_t *p);

/* `hlo="..."`, `op_name="..."`, `source="..."` if the word w[0..wl) names
 * one: *took true and the value stored in *fields[k] (each given once). */
int routine_parse_origin(parse_t *p, const char *w, size_t wl, int col, char **fields[4], bool *took);
/* Points nd's origin at origin[0..3) (the shared empty one when all are
 * NULL). */
int routine_set_origin(parse_t *p, routine_node_t *nd, char *origin[4]);

#endif
