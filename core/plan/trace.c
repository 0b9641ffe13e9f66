#include "plan/trace.h"

#include <stdlib.h>
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

int trace_kind_parse(const char *name)
{
    for (int k = EV_BASELINE; k <= EV_END; k++)
        if (strcmp(trace_kind_name((fit_event_kind_t)k), name) == 0)
            return k;
    return -1;
}

int trace_reason_parse(const char *name)
{
    for (int r = WHY_NONE; r <= WHY_LEFT_OVER; r++)
        if (strcmp(trace_reason_name((fit_reason_t)r), name) == 0)
            return r;
    return -1;
}

static void sb_bytes(strbuf_t *b, int64_t bytes)
{
    char t[32];
    units_format_bytes(bytes, t, sizeof t);
    strbuf_printf(b, "%s", t);
}

static void sb_bytes_exact(strbuf_t *b, int64_t bytes)
{
    char t[64];
    units_format_bytes_exact(bytes, t, sizeof t);
    strbuf_printf(b, "%s", t);
}

static void sb_flops(strbuf_t *b, int64_t flops)
{
    char t[32];
    units_format_flops(flops, t, sizeof t);
    strbuf_printf(b, "%s", t);
}

/* The second size of a comparison: when rounding prints both the same
 * ("36.0 MiB > 36.0 MiB"), the difference in bytes follows it. */
static void sb_bytes_vs(strbuf_t *b, int64_t bytes, int64_t first)
{
    char t[32], f[32];
    units_format_bytes(bytes, t, sizeof t);
    units_format_bytes(first, f, sizeof f);
    strbuf_printf(b, "%s", t);
    if (bytes != first && strcmp(t, f) == 0)
        strbuf_printf(b, " (by %lld B)", (long long)(bytes > first ? bytes - first : first - bytes));
}

/* One of a sentence's totals: when rounding prints it like another of them
 * that differs ("alone 9.75 TiB, current 9.75 TiB"), its bytes follow, so
 * the sentence shows what decided. */
static void sb_total(strbuf_t *b, int64_t v, const int64_t *all, int n)
{
    char t[32], o[32];
    units_format_bytes(v, t, sizeof t);
    strbuf_printf(b, "%s", t);
    for (int k = 0; k < n; k++) {
        if (all[k] < 0 || all[k] == v)
            continue;
        units_format_bytes(all[k], o, sizeof o);
        if (strcmp(t, o) == 0) {
            strbuf_printf(b, " (%lld B)", (long long)v);
            return;
        }
    }
}

static const char *name_of(const fit_plan_t *p, int32_t node)
{
    return node >= 0 && node < p->routine->n_nodes ? p->routine->nodes[node].name : "?";
}

static void sb_group(strbuf_t *b, const fit_plan_t *p, const fit_event_t *e)
{
    strbuf_printf(b, "{");
    for (int32_t k = 0; k < e->group_n; k++)
        strbuf_printf(b, "%s%s", k ? ", " : "", name_of(p, p->members[e->group_off + k]));
    strbuf_printf(b, "}");
}

/* A group of a few is named where the sentence speaks of it; a bigger one
 * is counted, and its members are the event's own list (the store's, the
 * CSV's members column) or trace_explain_group's, said once: a real step's
 * 46,000 events each spelled a group of up to 1,960 names, 354 MB of text
 * in one saved plan, and the Why of a 700-member group had its verdict on
 * the last of 712 rows. */
#define GROUP_NAMED_INLINE 3

static bool group_inline(const fit_event_t *e) { return e->group_n <= GROUP_NAMED_INLINE; }

/* After the word "group": " {a, b}", or " of 712 flips". */
static void sb_group_after(strbuf_t *b, const fit_plan_t *p, const fit_event_t *e)
{
    if (group_inline(e)) {
        strbuf_printf(b, " ");
        sb_group(b, p, e);
    } else {
        strbuf_printf(b, " of %d flips", (int)e->group_n);
    }
}

/* The held flips scored with a candidate: "held {a, b}", or "the 712 held flips". */
static void sb_held(strbuf_t *b, const fit_plan_t *p, const fit_event_t *e)
{
    if (group_inline(e)) {
        strbuf_printf(b, "held ");
        sb_group(b, p, e);
    } else {
        strbuf_printf(b, "the %d held flips", (int)e->group_n);
    }
}


static void ordinal(int32_t n, char *buf, size_t sz)
{
    const char *suf = "th";
    if (n % 100 < 11 || n % 100 > 13)
        suf = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    snprintf(buf, sz, "%d%s", (int)n, suf);
}

/* What a sentence builder returns: its text, NULL when out of memory. */
static const char *said(const strbuf_t *out) { return out->oom ? NULL : out->s ? out->s : ""; }

const char *trace_describe(const fit_plan_t *p, int32_t i, strbuf_t *b)
{
    strbuf_reset(b);
    const fit_event_t *e = &p->events[i];
    const char *who = name_of(p, e->node);
    switch ((fit_event_kind_t)e->kind) {
    case EV_BASELINE:
        strbuf_printf(b, "baseline: the arena needs ");
        sb_bytes_exact(b, e->cur);
        break;
    case EV_KEPT:
        strbuf_printf(b, "candidate %s kept (recompute-cost bound ", who);
        sb_flops(b, e->cost);
        strbuf_printf(b, ")");
        break;
    case EV_DROPPED:
        strbuf_printf(b, "candidate %s dropped: the cap keeps the %d cheapest and its cost bound ", who, (int)p->cap);
        sb_flops(b, e->cost);
        strbuf_printf(b, " is above them");
        break;
    case EV_SOLO:
        strbuf_printf(b, "round one: %s alone scores ", who);
        sb_bytes(b, e->alone);
        strbuf_printf(b, ", relief ");
        sb_bytes_exact(b, e->relief); /* under 1 KiB once: "0 B", not "0 B (0 B)" */
        strbuf_printf(b, " for a recompute-cost bound of ");
        sb_flops(b, e->cost);
        break;
    case EV_ORDER: {
        char o[16];
        ordinal(e->rank, o, sizeof o);
        strbuf_printf(b, "round one: %s ranked %s: relief ", who, o);
        sb_bytes_exact(b, e->relief);
        strbuf_printf(b, " per cost ");
        sb_flops(b, e->cost);
        strbuf_printf(b, " (%.3g B/FLOP)", (double)e->relief / (double)e->cost);
        break;
    }
    case EV_TRY: {
        const int64_t all[3] = { e->alone, e->with, e->cur };
        strbuf_printf(b, "round two: try %s: alone ", who);
        sb_total(b, e->alone, all, 3);
        if (e->with >= 0) {
            strbuf_printf(b, ", with ");
            sb_held(b, p, e);
            strbuf_printf(b, " ");
            sb_total(b, e->with, all, 3);
        }
        strbuf_printf(b, ", current ");
        sb_total(b, e->cur, all, 3);
        break;
    }
    case EV_ACCEPT: {
        char c[32], a[32];
        units_format_bytes(e->cur, c, sizeof c);
        units_format_bytes(e->alone, a, sizeof a);
        strbuf_printf(b, "%s accepted: relieved ", who);
        sb_bytes(b, e->relief);
        if (strcmp(c, a) == 0) /* "(9.75 TiB -> 9.75 TiB)" would hide what decided */
            strbuf_printf(b, " (%lld B -> %lld B)", (long long)e->cur, (long long)e->alone);
        else
            strbuf_printf(b, " (%s -> %s)", c, a);
        break;
    }
    case EV_HOLD:
        strbuf_printf(b, "%s held: alone it relieves nothing (", who);
        sb_bytes(b, e->alone);
        if (group_inline(e)) {
            strbuf_printf(b, " = current); held group now ");
            sb_group(b, p, e);
        } else {
            strbuf_printf(b, " = current); the held group now has %d flips", (int)e->group_n);
        }
        break;
    case EV_COMMIT_GROUP:
        strbuf_printf(b, "load-bearing group");
        sb_group_after(b, p, e);
        strbuf_printf(b, " committed with %s: together ", who);
        sb_bytes(b, e->with);
        strbuf_printf(b, " < alone ");
        sb_bytes_vs(b, e->alone, e->with);
        strbuf_printf(b, " and < current ");
        sb_bytes_vs(b, e->cur, e->with);
        strbuf_printf(b, "; %s carries the relief ", who);
        sb_bytes(b, e->relief);
        strbuf_printf(b, ", the held flips 0");
        break;
    case EV_DISCARD_GROUP:
        strbuf_printf(b, "held group");
        sb_group_after(b, p, e);
        if (e->reason == WHY_HARMFUL) {
            strbuf_printf(b, " discarded as harmful: with it %s scores ", who);
            sb_bytes(b, e->with);
            strbuf_printf(b, " > ");
            sb_bytes_vs(b, e->alone, e->with);
            strbuf_printf(b, " without; never reconsidered");
        } else {
            strbuf_printf(b, " discarded at the end: recompute is never paid for zero bytes");
        }
        break;
    case EV_REJECT:
        strbuf_printf(b, "%s rejected: ", who);
        if (e->reason == WHY_NOT_BELOW_CUR) {
            strbuf_printf(b, "with ");
            sb_held(b, p, e);
            strbuf_printf(b, " ");
            sb_bytes(b, e->with);
            strbuf_printf(b, " beats alone ");
            sb_bytes_vs(b, e->alone, e->with);
            strbuf_printf(b, " but not the current ");
            sb_bytes_vs(b, e->cur, e->with);
            strbuf_printf(b, "; the group stays held");
        } else {
            strbuf_printf(b, "alone ");
            sb_bytes(b, e->alone);
            strbuf_printf(b, " > current ");
            sb_bytes_vs(b, e->cur, e->alone);
        }
        break;
    case EV_BUDGET_MET:
        strbuf_printf(b, "budget met: ");
        sb_bytes(b, e->cur);
        strbuf_printf(b, " <= ");
        sb_bytes_vs(b, p->budget, e->cur);
        break;
    case EV_END:
        strbuf_printf(b, "end: ");
        sb_bytes(b, e->cur);
        strbuf_printf(b, " after %d flip%s, %d considered, %d dropped", (int)p->n_flips, p->n_flips == 1 ? "" : "s",
                  (int)p->considered, (int)p->dropped);
        if (!p->within_budget) {
            strbuf_printf(b, "; over the budget ");
            sb_bytes(b, p->budget);
            strbuf_printf(b, " by ");
            sb_bytes(b, e->cur - p->budget);
            if (p->final.total == p->final.live_peak)
                strbuf_printf(b, ", at its max-live lower bound: no layout of these flips is smaller, only other flips");
        }
        break;
    }
    return said(b);
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

/* about, and the tries that scored node as a held member: where a held
 * flip's fate is decided (with the candidate tried, the group is scored). */
static bool in_chain(const fit_plan_t *p, const fit_event_t *e, int32_t node)
{
    return about(p, e, node) || (e->kind == EV_TRY && in_group(p, e, node));
}

int32_t trace_chain(const fit_plan_t *p, int32_t node, int32_t *chain, int32_t cap)
{
    int32_t m = 0;
    for (int32_t i = 0; i < p->n_events; i++)
        if (in_chain(p, &p->events[i], node)) {
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

static void sb_rank(strbuf_t *b, const fit_cand_t *c)
{
    char o[16];
    ordinal(c->rank, o, sizeof o);
    strbuf_printf(b, "; ranked %s by relief per cost (%.3g B/FLOP)", o, (double)c->relief / (double)c->cost);
}

/* Where a flip's recompute comes from: its own, a held member's 0, or the
 * whole group's on the flip that closed it (DESIGN §13). */
typedef enum { CARRIES_OWN, CARRIES_NONE, CARRIES_GROUP } carries_t;

/* What node's flip added, against the bound the ranking used, and why
 * the two differ: a number beside another reads as a bug unless said. */
static void sb_recompute(strbuf_t *b, const fit_plan_t *p, int32_t node, int64_t bound, carries_t carries)
{
    for (int32_t k = 0; k < p->n_flips; k++)
        if (p->flips[k].node == node) {
            int64_t added = p->flips[k].recompute;
            strbuf_printf(b, "; it added ");
            sb_flops(b, added);
            strbuf_printf(b, " of recompute");
            if (carries == CARRIES_NONE)
                strbuf_printf(b, ": a held member carries 0, the flip that closed its group all of it");
            else if (added == 0 && bound > 0 && carries == CARRIES_GROUP)
                strbuf_printf(b, ": inline, it and its group run no more often than they ran as buffers");
            else if (added == 0 && bound > 0)
                strbuf_printf(b, ": inline it runs no more often than the once it ran as a buffer");
            strbuf_printf(b, " (cost bound ");
            sb_flops(b, bound);
            strbuf_printf(b, ")");
            if (carries == CARRIES_GROUP && added > 0 && added != bound)
                strbuf_printf(b, ", the whole group's: the flip that closes a group carries what its members added");
            else if (carries == CARRIES_OWN && added > 0 && added < bound)
                strbuf_printf(b, ", less than the bound: the bound counts every run inline, the added compute nets "
                                 "out the run it had as a buffer");
            else if (carries == CARRIES_OWN && added > bound)
                strbuf_printf(b, ", more than the bound counted at the baseline: flips accepted before it made its "
                                 "readers inline, so they, and it, run more often");
            return;
        }
}

const char *trace_explain(const fit_plan_t *p, int32_t node, strbuf_t *b)
{
    strbuf_reset(b);
    const char *who = name_of(p, node);
    const fit_cand_t *c = trace_cand(p, node);
    if (!c) {
        strbuf_printf(b, "%s was no candidate of this fit (a resident, @output, @pinned or already inline node, "
                  "or the budget was met by the baseline)", who);
        return said(b);
    }
    const fit_event_t *e;
    switch ((fit_status_t)c->status) {
    case ST_ACCEPTED:
        e = last_event(p, node, EV_ACCEPT);
        strbuf_printf(b, "%s accepted in round two: relieved ", who);
        sb_bytes(b, e ? e->relief : 0);
        strbuf_printf(b, " on top of ");
        if (e && e->group_n && group_inline(e))
            sb_group(b, p, e);
        else if (e && e->group_n)
            strbuf_printf(b, "%d flips accepted before it", (int)e->group_n);
        else
            strbuf_printf(b, "the baseline");
        sb_rank(b, c);
        sb_recompute(b, p, node, c->cost, CARRIES_OWN);
        break;
    case ST_COMMITTED:
        e = last_event(p, node, EV_COMMIT_GROUP);
        if (e && e->node == node) {
            strbuf_printf(b, "%s committed in round two, closing the load-bearing group", who);
            sb_group_after(b, p, e);
            strbuf_printf(b, ": together they relieved ");
            sb_bytes(b, e->relief);
            if (e->alone >= e->cur) {
                strbuf_printf(b, " that none relieved alone, all of it credited to %s", who);
            } else {
                /* the closer relieved on its own too: the group is load-bearing for the difference */
                strbuf_printf(b, " (");
                sb_bytes(b, e->cur);
                strbuf_printf(b, " -> ");
                sb_bytes(b, e->with); /* the difference to alone follows in bytes */
                strbuf_printf(b, "), ");
                sb_bytes(b, e->alone - e->with);
                strbuf_printf(b, " more than %s alone (", who);
                sb_bytes(b, e->alone);
                strbuf_printf(b, "); round two credits all of it to %s and 0 to the held flips", who);
            }
        } else if (e) {
            strbuf_printf(b, "%s committed in round two as a held member of the load-bearing group", who);
            sb_group_after(b, p, e);
            strbuf_printf(b, " closed by %s: it carries 0, %s carries the relief ", name_of(p, e->node),
                      name_of(p, e->node));
            sb_bytes(b, e->relief);
        }
        sb_rank(b, c);
        sb_recompute(b, p, node, c->cost, !e ? CARRIES_OWN : e->node != node ? CARRIES_NONE : CARRIES_GROUP);
        break;
    case ST_DISCARDED:
        e = last_event(p, node, EV_DISCARD_GROUP);
        strbuf_printf(b, "%s discarded in round two: held because alone it relieved nothing, then ", who);
        if (e && e->reason == WHY_HARMFUL) {
            strbuf_printf(b, "its group proved harmful when %s scored ", name_of(p, e->node));
            sb_bytes(b, e->with);
            strbuf_printf(b, " with it and ");
            sb_bytes_vs(b, e->alone, e->with);
            strbuf_printf(b, " without");
        } else {
            strbuf_printf(b, "still held at the end (recompute is never paid for zero bytes)");
        }
        sb_rank(b, c);
        break;
    case ST_REJECTED:
        e = last_event(p, node, EV_REJECT);
        strbuf_printf(b, "%s rejected in round two: ", who);
        if (e && e->reason == WHY_NOT_BELOW_CUR) {
            strbuf_printf(b, "with the held group it scored ");
            sb_bytes(b, e->with);
            strbuf_printf(b, ", better than alone but not below the current ");
            sb_bytes_vs(b, e->cur, e->with);
        } else if (e) {
            strbuf_printf(b, "alone it made the arena ");
            sb_bytes(b, e->alone);
            strbuf_printf(b, ", above the current ");
            sb_bytes_vs(b, e->cur, e->alone);
        }
        sb_rank(b, c);
        break;
    case ST_DROPPED:
        strbuf_printf(b, "%s dropped before round one: the cap keeps the %d cheapest candidates and its cost bound ",
                  who, (int)p->cap);
        sb_flops(b, c->cost);
        strbuf_printf(b, " is above them");
        break;
    case ST_HELD:
    case ST_PENDING:
        strbuf_printf(b, "%s not tried in round two: the budget was met before its turn", who);
        sb_rank(b, c);
        break;
    }
    return said(b);
}

const char *trace_explain_group(const fit_plan_t *p, int32_t node, strbuf_t *b)
{
    strbuf_reset(b);
    const fit_cand_t *c = trace_cand(p, node);
    const fit_event_t *e = NULL;
    if (c && c->status == ST_ACCEPTED)
        e = last_event(p, node, EV_ACCEPT);
    else if (c && c->status == ST_COMMITTED)
        e = last_event(p, node, EV_COMMIT_GROUP);
    if (e && e->group_n && !group_inline(e)) {
        if (e->kind == EV_ACCEPT)
            strbuf_printf(b, "the %d flips accepted before %s: ", (int)e->group_n, name_of(p, node));
        else
            strbuf_printf(b, "the load-bearing group of %d flips: ", (int)e->group_n);
        sb_group(b, p, e);
    }
    return said(b);
}

int trace_round_two_at(const fit_plan_t *p, int32_t upto, trace_r2_t *out)
{
    int32_t n_nodes = p->routine->n_nodes;
    int32_t *slot = malloc(((size_t)n_nodes + 1) * sizeof *slot);
    if (!slot)
        return RS_ENOMEM;
    for (int32_t i = 0; i < n_nodes; i++)
        slot[i] = -1;
    for (int32_t k = 0; k < p->n_cands; k++) {
        slot[p->cands[k].node] = k;
        out[k] = (trace_r2_t){ 0, -1, R2_NOT_YET, WHY_NONE, false };
    }
    bool met = false;
    for (int32_t i = 0; i <= upto && i < p->n_events; i++) {
        const fit_event_t *e = &p->events[i];
        int32_t k = e->node >= 0 && e->node < n_nodes ? slot[e->node] : -1;
        trace_r2_t v = { 0, i, R2_NOT_YET, WHY_NONE, false };
        switch ((fit_event_kind_t)e->kind) {
        case EV_DROPPED: v.kind = R2_DROPPED; break;
        case EV_TRY: v.kind = R2_TRYING; break;
        case EV_ACCEPT: v.kind = R2_ACCEPTED, v.relief = e->relief; break;
        case EV_HOLD: v.kind = R2_HELD; break;
        case EV_REJECT: v.kind = R2_REJECTED, v.reason = e->reason; break;
        case EV_COMMIT_GROUP:
        case EV_DISCARD_GROUP: {
            bool commit = e->kind == EV_COMMIT_GROUP;
            trace_r2_t m = { 0, i, commit ? R2_COMMITTED : R2_DISCARDED, commit ? WHY_NONE : e->reason, false };
            for (int32_t g = 0; g < e->group_n; g++) {
                int32_t node = p->members[e->group_off + g];
                if (node >= 0 && node < n_nodes && slot[node] >= 0)
                    out[slot[node]] = m;
            }
            /* a discard names the try that showed it harmful: that
             * candidate's verdict is still to come */
            if (commit)
                v.kind = R2_COMMITTED, v.relief = e->relief, v.closer = true;
            else
                k = -1;
            break;
        }
        case EV_BUDGET_MET: met = true; k = -1; break;
        default: k = -1; break;
        }
        if (k >= 0)
            out[k] = v;
    }
    if (met)
        for (int32_t k = 0; k < p->n_cands; k++)
            if (out[k].kind == R2_NOT_YET)
                out[k].kind = R2_NOT_REACHED;
    free(slot);
    return RS_OK;
}

void trace_round_two_text(const trace_r2_t *v, bool narrow, char *buf, size_t n)
{
    char b[32];
    switch ((trace_r2_kind_t)v->kind) {
    case R2_NOT_YET: snprintf(buf, n, "not yet"); return;
    case R2_TRYING: snprintf(buf, n, "trying"); return;
    case R2_ACCEPTED:
    case R2_COMMITTED:
        units_format_bytes(v->relief < 0 ? -v->relief : v->relief, b, sizeof b);
        if (v->kind == R2_ACCEPTED)
            snprintf(buf, n, "%s%s", v->relief < 0 ? "-" : "+", b);
        else if (!v->closer)
            snprintf(buf, n, narrow ? "+0 group" : "+0 held group");
        else /* the closer carries the group's relief */
            snprintf(buf, n, narrow ? "+%s" : "+%s group", b);
        return;
    case R2_HELD: snprintf(buf, n, narrow ? "held" : "held (= cur)"); return;
    case R2_REJECTED:
        snprintf(buf, n, "%s", v->reason == WHY_NOT_BELOW_CUR ? (narrow ? "with >= cur" : "with grp >= cur")
                                                               : (narrow ? "worse alone" : "rej: worse alone"));
        return;
    case R2_DISCARDED:
        snprintf(buf, n, "%s", v->reason == WHY_HARMFUL ? (narrow ? "harmful" : "harmful group")
                                                         : (narrow ? "left over" : "left held at end"));
        return;
    case R2_DROPPED: snprintf(buf, n, narrow ? "over cap" : "dropped by cap"); return;
    case R2_NOT_REACHED: snprintf(buf, n, narrow ? "budget met" : "budget met first"); return;
    }
    snprintf(buf, n, "?");
}
