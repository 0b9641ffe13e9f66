/* trace_complete: a plan read back from its stored trace (trace.h). */
#include "plan/trace.h"

#include <stdlib.h>
#include <string.h>

static int not_a_trace(rs_error_t *err, int32_t i, const char *what)
{
    return error_set(err, RS_EINPUT, NULL, 0, 0, "the stored trace is not one fit's: event %d %s", (int)i, what);
}

/* Checks event i's node and members and counts the flips it accepts
 * against p->flips (in acceptance order, as fit_add_flip appended them). */
static int check_event(const fit_plan_t *p, int32_t i, int32_t *n_flips, rs_error_t *err)
{
    const fit_event_t *e = &p->events[i];
    int32_t n_nodes = p->routine->n_nodes;
    if (e->kind > EV_END)
        return not_a_trace(err, i, "has no kind");
    if (e->node < -1 || e->node >= n_nodes)
        return not_a_trace(err, i, "names no node");
    if (e->group_n < 0 || e->group_off < 0 || e->group_off > p->n_members - e->group_n)
        return not_a_trace(err, i, "has members past the list");
    for (int32_t g = 0; g < e->group_n; g++)
        if (p->members[e->group_off + g] < 0 || p->members[e->group_off + g] >= n_nodes)
            return not_a_trace(err, i, "has a member that is no node");
    bool needs_node = e->kind == EV_KEPT || e->kind == EV_DROPPED || e->kind == EV_SOLO || e->kind == EV_ORDER ||
                      e->kind == EV_TRY || e->kind == EV_ACCEPT || e->kind == EV_HOLD ||
                      e->kind == EV_COMMIT_GROUP || e->kind == EV_REJECT;
    if (needs_node && e->node < 0)
        return not_a_trace(err, i, "names no node");
    if (e->kind == EV_ACCEPT || e->kind == EV_COMMIT_GROUP) {
        int32_t adds = e->kind == EV_ACCEPT ? 1 : e->group_n + 1;
        if (*n_flips > p->n_flips - adds)
            return not_a_trace(err, i, "accepts more flips than the plan has");
        for (int32_t g = 0; g + 1 < adds; g++)
            if (p->flips[*n_flips + g].node != p->members[e->group_off + g])
                return not_a_trace(err, i, "commits a group the flips do not list");
        if (p->flips[*n_flips + adds - 1].node != e->node)
            return not_a_trace(err, i, "accepts a node the flips do not list there");
        *n_flips += adds;
    }
    return RS_OK;
}

/* Sets the status of node's candidate (slot: node -> candidate, -1). */
static void set_status(fit_plan_t *p, const int32_t *slot, int32_t node, fit_status_t st)
{
    if (node >= 0 && slot[node] >= 0)
        p->cands[slot[node]].status = (uint8_t)st;
}

/* The candidates from the events: ORDER gives the kept in rank order,
 * DROPPED the rest; SOLO their scores; round two their statuses. */
static int rebuild_cands(fit_plan_t *p, int32_t *slot, rs_error_t *err)
{
    int32_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int32_t i = 0; i < p->n_events; i++) {
            const fit_event_t *e = &p->events[i];
            if (e->kind != (pass ? EV_DROPPED : EV_ORDER))
                continue;
            if (slot[e->node] >= 0)
                return not_a_trace(err, i, "lists a candidate twice");
            slot[e->node] = n;
            p->cands[n++] = (fit_cand_t){ .node = e->node, .cost = e->cost, .solo = -1,
                                          .relief = pass ? 0 : e->relief, .rank = pass ? 0 : e->rank,
                                          .status = (uint8_t)(pass ? ST_DROPPED : ST_PENDING) };
        }
    p->n_cands = n;
    for (int32_t i = 0; i < p->n_events; i++) {
        const fit_event_t *e = &p->events[i];
        switch ((fit_event_kind_t)e->kind) {
        case EV_SOLO:
            if (slot[e->node] >= 0)
                p->cands[slot[e->node]].solo = e->alone;
            break;
        case EV_ACCEPT: set_status(p, slot, e->node, ST_ACCEPTED); break;
        case EV_HOLD: set_status(p, slot, e->node, ST_HELD); break;
        case EV_REJECT: set_status(p, slot, e->node, ST_REJECTED); break;
        case EV_COMMIT_GROUP:
        case EV_DISCARD_GROUP: {
            fit_status_t st = e->kind == EV_COMMIT_GROUP ? ST_COMMITTED : ST_DISCARDED;
            for (int32_t g = 0; g < e->group_n; g++)
                set_status(p, slot, p->members[e->group_off + g], st);
            if (e->kind == EV_COMMIT_GROUP)
                set_status(p, slot, e->node, st);
            break;
        }
        default: break;
        }
    }
    return RS_OK;
}

int trace_complete(fit_plan_t *p, rs_error_t *err)
{
    int32_t n_flips = 0, n_cands = 0;
    for (int32_t i = 0; i < p->n_events; i++) {
        int32_t before = n_flips;
        int rc = check_event(p, i, &n_flips, err);
        if (rc)
            return rc;
        p->events[i].accepted_n = before; /* the flips accepted before it, as fit_emit records */
        n_cands += p->events[i].kind == EV_ORDER || p->events[i].kind == EV_DROPPED;
    }
    if (n_flips != p->n_flips)
        return not_a_trace(err, p->n_events, "is the end, but the events accept fewer flips than the plan has");
    int32_t n_nodes = p->routine->n_nodes;
    int32_t *slot = malloc(((size_t)n_nodes + 1) * sizeof *slot);
    fit_cand_t *cands = calloc((size_t)n_cands + 1, sizeof *cands);
    if (!slot || !cands) {
        free(slot);
        free(cands);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int32_t i = 0; i < n_nodes; i++)
        slot[i] = -1;
    free(p->cands);
    p->cands = cands;
    int rc = rebuild_cands(p, slot, err);
    free(slot);
    return rc;
}
