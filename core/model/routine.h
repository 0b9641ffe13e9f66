/* routine: the `.routine` file format of DESIGN §1, parsed into statements
 * whose shapes and costs are still expressions over the bindings. */
#ifndef RS_ROUTINE_H
#define RS_ROUTINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/dtype.h"
#include "model/expr.h"
#include "util/error.h"
#include "util/strmap.h"
#include "util/strpool.h"

/* Where a routine's text came from: the §1 format or XLA HLO (§10). */
enum routine_format { ROUTINE_TEXT, ROUTINE_HLO };

enum node_kind { NODE_INPUT, NODE_PARAM, NODE_DEF };
/* FLAG_INTO: `@into(X)`, written into input X's buffer (routine_into says
 * which X): it holds no bytes of its own and is never a flip candidate. */
enum node_flag { FLAG_OUTPUT = 1, FLAG_PINNED = 2, FLAG_INLINE = 4, FLAG_INTO = 8 };

/* Where a node came from (NULL when not said): an HLO instruction's name,
 * its metadata op_name, "FILE:LINE" of the user's frame (or source_file:
 * source_line), and that frame's function (DESIGN §10). */
typedef struct routine_origin {
    const char *hlo, *op_name, *source, *function;
} routine_origin_t;

/* The origin of a node that says none (all NULL). */
extern const routine_origin_t routine_no_origin;

typedef struct routine_node {
    char *name;     /* in the routine's strings */
    const routine_origin_t *origin; /* never NULL; in the routine's strings */
    expr_t shape;   /* of an input/param, ndims expressions; a definition's is on its first step */
    int32_t ndims;
    int32_t line, col;
    uint8_t kind;   /* enum node_kind */
    uint8_t dtype;
    uint8_t flags;  /* enum node_flag */
} routine_node_t;

typedef struct routine_step {
    int32_t node;     /* the node it defines (its owner) */
    int32_t op;       /* the operation's name: r->ops.names[op] */
    int32_t args_off; /* node indices r->args[args_off..+nargs), in order, repeats kept */
    int32_t nargs;
    expr_t prog;      /* the shape as written on this statement (ndims
                       * expressions), then the cost when has_cost */
    int32_t ndims;
    int32_t dims_col; /* of its '[' */
    int32_t line, col;
    int8_t dtype;     /* -1 when the statement names none */
    bool accum;       /* `+=` */
    bool has_cost;
} routine_step_t;

/* A node written into an input's buffer (`@into(X)`, DESIGN §1). */
typedef struct routine_into {
    int32_t node, input;
} routine_into_t;

/* What an HLO module's input_output_alias did (DESIGN §10 "Donated
 * buffers"): pairs read, pairs that donated (an array node written into its
 * parameter, or a tuple-shaped node's leaf), and the bytes they took. */
typedef struct routine_donation {
    int32_t pairs, donated;
    int64_t bytes;
} routine_donation_t;

typedef struct routine {
    char *name;
    char *path;             /* as handed to routine_parse, for errors */
    routine_node_t *nodes;  /* index order = declaration order */
    int32_t n_nodes;
    routine_step_t *steps;  /* schedule order */
    int32_t n_steps;
    int32_t *args;          /* every step's arguments, one after another */
    int32_t n_args;
    expr_syms_t syms;       /* every name used in an expression or a bind */
    expr_syms_t ops;        /* operation names, shared by the steps */
    expr_pool_t exprs;      /* every shape and cost program */
    strpool_t strings;      /* node names and origins */
    int64_t *bind_value;    /* default bindings, indexed by symbol id */
    unsigned char *bind_set;
    strmap_t *node_map;     /* name -> node index */
    routine_into_t *into;   /* the @into nodes, ascending by node */
    routine_into_t *into_by_input; /* the same, ascending by input (then node) */
    int32_t n_into;
    uint8_t format;         /* enum routine_format */
    routine_donation_t donation; /* ROUTINE_HLO: what the reader donated */
    bool hlo_scheduled;     /* ROUTINE_HLO: its module is scheduled (is_scheduled=true): after XLA's passes */
} routine_t;

/* The operation name of step s. */
static inline const char *routine_op(const routine_t *r, int32_t s) { return r->ops.names[r->steps[s].op]; }

/* The arguments of step s: r->steps[s].nargs node indices. */
static inline const int32_t *routine_args(const routine_t *r, int32_t s) { return r->args + r->steps[s].args_off; }

/* What expressions of r are evaluated in, under bindings values/set. */
static inline expr_env_t routine_env(const routine_t *r, const int64_t *values, const unsigned char *set)
{
    return (expr_env_t){ values, set, &r->syms, r->path, &r->exprs };
}

/* Bindings in force for one lowering: a value for each routine symbol. */
typedef struct bindings {
    int32_t n;
    int64_t *value;
    unsigned char *set;
} bindings_t;

/* Parses text[0..len) (the contents of path) into a new routine.  Any error
 * is RS_EINPUT with path, line and column and what was expected; nothing is
 * returned on error. */
int routine_parse(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err);

void routine_free(routine_t *r);

/* Gives r the name name (copied): a routine a store keeps under a name of
 * its user's, not the one its text says.  RS_ENOMEM leaves r as it was. */
int routine_set_name(routine_t *r, const char *name, rs_error_t *err);

/* The index of the node named name, or -1. */
int32_t routine_find_node(const routine_t *r, const char *name);

/* The input node i is written into (`@into`), or -1.  O(log n_into). */
int32_t routine_into(const routine_t *r, int32_t i);

/* What donation means for node i, for a pane or a tooltip: "written into
 * P's buffer: donated" for an @into node, "takes N's result: donated" (",
 * and K more") for an input others are written into, "" otherwise.
 * Returns buf. */
const char *routine_into_text(const routine_t *r, int32_t i, char *buf, size_t n);

/* Where node i came from, for one line of a table or a pane: "HLO_NAME
 * OP_NAME FILE:LINE" with what is known (the HLO name only when it differs
 * from the node's), "" when nothing is.  Returns buf. */
const char *routine_node_origin(const routine_t *r, int32_t i, char *buf, size_t n);

/* Builds the bindings for r: its defaults, then each "K=V" override (V an
 * integer, may be negative).  An override naming no symbol of r, or a
 * malformed one, is an RS_EINPUT error naming "--bind". */
int routine_bindings(const routine_t *r, const char *const *overrides, int n_overrides,
                     bindings_t *out, rs_error_t *err);
void bindings_free(bindings_t *b);

#endif
