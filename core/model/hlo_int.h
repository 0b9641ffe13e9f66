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
    OPC_DOT, OPC_CONV, OPC_REDUCE, OPC_REDUCE_WINDOW, OPC_FUSION, OPC_WHILE, OPC_CONDITIONAL, OPC_CALL,
    OPC_CUSTOM, OPC_DUS, OPC_SCATTER, OPC_ASYNC_START, OPC_ASYNC_UPDATE, OPC_ASYNC_DONE
};

/* A custom-call's library (DESIGN §10 "Library calls are pure"). */
enum lib_kind { LIB_NONE, LIB_GEMM, LIB_CONV_FWD, LIB_CONV_BWD_INPUT, LIB_CONV_BWD_FILTER };

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
    int64_t frame;             /* metadata's stack_frame_id, 0: none */
    size_t frame_pos;          /* where it stands, for an error */
    uint8_t lib;               /* enum lib_kind of a custom-call */
    int32_t oto_off, n_oto;    /* output_to_operand_aliasing pairs in p->oto */
} ins_t;

/* One pair of an output_to_operand_aliasing attribute: output element
 * `out` (-1: the whole output) is written into operand `opd`. */
typedef struct oto_pair {
    int32_t out, opd;
} oto_pair_t;

/* The source tables (DESIGN §10 "Source tables"): rows numbered from 1. */
typedef struct src_loc {
    int64_t file, func, line;
    loc_t at;
} src_loc_t;

typedef struct src_frame {
    int64_t loc, parent;
    loc_t at;
} src_frame_t;

typedef struct src_tables {
    slice_t *files, *funcs;    /* the quoted strings' insides, C-escaped */
    int32_t n_files, cap_files, n_funcs, cap_funcs;
    src_loc_t *locs;
    int32_t n_locs, cap_locs;
    src_frame_t *frames;
    int32_t n_frames, cap_frames;
    int32_t *user;             /* per frame: the innermost user frame on its chain, 0 none (memo) */
    uint8_t *state;            /* per frame: 0 new, 1 being followed, 2 done */
} src_tables_t;



typedef struct comp {
    slice_t name;
    loc_t at;
    bool entry;
    int32_t first, n;          /* its instructions */
    strmap_t *names;
    int64_t cost;
    uint8_t state;             /* 0 new, 1 on the stack, 2 costed */
    bool pins;                 /* holds a pinned instruction, through its calls and fusions */
    bool needs_work;           /* a while, conditional or pinned call of a mapped computation calls it */
    int64_t work;              /* its live_peak mapped as a callee (§10 "Working memory") */
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
    int32_t *opd_sel;          /* per operand: -1, or sels[k] = n then n element indices (`%x#K#J`) */
    int32_t cap_opd_sel;
    int64_t *sels;
    int32_t n_sels, cap_sels;
    oto_pair_t *oto;
    int32_t n_oto, cap_oto;
    src_tables_t src;
    slice_t *refs;             /* computation names */
    int32_t n_refs, cap_refs;
    strmap_t *comp_names;
    int32_t *post;             /* computations, callees first (hlo_cost_calls) */
    alias_pair_t *alias;       /* input_output_alias, in the order written */
    int32_t n_alias, cap_alias;
    int64_t *alias_path;
    int32_t n_path, cap_path;
    bool seen_alias;
    slice_t module;
    loc_t module_at;
    bool scheduled;          /* the HloModule line says is_scheduled=true: XLA's passes ran */
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

/* ---- hlo_attr.c ---- */

/* Where byte pos stands, counted on from a location from before it. */
loc_t hlo_loc_at(const hp_t *p, loc_t from, size_t pos);
/* known_trip_count in a while's backend_config v: *n (1 when absent); a
 * value that is not a whole number, or a negative one, is an error. */
int hlo_trip_count(hp_t *p, slice_t v, loc_t kat, int64_t *n);
/* output_to_operand_aliasing={{OUT}: (OPERAND, {INDEX}), ...} into p->oto
 * (pairs whose output index has at most one element). */
int hlo_parse_oto(hp_t *p, ins_t *in, slice_t v);
/* A custom_call_target's library (enum lib_kind): the pure calls of §10. */
uint8_t hlo_library_of(const hp_t *p, slice_t v);

/* Tokenises the whole module into p's computations and instructions. */
int hlo_parse_module(hp_t *p);

/* ---- hlo_frames.c ---- */

/* At a table's header word (FileNames, FunctionNames, FileLocations,
 * StackFrames): true when it is one. */
bool hlo_is_table(const hp_t *p);
/* Reads the table at the cursor: its header, then `ID VALUE` rows numbered
 * 1, 2, ...; a malformed row is a located error. */
int hlo_parse_table(hp_t *p);
/* Where instruction in came from by its stack_frame_id (DESIGN §10): the
 * innermost frame on its chain whose file is the user's, else the innermost
 * one: *file and *func (slices of C-escaped text, len 0 when unknown),
 * *line (-1 when none).  The whole chain is followed; an id out of range or
 * a chain that comes back on itself is a located error. */
int hlo_frame_origin(hp_t *p, const ins_t *in, slice_t *file, slice_t *func, int64_t *line);
void hlo_frames_free(hp_t *p);

/* The instruction's own cost by the rules that need no other computation
 * (dot, convolution, reduce, reduce-window, the rest); calls are costed
 * later by hlo_cost_calls. */
int hlo_cost_direct(hp_t *p, ins_t *in, const int64_t *contract, int32_t n_contract, slice_t dim_labels,
                    slice_t window, slice_t backend);

/* Costs every computation, callees first (fusion, while with its trip
 * count, conditional, call), keeping that order in p->post and which
 * computations pin (a `call` of one is pinned, §10); a computation that
 * calls itself is an error. */
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

/* The shape at element path sel[0..n) of instruction in's shape: *sh, an
 * array's dims into dims (room for 64); *found false when the path leaves
 * the shape. */
int hlo_element_shape(hp_t *p, const ins_t *in, const int64_t *sel, int32_t n, shape_t *sh, int64_t *dims,
                      bool *found);
/* The shape of in's operand k, its `#K` selection followed. */
int hlo_operand_shape(hp_t *p, const ins_t *in, int32_t k, shape_t *sh, int64_t *dims, bool *found);

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

/* ---- hlo_map.c: a computation mapped by DESIGN §10's rules ---- */

/* What an instruction gives its readers: nodes read whole (VAL_NODES), or
 * a tuple of values (VAL_TUPLE) whose elements `#K` and get-tuple-element
 * pick; read whole, a value reads `whole` instead when it is not -1. */
enum val_kind { VAL_NODES, VAL_TUPLE };
typedef struct val {
    uint8_t kind;
    int32_t off, len;   /* VAL_NODES: m->res[off..+len); VAL_TUPLE: m->kid[off..+len) */
    int32_t whole;
} val_t;

/* A node of the mapped computation: an instruction's, or one the rules
 * add beside it (a library's scratch, a fusion's further leaf, a callee's
 * working memory). */
enum mnode_kind { MN_NODE, MN_PARAM, MN_CONST, MN_SCRATCH, MN_LEAF, MN_WORK };
typedef struct mnode {
    int32_t ins;            /* its instruction (index in p->ins) */
    uint8_t kind;           /* enum mnode_kind */
    bool pinned, output, array;
    uint8_t dtype;
    int32_t leaf;           /* MN_LEAF: its element K */
    int32_t dim_off, ndims; /* array: its dims in m->dims */
    int64_t bytes;
    int32_t first, last;    /* steps: its first definition, its last definition or read (-1 none) */
    int32_t don_step;       /* the step donation counts it defined at */
} mnode_t;

enum mstep_op { MOP_INS, MOP_SCRATCH, MOP_LEAF, MOP_WORK, MOP_ASYNC_START, MOP_ASYNC_UPDATE, MOP_ASYNC_DONE };
typedef struct mstep {
    int32_t node, ins;
    int32_t arg_off, nargs; /* m->args */
    int64_t cost;
    bool accum;             /* a further definition of node (in place) */
    uint8_t op;             /* enum mstep_op */
} mstep_t;

typedef struct cmap {
    const comp_t *c;
    bool callee;            /* parameters, constants and outputs hold no bytes */
    int32_t *val_of;        /* per instruction of c */
    int32_t *start_of;      /* per instruction: the async-start it belongs to, or -1 */
    val_t *vals;
    int32_t n_vals, cap_vals;
    int32_t *res, n_res, cap_res;
    int32_t *kid, n_kid, cap_kid;
    mnode_t *nodes;
    int32_t n_nodes, cap_nodes;
    mstep_t *steps;
    int32_t n_steps, cap_steps;
    int32_t *args, n_args, cap_args;
    int64_t *dims;
    int32_t n_dims, cap_dims;
    int32_t *seq, n_seq, cap_seq; /* in text order: step s, or -(j+1) for a parameter's or constant's node j */
    int32_t *tmp, n_tmp, cap_tmp;
    int64_t budget;         /* resolution entries left */
    int32_t root_val;
} cmap_t;

/* Maps computation c (the ENTRY, or a callee when callee) into m: its
 * nodes, steps and values, by §10's rules; every `while`, `conditional`
 * and pinned `call` needs its callees' work already known
 * (hlo_map_work). */
int hlo_map(hp_t *p, const comp_t *c, bool callee, cmap_t *m);
void hlo_map_free(cmap_t *m);
/* Every computation's working memory that a `while`, `conditional` or
 * pinned `call` reachable from the ENTRY needs, callees first. */
int hlo_map_work(hp_t *p);
/* New values: one reading nodes n[0..k) (one node), a tuple of kids[0..k). */
int hlo_val_nodes(hp_t *p, cmap_t *m, const int32_t *n, int32_t k, int32_t *out);
int hlo_val_node(hp_t *p, cmap_t *m, int32_t node, int32_t *out);
int hlo_val_tuple(hp_t *p, cmap_t *m, const int32_t *kids, int32_t k, int32_t *out);
/* Value v's element k: a tuple's k-th, a node's whole self; an index past
 * a tuple's end is an error at in. */
int hlo_val_element(hp_t *p, cmap_t *m, int32_t v, int64_t k, const ins_t *in, int32_t *out);
/* The nodes value v reads whole, in order, repeats kept, into m->tmp
 * (replacing what it held). */
int hlo_val_flatten(hp_t *p, cmap_t *m, int32_t v, const ins_t *in);

/* After `input_output_alias=`: the pairs `{OUT}: (P, {PI}[, must-alias|
 * may-alias])` into p->alias; a malformed one is a located error. */
int hlo_parse_alias(hp_t *p);

/* DESIGN §10 "Donated buffers": each pair of p->alias, in order, followed
 * through the ROOT's value of the mapped ENTRY m to one array leaf of one
 * node defined in the ENTRY, which loses the leaf's bytes (never below
 * zero) unless its parameter is still read after the node's definition:
 * cut[j] (zeroed by the caller) the bytes node j loses; into[j] (filled
 * with -1 by the caller) the parameter's node an array node that lost all
 * its bytes is written into.  *sum counts what was donated. */
int hlo_donate(hp_t *p, cmap_t *m, int64_t *cut, int32_t *into, routine_donation_t *sum);

/* Writes the mapped ENTRY m as §1 text into b, its donated buffers
 * applied; (*node_ins)[i] is the instruction of the text's node i, and
 * the text's step s is m's step s; *don what the donation did. */
int hlo_emit_entry(hp_t *p, cmap_t *m, strbuf_t *b, int32_t **node_ins, routine_donation_t *don);

#endif
