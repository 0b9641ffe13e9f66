#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tr_load(tr_t *t, const char *text)
{
    rs_error_t err;
    error_clear(&err);
    memset(t, 0, sizeof *t);
    int rc = routine_parse("t.routine", text, strlen(text), &t->r, &err);
    if (rc)
        fail_msg("parse failed: %d:%d: %s", err.line, err.col, err.msg);
    rc = routine_bindings(t->r, NULL, 0, &t->b, &err);
    if (!rc)
        rc = lower_routine(t->r, &t->b, &t->l, &err);
    if (rc)
        fail_msg("lower failed: %d:%d: %s", err.line, err.col, err.msg);
}

void tr_free(tr_t *t)
{
    lower_free(t->l);
    bindings_free(&t->b);
    routine_free(t->r);
    memset(t, 0, sizeof *t);
}

int32_t tr_node(const tr_t *t, const char *name)
{
    int32_t i = routine_find_node(t->r, name);
    if (i < 0)
        fail_msg("no node %s", name);
    return i;
}

void expect_routine_error(const char *text, int line, int col, const char *needle)
{
    rs_error_t err;
    error_clear(&err);
    routine_t *r = NULL;
    int rc = routine_parse("bad.routine", text, strlen(text), &r, &err);
    if (!rc) {
        bindings_t b;
        lowering_t *l = NULL;
        rc = routine_bindings(r, NULL, 0, &b, &err);
        if (!rc) {
            rc = lower_routine(r, &b, &l, &err);
            bindings_free(&b);
        }
        lower_free(l);
        routine_free(r);
    } else {
        assert_null(r);
    }
    if (rc != RS_EINPUT)
        fail_msg("expected an input error for:\n%s\n(got rc %d)", text, rc);
    if (err.line != line || err.col != col || !strstr(err.msg, needle))
        fail_msg("expected %d:%d '%s', got %d:%d '%s'", line, col, needle, err.line, err.col, err.msg);
    assert_string_equal(err.file, "bad.routine");
}

uint8_t *tr_prefs(const tr_t *t, const char *first, ...)
{
    uint8_t *p = calloc((size_t)t->l->n_nodes + 1, 1);
    va_list ap;
    va_start(ap, first);
    for (const char *n = first; n; n = va_arg(ap, const char *)) {
        int32_t i = tr_node(t, n); /* fails the test when absent */
        if (i >= 0 && i <= t->l->n_nodes)
            p[i] = 1;
    }
    va_end(ap);
    return p;
}

void tu_random_bufs(unsigned *seed, arena_buf_t *b, int32_t n, int64_t max_start, int64_t max_len,
                    int64_t max_size)
{
    for (int32_t i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        int64_t s0 = (*seed >> 8) % (unsigned)max_start, len = (*seed >> 16) % (unsigned)(max_len + 1);
        *seed = *seed * 1103515245u + 12345u;
        b[i] = (arena_buf_t){ 1 + (int64_t)((*seed >> 8) % (unsigned)max_size), s0, s0 + len };
    }
}
