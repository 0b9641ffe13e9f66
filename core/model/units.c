#include "model/units.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/checked.h"

static int bad(rs_error_t *err, const char *what, const char *text, size_t pos, const char *msg)
{
    return error_set(err, RS_EINPUT, what, 1, (int)pos + 1, "%s in '%s'", msg, text);
}

struct unit {
    const char *name;
    int64_t scale;
};

static const struct unit UNITS[] = {
    { "", 1 },          { "b", 1 },
    { "k", 1000LL },    { "kb", 1000LL },    { "kib", 1LL << 10 }, { "ki", 1LL << 10 },
    { "m", 1000000LL }, { "mb", 1000000LL }, { "mib", 1LL << 20 }, { "mi", 1LL << 20 },
    { "g", 1000000000LL }, { "gb", 1000000000LL }, { "gib", 1LL << 30 }, { "gi", 1LL << 30 },
    { "t", 1000000000000LL }, { "tb", 1000000000000LL }, { "tib", 1LL << 40 }, { "ti", 1LL << 40 },
};

/* Parses "digits[.digits]" into mantissa/10^frac_digits; returns end offset
 * or -1 on overflow / no digits. */
static int parse_decimal(const char *s, size_t i, int64_t *mant, int *frac_digits, bool *overflow)
{
    size_t start = i;
    int64_t m = 0;
    int fd = 0;
    bool dot = false;
    *overflow = false;
    for (;; i++) {
        char c = s[i];
        if (c == '.' && !dot) {
            dot = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        if (fd >= 18 && dot)
            continue; /* digits past 1e-18 cannot change a byte count */
        if (!checked_mul(m, 10, &m) || !checked_add(m, c - '0', &m)) {
            *overflow = true;
            return -1;
        }
        if (dot)
            fd++;
    }
    if (i == start || (i == start + 1 && dot))
        return -1;
    *mant = m;
    *frac_digits = fd;
    return (int)i;
}

int units_parse_budget(const char *text, const char *what, budget_spec_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    size_t i = 0, n = strlen(text);
    while (i < n && isspace((unsigned char)text[i]))
        i++;
    while (n > i && isspace((unsigned char)text[n - 1]))
        n--;
    if (i == n)
        return bad(err, what, text, i, "expected a budget (bytes with a unit, N%, device or minimize)");
    if (n - i == 8 && strncasecmp(text + i, "minimize", 8) == 0) {
        out->kind = BUDGET_MINIMIZE;
        return RS_OK;
    }
    if (n - i == 6 && strncasecmp(text + i, "device", 6) == 0) {
        out->kind = BUDGET_DEVICE;
        return RS_OK;
    }
    size_t sign = i;
    bool neg = text[i] == '-';
    if (text[i] == '+' || neg)
        i++;
    int64_t mant;
    int fd;
    bool ovf;
    int end = parse_decimal(text, i, &mant, &fd, &ovf);
    if (end < 0)
        return bad(err, what, text, i, ovf ? "number too large" :
                   "expected a number with an optional unit (48MiB, 1.5GB), N%, device or minimize");
    if (neg && mant != 0) /* -0 is a zero like 0 */
        return bad(err, what, text, sign, "a budget cannot be negative");
    size_t u = (size_t)end;
    int64_t pow10 = 1;
    for (int k = 0; k < fd; k++)
        pow10 *= 10;
    if (u < n && text[u] == '%') {
        if (u + 1 != n)
            return bad(err, what, text, u + 1, "unexpected text after '%'");
        out->kind = BUDGET_PERCENT;
        out->pct_num = mant;
        if (!checked_mul(pow10, 100, &out->pct_den))
            return bad(err, what, text, i, "too many decimals");
        return RS_OK;
    }
    char unit[8];
    size_t ul = n - u;
    if (ul >= sizeof unit)
        return bad(err, what, text, u, "unknown unit (expected B, kB, KiB, MB, MiB, GB, GiB, TB, TiB or %)");
    for (size_t k = 0; k < ul; k++)
        unit[k] = (char)tolower((unsigned char)text[u + k]);
    unit[ul] = 0;
    for (size_t k = 0; k < sizeof UNITS / sizeof UNITS[0]; k++) {
        if (strcmp(UNITS[k].name, unit) != 0)
            continue;
        __int128 v = (__int128)mant * UNITS[k].scale / pow10;
        if (v > INT64_MAX)
            return bad(err, what, text, i, "budget too large (over 2^63 bytes)");
        out->kind = BUDGET_BYTES;
        out->bytes = (int64_t)v;
        return RS_OK;
    }
    return bad(err, what, text, u, "unknown unit (expected B, kB, KiB, MB, MiB, GB, GiB, TB, TiB or %)");
}

int units_budget_resolve(const budget_spec_t *b, int64_t baseline_total, int64_t device_bytes,
                         int64_t *bytes, bool *minimize, rs_error_t *err)
{
    *minimize = false;
    *bytes = -1;
    switch (b->kind) {
    case BUDGET_MINIMIZE:
        *minimize = true;
        return RS_OK;
    case BUDGET_BYTES:
        *bytes = b->bytes;
        return RS_OK;
    case BUDGET_DEVICE:
        if (device_bytes < 0)
            return error_set(err, RS_EINPUT, "--budget", 0, 0,
                             "budget 'device' needs a hardware profile (--profile NAME)");
        *bytes = device_bytes;
        return RS_OK;
    case BUDGET_PERCENT: {
        __int128 v = (__int128)baseline_total * b->pct_num / b->pct_den;
        if (v > INT64_MAX)
            return error_set(err, RS_EINPUT, "--budget", 0, 0, "budget too large");
        *bytes = (int64_t)v;
        return RS_OK;
    }
    }
    return error_set(err, RS_EINVAL, NULL, 0, 0, "unknown budget kind");
}

int units_parse_int(const char *text, const char *what, int64_t min, int64_t max,
                    int64_t *out, rs_error_t *err)
{
    size_t i = 0;
    int64_t v = 0;
    bool neg = false;
    if (text[i] == '-') {
        neg = true;
        i++;
    }
    if (text[i] < '0' || text[i] > '9')
        return error_set(err, RS_EINPUT, what, 0, 0, "expected an integer, found '%s'", text);
    for (; text[i] >= '0' && text[i] <= '9'; i++)
        if (!checked_mul(v, 10, &v) || !checked_add(v, text[i] - '0', &v))
            return error_set(err, RS_EINPUT, what, 0, 0, "integer '%s' does not fit in 64 bits", text);
    if (text[i])
        return error_set(err, RS_EINPUT, what, 0, 0, "expected an integer, found '%s'", text);
    if (neg)
        v = -v;
    if (v < min || v > max)
        return error_set(err, RS_EINPUT, what, 0, 0, "%s is out of range [%lld, %lld]", text,
                         (long long)min, (long long)max);
    *out = v;
    return RS_OK;
}

/* Whether text, as units_format_bytes wrote it ("7.45 GiB"), reads back as
 * exactly bytes: then it says all the typed spec said. */
static bool says_exactly(const char *text, int64_t bytes)
{
    char joined[32];
    size_t k = 0;
    for (const char *c = text; *c && k + 1 < sizeof joined; c++)
        if (*c != ' ')
            joined[k++] = *c;
    joined[k] = 0;
    budget_spec_t spec;
    rs_error_t err;
    return units_parse_budget(joined, "budget", &spec, &err) == RS_OK && spec.kind == BUDGET_BYTES &&
           spec.bytes == bytes;
}

void units_format_budget(const char *asked, bool minimize, int64_t bytes, char *buf, size_t n)
{
    if (minimize) {
        snprintf(buf, n, "minimize");
        return;
    }
    char b[32];
    units_format_bytes(bytes, b, sizeof b);
    budget_spec_t spec;
    rs_error_t err;
    /* a size keeps its spec when the bytes shown round it ("8GB = 7.45
     * GiB": "7.45 GiB" alone read as another budget than the one typed) */
    if (asked && asked[0] && units_parse_budget(asked, "budget", &spec, &err) == RS_OK &&
        (spec.kind == BUDGET_PERCENT || spec.kind == BUDGET_DEVICE ||
         (spec.kind == BUDGET_BYTES && !says_exactly(b, bytes))))
        snprintf(buf, n, "%s = %s", asked, b);
    else
        snprintf(buf, n, "%s", b);
}

void units_format_bytes(int64_t bytes, char *buf, size_t n)
{
    static const char *names[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    if (bytes < 1024 && bytes > -1024) {
        snprintf(buf, n, "%lld B", (long long)bytes);
        return;
    }
    double v = (double)bytes;
    int k = -1;
    while ((v >= 1024.0 || v <= -1024.0) && k < 5) {
        v /= 1024.0;
        k++;
    }
    double a = v < 0 ? -v : v;
    snprintf(buf, n, a >= 100 ? "%.0f %s" : a >= 10 ? "%.1f %s" : "%.2f %s", v, names[k]);
}

/* v in the first of units (each scale 1000 times the last) where it reads
 * below 1000 after rounding to three significant digits (999.7 k is
 * "1.00 M", not "1000 k"). */
static void format_3(double v, const char *const *units, int n_units, const double *scale, char *buf, size_t n)
{
    double a = v < 0 ? -v : v;
    int k = 0;
    while (k + 1 < n_units && a / scale[k] >= 999.5)
        k++;
    double x = v / scale[k], ax = x < 0 ? -x : x;
    snprintf(buf, n, ax >= 99.95 ? "%.0f %s" : ax >= 9.995 ? "%.1f %s" : "%.2f %s", x, units[k]);
}

void units_format_flops(int64_t flops, char *buf, size_t n)
{
    static const char *units[] = { "FLOPs", "kFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs", "EFLOPs" };
    static const double scale[] = { 1, 1e3, 1e6, 1e9, 1e12, 1e15, 1e18 };
    if (flops < 1000 && flops > -1000) {
        snprintf(buf, n, "%lld FLOPs", (long long)flops);
        return;
    }
    format_3((double)flops, units, 7, scale, buf, n);
}

void units_format_seconds(double s, char *buf, size_t n)
{
    static const char *units[] = { "ns", "us", "ms", "s" };
    static const double scale[] = { 1e-9, 1e-6, 1e-3, 1 };
    double a = s < 0 ? -s : s;
    if (a >= 3600)
        snprintf(buf, n, "%.2f h", s / 3600);
    else if (a >= 60)
        snprintf(buf, n, a >= 599.5 ? "%.1f min" : "%.2f min", s / 60);
    else if (a == 0)
        snprintf(buf, n, "0 s");
    else
        format_3(s, units, 4, scale, buf, n);
}

void units_format_bytes_exact(int64_t bytes, char *buf, size_t n)
{
    char b[32];
    units_format_bytes(bytes, b, sizeof b);
    if (bytes < 1024 && bytes > -1024)
        snprintf(buf, n, "%s", b);
    else
        snprintf(buf, n, "%s (%lld B)", b, (long long)bytes);
}
