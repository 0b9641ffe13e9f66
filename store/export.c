#include "export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "minimalloc.h"
#include "rebuild.h"
#include "wfile.h"

int export_what_parse(const char *s)
{
    static const char *names[] = { "plans", "flips", "events", "layout" };
    for (int i = 0; i < 4; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static int field(FILE *f, const char *s, bool last)
{
    int bad = csvio_write_field(f, s, strlen(s)) != 0;
    return bad | (fputc(last ? '\n' : ',', f) == EOF);
}

static int num(FILE *f, long long v, bool last) { return fprintf(f, last ? "%lld\n" : "%lld,", v) < 0; }

static int write_plans(FILE *f, const stored_plan_t *plans, int n)
{
    int bad = fputs("plan_id,label,routine,routine_version,profile,budget_kind,budget_bytes,cap,"
                    "baseline_total,baseline_live_peak,baseline_peak_step,baseline_buffers,baseline_compute,"
                    "final_total,final_live_peak,final_peak_step,final_buffers,final_compute,"
                    "considered,dropped,within_budget,flips,elapsed_us,reused,lowered,created_at\n",
                    f) < 0;
    for (int i = 0; i < n && !bad; i++) {
        const stored_plan_t *p = &plans[i];
        bad |= num(f, p->id, false) | field(f, p->label, false) | field(f, p->routine, false) |
               num(f, p->routine_version, false) | field(f, p->profile, false) | field(f, p->budget_kind, false);
        if (p->budget_bytes >= 0)
            bad |= num(f, p->budget_bytes, false);
        else
            bad |= fputc(',', f) == EOF;
        bad |= num(f, p->cap, false);
        const footprint_t *fps[2] = { &p->baseline, &p->final };
        for (int k = 0; k < 2; k++)
            bad |= num(f, fps[k]->total, false) | num(f, fps[k]->live_peak, false) | num(f, fps[k]->peak_step, false) |
                   num(f, fps[k]->buffers, false) | num(f, fps[k]->compute, false);
        bad |= num(f, p->considered, false) | num(f, p->dropped, false) | num(f, p->within_budget, false) |
               num(f, p->n_flips, false) | num(f, p->elapsed_us, false) | num(f, p->reused, false) |
               num(f, p->lowered, false) | field(f, p->created_at, true);
    }
    return bad;
}

static int write_flips(FILE *f, const stored_plan_t *plans, int n)
{
    int bad = fputs("plan_id,seq,node,relief,cost\n", f) < 0;
    for (int i = 0; i < n && !bad; i++)
        for (int32_t k = 0; k < plans[i].n_flips && !bad; k++) {
            const stored_flip_t *fl = &plans[i].flips[k];
            bad |= num(f, plans[i].id, false) | num(f, k, false) | field(f, fl->node, false) |
                   num(f, fl->relief, false) | num(f, fl->cost, true);
        }
    return bad;
}

static int write_events(FILE *f, const stored_plan_t *plans, int n)
{
    int bad = fputs("plan_id,seq,round,kind,node,reason,alone,with,cur,relief,cost,rank,members,text\n", f) < 0;
    for (int i = 0; i < n && !bad; i++)
        for (int32_t k = 0; k < plans[i].n_events && !bad; k++) {
            const stored_event_t *e = &plans[i].events[k];
            bad |= num(f, plans[i].id, false) | num(f, e->seq, false) | num(f, e->round, false) |
                   field(f, e->kind, false) | field(f, e->node, false) | field(f, e->reason, false) |
                   num(f, e->alone, false) | num(f, e->with, false) | num(f, e->cur, false) |
                   num(f, e->relief, false) | num(f, e->cost, false) | num(f, e->rank, false) |
                   field(f, e->members, false) | field(f, e->text, true);
        }
    return bad;
}

static int layout_problem(store_t *s, const stored_plan_t *p, minimalloc_problem_t *mp, int64_t **offsets,
                          rs_error_t *err)
{
    memset(mp, 0, sizeof *mp);
    *offsets = NULL;
    rebuilt_t rb;
    int rc = rebuild_plan(s, p, &rb, err);
    if (rc)
        return rc;
    footprint_t fp;
    score_detail_t d;
    rc = score_lowering(rb.lowering, rb.final_prefs, &rb.cfg, &fp, &d, err);
    int32_t N = rb.lowering->n_nodes;
    if (!rc) {
        *offsets = calloc((size_t)N + 1, sizeof **offsets);
        if (!*offsets)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int32_t i = 0; !rc && i < N; i++) {
        if (d.place.is_inline[i])
            continue;
        (*offsets)[mp->n] = d.offset[i];
        if (minimalloc_add(mp, rb.routine->nodes[i].name,
                           (arena_buf_t){ rb.lowering->bytes[i], d.live.start[i], d.live.end[i] }, false, 0))
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (!rc && fp.total != p->final.total)
        rc = error_set(err, RS_ESTORE, store_path(s), 0, 0,
                       "plan %lld re-scores to %lld B, not the %lld B it recorded (was the routine changed?)",
                       (long long)p->id, (long long)fp.total, (long long)p->final.total);
    score_detail_free(&d);
    rebuild_free(&rb);
    if (rc) {
        minimalloc_free(mp);
        free(*offsets);
        *offsets = NULL;
    }
    return rc;
}

int export_plans(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                 rs_error_t *err)
{
    if (what == EXPORT_LAYOUT) {
        if (n != 1)
            return error_set(err, RS_EINPUT, "--what", 0, 0, "layout exports one plan at a time (%d given)", n);
        minimalloc_problem_t mp;
        int64_t *offsets;
        int rc = layout_problem(s, &plans[0], &mp, &offsets, err);
        if (!rc)
            rc = minimalloc_write_solution(path, &mp, offsets, err);
        minimalloc_free(&mp);
        free(offsets);
        return rc;
    }
    wfile_t w;
    int rc = wfile_open(&w, path, err);
    if (rc)
        return rc;
    int bad = what == EXPORT_PLANS ? write_plans(w.f, plans, n)
              : what == EXPORT_FLIPS ? write_flips(w.f, plans, n)
                                     : write_events(w.f, plans, n);
    return wfile_close(&w, !bad, err);
}
