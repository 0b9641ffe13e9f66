/* relayout_cover: cover profiles, the union of a buffer's conflicting
 * placements with how many buffers cover each piece (relayout_int.h). */
#include <stdlib.h>
#include <string.h>

#include "layout/relayout_int.h"
#include "util/vec.h"

int relayout_list_reserve(rl_list_t *l, int64_t need)
{
    return vec_reserve((void **)&l->v, &l->cap, need, sizeof *l->v);
}

static int32_t count_inc(int32_t c)
{
    if (c == 0)
        return 1;
    if (c > 0)
        return c + 1 <= RELAYOUT_CAP ? c + 1 : -RELAYOUT_CAP;
    return -c + 1 < RELAYOUT_CAP ? c - 1 : -RELAYOUT_CAP;
}

/* 0 when no buffer is left; *unknown when it can no longer be told */
static int32_t count_dec(int32_t c, bool *unknown)
{
    if (c > 0)
        return c - 1;
    if (c < -1)
        return c + 1;
    *unknown = true;
    return 0;
}

/* First piece ending after a. */
static int32_t first_after(const rl_seg_t *v, int32_t n, int64_t a)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t m = lo + (hi - lo) / 2;
        if (v[m].hi <= a)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

static void put(rl_seg_t *t, int32_t *k, int64_t lo, int64_t hi, int32_t cnt)
{
    if (lo >= hi || cnt == 0)
        return;
    if (*k && t[*k - 1].hi == lo && t[*k - 1].cnt == cnt) {
        t[*k - 1].hi = hi;
        return;
    }
    t[(*k)++] = (rl_seg_t){ lo, hi, cnt, 0 };
}

/* Rewrites the counts over [a, b) with inc (or the decrement), splicing
 * the pieces in place and merging equal neighbours. */
static int apply(rl_list_t *l, int64_t a, int64_t b, bool inc, bool *unknown)
{
    if (a >= b)
        return 0;
    rl_seg_t *v = l->v;
    int32_t n = l->n;
    int32_t i = first_after(v, n, a), j = i;
    while (j < n && v[j].lo < b)
        j++;
    if (inc && j == i + 1 && v[i].lo <= a && v[i].hi >= b && v[i].cnt == -RELAYOUT_CAP)
        return 0; /* already at least the cap: nothing changes */
    /* the neighbours join the rewrite so equal pieces merge */
    int32_t from = i > 0 ? i - 1 : i, to = j < n ? j + 1 : j;
    int32_t room = 4 * (j - i) + 6;
    if (relayout_list_reserve(l, (int64_t)n + room))
        return -1;
    v = l->v;
    rl_seg_t local[64], *t = room <= 64 ? local : malloc((size_t)room * sizeof *t);
    if (!t)
        return -1;
    int32_t k = 0;
    for (int32_t q = from; q < i; q++)
        put(t, &k, v[q].lo, v[q].hi, v[q].cnt);
    int64_t cur = a;
    for (int32_t q = i; q < j; q++) {
        if (v[q].lo < a)
            put(t, &k, v[q].lo, a, v[q].cnt);
        if (cur < v[q].lo)
            put(t, &k, cur, v[q].lo, inc ? count_inc(0) : count_dec(0, unknown));
        int64_t lo = v[q].lo > a ? v[q].lo : a, hi = v[q].hi < b ? v[q].hi : b;
        put(t, &k, lo, hi, inc ? count_inc(v[q].cnt) : count_dec(v[q].cnt, unknown));
        cur = hi;
        if (v[q].hi > b)
            put(t, &k, b, v[q].hi, v[q].cnt);
    }
    if (cur < b)
        put(t, &k, cur, b, inc ? count_inc(0) : count_dec(0, unknown));
    for (int32_t q = j; q < to; q++)
        put(t, &k, v[q].lo, v[q].hi, v[q].cnt);
    memmove(v + from + k, v + to, (size_t)(n - to) * sizeof *v);
    memcpy(v + from, t, (size_t)k * sizeof *v);
    l->n = n - (to - from) + k;
    if (t != local)
        free(t);
    return 0;
}

int relayout_cover_add(rl_list_t *l, int64_t a, int64_t b)
{
    bool unknown = false;
    return apply(l, a, b, true, &unknown);
}

int relayout_cover_sub(rl_list_t *l, int64_t a, int64_t b)
{
    bool unknown = false;
    if (apply(l, a, b, false, &unknown))
        return -1;
    return unknown ? 1 : 0;
}

bool relayout_cover_has(const rl_seg_t *v, int32_t n, int64_t a, int64_t b, int32_t k)
{
    if (a >= b)
        return true;
    int32_t i = first_after(v, n, a);
    int64_t cur = a;
    for (; i < n && cur < b; i++) {
        if (v[i].lo > cur || rl_atleast(v[i].cnt) < k)
            return false;
        cur = v[i].hi;
    }
    return cur >= b;
}

/* Many lists summed by a sweep over a heap of each list's next boundary:
 * log k a boundary where the scan below costs k (a profile made from the
 * count tree sums some thirty lists). */
typedef struct sum_next {
    int64_t x;
    int32_t list;
} sum_next_t;

static void heap_push(sum_next_t *h, int32_t *nh, sum_next_t e)
{
    int32_t i = (*nh)++;
    while (i > 0 && h[(i - 1) / 2].x > e.x) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = e;
}

static sum_next_t heap_pop(sum_next_t *h, int32_t *nh)
{
    sum_next_t top = h[0], e = h[--*nh];
    int32_t i = 0;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= *nh)
            break;
        if (c + 1 < *nh && h[c + 1].x < h[c].x)
            c++;
        if (h[c].x >= e.x)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*nh)
        h[i] = e;
    return top;
}

static int32_t summed_count(int64_t total, bool lb)
{
    return total > RELAYOUT_CAP ? -RELAYOUT_CAP : lb ? -(int32_t)total : (int32_t)total;
}

static int sum_many(const rl_list_t *const *lists, int32_t k, rl_list_t *out)
{
    sum_next_t *h = malloc((size_t)k * sizeof *h);
    int32_t *cur = calloc((size_t)k, sizeof *cur);
    bool *in = calloc((size_t)k, sizeof *in);
    if (!h || !cur || !in) {
        free(h);
        free(cur);
        free(in);
        return -1;
    }
    int32_t nh = 0, m = 0, nlb = 0;
    int64_t total = 0;
    for (int32_t i = 0; i < k; i++)
        if (lists[i]->n)
            heap_push(h, &nh, (sum_next_t){ lists[i]->v[0].lo, i });
    while (nh) {
        int64_t x = h[0].x;
        while (nh && h[0].x == x) {
            int32_t i = heap_pop(h, &nh).list;
            const rl_seg_t *sg = &lists[i]->v[cur[i]];
            int32_t c = rl_atleast(sg->cnt);
            if (!in[i]) { /* its piece begins at x */
                in[i] = true;
                total += c;
                nlb += sg->cnt < 0;
                heap_push(h, &nh, (sum_next_t){ sg->hi, i });
                continue;
            }
            in[i] = false; /* its piece ends at x */
            total -= c;
            nlb -= sg->cnt < 0;
            if (++cur[i] < lists[i]->n)
                heap_push(h, &nh, (sum_next_t){ lists[i]->v[cur[i]].lo, i });
        }
        if (nh && total > 0)
            put(out->v, &m, x, h[0].x, summed_count(total, nlb > 0));
    }
    out->n = m;
    free(h);
    free(cur);
    free(in);
    return 0;
}

int relayout_cover_sum(const rl_list_t *const *lists, int32_t k, rl_list_t *out, rl_list_t *scratch)
{
    (void)scratch;
    out->n = 0;
    int64_t need = 0;
    for (int32_t i = 0; i < k; i++)
        need += 2 * (int64_t)lists[i]->n;
    if (relayout_list_reserve(out, need + 1))
        return -1;
    if (k == 1) {
        if (lists[0]->n)
            memcpy(out->v, lists[0]->v, (size_t)lists[0]->n * sizeof *out->v);
        out->n = lists[0]->n;
        return 0;
    }
    if (k > 4)
        return sum_many(lists, k, out);
    int32_t cur_local[64], *cur = k <= 64 ? cur_local : calloc((size_t)k, sizeof *cur);
    if (!cur)
        return -1;
    memset(cur, 0, (size_t)k * sizeof *cur);
    int64_t x = INT64_MAX;
    for (int32_t i = 0; i < k; i++)
        if (lists[i]->n && lists[i]->v[0].lo < x)
            x = lists[i]->v[0].lo;
    int32_t m = 0;
    while (x != INT64_MAX) {
        int64_t total = 0, nx = INT64_MAX;
        bool lb = false;
        for (int32_t i = 0; i < k; i++) {
            if (cur[i] >= lists[i]->n)
                continue;
            const rl_seg_t *s = &lists[i]->v[cur[i]];
            if (s->lo <= x) {
                total += rl_atleast(s->cnt);
                lb |= s->cnt < 0;
                if (s->hi < nx)
                    nx = s->hi;
            } else if (s->lo < nx) {
                nx = s->lo;
            }
        }
        if (total > 0)
            put(out->v, &m, x, nx, summed_count(total, lb));
        for (int32_t i = 0; i < k; i++)
            if (cur[i] < lists[i]->n && lists[i]->v[cur[i]].hi == nx)
                cur[i]++;
        x = INT64_MAX;
        for (int32_t i = 0; i < k; i++)
            if (cur[i] < lists[i]->n) {
                const rl_seg_t *s = &lists[i]->v[cur[i]];
                int64_t at = s->lo > nx ? s->lo : nx;
                if (at < x)
                    x = at;
            }
    }
    out->n = m;
    if (cur != cur_local)
        free(cur);
    return 0;
}

static void edges_insertion(rl_edge_t *e, int32_t m)
{
    for (int32_t i = 1; i < m; i++) {
        rl_edge_t x = e[i];
        int32_t j = i;
        while (j > 0 && e[j - 1].x > x.x) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = x;
    }
}

/* A quicksort on x with the comparison inlined (qsort's callback was a
 * tenth of a fit's time on buffers that many changes reach). */
void relayout_edges_sort(rl_edge_t *e, int32_t m)
{
    while (m > 24) {
        int64_t a = e[0].x, b = e[m / 2].x, c = e[m - 1].x;
        int64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        int32_t i = -1, j = m; /* Hoare: [0, j] <= pivot <= [j + 1, m) */
        for (;;) {
            do
                i++;
            while (e[i].x < pivot);
            do
                j--;
            while (e[j].x > pivot);
            if (i >= j)
                break;
            rl_edge_t t = e[i];
            e[i] = e[j];
            e[j] = t;
        }
        int32_t left = j + 1;
        if (left <= 0 || left >= m)
            break; /* no split (cannot happen with a median pivot): finish by insertion */
        if (left < m - left) { /* the smaller part by recursion, the larger in the loop */
            relayout_edges_sort(e, left);
            e += left;
            m -= left;
        } else {
            relayout_edges_sort(e + left, m - left);
            m = left;
        }
    }
    edges_insertion(e, m);
}

/* The count after taking rem off and adding add; *unknown when it can no
 * longer be told positive. */
static int32_t count_change(int32_t c, int32_t rem, int32_t add, bool *unknown)
{
    if (c >= 0) {
        int32_t v = c - rem + add;
        if (v < 0) { /* more taken off than counted: cannot be */
            *unknown = true;
            return 0;
        }
        return v <= RELAYOUT_CAP ? v : -RELAYOUT_CAP;
    }
    int32_t v = -c - rem + add;
    if (v < add)
        v = add;
    if (v <= 0) {
        *unknown = true;
        return 0;
    }
    return v < RELAYOUT_CAP ? -v : -RELAYOUT_CAP;
}

int relayout_cover_apply(const rl_seg_t *v, int32_t n, const rl_edge_t *e, int32_t m, rl_list_t *out)
{
    out->n = 0;
    if (relayout_list_reserve(out, (int64_t)n + m + 2))
        return -1;
    bool unknown = false;
    int32_t i = 0, j = 0, k = 0, rem = 0, add = 0;
    int64_t x = INT64_MIN;
    while (i < n || j < m) {
        /* no change under way: the pieces that end by the next edge keep
         * their counts, each put whole (the loop below would stop at both
         * its ends); then the edges at the last one's end */
        if (rem == 0 && add == 0 && i < n && (x != INT64_MIN || v[i].lo > x) && v[i].hi <= (j < m ? e[j].x : INT64_MAX)) {
            int64_t lim = j < m ? e[j].x : INT64_MAX;
            do {
                put(out->v, &k, v[i].lo > x ? v[i].lo : x, v[i].hi, count_change(v[i].cnt, 0, 0, &unknown));
                x = v[i].hi;
                i++;
            } while (i < n && v[i].hi <= lim);
            while (j < m && e[j].x == x) {
                rem += e[j].drem;
                add += e[j].dadd;
                j++;
            }
            continue;
        }
        /* the next boundary: a piece's end or start, or an edge */
        int64_t nx = INT64_MAX;
        if (i < n)
            nx = v[i].lo > x ? v[i].lo : v[i].hi;
        if (j < m && e[j].x < nx)
            nx = e[j].x;
        if (x != INT64_MIN && (rem || add || (i < n && v[i].lo <= x))) {
            int32_t c = i < n && v[i].lo <= x ? v[i].cnt : 0;
            put(out->v, &k, x, nx, count_change(c, rem, add, &unknown));
        }
        x = nx;
        while (j < m && e[j].x == x) {
            rem += e[j].drem;
            add += e[j].dadd;
            j++;
        }
        if (i < n && v[i].hi == x)
            i++;
    }
    out->n = k;
    return unknown ? 1 : 0;
}

int relayout_cover_slice(const rl_seg_t *v, int32_t n, int64_t lo, int64_t hi, rl_list_t *out)
{
    int32_t i = first_after(v, n, lo), j = i;
    while (j < n && v[j].lo < hi)
        j++;
    if (relayout_list_reserve(out, (int64_t)out->n + (j - i) + 1))
        return -1;
    for (; i < j; i++)
        put(out->v, &out->n, v[i].lo > lo ? v[i].lo : lo, v[i].hi < hi ? v[i].hi : hi, v[i].cnt);
    return 0;
}

/* The next run of covered offsets of v from *i on: [*lo, *hi). */
static bool next_run(const rl_seg_t *v, int32_t n, int32_t *i, int64_t *lo, int64_t *hi)
{
    if (*i >= n)
        return false;
    *lo = v[*i].lo;
    *hi = v[*i].hi;
    while (++*i < n && v[*i].lo == *hi)
        *hi = v[*i].hi;
    return true;
}

bool relayout_cover_same_union(const rl_seg_t *a, int32_t na, const rl_seg_t *b, int32_t nb)
{
    int32_t i = 0, j = 0;
    for (;;) {
        int64_t alo = 0, ahi = 0, blo = 0, bhi = 0;
        bool ra = next_run(a, na, &i, &alo, &ahi), rb = next_run(b, nb, &j, &blo, &bhi);
        if (ra != rb)
            return false;
        if (!ra)
            return true;
        if (alo != blo || ahi != bhi)
            return false;
    }
}

int64_t relayout_cover_fit(const rl_seg_t *v, int32_t n, int64_t size)
{
    int64_t cur = 0, best_off = -1, best_gap = INT64_MAX;
    for (int32_t i = 0; i < n; i++) {
        if (v[i].lo > cur) {
            int64_t gap = v[i].lo - cur;
            if (gap >= size && gap < best_gap) {
                best_gap = gap;
                best_off = cur;
                if (gap == size)
                    break; /* nothing fits tighter, and later gaps lie higher */
            }
        }
        if (v[i].hi > cur)
            cur = v[i].hi;
    }
    return best_off >= 0 ? best_off : cur;
}
