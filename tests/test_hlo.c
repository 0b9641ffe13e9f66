/* Tests for core/model/hlo.c: DESIGN §10's mapping of XLA HLO text to a
 * routine — each FLOP rule worked by hand, alias resolution, the pinned
 * opcodes, names, element sizes, and every error located. */
#include <stdlib.h>
#include <string.h>

#include "model/hlo.h"
#include "testutil.h"
#include "util/utf8.h"

typedef struct hl {
    routine_t *r;
    bindings_t b;
    lowering_t *l;
} hl_t;

static void hl_load(hl_t *h, const char *text)
{
    rs_error_t err;
    error_clear(&err);
    memset(h, 0, sizeof *h);
    if (hlo_read("t.hlo", text, strlen(text), &h->r, &err))
        fail_msg("hlo_read: %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    if (routine_bindings(h->r, NULL, 0, &h->b, &err) || lower_routine(h->r, &h->b, &h->l, &err))
        fail_msg("lower: %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
}

static void hl_free(hl_t *h)
{
    lower_free(h->l);
    bindings_free(&h->b);
    routine_free(h->r);
}

static int32_t hl_node(const hl_t *h, const char *name)
{
    int32_t i = routine_find_node(h->r, name);
    if (i < 0)
        fail_msg("no node '%s'", name);
    return i;
}

static uint8_t flags_of(const hl_t *h, const char *name) { return h->l->flags[hl_node(h, name)]; }
static int64_t cost_of(const hl_t *h, const char *name) { return h->l->cost[hl_node(h, name)]; }
static int64_t bytes_of(const hl_t *h, const char *name) { return h->l->bytes[hl_node(h, name)]; }

/* The arguments of name's (only) step, as "a,b,c". */
static void expect_args(const hl_t *h, const char *name, const char *want)
{
    int32_t i = hl_node(h, name);
    int32_t s = h->l->first_def[i];
    assert_true(s >= 0);
    char got[512] = "";
    size_t w = 0;
    for (int32_t a = h->l->arg_off[s]; a < h->l->arg_off[s + 1]; a++)
        w += (size_t)snprintf(got + w, sizeof got - w, "%s%s", a > h->l->arg_off[s] ? "," : "",
                              h->r->nodes[h->l->args[a]].name);
    if (strcmp(got, want) != 0)
        fail_msg("args of %s: got '%s', want '%s'", name, got, want);
}

static void expect_hlo_error(const char *text, size_t len, int line, int col, const char *needle)
{
    rs_error_t err;
    error_clear(&err);
    routine_t *r = NULL;
    int rc = hlo_read("bad.hlo", text, len, &r, &err);
    if (rc != RS_EINPUT)
        fail_msg("rc %d for: %.200s", rc, text);
    assert_null(r);
    if (err.line != line || err.col != col || !strstr(err.msg, needle) || strcmp(err.file, "bad.hlo") != 0)
        fail_msg("got %s:%d:%d: %s; want %d:%d containing '%s'", err.file, err.line, err.col, err.msg, line, col,
                 needle);
}

#define BAD(text, line, col, needle) expect_hlo_error(text, sizeof text - 1, line, col, needle)

/* ---- the FLOP rules, one by one --------------------------------------------- */

static const char *COSTS =
    "HloModule costs\n"
    "\n"
    "%fused (p0: f32[8], p1: f32[8]) -> f32[8] {\n"
    "  %p0 = f32[8]{0} parameter(0)\n"
    "  %p1 = f32[8]{0} parameter(1)\n"
    "  %c = f32[] constant(2)\n"
    "  %bc = f32[8]{0} broadcast(%c), dimensions={}\n"  /* 8 */
    "  %m = f32[8]{0} multiply(%p0, %bc)\n"             /* 8 */
    "  %e = f32[0]{0} slice(%p1), slice={[0:0]}\n"     /* 0: no clamp inside */
    "  ROOT %a = f32[8]{0} add(%m, %p1)\n"              /* 8 */
    "}\n"
    "%body (t: (s32[], f32[8])) -> (s32[], f32[8]) {\n"
    "  %t = (s32[], f32[8]{0}) parameter(0)\n"
    "  %i = s32[] get-tuple-element(%t), index=0\n"
    "  %x = f32[8]{0} get-tuple-element(%t), index=1\n"
    "  %one = s32[] constant(1)\n"
    "  %i2 = s32[] add(%i, %one)\n"                     /* 1 */
    "  %x2 = f32[8]{0} exponential(%x)\n"               /* 8 */
    "  ROOT %r = (s32[], f32[8]{0}) tuple(%i2, %x2)\n"
    "}\n"
    "%cond (t.1: (s32[], f32[8])) -> pred[] {\n"
    "  %t.1 = (s32[], f32[8]{0}) parameter(0)\n"
    "  %i.1 = s32[] get-tuple-element(%t.1), index=0\n"
    "  %n = s32[] constant(5)\n"
    "  ROOT %lt = pred[] compare(%i.1, %n), direction=LT\n" /* 1 */
    "}\n"
    "%small (s: f32[8]) -> f32[8] {\n"
    "  %s = f32[8]{0} parameter(0)\n"
    "  ROOT %ng = f32[8]{0} negate(%s)\n"               /* 8 */
    "}\n"
    "%big (b: f32[8]) -> f32[8] {\n"
    "  %b = f32[8]{0} parameter(0)\n"
    "  %b1 = f32[8]{0} sine(%b)\n"
    "  %b2 = f32[8]{0} cosine(%b1)\n"
    "  ROOT %b3 = f32[8]{0} multiply(%b1, %b2)\n"      /* 24 */
    "}\n"
    "%add (x.a: f32[], y.a: f32[]) -> f32[] {\n"
    "  %x.a = f32[] parameter(0)\n"
    "  %y.a = f32[] parameter(1)\n"
    "  ROOT %s.a = f32[] add(%x.a, %y.a)\n"
    "}\n"
    "ENTRY %main (lhs: f32[4,6], rhs: f32[6,5]) -> f32[4,5] {\n"
    "  %lhs = f32[4,6]{1,0} parameter(0)\n"
    "  %rhs = f32[6,5]{1,0} parameter(1)\n"
    "  %dot = f32[4,5]{1,0} dot(%lhs, %rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
    "  %bdot = f32[2,3,3]{2,1,0} dot(f32[2,3,4]{2,1,0} %b3d, f32[2,4,3]{2,1,0} %b3e), lhs_batch_dims={0}, "
    "lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}\n"
    "  %img = f32[1,5,5,2]{3,2,1,0} parameter(2)\n"
    "  %kern = f32[3,3,2,4]{3,2,1,0} parameter(3)\n"
    "  %conv = f32[1,3,3,4]{3,2,1,0} convolution(%img, %kern), window={size=3x3}, dim_labels=b01f_01io->b01f\n"
    "  %kern2 = f32[4,2,3,3]{3,2,1,0} parameter(4)\n"
    "  %conv2 = f32[1,4,3,3]{3,2,1,0} convolution(%img, %kern2), window={size=3x3}, dim_labels=bf01_oi01->bf01\n"
    "  %zero = f32[] constant(0)\n"
    "  %red = f32[4]{0} reduce(%lhs, %zero), dimensions={1}, to_apply=%add\n"
    "  %rw = f32[2,2]{1,0} reduce-window(%lhs, %zero), window={size=2x3 stride=2x3}, to_apply=%add\n"
    "  %v = f32[8]{0} parameter(5)\n"
    "  %fus = f32[8]{0} fusion(%v, %v), kind=kLoop, calls=%fused\n"
    "  %k0 = s32[] constant(0)\n"
    "  %init = (s32[], f32[8]{0}) tuple(%k0, %v)\n"
    "  %loop = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body, "
    "backend_config={\"known_trip_count\":{\"n\":\"5\"}}\n"
    "  %loop1 = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body\n"
    "  %loop3 = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body, "
    "backend_config=\"{\\\"known_trip_count\\\":{\\\"n\\\":\\\"3\\\"}}\"\n"
    "  %p = pred[] parameter(6)\n"
    "  %cnd = f32[8]{0} conditional(%p, %v, %v), true_computation=%small, false_computation=%big\n"
    "  %idx = s32[] parameter(7)\n"
    "  %cnd3 = f32[8]{0} conditional(%idx, %v, %v, %v), branch_computations={%big, %small, %fused}\n"
    "  %cl = f32[8]{0} call(%v), to_apply=%big\n"
    "  %ex = f32[3,4]{1,0} exponential(f32[3,4]{1,0} %y34)\n"
    "  %srt = (f32[4]{0}, s32[4]{0}) sort(%a4, %b4), dimensions={0}, to_apply=%add\n"
    "  %empty = f32[0]{0} slice(%v), slice={[0:0]}\n"
    "  ROOT %out = f32[4,5]{1,0} add(%dot, %dot)\n"
    "}\n";

static void cost_rules(void **state)
{
    (void)state;
    /* operands b3d, b3e, y34, a4, b4 are defined as parameters first */
    const char *extra = "  %b3d = f32[2,3,4]{2,1,0} parameter(8)\n"
                        "  %b3e = f32[2,4,3]{2,1,0} parameter(9)\n"
                        "  %y34 = f32[3,4]{1,0} parameter(10)\n"
                        "  %a4 = f32[4]{0} parameter(11)\n"
                        "  %b4 = s32[4]{0} parameter(12)\n";
    const char *at = strstr(COSTS, "  %dot =");
    size_t head = (size_t)(at - COSTS);
    char *text = malloc(strlen(COSTS) + strlen(extra) + 1);
    memcpy(text, COSTS, head);
    strcpy(text + head, extra);
    strcat(text, at);
    hl_t h;
    hl_load(&h, text);
    free(text);
    /* dot: 2 x result elements x the lhs contracting dims */
    assert_int_equal(cost_of(&h, "dot"), 2 * 20 * 6);
    assert_int_equal(cost_of(&h, "bdot"), 2 * 18 * 4);
    /* convolution: 2 x result elements x kernel elements / output features */
    assert_int_equal(cost_of(&h, "conv"), 2 * 36 * (72 / 4));
    assert_int_equal(cost_of(&h, "conv2"), 2 * 36 * (72 / 4));
    /* reduce: the first input's elements; reduce-window: times the window */
    assert_int_equal(cost_of(&h, "red"), 24);
    assert_int_equal(cost_of(&h, "rw"), 24 * 6);
    /* fusion: its computation's instructions (parameters and constants 0,
     * the empty slice 0: no clamp inside) */
    assert_int_equal(cost_of(&h, "fus"), 8 + 8 + 0 + 8);
    /* while: (body 9 + condition 1) x known_trip_count, 1 when absent; the
     * quoted backend_config of older dumps too */
    assert_int_equal(cost_of(&h, "loop"), (9 + 1) * 5);
    assert_int_equal(cost_of(&h, "loop1"), 9 + 1);
    assert_int_equal(cost_of(&h, "loop3"), (9 + 1) * 3);
    /* conditional: the dearest branch */
    assert_int_equal(cost_of(&h, "cnd"), 24);
    assert_int_equal(cost_of(&h, "cnd3"), 24);
    /* call: its computation */
    assert_int_equal(cost_of(&h, "cl"), 24);
    /* the rest: result elements, a tuple's summed over its leaves */
    assert_int_equal(cost_of(&h, "ex"), 12);
    assert_int_equal(cost_of(&h, "srt"), 8);
    /* then §1's clamp to at least 1 */
    assert_int_equal(cost_of(&h, "empty"), 1);
    assert_int_equal(cost_of(&h, "out"), 20);
    /* a tuple-shaped node is one buffer of all its leaves */
    assert_int_equal(bytes_of(&h, "loop"), 4 + 32);
    assert_int_equal(bytes_of(&h, "srt"), 16 + 16);
    const routine_node_t *srt = &h.r->nodes[hl_node(&h, "srt")];
    assert_int_equal(srt->dtype, DT_U8);
    hl_free(&h);
}

/* ---- aliases ------------------------------------------------------------------ */

static const char *ALIASES =
    "HloModule aliases\n"
    "ENTRY %main {\n"
    "  %a = f32[4]{0} parameter(0)\n"
    "  %b = f32[4]{0} parameter(1)\n"
    "  %c = f32[4]{0} parameter(2)\n"
    "  %t1 = (f32[4]{0}, f32[4]{0}) tuple(%a, %b)\n"
    "  %t2 = ((f32[4]{0}, f32[4]{0}), f32[4]{0}) tuple(%t1, %c)\n"
    "  %g = (f32[4]{0}, f32[4]{0}) get-tuple-element(%t2), index=0\n"
    "  %g2 = f32[4]{0} get-tuple-element(%g), index=1\n"
    "  %x = f32[4]{0} add(%g2, %c)\n"
    "  %all = f32[4]{0} custom-call(%t2, %g), custom_call_target=\"f\"\n"
    "  %srt = (f32[4]{0}, f32[4]{0}) sort(%a, %b), dimensions={0}, to_apply=%cmp\n"
    "  %s1 = f32[4]{0} get-tuple-element(%srt), index=1\n"
    "  %y = f32[4]{0} multiply(%s1, %s1)\n"
    "  %tok = token[] after-all()\n"
    "  %dep = f32[4]{0} add-dependency(%y, %tok)\n"
    "  %z = f32[4]{0} negate(%dep)\n"
    "  %w = f32[4]{0} custom-call(%z, %tok), custom_call_target=\"g\"\n"
    "  %bc = f32[2,2]{1,0} bitcast(%w)\n"
    "  %pair = (f32[2,2]{1,0}, f32[4]{0}) tuple(%bc, %x)\n"
    "  %ob = (f32[2,2]{1,0}, f32[4]{0}) opt-barrier(%pair)\n"
    "  %o1 = f32[4]{0} get-tuple-element(%ob), index=1\n"
    "  %dom = f32[4]{0} domain(%o1), domain={kind=\"sharding\"}\n"
    "  %u = f32[4]{0} abs(%dom)\n"
    "  %bc2 = f32[4]{0} bitcast(%bc)\n"
    "  %v = f32[4]{0} sqrt(%bc2)\n"
    "  ROOT %root = (f32[4]{0}, (f32[4]{0}, f32[4]{0})) tuple(%u, %t1)\n"
    "}\n";

static void alias_resolution(void **state)
{
    (void)state;
    char *text = malloc(strlen(ALIASES) + 200);
    /* sort's comparator, defined before the entry */
    strcpy(text, "HloModule aliases\n%cmp {\n  %l = f32[] parameter(0)\n  %r = f32[] parameter(1)\n"
                 "  ROOT %lt = pred[] compare(%l, %r), direction=LT\n}\n");
    strcat(text, ALIASES + strlen("HloModule aliases\n"));
    hl_t h;
    hl_load(&h, text);
    free(text);
    /* aliases define no node: 3 inputs and 8 definitions */
    assert_int_equal(h.r->n_nodes, 3 + 8);
    assert_int_equal(routine_find_node(h.r, "t1"), -1);
    assert_int_equal(routine_find_node(h.r, "g2"), -1);
    /* tuple of tuples: gte of a gte reaches the inner tuple's operand */
    expect_args(&h, "x", "b,c");
    /* a reader of a tuple reads every leaf's resolution, repeats kept */
    expect_args(&h, "all", "a,b,c,a,b");
    /* get-tuple-element of a tuple-shaped node: that whole node */
    expect_args(&h, "y", "srt,srt");
    /* add-dependency: its first operand; after-all: nothing, dropped */
    expect_args(&h, "z", "y");
    expect_args(&h, "w", "z");
    /* opt-barrier of a tuple, then get-tuple-element; domain; bitcasts */
    expect_args(&h, "u", "x");
    expect_args(&h, "v", "w");
    /* what ROOT resolves to is @output: u, and t1's a and b */
    assert_true(flags_of(&h, "u") & FLAG_OUTPUT);
    assert_true(flags_of(&h, "a") & FLAG_OUTPUT);
    assert_true(flags_of(&h, "b") & FLAG_OUTPUT);
    assert_false(flags_of(&h, "c") & FLAG_OUTPUT);
    assert_false(flags_of(&h, "x") & FLAG_OUTPUT);
    /* residents: parameters are inputs; custom-call is pinned, sort is not */
    assert_int_equal(h.l->kind[hl_node(&h, "a")], NODE_INPUT);
    assert_true(flags_of(&h, "all") & FLAG_PINNED);
    assert_false(flags_of(&h, "srt") & FLAG_PINNED);
    hl_free(&h);
}

/* Without ROOT, the last instruction is the root (as XLA takes it). */
static void root_defaults_to_last(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  c = f32[] constant(1)\n"
                "  b = f32[2] add(a, a)\n  d = f32[2] negate(b)\n}\n");
    assert_true(flags_of(&h, "d") & FLAG_OUTPUT);
    assert_false(flags_of(&h, "b") & FLAG_OUTPUT);
    assert_int_equal(h.l->kind[hl_node(&h, "c")], NODE_PARAM);
    assert_int_equal(h.l->n_steps, 2);
    hl_free(&h);
}

/* ---- pinned opcodes ----------------------------------------------------------- */

static void pinned_classes(void **state)
{
    (void)state;
    static const char *PINNED[] = {
        "rng", "rng-bit-generator", "rng-get-and-update-state", "infeed", "outfeed", "send", "send-done", "recv",
        "recv-done", "all-reduce", "all-reduce-start", "all-reduce-done", "all-gather", "all-gather-start",
        "all-gather-done", "reduce-scatter", "all-to-all", "collective-permute", "collective-permute-start",
        "collective-permute-done", "collective-broadcast", "custom-call", "async-start", "async-update",
        "async-done", "copy-start", "copy-done",
    };
    static const char *FREE[] = { "add", "copy", "reduce-precision", "all", "sendx", "rng2", "custom" };
    size_t np = sizeof PINNED / sizeof PINNED[0], nf = sizeof FREE / sizeof FREE[0];
    char text[8192];
    size_t w = (size_t)snprintf(text, sizeof text, "HloModule pins\nENTRY %%e {\n  %%a = f32[4]{0} parameter(0)\n");
    for (size_t k = 0; k < np; k++)
        w += (size_t)snprintf(text + w, sizeof text - w, "  %%p%zu = f32[4]{0} %s(%%a)\n", k, PINNED[k]);
    for (size_t k = 0; k < nf; k++)
        w += (size_t)snprintf(text + w, sizeof text - w, "  %%f%zu = f32[4]{0} %s(%%a)\n", k, FREE[k]);
    snprintf(text + w, sizeof text - w, "}\n");
    hl_t h;
    hl_load(&h, text);
    char name[16];
    for (size_t k = 0; k < np; k++) {
        snprintf(name, sizeof name, "p%zu", k);
        if (!(h.l->flags[hl_node(&h, name)] & FLAG_PINNED))
            fail_msg("%s should be pinned", PINNED[k]);
    }
    for (size_t k = 0; k < nf; k++) {
        snprintf(name, sizeof name, "f%zu", k);
        if (h.l->flags[hl_node(&h, name)] & FLAG_PINNED)
            fail_msg("%s should not be pinned", FREE[k]);
    }
    /* an opcode §10 does not name is read by the last rule */
    assert_int_equal(cost_of(&h, "f6"), 4);
    hl_free(&h);
    /* while, conditional and call (they need computations) */
    hl_load(&h, "HloModule w\n%c { %q = f32[4] parameter(0)\n ROOT %r = pred[] constant(false) }\n"
                "%b { %s = f32[4] parameter(0)\n ROOT %t = f32[4] negate(%s) }\n"
                "ENTRY %e { %a = f32[4] parameter(0)\n %p = pred[] parameter(1)\n"
                " %w = f32[4] while(%a), condition=%c, body=%b\n"
                " %k = f32[4] conditional(%p, %a, %a), true_computation=%b, false_computation=%b\n"
                " %l = f32[4] call(%a), to_apply=%b\n ROOT %z = f32[4] add(%w, %k) }\n");
    assert_true(flags_of(&h, "w") & FLAG_PINNED);
    assert_true(flags_of(&h, "k") & FLAG_PINNED);
    assert_true(flags_of(&h, "l") & FLAG_PINNED);
    assert_false(flags_of(&h, "z") & FLAG_PINNED);
    hl_free(&h);
}

/* ---- names, types, origin ------------------------------------------------------ */

static void names_sanitised_and_clashes(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule my-module.7, is_scheduled=true\n"
                "ENTRY %main.1 {\n"
                "  %a-b = f32[2] parameter(0)\n"
                "  %a_b = f32[2] negate(%a-b)\n"
                "  %a_b_2 = f32[2] abs(%a_b)\n"
                "  %get-tuple-element.3 = f32[2] exponential(%a_b_2)\n"
                "  ROOT %x = f32[2] add(%get-tuple-element.3, %a-b)\n"
                "}\n");
    assert_string_equal(h.r->name, "my_module.7");
    assert_int_equal(h.r->format, ROUTINE_HLO);
    /* '-' becomes '_'; a clash takes _2, then _2_2 for the real a_b_2 */
    assert_string_equal(h.r->nodes[0].name, "a_b");
    assert_string_equal(h.r->nodes[1].name, "a_b_2");
    assert_string_equal(h.r->nodes[2].name, "a_b_2_2");
    assert_string_equal(h.r->nodes[3].name, "get_tuple_element.3");
    /* each keeps its HLO name */
    assert_string_equal(h.r->nodes[0].origin->hlo, "a-b");
    assert_string_equal(h.r->nodes[1].origin->hlo, "a_b");
    assert_string_equal(h.r->nodes[2].origin->hlo, "a_b_2");
    expect_args(&h, "x", "get_tuple_element.3,a_b");
    /* the opcode's '-' becomes '_' in the routine text */
    assert_string_equal(routine_op(h.r, 0), "negate");
    hl_free(&h);
}

static void element_sizes_and_origin(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule sizes\n"
                "ENTRY %e {\n"
                "  %q = s4[1001]{0:E(4)} parameter(0), metadata={op_type=\"x\" op_name=\"jit(f)/q\\\"uoted\\\\\" "
                "source_file=\"/src/m.py\" source_line=42}\n"
                "  %u = u4[3] parameter(1)\n"
                "  %f = f8e4m3fn[3,3] parameter(2)\n"
                "  %pr = pred[7] parameter(3)\n"
                "  %c = c128[2] parameter(4)\n"
                "  %d = bf16[<=16,2]{1,0} parameter(5)\n"
                "  %h = f4e2m1fn[5] parameter(6)\n"
                "  %tk = token[] after-all()\n"
                "  %t = (f32[2], token[], (s8[3], c64[1])) custom-call(%q, %tk), custom_call_target=\"t\"\n"
                "  ROOT %n = s4[1001]{0} negate(%q), metadata={op_name=\"neg\" source_file=\"m.py\" source_line=7}\n"
                "}\n");
    assert_int_equal(bytes_of(&h, "q"), 501); /* half a byte each, rounded up */
    assert_int_equal(bytes_of(&h, "u"), 2);
    assert_int_equal(bytes_of(&h, "f"), 9);
    assert_int_equal(bytes_of(&h, "pr"), 7);
    assert_int_equal(bytes_of(&h, "c"), 32);
    assert_int_equal(bytes_of(&h, "d"), 64);  /* <=16 counts 16 */
    assert_int_equal(bytes_of(&h, "h"), 3);
    assert_int_equal(bytes_of(&h, "t"), 8 + 0 + 3 + 8);
    expect_args(&h, "t", "q");
    const routine_node_t *q = &h.r->nodes[hl_node(&h, "q")];
    assert_string_equal(q->origin->op_name, "jit(f)/q\"uoted\\");
    assert_string_equal(q->origin->source, "/src/m.py:42");
    assert_string_equal(q->origin->hlo, "q");
    assert_int_equal(q->line, 3);
    assert_int_equal(q->col, 3);
    char buf[256];
    assert_string_equal(routine_node_origin(h.r, hl_node(&h, "n"), buf, sizeof buf), "neg m.py:7");
    assert_null(h.r->nodes[hl_node(&h, "u")].origin->op_name);
    hl_free(&h);
}

/* The §1 text convert writes reads back to the same lowering. */
static void convert_round_trips(void **state)
{
    (void)state;
    rs_error_t err;
    char *text;
    size_t n;
    const char *src = "HloModule rt\n%f { %p = f32[8] parameter(0)\n ROOT %q = f32[8] sine(%p) }\n"
                      "ENTRY %e { %a = f32[8] parameter(0), metadata={op_name=\"a \\\"b\\\"\\n\" source_file=\"x.py\" "
                      "source_line=3}\n"
                      " %b = f32[8] fusion(%a), kind=kLoop, calls=%f\n %c = s4[3] convert(%b)\n"
                      " %t = (f32[8], s4[3]) tuple(%b, %c)\n ROOT %o = (f32[8], s4[3]) opt-barrier(%t) }\n";
    hl_t h;
    hl_load(&h, src);
    assert_int_equal(hlo_convert("rt.hlo", src, strlen(src), &text, &n, &err), RS_OK);
    assert_non_null(strstr(text, "b = fusion(a) [8] f32 cost=8 @output hlo=\"b\""));
    assert_non_null(strstr(text, "op_name=\"a \\\"b\\\"\\n\" source=\"x.py:3\""));
    routine_t *r2;
    assert_int_equal(routine_parse("rt.routine", text, n, &r2, &err), RS_OK);
    free(text);
    bindings_t b2;
    lowering_t *l2;
    assert_int_equal(routine_bindings(r2, NULL, 0, &b2, &err), RS_OK);
    assert_int_equal(lower_routine(r2, &b2, &l2, &err), RS_OK);
    assert_int_equal(l2->n_nodes, h.l->n_nodes);
    assert_int_equal(l2->n_args, h.l->n_args);
    for (int32_t i = 0; i < l2->n_nodes; i++) {
        assert_int_equal(l2->bytes[i], h.l->bytes[i]);
        assert_int_equal(l2->cost[i], h.l->cost[i]);
        assert_int_equal(l2->flags[i], h.l->flags[i]);
        assert_string_equal(r2->nodes[i].name, h.r->nodes[i].name);
    }
    for (int32_t a = 0; a < l2->n_args; a++)
        assert_int_equal(l2->args[a], h.l->args[a]);
    assert_string_equal(r2->nodes[0].origin->op_name, "a \"b\"\n");
    assert_int_equal(r2->format, ROUTINE_TEXT);
    lower_free(l2);
    bindings_free(&b2);
    routine_free(r2);
    hl_free(&h);
}

static void sniffing(void **state)
{
    (void)state;
    assert_true(hlo_sniff("HloModule m\n", 12));
    assert_true(hlo_sniff("// a dump\n/* x */\n  HloModule m, a=b\n", 36));
    assert_false(hlo_sniff("routine m\n", 10));
    assert_false(hlo_sniff("HloModulex m\n", 13));
    assert_false(hlo_sniff("/* unterminated", 15));
    assert_false(hlo_sniff("", 0));
    /* either format through one entry point */
    rs_error_t err;
    routine_t *r;
    assert_int_equal(hlo_read_any("x", "routine q\ninput a [2]\n", 22, &r, &err), RS_OK);
    assert_int_equal(r->format, ROUTINE_TEXT);
    routine_free(r);
}

/* ---- every error, located -------------------------------------------------------- */

static void errors_located(void **state)
{
    (void)state;
    BAD("routine x\n", 1, 1, "expected `HloModule NAME` as the first statement");
    BAD("", 1, 1, "expected `HloModule NAME`");
    BAD("HloModule m\n", 1, 1, "module 'm' has no ENTRY computation");
    BAD("HloModule m\n%c { %a = f32[] parameter(0) }\n", 1, 1, "no ENTRY");
    /* truncated */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n", 4, 1, "unexpected end of file: computation 'e'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b = f32[2] add(%a,", 4, 22, "expected an operand");
    /* an operand never defined, or defined later */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b = f32[2] add(%a, %zz)\n}\n", 4, 23,
        "operand 'zz' is not defined");
    BAD("HloModule m\nENTRY %e {\n  %b = f32[2] negate(%a)\n  %a = f32[2] parameter(0)\n}\n", 3, 22,
        "operand 'a' is not defined");
    /* a duplicate name */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %a = f32[2] negate(%a)\n}\n", 4, 3,
        "'a' is already defined at line 3");
    BAD("HloModule m\n%c { %a = f32[] parameter(0) }\n%c { %b = f32[] parameter(0) }\nENTRY %e { %z = f32[] "
        "parameter(0) }\n", 3, 1, "computation 'c' is already defined");
    BAD("HloModule m\nENTRY %e { %z = f32[] parameter(0) }\nENTRY %f { %y = f32[] parameter(0) }\n", 3, 7,
        "a second ENTRY computation (the first is at line 2)");
    /* broken shapes */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2,x] parameter(0)\n}\n", 3, 14, "expected a dimension");
    BAD("HloModule m\nENTRY %e {\n  %a = f33[2] parameter(0)\n}\n", 3, 8, "unknown element type 'f33'");
    BAD("HloModule m\nENTRY %e {\n  %a = i32[2] parameter(0)\n}\n", 3, 8, "unknown element type 'i32'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[?] parameter(0)\n}\n", 3, 12, "unbounded dynamic dimension");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[4294967296,4294967296] parameter(0)\n}\n", 3, 23,
        "element count overflows");
    BAD("HloModule m\nENTRY %e {\n  %a = (f32[2], s32[] parameter(0)\n}\n", 3, 23, "',' or ')' in a tuple shape");
    BAD("HloModule m\nENTRY %e {\n  %a = token[2] parameter(0)\n}\n", 3, 8, "a token has no dimensions");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0), sharding={devices=[2]0,1)\n}\n", 3, 53,
        "')' closes a '{'");
    /* a contracting dimension that is negative or past 63 bits (it read as 1, or was cut) */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[4,3] parameter(0)\n  %b = f32[3,5] parameter(1)\n"
        "  %d = f32[4,5] dot(%a, %b), lhs_contracting_dims={-1}, rhs_contracting_dims={0}\n}\n", 5, 52,
        "lhs_contracting_dims: expected a dimension number");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[4,3] parameter(0)\n  %b = f32[3,5] parameter(1)\n"
        "  %d = f32[4,5] dot(%a, %b), lhs_contracting_dims={99999999999999999999}, rhs_contracting_dims={0}\n}\n",
        5, 52, "lhs_contracting_dims out of range");
    /* binary junk and NUL bytes */
    BAD("HloModule m\nENTRY %e {\n  \x01\x02\x03\n}\n", 3, 3, "found byte 0x01");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\x00\n}\n", 3, 27, "NUL byte");
    BAD("\x7f" "ELF\x02\x01", 1, 1, "expected `HloModule NAME`");
    /* unterminated comment and string */
    BAD("HloModule m\n/* never closed\nENTRY %e {}\n", 2, 1, "unterminated comment");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] custom-call(), custom_call_target=\"x\n}\n", 3, 49,
        "unterminated string");
    /* calls */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %f = f32[2] fusion(%a), kind=kLoop, calls=%nope\n}\n",
        4, 39, "no computation named 'nope'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %f = f32[2] fusion(%a), kind=kLoop\n}\n", 4, 3,
        "fusion names no computation to call");
    BAD("HloModule m\n%c {\n  %p = f32[2] parameter(0)\n  ROOT %q = f32[2] call(%p), to_apply=%c\n}\nENTRY %e { %z = "
        "f32[] parameter(0) }\n", 4, 30, "computation 'c' calls itself");
    /* get-tuple-element */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %t = (f32[2]) tuple(%a)\n  %g = f32[2] "
        "get-tuple-element(%t), index=3\n}\n", 5, 3, "index=3 of a tuple of 1");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %g = f32[2] get-tuple-element(%a)\n}\n", 4, 3,
        "get-tuple-element needs index=");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b = f32[2] add(%a %a)\n}\n", 4, 22,
        "expected ',' or ')' in the operands, found '%a'");
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %b f32[2] add(%a)\n}\n", 4, 6,
        "expected '=' after the instruction's name");
    BAD("HloModule m\nENTRY %e {\n}\n", 2, 7, "computation 'e' has no instructions");
    /* a window size that overflows is an error, not a scan that stalls on its digits (a fuzz finding) */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0)\n  %z = f32[] constant(0)\n  %r = f32[1] "
        "reduce-window(%a, %z), window={size=99999999999999999999x2}\n}\n", 5, 3, "the cost of 'r' overflows 64 bits");
}

/* Deeply nested tuple shapes and tuples that double at each step are
 * refused, not followed: memory stays bounded by the file. */
static void nesting_and_blowup_bounded(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *text = malloc(depth * 2 + 200);
    size_t w = (size_t)sprintf(text, "HloModule m\nENTRY %%e {\n  %%a = ");
    for (size_t k = 0; k < depth; k++)
        text[w++] = '(';
    w += (size_t)sprintf(text + w, "f32[2]");
    for (size_t k = 0; k < depth; k++)
        text[w++] = ')';
    w += (size_t)sprintf(text + w, " parameter(0)\n}\n");
    expect_hlo_error(text, w, 3, 72, "tuple shapes nested deeper than 64 levels");
    free(text);
    /* t_k = tuple(t_{k-1}, t_{k-1}): 2^40 leaves from a few lines */
    text = malloc(8192);
    w = (size_t)sprintf(text, "HloModule m\nENTRY %%e {\n  %%t0 = f32[2] parameter(0)\n");
    for (int k = 1; k <= 40; k++)
        w += (size_t)sprintf(text + w, "  %%t%d = (f32[2], f32[2]) tuple(%%t%d, %%t%d)\n", k, k - 1, k - 1);
    w += (size_t)sprintf(text + w, "  %%x = f32[2] custom-call(%%t40)\n}\n");
    rs_error_t err;
    routine_t *r;
    assert_int_equal(hlo_read("bad.hlo", text, w, &r, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "tuples here expand to more operands than the file has bytes"));
    assert_true(err.line > 3 && err.line < 45);
    free(text);
}

/* ---- donated buffers (DESIGN §10) ------------------------------------------------ */

/* The input node name is written into (@into), or NULL. */
static const char *into_of(const hl_t *h, const char *name)
{
    int32_t x = lower_into(h->l, hl_node(h, name));
    return x < 0 ? NULL : h->r->nodes[x].name;
}

static void expect_into(const hl_t *h, const char *name, const char *want)
{
    const char *got = into_of(h, name);
    if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0))
        fail_msg("%s: @into(%s), want @into(%s)", name, got ? got : "-", want ? want : "-");
}

static void score_of(const hl_t *h, footprint_t *fp)
{
    score_config_t cfg;
    score_config_default(&cfg);
    rs_error_t err;
    if (score_lowering(h->l, NULL, &cfg, fp, NULL, &err))
        fail_msg("score: %s", err.msg);
}

/* The training step of samples/hlo/donated_step.hlo by hand: w and m are
 * donated whole (must-alias, may-alias), x passes through, the fusion's
 * first leaf goes into v ({4,0} descends into a tuple-shaped node), {0}
 * names a parameter the module lacks. */
static const char *STEP =
    "HloModule step, input_output_alias={ {1}: (0, {}, must-alias), {2}: (1, {}, may-alias), {3}: (2, {}), "
    "{4,0}: (3, {}, must-alias), {0}: (7, {}, must-alias) }\n"
    "%add_f32 (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
    "  ROOT %s = f32[] add(%a, %b)\n}\n"
    "%update_v (p0: f32[4096], p1: f32[4096]) -> (f32[4096], f32[4096]) {\n  %p0 = f32[4096] parameter(0)\n"
    "  %p1 = f32[4096] parameter(1)\n  %n = f32[4096] add(%p0, %p1)\n  %q = f32[4096] multiply(%p1, %p1)\n"
    "  ROOT %t = (f32[4096], f32[4096]) tuple(%n, %q)\n}\n"
    "ENTRY %step {\n  %w = f32[4096] parameter(0)\n  %m = f32[4096] parameter(1)\n  %x = f32[2,4096] parameter(2)\n"
    "  %v = f32[4096] parameter(3)\n  %zero = f32[] constant(0)\n  %wb = f32[2,4096] broadcast(%w), dimensions={1}\n"
    "  %h = f32[2,4096] multiply(%x, %wb)\n"
    "  %g = f32[4096] reduce(%h, %zero), dimensions={0}, to_apply=%add_f32\n  %m2 = f32[4096] add(%m, %g)\n"
    "  %w2 = f32[4096] subtract(%w, %m2)\n  %loss = f32[] reduce(%h, %zero), dimensions={0,1}, to_apply=%add_f32\n"
    "  %upd = (f32[4096], f32[4096]) fusion(%v, %g), kind=kLoop, calls=%update_v\n"
    "  ROOT %out = (f32[], f32[4096], f32[4096], f32[2,4096], (f32[4096], f32[4096])) tuple(%loss, %w2, %m2, %x, "
    "%upd)\n}\n";

static void donation_tuple_root(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, STEP);
    /* w2 and m2 hold nothing of their own; upd keeps its second leaf */
    assert_int_equal(bytes_of(&h, "w2"), 0);
    assert_int_equal(bytes_of(&h, "m2"), 0);
    assert_int_equal(bytes_of(&h, "upd"), 16384);
    assert_int_equal(bytes_of(&h, "x"), 32768);
    assert_int_equal(bytes_of(&h, "loss"), 4);
    assert_int_equal(bytes_of(&h, "g"), 16384);
    assert_int_equal(h.l->elems[hl_node(&h, "w2")], 4096); /* the shape stays: 0 bytes, 4096 elements */
    expect_into(&h, "w2", "w");
    expect_into(&h, "m2", "m");
    expect_into(&h, "upd", NULL);
    expect_into(&h, "x", NULL);
    assert_int_equal(flags_of(&h, "w2"), FLAG_OUTPUT | FLAG_INTO);
    assert_int_equal(flags_of(&h, "upd"), FLAG_OUTPUT);
    assert_int_equal(lower_role(h.l, hl_node(&h, "w2")), LOWER_OUTPUT);
    assert_int_equal(lower_role(h.l, hl_node(&h, "x")), LOWER_RESIDENT);
    assert_int_equal(lower_role(h.l, hl_node(&h, "h")), LOWER_CANDIDATE);
    /* three pairs donate: w2 and m2 (16 KiB each) and upd's first leaf */
    assert_int_equal(h.r->donation.pairs, 5);
    assert_int_equal(h.r->donation.donated, 3);
    assert_int_equal(h.r->donation.bytes, 3 * 16384);
    /* the peak moves out of the tail: residents 81,924 B; without donation
     * step 5 holds h g m2 w2 loss (+81,924), with it step 1 holds wb h
     * (+65,536) and the tail only h g loss (+49,156) */
    footprint_t fp;
    score_of(&h, &fp);
    assert_int_equal(fp.live_peak, 81924 + 65536);
    assert_int_equal(fp.peak_step, 1);
    assert_int_equal(fp.total, 147464); /* greedy: loss tops the 147,460 of the rest */
    assert_int_equal(fp.buffers, 12);
    hl_free(&h);
    /* the same module without its alias: twice the parameters' updates */
    const char *body = strchr(STEP, '\n');
    char *plain = malloc(strlen(STEP) + 32);
    sprintf(plain, "HloModule step%s", body);
    hl_load(&h, plain);
    free(plain);
    assert_int_equal(bytes_of(&h, "w2"), 16384);
    assert_int_equal(bytes_of(&h, "upd"), 32768);
    assert_int_equal(h.r->donation.pairs, 0);
    score_of(&h, &fp);
    assert_int_equal(fp.live_peak, 81924 + 81924);
    assert_int_equal(fp.peak_step, 5);
    hl_free(&h);
}

/* `{}` donates a non-tuple ROOT whole, and names a tuple ROOT (skipped);
 * the parameter written into is printed after the node, so its `input`
 * line moves up to just before the node's. */
static void donation_array_root(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule r,input_output_alias={{}:(0,{},must-alias)}\nENTRY %e {\n"
                "  %c = f32[1024] iota(), iota_dimension=0\n  %d = f32[1024] multiply(%c, %c)\n"
                "  %p = f32[1024] parameter(0)\n  %q = f32[1024] parameter(1)\n  ROOT %r = f32[1024] add(%d, %q)\n}\n");
    assert_int_equal(bytes_of(&h, "r"), 0);
    expect_into(&h, "r", "p");
    assert_int_equal(bytes_of(&h, "c"), 4096);
    /* node order: c d p q r as written (p already above r) */
    assert_string_equal(h.r->nodes[2].name, "p");
    assert_int_equal(h.r->nodes[2].line, 5);
    footprint_t fp;
    score_of(&h, &fp);
    assert_int_equal(fp.live_peak, 4 * 4096); /* p q c d at step 1; r holds none */
    hl_free(&h);
    /* parameter(0) after its node: moved up, the others keep their order */
    hl_load(&h, "HloModule r, input_output_alias={ {}: (0, {}) }\nENTRY %e {\n  %q = f32[8] parameter(1)\n"
                "  %c = f32[8] iota(), iota_dimension=0\n  ROOT %r = f32[8] add(%c, %q)\n  %p = f32[8] parameter(0)\n}\n");
    assert_string_equal(h.r->nodes[0].name, "q");
    assert_string_equal(h.r->nodes[1].name, "c");
    assert_string_equal(h.r->nodes[2].name, "p");
    assert_string_equal(h.r->nodes[3].name, "r");
    assert_int_equal(h.r->nodes[2].line, 6); /* its own HLO line still */
    assert_int_equal(h.r->nodes[3].line, 5);
    expect_into(&h, "r", "p");
    assert_int_equal(bytes_of(&h, "r"), 0);
    hl_free(&h);
    /* {} of a tuple ROOT names a tuple, no leaf: nothing donated */
    hl_load(&h, "HloModule r, input_output_alias={ {}: (0, {}, must-alias) }\nENTRY %e {\n  %p = f32[8] parameter(0)\n"
                "  %a = f32[8] negate(%p)\n  ROOT %t = (f32[8]) tuple(%a)\n}\n");
    assert_int_equal(bytes_of(&h, "a"), 32);
    expect_into(&h, "a", NULL);
    assert_int_equal(h.r->donation.donated, 0);
    hl_free(&h);
}

/* Passthroughs, a node named twice, tuples, nested indices, a
 * multi-output fusion's leaves, indices past the end. */
static void donation_edges(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule d, input_output_alias={\n  {0}: (0, {}, must-alias),\n  {1}: (1, {}, must-alias),\n"
                "  {2}: (2, {}, must-alias),\n  {3}: (0, {}, may-alias),\n  {4, 1}: (3, {}, must-alias),\n"
                "  {5}: (3, {})\n}\nENTRY %dup {\n  %p0 = f32[64] parameter(0)\n  %p1 = f32[64] parameter(1)\n"
                "  %p2 = f32[64] parameter(2)\n  %p3 = f32[64] parameter(3)\n  %k = f32[64] constant({...})\n"
                "  %a = f32[64] add(%p0, %p1)\n  %b = f32[64] multiply(%p2, %p3)\n  %c = f32[64] subtract(%a, %b)\n"
                "  %t = (f32[64], f32[64]) tuple(%a, %b)\n  %ob = (f32[64], f32[64]) opt-barrier(%t)\n"
                "  %ab = (f32[64], f32[64]) tuple(%c, %c)\n"
                "  ROOT %out = (f32[64], f32[64], (f32[64], f32[64]), f32[64], (f32[64], f32[64])) tuple(%a, %a, %ab, "
                "%k, %ob)\n}\n");
    /* a: {0} writes it into p0, {1} finds nothing left (and keeps p0) */
    assert_int_equal(bytes_of(&h, "a"), 0);
    expect_into(&h, "a", "p0");
    /* {2} names the tuple ab: c keeps its bytes; {3} the constant k */
    assert_int_equal(bytes_of(&h, "c"), 256);
    assert_int_equal(bytes_of(&h, "k"), 256);
    expect_into(&h, "c", NULL);
    /* {4, 1} through opt-barrier(tuple(a, b)) to b */
    assert_int_equal(bytes_of(&h, "b"), 0);
    expect_into(&h, "b", "p3");
    assert_int_equal(h.r->donation.pairs, 6);
    assert_int_equal(h.r->donation.donated, 2);
    assert_int_equal(h.r->donation.bytes, 512);
    footprint_t fp;
    score_of(&h, &fp);
    assert_int_equal(fp.total, 6 * 256); /* p0-p3, k, c */
    hl_free(&h);
    /* a multi-output fusion: its leaves through get-tuple-element ({0},
     * {1}) and by index into the node itself ({2,1}); a leaf named twice
     * loses its bytes twice, never below zero; {3,0,1} descends into a
     * tuple-shaped parameter: a passthrough */
    hl_load(&h, "HloModule f, input_output_alias={ {0}: (0, {}), {2,1}: (1, {}), {1}: (2, {}), {4}: (3, {}), "
                "{3,0,1}: (0, {}) }\n"
                "%fc (x: f32[16]) -> (f32[16], f32[8], f32[4]) {\n  %x = f32[16] parameter(0)\n"
                "  %s = f32[8] slice(%x), slice={[0:8]}\n  %u = f32[4] slice(%x), slice={[0:4]}\n"
                "  ROOT %t = (f32[16], f32[8], f32[4]) tuple(%x, %s, %u)\n}\n"
                "ENTRY %e {\n  %p0 = f32[16] parameter(0)\n  %p1 = f32[8] parameter(1)\n  %p2 = f32[8] parameter(2)\n"
                "  %p3 = (f32[2], f32[3]) parameter(3)\n"
                "  %f = (f32[16], f32[8], f32[4]) fusion(%p0), kind=kLoop, calls=%fc\n"
                "  %g0 = f32[16] get-tuple-element(%f), index=0\n  %g1 = f32[8] get-tuple-element(%f), index=1\n"
                "  %pt = ((f32[2], f32[3])) tuple(%p3)\n"
                "  ROOT %o = (f32[16], f32[8], (f32[16], f32[8], f32[4]), ((f32[2], f32[3])), f32[8]) "
                "tuple(%g0, %g1, %f, %pt, %g1)\n}\n");
    /* f holds 64 + 32 + 16 = 112 bytes: {0} takes 64, {2,1} 32, {1} the
     * same leaf's 32 again but only 16 are left, {4} nothing */
    assert_int_equal(bytes_of(&h, "f"), 0);
    expect_into(&h, "f", NULL); /* tuple-shaped: [0] u8, no @into */
    assert_int_equal(flags_of(&h, "f"), FLAG_OUTPUT);
    assert_int_equal(h.r->donation.pairs, 5);
    assert_int_equal(h.r->donation.donated, 3);
    assert_int_equal(h.r->donation.bytes, 112);
    assert_int_equal(bytes_of(&h, "p3"), 20);
    hl_free(&h);
    /* one leaf of three donated: the fusion keeps the other two */
    hl_load(&h, "HloModule f, input_output_alias={ {1}: (0, {}, must-alias) }\n"
                "%fc (x: f32[16]) -> (f32[16], f32[8]) {\n  %x = f32[16] parameter(0)\n"
                "  %s = f32[8] slice(%x), slice={[0:8]}\n  ROOT %t = (f32[16], f32[8]) tuple(%x, %s)\n}\n"
                "ENTRY %e {\n  %p0 = f32[8] parameter(0)\n  %p1 = f32[16] parameter(1)\n"
                "  %f = (f32[16], f32[8]) fusion(%p1), kind=kLoop, calls=%fc\n"
                "  %g0 = f32[16] get-tuple-element(%f), index=0\n  %g1 = f32[8] get-tuple-element(%f), index=1\n"
                "  %n = f32[16] negate(%g0)\n  ROOT %o = (f32[16], f32[8]) tuple(%n, %g1)\n}\n");
    assert_int_equal(bytes_of(&h, "f"), 64);
    assert_int_equal(bytes_of(&h, "n"), 64);
    assert_int_equal(h.r->donation.donated, 1);
    assert_int_equal(h.r->donation.bytes, 32);
    hl_free(&h);
}

/* input_output_alias read in any spacing; a malformed one is a located
 * error. */
static void donation_syntax(void **state)
{
    (void)state;
    static const char *ENTRY = "\nENTRY %e {\n  %p = f32[8] parameter(0)\n  ROOT %r = f32[8] negate(%p)\n}\n";
    static const char *GOOD[] = {
        "HloModule m, input_output_alias={ {}: (0, {}, must-alias) }",
        "HloModule m,input_output_alias={{}:(0,{},may-alias)}",
        "HloModule m, input_output_alias={\n  {}: (0, {})\n}, is_scheduled=true",
        "HloModule m, is_scheduled=true, input_output_alias={ {  } : ( 0 , { } , must-alias ) }",
        "HloModule m, input_output_alias={ /* one */ {}: (0, {}) }",
    };
    for (size_t k = 0; k < sizeof GOOD / sizeof GOOD[0]; k++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", GOOD[k], ENTRY);
        hl_t h;
        hl_load(&h, text);
        expect_into(&h, "r", "p");
        assert_int_equal(bytes_of(&h, "r"), 0);
        hl_free(&h);
    }
    /* nothing aliased */
    hl_t h;
    hl_load(&h, "HloModule m, input_output_alias={}\nENTRY %e {\n  %p = f32[8] parameter(0)\n"
                "  ROOT %r = f32[8] negate(%p)\n}\n");
    assert_int_equal(bytes_of(&h, "r"), 32);
    assert_int_equal(h.r->donation.pairs, 0);
    hl_free(&h);
    BAD("HloModule m, input_output_alias={ {0} (0, {}) }\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 39,
        "expected ':' after the output's shape index");
    BAD("HloModule m, input_output_alias={ {0}: (0, {}, must_alias) }\nENTRY %e { %p = f32[] parameter(0) }\n", 1,
        48, "expected must-alias or may-alias, found 'must_alias'");
    BAD("HloModule m, input_output_alias={ {x}: (0, {}) }\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 36,
        "expected an index (a number) in the shape index");
    BAD("HloModule m, input_output_alias={ {0}: (0) }\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 42,
        "expected ',' after the parameter's number");
    BAD("HloModule m, input_output_alias={ {0}: (p, {}) }\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 41,
        "expected the parameter's number");
    BAD("HloModule m, input_output_alias={ {0}: (0, {}) \nENTRY %e { %p = f32[] parameter(0) }\n", 2, 1,
        "expected ',' or '}' after an alias pair");
    BAD("HloModule m, input_output_alias={ {0}: (0, {}), }\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 49,
        "expected an output's shape index");
    BAD("HloModule m, input_output_alias=0\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 33,
        "expected '{' opening input_output_alias");
    BAD("HloModule m, input_output_alias={}, input_output_alias={}\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 56,
        "input_output_alias given twice");
    BAD("HloModule m, input_output_alias={ {0}: (0, {}, must-alias }\nENTRY %e { %p = f32[] parameter(0) }\n", 1, 59,
        "expected ')' closing the pair");
}

/* convert writes @into(P) and the smaller [BYTES] u8, and reading that text
 * back gives the same nodes, bytes, flags and @into. */
static void donation_round_trips(void **state)
{
    (void)state;
    rs_error_t err;
    char *text;
    size_t n;
    assert_int_equal(hlo_convert("step.hlo", STEP, strlen(STEP), &text, &n, &err), RS_OK);
    assert_non_null(strstr(text, "# donated (input_output_alias): 3 of 5 outputs, 49152 bytes written into their "
                                 "parameters\n"));
    assert_non_null(strstr(text, "\nw2 = subtract(w, m2) [4096] f32 cost=4096 @output @into(w) hlo=\"w2\"\n"));
    assert_non_null(strstr(text, "\nupd = fusion(v, g) [16384] u8 cost=8192 @output hlo=\"upd\"\n"));
    routine_t *r2;
    assert_int_equal(routine_parse("step.routine", text, n, &r2, &err), RS_OK);
    free(text);
    bindings_t b2;
    lowering_t *l2;
    assert_int_equal(routine_bindings(r2, NULL, 0, &b2, &err), RS_OK);
    assert_int_equal(lower_routine(r2, &b2, &l2, &err), RS_OK);
    hl_t h;
    hl_load(&h, STEP);
    assert_int_equal(l2->n_nodes, h.l->n_nodes);
    for (int32_t i = 0; i < l2->n_nodes; i++) {
        assert_string_equal(r2->nodes[i].name, h.r->nodes[i].name);
        assert_int_equal(l2->bytes[i], h.l->bytes[i]);
        assert_int_equal(l2->flags[i], h.l->flags[i]);
        assert_int_equal(lower_into(l2, i), lower_into(h.l, i));
    }
    assert_int_equal(r2->n_into, 2);
    assert_int_equal(r2->format, ROUTINE_TEXT);
    assert_int_equal(r2->donation.pairs, 0); /* a §1 routine: its @into nodes say it */
    lower_free(l2);
    bindings_free(&b2);
    routine_free(r2);
    hl_free(&h);
}

/* Issue 24 items 4, 7, 9: a lone CR ends a line for error locations; a
 * trip count or tuple index that is negative or past 63 bits is a located
 * error (they read as 1, 5 and 1); buffers whose bytes together pass 2^63
 * are refused where the sum overflows. */
static void reliability_numbers_and_lines(void **state)
{
    (void)state;
    BAD("HloModule m\rENTRY e {\r  a = f32[4] parameter(0)\r  ROOT b = f32[4] negate(zz)\r}\r", 4, 26,
        "operand 'zz' is not defined");
    BAD("HloModule m\r\nENTRY e {\r\n  a = f32[4] parameter(0)\r\n  ROOT b = f32[4] negate(zz)\r\n}\r\n", 4, 26,
        "operand 'zz' is not defined");
    BAD("HloModule m // a comment\rENTRY e {\r  ROOT b = f32[4] negate(zz)\r}\r", 3, 26, "operand 'zz'");
#define LOOP(N)                                                                                                  \
    "HloModule m\n"                                                                                              \
    "c {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"                        \
    "  ROOT lt = pred[] compare(i, i), direction=LT\n}\n"                                                          \
    "b {\n  p = (s32[], f32[4]) parameter(0)\n  ROOT t = (s32[], f32[4]) tuple(p)\n}\n"                           \
    "ENTRY e {\n  x = (s32[], f32[4]) parameter(0)\n"                                                            \
    "  ROOT w = (s32[], f32[4]) while(x), condition=c, body=b, backend_config={\"known_trip_count\":{\"n\":\"" N \
    "\"}}\n}\n"
    BAD(LOOP("99999999999999999999"), 13, 100, "known_trip_count out of range (more than 63 bits)");
    BAD(LOOP("-5"), 13, 100, "known_trip_count cannot be negative");
    hl_t h;
    hl_load(&h, LOOP("7"));
    hl_free(&h);
#undef LOOP
    BAD("HloModule m\nENTRY e {\n  p = (f32[4], f32[8]) parameter(0)\n"
        "  ROOT g = f32[8] get-tuple-element(p), index=-1\n}\n", 4, 47, "a get-tuple-element index cannot be negative");
    BAD("HloModule m\nENTRY e {\n  p = (f32[4], f32[8]) parameter(0)\n"
        "  ROOT g = f32[8] get-tuple-element(p), index=99999999999999999999\n}\n", 4, 47,
        "a get-tuple-element index out of range");
    /* each fits, together they do not: refused at the first that passes 2^63 */
    const char *big = "HloModule m\nENTRY e {\n  a = u8[4611686018427387904] parameter(0)\n"
                      "  b = u8[4611686018427387904] parameter(1)\n  ROOT c = u8[4] add(a, b)\n}\n";
    routine_t *r;
    rs_error_t err;
    assert_int_equal(hlo_read("big.hlo", big, strlen(big), &r, &err), RS_OK); /* reads: sizes are checked lowered */
    bindings_t b;
    lowering_t *l;
    assert_int_equal(routine_bindings(r, NULL, 0, &b, &err), RS_OK);
    assert_int_equal(lower_routine(r, &b, &l, &err), RS_EINPUT);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.col, 3);
    assert_non_null(strstr(err.msg, "the buffers' bytes overflow 64 bits at 'b'"));
    bindings_free(&b);
    routine_free(r);
    /* item 5: convert writes controls and bytes that are not UTF-8 as \xHH
     * (they went out raw), and they read back as the same bytes */
    const char *meta = "HloModule m\nENTRY e {\n  ROOT a = f32[4] parameter(0), metadata={op_name=\"x\xc2\x9b" "2J\xff"
                       "\xc3\xa9\"}\n}\n";
    char *out;
    size_t n;
    assert_int_equal(hlo_convert("m.hlo", meta, strlen(meta), &out, &n, &err), RS_OK);
    if (!strstr(out, "op_name=\"x\\xc2\\x9b" "2J\\xff\xc3\xa9\""))
        fail_msg("%s", out);
    for (size_t i = 0, k; i < n; i += k) /* valid UTF-8 throughout, no C1 control */
        if (!(k = utf8_seq_len(out + i, n - i)) || utf8_is_c1(out + i, k))
            fail_msg("byte 0x%02x at %zu of %s", (unsigned char)out[i], i, out);
    assert_int_equal(routine_parse("m.routine", out, n, &r, &err), RS_OK);
    assert_string_equal(r->nodes[0].origin->op_name, "x\xc2\x9b" "2J\xff\xc3\xa9");
    routine_free(r);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cost_rules),
        cmocka_unit_test(alias_resolution),
        cmocka_unit_test(root_defaults_to_last),
        cmocka_unit_test(pinned_classes),
        cmocka_unit_test(names_sanitised_and_clashes),
        cmocka_unit_test(element_sizes_and_origin),
        cmocka_unit_test(convert_round_trips),
        cmocka_unit_test(sniffing),
        cmocka_unit_test(errors_located),
        cmocka_unit_test(nesting_and_blowup_bounded),
        cmocka_unit_test(donation_tuple_root),
        cmocka_unit_test(donation_array_root),
        cmocka_unit_test(donation_edges),
        cmocka_unit_test(donation_syntax),
        cmocka_unit_test(donation_round_trips),
        cmocka_unit_test(reliability_numbers_and_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
