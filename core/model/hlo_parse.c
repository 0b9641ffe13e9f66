/* hlo_parse: the first pass of the HLO reader: hlo_lex.c's tokens read into
 * computations and instructions, with what the mapping needs: shapes,
 * operands, a few attributes and the metadata. */
#include "model/hlo.h"
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/vec.h"

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
    { "conditional", OPC_CONDITIONAL }, { "call", OPC_CALL }, { "custom-call", OPC_CUSTOM },
    { "dynamic-update-slice", OPC_DUS }, { "scatter", OPC_SCATTER },
};

static const char *PINNED[] = {
    "rng", "rng-bit-generator", "rng-get-and-update-state", "infeed", "outfeed", "send", "recv", "all-reduce",
    "all-gather", "reduce-scatter", "all-to-all", "collective-permute", "collective-broadcast", "custom-call",
    "while", "conditional", "copy-start", "copy-done",
};

/* What keeps its own -start/-done halves (DESIGN §10 "Async pairs"); any
 * other OP-start/-update/-done is XLA's shorthand for an async-wrapped OP. */
static const char *OWN_HALVES[] = {
    "async", "copy", "send", "recv", "all-reduce", "all-gather", "reduce-scatter", "all-to-all",
    "collective-permute", "collective-broadcast",
};

static bool ends_with(const char *op, size_t n, const char *w, size_t *base)
{
    size_t k = strlen(w);
    if (n <= k || memcmp(op + n - k, w, k) != 0)
        return false;
    *base = n - k;
    return true;
}

/* OPC_ASYNC_* for async-start/-update/-done and the shorthand OP-start/
 * -update/-done of an async-wrapped OP; OPC_OTHER for the rest. */
static uint8_t async_class(const char *op, size_t n)
{
    size_t base;
    uint8_t cls;
    if (ends_with(op, n, "-start", &base))
        cls = OPC_ASYNC_START;
    else if (ends_with(op, n, "-update", &base))
        cls = OPC_ASYNC_UPDATE;
    else if (ends_with(op, n, "-done", &base))
        cls = OPC_ASYNC_DONE;
    else
        return OPC_OTHER;
    if (base == 5 && memcmp(op, "async", 5) == 0)
        return cls;
    for (size_t k = 0; k < sizeof OWN_HALVES / sizeof OWN_HALVES[0]; k++)
        if (strlen(OWN_HALVES[k]) == base && memcmp(OWN_HALVES[k], op, base) == 0)
            return OPC_OTHER;
    return cls;
}

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

static int push_opd(hp_t *p, int32_t v, int32_t sel)
{
    if (vec_reserve((void **)&p->opds, &p->cap_opds, (int64_t)p->n_opds + 1, sizeof *p->opds) ||
        vec_reserve((void **)&p->opd_sel, &p->cap_opd_sel, (int64_t)p->n_opds + 1, sizeof *p->opd_sel))
        return hlo_oom(p);
    p->opd_sel[p->n_opds] = sel;
    p->opds[p->n_opds++] = v;
    return RS_OK;
}

static int push_sel(hp_t *p, int64_t v)
{
    if (vec_reserve((void **)&p->sels, &p->cap_sels, (int64_t)p->n_sels + 1, sizeof *p->sels))
        return hlo_oom(p);
    p->sels[p->n_sels++] = v;
    return RS_OK;
}

/* After an operand's name: `#K`, `#K#J`, ... (an element of a tuple, each
 * further '#' one level deeper), kept in p->sels as n then the indices;
 * *sel -1 when there is none. */
static int parse_selection(hp_t *p, int32_t *sel)
{
    *sel = -1;
    if (hlo_peek(p) != '#')
        return RS_OK;
    int rc;
    int32_t at = p->n_sels;
    if ((rc = push_sel(p, 0)))
        return rc;
    while (hlo_accept(p, '#')) {
        int64_t k;
        if (hlo_peek(p) < '0' || hlo_peek(p) > '9')
            return hlo_expected(p, "an element number after '#'");
        if ((rc = hlo_read_int(p, &k, "an element number after '#'")) || (rc = push_sel(p, k)))
            return rc;
        if (p->sels[at] == MAX_NEST)
            return hlo_fail_at(p, hlo_here(p), "more than %d '#' selections", MAX_NEST);
        p->sels[at]++;
    }
    *sel = at;
    return RS_OK;
}

/* The operand list after '(': shapes (optional) and names, resolved in
 * computation c. */
static int parse_operands(hp_t *p, ins_t *in, comp_t *c)
{
    int rc;
    in->opd_off = p->n_opds;
    if ((rc = hlo_skip_ws(p)))
        return rc;
    if (hlo_accept(p, ')'))
        return RS_OK;
    for (;;) {
        if ((rc = hlo_skip_ws(p)))
            return rc;
        /* a shape first, when one is printed: '(' or TYPE '[' */
        if (hlo_peek(p) == '(') {
            shape_t sh;
            if ((rc = hlo_parse_shape(p, &sh, NULL, false, 0)))
                return rc;
        } else if (hlo_name_start(hlo_peek(p))) {
            size_t e = p->pos;
            while (e < p->len && hlo_name_char((unsigned char)p->s[e]))
                e++;
            if (e < p->len && p->s[e] == '[') {
                shape_t sh;
                if ((rc = hlo_parse_shape(p, &sh, NULL, false, 0)))
                    return rc;
            }
        }
        slice_t nm = { 0, 0 }; /* set by read_name; -O2 cannot see it through the error path */
        if ((rc = hlo_skip_ws(p)))
            return rc;
        loc_t at = hlo_here(p);
        if ((rc = hlo_read_name(p, &nm, "an operand name")))
            return rc;
        int32_t k = strmap_get(c->names, p->s + nm.off, nm.len);
        if (k < 0)
            return hlo_fail_at(p, at, "operand '%.*s' is not defined before this instruction in computation '%.*s'",
                           (int)(nm.len > 80 ? 80 : nm.len), p->s + nm.off, (int)(c->name.len > 80 ? 80 : c->name.len),
                           p->s + c->name.off);
        int32_t sel;
        if ((rc = parse_selection(p, &sel)) || (rc = push_opd(p, c->first + k, sel)))
            return rc;
        in->nopd++;
        bool done;
        if ((rc = hlo_list_sep(p, ')', "',' or ')' in the operands", &done)) || done)
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
        while (i < e && hlo_name_char((unsigned char)p->s[i]))
            i++;
        if (i == b) {
            if (i < e)
                i++;
            continue;
        }
        if (vec_reserve((void **)&p->refs, &p->cap_refs, (int64_t)p->n_refs + 1, sizeof *p->refs))
            return hlo_oom(p);
        p->refs[p->n_refs++] = (slice_t){ b, i - b };
        in->nref++;
    }
    return RS_OK;
}

typedef enum { NUM_ABSENT, NUM_OK, NUM_NEGATIVE, NUM_TOO_BIG } num_t;

/* The first decimal number after `key` inside v (before a '}'): NUM_OK
 * with *x, NUM_NEGATIVE when a '-' stands before it, NUM_TOO_BIG past 63
 * bits, NUM_ABSENT when there is none; *at is where it stands. */
static num_t find_number_after(const hp_t *p, slice_t v, const char *key, int64_t *x, size_t *at)
{
    size_t kl = strlen(key), end = v.off + v.len;
    *x = -1;
    *at = v.off;
    for (size_t i = v.off; i + kl <= end; i++) {
        if (memcmp(p->s + i, key, kl) != 0)
            continue;
        size_t j = i + kl;
        while (j < end && (p->s[j] < '0' || p->s[j] > '9') && p->s[j] != '}')
            j++;
        if (j >= end || p->s[j] < '0' || p->s[j] > '9')
            return NUM_ABSENT;
        bool neg = j > i + kl && p->s[j - 1] == '-';
        *at = neg ? j - 1 : j;
        int64_t n = 0;
        for (; j < end && p->s[j] >= '0' && p->s[j] <= '9'; j++)
            if (!checked_mul(n, 10, &n) || !checked_add(n, p->s[j] - '0', &n))
                return NUM_TOO_BIG;
        if (neg)
            return NUM_NEGATIVE;
        *x = n;
        return NUM_OK;
    }
    return NUM_ABSENT;
}

/* An attribute's number (what names it) read with find_number_after:
 * RS_OK with *x (-1 when absent), or an error where a negative or
 * too-large one stands. */
static int attribute_number(hp_t *p, slice_t v, const char *key, loc_t kat, const char *what, int64_t *x)
{
    size_t at;
    num_t k = find_number_after(p, v, key, x, &at);
    if (k == NUM_NEGATIVE)
        return hlo_fail_at(p, hlo_loc_at(p, kat, at), "%s cannot be negative", what);
    if (k == NUM_TOO_BIG)
        return hlo_fail_at(p, hlo_loc_at(p, kat, at), "%s out of range (more than 63 bits)", what);
    return RS_OK;
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
        if (hlo_slice_is(p, key, "op_name"))
            in->op_name = val;
        else if (hlo_slice_is(p, key, "source_file"))
            in->source_file = val;
        else if (hlo_slice_is(p, key, "source_line")) {
            size_t at; /* where a model's source is shown, not read: a bad number is unknown */
            (void)find_number_after(p, (slice_t){ val.off, val.len }, "", &in->source_line, &at);
        } else if (hlo_slice_is(p, key, "stack_frame_id")) {
            /* a bad number is a frame out of range, reported when its chain is followed */
            size_t at;
            in->frame_pos = val.off;
            if (find_number_after(p, (slice_t){ val.off, val.len }, "", &in->frame, &at) != NUM_OK || val.len == 0 ||
                p->s[val.off] < '0' || p->s[val.off] > '9')
                in->frame = -1;
        }
    }
}

/* One attribute's value, kept when the mapping uses it. */
static int attribute(hp_t *p, ins_t *in, slice_t key, loc_t kat, int64_t *lhs_contract, int32_t *n_contract,
                     slice_t *dim_labels, slice_t *window, slice_t *backend)
{
    slice_t v;
    int rc = hlo_skip_value(p, &v);
    if (rc)
        return rc;
    if (hlo_slice_is(p, key, "metadata")) {
        parse_metadata(p, in, v);
    } else if (hlo_slice_is(p, key, "index") && in->cls == OPC_GTE) {
        if ((rc = attribute_number(p, v, "", kat, "a get-tuple-element index", &in->index)))
            return rc;
        if (in->index < 0)
            return hlo_fail_at(p, kat, "index= needs a number");
    } else if (hlo_slice_is(p, key, "backend_config") && in->cls == OPC_WHILE) {
        if ((rc = hlo_trip_count(p, v, kat, &in->trip)))
            return rc;
    } else if (hlo_slice_is(p, key, "backend_config") && in->cls == OPC_CUSTOM) {
        *backend = v;
    } else if (hlo_slice_is(p, key, "custom_call_target") && in->cls == OPC_CUSTOM) {
        in->lib = hlo_library_of(p, v);
        in->pinned = in->lib == LIB_NONE;
    } else if (hlo_slice_is(p, key, "output_to_operand_aliasing")) {
        return hlo_parse_oto(p, in, v);
    } else if (hlo_slice_is(p, key, "lhs_contracting_dims") && in->cls == OPC_DOT) {
        for (size_t i = v.off; i < v.off + v.len;) {
            char ch = p->s[i];
            if (ch == '{' || ch == '}' || ch == ',' || ch == ' ') {
                i++;
                continue;
            }
            if (ch < '0' || ch > '9')
                return hlo_fail_at(p, hlo_loc_at(p, kat, i), "lhs_contracting_dims: expected a dimension number");
            size_t at = i;
            int64_t d = 0;
            while (i < v.off + v.len && p->s[i] >= '0' && p->s[i] <= '9')
                if (!checked_mul(d, 10, &d) || !checked_add(d, p->s[i++] - '0', &d))
                    return hlo_fail_at(p, hlo_loc_at(p, kat, at), "lhs_contracting_dims out of range (more than 63 bits)");
            if (*n_contract == 64)
                return hlo_fail_at(p, hlo_loc_at(p, kat, at), "lhs_contracting_dims names more than 64 dimensions");
            lhs_contract[(*n_contract)++] = d;
        }
    } else if (hlo_slice_is(p, key, "dim_labels")) {
        *dim_labels = v;
    } else if (hlo_slice_is(p, key, "window")) {
        *window = v;
    } else if ((in->cls == OPC_FUSION && hlo_slice_is(p, key, "calls")) ||
               (in->cls == OPC_CALL && hlo_slice_is(p, key, "to_apply")) ||
               (in->cls == OPC_WHILE && (hlo_slice_is(p, key, "condition") || hlo_slice_is(p, key, "body"))) ||
               (in->cls == OPC_CONDITIONAL &&
                (hlo_slice_is(p, key, "true_computation") || hlo_slice_is(p, key, "false_computation") ||
                 hlo_slice_is(p, key, "branch_computations")))) {
        if (!in->nref)
            in->ref_at = kat;
        return add_refs(p, in, v);
    }
    return RS_OK;
}

const ins_t *hlo_operand(const hp_t *p, const ins_t *in, int32_t k)
{
    return k < in->nopd ? &p->ins[p->opds[in->opd_off + k]] : NULL;
}

/* [ROOT] [%]NAME = SHAPE OPCODE(OPERANDS)[, attr=value]... */
static int parse_instruction(hp_t *p, int32_t ci)
{
    comp_t *c = &p->comps[ci];
    if (vec_reserve((void **)&p->ins, &p->cap_ins, (int64_t)p->n_ins + 1, sizeof *p->ins))
        return hlo_oom(p);
    ins_t *in = &p->ins[p->n_ins];
    memset(in, 0, sizeof *in);
    in->comp = ci;
    in->source_line = -1;
    in->trip = 1;
    in->oto_off = p->n_oto;
    in->index = -1;
    int rc;
    slice_t nm;
    loc_t at = hlo_here(p);
    if ((rc = hlo_read_name(p, &nm, "an instruction (NAME = SHAPE OPCODE(...)) or '}'")))
        return rc;
    if (hlo_slice_is(p, nm, "ROOT") && p->s[at.pos] != '%') {
        size_t save = p->pos;
        if ((rc = hlo_skip_ws(p)))
            return rc;
        if (hlo_peek(p) != '=') {
            in->root = true;
            at = hlo_here(p);
            if ((rc = hlo_read_name(p, &nm, "the instruction's name after ROOT")))
                return rc;
        } else {
            p->pos = save;
        }
    }
    in->name = nm;
    in->at = at;
    int32_t prev = strmap_get(c->names, p->s + nm.off, nm.len);
    if (prev >= 0)
        return hlo_fail_at(p, at, "'%.*s' is already defined at line %d", (int)(nm.len > 80 ? 80 : nm.len),
                       p->s + nm.off, p->ins[c->first + prev].at.line);
    if ((rc = hlo_expect(p, '=', "'=' after the instruction's name")))
        return rc;
    if (vec_reserve((void **)&p->dims, &p->cap_dims, (int64_t)p->n_dims + 64, sizeof *p->dims))
        return hlo_oom(p);
    shape_t sh;
    in->shape_pos = p->pos;
    if ((rc = hlo_parse_shape(p, &sh, p->dims + p->n_dims, false, 0)))
        return rc;
    in->array = sh.array;
    in->dtype = sh.dtype;
    in->bytes = sh.bytes;
    in->elems = sh.elems;
    in->dim_off = p->n_dims;
    in->ndims = sh.array ? sh.ndims : 0;
    p->n_dims += in->ndims;
    if ((rc = hlo_skip_ws(p)))
        return rc;
    loc_t oat = hlo_here(p);
    if (!hlo_name_start(hlo_peek(p)))
        return hlo_expected(p, "an opcode");
    in->op.off = p->pos;
    while (p->pos < p->len && hlo_name_char((unsigned char)p->s[p->pos]) && p->s[p->pos] != '.')
        p->pos++;
    in->op.len = p->pos - in->op.off;
    (void)oat;
    for (size_t k = 0; k < sizeof CLASSES / sizeof CLASSES[0]; k++)
        if (hlo_slice_is(p, in->op, CLASSES[k].name))
            in->cls = CLASSES[k].cls;
    uint8_t acls = async_class(p->s + in->op.off, in->op.len);
    if (acls != OPC_OTHER)
        in->cls = acls;
    in->pinned = acls != OPC_OTHER || op_pinned(p->s + in->op.off, in->op.len);
    if ((rc = hlo_expect(p, '(', "'(' after the opcode")))
        return rc;
    if (in->cls == OPC_CONSTANT || in->cls == OPC_PARAMETER) {
        /* a literal or the parameter's number: no operands */
        p->pos--;
        loc_t vat = hlo_here(p);
        slice_t v;
        if ((rc = hlo_skip_value(p, &v)))
            return rc;
        in->opd_off = p->n_opds;
        if (in->cls == OPC_PARAMETER && /* -1 when it says none */
            (rc = attribute_number(p, v, "", vat, "a parameter number", &in->index)))
            return rc;
    } else if ((rc = parse_operands(p, in, c))) {
        return rc;
    }
    int64_t contract[64];
    int32_t n_contract = 0;
    slice_t dim_labels = { 0, 0 }, window = { 0, 0 }, backend = { 0, 0 };
    for (;;) {
        if ((rc = hlo_skip_ws(p)))
            return rc;
        if (!hlo_accept(p, ','))
            break;
        slice_t key;
        if ((rc = hlo_skip_ws(p)))
            return rc;
        loc_t kat = hlo_here(p);
        if ((rc = hlo_read_name(p, &key, "an attribute name")) || (rc = hlo_expect(p, '=', "'=' after the attribute name")))
            return rc;
        if ((rc = hlo_skip_ws(p)) || (rc = attribute(p, in, key, kat, contract, &n_contract, &dim_labels, &window, &backend)))
            return rc;
    }
    if (in->cls == OPC_GTE && in->index < 0)
        return hlo_fail_at(p, at, "get-tuple-element needs index=");
    if ((in->cls == OPC_FUSION || in->cls == OPC_CALL || in->cls == OPC_WHILE || in->cls == OPC_CONDITIONAL) &&
        !in->nref)
        return hlo_fail_at(p, at, "%.*s names no computation to call", (int)in->op.len, p->s + in->op.off);
    if ((rc = hlo_cost_direct(p, in, contract, n_contract, dim_labels, window, backend)))
        return rc;
    if (strmap_put(c->names, p->s + nm.off, nm.len, p->n_ins - c->first) != 0)
        return hlo_oom(p);
    p->n_ins++;
    c->n++;
    return RS_OK;
}

/* [ENTRY] [%]NAME [(PARAMS) -> SHAPE] { instructions } */
static int parse_computation(hp_t *p)
{
    int rc;
    slice_t nm;
    loc_t at = hlo_here(p);
    if ((rc = hlo_read_name(p, &nm, "a computation ([ENTRY] NAME [(PARAMS) -> SHAPE] {)")))
        return rc;
    bool entry = false;
    if (hlo_slice_is(p, nm, "ENTRY") && p->s[at.pos] != '%') {
        entry = true;
        if ((rc = hlo_skip_ws(p)))
            return rc;
        at = hlo_here(p);
        if ((rc = hlo_read_name(p, &nm, "the ENTRY computation's name")))
            return rc;
    }
    if (entry)
        for (int32_t i = 0; i < p->n_comps; i++)
            if (p->comps[i].entry)
                return hlo_fail_at(p, at, "a second ENTRY computation (the first is at line %d)", p->comps[i].at.line);
    if (strmap_get(p->comp_names, p->s + nm.off, nm.len) >= 0)
        return hlo_fail_at(p, at, "computation '%.*s' is already defined", (int)(nm.len > 80 ? 80 : nm.len),
                       p->s + nm.off);
    if ((rc = hlo_skip_ws(p)))
        return rc;
    if (hlo_peek(p) == '(') {
        slice_t v;
        if ((rc = hlo_skip_value(p, &v)) || (rc = hlo_skip_ws(p)))
            return rc;
        if (!(hlo_accept(p, '-') && hlo_accept(p, '>')))
            return hlo_expected(p, "'->' and the result shape");
        shape_t sh;
        if ((rc = hlo_parse_shape(p, &sh, p->scratch_dims, true, 0)))
            return rc;
    }
    if ((rc = hlo_expect(p, '{', "'{' opening the computation's body")))
        return rc;
    if (vec_reserve((void **)&p->comps, &p->cap_comps, (int64_t)p->n_comps + 1, sizeof *p->comps))
        return hlo_oom(p);
    int32_t ci = p->n_comps++;
    comp_t *c = &p->comps[ci];
    memset(c, 0, sizeof *c);
    c->name = nm;
    c->at = at;
    c->entry = entry;
    c->first = p->n_ins;
    if (!(c->names = strmap_new()) || strmap_put(p->comp_names, p->s + nm.off, nm.len, ci) != 0)
        return hlo_oom(p);
    for (;;) {
        if ((rc = hlo_skip_ws(p)))
            return rc;
        if (p->pos >= p->len)
            return hlo_fail_at(p, hlo_here(p), "unexpected end of file: computation '%.*s' (line %d) is not closed",
                           (int)(nm.len > 80 ? 80 : nm.len), p->s + nm.off, at.line);
        if (hlo_accept(p, '}'))
            break;
        if ((rc = parse_instruction(p, ci)))
            return rc;
    }
    if (!p->comps[ci].n)
        return hlo_fail_at(p, at, "computation '%.*s' has no instructions", (int)(nm.len > 80 ? 80 : nm.len),
                       p->s + nm.off);
    return RS_OK;
}

int hlo_parse_module(hp_t *p)
{
    int rc;
    if ((rc = hlo_skip_ws(p)))
        return rc;
    p->module_at = hlo_here(p);
    slice_t kw;
    if (!hlo_name_start(hlo_peek(p)) || (rc = hlo_read_name(p, &kw, "`HloModule NAME`")) || !hlo_slice_is(p, kw, "HloModule")) {
        p->pos = p->module_at.pos;
        return rc ? rc : hlo_expected(p, "`HloModule NAME` as the first statement");
    }
    if ((rc = hlo_read_name(p, &p->module, "the module's name after HloModule")))
        return rc;
    for (;;) {
        if ((rc = hlo_skip_ws(p)))
            return rc;
        if (!hlo_accept(p, ','))
            break;
        slice_t key, v;
        if ((rc = hlo_read_name(p, &key, "a module attribute")) || (rc = hlo_expect(p, '=', "'=' after the attribute name")) ||
            (rc = hlo_skip_ws(p)))
            return rc;
        if (hlo_slice_is(p, key, "input_output_alias"))
            rc = hlo_parse_alias(p);
        else if (!(rc = hlo_skip_value(p, &v)) && hlo_slice_is(p, key, "is_scheduled"))
            p->scheduled = hlo_slice_is(p, v, "true");
        if (rc)
            return rc;
    }
    for (;;) {
        if ((rc = hlo_skip_ws(p)))
            return rc;
        if (p->pos >= p->len)
            break;
        if (hlo_is_table(p)) {
            if ((rc = hlo_parse_table(p)))
                return rc;
            continue;
        }
        if ((rc = parse_computation(p)))
            return rc;
    }
    for (int32_t i = 0; i < p->n_comps; i++)
        if (p->comps[i].entry)
            return RS_OK;
    return hlo_fail_at(p, p->module_at, "module '%.*s' has no ENTRY computation", (int)(p->module.len > 80 ? 80 : p->module.len),
                   p->s + p->module.off);
}

bool hlo_sniff(const char *text, size_t len)
{
    rs_error_t e;
    hp_t p = { .path = "", .s = text, .len = len, .line = 1, .err = &e };
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = p.line_start = 3;
    if (hlo_skip_ws(&p))
        return false;
    return len - p.pos > 9 && memcmp(text + p.pos, "HloModule", 9) == 0 &&
           (text[p.pos + 9] == ' ' || text[p.pos + 9] == '\t' || text[p.pos + 9] == '%');
}
