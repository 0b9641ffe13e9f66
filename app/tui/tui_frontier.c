/* The Fit screen's F: the frontier plan (DESIGN §14) beside the two-round
 * plan, and its schedule drawn as an arena (Fit's pane, the Arena). */
#include "tui/tui_frontier.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontier_plan.h"
#include "model/units.h"
#include "plan/answer.h"
#include "text.h"
#include "tui/tui_arena.h"
#include "tui/tui_draw.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"

/* The search and its schedule on a worker: the session is untouched
 * until it is done. */
typedef struct frontier_work {
    const fit_plan_t *plan;
    const fit_context_t *ctx;
    const target_t *tgt;
    frontier_result_t fr;
    double seconds;
    arena_view_t arena;
} frontier_work_t;

/* f's §14 schedule on tgt's lowering as an arena: the buffers with the
 * copies last, the live bytes, and per step what it recomputes. */
static int schedule(const target_t *tgt, const fit_context_t *ctx, const frontier_result_t *f, arena_view_t *a,
                    rs_error_t *err)
{
    remat_detail_t d;
    int rc = frontier_score_detail(ctx, tgt->lowering, f->flips, f->n_flips, &a->fp, &d, err);
    if (!rc && view_buffers_remat(tgt->lowering, &d, &a->bufs, &a->n))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc) {
        a->steps = d.n_steps > 0 ? d.n_steps : 1;
        a->n_copies = d.n_copies;
        a->live = view_live_bytes(a->bufs, a->n, a->steps);
        a->recompute = malloc((size_t)a->steps * sizeof *a->recompute);
        if (!a->live || !a->recompute)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        for (int64_t s = 0; !rc && s < a->steps; s++)
            a->recompute[s] = s < d.n_steps && d.step_orig[s] < 0 ? d.step_node[s] : -1;
    }
    remat_detail_free(&d);
    return rc;
}

static int frontier_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    frontier_work_t *w = ud;
    tui_job_doing(job, "inline and remat flips from the two-round plan's %s",
                  text_count(w->plan->n_flips, "flip", NULL));
    /* the search stops at three quarters of the limit (frontier_plan_run) */
    tui_job_time_limit(job, (int64_t)(FRONTIER_DEFAULT_SECONDS * 0.75e6));
    int rc = frontier_plan_run(w->plan, w->ctx, FRONTIER_DEFAULT_SECONDS, 0, tui_job_stop_cb, job, &w->fr,
                               &w->seconds, err);
    if (!rc) {
        tui_job_time_limit(job, 0);
        tui_job_doing(job, "its schedule");
        rc = schedule(w->tgt, w->ctx, &w->fr, &w->arena, err);
    }
    return rc;
}

void tui_frontier_free(tui_t *t)
{
    frontier_result_free(&t->frontier);
    memset(&t->frontier, 0, sizeof t->frontier);
    tui_arena_free(&t->fr_arena);
    t->has_frontier = t->show_frontier = false;
    t->fr_sel = t->fr_top = 0;
}

bool tui_frontier_same(const tui_t *t)
{
    const frontier_result_t *f = &t->frontier;
    if (f->n_flips != t->plan->n_flips)
        return false;
    for (int32_t k = 0; k < f->n_flips; k++)
        if (f->flips[k].kind != FRONTIER_INLINE || !best_plan_has(t->plan, f->flips[k].node))
            return false;
    return true;
}

void tui_frontier_toggle(tui_t *t)
{
    if (t->has_frontier) {
        t->show_frontier = !t->show_frontier;
        tui_status(t, false, t->show_frontier ? "the frontier plan (F hides it; 2: its schedule on the Arena)"
                                              : "the two-round plan's candidates (F: the frontier plan again)");
        return;
    }
    frontier_work_t w = { .plan = t->plan, .ctx = t->ctx, .tgt = &t->tgt };
    rs_error_t err;
    int rc = tui_wait(t, "the frontier plan", frontier_work, &w, &err);
    if (rc) {
        frontier_result_free(&w.fr);
        tui_arena_free(&w.arena);
        tui_error(t, "the frontier plan", &err);
        return;
    }
    t->frontier = w.fr;
    t->frontier_s = w.seconds;
    t->fr_arena = w.arena;
    t->has_frontier = t->show_frontier = true;
    t->fr_sel = t->fr_top = 0;
    tui_status(t, false, "frontier plan: %s in %.2f s%s; F hides it, 2 draws its schedule",
               text_count(t->frontier.explored, "scoring", NULL), t->frontier_s,
               t->frontier.stopped ? " (stopped: the best found)" : "");
}

/* The added compute of a plan over the baseline, as Fit says it. */
static void added(int64_t compute, int64_t baseline, char *buf, size_t n)
{
    text_recompute(compute - baseline, baseline, 0, "", buf, n);
}

/* A signed amount: "-2.81 MiB", "+5 FLOPs". */
static void signed_bytes(int64_t v, char *buf, size_t n)
{
    char b[32];
    units_format_bytes(v < 0 ? -v : v, b, sizeof b);
    snprintf(buf, n, "%s%s", v < 0 ? "-" : "", b);
}

static void signed_flops(int64_t v, char *buf, size_t n)
{
    char b[32];
    units_format_flops(v < 0 ? -v : v, b, sizeof b);
    snprintf(buf, n, "%s%s", v < 0 ? "-" : "+", b);
}

void tui_frontier_draw(tui_t *t, int y, int lw, int rows)
{
    const fit_plan_t *p = t->plan;
    const frontier_result_t *f = &t->frontier;
    const routine_t *r = t->tgt.routine;
    char bud[96], tot[64], two[64], fr_add[96], two_add[96], line[320];
    units_format_budget(t->fit_budget_text, p->minimize, p->budget, bud, sizeof bud);
    units_format_bytes_exact(f->final.total, tot, sizeof tot);
    units_format_bytes_exact(p->final.total, two, sizeof two);
    added(f->final.compute, f->baseline.compute, fr_add, sizeof fr_add);
    added(p->final.compute, p->baseline.compute, two_add, sizeof two_add);
    int32_t n_remat = 0;
    for (int32_t k = 0; k < f->n_flips; k++)
        n_remat += f->flips[k].kind == FRONTIER_REMAT;
    int end = y + 1 + rows;
    tui_putf(t, y++, 1, lw, t->attr[T_NORMAL] | A_BOLD, "frontier plan (DESIGN %s14) at %s", tui_glyph(t, "§", "section "), bud);
    snprintf(line, sizeof line, "total %s, %s; two-round's %s", tot,
             p->minimize ? "the least it found" : f->within_budget ? "within budget" : "NOT within budget", two);
    y += tui_put_prose(t, y, 1, lw - 1, end - y, 2, t->attr[f->within_budget ? T_ACCEPTED : T_REJECTED], line, NULL);
    snprintf(line, sizeof line, "added compute %s; two-round's %s", fr_add, two_add);
    y += tui_put_prose(t, y, 1, lw - 1, end - y, 2, t->attr[T_NORMAL], line, NULL);
    snprintf(line, sizeof line, "%s, %lld remat; %s; %s", text_count(f->n_flips, "flip", NULL), (long long)n_remat,
             tui_frontier_same(t) ? "the same plan as two-round's" : "not the two-round plan",
             f->seeds_cut ? "stopped in the policy-like seeds (the search before them finished)"
             : f->stopped ? "stopped (the best found)"
                          : "the search finished");
    y += tui_put_prose(t, y, 1, lw - 1, end - y, 2, t->attr[T_NORMAL], line, NULL);
    if (y >= end)
        return;
    int nw = lw > 60 ? 14 : 10, ow = lw - (38 + nw); /* the origin after the recompute's column and a blank */
    tui_putf(t, y++, 1, lw, t->attr[T_DIM], "%3s %-6s %-*s %10s %13s %s", "#", "kind", nw, "node", "relief",
             "recompute", "origin");
    int list = end - y;
    if (t->fr_sel >= f->n_flips)
        t->fr_sel = f->n_flips ? f->n_flips - 1 : 0;
    if (t->fr_sel < t->fr_top)
        t->fr_top = t->fr_sel;
    if (list > 0 && t->fr_sel >= t->fr_top + list)
        t->fr_top = t->fr_sel - list + 1;
    if (!f->n_flips && list > 0)
        tui_put(t, y, 5, lw - 4, t->attr[T_DIM], "(no flips: the context alone)");
    for (int k = 0; k < list && t->fr_top + k < f->n_flips; k++) {
        int i = t->fr_top + k;
        const frontier_flip_t *fl = &f->flips[i];
        char rel[40], rec[40], nm[200], origin[1024];
        /* where it came from as g groups flips (§13): the source, else the op; the function with it */
        const char *fn = r->nodes[fl->node].origin->function;
        snprintf(origin, sizeof origin, fn ? "%s (%s)" : "%s", answer_origin_of(r, fl->node), fn);
        signed_bytes(fl->relief, rel, sizeof rel);
        signed_flops(fl->recompute, rec, sizeof rec);
        unsigned a = i == t->fr_sel ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        tui_fill(t, y + k, 1, lw, a);
        tui_putf(t, y + k, 1, lw, a, "%3d %-6s %s %10s %13s", i + 1, frontier_kind_name((frontier_kind_t)fl->kind),
                 tui_clip_name(t, r->nodes[fl->node].name, nw, nm, sizeof nm), rel, rec);
        if (ow > 0)
            tui_put_left_cut(t, y + k, lw - ow, ow, a, origin);
    }
}

bool tui_frontier_key(tui_t *t, action_t a, int rows)
{
    int n = t->frontier.n_flips, page = rows > 1 ? rows - 1 : 1;
    switch (a) {
    case ACT_UP: t->fr_sel -= t->fr_sel > 0; return true;
    case ACT_DOWN: t->fr_sel += t->fr_sel + 1 < n; return true;
    case ACT_PGUP: t->fr_sel = t->fr_sel > page ? t->fr_sel - page : 0; return true;
    case ACT_PGDN: t->fr_sel = t->fr_sel + page < n ? t->fr_sel + page : (n ? n - 1 : 0); return true;
    case ACT_TOP: t->fr_sel = 0; return true;
    case ACT_BOTTOM: t->fr_sel = n ? n - 1 : 0; return true;
    default: return false;
    }
}

bool tui_frontier_select(tui_t *t)
{
    const arena_view_t *a = &t->fr_arena;
    if (!t->has_frontier || t->fr_sel >= t->frontier.n_flips || !a->bufs)
        return false;
    const frontier_flip_t *fl = &t->frontier.flips[t->fr_sel];
    const char *name = t->tgt.routine->nodes[fl->node].name;
    /* a remat flip's copy (the last of the node's buffers), else its node's buffer */
    int found = -1;
    for (int b = 0; b < a->n; b++)
        if (a->bufs[b].node == fl->node)
            found = b;
    if (found < 0) {
        tui_status(t, false, "%s is inline in the frontier plan: it has no buffer (its readers recompute it)", name);
        return false;
    }
    t->sel_buf = found;
    t->inspect = false;
    tui_status(t, false, "%s%s: steps %lld-%lld of the frontier plan's %lld", name,
               tui_frontier_is_copy(a, found) ? tui_glyph(t, "′", "'") : "", (long long)a->bufs[found].start,
               (long long)a->bufs[found].end, (long long)a->steps);
    return true;
}

void tui_frontier_arena_head(tui_t *t, int y, int x, int w)
{
    const arena_view_t *a = &t->fr_arena;
    char tot[32], v[3][160];
    units_format_bytes(a->fp.total, tot, sizeof tot);
    snprintf(v[0], sizeof v[0], "frontier plan's schedule: %s, %lld steps, %s", tot, (long long)a->steps,
             text_count(a->n_copies, "copy", "copies"));
    snprintf(v[1], sizeof v[1], "frontier: %s, %s", tot, text_count(a->n_copies, "copy", "copies"));
    snprintf(v[2], sizeof v[2], "frontier %s", tot);
    tui_put_fit(t, y, x, w, t->attr[T_DIM], (const char *const[]){ v[0], v[1], v[2] }, 3);
}

bool tui_frontier_is_copy(const arena_view_t *a, int b) { return a->n_copies > 0 && b >= a->n - a->n_copies && b < a->n; }

const char *tui_frontier_label(const tui_t *t, const arena_view_t *a, int b, const char *name, char *buf, size_t n)
{
    if (!tui_frontier_is_copy(a, b))
        return name;
    snprintf(buf, n, "%s%s", name, tui_glyph(t, "′", "'"));
    return buf;
}

/* The frontier plan's flip of node i, or NULL. */
static const frontier_flip_t *flip_of(const tui_t *t, int32_t i)
{
    for (int32_t k = 0; t->has_frontier && k < t->frontier.n_flips; k++)
        if (t->frontier.flips[k].node == i)
            return &t->frontier.flips[k];
    return NULL;
}

int tui_frontier_details(tui_t *t, const arena_view_t *a, int b, int y, int x, int w)
{
    if (a != &t->fr_arena)
        return y;
    int32_t i = a->bufs[b].node;
    if (tui_frontier_is_copy(a, b)) {
        tui_putf(t, y++, x, w, t->attr[T_HELD], "copy    recomputed once at step %lld", (long long)a->bufs[b].start);
        for (int k = 0; k < a->n - a->n_copies; k++)
            if (a->bufs[k].node == i)
                tui_putf(t, y++, x, w, t->attr[T_DIM], "        %s itself: steps %lld-%lld", t->tgt.routine->nodes[i].name,
                         (long long)a->bufs[k].start, (long long)a->bufs[k].end);
    }
    const frontier_flip_t *fl = flip_of(t, i);
    if (fl) {
        char rel[40], rec[40];
        signed_bytes(fl->relief, rel, sizeof rel);
        signed_flops(fl->recompute, rec, sizeof rec);
        tui_putf(t, y++, x, w, t->attr[T_NORMAL], "%-7s %s for %s", frontier_kind_name((frontier_kind_t)fl->kind),
                 rel, rec);
    }
    return y;
}

int tui_frontier_legend(tui_t *t, const arena_view_t *a, int y, int x, int w)
{
    if (a != &t->fr_arena || !a->n_copies)
        return y;
    tui_put(t, y, x + 1, 1, t->attr[T_HELD], tui_glyph(t, "▚", "%"));
    tui_putf(t, y++, x + 3, w - 3, t->attr[T_DIM], "copy (name%s), recomputed once", tui_glyph(t, "′", "'"));
    return y;
}

bool tui_frontier_roles(const tui_t *t, const arena_view_t *a, int64_t s, int64_t role[FLOOR_ROLES])
{
    if (a != &t->fr_arena)
        return false;
    memset(role, 0, FLOOR_ROLES * sizeof *role);
    for (int32_t b = 0; b < a->n; b++)
        if (a->bufs[b].start <= s && s <= a->bufs[b].end)
            role[lower_role(t->tgt.lowering, a->bufs[b].node)] += a->bufs[b].size;
    return true;
}

const char *tui_frontier_step_note(const tui_t *t, const arena_view_t *a, int64_t s, char *buf, size_t n)
{
    buf[0] = 0;
    if (a->recompute && s >= 0 && s < a->steps && a->recompute[s] >= 0)
        snprintf(buf, n, " recomputes %s", t->tgt.routine->nodes[a->recompute[s]].name);
    return buf;
}
