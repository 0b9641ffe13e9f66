/* Tests for DESIGN §10 as revised, on small hand-written modules worked by
 * hand: `%x#K` operands, a `while` in place with the copy XLA wrote and its
 * body's working memory, async pairs, cuBLAS and cuDNN calls with and
 * without scratch, a multi-output fusion's leaves, writes in place, a
 * conditional's and a pinned call's working memory, and the source tables
 * (a chain through site-packages, a bad frame id, a cycle). */
#include <stdlib.h>
#include <string.h>

#include "hlutil.h"
#include "lower/score.h"


static footprint_t score_of(const hl_t *h)
{
    score_config_t cfg;
    score_config_default(&cfg);
    rs_error_t err;
    footprint_t fp;
    if (score_lowering(h->l, NULL, &cfg, &fp, NULL, &err))
        fail_msg("score: %s", err.msg);
    return fp;
}

static const char *op_of(const hl_t *h, const char *name)
{
    return routine_op(h->r, h->l->first_def[hl_node(h, name)]);
}

static bool has_node(const hl_t *h, const char *name) { return routine_find_node(h->r, name) >= 0; }

/* ---- %x#K ------------------------------------------------------------------- */

static void hash_operands(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule k\nENTRY %e {\n  %a = f32[4] parameter(0)\n  %b = f32[2] parameter(1)\n"
                "  %n = f32[4] negate(%a)\n  %m = f32[2] negate(%b)\n  %in = (f32[2], f32[4]) tuple(%m, %n)\n"
                "  %t = (f32[4], (f32[2], f32[4])) tuple(%n, %in)\n"
                "  %x = f32[4] add(%t#1#1, %t#0)\n  %y = f32[2] abs(%t#1#0)\n"
                "  %z = f32[6] concatenate(%t#1), dimensions={0}\n"
                "  ROOT %r = (f32[4], f32[2], f32[6]) tuple(%x, %y, %z)\n}\n");
    /* #1#1 goes two levels down, #0 one; #1 alone reads the inner tuple whole */
    expect_args(&h, "x", "n,n");
    expect_args(&h, "y", "m");
    expect_args(&h, "z", "m,n");
    hl_free(&h);
    /* the same through get-tuple-element reads the same */
    hl_load(&h, "HloModule k\nENTRY %e {\n  %a = f32[4] parameter(0)\n  %n = f32[4] negate(%a)\n"
                "  %t = (f32[4], f32[4]) tuple(%a, %n)\n  %g = f32[4] get-tuple-element(%t), index=1\n"
                "  %x = f32[4] add(%g, %t#1)\n  ROOT %r = f32[4] abs(%x)\n}\n");
    expect_args(&h, "x", "n,n");
    hl_free(&h);
    /* past the end: located at the instruction */
    BAD("HloModule k\nENTRY %e {\n  %a = f32[4] parameter(0)\n  %t = (f32[4]) tuple(%a)\n"
        "  ROOT %x = f32[4] abs(%t#1)\n}\n",
        5, 8, "#1 of a tuple of 1");
    BAD("HloModule k\nENTRY %e {\n  %a = f32[4] parameter(0)\n  ROOT %x = f32[4] abs(%a#)\n}\n", 4, 27,
        "expected an element number after '#'");
}

/* ---- a while in place --------------------------------------------------------- */

static const char *LOOP =
    "HloModule w\n"
    "%body (s: (s32[], f32[64])) -> (s32[], f32[64]) {\n"
    "  %s = (s32[], f32[64]) parameter(0)\n  %i = s32[] get-tuple-element(%s), index=0\n"
    "  %x = f32[64] get-tuple-element(%s), index=1\n  %one = s32[] constant(1)\n"
    "  %i2 = s32[] add(%i, %one)\n"              /* step 0: an output, 0 B; cost 1 */
    "  %e = f32[64] exponential(%x)\n"           /* step 1: 256 B, to step 3; cost 64 */
    "  %n = f32[64] negate(%e)\n"                /* step 2: an output; cost 64 */
    "  %tmp = f32[16] slice(%e), slice={[0:16]}\n" /* step 3: 64 B; cost 16 */
    "  %u = f32[16] abs(%tmp)\n"                 /* step 4: 64 B, read by nothing; cost 16 */
    "  ROOT %r = (s32[], f32[64]) tuple(%i2, %n)\n}\n"
    "%cond (c: (s32[], f32[64])) -> pred[] {\n  %c = (s32[], f32[64]) parameter(0)\n"
    "  %ci = s32[] get-tuple-element(%c), index=0\n  %k = s32[] constant(4)\n"
    "  ROOT %lt = pred[] compare(%ci, %k), direction=LT\n}\n" /* an output; cost 1 */
    "ENTRY %e {\n  %x0 = f32[64] parameter(0)\n  %z = s32[] constant(0)\n"
    "  %c0 = f32[64] copy(%x0)\n"
    "  %init = (s32[], f32[64]) tuple(%z, %c0)\n"
    "  %w = (s32[], f32[64]) while(%init), condition=%cond, body=%body, "
    "backend_config={\"known_trip_count\":{\"n\":\"4\"}}\n"
    "  %out = f32[64] abs(%w#1)\n  ROOT %r = (s32[], f32[64]) tuple(%w#0, %out)\n}\n";

static void while_in_place(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, LOOP);
    /* the body's working memory: step 3 holds e (256) and tmp (64); its
     * outputs (i2, n), parameter and constant hold nothing */
    assert_int_equal(bytes_of(&h, "w"), 320);
    assert_true(flags_of(&h, "w") & FLAG_PINNED);
    /* one step reading its operand; the result is the operand's buffer */
    expect_args(&h, "w", "z,c0");
    expect_args(&h, "out", "c0");
    /* the copy XLA wrote holds the loop's state: pinned */
    assert_true(flags_of(&h, "c0") & FLAG_PINNED);
    assert_false(flags_of(&h, "out") & FLAG_PINNED);
    /* (body 1 + 64 + 64 + 16 + 16, condition 1) x 4 trips */
    assert_int_equal(cost_of(&h, "w"), (161 + 1) * 4);
    /* residents x0 + z = 260; step 1 holds c0 (256) and w (320) */
    footprint_t fp = score_of(&h);
    assert_int_equal(fp.live_peak, 260 + 256 + 320);
    assert_int_equal(fp.peak_step, 1);
    hl_free(&h);
}

/* ---- async pairs ------------------------------------------------------------- */

static void async_pairs(void **state)
{
    (void)state;
    static const char *FMT = "HloModule a\n%%ac (p: f32[8]) -> f32[8] {\n  %%p = f32[8] parameter(0)\n"
                             "  ROOT %%q = f32[8] negate(%%p)\n}\nENTRY %%e {\n  %%a = f32[8] parameter(0)\n"
                             "  %%b = f32[8] negate(%%a)\n"
                             "  %%s = ((f32[8]), f32[8], u32[]) %s(%%b), calls=%%ac\n"
                             "  %%c = f32[8] exponential(%%a)\n  %%d = f32[8] %s(%%s)\n"
                             "  ROOT %%r = f32[8] add(%%d, %%c)\n}\n";
    /* async-start/-done, and the shorthand as_text() prints */
    static const char *PAIRS[2][2] = { { "async-start", "async-done" }, { "fusion-start", "fusion-done" } };
    for (int k = 0; k < 2; k++) {
        char text[1024];
        snprintf(text, sizeof text, FMT, PAIRS[k][0], PAIRS[k][1]);
        hl_t h;
        hl_load(&h, text);
        /* the start holds its elements after the first: 32 + 4 */
        assert_int_equal(bytes_of(&h, "s"), 36);
        assert_true(flags_of(&h, "s") & FLAG_PINNED);
        expect_args(&h, "s", "b");
        assert_string_equal(op_of(&h, "s"), "async_start");
        /* the done: nothing of its own, reading the start whole */
        assert_int_equal(bytes_of(&h, "d"), 0);
        assert_true(flags_of(&h, "d") & FLAG_PINNED);
        expect_args(&h, "d", "b,s");
        assert_string_equal(op_of(&h, "d"), "async_done");
        /* its readers read the start's node */
        expect_args(&h, "r", "s,c");
        /* a: 32; step 2 holds b s c */
        footprint_t fp = score_of(&h);
        assert_int_equal(fp.live_peak, 32 + 32 + 36 + 32);
        hl_free(&h);
    }
    /* an async-done whose operand is no async-start: a plain pinned node */
    hl_t h;
    hl_load(&h, "HloModule a\nENTRY %e {\n  %a = f32[8] parameter(0)\n  %b = f32[8] negate(%a)\n"
                "  ROOT %d = f32[8] async-done(%b)\n}\n");
    assert_int_equal(bytes_of(&h, "d"), 32);
    assert_true(flags_of(&h, "d") & FLAG_PINNED);
    assert_string_equal(op_of(&h, "d"), "async_done");
    expect_args(&h, "d", "b");
    hl_free(&h);
}

/* ---- library calls ------------------------------------------------------------ */

#define GEMM_CFG                                                                                                       \
    "backend_config={\"gemm_backend_config\":{\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],"    \
    "\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],\"rhs_batch_dimensions\":[]}}}"

static void cublas_calls(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule g\nENTRY %e {\n  %a = f32[16,32] parameter(0)\n  %b = f32[32,8] parameter(1)\n"
                "  %g = (f32[16,8], s8[1024]) custom-call(%a, %b), custom_call_target=\"__cublas$lt$matmul\", " GEMM_CFG
                "\n  %h = f32[16,8] custom-call(%a, %b), custom_call_target=\"__cublas$gemm\", " GEMM_CFG "\n"
                "  %n = f32[16,8] add(%g#0, %h)\n"
                "  %o = f32[16,8] custom-call(%n), custom_call_target=\"SomethingElse\"\n"
                "  ROOT %r = f32[16,8] add(%o, %g#1)\n}\n");
    /* pure, costed as a dot: 2 x 128 x 32; the node holds the product */
    assert_int_equal(bytes_of(&h, "g"), 512);
    assert_false(flags_of(&h, "g") & FLAG_PINNED);
    assert_int_equal(cost_of(&h, "g"), 2 * 128 * 32);
    /* its scratch: a pinned node of its own step just before, read last */
    assert_int_equal(bytes_of(&h, "g.scratch"), 1024);
    assert_true(flags_of(&h, "g.scratch") & FLAG_PINNED);
    assert_string_equal(op_of(&h, "g.scratch"), "scratch");
    assert_int_equal(cost_of(&h, "g.scratch"), 1);
    assert_int_equal(h.l->first_def[hl_node(&h, "g.scratch")] + 1, h.l->first_def[hl_node(&h, "g")]);
    expect_args(&h, "g.scratch", "");
    expect_args(&h, "g", "a,b,g.scratch");
    /* without scratch: no scratch node */
    assert_int_equal(bytes_of(&h, "h"), 512);
    assert_int_equal(cost_of(&h, "h"), 8192);
    assert_false(has_node(&h, "h.scratch"));
    /* any element of the call reads the call's node */
    expect_args(&h, "n", "g,h");
    expect_args(&h, "r", "o,g");
    /* another target stays pinned, costed by its elements */
    assert_true(flags_of(&h, "o") & FLAG_PINNED);
    assert_int_equal(cost_of(&h, "o"), 128);
    /* g.scratch lives its step and the call's: step 1 holds a b g.scratch g */
    footprint_t fp = score_of(&h);
    assert_int_equal(fp.live_peak, 2048 + 1024 + 1024 + 512);
    assert_int_equal(fp.peak_step, 1);
    hl_free(&h);
}

static void cudnn_convolutions(void **state)
{
    (void)state;
    hl_t h;
    /* x b01f [2,5,5,3], w 01io [3,3,3,4], dy b01f [2,3,3,4]: the forward
     * output has 72 elements, the kernel 108 over 4 output features */
    hl_load(&h, "HloModule c\nENTRY %e {\n  %x = f32[2,5,5,3] parameter(0)\n  %w = f32[3,3,3,4] parameter(1)\n"
                "  %dy = f32[2,3,3,4] parameter(2)\n"
                "  %y = (f32[2,3,3,4], u8[16]) custom-call(%x, %w), window={size=3x3}, dim_labels=b01f_01io->b01f, "
                "custom_call_target=\"__cudnn$convForward\"\n"
                "  %dx = (f32[2,5,5,3], u8[0]) custom-call(%dy, %w), window={size=3x3}, dim_labels=b01f_01io->b01f, "
                "custom_call_target=\"__cudnn$convBackwardInput\"\n"
                "  %dw = (f32[3,3,3,4], u8[0]) custom-call(%x, %dy), window={size=3x3}, dim_labels=b01f_01io->b01f, "
                "custom_call_target=\"__cudnn$convBackwardFilter\"\n"
                "  %f = (f32[2,3,3,4], u8[0]) custom-call(%x, %w, %dy), window={size=3x3}, "
                "dim_labels=b01f_01io->b01f, custom_call_target=\"__cudnn$convBiasActivationForward\"\n"
                "  ROOT %r = (f32[2,3,3,4], f32[2,5,5,3], f32[3,3,3,4], f32[2,3,3,4]) tuple(%y#0, %dx#0, %dw#0, %f#0)\n}\n");
    /* forward: 2 x 72 output elements x 108 / 4 */
    assert_int_equal(cost_of(&h, "y"), 2 * 72 * 27);
    /* backward input: its output is operand 0 (dy, 72), the kernel operand 1 */
    assert_int_equal(cost_of(&h, "dx"), 2 * 72 * 27);
    /* backward filter: the output is operand 1 (dy, 72), the kernel its result */
    assert_int_equal(cost_of(&h, "dw"), 2 * 72 * 27);
    assert_int_equal(cost_of(&h, "f"), 2 * 72 * 27);
    assert_int_equal(bytes_of(&h, "y"), 288);
    assert_int_equal(bytes_of(&h, "y.scratch"), 16);
    assert_int_equal(bytes_of(&h, "dw.scratch"), 0);
    assert_int_equal(bytes_of(&h, "dw"), 432);
    hl_free(&h);
}

/* ---- leaves, in place, working memory --------------------------------------------- */

static void fusion_leaves_and_in_place(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule f\n"
                "%two (p: f32[8]) -> (f32[8], f32[4]) {\n  %p = f32[8] parameter(0)\n  %q = f32[8] negate(%p)\n"
                "  %s = f32[4] slice(%p), slice={[0:4]}\n  ROOT %t = (f32[8], f32[4]) tuple(%q, %s)\n}\n"
                "%upd (b: f32[16], u: f32[4], i: s32[]) -> f32[16] {\n  %b = f32[16] parameter(0)\n"
                "  %u = f32[4] parameter(1)\n  %i = s32[] parameter(2)\n  %bb = f32[16] bitcast(%b)\n"
                "  ROOT %d = f32[16] dynamic-update-slice(%bb, %u, %i)\n}\n"
                "ENTRY %e {\n  %a = f32[8] parameter(0)\n  %u = f32[4] parameter(1)\n  %i = s32[] parameter(2)\n"
                "  %zero = f32[] constant(0)\n"
                "  %f = (f32[8], f32[4]) fusion(%a), kind=kLoop, calls=%two\n"
                "  %buf = f32[16] broadcast(%zero), dimensions={}\n"
                "  %d = f32[16] dynamic-update-slice(%buf, %f#1, %i)\n"
                "  %k = f32[16] fusion(%d, %u, %i), kind=kLoop, calls=%upd\n"
                "  %dp = f32[8] dynamic-update-slice(%a, %u, %i)\n"
                "  ROOT %r = (f32[16], f32[8], f32[8]) tuple(%k, %f#0, %dp)\n}\n");
    /* leaf 0 is f, leaf 1 a pinned node of its own just before */
    assert_int_equal(bytes_of(&h, "f"), 32);
    assert_int_equal(bytes_of(&h, "f.1"), 16);
    assert_true(flags_of(&h, "f.1") & FLAG_PINNED);
    assert_false(flags_of(&h, "f") & FLAG_PINNED);
    assert_string_equal(op_of(&h, "f.1"), "leaf");
    expect_args(&h, "f", "a,f.1");
    /* the dynamic-update-slice writes into buf: no node of its own, buf
     * defined twice (then a third time by the fusion whose ROOT does the
     * same into its parameter 0), readers of either read buf */
    assert_false(has_node(&h, "d"));
    assert_false(has_node(&h, "k"));
    assert_int_equal(h.l->ndefs[hl_node(&h, "buf")], 3);
    /* broadcast 16, the slice's update 16, the fusion's (bitcast 0) 16 */
    assert_int_equal(cost_of(&h, "buf"), 16 + 16 + 16);
    /* into a parameter (resident): a node of its own */
    assert_int_equal(bytes_of(&h, "dp"), 32);
    expect_args(&h, "dp", "a,u,i");
    hl_free(&h);
}

static void callee_working_memory(void **state)
{
    (void)state;
    hl_t h;
    hl_load(&h, "HloModule c\n"
                "%small (s: f32[8]) -> f32[8] {\n  %s = f32[8] parameter(0)\n  %s1 = f32[8] negate(%s)\n"
                "  ROOT %s2 = f32[8] abs(%s1)\n}\n"      /* s1: 32 B */
                "%big (b: f32[8]) -> f32[8] {\n  %b = f32[8] parameter(0)\n  %b1 = f32[8] sine(%b)\n"
                "  %b2 = f32[16] concatenate(%b1, %b1), dimensions={0}\n"
                "  ROOT %b3 = f32[8] slice(%b2), slice={[0:8]}\n}\n" /* b1 + b2 at step 1: 96 B */
                "%r (x: f32[8]) -> f32[8] {\n  %x = f32[8] parameter(0)\n  %y = f32[8] rng(%x, %x), "
                "distribution=rng_uniform\n  ROOT %z = f32[8] add(%y, %x)\n}\n" /* y: 32 B */
                "ENTRY %e {\n  %p = pred[] parameter(0)\n  %v = f32[8] parameter(1)\n"
                "  %k = f32[8] conditional(%p, %v, %v), true_computation=%small, false_computation=%big\n"
                "  %c = f32[8] call(%k), to_apply=%r\n  %q = f32[8] call(%c), to_apply=%small\n"
                "  ROOT %o = f32[8] negate(%q)\n}\n");
    /* a conditional keeps its shape's bytes; its branches' largest peak is
     * a node of its own, read last */
    assert_int_equal(bytes_of(&h, "k"), 32);
    assert_int_equal(bytes_of(&h, "k.work"), 96);
    assert_true(flags_of(&h, "k.work") & FLAG_PINNED);
    assert_string_equal(op_of(&h, "k.work"), "work");
    expect_args(&h, "k", "p,v,v,k.work");
    /* a call that pins (rng): its computation's peak */
    assert_true(flags_of(&h, "c") & FLAG_PINNED);
    assert_int_equal(bytes_of(&h, "c.work"), 32);
    /* a pure call: a plain node, no working memory */
    assert_false(flags_of(&h, "q") & FLAG_PINNED);
    assert_false(has_node(&h, "q.work"));
    assert_int_equal(cost_of(&h, "q"), 16);
    hl_free(&h);
}

/* ---- source tables ---------------------------------------------------------------- */

#define TABLES                                                                                                         \
    "HloModule s\n\nFileNames\n1 \"train_step.py\"\n2 \"site-packages/jax/_src/numpy/lax_numpy.py\"\n\n"              \
    "FunctionNames\n1 \"loss\"\n2 \"where\"\n3 \"main\"\n\n"                                                           \
    "FileLocations\n1 {file_name_id=1 function_name_id=1 line=40 end_line=40 column=1 end_column=9}\n"                \
    "2 {file_name_id=2 function_name_id=2 line=900 end_line=900 column=1 end_column=9}\n"                              \
    "3 {file_name_id=1 function_name_id=3 line=70 end_line=70 column=1 end_column=9}\n\n"

static void source_frames(void **state)
{
    (void)state;
    hl_t h;
    /* frame 1 main:70 (no caller), 2 loss:40 called from 1, 3 where
     * (site-packages) called from 2, 4 where with no caller */
    hl_load(&h, TABLES "StackFrames\n1 {file_location_id=3 parent_frame_id=1}\n2 {file_location_id=1 parent_frame_id=2}\n"
                       "3 {file_location_id=2 parent_frame_id=3}\n4 {file_location_id=2 parent_frame_id=1}\n\n"
                       "ENTRY %e {\n  %a = f32[4] parameter(0), metadata={op_name=\"a\"}\n"
                       "  %b = f32[4] negate(%a), metadata={op_name=\"jit(f)/neg\" stack_frame_id=3}\n"
                       "  %c = f32[4] abs(%b), metadata={op_name=\"x\" stack_frame_id=1}\n"
                       "  %d = f32[4] sine(%c), metadata={stack_frame_id=4}\n"
                       "  ROOT %r = f32[4] add(%b, %d), metadata={source_file=\"other.py\" source_line=5 "
                       "stack_frame_id=3}\n}\n");
    const routine_origin_t *o = h.r->nodes[hl_node(&h, "b")].origin;
    /* the innermost frame outside site-packages: the caller's */
    assert_string_equal(o->source, "train_step.py:40");
    assert_string_equal(o->function, "loss");
    assert_string_equal(o->op_name, "jit(f)/neg");
    o = h.r->nodes[hl_node(&h, "c")].origin;
    assert_string_equal(o->source, "train_step.py:70");
    assert_string_equal(o->function, "main");
    /* every frame in site-packages: the innermost one's */
    o = h.r->nodes[hl_node(&h, "d")].origin;
    assert_string_equal(o->source, "site-packages/jax/_src/numpy/lax_numpy.py:900");
    assert_string_equal(o->function, "where");
    /* source_file/source_line win for the source, the frame gives the function */
    o = h.r->nodes[hl_node(&h, "r")].origin;
    assert_string_equal(o->source, "other.py:5");
    assert_string_equal(o->function, "loss");
    assert_null(h.r->nodes[hl_node(&h, "a")].origin->source);
    hl_free(&h);
    /* a bad frame no ENTRY instruction names is never followed */
    hl_load(&h, TABLES "StackFrames\n1 {file_location_id=3 parent_frame_id=1}\n2 {file_location_id=9 parent_frame_id=7}\n"
                       "\n%f (x: f32[4]) -> f32[4] {\n  ROOT %x = f32[4] parameter(0), metadata={stack_frame_id=2}\n}\n"
                       "ENTRY %e {\n  %a = f32[4] parameter(0)\n  ROOT %b = f32[4] negate(%a), metadata={stack_frame_id=1}\n}\n");
    assert_string_equal(h.r->nodes[hl_node(&h, "b")].origin->source, "train_step.py:70");
    hl_free(&h);
}

static void source_frame_errors(void **state)
{
    (void)state;
    /* an id out of range: at the instruction's stack_frame_id */
    BAD(TABLES "StackFrames\n1 {file_location_id=3 parent_frame_id=1}\n\nENTRY %e {\n  %a = f32[4] parameter(0)\n"
               "  ROOT %b = f32[4] negate(%a), metadata={op_name=\"n\" stack_frame_id=9}\n}\n",
        22, 69, "stack_frame_id=9 is not a row of StackFrames (1 to 1)");
    /* a parent out of range: at its frame's row */
    BAD(TABLES "StackFrames\n1 {file_location_id=3 parent_frame_id=1}\n2 {file_location_id=1 parent_frame_id=7}\n\n"
               "ENTRY %e {\n  %a = f32[4] parameter(0)\n  ROOT %b = f32[4] negate(%a), metadata={stack_frame_id=2}\n}\n",
        19, 1, "parent_frame_id=7 names frame 6, not a row of StackFrames");
    /* a location out of range */
    BAD(TABLES "StackFrames\n1 {file_location_id=4 parent_frame_id=1}\n\n"
               "ENTRY %e {\n  %a = f32[4] parameter(0)\n  ROOT %b = f32[4] negate(%a), metadata={stack_frame_id=1}\n}\n",
        18, 1, "file_location_id=4 is not a row of FileLocations (1 to 3)");
    /* a chain that comes back on itself: frame 1 called from 2, 2 from 1 */
    BAD(TABLES "StackFrames\n1 {file_location_id=1 parent_frame_id=3}\n2 {file_location_id=1 parent_frame_id=2}\n\n"
               "ENTRY %e {\n  %a = f32[4] parameter(0)\n  ROOT %b = f32[4] negate(%a), metadata={stack_frame_id=2}\n}\n",
        19, 1, "stack frame 2 is its own caller");
    /* malformed rows: numbering, a missing field, an unclosed brace */
    BAD(TABLES "StackFrames\n1 {file_location_id=3 parent_frame_id=1}\n3 {file_location_id=3 parent_frame_id=1}\n\n"
               "ENTRY %e {\n  ROOT %a = f32[4] parameter(0)\n}\n",
        19, 1, "StackFrames row numbered 3 where 2 was expected");
    BAD(TABLES "StackFrames\n1 {file_location_id=3}\n\nENTRY %e {\n  ROOT %a = f32[4] parameter(0)\n}\n", 18, 3,
        "no parent_frame_id= in this row");
    BAD(TABLES "StackFrames\n1 {file_location_id=3 parent_frame_id=1\n\nENTRY %e {\n  ROOT %a = f32[4] parameter(0)\n}\n",
        18, 3, "this '{' is not closed on its line");
    BAD("HloModule s\nFileNames\n1 train.py\nENTRY %e {\n  ROOT %a = f32[4] parameter(0)\n}\n", 3, 3,
        "expected a file name in quotes");
    /* an unclosed brace says where it opened (issue 42) */
    BAD("HloModule m\nENTRY %e {\n  %a = f32[4] parameter(0), metadata={op_name=\"x\"\n", 4, 1,
        "the '{' at line 3, column 38 is never closed");
    /* a trip count that is not a whole number (issue 42) */
    BAD("HloModule w\n%b (s: f32[]) -> f32[] {\n  ROOT %s = f32[] parameter(0)\n}\n"
        "ENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %w = f32[] while(%a), condition=%b, body=%b, "
        "backend_config={\"known_trip_count\":{\"n\":\"1e30\"}}\n}\n",
        7, 94, "known_trip_count is not a whole number of trips");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hash_operands),       cmocka_unit_test(while_in_place),
        cmocka_unit_test(async_pairs),         cmocka_unit_test(cublas_calls),
        cmocka_unit_test(cudnn_convolutions),  cmocka_unit_test(fusion_leaves_and_in_place),
        cmocka_unit_test(callee_working_memory), cmocka_unit_test(source_frames),
        cmocka_unit_test(source_frame_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
