/* `rematscope verify [PLAN...]` (DESIGN §12): every stored plan rebuilt
 * from its stored routine text, bindings, config and context through the
 * plain scorer of plan/verify.c, and every recorded number checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "fail.h"
#include "library.h"
#include "layout/layout.h"
#include "model/units.h"
#include "plan/verify.h"
#include "plans.h"
#include "rebuild.h"
#include "target.h"
#include "util/strbuf.h"

typedef struct check {
    strbuf_t diff;   /* "; "-separated differences */
    int n;
    progress_t *pg;  /* where the plan's check is, on stderr: the plain path takes minutes on a real step */
    int32_t at;      /* the plan's place among those checked */
    int64_t id;
} check_t;

/* Tells where the check of k's plan is; RS_ECANCELED when ^C asked for a stop. */
static int told(check_t *k, const char *doing, int64_t done, int64_t n, rs_error_t *err)
{
    if (k->pg && progress_verify(k->pg, k->at, k->id, doing, done, n))
        return error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
    return RS_OK;
}

static void differ(check_t *k, const char *field, int64_t stored, int64_t rebuilt)
{
    if (stored == rebuilt)
        return;
    strbuf_printf(&k->diff, "%s%s: stored %lld, rebuilt %lld", k->n++ ? "; " : "", field, (long long)stored,
                  (long long)rebuilt);
}

static void differ_text(check_t *k, const char *what)
{
    strbuf_printf(&k->diff, "%s%s", k->n++ ? "; " : "", what);
}

static void differ_fp(check_t *k, const char *which, const footprint_t *stored, const footprint_t *rebuilt)
{
    char f[64];
    snprintf(f, sizeof f, "%s.total", which);
    differ(k, f, stored->total, rebuilt->total);
    snprintf(f, sizeof f, "%s.live_peak", which);
    differ(k, f, stored->live_peak, rebuilt->live_peak);
    snprintf(f, sizeof f, "%s.peak_step", which);
    differ(k, f, stored->peak_step, rebuilt->peak_step);
    snprintf(f, sizeof f, "%s.buffers", which);
    differ(k, f, stored->buffers, rebuilt->buffers);
    snprintf(f, sizeof f, "%s.compute", which);
    differ(k, f, stored->compute, rebuilt->compute);
}

/* The plain footprint of prefs; a plan laid out with another strategy than
 * the greedy gets its total from that strategy over the plain spans (the
 * plain path has only the §3 greedy), checked for overlaps like the rest. */
static int plain_score(const rebuilt_t *rb, const uint8_t *prefs, footprint_t *fp, check_t *k, const char *which,
                       rs_error_t *err)
{
    verify_layout_t lay;
    int rc = verify_score(rb->lowering, prefs, &rb->cfg, fp, &lay, err);
    if (rc)
        return rc;
    int32_t a, b;
    char what[256];
    if (verify_overlap(lay.n, lay.start, lay.end, lay.size, lay.offset, &a, &b)) {
        snprintf(what, sizeof what, "%s: the plain layout overlaps %s and %s", which,
                 rb->routine->nodes[lay.node[a]].name, rb->routine->nodes[lay.node[b]].name);
        differ_text(k, what);
    }
    if (rb->cfg.layout != LAYOUT_GREEDY && lay.n > 0) {
        arena_buf_t *bufs = malloc((size_t)lay.n * sizeof *bufs);
        if (!bufs) {
            verify_layout_free(&lay);
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        }
        for (int32_t i = 0; i < lay.n; i++)
            bufs[i] = (arena_buf_t){ rb->lowering->bytes[lay.node[i]], lay.start[i], lay.end[i] };
        rc = layout_run(bufs, lay.n, rb->cfg.alignment, rb->cfg.layout, lay.offset, &fp->total, err);
        free(bufs);
        if (!rc && verify_overlap(lay.n, lay.start, lay.end, lay.size, lay.offset, &a, &b)) {
            snprintf(what, sizeof what, "%s: the %s layout overlaps %s and %s", which,
                     layout_strategy_name(rb->cfg.layout), rb->routine->nodes[lay.node[a]].name,
                     rb->routine->nodes[lay.node[b]].name);
            differ_text(k, what);
        }
    }
    verify_layout_free(&lay);
    return rc;
}

/* The layout fit's own scorer gives the final plan: no two buffers live at
 * a step may share bytes. */
static int real_layout_check(const rebuilt_t *rb, const uint8_t *prefs, check_t *k, rs_error_t *err)
{
    footprint_t fp;
    score_detail_t d;
    int rc = score_lowering(rb->lowering, prefs, &rb->cfg, &fp, &d, err);
    int32_t N = rb->lowering->n_nodes, m = 0;
    int64_t *v = rc ? NULL : malloc(((size_t)N + 1) * 4 * sizeof *v);
    int32_t *node = rc ? NULL : malloc(((size_t)N + 1) * sizeof *node);
    if (!rc && (!v || !node))
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc) {
        int64_t *start = v, *end = v + N + 1, *size = v + 2 * (N + 1), *off = v + 3 * (N + 1);
        for (int32_t i = 0; i < N; i++) {
            if (d.place.is_inline[i])
                continue;
            node[m] = i;
            start[m] = d.live.start[i];
            end[m] = d.live.end[i];
            size[m] = d.aligned[i];
            off[m++] = d.offset[i];
        }
        int32_t a, b;
        if (verify_overlap(m, start, end, size, off, &a, &b)) {
            char what[256];
            snprintf(what, sizeof what, "layout: %s and %s are live at the same step and overlap",
                     rb->routine->nodes[node[a]].name, rb->routine->nodes[node[b]].name);
            differ_text(k, what);
        }
    }
    free(v);
    free(node);
    score_detail_free(&d);
    return rc;
}

/* The flips replayed in acceptance order: a flip with relief 0 joins a
 * held group (§5: only group members carry 0); a positive one is accepted
 * (alone) or closes the group, and carries cur - score(everything so far),
 * and (§13, when the plan kept it) the compute added since the last
 * scoring; a member carries recompute 0. */
static int check_reliefs(const rebuilt_t *rb, const stored_plan_t *p, const footprint_t *base, check_t *k,
                         rs_error_t *err)
{
    size_t nn = (size_t)rb->routine->n_nodes + 1;
    uint8_t *prefs = malloc(nn);
    if (!prefs)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(prefs, rb->root_prefs, nn);
    int64_t cur = base->total, sum = 0, cur_compute = base->compute, rec_sum = 0;
    int32_t pending = 0;
    int rc = RS_OK;
    for (int32_t i = 0; i < p->n_flips && !rc; i++) {
        int32_t id = routine_find_node(rb->routine, p->flips[i].node);
        if (id < 0) {
            rc = error_set(err, RS_ESTORE, NULL, 0, 0, "plan %lld: flip '%s' names no node of %s", (long long)p->id,
                           p->flips[i].node, rb->routine->name);
            break;
        }
        if ((rc = told(k, "replaying the flips", i, p->n_flips, err)))
            break;
        prefs[id] = 1;
        sum += p->flips[i].relief;
        rec_sum += p->flips[i].recompute;
        char field[300];
        if (p->flips[i].relief == 0) {
            if (p->recompute_known) {
                snprintf(field, sizeof field, "recompute of flip %d (%s)", (int)i + 1, p->flips[i].node);
                differ(k, field, p->flips[i].recompute, 0);
            }
            pending++;
            continue;
        }
        footprint_t fp;
        check_t quiet = { 0 };
        strbuf_init(&quiet.diff);
        rc = plain_score(rb, prefs, &fp, &quiet, "relief", err);
        strbuf_free(&quiet.diff);
        if (rc)
            break;
        snprintf(field, sizeof field, "relief of flip %d (%s)", (int)i + 1, p->flips[i].node);
        differ(k, field, p->flips[i].relief, cur - fp.total);
        if (p->recompute_known) {
            snprintf(field, sizeof field, "recompute of flip %d (%s)", (int)i + 1, p->flips[i].node);
            differ(k, field, p->flips[i].recompute, fp.compute - cur_compute);
        }
        cur = fp.total;
        cur_compute = fp.compute;
        pending = 0;
    }
    if (!rc && pending)
        differ_text(k, "the last flips carry relief 0: a held group is never committed at the end");
    differ(k, "relief sum", sum, p->baseline.total - p->final.total);
    if (p->recompute_known)
        differ(k, "recompute sum", rec_sum, p->final.compute - p->baseline.compute);
    free(prefs);
    return rc;
}

/* A budget asked for as a share of the baseline (or as the device) must
 * come to the bytes stored, against the rebuilt baseline. */
static int check_budget(store_t *s, const stored_plan_t *p, const footprint_t *base, check_t *k, rs_error_t *err)
{
    budget_spec_t spec;
    rs_error_t perr;
    if (!p->budget_spec[0])
        return RS_OK; /* saved before the store kept it */
    if (units_parse_budget(p->budget_spec, "budget", &spec, &perr)) {
        strbuf_printf(&k->diff, "%sbudget_spec: '%s' is not a budget", k->n++ ? "; " : "", p->budget_spec);
        return RS_OK;
    }
    int64_t device = -1, bytes;
    bool minimize, found = false;
    if (spec.kind == BUDGET_DEVICE && p->profile[0]) {
        profile_t prof;
        int rc = library_profile_find(s, p->profile, &prof, NULL, &found, err);
        if (rc)
            return rc;
        if (found)
            device = prof.memory_bytes;
    }
    if (units_budget_resolve(&spec, base->total, device, &bytes, &minimize, &perr))
        strbuf_printf(&k->diff, "%sbudget_spec: '%s' does not resolve: %s", k->n++ ? "; " : "", p->budget_spec,
                      perr.msg);
    else
        differ(k, "budget_bytes", p->budget_bytes, minimize ? -1 : bytes);
    return RS_OK;
}

/* DESIGN §14: the frontier plan saved beside p, through the plain scorer
 * of remat flips: its final, each flip's relief and recompute replayed in
 * its order (the difference it makes on top of those before it), their
 * sums, within_budget, and a plain layout without overlaps. */
static int check_frontier(const rebuilt_t *rb, const stored_plan_t *p, const footprint_t *base, check_t *k,
                          rs_error_t *err)
{
    const stored_frontier_t *f = &p->frontier;
    size_t nn = (size_t)rb->routine->n_nodes + 1;
    uint8_t *prefs = malloc(nn), *remat = calloc(nn, 1);
    if (!prefs || !remat) {
        free(prefs);
        free(remat);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    memcpy(prefs, rb->root_prefs, nn);
    int64_t cur = base->total, cur_compute = base->compute, sum = 0, rec_sum = 0;
    footprint_t fp = *base;
    int rc = RS_OK;
    for (int32_t i = 0; i < f->n_flips && !rc; i++) {
        const stored_frontier_flip_t *x = &f->flips[i];
        int32_t id = routine_find_node(rb->routine, x->node);
        if (id < 0) {
            rc = error_set(err, RS_ESTORE, NULL, 0, 0, "plan %lld: frontier flip '%s' names no node of %s",
                           (long long)p->id, x->node, rb->routine->name);
            break;
        }
        if ((rc = told(k, "replaying the frontier plan", i, f->n_flips, err)))
            break;
        (x->kind == FRONTIER_REMAT ? remat : prefs)[id] = 1;
        if ((rc = verify_score_remat(rb->lowering, prefs, remat, &rb->cfg, &fp, NULL, NULL, err)))
            break;
        char field[300];
        snprintf(field, sizeof field, "frontier: relief of flip %d (%s %s)", (int)i + 1,
                 frontier_kind_name(x->kind), x->node);
        differ(k, field, x->relief, cur - fp.total);
        snprintf(field, sizeof field, "frontier: recompute of flip %d (%s %s)", (int)i + 1,
                 frontier_kind_name(x->kind), x->node);
        differ(k, field, x->recompute, fp.compute - cur_compute);
        cur = fp.total;
        cur_compute = fp.compute;
        sum += x->relief;
        rec_sum += x->recompute;
    }
    verify_layout_t lay;
    if (!rc)
        rc = verify_score_remat(rb->lowering, prefs, remat, &rb->cfg, &fp, NULL, &lay, err);
    if (!rc) {
        differ_fp(k, "frontier.final", &f->final, &fp);
        differ(k, "frontier: relief sum", sum, base->total - f->final.total);
        differ(k, "frontier: recompute sum", rec_sum, f->final.compute - base->compute);
        bool minimize = strcmp(p->budget_kind, "minimize") == 0;
        differ(k, "frontier.within_budget", f->within_budget, minimize || fp.total <= p->budget_bytes);
        int32_t a, b;
        if (verify_overlap(lay.n, lay.start, lay.end, lay.size, lay.offset, &a, &b)) {
            char what[256];
            snprintf(what, sizeof what, "frontier: the plain layout overlaps %s and %s",
                     rb->routine->nodes[lay.node[a]].name, rb->routine->nodes[lay.node[b]].name);
            differ_text(k, what);
        }
        verify_layout_free(&lay);
    }
    free(prefs);
    free(remat);
    return rc;
}

static int verify_one(store_t *s, int64_t id, check_t *k, rs_error_t *err)
{
    stored_plan_t p;
    int rc = plans_load(s, id, false, &p, err);
    if (rc)
        return rc;
    rebuilt_t rb;
    rc = rebuild_plan(s, &p, &rb, err);
    if (rc) {
        stored_plan_free(&p);
        return rc;
    }
    size_t nn = (size_t)rb.routine->n_nodes + 1;
    uint8_t *flipped = malloc(nn);
    if (!flipped)
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    footprint_t base, fin;
    if (!rc)
        rc = told(k, "scoring the baseline", 0, 0, err);
    if (!rc)
        rc = plain_score(&rb, rb.root_prefs, &base, k, "baseline", err);
    if (!rc) {
        differ_fp(k, "baseline", &p.baseline, &base);
        memcpy(flipped, rb.root_prefs, nn);
        for (int32_t i = 0; i < p.n_flips; i++) {
            int32_t n = routine_find_node(rb.routine, p.flips[i].node);
            if (n >= 0)
                flipped[n] = 1;
        }
        if (memcmp(flipped, rb.final_prefs, nn) != 0)
            differ_text(k, "the child context's preferences are not the root's plus the flips");
        rc = told(k, "scoring the final plan", 0, 0, err);
        if (!rc)
            rc = plain_score(&rb, flipped, &fin, k, "final", err);
    }
    if (!rc) {
        differ_fp(k, "final", &p.final, &fin);
        rc = check_reliefs(&rb, &p, &base, k, err);
    }
    if (!rc) {
        bool minimize = strcmp(p.budget_kind, "minimize") == 0;
        differ(k, "within_budget", p.within_budget, minimize || fin.total <= p.budget_bytes);
        rc = check_budget(s, &p, &base, k, err);
    }
    if (!rc)
        rc = told(k, "checking the layout", 0, 0, err);
    if (!rc)
        rc = real_layout_check(&rb, flipped, k, err);
    if (!rc && p.frontier.present)
        rc = check_frontier(&rb, &p, &base, k, err);
    free(flipped);
    rebuild_free(&rb);
    stored_plan_free(&p);
    return rc;
}

int cmd_verify(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    store_t *s;
    if (session_open(c, &s, &err))
        return fail_print(&err);
    int64_t *ids = NULL;
    int n = 0, rc = RS_OK;
    if (c->n_pos) {
        ids = calloc((size_t)c->n_pos, sizeof *ids);
        if (!ids)
            rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        for (int i = 0; i < c->n_pos && !rc; i++)
            rc = units_parse_int(c->pos[i], "PLAN", 1, INT64_MAX, &ids[n++], &err);
    } else {
        stored_plan_t *all;
        rc = plans_list(s, &all, &n, &err);
        if (!rc) {
            ids = calloc((size_t)(n ? n : 1), sizeof *ids);
            for (int i = 0; ids && i < n; i++)
                ids[i] = all[n - 1 - i].id; /* oldest first */
            plans_list_free(all, n);
            if (!ids)
                rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    int bad = 0;
    progress_t pg;
    progress_verify_begin(&pg, !c->no_progress, n);
    for (int i = 0; i < n && !rc; i++) {
        check_t k = { .pg = &pg, .at = i, .id = ids[i] };
        strbuf_init(&k.diff);
        rc = verify_one(s, ids[i], &k, &err);
        if (!rc) {
            progress_clear(&pg);
            printf("plan %lld: %s%s\n", (long long)ids[i], k.n ? "DIFFERS: " : "ok", k.n ? k.diff.s : "");
            fflush(stdout);
            bad += k.n > 0;
        }
        strbuf_free(&k.diff);
    }
    bool stopped = progress_end(&pg);
    free(ids);
    store_close(s);
    if (rc == RS_ECANCELED && stopped)
        return progress_fail_stopped(&pg);
    if (rc)
        return fail_print(&err);
    if (!n)
        printf("(no plans to verify)\n");
    return bad ? 1 : 0;
}
