#include "audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monotime.h"

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

/* A sweep's audit goes to the audit of the plan being made. */
typedef struct sweep_call {
    audit_t *audits;
    int32_t current;
    fit_options_t opt;
    const budget_spec_t *budgets;
    int32_t n;
    const fit_context_t *ctx;
    reuse_cell_t *cell;
    fit_plan_t **plans;
    int64_t *elapsed_us, t0;
    rs_error_t *err;
    fit_plan_done_fn then; /* the caller's own, told after */
    void *then_ud;
} sweep_call_t;

static void sweep_check(void *ud, const lowering_t *reused, const lowering_t *fresh)
{
    sweep_call_t *s = ud;
    audit_check(&s->audits[s->current < s->n ? s->current : s->n - 1], reused, fresh);
}

static void sweep_plan_done(void *ud, int32_t i, const fit_plan_t *p)
{
    sweep_call_t *s = ud;
    int64_t now = monotime_us();
    s->elapsed_us[i] = now - s->t0;
    s->t0 = now;
    s->current = i + 1;
    if (s->then)
        s->then(s->then_ud, i, p);
}

static int sweep_body(void *ud)
{
    sweep_call_t *s = ud;
    return fit_sweep(&s->opt, s->budgets, s->n, s->ctx, s->cell, s->plans, s->err);
}

int audit_sweep_run(audit_t *audits, const fit_options_t *opt, const budget_spec_t *budgets, int32_t n,
                    const fit_context_t *ctx, reuse_cell_t *cell, fit_plan_t **plans, int64_t *elapsed_us,
                    rs_error_t *err)
{
    sweep_call_t s = { audits, 0, *opt, budgets, n, ctx, cell, plans, elapsed_us, monotime_us(), err,
                       opt->plan_done, opt->plan_done_ud };
    s.opt.plan_done = sweep_plan_done;
    s.opt.plan_done_ud = &s;
    return audits ? reuse_with_audit(sweep_check, &s, sweep_body, &s) : sweep_body(&s);
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
