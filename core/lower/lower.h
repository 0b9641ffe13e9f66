/* lower: (routine, bindings) -> the lowered form: evaluated bytes, costs and
 * shapes, steps with flat argument lists, and each node's reader steps.
 * Independent of placements.  One allocation, so copies are cheap. */
#ifndef RS_LOWER_H
#define RS_LOWER_H

#include <stddef.h>
#include <stdint.h>

#include "model/routine.h"
#include "util/error.h"

typedef struct lowering {
    const routine_t *routine; /* borrowed: names, ops, source lines */
    int32_t n_nodes, n_steps;
    int32_t n_args;           /* total argument occurrences */
    int32_t n_dims;           /* total dimensions over all nodes */
    /* per node */
    int64_t *bytes;           /* 0 for an @into node: it holds none of its own */
    int64_t *elems;
    int64_t *cost;            /* sum of its definitions' costs; 0 for residents */
    uint8_t *kind;            /* enum node_kind */
    uint8_t *flags;           /* enum node_flag */
    int32_t *ndefs;
    int32_t *first_def;       /* step, or -1 for residents */
    int32_t *last_def;
    int32_t *dim_off;         /* n_nodes+1: node i's shape is dims[dim_off[i]..dim_off[i+1]) */
    int64_t *dims;
    /* per step */
    int32_t *step_owner;
    int64_t *step_cost;
    int32_t *arg_off;         /* n_steps+1 */
    int32_t *args;
    /* per node: the steps that read it, ascending, one entry per occurrence */
    int32_t *rd_off;          /* n_nodes+1 */
    int32_t *rd_step;
    void *block;
    size_t block_bytes;
} lowering_t;

/* Lowers r under b.  Errors (RS_EINPUT) name the file, line and column of
 * the expression or statement at fault: unbound symbol, overflow (the
 * bytes of every node together included: no arena may pass 2^63), a
 * negative dimension, a `+=` whose shape differs from the node's. */
int lower_routine(const routine_t *r, const bindings_t *b, lowering_t **out, rs_error_t *err);

/* A private deep copy of l (same routine borrowed), or RS_ENOMEM. */
int lower_copy(const lowering_t *l, lowering_t **out, rs_error_t *err);

void lower_free(lowering_t *l);

/* One difference between two lowerings: field[index] holds a in one and b
 * in the other; node and step say what it belongs to (-1 when nothing). */
typedef struct lower_diff {
    const char *field;  /* "bytes", "args", ...; "sizes" when the counts differ */
    int64_t index;
    int32_t node, step;
    int64_t a, b;
} lower_diff_t;

/* Calls fn (when not NULL) for every difference between a and b in the
 * fields a scoring consumes, in field order, and returns how many there
 * were.  Lowerings of different sizes (or routines) make one difference,
 * field "sizes" (or "routine"): their arrays do not line up. */
int64_t lower_diff_each(const lowering_t *a, const lowering_t *b, void (*fn)(void *ud, const lower_diff_t *d),
                        void *ud);

/* Compares every field a scoring consumes; returns 0 when equal, otherwise
 * nonzero with a description of the first difference in what[0..n). */
int lower_compare(const lowering_t *a, const lowering_t *b, char *what, size_t n);

/* True when node i lives over the whole routine (input or param). */
static inline int lower_is_resident(const lowering_t *l, int32_t i) { return l->kind[i] != NODE_DEF; }

/* What a buffer is there for (DESIGN §13's roles): resident (input,
 * param), output (@output, and @into: written into an input's buffer),
 * pinned, or a flip candidate (§4: everything else, accumulated nodes
 * included).  A node both output and pinned is output. */
typedef enum lower_role { LOWER_RESIDENT, LOWER_OUTPUT, LOWER_PINNED, LOWER_CANDIDATE } lower_role_t;

static inline lower_role_t lower_role(const lowering_t *l, int32_t i)
{
    return l->kind[i] != NODE_DEF                        ? LOWER_RESIDENT
           : (l->flags[i] & (FLAG_OUTPUT | FLAG_INTO)) ? LOWER_OUTPUT
           : (l->flags[i] & FLAG_PINNED)               ? LOWER_PINNED
                                                       : LOWER_CANDIDATE;
}

/* The input whose buffer node i is written into (@into, DESIGN §1; its own
 * bytes are 0), or -1. */
static inline int32_t lower_into(const lowering_t *l, int32_t i)
{
    return (l->flags[i] & FLAG_INTO) ? routine_into(l->routine, i) : -1;
}

#endif
