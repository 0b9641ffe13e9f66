#include "trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *trace_kind_name(fit_event_kind_t k)
{
    static const char *names[] = { "baseline", "kept", "dropped", "solo", "order", "try", "accept",
                                   "hold", "commit-group", "discard-group", "reject", "budget-met", "end" };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

const char *trace_reason_name(fit_reason_t r)
{
    static const char *names[] = { "", "worse-alone", "not-below-current", "harmful", "left-over" };
    return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

const char *fit_status_name(fit_status_t s)
{
    static const char *names[] = { "pending", "accepted", "held", "committed", "discarded", "rejected", "dropped" };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* A bounded string builder: appends never overrun, the text is cut. */
typedef struct sb {
    char *buf;
    size_t n, len;
} sb_t;

static void sb_printf(sb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb_t *b, const char *fmt, ...)
{
    if (b->len + 1 >= b->n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->buf + b->len, b->n - b->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        b->len = b->len + (size_t)w < b->n ? b->len + (size_t)w : b->n - 1;
}

static void sb_bytes(sb_t *b, int64_t bytes)
{
    char t[32];
    units_format_bytes(bytes, t, sizeof t);
    sb_printf(b, "%s", t);
}

static const char *name_of(const fit_plan_t *p, int32_t node)
{
    return node >= 0 && node < p->routine->n_nodes ? p->routine->nodes[node].name : "?";
}

static void sb_group(sb_t *b, const fit_plan_t *p, const fit_event_t *e)
{
    sb_printf(b, "{");
    for (int32_t k = 0; k < e->group_n; k++)
        sb_printf(b, "%s%s", k ? ", " : "", name_of(p, p->members[e->group_off + k]));
    sb_printf(b, "}");
}

static void ordinal(int32_t n, char *buf, size_t sz)
{
    const char *suf = "th";
    if (n % 100 < 11 || n % 100 > 13)
        suf = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    snprintf(buf, sz, "%d%s", (int)n, suf);
}

void trace_describe(const fit_plan_t *p, int32_t i, char *buf, size_t n)
{
    sb_t b = { buf, n, 0 };
    buf[0] = 0;
    const fit_event_t *e = &p->events[i];
    const char *who = name_of(p, e->node);
    switch ((fit_event_kind_t)e->kind) {
    case EV_BASELINE:
        sb_printf(&b, "baseline: the arena needs ");
        sb_bytes(&b, e->cur);
        sb_printf(&b, " (%lld B)", (long long)e->cur);
        break;
    case EV_KEPT:
        sb_printf(&b, "candidate %s kept (recompute-cost bound %lld)", who, (long long)e->cost);
        break;
    case EV_DROPPED:
        sb_printf(&b, "candidate %s dropped: the cap keeps the %d cheapest and its cost bound %lld is above them",
                  who, (int)p->cap, (long long)e->cost);
        break;
    case EV_SOLO:
        sb_printf(&b, "round one: %s alone scores ", who);
        sb_bytes(&b, e->alone);
        sb_printf(&b, ", relief %s", e->relief < 0 ? "-" : "");
        sb_bytes(&b, e->relief < 0 ? -e->relief : e->relief);
        sb_printf(&b, " (%lld B) for cost %lld", (long long)e->relief, (long long)e->cost);
        break;
    case EV_ORDER: {
        char o[16];
        ordinal(e->rank, o, sizeof o);
        sb_printf(&b, "round one: %s ranked %s: relief %lld B per cost %lld (%.3g B/op)", who, o,
                  (long long)e->relief, (long long)e->cost, (double)e->relief / (double)e->cost);
        break;
    }
    case EV_TRY:
        sb_printf(&b, "round two: try %s: alone ", who);
        sb_bytes(&b, e->alone);
        if (e->with >= 0) {
            sb_printf(&b, ", with held ");
            sb_group(&b, p, e);
            sb_printf(&b, " ");
            sb_bytes(&b, e->with);
        }
        sb_printf(&b, ", current ");
        sb_bytes(&b, e->cur);
        break;
    case EV_ACCEPT:
        sb_printf(&b, "%s accepted: relieved ", who);
        sb_bytes(&b, e->relief);
        sb_printf(&b, " (");
        sb_bytes(&b, e->cur);
        sb_printf(&b, " -> ");
        sb_bytes(&b, e->alone);
        sb_printf(&b, ")");
        break;
    case EV_HOLD:
        sb_printf(&b, "%s held: alone it relieves nothing (", who);
        sb_bytes(&b, e->alone);
        sb_printf(&b, " = current); held group now ");
        sb_group(&b, p, e);
        break;
    case EV_COMMIT_GROUP:
        sb_printf(&b, "load-bearing group ");
        sb_group(&b, p, e);
        sb_printf(&b, " committed with %s: together ", who);
        sb_bytes(&b, e->with);
        sb_printf(&b, " < alone ");
        sb_bytes(&b, e->alone);
        sb_printf(&b, " and < current ");
        sb_bytes(&b, e->cur);
        sb_printf(&b, "; %s carries the relief ", who);
        sb_bytes(&b, e->relief);
        sb_printf(&b, ", the held flips 0");
        break;
    case EV_DISCARD_GROUP:
        sb_printf(&b, "held group ");
        sb_group(&b, p, e);
        if (e->reason == WHY_HARMFUL) {
            sb_printf(&b, " discarded as harmful: with it %s scores ", who);
            sb_bytes(&b, e->with);
            sb_printf(&b, " > ");
            sb_bytes(&b, e->alone);
            sb_printf(&b, " without; never reconsidered");
        } else {
            sb_printf(&b, " discarded at the end: recompute is never paid for zero bytes");
        }
        break;
    case EV_REJECT:
        sb_printf(&b, "%s rejected: ", who);
        if (e->reason == WHY_NOT_BELOW_CUR) {
            sb_printf(&b, "with held ");
            sb_group(&b, p, e);
            sb_printf(&b, " ");
            sb_bytes(&b, e->with);
            sb_printf(&b, " beats alone ");
            sb_bytes(&b, e->alone);
            sb_printf(&b, " but not the current ");
            sb_bytes(&b, e->cur);
            sb_printf(&b, "; the group stays held");
        } else {
            sb_printf(&b, "alone ");
            sb_bytes(&b, e->alone);
            sb_printf(&b, " > current ");
            sb_bytes(&b, e->cur);
        }
        break;
    case EV_BUDGET_MET:
        sb_printf(&b, "budget met: ");
        sb_bytes(&b, e->cur);
        sb_printf(&b, " <= ");
        sb_bytes(&b, p->budget);
        break;
    case EV_END:
        sb_printf(&b, "end: ");
        sb_bytes(&b, e->cur);
        sb_printf(&b, " after %d flip%s, %d considered, %d dropped", (int)p->n_flips, p->n_flips == 1 ? "" : "s",
                  (int)p->considered, (int)p->dropped);
        break;
    }
}

static bool in_group(const fit_plan_t *p, const fit_event_t *e, int32_t node)
{
    for (int32_t k = 0; k < e->group_n; k++)
        if (p->members[e->group_off + k] == node)
            return true;
    return false;
}

static bool about(const fit_plan_t *p, const fit_event_t *e, int32_t node)
{
    if (e->node == node)
        return true;
    /* a group event is about its members; a try or accept lists context */
    return (e->kind == EV_HOLD || e->kind == EV_COMMIT_GROUP || e->kind == EV_DISCARD_GROUP) && in_group(p, e, node);
}

int32_t trace_chain(const fit_plan_t *p, int32_t node, int32_t *chain, int32_t cap)
{
    int32_t m = 0;
    for (int32_t i = 0; i < p->n_events; i++)
        if (about(p, &p->events[i], node)) {
            if (chain && m < cap)
                chain[m] = i;
            m++;
        }
    return m;
}

const fit_cand_t *trace_cand(const fit_plan_t *p, int32_t node)
{
    for (int32_t k = 0; k < p->n_cands; k++)
        if (p->cands[k].node == node)
            return &p->cands[k];
    return NULL;
}

static const fit_event_t *last_event(const fit_plan_t *p, int32_t node, fit_event_kind_t kind)
{
    for (int32_t i = p->n_events - 1; i >= 0; i--)
        if (p->events[i].kind == kind && about(p, &p->events[i], node))
            return &p->events[i];
    return NULL;
}

static void sb_rank(sb_t *b, const fit_cand_t *c)
{
    char o[16];
    ordinal(c->rank, o, sizeof o);
    sb_printf(b, "; ranked %s by relief per cost (%.3g B/op)", o, (double)c->relief / (double)c->cost);
}

void trace_explain(const fit_plan_t *p, int32_t node, char *buf, size_t n)
{
    sb_t b = { buf, n, 0 };
    buf[0] = 0;
    const char *who = name_of(p, node);
    const fit_cand_t *c = trace_cand(p, node);
    if (!c) {
        sb_printf(&b, "%s was no candidate of this fit (a resident, @output, @pinned or already inline node, "
                  "or the budget was met by the baseline)", who);
        return;
    }
    const fit_event_t *e;
    switch ((fit_status_t)c->status) {
    case ST_ACCEPTED:
        e = last_event(p, node, EV_ACCEPT);
        sb_printf(&b, "%s accepted in round two: relieved ", who);
        sb_bytes(&b, e ? e->relief : 0);
        sb_printf(&b, " on top of ");
        if (e && e->group_n)
            sb_group(&b, p, e);
        else
            sb_printf(&b, "the baseline");
        sb_rank(&b, c);
        break;
    case ST_COMMITTED:
        e = last_event(p, node, EV_COMMIT_GROUP);
        if (e && e->node == node) {
            sb_printf(&b, "%s committed in round two, closing the load-bearing group ", who);
            sb_group(&b, p, e);
            sb_printf(&b, ": together they relieved ");
            sb_bytes(&b, e->relief);
            sb_printf(&b, " that none relieved alone, all of it carried by %s", who);
        } else if (e) {
            sb_printf(&b, "%s committed in round two as a held member of the load-bearing group ", who);
            sb_group(&b, p, e);
            sb_printf(&b, " closed by %s: it carries 0, %s carries the relief ", name_of(p, e->node),
                      name_of(p, e->node));
            sb_bytes(&b, e->relief);
        }
        sb_rank(&b, c);
        break;
    case ST_DISCARDED:
        e = last_event(p, node, EV_DISCARD_GROUP);
        sb_printf(&b, "%s discarded in round two: held because alone it relieved nothing, then ", who);
        if (e && e->reason == WHY_HARMFUL) {
            sb_printf(&b, "its group proved harmful when %s scored ", name_of(p, e->node));
            sb_bytes(&b, e->with);
            sb_printf(&b, " with it and ");
            sb_bytes(&b, e->alone);
            sb_printf(&b, " without");
        } else {
            sb_printf(&b, "still held at the end (recompute is never paid for zero bytes)");
        }
        sb_rank(&b, c);
        break;
    case ST_REJECTED:
        e = last_event(p, node, EV_REJECT);
        sb_printf(&b, "%s rejected in round two: ", who);
        if (e && e->reason == WHY_NOT_BELOW_CUR) {
            sb_printf(&b, "with the held group it scored ");
            sb_bytes(&b, e->with);
            sb_printf(&b, ", better than alone but not below the current ");
            sb_bytes(&b, e->cur);
        } else if (e) {
            sb_printf(&b, "alone it made the arena ");
            sb_bytes(&b, e->alone);
            sb_printf(&b, ", above the current ");
            sb_bytes(&b, e->cur);
        }
        sb_rank(&b, c);
        break;
    case ST_DROPPED:
        sb_printf(&b, "%s dropped before round one: the cap keeps the %d cheapest candidates and its cost bound "
                  "%lld is above them", who, (int)p->cap, (long long)c->cost);
        break;
    case ST_HELD:
    case ST_PENDING:
        sb_printf(&b, "%s not tried in round two: the budget was met before its turn", who);
        sb_rank(&b, c);
        break;
    }
}
