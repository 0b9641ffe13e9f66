#include "audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void audit_init(audit_t *a)
{
    memset(a, 0, sizeof *a);
    pthread_mutex_init(&a->lock, NULL);
    strbuf_init(&a->lines);
}

void audit_free(audit_t *a)
{
    pthread_mutex_destroy(&a->lock);
    strbuf_free(&a->lines);
}

typedef struct one_check {
    audit_t *a;
    const lowering_t *l;
    int64_t reuse;  /* 1-based number of the reuse checked */
} one_check_t;

/* Called with the lock held. */
static void note(void *ud, const lower_diff_t *d)
{
    one_check_t *c = ud;
    audit_t *a = c->a;
    if (a->differences++ >= AUDIT_MAX_LINES)
        return;
    const routine_t *r = c->l->routine;
    strbuf_printf(&a->lines, "reuse %lld: ", (long long)c->reuse);
    if (d->node >= 0 && d->node < r->n_nodes)
        strbuf_printf(&a->lines, "node %s", r->nodes[d->node].name);
    else
        strbuf_printf(&a->lines, "no node");
    if (d->step >= 0)
        strbuf_printf(&a->lines, " (step %d)", (int)d->step);
    if (d->index >= 0)
        strbuf_printf(&a->lines, ": %s[%lld]", d->field, (long long)d->index);
    else
        strbuf_printf(&a->lines, ": %s", d->field);
    strbuf_printf(&a->lines, ": reused %lld, fresh %lld\n", (long long)d->a, (long long)d->b);
}

void audit_check(void *ud, const lowering_t *reused, const lowering_t *fresh)
{
    audit_t *a = ud;
    pthread_mutex_lock(&a->lock);
    one_check_t c = { a, reused, ++a->checked };
    lower_diff_each(reused, fresh, note, &c);
    pthread_mutex_unlock(&a->lock);
}

typedef struct fit_call {
    const fit_options_t *opt;
    const fit_context_t *ctx;
    reuse_cell_t *cell;
    fit_plan_t **out;
    rs_error_t *err;
} fit_call_t;

static int fit_body(void *ud)
{
    fit_call_t *f = ud;
    return fit_run(f->opt, f->ctx, f->cell, f->out, f->err);
}

int audit_fit_run(audit_t *a, const fit_options_t *opt, const fit_context_t *ctx, reuse_cell_t *cell,
                  fit_plan_t **out, rs_error_t *err)
{
    fit_call_t f = { opt, ctx, cell, out, err };
    return a ? reuse_with_audit(audit_check, a, fit_body, &f) : fit_body(&f);
}

char *audit_record(const audit_t *a)
{
    strbuf_t b;
    strbuf_init(&b);
    strbuf_printf(&b, "%lld reuses checked, %lld differences\n", (long long)a->checked, (long long)a->differences);
    if (a->lines.s)
        strbuf_printf(&b, "%s", a->lines.s);
    if (a->differences > AUDIT_MAX_LINES)
        strbuf_printf(&b, "... and %lld more\n", (long long)(a->differences - AUDIT_MAX_LINES));
    if (b.oom) {
        strbuf_free(&b);
        return NULL;
    }
    return b.s;
}
