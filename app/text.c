#include "text.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/units.h"
#include "util/utf8.h"
#include "plan/fit.h"
#include "plan/floor.h"

/* Escapes the character at p into out (at most 6 bytes, no NUL); returns
 * how many bytes of p it took and sets *w to how many it wrote.  A C0
 * control or a byte that is not UTF-8 is \xNN, a C1 control \u0080 to
 * \u009f (a terminal takes U+009B for CSI as it takes \x1b[). */
static size_t escape_one(const unsigned char *p, char *out, size_t *w)
{
    size_t len = utf8_seq_len((const char *)p, 4); /* p is NUL-terminated: the scan stops at the NUL */
    if (*p == '\n' || *p == '\t' || *p == '\r') {
        out[0] = '\\';
        out[1] = *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r';
        *w = 2;
        return 1;
    }
    if (len == 0 || *p < 0x20 || *p == 0x7f) {
        char tmp[8];
        snprintf(tmp, sizeof tmp, "\\x%02x", *p);
        memcpy(out, tmp, 4);
        *w = 4;
        return 1;
    }
    if (utf8_is_c1((const char *)p, len)) {
        char tmp[8];
        snprintf(tmp, sizeof tmp, "\\u%04x", (unsigned)p[1]);
        memcpy(out, tmp, 6);
        *w = 6;
        return len;
    }
    memcpy(out, p, len);
    *w = len;
    return len;
}

const char *text_escape(const char *s, char *buf, size_t n)
{
    size_t w = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        char one[8];
        size_t k;
        size_t took = escape_one(p, one, &k);
        if (w + k + 1 > n)
            break;
        memcpy(buf + w, one, k);
        w += k;
        p += took;
    }
    if (n)
        buf[w] = 0;
    return buf;
}

void text_recompute(int64_t extra, int64_t baseline_compute, int64_t flops_per_s, const char *profile, char *buf,
                    size_t n)
{
    char f[32], t[32];
    units_format_flops(extra, f, sizeof f);
    double pct = baseline_compute ? 100.0 * (double)extra / (double)baseline_compute : 0.0;
    int w = snprintf(buf, n, "%s%s (%+.3f%%)", extra >= 0 ? "+" : "", f, pct);
    if (flops_per_s > 0 && w >= 0 && (size_t)w < n) {
        units_format_seconds((double)extra / (double)flops_per_s, t, sizeof t);
        snprintf(buf + w, n - (size_t)w, ", about %s%s on %s", extra >= 0 ? "+" : "", t, profile);
    }
}

void text_roles(const int64_t role[4], const char *candidate, char *buf, size_t n)
{
    char r[32], o[32], p[32], c[32];
    units_format_bytes(role[LOWER_RESIDENT], r, sizeof r);
    units_format_bytes(role[LOWER_OUTPUT], o, sizeof o);
    units_format_bytes(role[LOWER_PINNED], p, sizeof p);
    int w = snprintf(buf, n, "resident %s, output %s, pinned %s", r, o, p);
    if (candidate && w >= 0 && (size_t)w < n) {
        units_format_bytes(role[LOWER_CANDIDATE], c, sizeof c);
        snprintf(buf + w, n - (size_t)w, ", %s %s", candidate, c);
    }
}

void text_floor(const floor_t *f, const char *candidate, char *buf, size_t n)
{
    char b[64], roles[192];
    units_format_bytes_exact(f->bytes, b, sizeof b);
    text_roles(f->role, candidate, roles, sizeof roles);
    snprintf(buf, n, "%s at step %d: %s", b, (int)f->step, roles);
}

int text_floor_below(int64_t budget, const floor_fit_t *ff, char *buf, size_t n)
{
    char b[64], t[512];
    if (n)
        buf[0] = 0;
    if (budget < 0)
        return 0;
    units_format_bytes_exact(budget, b, sizeof b);
    if (budget < ff->floor.bytes) {
        text_floor(&ff->floor, NULL, t, sizeof t);
        snprintf(buf, n, "the budget %s is below the floor %s: no plan can reach it", b, t);
        return 1;
    }
    if (ff->dropped > 0 && budget < ff->cap.bytes) {
        text_floor(&ff->cap, "dropped candidates", t, sizeof t);
        snprintf(buf, n, "the budget %s is below the floor under the cap, %s: no plan of the %d cheapest of %d "
                 "candidates can reach it", b, t, (int)(ff->candidates - ff->dropped), (int)ff->candidates);
        return 2;
    }
    return 0;
}

bool text_cap_hides(const fit_plan_t *p, const char *spec, const char *how, char *buf, size_t n)
{
    if (n)
        buf[0] = 0;
    if (p->minimize || p->dropped <= 0 || p->budget < p->floor.bytes || p->budget >= p->floor_cap.bytes)
        return false;
    char b[32], fl[32];
    if (spec && spec[0])
        snprintf(b, sizeof b, "%.31s", spec);
    else
        units_format_bytes(p->budget, b, sizeof b);
    units_format_bytes(p->floor.bytes, fl, sizeof fl);
    snprintf(buf, n, "the cap of %d keeps %s out of reach; every candidate reaches down to %s: %s",
             (int)(p->cap > 0 ? p->cap : p->considered),
             b, fl, how);
    return true;
}

bool text_cap_may(const fit_plan_t *p, char *buf, size_t n)
{
    if (n)
        buf[0] = 0;
    bool hidden = p->budget >= p->floor.bytes && p->budget < p->floor_cap.bytes; /* text_cap_hides says it */
    if (p->minimize || p->within_budget || p->dropped <= 0 || text_below_floor(p) || hidden)
        return false;
    char by[32];
    units_format_bytes(p->final.total - p->budget, by, sizeof by);
    snprintf(buf, n, "missed by %s; the cap kept %d of %s: C all may reach it", by, (int)p->considered,
             text_count(p->considered + p->dropped, "candidate", NULL));
    return true;
}

bool text_free_flips(const fit_plan_t *p, int32_t n_flips, int64_t total, int64_t compute, char *buf, size_t n)
{
    if (n)
        buf[0] = 0;
    if (p->minimize || p->n_flips || p->baseline.total > p->budget)
        return false;
    char saved[32], f[32], added[48] = "no compute";
    units_format_bytes(p->baseline.total - total, saved, sizeof saved);
    if (compute != p->baseline.compute) {
        units_format_flops(compute - p->baseline.compute, f, sizeof f);
        snprintf(added, sizeof added, "%s%s", compute > p->baseline.compute ? "+" : "", f);
    }
    const char *s = n_flips == 1 ? "s" : "";
    if (n_flips > 0 && total < p->baseline.total)
        snprintf(buf, n, "%s that add%s %s save%s %s", text_count(n_flips, "flip", NULL), s, added, s, saved);
    return true;
}

bool text_below_floor(const fit_plan_t *p)
{
    return !p->within_budget && !p->minimize && p->budget < p->floor.bytes;
}

const char *text_within(const fit_plan_t *p)
{
    if (p->within_budget)
        return "yes";
    if (text_below_floor(p))
        return "no, floor";
    if (!p->minimize && p->dropped > 0 && p->budget < p->floor_cap.bytes)
        return "no, cap";
    return "no";
}

const char *text_shown(const char *s)
{
    /* a thread's own: the TUI's worker (an import's report) and its screen both escape */
    static _Thread_local char bufs[8][16384];
    static _Thread_local unsigned next;
    char *b = bufs[next++ % 8];
    return text_escape(s ? s : "", b, sizeof bufs[0]);
}

/* text_count's and text_noun's rotating buffers, each thread its own */
static char *count_buf(size_t *n)
{
    static _Thread_local char bufs[8][96];
    static _Thread_local unsigned next;
    *n = sizeof bufs[0];
    return bufs[next++ % 8];
}

const char *text_noun(int64_t n, const char *one, const char *many)
{
    if (n == 1 || many)
        return n == 1 ? one : many;
    size_t len;
    char *b = count_buf(&len);
    snprintf(b, len, "%ss", one);
    return b;
}

const char *text_count(int64_t n, const char *one, const char *many)
{
    size_t len;
    char *b = count_buf(&len);
    snprintf(b, len, "%lld %s", (long long)n, text_noun(n, one, many));
    return b;
}

const char *text_signed_flops(int64_t v, char *buf, size_t n)
{
    char f[32];
    units_format_flops(v < 0 ? -v : v, f, sizeof f);
    snprintf(buf, n, "%s%s", v < 0 ? "-" : "+", f);
    return buf;
}

int text_print(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        char one[8];
        size_t k;
        p += escape_one(p, one, &k);
        if (fwrite(one, 1, k, f) != k)
            return -1;
    }
    return 0;
}

size_t text_bytes_for_cols(const char *s, int w, int *cols)
{
    size_t i = 0;
    int c = 0;
    while (s[i] && c < w) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        c++;
    }
    *cols = c;
    return i;
}

bool text_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}
