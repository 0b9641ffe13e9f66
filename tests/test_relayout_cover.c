/* Tests for core/layout/relayout_cover.c's profiles (the counts of the
 * placed pieces over offsets that the incremental greedy keeps per tree
 * node): sums worked by hand, and changes applied to random profiles
 * checked offset by offset against a plain count. */
#include <stdlib.h>
#include <string.h>

#include "layout/relayout_int.h"
#include "testutil.h"

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

static void expect_pieces(const rl_list_t *l, const rl_seg_t *want, int32_t n)
{
    assert_int_equal(l->n, n);
    for (int32_t i = 0; i < n; i++) {
        assert_int_equal(l->v[i].lo, want[i].lo);
        assert_int_equal(l->v[i].hi, want[i].hi);
        assert_int_equal(l->v[i].cnt, want[i].cnt);
    }
}

/* The sum of many lists (a profile made from the build's count tree)
 * equals adding every placement to one list: by hand, with counts that
 * pass the cap, and on random lists of 1 to 40. */
static void test_profile_sums(void **state)
{
    (void)state;
    rl_list_t l[12] = { 0 }, sum = { 0 }, one = { 0 };
    const int64_t iv[5][2] = { { 0, 4 }, { 2, 6 }, { 2, 6 }, { 3, 5 }, { 8, 9 } };
    const rl_list_t *lists[40];
    for (int i = 0; i < 5; i++) {
        assert_int_equal(relayout_cover_add(&l[i], iv[i][0], iv[i][1]), 0);
        lists[i] = &l[i];
    }
    assert_int_equal(relayout_cover_sum(lists, 5, &sum, NULL), 0);
    const rl_seg_t want[] = { { 0, 2, 1, 0 }, { 2, 3, 3, 0 }, { 3, 4, 4, 0 }, { 4, 5, 3, 0 }, { 5, 6, 2, 0 },
                              { 8, 9, 1, 0 } };
    expect_pieces(&sum, want, 6);
    /* nine buffers over [0, 1) are "at least 8"; eight exactly 8 */
    for (int i = 0; i < 12; i++)
        l[i].n = 0;
    for (int i = 0; i < 9; i++) {
        assert_int_equal(relayout_cover_add(&l[i], 0, 1), 0);
        lists[i] = &l[i];
    }
    assert_int_equal(relayout_cover_add(&l[0], 1, 2), 0);
    assert_int_equal(relayout_cover_sum(lists, 9, &sum, NULL), 0);
    expect_pieces(&sum, (const rl_seg_t[]){ { 0, 1, -RELAYOUT_CAP, 0 }, { 1, 2, 1, 0 } }, 2);
    assert_int_equal(relayout_cover_sum(lists + 1, 8, &sum, NULL), 0);
    expect_pieces(&sum, (const rl_seg_t[]){ { 0, 1, RELAYOUT_CAP, 0 } }, 1);
    /* one list already "at least 8" stays so beside four others */
    for (int i = 0; i < 12; i++)
        l[i].n = 0;
    for (int i = 0; i < 9; i++)
        assert_int_equal(relayout_cover_add(&l[0], 0, 1), 0);
    for (int i = 1; i < 5; i++)
        assert_int_equal(relayout_cover_add(&l[i], 5, 6), 0);
    assert_int_equal(relayout_cover_sum(lists, 5, &sum, NULL), 0);
    expect_pieces(&sum, (const rl_seg_t[]){ { 0, 1, -RELAYOUT_CAP, 0 }, { 5, 6, 4, 0 } }, 2);
    for (int i = 0; i < 12; i++)
        free(l[i].v);
    rl_list_t many[40] = { 0 };
    unsigned s = 12345;
    for (int t = 0; t < 300; t++) {
        int32_t k = 1 + (int32_t)(rnd(&s) % 40);
        one.n = 0;
        for (int32_t i = 0; i < k; i++) {
            many[i].n = 0;
            int32_t pieces = (int32_t)(rnd(&s) % 12);
            int64_t span = t % 2 ? 200 : 12; /* every other trial piles counts past the cap */
            for (int32_t j = 0; j < pieces; j++) {
                int64_t a = rnd(&s) % (unsigned)span, b = a + 1 + rnd(&s) % (rnd(&s) % 4 ? 8 : 120);
                assert_int_equal(relayout_cover_add(&many[i], a, b), 0);
                assert_int_equal(relayout_cover_add(&one, a, b), 0);
            }
            lists[i] = &many[i];
        }
        assert_int_equal(relayout_cover_sum(lists, k, &sum, NULL), 0);
        expect_pieces(&sum, one.v, one.n);
    }
    for (int i = 0; i < 40; i++)
        free(many[i].v);
    free(sum.v);
    free(one.v);
}

/* A count after rem taken off and add added, offset by offset (the rule
 * of relayout_cover_apply, written out): *unknown when it can no longer be
 * told positive. */
static int32_t model_count(int32_t c, int32_t rem, int32_t add, bool *unknown)
{
    int32_t v = (c >= 0 ? c : -c) - rem + add;
    if (c < 0 && v < add)
        v = add;
    if (v < 0 || (c < 0 && v == 0)) {
        *unknown = true;
        return 0;
    }
    if (c >= 0)
        return v <= RELAYOUT_CAP ? v : -RELAYOUT_CAP;
    return v < RELAYOUT_CAP ? -v : -RELAYOUT_CAP;
}

/* relayout_cover_apply on random profiles and changes against the counts
 * offset by offset: the same count at every offset, pieces merged where
 * they meet equal, and the same "unknown".  Most changes leave long
 * stretches of the profile alone (its pieces put whole). */
static void test_apply_changes(void **state)
{
    (void)state;
    enum { SPAN = 160 };
    rl_list_t prof = { 0 }, out = { 0 };
    rl_edge_t e[64];
    unsigned s = 4242;
    for (int t = 0; t < 4000; t++) {
        prof.n = 0;
        int32_t pieces = (int32_t)(rnd(&s) % 24), depth = t % 3 ? 4 : 12; /* a third past the cap */
        for (int32_t j = 0; j < pieces; j++)
            for (int32_t d = 1 + (int32_t)(rnd(&s) % (unsigned)depth); d > 0; d--) {
                int64_t a = rnd(&s) % SPAN;
                assert_int_equal(relayout_cover_add(&prof, a, a + 1 + rnd(&s) % (rnd(&s) % 3 ? 6 : 40)), 0);
            }
        int32_t m = 0, deltas = (int32_t)(rnd(&s) % 9);
        int32_t rem[SPAN + 64] = { 0 }, add[SPAN + 64] = { 0 };
        for (int32_t j = 0; j < deltas; j++) {
            int64_t a = rnd(&s) % SPAN, b = a + 1 + rnd(&s) % 12;
            bool taken = rnd(&s) % 2;
            e[m++] = (rl_edge_t){ a, taken ? 1 : 0, taken ? 0 : 1 };
            e[m++] = (rl_edge_t){ b, taken ? -1 : 0, taken ? 0 : -1 };
            for (int64_t x = a; x < b; x++)
                *(taken ? &rem[x] : &add[x]) += 1;
        }
        relayout_edges_sort(e, m);
        int rc = relayout_cover_apply(prof.v, prof.n, e, m, &out);
        assert_true(rc == 0 || rc == 1);
        bool unknown = false;
        int32_t k = 0, p = 0;
        for (int64_t x = 0; x < SPAN + 64; x++) {
            while (p < prof.n && prof.v[p].hi <= x)
                p++;
            int32_t c = p < prof.n && prof.v[p].lo <= x ? prof.v[p].cnt : 0;
            int32_t want = model_count(c, rem[x], add[x], &unknown);
            while (k < out.n && out.v[k].hi <= x)
                k++;
            int32_t got = k < out.n && out.v[k].lo <= x ? out.v[k].cnt : 0;
            if (got != want)
                fail_msg("trial %d: offset %lld counts %d, want %d", t, (long long)x, got, want);
        }
        assert_int_equal(rc, unknown ? 1 : 0);
        for (int32_t j = 0; j < out.n; j++) {
            assert_true(out.v[j].lo < out.v[j].hi && out.v[j].cnt != 0 && out.v[j].hi <= SPAN + 64);
            assert_true(j == 0 || out.v[j - 1].hi < out.v[j].lo ||
                        (out.v[j - 1].hi == out.v[j].lo && out.v[j - 1].cnt != out.v[j].cnt));
        }
    }
    free(prof.v);
    free(out.v);
}

/* ---- the bench's buffer lists ----------------------------------------------------- */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_sums),
        cmocka_unit_test(test_apply_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
