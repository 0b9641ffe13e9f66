/* fit_plan: what a fit records into its plan (events, their member lists,
 * flips), and the plan's copy and free. */
#include <stdlib.h>
#include <string.h>

#include "plan/fit_int.h"
#include "util/vec.h"

/* ---- events, members, flips ------------------------------------------------ */

/* Where an event's members go: the range of an earlier event holding the
 * same list, or one at the end of plan->members that the list extends (only
 * the new tail is appended), else a fresh copy.  The accepted and held
 * lists only grow between resets, so a trace stays linear in its events
 * instead of repeating every list in full (a Minimize fit of a 48-layer
 * transformer: 2 MB of copies before). */
static int place_members(search_t *s, const int32_t *members, int32_t n, int32_t *off, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    for (int r = 0; r < 2; r++) {
        range_t *g = &s->recent[r];
        if (g->n == n && (n == 0 || memcmp(p->members + g->off, members, (size_t)n * sizeof *members) == 0)) {
            *off = g->off;
            return RS_OK;
        }
        if (g->n < n && g->off + g->n == p->n_members &&
            (g->n == 0 || memcmp(p->members + g->off, members, (size_t)g->n * sizeof *members) == 0)) {
            if (vec_reserve((void **)&p->members, &s->cap_members, g->off + n, sizeof *p->members))
                return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            memcpy(p->members + p->n_members, members + g->n, (size_t)(n - g->n) * sizeof *members);
            p->n_members = g->off + n;
            g->n = n;
            *off = g->off;
            return RS_OK;
        }
    }
    if (vec_reserve((void **)&p->members, &s->cap_members, p->n_members + n, sizeof *p->members))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(p->members + p->n_members, members, (size_t)n * sizeof *members);
    s->recent[1] = s->recent[0]; /* the older of the two gives way */
    s->recent[0] = (range_t){ p->n_members, n };
    *off = p->n_members;
    p->n_members += n;
    return RS_OK;
}

int fit_emit(search_t *s, fit_event_t ev, const int32_t *members, int32_t n_members, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    if (vec_reserve((void **)&p->events, &s->cap_events, p->n_events + 1, sizeof *p->events))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int32_t off = 0;
    int rc = n_members ? place_members(s, members, n_members, &off, err) : RS_OK;
    if (rc)
        return rc;
    ev.group_off = off;
    ev.group_n = n_members;
    ev.accepted_n = p->n_flips;
    p->events[p->n_events++] = ev;
    return RS_OK;
}

fit_event_t fit_event(fit_event_kind_t kind, int round, int32_t node)
{
    return (fit_event_t){ .kind = (uint8_t)kind, .round = (uint8_t)round, .node = node, .alone = -1, .with = -1,
                          .cur = -1 };
}

int fit_add_flip(search_t *s, int32_t node, int64_t relief, int64_t cost, int64_t recompute, rs_error_t *err)
{
    fit_plan_t *p = s->plan;
    if (vec_reserve((void **)&p->flips, &s->cap_flips, p->n_flips + 1, sizeof *p->flips))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    p->flips[p->n_flips++] = (fit_flip_t){ .node = node, .relief = relief, .cost = cost, .recompute = recompute };
    return RS_OK;
}

/* ---- copy and free ---------------------------------------------------------- */

/* A copy of n elements of size bytes at a (NULL for none). */
static void *dup_array(const void *a, int32_t n, size_t size, bool *ok)
{
    if (!a || n <= 0)
        return NULL;
    void *c = malloc((size_t)n * size);
    if (c)
        memcpy(c, a, (size_t)n * size);
    *ok = *ok && c;
    return c;
}

int fit_plan_copy(const fit_plan_t *p, fit_plan_t **out, rs_error_t *err)
{
    *out = NULL;
    fit_plan_t *c = malloc(sizeof *c);
    if (!c)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    *c = *p;
    bool ok = true;
    c->flips = dup_array(p->flips, p->n_flips, sizeof *p->flips, &ok);
    c->events = dup_array(p->events, p->n_events, sizeof *p->events, &ok);
    c->members = dup_array(p->members, p->n_members, sizeof *p->members, &ok);
    c->cands = dup_array(p->cands, p->n_cands, sizeof *p->cands, &ok);
    if (!ok) {
        fit_plan_free(c);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    *out = c;
    return RS_OK;
}

void fit_plan_free(fit_plan_t *p)
{
    if (!p)
        return;
    free(p->flips);
    free(p->events);
    free(p->members);
    free(p->cands);
    free(p);
}
