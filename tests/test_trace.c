/* Tests for core/plan/trace.c: event sentences, chains and explanations. */
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "plan/trace.h"

static void test_explain_commit_group(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 0);
    char buf[512];
    tf_explain(f.plan, tr_node(&f.t, "Y"), buf, sizeof buf);
    assert_string_equal(buf, "Y committed in round two, closing the load-bearing group {X}: together they "
                             "relieved 100 B that none relieved alone, all of it credited to Y; ranked 2nd by "
                             "relief per cost (0 B/FLOP); it added 0 FLOPs of recompute: inline, it and its group "
                             "run no more often than they ran as buffers (cost bound 100 FLOPs)");
    strbuf_t g;
    strbuf_init(&g);
    assert_string_equal(trace_explain_group(f.plan, tr_node(&f.t, "Y"), &g), ""); /* {X} is named above */
    strbuf_free(&g);
    tf_explain(f.plan, tr_node(&f.t, "X"), buf, sizeof buf);
    assert_non_null(strstr(buf, "X committed in round two as a held member of the load-bearing group {X} closed by Y"));
    tf_explain(f.plan, tr_node(&f.t, "x"), buf, sizeof buf);
    assert_non_null(strstr(buf, "x was no candidate"));
    /* the chain of X: kept, solo, order, try, hold, the try of Y that
     * scored X held, commit */
    int32_t chain[16];
    int32_t n = trace_chain(f.plan, tr_node(&f.t, "X"), chain, 16);
    assert_int_equal(n, 7);
    assert_int_equal(f.plan->events[chain[0]].kind, EV_KEPT);
    assert_int_equal(f.plan->events[chain[4]].kind, EV_HOLD);
    assert_int_equal(f.plan->events[chain[5]].kind, EV_TRY);
    assert_int_equal(f.plan->events[chain[5]].node, tr_node(&f.t, "Y"));
    assert_int_equal(f.plan->events[chain[6]].kind, EV_COMMIT_GROUP);
    tf_describe(f.plan, chain[6], buf, sizeof buf);
    assert_string_equal(buf, "load-bearing group {X} committed with Y: together 4 B < alone 104 B and < current "
                             "104 B; Y carries the relief 100 B, the held flips 0");
    tf_free(&f);
}

/* A group of 600 held flips is counted in its sentences, its 600 names
 * said once, whole, by trace_explain_group (a 1024-byte buffer once cut
 * the sentence inside a name). */
static void test_a_long_group_is_said_whole(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 0);
    int32_t k = tf_find_event(&f, EV_COMMIT_GROUP, "Y");
    assert_true(k >= 0);
    enum { N = 600 };
    int32_t x = tr_node(&f.t, "X"), *m = realloc(f.plan->members, (size_t)(f.plan->n_members + N) * sizeof *m);
    assert_non_null(m);
    f.plan->members = m;
    for (int i = 0; i < N; i++)
        m[f.plan->n_members + i] = x;
    f.plan->events[k].group_off = f.plan->n_members;
    f.plan->events[k].group_n = N;
    f.plan->n_members += N;
    strbuf_t b;
    strbuf_init(&b);
    /* counted, never spelled: 46,000 events of a real step each spelled
     * their group (354 MB in one saved plan); the event's members list it */
    const char *said = trace_describe(f.plan, k, &b);
    assert_non_null(said);
    assert_string_equal(said, "load-bearing group of 600 flips committed with Y: together 4 B < alone 104 B and < "
                              "current 104 B; Y carries the relief 100 B, the held flips 0");
    /* the Why alike: the verdict and its numbers, without the names */
    said = trace_explain(f.plan, tr_node(&f.t, "Y"), &b);
    assert_non_null(said);
    assert_string_equal(said, "Y committed in round two, closing the load-bearing group of 600 flips: together they "
                              "relieved 100 B that none relieved alone, all of it credited to Y; ranked 2nd by "
                              "relief per cost (0 B/FLOP); it added 0 FLOPs of recompute: inline, it and its group "
                              "run no more often than they ran as buffers (cost bound 100 FLOPs)");
    /* the 600 names once, on their own */
    said = trace_explain_group(f.plan, tr_node(&f.t, "Y"), &b);
    assert_non_null(said);
    assert_int_equal(strlen(said), strlen("the load-bearing group of 600 flips: {X}") + 599 * strlen(", X"));
    const char *lead = "the load-bearing group of 600 flips: {X, X, ";
    assert_memory_equal(said, lead, strlen(lead));
    assert_string_equal(said + strlen(said) - 5, "X, X}");
    said = trace_explain(f.plan, tr_node(&f.t, "X"), &b);
    assert_non_null(strstr(said, "X committed in round two as a held member of the load-bearing group of 600 flips "
                                 "closed by Y: it carries 0, Y carries the relief 100 B"));
    assert_non_null(strstr(said, "of recompute: a held member carries 0, the flip that closed its group all of it"));
    assert_null(strstr(said, "X, X"));
    /* a held member's Why lists its group too; no group, nothing to say */
    said = trace_explain_group(f.plan, tr_node(&f.t, "X"), &b);
    assert_memory_equal(said, lead, strlen(lead));
    said = trace_explain_group(f.plan, tr_node(&f.t, "x"), &b);
    assert_string_equal(said, "");
    /* reused: the next sentence replaces it */
    said = trace_describe(f.plan, 0, &b);
    assert_string_equal(said, "baseline: the arena needs 104 B");
    strbuf_free(&b);
    tf_free(&f);
}

/* The closer relieves on its own too: cur 133 B after n1, n2 alone 118 B,
 * with the held {n0} 76 B; the group is load-bearing for the 42 B between. */
static void test_explain_commit_group_closer_relieves_alone(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f,
           "routine r69\ndtype u8\ninput i0 [22]\nn0 = op(i0) [42] cost=18\nn1 = op(n0, n0) [73] cost=15\n"
           "n2 = op(n0, n1, n1) [57] cost=5\nn3 = op(n2, i0) [54] cost=10 @output\n",
           "minimize", -1, 0);
    char buf[512];
    tf_explain(f.plan, tr_node(&f.t, "n2"), buf, sizeof buf);
    assert_string_equal(buf, "n2 committed in round two, closing the load-bearing group {n0}: together they "
                             "relieved 57 B (133 B -> 76 B), 42 B more than n2 alone (118 B); round two credits "
                             "all of it to n2 and 0 to the held flips; ranked 3rd by relief per cost (0.6 B/FLOP); "
                             "it added 72 FLOPs of recompute (cost bound 5 FLOPs), the whole group's: the flip that "
                             "closes a group carries what its members added");
    tf_free(&f);
}

/* The end says by how much a byte budget was missed: pair's best is 4 B. */
static void test_end_says_the_miss(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "1", -1, 0);
    char buf[512];
    tf_describe(f.plan, f.plan->n_events - 1, buf, sizeof buf);
    assert_string_equal(buf, "end: 4 B after 2 flips, 2 considered, 0 dropped; over the budget 1 B by 3 B, at its "
                             "max-live lower bound: no layout of these flips is smaller, only other flips");
    tf_free(&f);
    tf_fit(&f, ROUTINE_PAIR, "4", -1, 0);
    tf_describe(f.plan, f.plan->n_events - 1, buf, sizeof buf);
    assert_string_equal(buf, "end: 4 B after 2 flips, 2 considered, 0 dropped");
    tf_free(&f);
}

static void test_explain_accept_on_top(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_NEUTRAL, "minimize", -1, 0);
    char buf[512];
    tf_explain(f.plan, tr_node(&f.t, "Y"), buf, sizeof buf);
    /* Y relieved 46 B on top of {P}; its solo relief was 0 (rank 3) */
    assert_string_equal(buf, "Y accepted in round two: relieved 46 B on top of {P}; ranked 3rd by relief per "
                             "cost (0 B/FLOP); it added 0 FLOPs of recompute: inline it runs no more often than the "
                             "once it ran as a buffer (cost bound 96 FLOPs)");
    tf_explain(f.plan, tr_node(&f.t, "P"), buf, sizeof buf);
    assert_string_equal(buf, "P accepted in round two: relieved 10 B on top of the baseline; ranked 1st by relief "
                             "per cost (0.0943 B/FLOP); it added 0 FLOPs of recompute: inline it runs no more often "
                             "than the once it ran as a buffer (cost bound 106 FLOPs)");
    /* 10 / 106; P has one use: inlined into it, never computed twice */
    tf_explain(f.plan, tr_node(&f.t, "n1"), buf, sizeof buf);
    assert_non_null(strstr(buf, "n1 discarded in round two: held because alone it relieved nothing, then still "
                                "held at the end"));
    tf_free(&f);
}

static void test_explain_harmful_and_rejected(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_HARMFUL, "minimize", -1, 0);
    char buf[512];
    tf_explain(f.plan, tr_node(&f.t, "c1"), buf, sizeof buf);
    assert_non_null(strstr(buf, "its group proved harmful when Y scored 74 B with it and 54 B without"));
    tf_free(&f);
    tf_fit(&f, ROUTINE_NEGATIVE, "minimize", -1, 0);
    tf_explain(f.plan, tr_node(&f.t, "m"), buf, sizeof buf);
    assert_string_equal(buf, "m rejected in round two: alone it made the arena 114 B, above the current 84 B; "
                             "ranked 2nd by relief per cost (-1 B/FLOP)");
    tf_free(&f);
}

/* Two sizes that print alike are told apart by their difference in bytes:
 * the harmful discard at 36 MiB + 36 B against 36 MiB. */
static void test_rounding_shows_the_difference(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_HARMFUL, "minimize", -1, 0);
    int32_t k = tf_find_event(&f, EV_DISCARD_GROUP, NULL);
    assert_true(k >= 0);
    fit_event_t *e = &f.plan->events[k];
    char buf[512];
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_null(strstr(buf, "(by ")); /* 74 B > 54 B: nothing to add */
    e->with = (36LL << 20) + 36;
    e->alone = 36LL << 20;
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_non_null(strstr(buf, "scores 36.0 MiB > 36.0 MiB (by 36 B) without"));
    tf_free(&f);
}

/* A try and an accept whose totals print alike give them in bytes (the
 * issue's `alone 9.75 TiB, current 9.75 TiB` hid 512 MiB); totals that
 * print apart, or are equal, stay as they were. */
static void test_try_and_accept_show_what_decided(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 0);
    int32_t k = tf_find_event(&f, EV_TRY, "Y");
    assert_true(k >= 0);
    fit_event_t *e = &f.plan->events[k];
    char buf[512];
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_string_equal(buf, "round two: try Y: alone 104 B, with held {X} 4 B, current 104 B");
    const int64_t tib = 1LL << 40;
    e->cur = 9 * tib + 3 * (tib / 4);         /* 9.75 TiB */
    e->alone = e->cur - (512LL << 20);        /* 512 MiB less: 9.75 TiB too */
    e->with = 5 * tib;
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_string_equal(buf, "round two: try Y: alone 9.75 TiB (10719701499904 B), with held {X} 5.00 TiB, "
                             "current 9.75 TiB (10720238370816 B)");
    e->with = e->alone; /* equal to alone, alike to current */
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_string_equal(buf, "round two: try Y: alone 9.75 TiB (10719701499904 B), with held {X} 9.75 TiB "
                             "(10719701499904 B), current 9.75 TiB (10720238370816 B)");
    e->alone = e->with = e->cur; /* all equal: nothing hidden */
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_string_equal(buf, "round two: try Y: alone 9.75 TiB, with held {X} 9.75 TiB, current 9.75 TiB");
    tf_free(&f);

    tf_fit(&f, ROUTINE_NEUTRAL, "minimize", -1, 0);
    k = tf_find_event(&f, EV_ACCEPT, "P");
    assert_true(k >= 0);
    e = &f.plan->events[k];
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_string_equal(buf, "P accepted: relieved 10 B (110 B -> 100 B)");
    e->cur = 9 * tib + 3 * (tib / 4);
    e->alone = e->cur - (512LL << 20);
    e->relief = 512LL << 20;
    tf_describe(f.plan, k, buf, sizeof buf);
    assert_string_equal(buf, "P accepted: relieved 512 MiB (10720238370816 B -> 10719701499904 B)");
    tf_free(&f);
}

static void test_every_event_describes(void **state)
{
    (void)state;
    const char *routines[] = { ROUTINE_PAIR, ROUTINE_NEUTRAL, ROUTINE_HARMFUL, ROUTINE_NEGATIVE };
    for (int k = 0; k < 4; k++) {
        tf_t f;
        tf_fit(&f, routines[k], k == 1 ? "100" : "minimize", k == 2 ? 2 : -1, 0);
        for (int32_t i = 0; i < f.plan->n_events; i++) {
            char buf[16];
            tf_describe(f.plan, i, buf, sizeof buf); /* truncates safely */
            assert_true(strlen(buf) < sizeof buf);
            char big[1024];
            tf_describe(f.plan, i, big, sizeof big);
            assert_true(strlen(big) > 5);
        }
        tf_free(&f);
    }
}

/* The round-two verdict of candidate name after event upto, as text. */
static const char *r2_at(const tf_t *f, int32_t upto, const char *name, bool narrow, trace_r2_t *v)
{
    static char buf[32];
    trace_r2_t *all = calloc((size_t)f->plan->n_cands + 1, sizeof *all);
    assert_non_null(all);
    assert_int_equal(trace_round_two_at(f->plan, upto, all), RS_OK);
    int32_t node = tr_node(&f->t, name), k = 0;
    while (k < f->plan->n_cands && f->plan->cands[k].node != node)
        k++;
    assert_true(k < f->plan->n_cands);
    *v = all[k];
    free(all);
    trace_round_two_text(v, narrow, buf, sizeof buf);
    return buf;
}

/* ROUTINE_HARMFUL under Minimize, as `fit --events` prints it: 10 try P,
 * 11 P accepted (110 -> 100: relief 10), 12 try c1, 13 c1 held, 14 try Y
 * (alone 54, with {c1} 74), 15 {c1} discarded as harmful, 16 Y accepted
 * (100 -> 54: relief 46), 17 end. */
static void test_round_two_harmful(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_HARMFUL, "minimize", -1, 0);
    assert_int_equal(f.plan->events[15].kind, EV_DISCARD_GROUP);
    trace_r2_t v;
    assert_string_equal(r2_at(&f, 9, "P", true, &v), "not yet"); /* round one's last order event */
    assert_int_equal(v.event, -1);
    assert_string_equal(r2_at(&f, 10, "P", true, &v), "trying");
    assert_string_equal(r2_at(&f, 10, "c1", true, &v), "not yet");
    assert_string_equal(r2_at(&f, 11, "P", true, &v), "+10 B");
    assert_int_equal(v.kind, R2_ACCEPTED);
    assert_int_equal(v.relief, 10);
    assert_int_equal(v.event, 11);
    assert_string_equal(r2_at(&f, 13, "c1", true, &v), "held");
    assert_string_equal(r2_at(&f, 13, "c1", false, &v), "held (= cur)");
    assert_string_equal(r2_at(&f, 14, "c1", true, &v), "held");
    assert_string_equal(r2_at(&f, 14, "Y", true, &v), "trying");
    assert_string_equal(r2_at(&f, 15, "c1", true, &v), "harmful");
    assert_int_equal(v.reason, WHY_HARMFUL);
    assert_int_equal(v.event, 15);
    assert_string_equal(r2_at(&f, 15, "Y", true, &v), "trying"); /* judged alone next */
    assert_string_equal(r2_at(&f, 16, "Y", true, &v), "+46 B");
    assert_string_equal(r2_at(&f, 17, "P", false, &v), "+10 B");
    assert_string_equal(r2_at(&f, 17, "c1", false, &v), "harmful group");
    tf_free(&f);
}

/* ROUTINE_PAIR: 8 X held, 10 {X} committed with Y (together 4 B, current
 * 104 B): X carries 0, Y 100.  ROUTINE_NEGATIVE: 10 m rejected (alone
 * 114 B > current 84 B). */
static void test_round_two_group_and_reject(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 0);
    trace_r2_t v;
    assert_string_equal(r2_at(&f, 9, "X", true, &v), "held");
    assert_string_equal(r2_at(&f, 9, "Y", true, &v), "trying");
    assert_string_equal(r2_at(&f, 10, "X", true, &v), "+0 group");
    assert_int_equal(v.kind, R2_COMMITTED);
    assert_false(v.closer);
    assert_string_equal(r2_at(&f, 10, "X", false, &v), "+0 held group");
    assert_string_equal(r2_at(&f, 10, "Y", true, &v), "+100 B");
    assert_true(v.closer);
    assert_int_equal(v.relief, 100);
    assert_string_equal(r2_at(&f, 10, "Y", false, &v), "+100 B group");
    tf_free(&f);
    tf_fit(&f, ROUTINE_NEGATIVE, "minimize", -1, 0);
    assert_string_equal(r2_at(&f, 9, "m", true, &v), "trying");
    assert_string_equal(r2_at(&f, 10, "m", true, &v), "worse alone");
    assert_int_equal(v.reason, WHY_WORSE_ALONE);
    assert_string_equal(r2_at(&f, 11, "P", true, &v), "+20 B");
    tf_free(&f);
}

/* ROUTINE_HARMFUL with budget 100 B: P's relief 10 brings 110 to 100, the
 * budget is met and c1 and Y are never tried.  With a cap of 2 (and no
 * budget in reach) P, the dearest, is dropped at event 3; c1 and Y are
 * both held (each relieves nothing, with each other too) and discarded at
 * the end. */
static void test_round_two_budget_and_cap(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_HARMFUL, "100", -1, 0);
    int32_t met = tf_find_event(&f, EV_BUDGET_MET, NULL);
    assert_true(met > 0);
    trace_r2_t v;
    assert_string_equal(r2_at(&f, met - 1, "Y", true, &v), "not yet");
    assert_string_equal(r2_at(&f, met, "Y", true, &v), "budget met");
    assert_string_equal(r2_at(&f, met, "c1", false, &v), "budget met first");
    assert_string_equal(r2_at(&f, met, "P", true, &v), "+10 B");
    tf_free(&f);
    tf_fit(&f, ROUTINE_HARMFUL, "1", 2, 0);
    assert_int_equal(f.plan->events[3].kind, EV_DROPPED);
    assert_string_equal(r2_at(&f, 2, "P", true, &v), "not yet");
    assert_string_equal(r2_at(&f, 3, "P", true, &v), "over cap");
    assert_string_equal(r2_at(&f, 3, "P", false, &v), "dropped by cap");
    int32_t end = f.plan->n_events - 1;
    assert_int_equal(f.plan->events[end - 1].kind, EV_DISCARD_GROUP);
    assert_string_equal(r2_at(&f, end - 2, "Y", true, &v), "held");
    assert_string_equal(r2_at(&f, end, "Y", true, &v), "left over");
    assert_int_equal(v.reason, WHY_LEFT_OVER);
    assert_string_equal(r2_at(&f, end, "c1", false, &v), "left held at end");
    assert_string_equal(r2_at(&f, end, "P", true, &v), "over cap");
    tf_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explain_commit_group),
        cmocka_unit_test(test_a_long_group_is_said_whole),
        cmocka_unit_test(test_explain_commit_group_closer_relieves_alone),
        cmocka_unit_test(test_end_says_the_miss),
        cmocka_unit_test(test_explain_accept_on_top),
        cmocka_unit_test(test_explain_harmful_and_rejected),
        cmocka_unit_test(test_rounding_shows_the_difference),
        cmocka_unit_test(test_every_event_describes),
        cmocka_unit_test(test_round_two_harmful),
        cmocka_unit_test(test_round_two_group_and_reject),
        cmocka_unit_test(test_round_two_budget_and_cap),
        cmocka_unit_test(test_try_and_accept_show_what_decided),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
