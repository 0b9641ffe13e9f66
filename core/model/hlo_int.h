/* hlo_int: what the parts of the HLO reader (DESIGN §10) share: the
 * parser's state, the instructions and computations it keeps, and the few
 * functions one part calls in another.  hlo_lex.c reads the tokens,
 * hlo_parse.c the shapes, instructions, computations and the module,
 * hlo_cost.c applies the FLOP rules, hlo_alias.c reads input_output_alias
 * and applies the donated buffers, hlo_emit.c writes the ENTRY as §1 text,
 * hlo.c is the entry points.  Not for use outside core/model. */
#ifndef RS_HLO_INT_H
#define RS_HLO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/routine.h"
#include "model/lex.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/strmap.h"

#define MAX_NEST 256 /* brackets inside one attribute value, tuple shapes */

enum op_class {
    OPC_OTHER, OPC_PARAMETER, OPC_CONSTANT, OPC_TUPLE, OPC_GTE, OPC_ALIAS_FIRST, OPC_AFTER_ALL,
    OPC_DOT, OPC_CONV, OPC_REDUCE, OPC_REDUCE_WINDOW, OPC_FUSION, OPC_WHILE, OPC_CONDITIONAL, OPC_CALL
};

typedef struct loc {
    size_t pos, line_start;
    int line;
} loc_t;

typedef struct slice {
    size_t off, len;
} slice_t;

typedef struct ins {
    int32_t comp;
    slice_t name, op;          /* name without '%' */
    loc_t at;
    size_t shape_pos;          /* where its shape starts, to find a leaf */
    uint8_t cls;               /* enum op_class */
    bool pinned, root, array;  /* array: one array shape (else a tuple or token) */
    uint8_t dtype;
    int64_t bytes, elems;      /* over every array leaf */
    int32_t dim_off, ndims;
    int32_t opd_off, nopd;     /* operand instruction indices */
    int64_t index;             /* get-tuple-element's index; parameter's number */
    int64_t trip;              /* while: known_trip_count, else 1 */
    int32_t ref_off, nref;     /* called computations: calls, to_apply, condition+body, branches */
    loc_t ref_at;
    int64_t cost;              /* by the rules, unclamped; calls filled in by cost_computations */
    slice_t op_name, source_file;
    int64_t source_line;       /* -1: none */
} ins_t;

typedef struct comp {
    slice_t name;
    loc_t at;
    bool entry;
    int32_t first, n;          /* its instructions */
    strmap_t *names;
    int64_t cost;
    uint8_t state;             /* 0 new, 1 on the stack, 2 costed */
} comp_t;

/* One pair of the module's input_output_alias: output leaf
 * path[path_off..+path_len) is written into parameter `param`. */
typedef struct alias_pair {
    int32_t path_off, path_len;
    int64_t param;
} alias_pair_t;

typedef struct hp {
    const char *path, *s;
    size_t len, pos, line_start;
    int line;
    rs_error_t *err;
    ins_t *ins;
    int32_t n_ins, cap_ins;
    comp_t *comps;
    int32_t n_comps, cap_comps;
    int64_t *dims;
    int32_t n_dims, cap_dims;
    int32_t *opds;
    int32_t n_opds, cap_opds;
    slice_t *refs;             /* computation names */
    int32_t n_refs, cap_refs;
    strmap_t *comp_names;
    alias_pair_t *alias;       /* input_output_alias, in the order written */
    int32_t n_alias, cap_alias;
    int64_t *alias_path;
    int32_t n_path, cap_path;
    bool seen_alias;
    slice_t module;
    loc_t module_at;
    int64_t scratch_dims[64];
} hp_t;

/* A character that may start an HLO name (and a §1 one). */
static inline bool hlo_name_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

/* Where the parser is. */
static inline loc_t hlo_here(const hp_t *p) { return (loc_t){ p->pos, p->line_start, p->line }; }

/* The characters, inline for the parser's inner loops (hlo_lex.c has the
 * tokens). */

static inline void hlo_advance(hp_t *p)
{
    if (lex_line_ends(p->s, p->len, p->pos)) {
        p->line++;
        p->line_start = p->pos + 1;
    }
    p->pos++;
}

static inline int hlo_peek(const hp_t *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }

static inline bool hlo_accept(hp_t *p, char c)
{
    if (hlo_peek(p) != (unsigned char)c)
        return false;
    hlo_advance(p);
    return true;
}

static inline bool hlo_name_char(int c) { return hlo_name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-'; }

/* An RS_EINPUT error at `at` (FILE:LINE:COL: message). */
int hlo_fail_at(hp_t *p, loc_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int hlo_oom(hp_t *p);
/* Whether the text of s is w. */
bool hlo_slice_is(const hp_t *p, slice_t s, const char *w);
/* Operand k of in, or NULL when it has fewer. */
const ins_t *hlo_operand(const hp_t *p, const ins_t *in, int32_t k);

/* Skips blanks, newlines, and comments; an unterminated comment is an
 * error. */
int hlo_skip_ws(hp_t *p);
/* An error "expected WHAT, found ..." at the parser's position. */
int hlo_expected(hp_t *p, const char *what);
/* After blanks: c, else hlo_expected(what). */
int hlo_expect(hp_t *p, char c, const char *what);
/* After a list's item: `close` ends the list (*done), ',' goes on; else
 * an error naming what was expected. */
int hlo_list_sep(hp_t *p, char close, const char *what, bool *done);
/* After blanks: [%]NAME, XLA's [A-Za-z_][A-Za-z0-9_.-]*; the slice leaves
 * out the '%'. */
int hlo_read_name(hp_t *p, slice_t *out, const char *what);
/* An attribute's value: everything up to a blank, ',' or closing bracket
 * outside brackets and strings (brackets nest, comments inside are
 * skipped).  *out is the raw text. */
int hlo_skip_value(hp_t *p, slice_t *out);
/* After blanks: a decimal number that fits 63 bits. */
int hlo_read_int(hp_t *p, int64_t *v, const char *what);

/* Tokenises the whole module into p's computations and instructions. */
int hlo_parse_module(hp_t *p);

/* The instruction's own cost by the rules that need no other computation
 * (dot, convolution, reduce, reduce-window, the rest); calls are costed
 * later by hlo_cost_calls. */
int hlo_cost_direct(hp_t *p, ins_t *in, const int64_t *contract, int32_t n_contract, slice_t dim_labels,
                    slice_t window);

/* Costs every computation, callees first (fusion, while with its trip
 * count, conditional, call); a computation that calls itself is an error. */
int hlo_cost_calls(hp_t *p);

/* ---- hlo_shape.c ---- */

/* One shape as the reader needs it. */
typedef struct shape {
    bool array;        /* one array (not a tuple, not a token) */
    uint8_t dtype;
    int64_t bytes, elems;
    int32_t ndims;     /* array: dims in the caller's buffer */
} shape_t;

/* TYPE[DIMS]{LAYOUT} or (S, S, ...), token[] at the cursor; dims of an
 * array go to dims (room for 64) when it is not NULL.  In a signature
 * (sig), a '{' after an array is its layout only when no '=' comes before
 * its '}' (otherwise it opens the computation's body). */
int hlo_parse_shape(hp_t *p, shape_t *sh, int64_t *dims, bool sig, int depth);

/* Shapes as trees, for following an output index into a tuple-shaped
 * node: node[i] is an array (n_kids -1, its bytes), a token (-2) or a
 * tuple whose n_kids children are node[kid[kids..+n_kids)]. */
typedef struct shape_node {
    int64_t bytes;
    int32_t kids, n_kids;
} shape_node_t;

typedef struct shape_tree {
    shape_node_t *node;
    int32_t n, cap;
    int32_t *kid;
    int32_t n_kid, cap_kid;
} shape_tree_t;

/* Appends the tree of the shape that starts at s[pos] (an instruction's,
 * parsed once already) to t, its root's node index in *root; time linear
 * in the shape's text. */
int hlo_shape_tree(hp_t *p, size_t pos, shape_tree_t *t, int32_t *root);

/* The ENTRY's aliases resolved (DESIGN §10): for each instruction k, the
 * nodes it reads as res[res_off[k]..+res_len[k]), and the tuple
 * instruction it forwards whole (tsrc[k], else -1). */
typedef struct entry_map {
    int32_t *node;     /* per ENTRY instruction: its node, or -1 for an alias */
    int32_t *res_off, *res_len;
    int32_t *tsrc;     /* the tuple instruction it reads through, or -1 */
    int32_t *res;      /* resolutions, shared by aliases */
    int32_t n_res, cap_res;
    int64_t budget;    /* resolution and argument entries left */
} entry_map_t;

/* After `input_output_alias=`: the pairs `{OUT}: (P, {PI}[, must-alias|
 * may-alias])` into p->alias; a malformed one is a located error. */
int hlo_parse_alias(hp_t *p);

/* DESIGN §10 "Donated buffers": each pair of p->alias, in order, followed
 * through the ROOT's resolution (ENTRY c, its instruction `root`, map m) to
 * one array leaf of one node defined in the ENTRY, which loses the leaf's
 * bytes (never below zero): cut[j] (nn entries, zeroed by the caller) the
 * bytes node j loses; into[j] (filled with -1 by the caller) the node of
 * the parameter an array node that lost all its bytes is written into.
 * *sum counts what was donated. */
int hlo_donate(hp_t *p, const comp_t *c, const entry_map_t *m, int32_t root, const int32_t *node_ins, int32_t nn,
               int64_t *cut, int32_t *into, routine_donation_t *sum);

/* Writes computation c (the ENTRY) as §1 text into b, its aliases resolved
 * and its donated buffers applied; (*node_ins)[i] is the instruction of the
 * text's node i; *don what the donation did. */
int hlo_emit_entry(hp_t *p, const comp_t *c, strbuf_t *b, int32_t **node_ins, int32_t *n_nodes,
                   routine_donation_t *don);

#endif
