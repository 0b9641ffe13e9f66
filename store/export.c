#include "export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csvio.h"
#include "minimalloc.h"
#include "plan/answer.h"
#include "rebuild.h"
#include "wfile.h"

static const char *WHAT_NAMES[] = { "plans", "flips", "events", "layout", "origins", "frontier" };
#define N_WHAT ((int)(sizeof WHAT_NAMES / sizeof WHAT_NAMES[0]))

int export_what_parse(const char *s)
{
    for (int i = 0; i < N_WHAT; i++)
        if (strcmp(WHAT_NAMES[i], s) == 0)
            return i;
    return -1;
}

const char *export_what_name(int i) { return i >= 0 && i < N_WHAT ? WHAT_NAMES[i] : NULL; }

void export_plan_path(const char *path, int64_t id, char *buf, size_t n)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (dot && dot > path && (!slash || dot > slash + 1))
        snprintf(buf, n, "%.*s-%lld%s", (int)(dot - path), path, (long long)id, dot);
    else
        snprintf(buf, n, "%s-%lld", path, (long long)id);
}

/* Whether text cells go out verbatim: set for the length of one export
 * (the tool writes one at a time). */
static bool raw_text;

/* A text cell (see csvio_write_cell) and its separator. */
static int field(FILE *f, const char *s, bool last)
{
    return (csvio_write_cell(f, s, raw_text) != 0) | (fputc(last ? '\n' : ',', f) == EOF);
}

static int num(FILE *f, long long v, bool last) { return fprintf(f, last ? "%lld\n" : "%lld,", v) < 0; }

/* A count or size that is -1 when it does not apply (the alone score of a
 * baseline event, a Minimize plan's cap): an empty cell then. */
static int opt(FILE *f, long long v, bool last)
{
    return v < 0 ? fputc(last ? '\n' : ',', f) == EOF : num(f, v, last);
}

static int write_plans(FILE *f, const stored_plan_t *plans, int n)
{
    int bad = fputs("plan_id,label,routine,routine_version,profile,budget_kind,budget_bytes,budget_spec,cap,"
                    "baseline_total,baseline_live_peak,baseline_peak_step,baseline_buffers,baseline_compute,"
                    "final_total,final_live_peak,final_peak_step,final_buffers,final_compute,"
                    "considered,dropped,within_budget,flips,elapsed_us,reused,lowered,created_at,"
                    "gap_kind,gap_found,gap_total,gap_compute,gap_flips,gap_proved,gap_explored\n",
                    f) < 0;
    for (int i = 0; i < n && !bad; i++) {
        const stored_plan_t *p = &plans[i];
        bad |= num(f, p->id, false) | field(f, p->label, false) | field(f, p->routine, false) |
               num(f, p->routine_version, false) | field(f, p->profile, false) | field(f, p->budget_kind, false);
        if (p->budget_bytes >= 0)
            bad |= num(f, p->budget_bytes, false);
        else
            bad |= fputc(',', f) == EOF;
        bad |= field(f, p->budget_spec, false); /* as asked for ("60%"); empty for plans saved before it was kept */
        bad |= opt(f, p->cap == INT32_MAX ? -1 : p->cap, false); /* INT32_MAX: the TUI's "all" */
        const footprint_t *fps[2] = { &p->baseline, &p->final };
        for (int k = 0; k < 2; k++)
            bad |= num(f, fps[k]->total, false) | num(f, fps[k]->live_peak, false) | num(f, fps[k]->peak_step, false) |
                   num(f, fps[k]->buffers, false) | num(f, fps[k]->compute, false);
        bad |= num(f, p->considered, false) | num(f, p->dropped, false) | num(f, p->within_budget, false) |
               num(f, p->n_flips, false) | num(f, p->elapsed_us, false) | num(f, p->reused, false) |
               num(f, p->lowered, false) | field(f, p->created_at, false);
        const plan_gap_t *g = &p->gap;
        if (g->kind[0])
            bad |= field(f, g->kind, false) | num(f, g->found, false) | num(f, g->total, false) |
                   num(f, g->compute, false) | field(f, g->flips, false) | num(f, g->proved, false) |
                   num(f, g->explored, true);
        else /* no gap recorded: empty fields */
            bad |= fputs(",,,,,,\n", f) < 0;
    }
    return bad;
}

/* Where node came from, apart as --json has it: its HLO name, op_name
 * and source file:line ("" each when not said). */
static routine_origin_t origin_parts(const routine_t *r, const char *node)
{
    int32_t i = r && node && *node ? routine_find_node(r, node) : -1;
    routine_origin_t o = i < 0 ? routine_no_origin : *r->nodes[i].origin;
    return (routine_origin_t){ o.hlo ? o.hlo : "", o.op_name ? o.op_name : "", o.source ? o.source : "",
                               o.function ? o.function : "" };
}

/* A plan's recompute (a flip's, an origin's): empty for a plan saved
 * before flips kept theirs. */
static int recompute(FILE *f, const stored_plan_t *p, long long v) { return p->recompute_known ? num(f, v, false) : fputc(',', f) == EOF; }

/* Every CSV that describes nodes (flips, events, layouts) keeps where a
 * node came from in the same four columns, as --json does: hlo, op_name,
 * source (file:line) and function. */
static int write_flips(FILE *f, const stored_plan_t *plans, routine_t *const *routines, int n)
{
    int bad = fputs("plan_id,seq,node,relief,cost,recompute,hlo,op_name,source,function\n", f) < 0;
    for (int i = 0; i < n && !bad; i++)
        for (int32_t k = 0; k < plans[i].n_flips && !bad; k++) {
            const stored_flip_t *fl = &plans[i].flips[k];
            routine_origin_t o = origin_parts(routines[i], fl->node);
            bad |= num(f, plans[i].id, false) | num(f, k, false) | field(f, fl->node, false) |
                   num(f, fl->relief, false) | num(f, fl->cost, false) | recompute(f, &plans[i], fl->recompute) |
                   field(f, o.hlo, false) | field(f, o.op_name, false) | field(f, o.source, false) |
                   field(f, o.function, true);
        }
    return bad;
}

/* The flips of each plan's frontier plan (DESIGN §14), in the planner's
 * order, with their kind; a plan saved without one has no rows. */
static int write_frontier(FILE *f, const stored_plan_t *plans, routine_t *const *routines, int n)
{
    int bad = fputs("plan_id,seq,node,kind,relief,recompute,hlo,op_name,source,function\n", f) < 0;
    for (int i = 0; i < n && !bad; i++)
        for (int32_t k = 0; k < plans[i].frontier.n_flips && !bad; k++) {
            const stored_frontier_flip_t *fl = &plans[i].frontier.flips[k];
            routine_origin_t o = origin_parts(routines[i], fl->node);
            bad |= num(f, plans[i].id, false) | num(f, k, false) | field(f, fl->node, false) |
                   field(f, frontier_kind_name(fl->kind), false) | num(f, fl->relief, false) |
                   num(f, fl->recompute, false) | field(f, o.hlo, false) | field(f, o.op_name, false) |
                   field(f, o.source, false) | field(f, o.function, true);
        }
    return bad;
}

/* Each plan's flips by origin (DESIGN §13), in the order show gives them:
 * biggest relief first, ties by the origin's byte order. */
static int write_origins(FILE *f, const stored_plan_t *plans, routine_t *const *routines, int n, rs_error_t *err)
{
    int bad = fputs("plan_id,rank,origin,function,flips,relief,recompute\n", f) < 0;
    for (int i = 0; i < n && !bad; i++) {
        fit_flip_t *fl;
        answer_origin_t *g;
        int32_t ng;
        int rc = plans_flips(&plans[i], routines[i], &fl, err);
        if (!rc)
            rc = answer_by_origin(routines[i], fl, plans[i].n_flips, &g, &ng, NULL, err);
        free(fl);
        if (rc)
            return -rc;
        for (int32_t k = 0; k < ng && !bad; k++)
            bad |= num(f, plans[i].id, false) | num(f, k + 1, false) | field(f, g[k].origin, false) |
                   field(f, g[k].function ? g[k].function : "", false) | num(f, g[k].flips, false) | num(f, g[k].relief, false) |
                   (plans[i].recompute_known ? num(f, g[k].recompute, true) : fputc('\n', f) == EOF);
        free(g);
    }
    return bad;
}

/* Every event with its whole members list (the store keeps each list
 * once; the CSV spells it out on each row); as write_origins, -rc when err
 * was set. */
static int write_events(FILE *f, const stored_plan_t *plans, routine_t *const *routines, int n,
                        const export_options_t *o, rs_error_t *err)
{
    int64_t all = 0, done = 0;
    for (int i = 0; i < n; i++)
        all += plans[i].n_events;
    int bad = fputs("plan_id,seq,round,kind,node,reason,alone,with,cur,relief,cost,rank,members,text,hlo,op_name,source,"
                    "function\n", f) < 0;
    strbuf_t members;
    strbuf_init(&members);
    int rc = RS_OK;
    for (int i = 0; i < n && !bad && !rc; i++)
        for (int32_t k = 0; k < plans[i].n_events && !bad && !rc; k++) {
            const stored_event_t *e = &plans[i].events[k];
            if (o->progress && done++ % 4096 == 0 && o->progress(o->progress_ud, done - 1, all)) {
                rc = error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
                break;
            }
            if ((rc = plans_event_members(&plans[i], e, &members, err)))
                break;
            bad |= num(f, plans[i].id, false) | num(f, e->seq, false) | num(f, e->round, false) |
                   field(f, e->kind, false) | field(f, e->node, false) | field(f, e->reason, false) |
                   opt(f, e->alone, false) | opt(f, e->with, false) | opt(f, e->cur, false) |
                   num(f, e->relief, false) | opt(f, e->cost, false) | opt(f, e->rank, false) |
                   field(f, members.s, false) | field(f, e->text, false);
            routine_origin_t og = origin_parts(routines[i], e->node);
            bad |= field(f, og.hlo, false) | field(f, og.op_name, false) | field(f, og.source, false) |
                   field(f, og.function, true);
        }
    if (!rc && !bad && o->progress && o->progress(o->progress_ud, all, all)) /* the bar ends full */
        rc = error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
    strbuf_free(&members);
    return rc ? -rc : bad;
}

static void free_sources(char **sources, int32_t n)
{
    for (int32_t i = 0; sources && i < MINIMALLOC_ORIGIN_N * n; i++)
        free(sources[i]);
    free(sources);
}

int export_plan_arena(store_t *s, const stored_plan_t *p, rebuilt_t *rb, footprint_t *fp, score_detail_t *d,
                      rs_error_t *err)
{
    memset(d, 0, sizeof *d);
    int rc = rebuild_plan(s, p, rb, err);
    if (rc)
        return rc;
    rc = score_lowering(rb->lowering, rb->final_prefs, &rb->cfg, fp, d, err);
    if (!rc && fp->total != p->final.total)
        rc = error_set(err, RS_ESTORE, store_path(s), 0, 0,
                       "plan %lld re-scores to %lld B, not the %lld B it recorded (was the routine changed?)",
                       (long long)p->id, (long long)fp->total, (long long)p->final.total);
    if (rc) {
        score_detail_free(d);
        rebuild_free(rb);
    }
    return rc;
}

static int layout_problem(store_t *s, const stored_plan_t *p, minimalloc_problem_t *mp, int64_t **offsets,
                          char ***sources, rs_error_t *err)
{
    memset(mp, 0, sizeof *mp);
    *offsets = NULL;
    *sources = NULL;
    rebuilt_t rb;
    footprint_t fp;
    score_detail_t d;
    int rc = export_plan_arena(s, p, &rb, &fp, &d, err);
    if (rc)
        return rc;
    int32_t N = rb.lowering->n_nodes;
    if (!rc) {
        *offsets = calloc((size_t)N + 1, sizeof **offsets);
        *sources = calloc(MINIMALLOC_ORIGIN_N * ((size_t)N + 1), sizeof **sources);
        if (!*offsets || !*sources)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int32_t i = 0; !rc && i < N; i++) {
        if (d.place.is_inline[i])
            continue;
        (*offsets)[mp->n] = d.offset[i];
        /* an HLO op_name is text from the model: the writer defuses it */
        routine_origin_t o = origin_parts(rb.routine, rb.routine->nodes[i].name);
        const char *parts[MINIMALLOC_ORIGIN_N] = { o.hlo, o.op_name, o.source, o.function };
        for (int k = 0; !rc && k < MINIMALLOC_ORIGIN_N; k++)
            if (!((*sources)[MINIMALLOC_ORIGIN_N * mp->n + k] = strdup(parts[k])))
                rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        if (minimalloc_add(mp, rb.routine->nodes[i].name,
                           (arena_buf_t){ rb.lowering->bytes[i], d.live.start[i], d.live.end[i] }, false, 0))
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    score_detail_free(&d);
    rebuild_free(&rb);
    if (rc) {
        free_sources(*sources, N);
        *sources = NULL;
        minimalloc_free(mp);
        free(*offsets);
        *offsets = NULL;
    }
    return rc;
}


int export_plans(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                 rs_error_t *err)
{
    return export_plans_with(s, plans, n, what, path, NULL, err);
}

int export_plans_raw(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path, bool raw,
                     rs_error_t *err)
{
    export_options_t o = { .raw = raw };
    return export_plans_with(s, plans, n, what, path, &o, err);
}

static int export_any(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                      const export_options_t *o, rs_error_t *err);

int export_plans_with(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                      const export_options_t *o, rs_error_t *err)
{
    static const export_options_t plain = { .raw = false };
    o = o ? o : &plain;
    raw_text = o->raw;
    int rc = export_any(s, plans, n, what, path, o, err);
    raw_text = false;
    return rc;
}

static int export_any(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                      const export_options_t *o, rs_error_t *err)
{
    if (what == EXPORT_LAYOUT) {
        if (n != 1)
            return error_set(err, RS_EINPUT, "--what", 0, 0, "layout exports one plan at a time (%d given)", n);
        minimalloc_problem_t mp;
        int64_t *offsets;
        char **sources;
        int rc = layout_problem(s, &plans[0], &mp, &offsets, &sources, err);
        if (!rc)
            rc = minimalloc_write_solution(path, store_path(s), &mp, offsets, (const char *const *)sources, raw_text,
                                           err);
        free_sources(sources, mp.n);
        minimalloc_free(&mp);
        free(offsets);
        return rc;
    }
    /* each plan's routine, for the source column; one parse per routine */
    routine_t **routines = calloc((size_t)n + 1, sizeof *routines);
    if (!routines)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = RS_OK;
    for (int i = 0; i < n && !rc && what != EXPORT_PLANS; i++) {
        for (int k = 0; k < i && !routines[i]; k++)
            if (plans[k].routine_id == plans[i].routine_id)
                routines[i] = routines[k];
        if (!routines[i])
            rc = rebuild_routine(s, plans[i].routine_id, &routines[i], err);
    }
    wfile_t w;
    if (!rc)
        rc = wfile_open(&w, path, store_path(s), "the export", err);
    if (!rc) {
        int bad = what == EXPORT_PLANS     ? write_plans(w.f, plans, n)
                  : what == EXPORT_FLIPS   ? write_flips(w.f, plans, routines, n)
                  : what == EXPORT_ORIGINS ? write_origins(w.f, plans, routines, n, err)
                  : what == EXPORT_FRONTIER ? write_frontier(w.f, plans, routines, n)
                                           : write_events(w.f, plans, routines, n, o, err);
        if (bad < 0) { /* an error write_origins or write_events set: the file is left untouched */
            wfile_close(&w, false, NULL);
            rc = -bad;
        } else {
            rc = wfile_close(&w, !bad, err);
        }
    }
    for (int i = 0; i < n; i++) {
        bool shared = false;
        for (int k = 0; k < i; k++)
            shared |= routines[k] == routines[i];
        if (!shared)
            routine_free(routines[i]);
    }
    free(routines);
    return rc;
}
