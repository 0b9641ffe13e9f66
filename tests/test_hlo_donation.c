/* Tests for core/model/hlo.c's donated buffers (DESIGN §10,
 * input_output_alias): tuple and array ROOTs, the edges, the syntax and its
 * errors, and convert's @into read back. */
#include <stdlib.h>
#include <string.h>

#include "hlutil.h"

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
    if ((got == NULL) != (want == NULL) || (got && want && strcmp(got, want) != 0))
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
 * first leaf (its node upd; the second is upd.1, §10's leaves) goes into v
 * ({4,0} descends into the fusion's tuple), {0} names a parameter the
 * module lacks. */
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
    /* w2, m2 and upd hold nothing of their own; upd.1 is the second leaf */
    assert_int_equal(bytes_of(&h, "w2"), 0);
    assert_int_equal(bytes_of(&h, "m2"), 0);
    assert_int_equal(bytes_of(&h, "upd"), 0);
    assert_int_equal(bytes_of(&h, "upd.1"), 16384);
    assert_int_equal(bytes_of(&h, "x"), 32768);
    assert_int_equal(bytes_of(&h, "loss"), 4);
    assert_int_equal(bytes_of(&h, "g"), 16384);
    assert_int_equal(h.l->elems[hl_node(&h, "w2")], 4096); /* the shape stays: 0 bytes, 4096 elements */
    expect_into(&h, "w2", "w");
    expect_into(&h, "m2", "m");
    expect_into(&h, "upd", "v");
    expect_into(&h, "x", NULL);
    assert_int_equal(flags_of(&h, "w2"), FLAG_OUTPUT | FLAG_INTO);
    assert_int_equal(flags_of(&h, "upd"), FLAG_OUTPUT | FLAG_INTO);
    assert_int_equal(flags_of(&h, "upd.1"), FLAG_OUTPUT | FLAG_PINNED);
    assert_int_equal(lower_role(h.l, hl_node(&h, "w2")), LOWER_OUTPUT);
    assert_int_equal(lower_role(h.l, hl_node(&h, "x")), LOWER_RESIDENT);
    assert_int_equal(lower_role(h.l, hl_node(&h, "h")), LOWER_CANDIDATE);
    /* three pairs donate: w2 and m2 (16 KiB each) and upd's first leaf */
    assert_int_equal(h.r->donation.pairs, 5);
    assert_int_equal(h.r->donation.donated, 3);
    assert_int_equal(h.r->donation.bytes, 3 * 16384);
    /* the peak moves out of the tail: residents 81,924 B; without donation
     * step 5 holds h g m2 w2 loss (+81,924), with it step 1 holds wb h
     * (+65,536) and the tail only h g loss (+49,156), then g upd.1 loss */
    footprint_t fp;
    score_of(&h, &fp);
    assert_int_equal(fp.live_peak, 81924 + 65536);
    assert_int_equal(fp.peak_step, 1);
    assert_int_equal(fp.buffers, 13);
    hl_free(&h);
    /* the same module without its alias: twice the parameters' updates */
    const char *body = strchr(STEP, '\n');
    char *plain = malloc(strlen(STEP) + 32);
    sprintf(plain, "HloModule step%s", body);
    hl_load(&h, plain);
    free(plain);
    assert_int_equal(bytes_of(&h, "w2"), 16384);
    assert_int_equal(bytes_of(&h, "upd"), 16384);
    assert_int_equal(bytes_of(&h, "upd.1"), 16384);
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
    /* a multi-output fusion, a node a leaf (f, f.1, f.2): its leaves
     * through get-tuple-element ({0}, {1}) and by index into the fusion
     * ({2,1}); a leaf named again has nothing left to give; {3,0,1}
     * descends into a tuple-shaped parameter: a passthrough */
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
    /* {0} writes f (64 B) into p0, {2,1} f.1 (32 B) into p1; {1} and {4}
     * find f.1 with nothing left; f.2 keeps its 16 */
    assert_int_equal(bytes_of(&h, "f"), 0);
    expect_into(&h, "f", "p0");
    assert_int_equal(bytes_of(&h, "f.1"), 0);
    expect_into(&h, "f.1", "p1");
    assert_int_equal(bytes_of(&h, "f.2"), 16);
    assert_int_equal(flags_of(&h, "f"), FLAG_OUTPUT | FLAG_INTO);
    assert_int_equal(h.r->donation.pairs, 5);
    assert_int_equal(h.r->donation.donated, 2);
    assert_int_equal(h.r->donation.bytes, 96);
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
    assert_non_null(strstr(text, "\nupd.1 = leaf() [4096] f32 cost=1 @output @pinned hlo=\"upd\"\n"
                                 "upd = fusion(v, g, upd.1) [4096] f32 cost=8192 @output @into(v) hlo=\"upd\"\n"));
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
    assert_int_equal(r2->n_into, 3);
    assert_int_equal(r2->format, ROUTINE_TEXT);
    assert_int_equal(r2->donation.pairs, 0); /* a §1 routine: its @into nodes say it */
    lower_free(l2);
    bindings_free(&b2);
    routine_free(r2);
    hl_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(donation_tuple_root),
        cmocka_unit_test(donation_array_root),
        cmocka_unit_test(donation_edges),
        cmocka_unit_test(donation_syntax),
        cmocka_unit_test(donation_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
