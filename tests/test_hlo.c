/* Tests for core/model/hlo.c: DESIGN §10's mapping of XLA HLO text to a
 * routine — each FLOP rule worked by hand, alias resolution, the pinned
 * opcodes, names, element sizes, convert and sniffing.  Every error
 * located is in test_hlo_errors.c, donated buffers in test_hlo_donation.c. */
#include <stdlib.h>
#include <string.h>

#include "hlutil.h"


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
    /* a while holds its body's working memory (§10): here nothing, its
     * two results being the body's outputs */
    assert_int_equal(bytes_of(&h, "loop"), 0);
    /* a tuple-shaped node is one buffer of all its leaves */
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
    /* a call is pure unless its computation pins (jnp.where's `call`) */
    assert_false(flags_of(&h, "l") & FLAG_PINNED);
    hl_free(&h);
    hl_load(&h, "HloModule w\n%r { %s = f32[4] parameter(0)\n ROOT %t = f32[4] rng(%s, %s), distribution=rng_uniform }\n"
                "%f { %u = f32[4] parameter(0)\n ROOT %v = f32[4] call(%u), to_apply=%r }\n"
                "%g { %x = f32[4] parameter(0)\n ROOT %y = f32[4] fusion(%x), kind=kLoop, calls=%f }\n"
                "ENTRY %e { %a = f32[4] parameter(0)\n %l = f32[4] call(%a), to_apply=%g\n"
                " ROOT %z = f32[4] negate(%l) }\n");
    /* pinned through a fusion and a call to an rng */
    assert_true(flags_of(&h, "l") & FLAG_PINNED);
    assert_true(flags_of(&h, "l.work") & FLAG_PINNED);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
