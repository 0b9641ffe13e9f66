/* hlutil: see hlutil.h. */
#include "hlutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hl_load(hl_t *h, const char *text)
{
    rs_error_t err;
    error_clear(&err);
    memset(h, 0, sizeof *h);
    if (hlo_read("t.hlo", text, strlen(text), &h->r, &err))
        fail_msg("hlo_read: %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    if (routine_bindings(h->r, NULL, 0, &h->b, &err) || lower_routine(h->r, &h->b, &h->l, &err))
        fail_msg("lower: %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
}

void hl_free(hl_t *h)
{
    lower_free(h->l);
    bindings_free(&h->b);
    routine_free(h->r);
}

int32_t hl_node(const hl_t *h, const char *name)
{
    int32_t i = routine_find_node(h->r, name);
    if (i < 0)
        fail_msg("no node '%s'", name);
    return i;
}

uint8_t flags_of(const hl_t *h, const char *name) { return h->l->flags[hl_node(h, name)]; }
int64_t cost_of(const hl_t *h, const char *name) { return h->l->cost[hl_node(h, name)]; }
int64_t bytes_of(const hl_t *h, const char *name) { return h->l->bytes[hl_node(h, name)]; }

void expect_hlo_error(const char *text, size_t len, int line, int col, const char *needle)
{
    rs_error_t err;
    error_clear(&err);
    routine_t *r = NULL;
    int rc = hlo_read("bad.hlo", text, len, &r, &err);
    if (rc != RS_EINPUT)
        fail_msg("rc %d for: %.200s", rc, text);
    assert_null(r);
    if (err.line != line || err.col != col || !strstr(err.msg, needle) || strcmp(err.file, "bad.hlo") != 0)
        fail_msg("got %s:%d:%d: %s; want %d:%d containing '%s'", err.file, err.line, err.col, err.msg, line, col,
                 needle);
}

/* The arguments of name's first definition, as "a,b,c". */
void expect_args(const hl_t *h, const char *name, const char *want)
{
    int32_t i = hl_node(h, name);
    int32_t s = h->l->first_def[i];
    assert_true(s >= 0);
    char got[512] = "";
    size_t w = 0;
    for (int32_t a = h->l->arg_off[s]; a < h->l->arg_off[s + 1]; a++)
        w += (size_t)snprintf(got + w, sizeof got - w, "%s%s", a > h->l->arg_off[s] ? "," : "",
                              h->r->nodes[h->l->args[a]].name);
    if (strcmp(got, want) != 0)
        fail_msg("args of %s: got '%s', want '%s'", name, got, want);
}
