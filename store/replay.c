#include "replay.h"

#include <stdlib.h>
#include <string.h>

#include "plan/floor.h"
#include "plan/trace.h"

/* The node named name in r (sp's trace names it), or an error. */
static int node_of(const stored_plan_t *sp, const routine_t *r, const char *name, int32_t *out, rs_error_t *err)
{
    *out = routine_find_node(r, name);
    if (*out < 0)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "plan %lld names %s, which %s does not have", (long long)sp->id,
                         name, r->name);
    return RS_OK;
}

/* The last list an older plan's events gave: its text and where it went. */
typedef struct last_list {
    const char *text;
    int32_t off, n;
} last_list_t;

/* Places the space-separated nodes of list in p->members as the fit
 * places them (fit_plan.c): the last list's range when the same, that
 * range extended by the new tail when the list extends it and it is at the
 * end, else appended (room for them was made: a list of k names has at
 * most k entries); *off and *n say where it went, *last becomes it. */
static int add_members(const stored_plan_t *sp, const routine_t *r, fit_plan_t *p, const char *list,
                       last_list_t *last, int32_t *off, int32_t *n, rs_error_t *err)
{
    if (last->text && strcmp(list, last->text) == 0) {
        *off = last->off;
        *n = last->n;
        return RS_OK;
    }
    char *copy = strdup(list);
    if (!copy)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int32_t base = p->n_members, k = 0;
    int rc = RS_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok && !rc; tok = strtok_r(NULL, " ", &save)) {
        int32_t node;
        if (!(rc = node_of(sp, r, tok, &node, err)))
            p->members[base + k++] = node;
    }
    free(copy);
    int32_t *m = p->members;
    if (last->text && last->off + last->n == base && k > last->n &&
        memcmp(m + last->off, m + base, (size_t)last->n * sizeof *m) == 0) {
        memmove(m + base, m + base + last->n, (size_t)(k - last->n) * sizeof *m);
        *off = last->off;
        p->n_members = base + k - last->n;
    } else {
        *off = base;
        p->n_members = base + k;
    }
    *n = k;
    *last = (last_list_t){ list, *off, k };
    return rc;
}

/* The members the plan stores and those its older events list, at most:
 * one entry a name. */
static size_t count_names(const stored_plan_t *sp)
{
    size_t n = (size_t)sp->n_members;
    for (int32_t i = 0; i < sp->n_events; i++) {
        const char *m = sp->events[i].group_n < 0 ? sp->events[i].members : "";
        n += m[0] != 0;
        for (; *m; m++)
            n += *m == ' ';
    }
    return n;
}

/* The plan's stored members (schema 8) as nodes, first in p->members:
 * events name ranges of them as the fit's did. */
static int read_members(const stored_plan_t *sp, const routine_t *r, fit_plan_t *p, rs_error_t *err)
{
    int rc = RS_OK;
    for (int32_t i = 0; i < sp->n_members && !rc; i++)
        rc = node_of(sp, r, sp->members[i], &p->members[p->n_members++], err);
    return rc;
}

static int read_event(const stored_plan_t *sp, const routine_t *r, int32_t i, fit_plan_t *p, last_list_t *last,
                      rs_error_t *err)
{
    const stored_event_t *s = &sp->events[i];
    fit_event_t *e = &p->events[i];
    int kind = trace_kind_parse(s->kind), reason = trace_reason_parse(s->reason);
    if (kind < 0 || reason < 0)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "plan %lld's event %d is of no kind the planner has (%s%s%s)",
                         (long long)sp->id, (int)i, s->kind, s->reason[0] ? ", " : "", s->reason);
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->reason = (uint8_t)reason;
    e->round = (uint8_t)s->round;
    e->rank = s->rank;
    e->alone = s->alone;
    e->with = s->with;
    e->cur = s->cur;
    e->relief = s->relief;
    e->cost = s->cost;
    e->node = -1;
    int rc = s->node[0] ? node_of(sp, r, s->node, &e->node, err) : RS_OK;
    if (!rc && s->group_n >= 0) { /* a range of the stored members: trace_complete checks it */
        e->group_off = s->group_off;
        e->group_n = s->group_n;
        return RS_OK;
    }
    if (!rc && s->members[0]) /* an older plan's list */
        rc = add_members(sp, r, p, s->members, last, &e->group_off, &e->group_n, err);
    return rc;
}

int replay_plan(const stored_plan_t *sp, const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg,
                fit_plan_t **out, rs_error_t *err)
{
    *out = NULL;
    const routine_t *r = l->routine;
    fit_plan_t *p = calloc(1, sizeof *p);
    if (!p)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    p->routine = r;
    p->minimize = strcmp(sp->budget_kind, "minimize") == 0;
    p->budget = p->minimize ? -1 : sp->budget_bytes;
    p->cap = sp->cap;
    p->baseline = sp->baseline;
    p->final = sp->final;
    p->considered = sp->considered;
    p->dropped = sp->dropped;
    p->within_budget = sp->within_budget;
    p->reused = sp->reused;
    p->lowered = sp->lowered;
    p->flips = calloc((size_t)sp->n_flips + 1, sizeof *p->flips);
    p->events = calloc((size_t)sp->n_events + 1, sizeof *p->events);
    p->members = calloc(count_names(sp) + 1, sizeof *p->members);
    int rc = !p->flips || !p->events || !p->members ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory") : RS_OK;
    for (int32_t i = 0; i < sp->n_flips && !rc; i++) {
        fit_flip_t *f = &p->flips[p->n_flips++];
        f->relief = sp->flips[i].relief;
        f->cost = sp->flips[i].cost;
        f->recompute = sp->recompute_known ? sp->flips[i].recompute : 0;
        rc = node_of(sp, r, sp->flips[i].node, &f->node, err);
    }
    if (!rc)
        rc = read_members(sp, r, p, err);
    last_list_t last = { 0 };
    for (int32_t i = 0; i < sp->n_events && !rc; i++) {
        rc = read_event(sp, r, i, p, &last, err);
        p->n_events = i + 1;
    }
    if (!rc && sp->n_events == 0)
        rc = error_set(err, RS_EINPUT, NULL, 0, 0, "plan %lld has no stored events", (long long)sp->id);
    if (!rc && (rc = trace_complete(p, err)) == RS_EINPUT) {
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        error_set(err, RS_EINPUT, NULL, 0, 0, "plan %lld: %s", (long long)sp->id, why);
    }
    /* the floors are not stored: they are the baseline's, as fit computes them */
    if (!rc) {
        floor_fit_t f;
        if (!(rc = floor_of_fit(l, prefs, cfg, p->cap, &f, err))) {
            p->floor = f.floor;
            p->floor_cap = f.cap;
        }
    }
    if (rc) {
        fit_plan_free(p);
        return rc;
    }
    *out = p;
    return RS_OK;
}
