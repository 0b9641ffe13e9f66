/* Tests for core/plan/fit.c: every round-two branch on routines worked by hand
 * (see tests/fitutil.c for their layouts), the candidate cap, budgets,
 * determinism, and properties on random routines. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitutil.h"
#include "lower/score.h"

/* X and Y pin the same peak.  Round one: both relieve 0; order X, Y (equal
 * cost 100, definition order).  Round two: X alone 104 = cur -> held; Y
 * alone 104, with {X} 4 < 104 and < cur 104 -> the group commits: X
 * carries 0, Y all 100. */
static void test_pair_commits_as_group(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_PAIR, "minimize", -1, 0);
    assert_int_equal(f.plan->baseline.total, 104);
    assert_int_equal(f.plan->final.total, 4);
    const char *names[] = { "X", "Y" };
    const int64_t reliefs[] = { 0, 100 };
    tf_expect_flips(&f, 2, names, reliefs);
    int32_t hold = tf_find_event(&f, EV_HOLD, "X");
    int32_t commit = tf_find_event(&f, EV_COMMIT_GROUP, "Y");
    assert_true(hold >= 0 && commit > hold);
    const fit_event_t *e = &f.plan->events[commit];
    assert_int_equal(e->with, 4);
    assert_int_equal(e->alone, 104);
    assert_int_equal(e->cur, 104);
    assert_int_equal(e->group_n, 1);
    assert_string_equal(tf_name(&f, f.plan->members[e->group_off]), "X");
    assert_int_equal(f.plan->cands[0].status, ST_COMMITTED);
    assert_int_equal(f.plan->cands[1].status, ST_COMMITTED);
    assert_int_equal(f.plan->considered, 2);
    tf_free(&f);
}

/* P (relief 10) first, then zeros by cost: n1 (5), Y (96).  P accepted (110
 * -> 100); n1 alone 100 = cur -> held; Y alone 54, with {n1} 54 = alone ->
 * neutral: the group stays held and Y is accepted alone (relief 46); n1 is
 * discarded at the end. */
static void test_neutral_hold_kept_then_left_over(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_NEUTRAL, "minimize", -1, 0);
    assert_int_equal(f.plan->baseline.total, 110);
    const char *names[] = { "P", "Y" };
    const int64_t reliefs[] = { 10, 46 };
    tf_expect_flips(&f, 2, names, reliefs);
    assert_int_equal(f.plan->final.total, 54);
    int32_t t = tf_find_event(&f, EV_TRY, "Y");
    assert_true(t >= 0);
    assert_int_equal(f.plan->events[t].alone, 54);
    assert_int_equal(f.plan->events[t].with, 54);
    assert_int_equal(f.plan->events[t].cur, 100);
    int32_t acc = tf_find_event(&f, EV_ACCEPT, "Y");
    int32_t disc = tf_find_event(&f, EV_DISCARD_GROUP, NULL);
    assert_true(acc > t && disc > acc);
    assert_int_equal(f.plan->events[disc].reason, WHY_LEFT_OVER);
    assert_string_equal(tf_name(&f, f.plan->members[f.plan->events[disc].group_off]), "n1");
    /* round-one ranks */
    assert_string_equal(tf_name(&f, f.plan->cands[0].node), "P");
    assert_int_equal(f.plan->cands[0].relief, 10);
    assert_string_equal(tf_name(&f, f.plan->cands[1].node), "n1");
    assert_string_equal(tf_name(&f, f.plan->cands[2].node), "Y");
    assert_int_equal(f.plan->cands[1].status, ST_DISCARDED);
    tf_free(&f);
}

/* P accepted (110 -> 100); c1 alone {P,c1} 100 = cur -> held; Y alone
 * {P,Y} 54, with {P,c1,Y} 74 > 54 -> harmful: c1 discarded, Y judged alone
 * and accepted (relief 46). */
static void test_harmful_hold_discarded(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_HARMFUL, "minimize", -1, 0);
    assert_int_equal(f.plan->baseline.total, 110);
    const char *names[] = { "P", "Y" };
    const int64_t reliefs[] = { 10, 46 };
    tf_expect_flips(&f, 2, names, reliefs);
    int32_t hold = tf_find_event(&f, EV_HOLD, "c1");
    int32_t disc = tf_find_event(&f, EV_DISCARD_GROUP, "Y");
    int32_t acc = tf_find_event(&f, EV_ACCEPT, "Y");
    assert_true(hold >= 0 && disc > hold && acc > disc);
    assert_int_equal(f.plan->events[disc].reason, WHY_HARMFUL);
    assert_int_equal(f.plan->events[disc].with, 74);
    assert_int_equal(f.plan->events[disc].alone, 54);
    tf_free(&f);
}

/* P relieves 20 (104 -> 84); m alone scores 114: relief -10, so it ranks
 * after P and round two rejects it (114 > 84). */
static void test_negative_sorted_after_and_rejected(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_NEGATIVE, "minimize", -1, 0);
    assert_int_equal(f.plan->baseline.total, 104);
    assert_string_equal(tf_name(&f, f.plan->cands[0].node), "P");
    assert_int_equal(f.plan->cands[0].relief, 20);
    assert_string_equal(tf_name(&f, f.plan->cands[1].node), "m");
    assert_int_equal(f.plan->cands[1].relief, -10);
    const char *names[] = { "P" };
    const int64_t reliefs[] = { 20 };
    tf_expect_flips(&f, 1, names, reliefs);
    int32_t rj = tf_find_event(&f, EV_REJECT, "m");
    assert_true(rj >= 0);
    assert_int_equal(f.plan->events[rj].reason, WHY_WORSE_ALONE);
    assert_int_equal(f.plan->events[rj].alone, 114);
    assert_int_equal(f.plan->events[rj].cur, 84);
    assert_int_equal(f.plan->cands[1].status, ST_REJECTED);
    tf_free(&f);
}

/* Bytes 100: P takes the arena to 100 <= 100, so round two stops before
 * n1 and Y (they stay pending); all three were scored in round one. */
static void test_bytes_stops_when_met(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_NEUTRAL, "100", -1, 0);
    const char *names[] = { "P" };
    const int64_t reliefs[] = { 10 };
    tf_expect_flips(&f, 1, names, reliefs);
    assert_true(f.plan->within_budget);
    assert_int_equal(f.plan->considered, 3);
    assert_true(tf_find_event(&f, EV_BUDGET_MET, NULL) >= 0);
    assert_int_equal(tf_find_event(&f, EV_TRY, "n1"), -1);
    assert_int_equal(f.plan->cands[1].status, ST_PENDING);
    assert_int_equal(f.plan->cap, 32);
    tf_free(&f);
    /* a budget the baseline meets: no flips, nothing considered */
    tf_fit(&f, ROUTINE_NEUTRAL, "110", -1, 0);
    assert_int_equal(f.plan->n_flips, 0);
    assert_int_equal(f.plan->considered, 0);
    assert_true(f.plan->within_budget);
    assert_int_equal(f.plan->final.total, 110);
    tf_free(&f);
    /* a budget nothing meets: every helping flip, and not within */
    tf_fit(&f, ROUTINE_NEUTRAL, "10", -1, 0);
    assert_int_equal(f.plan->n_flips, 2);
    assert_int_equal(f.plan->final.total, 54);
    assert_false(f.plan->within_budget);
    tf_free(&f);
    /* 60% of 110 = 66: P then Y (54 <= 66) */
    tf_fit(&f, ROUTINE_NEUTRAL, "60%", -1, 0);
    assert_int_equal(f.plan->budget, 66);
    assert_int_equal(f.plan->n_flips, 2);
    assert_true(f.plan->within_budget);
    tf_free(&f);
}

/* The cut keeps the cheapest: n1 (5), Y (96), P (106); a cap of 2 drops P. */
static void test_cap_keeps_cheapest(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, ROUTINE_NEUTRAL, "minimize", 2, 0);
    assert_int_equal(f.plan->considered, 2);
    assert_int_equal(f.plan->dropped, 1);
    assert_int_equal(tf_find_event(&f, EV_DROPPED, "P") >= 0, 1);
    assert_int_equal(tf_find_event(&f, EV_SOLO, "P"), -1);
    const fit_cand_t *last = &f.plan->cands[2];
    assert_string_equal(tf_name(&f, last->node), "P");
    assert_int_equal(last->status, ST_DROPPED);
    /* without P, Y alone pins nothing: every candidate relieves 0 */
    assert_int_equal(f.plan->n_flips, 0);
    tf_free(&f);
}

/* 40 identical candidates: Bytes keeps 32 by default, Minimize all. */
static void test_default_caps(void **state)
{
    (void)state;
    char text[8192];
    size_t w = (size_t)snprintf(text, sizeof text, "routine many\ndtype u8\ninput x [4]\n");
    for (int i = 0; i < 40; i++)
        w += (size_t)snprintf(text + w, sizeof text - w, "a%d = f(x) [%d]\no%d = g(a%d) [0] @output\n", i,
                              10 + i, i, i);
    tf_t f;
    tf_fit(&f, text, "1", -1, 0);
    assert_int_equal(f.plan->cap, 32);
    assert_int_equal(f.plan->considered, 32);
    assert_int_equal(f.plan->dropped, 8);
    /* the dropped are the 8 most expensive: a32..a39 */
    for (int i = 32; i < 40; i++) {
        char name[8];
        snprintf(name, sizeof name, "a%d", i);
        assert_true(tf_find_event(&f, EV_DROPPED, name) >= 0);
    }
    tf_free(&f);
    tf_fit(&f, text, "minimize", -1, 0);
    assert_int_equal(f.plan->cap, -1);
    assert_int_equal(f.plan->considered, 40);
    assert_int_equal(f.plan->dropped, 0);
    /* each a_i sits alone in its own region: only the tallest (a39) helps,
     * then a38, ... every one down to the floor x */
    assert_int_equal(f.plan->n_flips, 40);
    assert_int_equal(f.plan->final.total, 4);
    int64_t listed = 0;
    for (int32_t i = 0; i < f.plan->n_events; i++)
        listed += f.plan->events[i].group_n;
    /* the held group grows one hold at a time: each hold lists the one
     * before plus itself, and all of them share one run of members */
    int32_t holds = 0, off = -1;
    for (int32_t i = 0; i < f.plan->n_events; i++) {
        const fit_event_t *e = &f.plan->events[i];
        if (e->kind != EV_HOLD)
            continue;
        assert_int_equal(e->group_n, holds + 1);
        assert_int_equal(f.plan->members[e->group_off + holds], e->node);
        if (off < 0)
            off = e->group_off;
        assert_int_equal(e->group_off, off);
        holds++;
    }
    assert_int_equal(holds, 38);
    /* 1,520 members listed across the events, 38 stored */
    assert_int_equal(listed, 1520);
    assert_int_equal(f.plan->n_members, 38);
    tf_free(&f);
}

/* An accumulated candidate: listed, rejected by the virtualizer, scores 0
 * relief and leaves the plan as it is without it. */
static void test_accumulated_candidate_changes_nothing(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text, "%s%s", ROUTINE_NEUTRAL,
             "acc = f(x) [20]\nacc += f(x) [20]\nao = g(acc) [0] @output\n");
    tf_t f, g;
    tf_fit(&f, text, "minimize", -1, 0);
    tf_fit(&g, ROUTINE_NEUTRAL, "minimize", -1, 0);
    const fit_cand_t *c = NULL;
    for (int32_t k = 0; k < f.plan->n_cands; k++)
        if (strcmp(tf_name(&f, f.plan->cands[k].node), "acc") == 0)
            c = &f.plan->cands[k];
    assert_non_null(c);
    assert_int_equal(c->relief, 0);
    assert_int_equal(f.plan->n_flips, g.plan->n_flips);
    for (int32_t i = 0; i < f.plan->n_flips; i++) {
        assert_string_equal(tf_name(&f, f.plan->flips[i].node), tf_name(&g, g.plan->flips[i].node));
        assert_int_equal(f.plan->flips[i].relief, g.plan->flips[i].relief);
    }
    assert_int_equal(f.plan->final.total, g.plan->final.total);
    tf_free(&f);
    tf_free(&g);
}

static void assert_same_plan(const fit_plan_t *a, const fit_plan_t *b)
{
    assert_int_equal(a->n_flips, b->n_flips);
    assert_memory_equal(a->flips, b->flips, (size_t)a->n_flips * sizeof *a->flips);
    assert_int_equal(a->n_events, b->n_events);
    assert_memory_equal(a->events, b->events, (size_t)a->n_events * sizeof *a->events);
    assert_int_equal(a->n_members, b->n_members);
    if (a->n_members)
        assert_memory_equal(a->members, b->members, (size_t)a->n_members * sizeof *a->members);
    assert_int_equal(a->n_cands, b->n_cands);
    if (a->n_cands)
        assert_memory_equal(a->cands, b->cands, (size_t)a->n_cands * sizeof *a->cands);
    assert_memory_equal(&a->final, &b->final, sizeof a->final);
}

static void test_deterministic(void **state)
{
    (void)state;
    tf_t a, b, c;
    tf_fit(&a, ROUTINE_HARMFUL, "minimize", -1, 1);
    tf_fit(&b, ROUTINE_HARMFUL, "minimize", -1, 1);
    tf_fit(&c, ROUTINE_HARMFUL, "minimize", -1, 4); /* round one on 4 threads */
    assert_same_plan(a.plan, b.plan);
    assert_same_plan(a.plan, c.plan);
    tf_free(&a);
    tf_free(&b);
    tf_free(&c);
}

/* On 100 random routines: reliefs sum to baseline - final; final is what
 * scoring the context plus the flips gives; the threaded run with the reuse
 * cell equals the single-threaded one that lowers afresh for every scoring
 * (traces compared byte for byte); the child context scores to the plan's
 * final. */
static void test_random_routines(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 100; seed++) {
        char *text = tf_random_routine(seed);
        const char *budgets[] = { "minimize", "70%" };
        for (int k = 0; k < 2; k++) {
            tf_t f, g;
            tf_fit_relower(&f, text, budgets[k], -1, 1);
            tf_fit(&g, text, budgets[k], -1, 0);
            assert_same_plan(f.plan, g.plan);
            int64_t sum = 0;
            for (int32_t i = 0; i < f.plan->n_flips; i++)
                sum += f.plan->flips[i].relief;
            assert_int_equal(sum, f.plan->baseline.total - f.plan->final.total);
            assert_true(f.plan->final.total <= f.plan->baseline.total);
            fit_context_t *child;
            rs_error_t err;
            assert_int_equal(fit_context_child(f.ctx, f.plan, &child, &err), RS_OK);
            uint8_t *prefs = calloc((size_t)f.t.r->n_nodes + 1, 1);
            fit_context_prefs(child, prefs);
            footprint_t fp;
            assert_int_equal(score_lowering(f.t.l, prefs, &child->cfg, &fp, NULL, &err), RS_OK);
            assert_memory_equal(&fp, &f.plan->final, sizeof fp);
            /* a fit on top of the child finds nothing more under minimize */
            if (k == 0) {
                fit_options_t opt = { .max_candidates = -1, .device_bytes = -1, .threads = 1 };
                opt.budget.kind = BUDGET_MINIMIZE;
                fit_plan_t *again;
                assert_int_equal(fit_run(&opt, child, NULL, &again, &err), RS_OK);
                assert_int_equal(again->baseline.total, f.plan->final.total);
                assert_true(again->final.total <= again->baseline.total);
                fit_plan_free(again);
            }
            free(prefs);
            fit_context_free(child);
            tf_free(&f);
            tf_free(&g);
        }
        free(text);
    }
}

static void test_aliasing_off_is_an_error(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_PAIR);
    score_config_t cfg;
    score_config_default(&cfg);
    cfg.aliasing = false;
    fit_context_t *ctx;
    rs_error_t err;
    assert_int_equal(fit_context_root(t.r, &t.b, &cfg, NULL, 0, &ctx, &err), RS_OK);
    fit_options_t opt = { .max_candidates = -1, .device_bytes = -1 };
    opt.budget.kind = BUDGET_MINIMIZE;
    fit_plan_t *p;
    assert_int_equal(fit_run(&opt, ctx, NULL, &p, &err), RS_EINPUT);
    assert_non_null(strstr(err.msg, "buffer_aliasing"));
    fit_context_free(ctx);
    tr_free(&t);
}

static int cancel_after(void *ud, int32_t done, int32_t total)
{
    (void)total;
    return done >= *(int *)ud;
}

static void test_progress_and_cancel(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, ROUTINE_NEUTRAL);
    fit_context_t *ctx = tf_root(&t);
    rs_error_t err;
    int limit = 1;
    fit_options_t opt = { .max_candidates = -1, .device_bytes = -1, .threads = 1, .progress = cancel_after,
                          .progress_ud = &limit };
    opt.budget.kind = BUDGET_MINIMIZE;
    fit_plan_t *p = NULL;
    assert_int_equal(fit_run(&opt, ctx, NULL, &p, &err), RS_ECANCELED);
    assert_null(p);
    limit = 1000;
    assert_int_equal(fit_run(&opt, ctx, NULL, &p, &err), RS_OK);
    fit_plan_free(p);
    fit_context_free(ctx);
    tr_free(&t);
}

/* The stages a search tells (fit_stage_fn), recorded. */
typedef struct stages {
    int n;
    int32_t stage[16], plan[16], done[16], count[16];
} stages_t;

static void note_stage(void *ud, fit_stage_t st, int32_t plan, int32_t done, int32_t n)
{
    stages_t *s = ud;
    assert_true(s->n < 16);
    s->stage[s->n] = (int32_t)st;
    s->plan[s->n] = plan;
    s->done[s->n] = done;
    s->count[s->n++] = n;
}

static int32_t count_kind(const fit_plan_t *p, fit_event_kind_t kind)
{
    int32_t n = 0;
    for (int32_t i = 0; i < p->n_events; i++)
        n += p->events[i].kind == kind;
    return n;
}

/* A sweep of 250 B and 150 B over three 100 B buffers live together (x 4 B
 * and o 1 B with them, 305 B): the baseline once, round one once for both
 * (3 solo scorings), then each budget's round two, which meets 250 B after
 * 1 of 3 tries and 150 B after 2, and says so; a third budget the baseline
 * meets tells that at once (0 tries). */
static void test_stages_of_a_sweep(void **state)
{
    (void)state;
    tr_t t;
    tr_load(&t, "routine three\ndtype u8\ninput x [4]\nA = f(x) [100] cost=1\nB = f(x) [100] cost=2\n"
                "C = f(x) [100] cost=3\no = g(A, B, C) [1] @output\n");
    fit_context_t *ctx = tf_root(&t);
    rs_error_t err;
    stages_t st = { 0 };
    fit_options_t opt = { .max_candidates = -1, .device_bytes = -1, .threads = 1, .stage = note_stage,
                          .stage_ud = &st };
    budget_spec_t b[3] = { { .kind = BUDGET_BYTES, .bytes = 250 }, { .kind = BUDGET_BYTES, .bytes = 150 },
                           { .kind = BUDGET_BYTES, .bytes = 1000 } };
    fit_plan_t *plans[3];
    assert_int_equal(fit_sweep(&opt, b, 3, ctx, NULL, plans, &err), RS_OK);
    assert_int_equal(plans[0]->baseline.total, 305);
    assert_int_equal(count_kind(plans[0], EV_TRY), 1);
    assert_int_equal(count_kind(plans[1], EV_TRY), 2);
    const int32_t want[][4] = {
        { FIT_STAGE_BASELINE, 0, 0, 0 },   { FIT_STAGE_ROUND_ONE, 0, 0, 3 }, { FIT_STAGE_ROUND_TWO, 0, 3, 3 },
        { FIT_STAGE_BUDGET_MET, 0, 4, 1 }, { FIT_STAGE_ROUND_TWO, 1, 4, 3 }, { FIT_STAGE_BUDGET_MET, 1, 6, 2 },
        { FIT_STAGE_BUDGET_MET, 2, 6, 0 },
    };
    assert_int_equal(st.n, 7);
    for (int i = 0; i < st.n; i++) {
        assert_int_equal(st.stage[i], want[i][0]);
        assert_int_equal(st.plan[i], want[i][1]);
        assert_int_equal(st.done[i], want[i][2]);
        assert_int_equal(st.count[i], want[i][3]);
    }
    for (int i = 0; i < 3; i++)
        fit_plan_free(plans[i]);
    /* minimize runs round two to its end: no budget met */
    st.n = 0;
    opt.budget.kind = BUDGET_MINIMIZE;
    fit_plan_t *p;
    assert_int_equal(fit_run(&opt, ctx, NULL, &p, &err), RS_OK);
    assert_int_equal(st.n, 3);
    assert_int_equal(st.stage[2], FIT_STAGE_ROUND_TWO);
    assert_int_equal(count_kind(p, EV_TRY), 3);
    fit_plan_free(p);
    fit_context_free(ctx);
    tr_free(&t);
}

/* Recompute per flip (DESIGN §13), by hand.  X is read twice (u = g(X,
 * X)): inlining it runs its cost 10 twice, +10; Y (cost 50) is read once:
 * +0.  Both relieve 0 alone; X's bound 20 ranks it before Y's 50, so X is
 * held and Y closes the group: X carries relief 0 and recompute 0, Y the
 * group's 100 B and +10 FLOPs, though the 10 are X's.  Baseline compute
 * 10 + 1 + 50 + 1 = 62; final 72. */
static void test_recompute_group_credited_to_closer(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f,
           "routine pair2\ndtype u8\ninput x [4]\nX = f(x) [100] cost=10\nu = g(X, X) [0] @output\n"
           "Y = f(x) [100] cost=50\nv = g(Y) [0] @output\n",
           "minimize", -1, 1);
    const char *names[] = { "X", "Y" };
    const int64_t reliefs[] = { 0, 100 };
    tf_expect_flips(&f, 2, names, reliefs);
    assert_int_equal(f.plan->baseline.compute, 62);
    assert_int_equal(f.plan->final.compute, 72);
    assert_int_equal(f.plan->flips[0].recompute, 0);
    assert_int_equal(f.plan->flips[1].recompute, 10);
    assert_int_equal(f.plan->flips[0].reserved, 0);
    tf_free(&f);
}

/* A node nothing reads runs 0 times once inline: its flip takes its cost
 * away.  d (100 B, cost 30) is live at step 0 only, above x; inlined, the
 * arena is x and o, 5 B: relief 99, recompute -30. */
static void test_recompute_negative(void **state)
{
    (void)state;
    tf_t f;
    tf_fit(&f, "routine dead\ndtype u8\ninput x [4]\nd = f(x) [100] cost=30\no = g(x) [1] @output\n", "minimize",
           -1, 1);
    const char *names[] = { "d" };
    const int64_t reliefs[] = { 99 };
    tf_expect_flips(&f, 1, names, reliefs);
    assert_int_equal(f.plan->flips[0].recompute, -30);
    assert_int_equal(f.plan->final.compute - f.plan->baseline.compute, -30);
    tf_free(&f);
}

/* Every sample (routines, generated ones, HLO modules) under minimize and
 * 60 %: each flip's recompute is what a prefix of the flips scores to,
 * they sum to final - baseline, and the floors hold (tf_check_answers). */
static void test_answers_on_every_sample(void **state)
{
    (void)state;
    const char *dirs[] = { RS_SAMPLES_DIR, RS_SAMPLES_DIR "/gen", RS_SAMPLES_DIR "/hlo" };
    int files = 0;
    for (int k = 0; k < 3; k++) {
        DIR *d = opendir(dirs[k]);
        assert_non_null(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t n = strlen(e->d_name);
            if (!(n > 8 && strcmp(e->d_name + n - 8, ".routine") == 0) && !(n > 4 && strcmp(e->d_name + n - 4, ".hlo") == 0))
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
            const char *budgets[] = { "minimize", "60%" };
            for (int b = 0; b < 2; b++) {
                tf_t f;
                tf_fit_file(&f, path, budgets[b], b ? 4 : -1); /* a small cap: floors under it */
                tf_free(&f);
            }
            files++;
        }
        closedir(d);
    }
    assert_true(files >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pair_commits_as_group),
        cmocka_unit_test(test_neutral_hold_kept_then_left_over),
        cmocka_unit_test(test_harmful_hold_discarded),
        cmocka_unit_test(test_negative_sorted_after_and_rejected),
        cmocka_unit_test(test_bytes_stops_when_met),
        cmocka_unit_test(test_cap_keeps_cheapest),
        cmocka_unit_test(test_default_caps),
        cmocka_unit_test(test_accumulated_candidate_changes_nothing),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_random_routines),
        cmocka_unit_test(test_aliasing_off_is_an_error),
        cmocka_unit_test(test_progress_and_cancel),
        cmocka_unit_test(test_stages_of_a_sweep),
        cmocka_unit_test(test_recompute_group_credited_to_closer),
        cmocka_unit_test(test_recompute_negative),
        cmocka_unit_test(test_answers_on_every_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
