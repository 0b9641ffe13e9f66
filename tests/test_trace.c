/* Tests for core/trace.c: event sentences, chains and explanations. */
#include <string.h>

#include "fitutil.h"
#include "trace.h"

static void test_explain_commit_group(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 0);
    char buf[512];
    trace_explain(f.plan, tr_node(&f.t, "Y"), buf, sizeof buf);
    assert_string_equal(buf, "Y committed in round two, closing the load-bearing group {X}: together they "
                             "relieved 100 B that none relieved alone, all of it carried by Y; ranked 2nd by "
                             "relief per cost (0 B/op)");
    trace_explain(f.plan, tr_node(&f.t, "X"), buf, sizeof buf);
    assert_non_null(strstr(buf, "X committed in round two as a held member of the load-bearing group {X} closed by Y"));
    trace_explain(f.plan, tr_node(&f.t, "x"), buf, sizeof buf);
    assert_non_null(strstr(buf, "x was no candidate"));
    /* the chain of X: kept, solo, order, try, hold, commit */
    int32_t chain[16];
    int32_t n = trace_chain(f.plan, tr_node(&f.t, "X"), chain, 16);
    assert_int_equal(n, 6);
    assert_int_equal(f.plan->events[chain[0]].kind, EV_KEPT);
    assert_int_equal(f.plan->events[chain[4]].kind, EV_HOLD);
    assert_int_equal(f.plan->events[chain[5]].kind, EV_COMMIT_GROUP);
    trace_describe(f.plan, chain[5], buf, sizeof buf);
    assert_string_equal(buf, "load-bearing group {X} committed with Y: together 4 B < alone 104 B and < current "
                             "104 B; Y carries the relief 100 B, the held flips 0");
    tf_free(&f);
}

static void test_explain_accept_on_top(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_NEUTRAL, "minimize", -1, 0);
    char buf[512];
    trace_explain(f.plan, tr_node(&f.t, "Y"), buf, sizeof buf);
    /* Y relieved 46 B on top of {P}; its solo relief was 0 (rank 3) */
    assert_string_equal(buf, "Y accepted in round two: relieved 46 B on top of {P}; ranked 3rd by relief per "
                             "cost (0 B/op)");
    trace_explain(f.plan, tr_node(&f.t, "P"), buf, sizeof buf);
    assert_string_equal(buf, "P accepted in round two: relieved 10 B on top of the baseline; ranked 1st by relief "
                             "per cost (0.0943 B/op)"); /* 10 / 106 */
    trace_explain(f.plan, tr_node(&f.t, "n1"), buf, sizeof buf);
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
    trace_explain(f.plan, tr_node(&f.t, "c1"), buf, sizeof buf);
    assert_non_null(strstr(buf, "its group proved harmful when Y scored 74 B with it and 54 B without"));
    tf_free(&f);
    tf_fit(&f, ROUTINE_NEGATIVE, "minimize", -1, 0);
    trace_explain(f.plan, tr_node(&f.t, "m"), buf, sizeof buf);
    assert_string_equal(buf, "m rejected in round two: alone it made the arena 114 B, above the current 84 B; "
                             "ranked 2nd by relief per cost (-1 B/op)");
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
            trace_describe(f.plan, i, buf, sizeof buf); /* truncates safely */
            assert_true(strlen(buf) < sizeof buf);
            char big[1024];
            trace_describe(f.plan, i, big, sizeof big);
            assert_true(strlen(big) > 5);
        }
        tf_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explain_commit_group),
        cmocka_unit_test(test_explain_accept_on_top),
        cmocka_unit_test(test_explain_harmful_and_rejected),
        cmocka_unit_test(test_every_event_describes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
