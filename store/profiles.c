#include "profiles.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "util/strmap.h"

enum { COL_NAME, COL_MEMORY, COL_ALIGN, COL_DEPTH, COL_FLOPS, COL_BW, NCOLS };
static const char *COLS[NCOLS] = { "name", "memory_bytes", "alignment", "max_inline_depth", "flops_per_s",
                                   "bytes_per_s" };

typedef struct prof_reader {
    profile_list_t *l;
    int32_t cap;
    int map[NCOLS]; /* column index of each known field */
    int ncols;
    bool header_seen;
    strmap_t *seen; /* name -> row index, for "given twice" in constant time */
} prof_reader_t;

/* What parse_sci found: a whole number, text that is no number, or a
 * number with a fraction left ("1.5e0" is 1.5). */
enum { SCI_OK, SCI_BAD, SCI_FRACTION };

/* "312e12", "4096", "15.7e12": an exact non-negative integer, field k of
 * row (blanks around it skipped); a decimal mantissa is taken when its
 * exponent leaves no fraction (issue 43: a spec sheet's "15.7 TFLOP/s" is
 * 15.7e12, refused until then). */
static int parse_sci(const csvio_row_t *row, int k, long long *out)
{
    long long m = 0;
    int e = 0, frac = 0;
    size_t n;
    const char *p = csvio_field_trim(row, k, &n), *end = p + n;
    if (p == end || *p < '0' || *p > '9')
        return SCI_BAD;
    for (bool dot = false; p < end && ((*p >= '0' && *p <= '9') || (*p == '.' && !dot)); p++) {
        if (*p == '.') {
            dot = true;
            if (p + 1 == end || p[1] < '0' || p[1] > '9')
                return SCI_BAD; /* "15." */
            continue;
        }
        if (__builtin_mul_overflow(m, 10, &m) || __builtin_add_overflow(m, *p - '0', &m))
            return SCI_BAD;
        frac += dot;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p == end || *p < '0' || *p > '9')
            return SCI_BAD;
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
            e = e * 10 + (*p - '0');
            if (e > 30)
                return SCI_BAD;
        }
    }
    if (p != end)
        return SCI_BAD;
    /* the digits after the point the exponent does not cover must be zeros */
    for (; frac > e; frac--) {
        if (m % 10)
            return SCI_FRACTION;
        m /= 10;
    }
    for (int i = 0; i < e - frac; i++)
        if (__builtin_mul_overflow(m, 10, &m))
            return SCI_BAD;
    *out = m;
    return SCI_OK;
}

static int on_row(void *ud, const csvio_row_t *row, rs_error_t *err)
{
    prof_reader_t *r = ud;
    if (!r->header_seen) {
        for (int k = 0; k < NCOLS; k++)
            r->map[k] = -1;
        for (int i = 0; i < row->n; i++) {
            int k;
            size_t n;
            const char *h = csvio_field_trim(row, i, &n);
            for (k = 0; k < NCOLS; k++)
                if (n == strlen(COLS[k]) && memcmp(h, COLS[k], n) == 0)
                    break;
            if (k == NCOLS)
                return error_set(err, RS_EINPUT, row->path, row->line, row->col[i],
                                 "unknown column '%.60s' (expected name, memory_bytes, alignment, "
                                 "max_inline_depth, flops_per_s, bytes_per_s)", row->field[i]);
            if (r->map[k] >= 0)
                return error_set(err, RS_EINPUT, row->path, row->line, row->col[i], "column '%s' given twice", COLS[k]);
            r->map[k] = i;
        }
        for (int k = 0; k < NCOLS; k++)
            if (r->map[k] < 0)
                return error_set(err, RS_EINPUT, row->path, row->line, 1, "missing column '%s'", COLS[k]);
        r->ncols = row->n;
        r->header_seen = true;
        return RS_OK;
    }
    int rc = csvio_check_count(row, r->ncols, err);
    if (rc)
        return rc;
    profile_t p;
    memset(&p, 0, sizeof p);
    size_t name_n;
    const char *name = csvio_field_trim(row, r->map[COL_NAME], &name_n); /* a name is a word: blanks go */
    if (!name_n || name_n >= sizeof p.name)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[r->map[COL_NAME]],
                         "a profile name must have 1 to %zu characters", sizeof p.name - 1);
    snprintf(p.name, sizeof p.name, "%.*s", (int)name_n, name);
    long long v[NCOLS];
    for (int k = 1; k < NCOLS; k++) {
        int i = r->map[k];
        int how = parse_sci(row, i, &v[k]);
        if (how == SCI_FRACTION)
            return error_set(err, RS_EINPUT, row->path, row->line, row->col[i],
                             "%s must be a whole number, found '%.40s', which has a fraction (15.7e12 is whole, "
                             "1.5e0 is not)", COLS[k], row->field[i]);
        if (how != SCI_OK)
            return error_set(err, RS_EINPUT, row->path, row->line, row->col[i],
                             "expected a non-negative integer (4096, 312e12 or 15.7e12) for %s, found '%.40s'",
                             COLS[k], row->field[i]);
    }
    if (v[COL_ALIGN] < 1)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[r->map[COL_ALIGN]], "alignment must be >= 1");
    if (v[COL_DEPTH] > 1000000)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[r->map[COL_DEPTH]],
                         "max_inline_depth too large");
    p.memory_bytes = v[COL_MEMORY];
    p.alignment = v[COL_ALIGN];
    p.max_inline_depth = (int32_t)v[COL_DEPTH];
    p.flops_per_s = v[COL_FLOPS];
    p.bytes_per_s = v[COL_BW];
    size_t name_len = strlen(p.name);
    if (strmap_get(r->seen, p.name, name_len) >= 0)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[r->map[COL_NAME]],
                         "profile '%s' given twice", p.name);
    if (strmap_put(r->seen, p.name, name_len, r->l->n) != 0)
        return error_set(err, RS_ENOMEM, row->path, row->line, 0, "out of memory");
    if (r->l->n == r->cap) {
        int32_t ncap = r->cap ? r->cap * 2 : 8;
        profile_t *ni = realloc(r->l->items, (size_t)ncap * sizeof *ni);
        if (!ni)
            return error_set(err, RS_ENOMEM, row->path, row->line, 0, "out of memory");
        r->l->items = ni;
        r->cap = ncap;
    }
    r->l->items[r->l->n++] = p;
    return RS_OK;
}

/* Reads from f when given, else opens path. */
static int read_profiles(FILE *f, const char *path, profile_list_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    prof_reader_t r = { .l = out, .seen = strmap_new() };
    if (!r.seen)
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    int rc = f ? csvio_read_stream(f, path, on_row, &r, err) : csvio_read_file(path, on_row, &r, err);
    strmap_free(r.seen);
    if (!rc && !r.header_seen)
        rc = error_set(err, RS_EINPUT, path, 1, 1, "empty file: expected the profile header");
    if (rc)
        profiles_free(out);
    return rc;
}

int profiles_read(const char *path, profile_list_t *out, rs_error_t *err)
{
    return read_profiles(NULL, path, out, err);
}

int profiles_read_stream(FILE *f, const char *path, profile_list_t *out, rs_error_t *err)
{
    return read_profiles(f, path, out, err);
}

void profiles_free(profile_list_t *l)
{
    free(l->items);
    memset(l, 0, sizeof *l);
}

const profile_t *profiles_find(const profile_list_t *l, const char *name)
{
    for (int32_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].name, name) == 0)
            return &l->items[i];
    return NULL;
}
