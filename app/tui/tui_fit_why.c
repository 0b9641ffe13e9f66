/* The Fit screen's Enter: why the selected candidate ended as it did. */
#include "tui/tui_fit_why.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/trace.h"
#include "text.h"
#include "tui/tui_widgets.h"

/* The compute node's flip added in people's units, its share of the step
 * and its time on the session's profile ("recompute: +208 MFLOPs
 * (+1.900%), about +668 ns on a100-80gb"); false when it is no flip. */
static bool flip_recompute(const tui_t *t, int32_t node, char *buf, size_t n)
{
    for (int32_t k = 0; k < t->plan->n_flips; k++)
        if (t->plan->flips[k].node == node) {
            char rec[192];
            bool timed = t->tgt.has_profile && t->tgt.profile.flops_per_s > 0;
            text_recompute(t->plan->flips[k].recompute, t->plan->baseline.compute,
                           timed ? t->tgt.profile.flops_per_s : 0, timed ? t->tgt.profile.name : "", rec, sizeof rec);
            snprintf(buf, n, "recompute: %s", rec);
            return true;
        }
    return false;
}

void tui_fit_why(tui_t *t)
{
    if (!t->plan->n_cands)
        return;
    int32_t node = t->plan->cands[t->fit_sel].node;
    int32_t n = trace_chain(t->plan, node, NULL, 0);
    int32_t *chain = malloc(((size_t)n + 1) * sizeof *chain);
    char **lines = calloc((size_t)n + 9, sizeof *lines);
    if (!chain || !lines) {
        free(chain);
        free(lines);
        return;
    }
    trace_chain(t->plan, node, chain, n);
    char buf[1024];
    strbuf_t text, line;
    strbuf_init(&text);
    strbuf_init(&line);
    const char *why = trace_explain(t->plan, node, &text);
    int m = 0;
    lines[m++] = strdup(why ? why : "(out of memory)");
    char rec[256];
    if (flip_recompute(t, node, rec, sizeof rec))
        lines[m++] = strdup(rec);
    /* the HLO instruction and the source line it came from (§10) */
    char origin[900];
    if (routine_node_origin(t->tgt.routine, node, origin, sizeof origin)[0]) {
        snprintf(buf, sizeof buf, "from %s", origin);
        lines[m++] = strdup(buf);
    }
    /* round one ranks a candidate that makes memory worse above a neutral
     * one (DESIGN §5): said here, so the order does not read as a bug */
    lines[m++] = strdup("round one's order: positive relief first (most bytes per FLOP first), then negative (worse "
                        "alone), then none (neutral) last");
    lines[m++] = strdup("");
    int32_t last = 0; /* the event column as wide as its biggest number: 5 digits on a 13k-instruction step */
    for (int32_t k = 0; k < n; k++)
        last = chain[k] > last ? chain[k] : last;
    int ew = snprintf(NULL, 0, "%d", (int)last);
    ew = ew < 4 ? 4 : ew;
    for (int32_t k = 0; k < n; k++) {
        const char *said = trace_describe(t->plan, chain[k], &text);
        strbuf_reset(&line);
        strbuf_printf(&line, "%*d  r%d %-13s %s", ew, (int)chain[k], (int)t->plan->events[chain[k]].round,
                      trace_kind_name((fit_event_kind_t)t->plan->events[chain[k]].kind), said ? said : "(out of memory)");
        lines[m++] = strdup(line.oom || !line.s ? "(out of memory)" : line.s);
    }
    /* a big group's names once, last: the verdict and the events first */
    const char *group = trace_explain_group(t->plan, node, &text);
    if (group && group[0]) {
        lines[m++] = strdup("");
        lines[m++] = strdup(group);
    }
    strbuf_free(&text);
    strbuf_free(&line);
    char title[160];
    snprintf(title, sizeof title, "Why: %s", t->tgt.routine->nodes[node].name);
    tui_overlay(t, title, lines, m);
    for (int i = 0; i < m; i++)
        free(lines[i]);
    free(lines);
    free(chain);
}
