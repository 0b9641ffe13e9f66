/* Tests for core/layout/relayout*.c: the incremental greedy equals the §3
 * greedy from scratch (bestfit) on hand-worked changes, on thousands of
 * random sets of changes (removals, new buffers, spans lengthened and
 * shortened, other sizes, zero-byte and full-span buffers, rebases, budgets
 * that force the layout from scratch), and on every MiniMalloc and real
 * bench CSV with random removals and span extensions. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout/relayout.h"
#include "layout/relayout_int.h"
#include "minimalloc.h"
#include "testutil.h"

/* The greedy from scratch of the present buffers: out[i] per id, -1 for
 * absent ones; returns the height. */
static int64_t from_scratch(const arena_buf_t *b, const uint8_t *present, int32_t n, int64_t alignment, int64_t *out)
{
    arena_buf_t *c = malloc((n ? (size_t)n : 1) * sizeof *c);
    int32_t *ids = malloc((n ? (size_t)n : 1) * sizeof *ids), m = 0;
    for (int32_t i = 0; i < n; i++) {
        out[i] = -1;
        if (!present || present[i]) {
            c[m] = b[i];
            ids[m++] = i;
        }
    }
    int64_t *o = malloc((m ? (size_t)m : 1) * sizeof *o), h;
    rs_error_t err;
    if (layout_run(c, m, alignment, LAYOUT_GREEDY, o, &h, &err))
        fail_msg("layout: %s", err.msg);
    for (int32_t k = 0; k < m; k++)
        out[ids[k]] = o[k];
    free(c);
    free(ids);
    free(o);
    return h;
}

/* Runs (bufs, present) against r with budget and checks it against the
 * greedy from scratch; returns the layout's height. */
static int64_t expect_same(const relayout_t *r, relayout_work_t *w, const arena_buf_t *b, const uint8_t *p, int32_t n,
                           int64_t alignment, int64_t budget, const char *what)
{
    int64_t *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got), h;
    int64_t hw = from_scratch(b, p, n, alignment, want);
    rs_error_t err;
    if (relayout_run_budget(r, w, b, p, budget, &h, &err))
        fail_msg("%s: run: %s", what, err.msg);
    relayout_offsets(r, w, got);
    if (h != hw)
        fail_msg("%s: height %lld, from scratch %lld", what, (long long)h, (long long)hw);
    for (int32_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: buffer %d at %lld, from scratch %lld", what, (int)i, (long long)got[i], (long long)want[i]);
    free(want);
    free(got);
    return h;
}

static void expect_ref(const relayout_t *r, const arena_buf_t *b, const uint8_t *p, int32_t n, int64_t alignment,
                       const char *what)
{
    int64_t *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got);
    int64_t hw = from_scratch(b, p, n, alignment, want);
    relayout_ref_offsets(r, got);
    if (relayout_height(r) != hw)
        fail_msg("%s: reference height %lld, from scratch %lld", what, (long long)relayout_height(r), (long long)hw);
    for (int32_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: reference buffer %d at %lld, from scratch %lld", what, (int)i, (long long)got[i],
                     (long long)want[i]);
    free(want);
    free(got);
}

/* ---- hand-worked ------------------------------------------------------------- */

/* b0 (4 B, steps 0-3) at 0; b1 and b2 (2 B, 0-1 and 2-3) on it at 4; b3
 * (1 B, 0-3) on them at 6.  Without b0, b1 and b2 drop to 0 and b3 to 2:
 * the cascade reaches every buffer. */
static void test_removal_cascades(void **state)
{
    (void)state;
    arena_buf_t b[4] = { { 4, 0, 3 }, { 2, 0, 1 }, { 2, 2, 3 }, { 1, 0, 3 } };
    relayout_t *r;
    relayout_work_t *w;
    rs_error_t err;
    assert_int_equal(relayout_new(b, NULL, 4, 1, &r, &err), RS_OK);
    assert_int_equal(relayout_work_new(4, &w, &err), RS_OK);
    int64_t off[4];
    relayout_ref_offsets(r, off);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 4);
    assert_int_equal(off[2], 4);
    assert_int_equal(off[3], 6);
    assert_int_equal(relayout_height(r), 7);
    uint8_t p[4] = { 0, 1, 1, 1 };
    int64_t h;
    assert_int_equal(relayout_run(r, w, b, p, &h, &err), RS_OK);
    assert_int_equal(h, 3);
    relayout_offsets(r, w, off);
    assert_int_equal(off[0], -1);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[2], 0);
    assert_int_equal(off[3], 2);
    relayout_stats_t st;
    relayout_work_stats(w, &st);
    assert_int_equal(st.full, 0);
    assert_int_equal(st.moved, 3); /* b1 and b2, and b3 (full-span: through its chain) */
    assert_int_equal(relayout_rebase(r, w, &err), RS_OK);
    expect_ref(r, b, p, 4, 1, "after the rebase");
    relayout_work_free(w);
    relayout_free(r);
}

/* b0 (4 B, 0-3) and b1 (4 B, 4-7) both at 0; b2 (2 B, 3-4) meets both, on
 * them at 4; b3 (1 B, 4-4) on b1 and b2 at 6.  Without b0, b2 is looked at
 * again but b1 still covers [0, 4): it lands where it was, and the cascade
 * stops there (b3 is not re-placed). */
static void test_removal_stops(void **state)
{
    (void)state;
    arena_buf_t b[4] = { { 4, 0, 3 }, { 4, 4, 7 }, { 2, 3, 4 }, { 1, 4, 4 } };
    relayout_t *r;
    relayout_work_t *w;
    rs_error_t err;
    assert_int_equal(relayout_new(b, NULL, 4, 1, &r, &err), RS_OK);
    assert_int_equal(relayout_work_new(4, &w, &err), RS_OK);
    int64_t off[4];
    relayout_ref_offsets(r, off);
    assert_int_equal(off[2], 4);
    assert_int_equal(off[3], 6);
    uint8_t p[4] = { 0, 1, 1, 1 };
    int64_t h;
    assert_int_equal(relayout_run(r, w, b, p, &h, &err), RS_OK);
    assert_int_equal(h, 7);
    relayout_offsets(r, w, off);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[2], 4);
    assert_int_equal(off[3], 6);
    relayout_stats_t st;
    relayout_work_stats(w, &st);
    assert_int_equal(st.moved, 0);
    assert_int_equal(st.checked, 1); /* b2 only: b3 never had a changed buffer before it */
    relayout_work_free(w);
    relayout_free(r);
}

/* A span lengthened moves the buffer up the order: b1 (2 B, 0-0) was
 * placed after b2 (2 B, 1-2) and drops below it once it lives 0-5. */
static void test_span_moves_in_order(void **state)
{
    (void)state;
    arena_buf_t b[3] = { { 8, 0, 1 }, { 2, 0, 0 }, { 2, 1, 2 } };
    relayout_t *r;
    relayout_work_t *w;
    rs_error_t err;
    assert_int_equal(relayout_new(b, NULL, 3, 1, &r, &err), RS_OK);
    assert_int_equal(relayout_work_new(3, &w, &err), RS_OK);
    arena_buf_t c[3] = { { 8, 0, 1 }, { 2, 0, 5 }, { 2, 1, 2 } };
    assert_int_equal(expect_same(r, w, c, NULL, 3, 1, INT64_MAX, "lengthened"), 12);
    int64_t off[3];
    relayout_offsets(r, w, off);
    assert_int_equal(off[1], 8);
    assert_int_equal(off[2], 10);
    relayout_work_free(w);
    relayout_free(r);
}

/* Zero-byte buffers sit at 0 and conflict with nothing, also when they
 * come, go or change their span. */
static void test_zero_bytes(void **state)
{
    (void)state;
    arena_buf_t b[4] = { { 0, 0, 9 }, { 8, 0, 9 }, { 0, 2, 3 }, { 4, 1, 5 } };
    relayout_t *r;
    relayout_work_t *w;
    rs_error_t err;
    assert_int_equal(relayout_new(b, NULL, 4, 4, &r, &err), RS_OK);
    assert_int_equal(relayout_work_new(4, &w, &err), RS_OK);
    arena_buf_t c[4] = { { 0, 0, 4 }, { 8, 0, 9 }, { 0, 2, 3 }, { 4, 1, 5 } };
    uint8_t p[4] = { 1, 1, 0, 1 };
    assert_int_equal(expect_same(r, w, c, p, 4, 4, INT64_MAX, "zero bytes"), 12);
    int64_t off[4];
    relayout_offsets(r, w, off);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[2], -1);
    assert_int_equal(relayout_rebase(r, w, &err), RS_OK);
    expect_ref(r, c, p, 4, 4, "zero bytes rebased");
    relayout_work_free(w);
    relayout_free(r);
}

/* A work run against one version of a reference cannot rebase another. */
static void test_rebase_of_another_version(void **state)
{
    (void)state;
    arena_buf_t b[2] = { { 4, 0, 1 }, { 4, 1, 2 } };
    relayout_t *r;
    relayout_work_t *w1, *w2;
    rs_error_t err;
    assert_int_equal(relayout_new(b, NULL, 2, 1, &r, &err), RS_OK);
    assert_int_equal(relayout_work_new(2, &w1, &err), RS_OK);
    assert_int_equal(relayout_work_new(2, &w2, &err), RS_OK);
    uint8_t p[2] = { 1, 0 };
    int64_t h;
    assert_int_equal(relayout_run(r, w1, b, p, &h, &err), RS_OK);
    assert_int_equal(relayout_run(r, w2, b, NULL, &h, &err), RS_OK);
    assert_int_equal(relayout_rebase(r, w1, &err), RS_OK);
    assert_int_equal(relayout_rebase(r, w2, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "another reference"));
    relayout_work_free(w1);
    relayout_work_free(w2);
    relayout_free(r);
}

/* ---- random ---------------------------------------------------------------------- */

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

/* Changes a few buffers of (b, p) at random. */
static void change(unsigned *s, arena_buf_t *b, uint8_t *p, int32_t n, int64_t steps, int many)
{
    int k = 1 + (int)(rnd(s) % (unsigned)many);
    for (int c = 0; c < k; c++) {
        int32_t i = (int32_t)(rnd(s) % (unsigned)n);
        switch (rnd(s) % 6) {
        case 0: p[i] = !p[i]; break;
        case 1: b[i].end += rnd(s) % 10; break;
        case 2: b[i].end = b[i].start + rnd(s) % (unsigned)(b[i].end - b[i].start + 1); break;
        case 3: b[i].size = rnd(s) % 80; break;
        case 4:
            b[i].start = rnd(s) % (unsigned)steps;
            if (b[i].end < b[i].start)
                b[i].end = b[i].start;
            break;
        default: p[i] = 0; break;
        }
    }
}

/* A run that gave up and moved many buffers leaves a reference without
 * profiles; runs against it lay out from scratch around the prefix no
 * change reaches, and relayout_prepare makes the profiles on the third
 * call, after which runs cascade again.  b0 (100 B, steps 0-9) at 0 under
 * twenty 1-byte buffers b1..b20 at 100..119: without b0 all twenty drop
 * by 100, more than 20 / 16 + 8. */
static void test_lazy_reference(void **state)
{
    (void)state;
    enum { N = 21 };
    arena_buf_t b[N];
    uint8_t p[N];
    for (int32_t i = 0; i < N; i++) {
        b[i] = (arena_buf_t){ i ? 1 : 100, 0, 9 };
        p[i] = 1;
    }
    relayout_t *r;
    relayout_work_t *w;
    rs_error_t err;
    relayout_stats_t st;
    assert_int_equal(relayout_new(b, p, N, 1, &r, &err), RS_OK);
    assert_int_equal(relayout_work_new(N, &w, &err), RS_OK);
    assert_false(r->lazy);
    p[0] = 0;
    assert_int_equal(expect_same(r, w, b, p, N, 1, 0, "b0 gone, no budget"), 20);
    assert_int_equal(w->fmoved, 20);
    assert_int_equal(relayout_rebase(r, w, &err), RS_OK);
    assert_true(r->lazy);
    expect_ref(r, b, p, N, 1, "lazy reference");
    p[0] = 1; /* b0 comes first again: nothing is pinned */
    assert_int_equal(expect_same(r, w, b, p, N, 1, INT64_MAX, "b0 back"), 120);
    relayout_work_stats(w, &st);
    assert_int_equal(st.full, 2);
    assert_int_equal(st.gave_up, 1);
    p[0] = 0;
    b[20].end = 8; /* still last in the order: b1..b19 are pinned */
    assert_int_equal(expect_same(r, w, b, p, N, 1, INT64_MAX, "b20 shorter"), 20);
    relayout_work_stats(w, &st);
    assert_int_equal(st.full, 3);
    assert_int_equal(w->fmoved, 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(relayout_prepare(r, &err), RS_OK);
        assert_true(r->lazy);
    }
    assert_int_equal(relayout_prepare(r, &err), RS_OK);
    assert_false(r->lazy);
    assert_int_equal(expect_same(r, w, b, p, N, 1, INT64_MAX, "b20 shorter, cascaded"), 20);
    relayout_work_stats(w, &st);
    assert_int_equal(st.full, 3);
    /* a run that gave up but moved little leaves the profiles made: b1
     * lives longer, still first in the order and at 0 */
    b[1].end = 10;
    assert_int_equal(expect_same(r, w, b, p, N, 1, 0, "b1 longer, no budget"), 20);
    relayout_work_stats(w, &st);
    assert_int_equal(st.full, 4);
    assert_int_equal(w->fmoved, 0);
    assert_int_equal(relayout_rebase(r, w, &err), RS_OK);
    assert_false(r->lazy);
    b[1].end = 9;
    assert_int_equal(expect_same(r, w, b, p, N, 1, INT64_MAX, "b1 back"), 20);
    relayout_work_stats(w, &st);
    assert_int_equal(st.full, 4);
    relayout_work_free(w);
    relayout_free(r);
}

static void test_random_changes(void **state)
{
    (void)state;
    int64_t runs = 0, lazy_runs = 0, made = 0;
    for (unsigned t = 0; t < 400; t++) {
        unsigned s = t * 7919u + 1;
        int32_t n = 5 + (int32_t)(rnd(&s) % 120);
        int64_t alignment = 1 + rnd(&s) % 4, steps = 2 + rnd(&s) % 60;
        arena_buf_t *b = malloc((size_t)n * sizeof *b), *c = malloc((size_t)n * sizeof *c);
        uint8_t *p = malloc((size_t)n), *q = malloc((size_t)n);
        for (int32_t i = 0; i < n; i++) {
            b[i].start = rnd(&s) % (unsigned)steps;
            b[i].end = b[i].start + rnd(&s) % (1 + rnd(&s) % (unsigned)steps);
            b[i].size = rnd(&s) % 3 == 0 ? rnd(&s) % 4 : 1 + rnd(&s) % 64;
            p[i] = rnd(&s) % 5 != 0;
            if (rnd(&s) % 20 == 0)
                b[i].size = 0;
            if (rnd(&s) % 4 == 0) { /* full-span buffers, as a routine's residents */
                b[i].start = 0;
                b[i].end = steps + 5;
            }
        }
        relayout_t *r;
        relayout_work_t *w;
        rs_error_t err;
        assert_int_equal(relayout_new(b, p, n, alignment, &r, &err), RS_OK);
        assert_int_equal(relayout_work_new(n, &w, &err), RS_OK);
        expect_ref(r, b, p, n, alignment, "built");
        for (int it = 0; it < 40; it++) {
            memcpy(c, b, (size_t)n * sizeof *b);
            memcpy(q, p, (size_t)n);
            change(&s, c, q, n, steps, rnd(&s) % 4 == 0 ? 10 : 3);
            /* budgets that give up at once, part way, or never */
            int64_t budget = rnd(&s) % 3 == 0 ? rnd(&s) % 200 : rnd(&s) % 2 ? INT64_MAX : 16 * (int64_t)n + 4096;
            char what[64];
            snprintf(what, sizeof what, "trial %u change %d", t, it);
            bool was_lazy = r->lazy;
            if (rnd(&s) % 2)
                assert_int_equal(relayout_prepare(r, &err), RS_OK);
            made += was_lazy && !r->lazy;
            lazy_runs += r->lazy;
            expect_same(r, w, c, q, n, alignment, budget, what);
            runs++;
            if (rnd(&s) % 3 == 0) {
                assert_int_equal(relayout_rebase(r, w, &err), RS_OK);
                memcpy(b, c, (size_t)n * sizeof *b);
                memcpy(p, q, (size_t)n);
                expect_ref(r, b, p, n, alignment, what);
            }
        }
        relayout_work_free(w);
        relayout_free(r);
        free(b);
        free(c);
        free(p);
        free(q);
    }
    assert_int_equal(runs, 16000);
    assert_true(lazy_runs > 500); /* both kinds of reference, and the change between them, were tried */
    assert_true(made > 50);
}

/* A work keeps one layout engine for its layouts from scratch, told only
 * what changed since its last run, across runs against other references:
 * on random sets (no budget, so every run lays out from scratch around
 * the prefix no change reaches) it gives the offsets of a fresh work and
 * of the greedy from scratch, and makes its engine once while no start
 * changes (sizes, ends and presence do), again when one does. */
static void test_engine_reused(void **state)
{
    (void)state;
    int64_t runs = 0, remade = 0;
    for (unsigned t = 0; t < 120; t++) {
        unsigned s = t * 104729u + 7;
        int32_t n = 5 + (int32_t)(rnd(&s) % 150);
        int64_t alignment = 1 + rnd(&s) % 4, steps = 2 + rnd(&s) % 60;
        arena_buf_t *b = malloc((size_t)n * sizeof *b), *c = malloc((size_t)n * sizeof *c);
        uint8_t *p = malloc((size_t)n), *q = malloc((size_t)n);
        int64_t *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
        for (int32_t i = 0; i < n; i++) {
            b[i].start = rnd(&s) % (unsigned)steps;
            b[i].end = b[i].start + rnd(&s) % (1 + rnd(&s) % (unsigned)steps);
            b[i].size = rnd(&s) % 20 == 0 ? 0 : 1 + rnd(&s) % 64;
            p[i] = rnd(&s) % 5 != 0;
        }
        relayout_t *r;
        relayout_work_t *w;
        rs_error_t err;
        relayout_stats_t st;
        assert_int_equal(relayout_new(b, p, n, alignment, &r, &err), RS_OK);
        assert_int_equal(relayout_work_new(n, &w, &err), RS_OK);
        bool starts_moved = false;
        for (int it = 0; it < 30; it++) {
            memcpy(c, b, (size_t)n * sizeof *b);
            memcpy(q, p, (size_t)n);
            int k = 1 + (int)(rnd(&s) % 6);
            for (int j = 0; j < k; j++) { /* flips: presence, ends and sizes; now and then a start */
                int32_t i = (int32_t)(rnd(&s) % (unsigned)n);
                switch (rnd(&s) % 4) {
                case 0: q[i] = !q[i]; break;
                case 1: c[i].end = c[i].start + rnd(&s) % (unsigned)steps; break;
                case 2: c[i].size = rnd(&s) % 80; break;
                default:
                    if (rnd(&s) % 8 == 0) {
                        c[i].start += 1 + rnd(&s) % 3;
                        c[i].end = c[i].start + rnd(&s) % 4;
                        starts_moved = true;
                    }
                    break;
                }
            }
            char what[64];
            snprintf(what, sizeof what, "engine trial %u run %d", t, it);
            expect_same(r, w, c, q, n, alignment, 0, what);
            relayout_offsets(r, w, x);
            relayout_work_t *f;
            int64_t hf;
            assert_int_equal(relayout_work_new(n, &f, &err), RS_OK);
            assert_int_equal(relayout_run_budget(r, f, c, q, 0, &hf, &err), RS_OK);
            relayout_offsets(r, f, y);
            relayout_work_free(f);
            assert_memory_equal(x, y, (size_t)n * sizeof *x);
            relayout_work_stats(w, &st);
            if (!starts_moved)
                assert_true(st.engines <= 1);
            runs++;
            if (rnd(&s) % 4 == 0) { /* another reference, the same work */
                relayout_free(r);
                memcpy(b, c, (size_t)n * sizeof *b);
                memcpy(p, q, (size_t)n);
                assert_int_equal(relayout_new(b, p, n, alignment, &r, &err), RS_OK);
            }
        }
        relayout_work_stats(w, &st);
        assert_true(st.full > 0);
        remade += st.engines > 1;
        relayout_work_free(w);
        relayout_free(r);
        free(b);
        free(c);
        free(p);
        free(q);
        free(x);
        free(y);
    }
    assert_int_equal(runs, 3600);
    assert_true(remade > 10); /* a new start made the engine again, and it stayed exact */
}

/* Random removals and span extensions on one CSV, against bestfit. */
static int64_t bench_file(const char *path, int runs)
{
    minimalloc_problem_t mp;
    rs_error_t err;
    if (minimalloc_read(path, &mp, &err))
        fail_msg("%s: %s", path, err.msg);
    int32_t n = mp.n;
    relayout_t *r;
    relayout_work_t *w;
    assert_int_equal(relayout_new(mp.bufs, NULL, n, 1, &r, &err), RS_OK);
    assert_int_equal(relayout_work_new(n, &w, &err), RS_OK);
    expect_ref(r, mp.bufs, NULL, n, 1, path);
    arena_buf_t *c = malloc((size_t)n * sizeof *c);
    uint8_t *q = malloc((size_t)n);
    int64_t hi = 0;
    for (int32_t i = 0; i < n; i++)
        hi = mp.bufs[i].end > hi ? mp.bufs[i].end : hi;
    unsigned s = (unsigned)n;
    for (int k = 0; k < runs; k++) {
        memcpy(c, mp.bufs, (size_t)n * sizeof *c);
        memset(q, 1, (size_t)n);
        int changes = 1 + (int)(rnd(&s) % 3);
        for (int j = 0; j < changes; j++) {
            int32_t i = (int32_t)(rnd(&s) % (unsigned)n);
            if (rnd(&s) % 2)
                q[i] = 0; /* removed */
            else
                c[i].end += (c[i].end - c[i].start) / 2 + 1; /* lengthened */
        }
        char what[600];
        snprintf(what, sizeof what, "%s change %d", path, k);
        expect_same(r, w, c, q, n, 1, 16 * (int64_t)n + 4096, what);
    }
    free(c);
    free(q);
    relayout_work_free(w);
    relayout_free(r);
    minimalloc_free(&mp);
    return runs;
}

static void bench_dir(const char *dir, int small_runs, int big_runs)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".csv"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        minimalloc_problem_t mp;
        rs_error_t err;
        if (minimalloc_read(path, &mp, &err))
            fail_msg("%s: %s", path, err.msg);
        int32_t n = mp.n;
        minimalloc_free(&mp);
        bench_file(path, n > 10000 ? big_runs : small_runs);
        files++;
    }
    closedir(d);
    assert_true(files > 0);
}

static void test_minimalloc_files(void **state)
{
    (void)state;
    bench_dir(RS_BENCH_DIR "/minimalloc", 30, 3);
}

static void test_real_files(void **state)
{
    (void)state;
    bench_dir(RS_BENCH_DIR "/real", 10, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_removal_cascades),
        cmocka_unit_test(test_removal_stops),
        cmocka_unit_test(test_span_moves_in_order),
        cmocka_unit_test(test_zero_bytes),
        cmocka_unit_test(test_rebase_of_another_version),
        cmocka_unit_test(test_lazy_reference),
        cmocka_unit_test(test_random_changes),
        cmocka_unit_test(test_engine_reused),
        cmocka_unit_test(test_minimalloc_files),
        cmocka_unit_test(test_real_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
