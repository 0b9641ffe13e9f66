/* hlo: the HLO text reader of DESIGN §10.  One pass over the text tokenises
 * it (newlines are blanks, as in XLA's own lexer) into computations and
 * instructions, keeping what the mapping needs: shapes, operands, a few
 * attributes and the metadata.  A second pass costs the computations
 * (callees first, an explicit stack), a third resolves the ENTRY's aliases
 * and writes the §1 text. */
#include "model/hlo.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/vec.h"

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
    uint8_t cls;               /* enum op_class */
    bool pinned, root, array;  /* array: one array shape (else a tuple or token) */
    uint8_t dtype;
    int64_t bytes, elems;      /* over every array leaf */
    int32_t dim_off, ndims;
    int32_t opd_off, nopd;     /* operand instruction indices */
    int64_t index;             /* get-tuple-element */
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
    slice_t module;
    loc_t module_at;
    int64_t scratch_dims[64];
} hp_t;

/* ---- locations and errors --------------------------------------------- */

static loc_t here(const hp_t *p) { return (loc_t){ p->pos, p->line_start, p->line }; }

static int col_of(const hp_t *p, loc_t at)
{
    int col = 1;
    for (size_t i = at.line_start; i < at.pos && i < p->len; i++)
        if (((unsigned char)p->s[i] & 0xC0) != 0x80)
            col++;
    return col;
}

static int fail_at(hp_t *p, loc_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(hp_t *p, loc_t at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_set(p->err, RS_EINPUT, p->path, at.line, col_of(p, at), "%s", msg);
}

static int oom(hp_t *p) { return error_set(p->err, RS_ENOMEM, p->path, p->line, 0, "out of memory"); }

static void describe(const hp_t *p, char *buf, size_t n)
{
    if (p->pos >= p->len) {
        snprintf(buf, n, "end of file");
        return;
    }
    unsigned char c = (unsigned char)p->s[p->pos];
    if (c < 0x20 || c >= 0x7f) {
        snprintf(buf, n, "byte 0x%02x", c);
        return;
    }
    size_t e = p->pos + 1;
    while (e < p->len && e - p->pos < 24 && p->s[e] > ' ' && p->s[e] < 0x7f && !strchr("(){}[],=", p->s[e]))
        e++;
    snprintf(buf, n, "'%.*s'", (int)(e - p->pos), p->s + p->pos);
}

static int expected(hp_t *p, const char *what)
{
    char found[64];
    describe(p, found, sizeof found);
    return fail_at(p, here(p), "expected %s, found %s", what, found);
}

/* ---- characters --------------------------------------------------------- */

static void advance(hp_t *p)
{
    if (p->s[p->pos] == '\n') {
        p->line++;
        p->line_start = p->pos + 1;
    }
    p->pos++;
}

static int peek(const hp_t *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }

/* Skips blanks, newlines, and comments; an unterminated comment is an
 * error. */
static int skip_ws(hp_t *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            advance(p);
        } else if (c == '/' && p->pos + 1 < p->len && p->s[p->pos + 1] == '*') {
            loc_t at = here(p);
            advance(p);
            advance(p);
            while (p->pos < p->len && !(p->s[p->pos] == '*' && p->pos + 1 < p->len && p->s[p->pos + 1] == '/'))
                advance(p);
            if (p->pos >= p->len)
                return fail_at(p, at, "unterminated comment");
            p->pos += 2;
        } else if (c == '/' && p->pos + 1 < p->len && p->s[p->pos + 1] == '/') {
            while (p->pos < p->len && p->s[p->pos] != '\n')
                p->pos++;
        } else {
            break;
        }
    }
    return RS_OK;
}

static bool accept(hp_t *p, char c)
{
    if (peek(p) != (unsigned char)c)
        return false;
    advance(p);
    return true;
}

static int expect(hp_t *p, char c, const char *what)
{
    int rc = skip_ws(p);
    if (rc)
        return rc;
    return accept(p, c) ? RS_OK : expected(p, what);
}

/* After a list's item: `close` ends the list (*done), ',' goes on; else
 * an error naming what was expected. */
static int list_sep(hp_t *p, char close, const char *what, bool *done)
{
    int rc = skip_ws(p);
    if (rc)
        return rc;
    *done = accept(p, close);
    return *done || accept(p, ',') ? RS_OK : expected(p, what);
}

static bool name_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool name_char(int c) { return name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-'; }

/* After blanks: [%]NAME, XLA's [A-Za-z_][A-Za-z0-9_.-]*; the slice leaves
 * out the '%'. */
static int read_name(hp_t *p, slice_t *out, const char *what)
{
    int rc = skip_ws(p);
    if (rc)
        return rc;
    size_t b = p->pos;
    if (peek(p) == '%')
        p->pos++;
    if (!name_start(peek(p))) {
        p->pos = b;
        return expected(p, what);
    }
    out->off = p->pos;
    while (p->pos < p->len && name_char((unsigned char)p->s[p->pos]))
        p->pos++;
    out->len = p->pos - out->off;
    return RS_OK;
}

static bool slice_is(const hp_t *p, slice_t s, const char *w)
{
    return strlen(w) == s.len && memcmp(p->s + s.off, w, s.len) == 0;
}

/* A double-quoted string with backslash escapes, skipped. */
static int skip_string(hp_t *p)
{
    loc_t at = here(p);
    advance(p);
    while (p->pos < p->len && p->s[p->pos] != '"') {
        if (p->s[p->pos] == '\\' && p->pos + 1 < p->len)
            advance(p);
        advance(p);
    }
    if (p->pos >= p->len)
        return fail_at(p, at, "unterminated string");
    advance(p);
    return RS_OK;
}

/* An attribute's value: everything up to a blank, ',' or closing bracket
 * outside brackets and strings (brackets nest, comments inside are
 * skipped).  *out is the raw text. */
static int skip_value(hp_t *p, slice_t *out)
{
    char stack[MAX_NEST];
    int depth = 0;
    out->off = p->pos;
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (depth == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ')' || c == '}' ||
                           c == ']'))
            break;
        if (c == '"') {
            int rc = skip_string(p);
            if (rc)
                return rc;
            continue;
        }
        if (c == '/' && p->pos + 1 < p->len && (p->s[p->pos + 1] == '*' || p->s[p->pos + 1] == '/')) {
            if (depth == 0)
                break;
            int rc = skip_ws(p);
            if (rc)
                return rc;
            continue;
        }
        if (c == '(' || c == '{' || c == '[') {
            if (depth == MAX_NEST)
                return fail_at(p, here(p), "brackets nested deeper than %d levels", MAX_NEST);
            stack[depth++] = c == '(' ? ')' : c == '{' ? '}' : ']';
        } else if (c == ')' || c == '}' || c == ']') {
            if (c != stack[depth - 1])
                return fail_at(p, here(p), "'%c' closes a '%c'", c,
                               stack[depth - 1] == ')' ? '(' : stack[depth - 1] == '}' ? '{' : '[');
            depth--;
        }
        advance(p);
    }
    if (depth > 0)
        return fail_at(p, here(p), "unexpected end of file inside an attribute value");
    out->len = p->pos - out->off;
    if (!out->len)
        return expected(p, "an attribute value");
    return RS_OK;
}

static int read_int(hp_t *p, int64_t *v, const char *what)
{
    int rc = skip_ws(p);
    if (rc)
        return rc;
    if (peek(p) < '0' || peek(p) > '9')
        return expected(p, what);
    loc_t at = here(p);
    int64_t x = 0;
    while (peek(p) >= '0' && peek(p) <= '9') {
        if (!checked_mul(x, 10, &x) || !checked_add(x, p->s[p->pos] - '0', &x))
            return fail_at(p, at, "number out of range");
        p->pos++;
    }
    *v = x;
    return RS_OK;
}

/* ---- shapes ------------------------------------------------------------- */

typedef struct shape {
    bool array;        /* one array (not a tuple, not a token) */
    uint8_t dtype;
    int64_t bytes, elems;
    int32_t ndims;     /* array: dims in the caller's buffer */
} shape_t;

/* TYPE[DIMS]{LAYOUT} or (S, S, ...), token[]; dims of an array go to dims
 * (room for 64) when it is not NULL.  In a signature (sig), a '{' after an
 * array is its layout only when no '=' comes before its '}' (otherwise it
 * opens the computation's body). */
static int parse_shape(hp_t *p, shape_t *sh, int64_t *dims, bool sig, int depth)
{
    memset(sh, 0, sizeof *sh);
    int rc = skip_ws(p);
    if (rc)
        return rc;
    if (peek(p) == '(') {
        if (depth >= MAX_NEST / 4)
            return fail_at(p, here(p), "tuple shapes nested deeper than %d levels", MAX_NEST / 4);
        advance(p);
        if ((rc = skip_ws(p)))
            return rc;
        if (accept(p, ')'))
            return RS_OK;
        for (;;) {
            shape_t leaf;
            loc_t at = here(p);
            if ((rc = parse_shape(p, &leaf, NULL, false, depth + 1)))
                return rc;
            if (!checked_add(sh->bytes, leaf.bytes, &sh->bytes) || !checked_add(sh->elems, leaf.elems, &sh->elems))
                return fail_at(p, at, "the tuple's size overflows 64 bits");
            bool done;
            if ((rc = list_sep(p, ')', "',' or ')' in a tuple shape", &done)) || done)
                return rc;
        }
    }
    loc_t at = here(p);
    if (!name_start(peek(p)))
        return expected(p, "a shape (TYPE[DIMS] or a tuple)");
    size_t b = p->pos;
    while ((peek(p) >= 'a' && peek(p) <= 'z') || (peek(p) >= '0' && peek(p) <= '9'))
        p->pos++;
    size_t tl = p->pos - b;
    bool token = (tl == 5 && memcmp(p->s + b, "token", 5) == 0) || (tl == 6 && memcmp(p->s + b, "opaque", 6) == 0);
    int t = token ? -1 : dtype_lookup(p->s + b, tl);
    if (!token && (t < 0 || t == DT_I8 || t == DT_I32 || t == DT_I64)) /* §1's own names are not XLA's */
        return fail_at(p, at, "unknown element type '%.*s'", (int)(tl > 40 ? 40 : tl), p->s + b);
    if (!accept(p, '['))
        return expected(p, "'[' after the element type");
    int64_t elems = 1;
    int32_t nd = 0;
    if ((rc = skip_ws(p)))
        return rc;
    if (!accept(p, ']')) {
        for (;;) {
            if ((rc = skip_ws(p)))
                return rc;
            loc_t dat = here(p);
            if (peek(p) == '<' && p->pos + 1 < p->len && p->s[p->pos + 1] == '=')
                p->pos += 2; /* a bounded dynamic dim counts its bound */
            int64_t d = 0;
            if (peek(p) == '?')
                return fail_at(p, dat, "an unbounded dynamic dimension has no size");
            if ((rc = read_int(p, &d, "a dimension")))
                return rc;
            if (nd == 64)
                return fail_at(p, dat, "more than 64 dimensions");
            if (dims)
                dims[nd] = d;
            nd++;
            if (!checked_mul(elems, d, &elems))
                return fail_at(p, dat, "the shape's element count overflows 64 bits");
            bool done;
            if ((rc = list_sep(p, ']', "',' or ']' in the dimensions", &done)))
                return rc;
            if (done)
                break;
        }
    }
    if (token) {
        if (nd)
            return fail_at(p, at, "a token has no dimensions");
        return RS_OK;
    }
    sh->array = true;
    sh->dtype = (uint8_t)t;
    sh->elems = elems;
    sh->ndims = nd;
    if (!dtype_bytes((dtype_t)t, elems, &sh->bytes))
        return fail_at(p, at, "the shape's byte count overflows 64 bits");
    /* the layout, tiling and memory space are skipped */
    if (peek(p) == '{') {
        if (sig) {
            for (size_t i = p->pos + 1; i < p->len && p->s[i] != '}'; i++)
                if (p->s[i] == '=')
                    return RS_OK;
        }
        slice_t v;
        return skip_value(p, &v);
    }
    return RS_OK;
}

/* ---- the instruction ------------------------------------------------------ */

static const struct {
    const char *name;
    uint8_t cls;
} CLASSES[] = {
    { "parameter", OPC_PARAMETER }, { "constant", OPC_CONSTANT },     { "tuple", OPC_TUPLE },
    { "get-tuple-element", OPC_GTE }, { "bitcast", OPC_ALIAS_FIRST }, { "opt-barrier", OPC_ALIAS_FIRST },
    { "add-dependency", OPC_ALIAS_FIRST }, { "domain", OPC_ALIAS_FIRST }, { "after-all", OPC_AFTER_ALL },
    { "dot", OPC_DOT }, { "convolution", OPC_CONV }, { "reduce", OPC_REDUCE },
    { "reduce-window", OPC_REDUCE_WINDOW }, { "fusion", OPC_FUSION }, { "while", OPC_WHILE },
    { "conditional", OPC_CONDITIONAL }, { "call", OPC_CALL },
};

static const char *PINNED[] = {
    "rng", "rng-bit-generator", "rng-get-and-update-state", "infeed", "outfeed", "send", "recv", "all-reduce",
    "all-gather", "reduce-scatter", "all-to-all", "collective-permute", "collective-broadcast", "custom-call",
    "while", "conditional", "call", "copy-start", "copy-done",
};

static bool op_pinned(const char *op, size_t n)
{
    if (n > 6 && memcmp(op, "async-", 6) == 0)
        return true;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < sizeof PINNED / sizeof PINNED[0]; k++)
            if (strlen(PINNED[k]) == n && memcmp(PINNED[k], op, n) == 0)
                return true;
        /* their -start and -done halves */
        if (n > 6 && memcmp(op + n - 6, "-start", 6) == 0)
            n -= 6;
        else if (n > 5 && memcmp(op + n - 5, "-done", 5) == 0)
            n -= 5;
        else
            break;
    }
    return false;
}

static int push_opd(hp_t *p, int32_t v)
{
    if (vec_reserve((void **)&p->opds, &p->cap_opds, (int64_t)p->n_opds + 1, sizeof *p->opds))
        return oom(p);
    p->opds[p->n_opds++] = v;
    return RS_OK;
}

/* The operand list after '(': shapes (optional) and names, resolved in
 * computation c. */
static int parse_operands(hp_t *p, ins_t *in, comp_t *c)
{
    int rc;
    in->opd_off = p->n_opds;
    if ((rc = skip_ws(p)))
        return rc;
    if (accept(p, ')'))
        return RS_OK;
    for (;;) {
        if ((rc = skip_ws(p)))
            return rc;
        /* a shape first, when one is printed: '(' or TYPE '[' */
        if (peek(p) == '(') {
            shape_t sh;
            if ((rc = parse_shape(p, &sh, NULL, false, 0)))
                return rc;
        } else if (name_start(peek(p))) {
            size_t e = p->pos;
            while (e < p->len && name_char((unsigned char)p->s[e]))
                e++;
            if (e < p->len && p->s[e] == '[') {
                shape_t sh;
                if ((rc = parse_shape(p, &sh, NULL, false, 0)))
                    return rc;
            }
        }
        slice_t nm = { 0, 0 }; /* set by read_name; -O2 cannot see it through the error path */
        if ((rc = skip_ws(p)))
            return rc;
        loc_t at = here(p);
        if ((rc = read_name(p, &nm, "an operand name")))
            return rc;
        int32_t k = strmap_get(c->names, p->s + nm.off, nm.len);
        if (k < 0)
            return fail_at(p, at, "operand '%.*s' is not defined before this instruction in computation '%.*s'",
                           (int)(nm.len > 80 ? 80 : nm.len), p->s + nm.off, (int)(c->name.len > 80 ? 80 : c->name.len),
                           p->s + c->name.off);
        if ((rc = push_opd(p, c->first + k)))
            return rc;
        in->nopd++;
        bool done;
        if ((rc = list_sep(p, ')', "',' or ')' in the operands", &done)) || done)
            return rc;
    }
}

/* A '{'-list or a single computation name of an attribute value. */
static int add_refs(hp_t *p, ins_t *in, slice_t v)
{
    size_t i = v.off, e = v.off + v.len;
    if (in->nref == 0)
        in->ref_off = p->n_refs;
    while (i < e) {
        while (i < e && (p->s[i] == '{' || p->s[i] == '}' || p->s[i] == ',' || p->s[i] == ' ' || p->s[i] == '%' ||
                         p->s[i] == '\n' || p->s[i] == '\t' || p->s[i] == '\r'))
            i++;
        size_t b = i;
        while (i < e && name_char((unsigned char)p->s[i]))
            i++;
        if (i == b) {
            if (i < e)
                i++;
            continue;
        }
        if (vec_reserve((void **)&p->refs, &p->cap_refs, (int64_t)p->n_refs + 1, sizeof *p->refs))
            return oom(p);
        p->refs[p->n_refs++] = (slice_t){ b, i - b };
        in->nref++;
    }
    return RS_OK;
}

/* The first decimal number after `key` inside v, or -1. */
static int64_t find_number_after(const hp_t *p, slice_t v, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = v.off; i + kl <= v.off + v.len; i++) {
        if (memcmp(p->s + i, key, kl) != 0)
            continue;
        size_t j = i + kl;
        while (j < v.off + v.len && (p->s[j] < '0' || p->s[j] > '9') && p->s[j] != '}')
            j++;
        int64_t x = 0;
        bool any = false;
        while (j < v.off + v.len && p->s[j] >= '0' && p->s[j] <= '9') {
            if (!checked_mul(x, 10, &x) || !checked_add(x, p->s[j] - '0', &x))
                return -1;
            any = true;
            j++;
        }
        return any ? x : -1;
    }
    return -1;
}

/* metadata={op_type="..." op_name="..." source_file="..." source_line=N}. */
static void parse_metadata(const hp_t *p, ins_t *in, slice_t v)
{
    size_t i = v.off, e = v.off + v.len;
    while (i < e) {
        while (i < e && (p->s[i] == '{' || p->s[i] == ' ' || p->s[i] == '}' || p->s[i] == ','))
            i++;
        size_t kb = i;
        while (i < e && p->s[i] != '=' && p->s[i] != ' ')
            i++;
        slice_t key = { kb, i - kb };
        if (i >= e || p->s[i] != '=')
            continue;
        i++;
        slice_t val;
        if (i < e && p->s[i] == '"') {
            val.off = ++i;
            while (i < e && p->s[i] != '"')
                i += p->s[i] == '\\' ? 2 : 1;
            val.len = (i < e ? i : e) - val.off;
            i++;
        } else {
            val.off = i;
            int depth = 0;
            while (i < e && (depth > 0 || (p->s[i] != ' ' && p->s[i] != '}'))) {
                depth += p->s[i] == '{' ? 1 : p->s[i] == '}' ? -1 : 0;
                i++;
            }
            val.len = i - val.off;
        }
        if (slice_is(p, key, "op_name"))
            in->op_name = val;
        else if (slice_is(p, key, "source_file"))
            in->source_file = val;
        else if (slice_is(p, key, "source_line"))
            in->source_line = find_number_after(p, (slice_t){ val.off, val.len }, "");
    }
}

/* One attribute's value, kept when the mapping uses it. */
static int attribute(hp_t *p, ins_t *in, slice_t key, loc_t kat, int64_t *lhs_contract, int32_t *n_contract,
                     slice_t *dim_labels, slice_t *window)
{
    slice_t v;
    int rc = skip_value(p, &v);
    if (rc)
        return rc;
    if (slice_is(p, key, "metadata")) {
        parse_metadata(p, in, v);
    } else if (slice_is(p, key, "index") && in->cls == OPC_GTE) {
        in->index = find_number_after(p, v, "");
        if (in->index < 0)
            return fail_at(p, kat, "index= needs a number");
    } else if (slice_is(p, key, "backend_config") && in->cls == OPC_WHILE) {
        int64_t n = find_number_after(p, v, "known_trip_count");
        in->trip = n >= 0 ? n : 1;
    } else if (slice_is(p, key, "lhs_contracting_dims") && in->cls == OPC_DOT) {
        for (size_t i = v.off; i < v.off + v.len;) {
            if (p->s[i] < '0' || p->s[i] > '9') {
                i++;
                continue;
            }
            int64_t d = 0;
            while (i < v.off + v.len && p->s[i] >= '0' && p->s[i] <= '9' && d < 1000000)
                d = d * 10 + (p->s[i++] - '0');
            if (*n_contract < 64)
                lhs_contract[(*n_contract)++] = d;
        }
    } else if (slice_is(p, key, "dim_labels")) {
        *dim_labels = v;
    } else if (slice_is(p, key, "window")) {
        *window = v;
    } else if ((in->cls == OPC_FUSION && slice_is(p, key, "calls")) ||
               (in->cls == OPC_CALL && slice_is(p, key, "to_apply")) ||
               (in->cls == OPC_WHILE && (slice_is(p, key, "condition") || slice_is(p, key, "body"))) ||
               (in->cls == OPC_CONDITIONAL &&
                (slice_is(p, key, "true_computation") || slice_is(p, key, "false_computation") ||
                 slice_is(p, key, "branch_computations")))) {
        if (!in->nref)
            in->ref_at = kat;
        return add_refs(p, in, v);
    }
    return RS_OK;
}

static const ins_t *operand(const hp_t *p, const ins_t *in, int32_t k)
{
    return k < in->nopd ? &p->ins[p->opds[in->opd_off + k]] : NULL;
}

/* The instruction's own cost by the rules that need no other computation. */
static int direct_cost(hp_t *p, ins_t *in, const int64_t *contract, int32_t n_contract, slice_t dim_labels,
                       slice_t window)
{
    int64_t c = 0;
    const ins_t *a = operand(p, in, 0), *b = operand(p, in, 1);
    bool ok = true;
    switch (in->cls) {
    case OPC_PARAMETER: case OPC_CONSTANT: case OPC_TUPLE: case OPC_GTE: case OPC_ALIAS_FIRST: case OPC_AFTER_ALL:
    case OPC_FUSION: case OPC_WHILE: case OPC_CONDITIONAL: case OPC_CALL:
        c = 0;
        break;
    case OPC_DOT: {
        int64_t k = 1;
        for (int32_t i = 0; i < n_contract; i++) {
            if (!a || !a->array || contract[i] >= a->ndims)
                return fail_at(p, in->at, "lhs_contracting_dims names dimension %lld, which the lhs lacks",
                               (long long)contract[i]);
            ok = ok && checked_mul(k, p->dims[a->dim_off + contract[i]], &k);
        }
        ok = ok && checked_mul(2, in->elems, &c) && checked_mul(c, k, &c);
        break;
    }
    case OPC_CONV: {
        int64_t kern = b ? b->elems : 0, o = 1;
        /* dim_labels=b01f_01io->b01f: the kernel's labels sit between '_'
         * and "->"; 'o' is its output-feature dim */
        if (b && b->array && dim_labels.len) {
            const char *s = p->s + dim_labels.off, *us = memchr(s, '_', dim_labels.len);
            if (us) {
                size_t k = 0;
                for (const char *q = us + 1; q < s + dim_labels.len && *q != '-'; q++, k++)
                    if (*q == 'o' && (int32_t)k < b->ndims)
                        o = p->dims[b->dim_off + (int32_t)k];
            }
        }
        ok = checked_mul(2, in->elems, &c) && checked_mul(c, o ? kern / o : 0, &c);
        break;
    }
    case OPC_REDUCE:
        c = a ? a->elems : 0;
        break;
    case OPC_REDUCE_WINDOW: {
        int64_t w = 1;
        if (window.len) {
            /* size=3x3 */
            for (size_t i = window.off; i + 5 <= window.off + window.len; i++) {
                if (memcmp(p->s + i, "size=", 5) != 0 || (i > window.off && p->s[i - 1] != ' ' && p->s[i - 1] != '{'))
                    continue;
                size_t j = i + 5;
                while (j < window.off + window.len && p->s[j] >= '0' && p->s[j] <= '9') {
                    int64_t d = 0;
                    /* j advances outside the && chain: an overflow must not stall the scan */
                    for (; j < window.off + window.len && p->s[j] >= '0' && p->s[j] <= '9'; j++)
                        ok = ok && checked_mul(d, 10, &d) && checked_add(d, p->s[j] - '0', &d);
                    ok = ok && checked_mul(w, d, &w);
                    if (j < window.off + window.len && p->s[j] == 'x')
                        j++;
                }
                break;
            }
        }
        ok = ok && checked_mul(a ? a->elems : 0, w, &c);
        break;
    }
    default:
        c = in->elems;
    }
    if (!ok)
        return fail_at(p, in->at, "the cost of '%.*s' overflows 64 bits", (int)in->name.len, p->s + in->name.off);
    in->cost = c;
    return RS_OK;
}

/* [ROOT] [%]NAME = SHAPE OPCODE(OPERANDS)[, attr=value]... */
static int parse_instruction(hp_t *p, int32_t ci)
{
    comp_t *c = &p->comps[ci];
    if (vec_reserve((void **)&p->ins, &p->cap_ins, (int64_t)p->n_ins + 1, sizeof *p->ins))
        return oom(p);
    ins_t *in = &p->ins[p->n_ins];
    memset(in, 0, sizeof *in);
    in->comp = ci;
    in->source_line = -1;
    in->trip = 1;
    in->index = -1;
    int rc;
    slice_t nm;
    loc_t at = here(p);
    if ((rc = read_name(p, &nm, "an instruction (NAME = SHAPE OPCODE(...)) or '}'")))
        return rc;
    if (slice_is(p, nm, "ROOT") && p->s[at.pos] != '%') {
        size_t save = p->pos;
        if ((rc = skip_ws(p)))
            return rc;
        if (peek(p) != '=') {
            in->root = true;
            at = here(p);
            if ((rc = read_name(p, &nm, "the instruction's name after ROOT")))
                return rc;
        } else {
            p->pos = save;
        }
    }
    in->name = nm;
    in->at = at;
    int32_t prev = strmap_get(c->names, p->s + nm.off, nm.len);
    if (prev >= 0)
        return fail_at(p, at, "'%.*s' is already defined at line %d", (int)(nm.len > 80 ? 80 : nm.len),
                       p->s + nm.off, p->ins[c->first + prev].at.line);
    if ((rc = expect(p, '=', "'=' after the instruction's name")))
        return rc;
    if (vec_reserve((void **)&p->dims, &p->cap_dims, (int64_t)p->n_dims + 64, sizeof *p->dims))
        return oom(p);
    shape_t sh;
    if ((rc = parse_shape(p, &sh, p->dims + p->n_dims, false, 0)))
        return rc;
    in->array = sh.array;
    in->dtype = sh.dtype;
    in->bytes = sh.bytes;
    in->elems = sh.elems;
    in->dim_off = p->n_dims;
    in->ndims = sh.array ? sh.ndims : 0;
    p->n_dims += in->ndims;
    if ((rc = skip_ws(p)))
        return rc;
    loc_t oat = here(p);
    if (!name_start(peek(p)))
        return expected(p, "an opcode");
    in->op.off = p->pos;
    while (p->pos < p->len && name_char((unsigned char)p->s[p->pos]) && p->s[p->pos] != '.')
        p->pos++;
    in->op.len = p->pos - in->op.off;
    (void)oat;
    for (size_t k = 0; k < sizeof CLASSES / sizeof CLASSES[0]; k++)
        if (slice_is(p, in->op, CLASSES[k].name))
            in->cls = CLASSES[k].cls;
    in->pinned = op_pinned(p->s + in->op.off, in->op.len);
    if ((rc = expect(p, '(', "'(' after the opcode")))
        return rc;
    if (in->cls == OPC_CONSTANT || in->cls == OPC_PARAMETER) {
        /* a literal or the parameter's number: no operands */
        p->pos--;
        slice_t v;
        if ((rc = skip_value(p, &v)))
            return rc;
        in->opd_off = p->n_opds;
    } else if ((rc = parse_operands(p, in, c))) {
        return rc;
    }
    int64_t contract[64];
    int32_t n_contract = 0;
    slice_t dim_labels = { 0, 0 }, window = { 0, 0 };
    for (;;) {
        if ((rc = skip_ws(p)))
            return rc;
        if (!accept(p, ','))
            break;
        slice_t key;
        if ((rc = skip_ws(p)))
            return rc;
        loc_t kat = here(p);
        if ((rc = read_name(p, &key, "an attribute name")) || (rc = expect(p, '=', "'=' after the attribute name")))
            return rc;
        if ((rc = skip_ws(p)) || (rc = attribute(p, in, key, kat, contract, &n_contract, &dim_labels, &window)))
            return rc;
    }
    if (in->cls == OPC_GTE && in->index < 0)
        return fail_at(p, at, "get-tuple-element needs index=");
    if ((in->cls == OPC_FUSION || in->cls == OPC_CALL || in->cls == OPC_WHILE || in->cls == OPC_CONDITIONAL) &&
        !in->nref)
        return fail_at(p, at, "%.*s names no computation to call", (int)in->op.len, p->s + in->op.off);
    if ((rc = direct_cost(p, in, contract, n_contract, dim_labels, window)))
        return rc;
    if (strmap_put(c->names, p->s + nm.off, nm.len, p->n_ins - c->first) != 0)
        return oom(p);
    p->n_ins++;
    c->n++;
    return RS_OK;
}

/* [ENTRY] [%]NAME [(PARAMS) -> SHAPE] { instructions } */
static int parse_computation(hp_t *p)
{
    int rc;
    slice_t nm;
    loc_t at = here(p);
    if ((rc = read_name(p, &nm, "a computation ([ENTRY] NAME [(PARAMS) -> SHAPE] {)")))
        return rc;
    bool entry = false;
    if (slice_is(p, nm, "ENTRY") && p->s[at.pos] != '%') {
        entry = true;
        if ((rc = skip_ws(p)))
            return rc;
        at = here(p);
        if ((rc = read_name(p, &nm, "the ENTRY computation's name")))
            return rc;
    }
    if (entry)
        for (int32_t i = 0; i < p->n_comps; i++)
            if (p->comps[i].entry)
                return fail_at(p, at, "a second ENTRY computation (the first is at line %d)", p->comps[i].at.line);
    if (strmap_get(p->comp_names, p->s + nm.off, nm.len) >= 0)
        return fail_at(p, at, "computation '%.*s' is already defined", (int)(nm.len > 80 ? 80 : nm.len),
                       p->s + nm.off);
    if ((rc = skip_ws(p)))
        return rc;
    if (peek(p) == '(') {
        slice_t v;
        if ((rc = skip_value(p, &v)) || (rc = skip_ws(p)))
            return rc;
        if (!(accept(p, '-') && accept(p, '>')))
            return expected(p, "'->' and the result shape");
        shape_t sh;
        if ((rc = parse_shape(p, &sh, p->scratch_dims, true, 0)))
            return rc;
    }
    if ((rc = expect(p, '{', "'{' opening the computation's body")))
        return rc;
    if (vec_reserve((void **)&p->comps, &p->cap_comps, (int64_t)p->n_comps + 1, sizeof *p->comps))
        return oom(p);
    int32_t ci = p->n_comps++;
    comp_t *c = &p->comps[ci];
    memset(c, 0, sizeof *c);
    c->name = nm;
    c->at = at;
    c->entry = entry;
    c->first = p->n_ins;
    if (!(c->names = strmap_new()) || strmap_put(p->comp_names, p->s + nm.off, nm.len, ci) != 0)
        return oom(p);
    for (;;) {
        if ((rc = skip_ws(p)))
            return rc;
        if (p->pos >= p->len)
            return fail_at(p, here(p), "unexpected end of file: computation '%.*s' (line %d) is not closed",
                           (int)(nm.len > 80 ? 80 : nm.len), p->s + nm.off, at.line);
        if (accept(p, '}'))
            break;
        if ((rc = parse_instruction(p, ci)))
            return rc;
    }
    if (!p->comps[ci].n)
        return fail_at(p, at, "computation '%.*s' has no instructions", (int)(nm.len > 80 ? 80 : nm.len),
                       p->s + nm.off);
    return RS_OK;
}

/* Sections some dumps end with (FileNames, StackFrames, ...): numbered
 * strings and braces, skipped. */
static int skip_section(hp_t *p)
{
    int rc;
    for (;;) {
        if ((rc = skip_ws(p)))
            return rc;
        int c = peek(p);
        slice_t v;
        if (c >= '0' && c <= '9') {
            while (peek(p) >= '0' && peek(p) <= '9')
                p->pos++;
        } else if (c == '"' || c == '{') {
            if ((rc = skip_value(p, &v)))
                return rc;
        } else {
            return RS_OK;
        }
    }
}

static bool is_section(const hp_t *p)
{
    static const char *S[] = { "FileNames", "FunctionNames", "FileLocations", "StackFrames" };
    for (int k = 0; k < 4; k++) {
        size_t n = strlen(S[k]);
        if (p->len - p->pos > n && memcmp(p->s + p->pos, S[k], n) == 0 && !name_char((unsigned char)p->s[p->pos + n]))
            return true;
    }
    return false;
}

static int parse_module(hp_t *p)
{
    int rc;
    if ((rc = skip_ws(p)))
        return rc;
    p->module_at = here(p);
    slice_t kw;
    if (!name_start(peek(p)) || (rc = read_name(p, &kw, "`HloModule NAME`")) || !slice_is(p, kw, "HloModule")) {
        p->pos = p->module_at.pos;
        return rc ? rc : expected(p, "`HloModule NAME` as the first statement");
    }
    if ((rc = read_name(p, &p->module, "the module's name after HloModule")))
        return rc;
    for (;;) {
        if ((rc = skip_ws(p)))
            return rc;
        if (!accept(p, ','))
            break;
        slice_t key, v;
        if ((rc = read_name(p, &key, "a module attribute")) || (rc = expect(p, '=', "'=' after the attribute name")) ||
            (rc = skip_ws(p)) || (rc = skip_value(p, &v)))
            return rc;
    }
    for (;;) {
        if ((rc = skip_ws(p)))
            return rc;
        if (p->pos >= p->len)
            break;
        if (is_section(p)) {
            while (name_char(peek(p)))
                p->pos++;
            if ((rc = skip_section(p)))
                return rc;
            continue;
        }
        if ((rc = parse_computation(p)))
            return rc;
    }
    for (int32_t i = 0; i < p->n_comps; i++)
        if (p->comps[i].entry)
            return RS_OK;
    return fail_at(p, p->module_at, "module '%.*s' has no ENTRY computation", (int)(p->module.len > 80 ? 80 : p->module.len),
                   p->s + p->module.off);
}

/* ---- costs through called computations ------------------------------------ */

static int called(hp_t *p, const ins_t *in, int32_t k, int32_t *ci)
{
    slice_t r = p->refs[in->ref_off + k];
    *ci = strmap_get(p->comp_names, p->s + r.off, r.len);
    if (*ci < 0)
        return fail_at(p, in->ref_at, "no computation named '%.*s'", (int)(r.len > 80 ? 80 : r.len), p->s + r.off);
    return RS_OK;
}

/* The cost of an instruction that calls computations, whose costs are
 * known. */
static int call_cost(hp_t *p, ins_t *in)
{
    int64_t c = 0;
    bool ok = true;
    for (int32_t k = 0; k < in->nref; k++) {
        int32_t ci;
        int rc = called(p, in, k, &ci);
        if (rc)
            return rc;
        int64_t x = p->comps[ci].cost;
        if (in->cls == OPC_CONDITIONAL)
            c = x > c ? x : c;
        else
            ok = ok && checked_add(c, x, &c);
    }
    if (in->cls == OPC_WHILE)
        ok = ok && checked_mul(c, in->trip, &c);
    if (!ok)
        return fail_at(p, in->at, "the cost of '%.*s' overflows 64 bits", (int)in->name.len, p->s + in->name.off);
    in->cost = c;
    return RS_OK;
}

static bool calls_out(const ins_t *in)
{
    return in->cls == OPC_FUSION || in->cls == OPC_WHILE || in->cls == OPC_CONDITIONAL || in->cls == OPC_CALL;
}

/* Costs every computation, callees first, with an explicit stack (a chain
 * of calls may be as long as the file); a computation that calls itself is
 * an error. */
static int cost_computations(hp_t *p)
{
    int32_t *stack = malloc(((size_t)p->n_comps + 1) * sizeof *stack);
    int32_t *next = calloc((size_t)p->n_comps + 1, sizeof *next); /* the instruction each resumes at */
    if (!stack || !next) {
        free(stack);
        free(next);
        return oom(p);
    }
    int rc = RS_OK;
    for (int32_t root = 0; root < p->n_comps && !rc; root++) {
        if (p->comps[root].state)
            continue;
        int32_t sp = 0;
        stack[sp++] = root;
        p->comps[root].state = 1;
        while (sp && !rc) {
            int32_t ci = stack[sp - 1];
            comp_t *c = &p->comps[ci];
            bool pushed = false;
            while (next[ci] < c->n && !pushed && !rc) {
                ins_t *in = &p->ins[c->first + next[ci]];
                for (int32_t k = 0; calls_out(in) && k < in->nref && !pushed && !rc; k++) {
                    int32_t cj;
                    if ((rc = called(p, in, k, &cj)))
                        break;
                    if (p->comps[cj].state == 1)
                        rc = fail_at(p, in->ref_at, "computation '%.*s' calls itself", (int)p->comps[cj].name.len,
                                     p->s + p->comps[cj].name.off);
                    else if (p->comps[cj].state == 0) {
                        p->comps[cj].state = 1;
                        stack[sp++] = cj;
                        pushed = true;
                    }
                }
                if (!pushed && !rc) {
                    if (calls_out(in))
                        rc = call_cost(p, in);
                    if (!rc && !checked_add(c->cost, in->cost, &c->cost))
                        rc = fail_at(p, in->at, "the cost of computation '%.*s' overflows 64 bits", (int)c->name.len,
                                     p->s + c->name.off);
                    next[ci]++;
                }
            }
            if (!pushed && !rc) {
                c->state = 2;
                sp--;
            }
        }
    }
    free(stack);
    free(next);
    return rc;
}

/* ---- the ENTRY as §1 text ------------------------------------------------- */

/* s[0..n) escaped for a §1 string (the quotes are the caller's); with
 * hlo_escapes, the HLO printer's C escapes are decoded first. */
static void put_chars(strbuf_t *b, const char *s, size_t n, bool hlo_escapes)
{
    for (size_t i = 0; i < n; i++) {
        /* a run that needs no escaping goes in whole */
        size_t run = i;
        while (run < n && run - i < (1u << 30) && (unsigned char)s[run] >= 0x20 && s[run] != '"' && s[run] != '\\' && s[run] != 0x7f)
            run++;
        if (run > i) {
            strbuf_printf(b, "%.*s", (int)(run - i), s + i);
            i = run - 1;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        if (hlo_escapes && c == '\\' && i + 1 < n) {
            /* the HLO printer's C escapes, decoded first */
            char e = s[++i];
            if (e == 'n')
                c = '\n';
            else if (e == 't')
                c = '\t';
            else if (e == 'r')
                c = '\r';
            else if (e >= '0' && e <= '7') {
                int v = e - '0';
                for (int k = 0; k < 2 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; k++)
                    v = v * 8 + (s[++i] - '0');
                c = (unsigned char)v;
            } else
                c = (unsigned char)e;
        }
        if (c == '"' || c == '\\')
            strbuf_printf(b, "\\%c", c);
        else if (c == '\n')
            strbuf_printf(b, "\\n");
        else if (c == '\t')
            strbuf_printf(b, "\\t");
        else if (c < 0x20 || c == 0x7f)
            strbuf_printf(b, "\\x%02x", c);
        else
            strbuf_printf(b, "%c", c);
    }
}

/* A §1 identifier from an HLO name: [A-Za-z0-9_.] kept, the rest '_'. */
static void sanitize(const char *s, size_t n, char *out, size_t cap)
{
    size_t w = 0;
    if (n && !name_start((unsigned char)s[0]) && w + 1 < cap)
        out[w++] = '_';
    for (size_t i = 0; i < n && w + 1 < cap; i++) {
        char c = s[i];
        bool keep = name_start((unsigned char)c) || (c >= '0' && c <= '9') || c == '.';
        out[w++] = keep ? c : '_';
    }
    if (!w)
        out[w++] = '_';
    out[w] = 0;
}

typedef struct entry_map {
    int32_t *node;     /* per ENTRY instruction: its node, or -1 for an alias */
    int32_t *res_off, *res_len;
    int32_t *tsrc;     /* the tuple instruction it reads through, or -1 */
    int32_t *res;      /* resolutions, shared by aliases */
    int32_t n_res, cap_res;
    int64_t budget;    /* resolution and argument entries left */
} entry_map_t;

static int res_push(hp_t *p, entry_map_t *m, int32_t v, const ins_t *in)
{
    if (m->budget-- <= 0)
        return fail_at(p, in->at, "tuples here expand to more operands than the file has bytes (nested too "
                                  "repetitively)");
    if (vec_reserve((void **)&m->res, &m->cap_res, (int64_t)m->n_res + 1, sizeof *m->res))
        return oom(p);
    m->res[m->n_res++] = v;
    return RS_OK;
}

static int write_entry(hp_t *p, const comp_t *c, strbuf_t *b, int32_t **node_ins, int32_t *n_nodes)
{
    entry_map_t m = { 0 };
    int32_t n = c->n;
    m.node = malloc(((size_t)n + 1) * sizeof *m.node);
    m.res_off = malloc(((size_t)n + 1) * sizeof *m.res_off);
    m.res_len = malloc(((size_t)n + 1) * sizeof *m.res_len);
    m.tsrc = malloc(((size_t)n + 1) * sizeof *m.tsrc);
    *node_ins = malloc(((size_t)n + 1) * sizeof **node_ins);
    uint8_t *output = calloc((size_t)n + 1, 1);
    strmap_t *used = strmap_new();
    m.budget = (int64_t)p->len + 4096;
    int rc = RS_OK;
    if (!m.node || !m.res_off || !m.res_len || !m.tsrc || !*node_ins || !output || !used)
        rc = oom(p);
    int32_t nn = 0, root = n - 1;
    for (int32_t k = 0; k < n; k++)
        if (p->ins[c->first + k].root)
            root = k;
    char name[560];
    char sane[512];
    sanitize(p->s + p->module.off, p->module.len, sane, sizeof sane);
    strbuf_printf(b, "routine %s\n", sane);
    /* pass 1: nodes and resolutions */
    for (int32_t k = 0; k < n && !rc; k++) {
        const ins_t *in = &p->ins[c->first + k];
        m.node[k] = -1;
        m.tsrc[k] = -1;
        m.res_off[k] = m.n_res;
        m.res_len[k] = 0;
        int32_t o0 = in->nopd ? p->opds[in->opd_off] - c->first : -1;
        switch (in->cls) {
        case OPC_AFTER_ALL:
            break;
        case OPC_ALIAS_FIRST:
            if (o0 >= 0) {
                m.res_off[k] = m.res_off[o0];
                m.res_len[k] = m.res_len[o0];
                m.tsrc[k] = m.tsrc[o0];
            }
            break;
        case OPC_GTE:
            if (o0 >= 0 && m.tsrc[o0] >= 0) {
                const ins_t *t = &p->ins[c->first + m.tsrc[o0]];
                if (in->index >= t->nopd) {
                    rc = fail_at(p, in->at, "index=%lld of a tuple of %d", (long long)in->index, (int)t->nopd);
                    break;
                }
                int32_t src = p->opds[t->opd_off + in->index] - c->first;
                m.res_off[k] = m.res_off[src];
                m.res_len[k] = m.res_len[src];
                m.tsrc[k] = m.tsrc[src];
            } else if (o0 >= 0) {
                m.res_off[k] = m.res_off[o0];
                m.res_len[k] = m.res_len[o0];
            }
            break;
        case OPC_TUPLE:
            m.tsrc[k] = k;
            for (int32_t a = 0; a < in->nopd && !rc; a++) {
                int32_t o = p->opds[in->opd_off + a] - c->first;
                for (int32_t r = 0; r < m.res_len[o] && !rc; r++)
                    rc = res_push(p, &m, m.res[m.res_off[o] + r], in);
            }
            m.res_len[k] = m.n_res - m.res_off[k];
            break;
        default:
            m.node[k] = nn;
            (*node_ins)[nn++] = k;
            m.res_off[k] = m.n_res;
            rc = res_push(p, &m, m.node[k], in);
            m.res_len[k] = 1;
        }
    }
    /* what ROOT resolves to is @output */
    for (int32_t r = 0; !rc && n && r < m.res_len[root]; r++)
        output[m.res[m.res_off[root] + r]] = 1;
    /* pass 2: names, sanitised, a clash taking _2, _3, ... in text order */
    strbuf_t names;
    strbuf_init(&names);
    size_t *name_at = malloc(((size_t)nn + 1) * sizeof *name_at);
    if (!rc && !name_at)
        rc = oom(p);
    for (int32_t j = 0; j < nn && !rc; j++) {
        const ins_t *in = &p->ins[c->first + (*node_ins)[j]];
        sanitize(p->s + in->name.off, in->name.len, sane, sizeof sane);
        snprintf(name, sizeof name, "%s", sane);
        for (int suffix = 2; strmap_get(used, name, strlen(name)) >= 0; suffix++)
            snprintf(name, sizeof name, "%s_%d", sane, suffix);
        name_at[j] = names.len;
        strbuf_printf(&names, "%s%c", name, 0);
        if (names.oom || strmap_put(used, name, strlen(name), j) != 0)
            rc = oom(p);
    }
    /* pass 3: the lines */
    for (int32_t j = 0; j < nn && !rc; j++) {
        int32_t k = (*node_ins)[j];
        const ins_t *in = &p->ins[c->first + k];
        const char *nm = names.s + name_at[j];
        char shape[64 * 22 + 8];
        size_t sw = 0;
        shape[sw++] = '[';
        if (in->array)
            for (int32_t d = 0; d < in->ndims; d++)
                sw += (size_t)snprintf(shape + sw, sizeof shape - sw, "%s%lld", d ? ", " : "",
                                       (long long)p->dims[in->dim_off + d]);
        else
            sw += (size_t)snprintf(shape + sw, sizeof shape - sw, "%lld", (long long)in->bytes);
        snprintf(shape + sw, sizeof shape - sw, "] %s", in->array ? dtype_name((dtype_t)in->dtype) : "u8");
        if (in->cls == OPC_PARAMETER || in->cls == OPC_CONSTANT) {
            strbuf_printf(b, "%s %s %s", in->cls == OPC_PARAMETER ? "input" : "param", nm, shape);
        } else {
            strbuf_printf(b, "%s = ", nm);
            for (size_t i = 0; i < in->op.len; i++)
                strbuf_printf(b, "%c", p->s[in->op.off + i] == '-' ? '_' : p->s[in->op.off + i]);
            strbuf_printf(b, "(");
            int32_t na = 0;
            for (int32_t a = 0; a < in->nopd && !rc; a++) {
                int32_t o = p->opds[in->opd_off + a] - c->first;
                for (int32_t r = 0; r < m.res_len[o] && !rc; r++) {
                    if (m.budget-- <= 0)
                        rc = fail_at(p, in->at, "tuples here expand to more operands than the file has bytes "
                                                "(nested too repetitively)");
                    else
                        strbuf_printf(b, "%s%s", na++ ? ", " : "", names.s + name_at[m.res[m.res_off[o] + r]]);
                }
            }
            strbuf_printf(b, ") %s cost=%lld", shape, (long long)(in->cost < 1 ? 1 : in->cost));
        }
        if (output[j])
            strbuf_printf(b, " @output");
        if (in->pinned && in->cls != OPC_PARAMETER && in->cls != OPC_CONSTANT)
            strbuf_printf(b, " @pinned");
        strbuf_printf(b, " hlo=\"");
        put_chars(b, p->s + in->name.off, in->name.len, false);
        strbuf_printf(b, "\"");
        if (in->op_name.len) {
            strbuf_printf(b, " op_name=\"");
            put_chars(b, p->s + in->op_name.off, in->op_name.len, true);
            strbuf_printf(b, "\"");
        }
        if (in->source_file.len || in->source_line >= 0) {
            strbuf_printf(b, " source=\"");
            put_chars(b, p->s + in->source_file.off, in->source_file.len, true);
            if (in->source_line >= 0)
                strbuf_printf(b, ":%lld", (long long)in->source_line);
            strbuf_printf(b, "\"");
        }
        strbuf_printf(b, "\n");
    }
    strbuf_free(&names);
    free(name_at);
    if (!rc && b->oom)
        rc = oom(p);
    *n_nodes = nn;
    free(m.node);
    free(m.res_off);
    free(m.res_len);
    free(m.tsrc);
    free(m.res);
    free(output);
    strmap_free(used);
    return rc;
}

/* ---- entry points ----------------------------------------------------------- */

static void hp_free(hp_t *p)
{
    for (int32_t i = 0; i < p->n_comps; i++)
        strmap_free(p->comps[i].names);
    free(p->comps);
    free(p->ins);
    free(p->dims);
    free(p->opds);
    free(p->refs);
    strmap_free(p->comp_names);
}

bool hlo_sniff(const char *text, size_t len)
{
    rs_error_t e;
    hp_t p = { .path = "", .s = text, .len = len, .line = 1, .err = &e };
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = p.line_start = 3;
    if (skip_ws(&p))
        return false;
    return len - p.pos > 9 && memcmp(text + p.pos, "HloModule", 9) == 0 &&
           (text[p.pos + 9] == ' ' || text[p.pos + 9] == '\t' || text[p.pos + 9] == '%');
}

/* hlo_convert, also giving each node's HLO line and column. */
static int convert(const char *path, const char *text, size_t len, char **out, size_t *out_len, int32_t **lines,
                   int32_t **cols, int32_t *n_nodes, rs_error_t *err)
{
    *out = NULL;
    *out_len = 0;
    hp_t p = { .path = path, .s = text, .len = len, .line = 1, .err = err };
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = p.line_start = 3;
    const char *nul = memchr(text, 0, len);
    if (nul) {
        /* find its line for the location */
        for (size_t i = 0; i < (size_t)(nul - text); i++)
            if (text[i] == '\n') {
                p.line++;
                p.line_start = i + 1;
            }
        p.pos = (size_t)(nul - text);
        return fail_at(&p, here(&p), "NUL byte in a text file (is this an HLO dump?)");
    }
    int rc = (p.comp_names = strmap_new()) ? RS_OK : oom(&p);
    if (!rc)
        rc = parse_module(&p);
    if (!rc)
        rc = cost_computations(&p);
    strbuf_t b;
    strbuf_init(&b);
    int32_t *node_ins = NULL, nn = 0;
    const comp_t *entry = NULL;
    for (int32_t i = 0; !rc && i < p.n_comps; i++)
        if (p.comps[i].entry)
            entry = &p.comps[i];
    if (!rc) {
        const char *base = strrchr(path, '/');
        strbuf_printf(&b, "# %s as a routine (DESIGN §10): the HLO module's ENTRY computation, one line a node\n",
                      base ? base + 1 : path);
        rc = write_entry(&p, entry, &b, &node_ins, &nn);
    }
    if (!rc && lines) {
        *lines = malloc(((size_t)nn + 1) * sizeof **lines);
        *cols = malloc(((size_t)nn + 1) * sizeof **cols);
        if (!*lines || !*cols) {
            free(*lines);
            free(*cols);
            *lines = *cols = NULL;
            rc = oom(&p);
        }
        /* columns counted on from the previous node's on the same line: the
         * whole file may be one line */
        size_t at = 0, ls = (size_t)-1;
        int col = 1;
        for (int32_t j = 0; !rc && j < nn; j++) {
            loc_t l = p.ins[entry->first + node_ins[j]].at;
            if (l.line_start != ls) {
                ls = at = l.line_start;
                col = 1;
            }
            for (; at < l.pos; at++)
                if (((unsigned char)text[at] & 0xC0) != 0x80)
                    col++;
            (*lines)[j] = l.line;
            (*cols)[j] = col;
        }
        *n_nodes = nn;
    }
    free(node_ins);
    hp_free(&p);
    if (rc) {
        strbuf_free(&b);
        return rc;
    }
    *out = b.s;
    *out_len = b.len;
    return RS_OK;
}

int hlo_convert(const char *path, const char *text, size_t len, char **out, size_t *out_len, rs_error_t *err)
{
    return convert(path, text, len, out, out_len, NULL, NULL, NULL, err);
}

int hlo_read(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err)
{
    *out = NULL;
    char *rt;
    size_t rl;
    int32_t *lines = NULL, *cols = NULL, nn = 0;
    int rc = convert(path, text, len, &rt, &rl, &lines, &cols, &nn, err);
    if (rc)
        return rc;
    rc = routine_parse(path, rt, rl, out, err);
    free(rt);
    if (!rc && (*out)->n_nodes != nn)
        rc = error_set(err, RS_EINPUT, path, 0, 0, "internal: the HLO reader wrote %d nodes, the routine has %d",
                       (int)nn, (int)(*out)->n_nodes);
    if (!rc) {
        routine_t *r = *out;
        r->format = ROUTINE_HLO;
        for (int32_t i = 0; i < r->n_nodes; i++) {
            r->nodes[i].line = lines[i];
            r->nodes[i].col = cols[i];
        }
        for (int32_t s = 0; s < r->n_steps; s++) {
            r->steps[s].line = lines[r->steps[s].node];
            r->steps[s].col = cols[r->steps[s].node];
        }
    } else {
        routine_free(*out);
        *out = NULL;
    }
    free(lines);
    free(cols);
    return rc;
}

int hlo_read_any(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err)
{
    return hlo_sniff(text, len) ? hlo_read(path, text, len, out, err) : routine_parse(path, text, len, out, err);
}
