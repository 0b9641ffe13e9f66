#include "minimalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "csvio.h"
#include "util/vec.h"
#include "wfile.h"

typedef struct mm_reader {
    minimalloc_problem_t *p;
    bool header_seen;
    bool has_offset;
    int n_origin;     /* columns after offset written by export and ignored: 1 (`source`, older) or 4 */
} mm_reader_t;

static bool field_is(const csvio_row_t *row, int k, const char *name)
{
    size_t n;
    const char *s = csvio_field_trim(row, k, &n);
    return n == strlen(name) && strncasecmp(s, name, n) == 0;
}

static int on_header(mm_reader_t *r, const csvio_row_t *row, rs_error_t *err)
{
    static const char *want[] = { "id", "lower", "upper", "size" };
    for (int k = 0; k < 4; k++)
        if (k >= row->n || !field_is(row, k, want[k]))
            return error_set(err, RS_EINPUT, row->path, row->line, k < row->n ? row->col[k] : csvio_col_after(row),
                             "expected the header id,lower,upper,size (column %d should be '%s')", k + 1, want[k]);
    /* after offset: where each buffer's node came from, as export writes
     * it (hlo,op_name,source,function; an older export wrote one source) */
    static const char *origin[] = { "hlo", "op_name", "source", "function" };
    bool older = row->n == 6 && field_is(row, 5, "source"), ours = row->n == 9;
    for (int k = 0; ours && k < 4; k++)
        ours = field_is(row, 5 + k, origin[k]);
    if (row->n >= 5 && field_is(row, 4, "offset") && (row->n == 5 || older || ours)) {
        r->has_offset = true;
        r->n_origin = row->n - 5;
    } else if (row->n > 4)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[4],
                         "unknown column '%.40s' (expected id,lower,upper,size[,offset[,hlo,op_name,source,function]])",
                         row->field[4]);
    r->header_seen = true;
    return RS_OK;
}

static int on_row(void *ud, const csvio_row_t *row, rs_error_t *err)
{
    mm_reader_t *r = ud;
    if (!r->header_seen)
        return on_header(r, row, err);
    int want = r->has_offset ? 5 + r->n_origin : 4;
    int rc = csvio_check_count(row, want, err);
    if (rc)
        return rc;
    long long lower, upper, size, offset = 0;
    if ((rc = csvio_field_int(row, 1, "lower", &lower, err)) || (rc = csvio_field_int(row, 2, "upper", &upper, err)) ||
        (rc = csvio_field_int(row, 3, "size", &size, err)) ||
        (r->has_offset && (rc = csvio_field_int(row, 4, "offset", &offset, err))))
        return rc;
    if (lower < 0)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[1], "lower must be >= 0, found %lld", lower);
    if (lower >= upper)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[2],
                         "upper (%lld) must be greater than lower (%lld): spans are [lower, upper)", upper, lower);
    if (size < 0)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[3], "size must be >= 0, found %lld", size);
    if (offset < 0)
        return error_set(err, RS_EINPUT, row->path, row->line, row->col[4], "offset must be >= 0, found %lld", offset);
    if (r->p->n == INT32_MAX)
        return error_set(err, RS_EINPUT, row->path, row->line, 1, "too many buffers");
    if (minimalloc_add(r->p, row->field[0], (arena_buf_t){ size, lower, upper - 1 }, r->has_offset, offset))
        return error_set(err, RS_ENOMEM, row->path, row->line, 0, "out of memory");
    return RS_OK;
}

int minimalloc_read(const char *path, minimalloc_problem_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    mm_reader_t r = { .p = out };
    int rc = csvio_read_file(path, on_row, &r, err);
    if (!rc && !r.header_seen)
        rc = error_set(err, RS_EINPUT, path, 1, 1, "empty file: expected the header id,lower,upper,size");
    if (rc)
        minimalloc_free(out);
    return rc;
}

int minimalloc_read_stream(FILE *f, const char *path, minimalloc_problem_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    mm_reader_t r = { .p = out };
    int rc = csvio_read_stream(f, path, on_row, &r, err);
    if (!rc && !r.header_seen)
        rc = error_set(err, RS_EINPUT, path, 1, 1, "empty file: expected the header id,lower,upper,size");
    if (rc)
        minimalloc_free(out);
    return rc;
}

#define POOL_CHUNK (1u << 20)

/* Appends a chunk of size bytes to the pool; NULL when out of memory. */
static char *pool_push(minimalloc_problem_t *p, size_t size)
{
    char **np = realloc(p->pool, ((size_t)p->n_pool + 1) * sizeof *np);
    char *c = np ? malloc(size) : NULL;
    if (np)
        p->pool = np;
    if (c)
        p->pool[p->n_pool++] = c;
    return c;
}

static char *pool_copy(minimalloc_problem_t *p, const char *s)
{
    size_t n = strlen(s) + 1;
    if (n > POOL_CHUNK / 4) { /* a huge id gets a chunk of its own */
        char *c = pool_push(p, n);
        if (!c)
            return NULL;
        /* keep the current chunk last: the big one goes before it */
        if (p->n_pool > 1) {
            p->pool[p->n_pool - 1] = p->pool[p->n_pool - 2];
            p->pool[p->n_pool - 2] = c;
        } else
            p->pool_used = POOL_CHUNK; /* no room: the next id opens a chunk */
        memcpy(c, s, n);
        return c;
    }
    if (!p->n_pool || p->pool_used + n > POOL_CHUNK) {
        if (!pool_push(p, POOL_CHUNK))
            return NULL;
        p->pool_used = 0;
    }
    char *dst = p->pool[p->n_pool - 1] + p->pool_used;
    memcpy(dst, s, n);
    p->pool_used += n;
    return dst;
}

int minimalloc_add(minimalloc_problem_t *p, const char *id, arena_buf_t b, bool with_offset, int64_t offset)
{
    void **const arrays[] = { (void **)&p->ids, (void **)&p->bufs, (void **)&p->offsets };
    const size_t sizes[] = { sizeof *p->ids, sizeof *p->bufs, sizeof *p->offsets };
    if (vec_reserve_many(arrays, sizes, with_offset ? 3 : 2, &p->cap, (int64_t)p->n + 1))
        return RS_ENOMEM;
    char *copy = pool_copy(p, id);
    if (!copy)
        return RS_ENOMEM;
    p->ids[p->n] = copy;
    p->bufs[p->n] = b;
    if (with_offset)
        p->offsets[p->n] = offset;
    p->n++;
    return RS_OK;
}

void minimalloc_free(minimalloc_problem_t *p)
{
    for (int32_t i = 0; i < p->n_pool; i++)
        free(p->pool[i]);
    free(p->pool);
    free(p->ids);
    free(p->bufs);
    free(p->offsets);
    memset(p, 0, sizeof *p);
}

int minimalloc_write_solution(const char *path, const char *store, const minimalloc_problem_t *p,
                              const int64_t *offsets, const char *const *sources, bool raw, rs_error_t *err)
{
    wfile_t w;
    int rc = wfile_open(&w, path, store, "the solution", err);
    if (rc)
        return rc;
    bool ok = fputs(sources ? "id,lower,upper,size,offset," MINIMALLOC_ORIGIN_COLUMNS "\n" : "id,lower,upper,size,offset\n",
                    w.f) >= 0;
    for (int32_t i = 0; i < p->n && ok; i++) {
        ok = csvio_write_cell(w.f, p->ids[i], raw) == 0;
        ok = ok && fprintf(w.f, ",%lld,%lld,%lld,%lld", (long long)p->bufs[i].start, (long long)p->bufs[i].end + 1,
                           (long long)p->bufs[i].size, (long long)offsets[i]) >= 0;
        for (int k = 0; ok && sources && k < MINIMALLOC_ORIGIN_N; k++) {
            const char *src = sources[MINIMALLOC_ORIGIN_N * i + k] ? sources[MINIMALLOC_ORIGIN_N * i + k] : "";
            ok = fputc(',', w.f) != EOF && csvio_write_cell(w.f, src, raw) == 0;
        }
        ok = ok && fputc('\n', w.f) != EOF;
    }
    return wfile_close(&w, ok, err);
}
