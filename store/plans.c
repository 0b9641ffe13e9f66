#include "plans.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "plan/trace.h"
#include "store_int.h"
#include "util/strbuf.h"
#include "util/vec.h"

static int insert_context(store_t *s, int64_t parent, int64_t routine_id, int64_t profile_id, const char *bindings,
                          const char *config, const char *prefs, int64_t *id, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "INSERT INTO contexts(parent_id, routine_id, profile_id, bindings, config, prefs) "
                           "VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                           &st, err);
    if (rc)
        return rc;
    if (parent)
        sqlite3_bind_int64(st, 1, parent);
    sqlite3_bind_int64(st, 2, routine_id);
    if (profile_id)
        sqlite3_bind_int64(st, 3, profile_id);
    sqlite3_bind_text(st, 4, bindings, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, config, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, prefs, -1, SQLITE_TRANSIENT);
    rc = store_exec_stmt(s, st, "saving a context", err);
    *id = sqlite3_last_insert_rowid(store_db(s));
    return rc;
}

static const char *node_name(const fit_plan_t *p, int32_t node)
{
    return node >= 0 ? p->routine->nodes[node].name : NULL;
}

/* The plan's held-group members as the planner shares them (fit_plan.c:
 * a list that extends the one before adds only its tail): each event
 * names its range, so a trace stays linear in its events. */
static int insert_members(store_t *s, int64_t plan_id, const fit_plan_t *p, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "INSERT INTO group_members(plan_id, seq, node) VALUES(?1, ?2, ?3)", &st, err);
    if (rc)
        return rc;
    for (int32_t i = 0; i < p->n_members && !rc; i++) {
        sqlite3_bind_int64(st, 1, plan_id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, node_name(p, p->members[i]), -1, SQLITE_STATIC);
        int r = sqlite3_step(st);
        if (r != SQLITE_DONE)
            rc = store_fail(s, r, "saving the plan's group members", err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

/* How often a save says how far it is: often enough for a bar, seldom
 * enough to cost nothing. */
#define SAVE_PROGRESS_EVERY 512

static int save_progress(const plan_save_t *in, int64_t done, int64_t total, rs_error_t *err)
{
    if (in->progress && in->progress(in->progress_ud, done, total))
        return error_set(err, RS_ECANCELED, NULL, 0, 0, "the save was stopped: nothing saved");
    return RS_OK;
}

static int insert_events(store_t *s, int64_t plan_id, const plan_save_t *in, rs_error_t *err)
{
    const fit_plan_t *p = in->plan;
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "INSERT INTO events(plan_id, seq, round, kind, node, reason, alone, with_, cur, relief, "
                           "cost, rank, members, text, group_off, group_n) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                           "?9, ?10, ?11, ?12, '', ?13, ?14, ?15)",
                           &st, err);
    if (rc)
        return rc;
    strbuf_t said;
    strbuf_init(&said);
    for (int32_t i = 0; i < p->n_events && !rc; i++) {
        if (i % SAVE_PROGRESS_EVERY == 0 && (rc = save_progress(in, i, p->n_events, err)))
            break;
        const fit_event_t *e = &p->events[i];
        const char *text = trace_describe(p, i, &said);
        if (!text) {
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory saving the plan's events");
            break;
        }
        sqlite3_bind_int64(st, 1, plan_id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_int(st, 3, e->round);
        sqlite3_bind_text(st, 4, trace_kind_name((fit_event_kind_t)e->kind), -1, SQLITE_STATIC);
        if (e->node >= 0)
            sqlite3_bind_text(st, 5, node_name(p, e->node), -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 5);
        if (e->reason)
            sqlite3_bind_text(st, 6, trace_reason_name((fit_reason_t)e->reason), -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 6);
        sqlite3_bind_int64(st, 7, e->alone);
        sqlite3_bind_int64(st, 8, e->with);
        sqlite3_bind_int64(st, 9, e->cur);
        sqlite3_bind_int64(st, 10, e->relief);
        sqlite3_bind_int64(st, 11, e->cost);
        sqlite3_bind_int(st, 12, e->rank);
        sqlite3_bind_text(st, 13, text, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 14, e->group_n ? e->group_off : 0);
        sqlite3_bind_int(st, 15, e->group_n);
        int r = sqlite3_step(st);
        if (r != SQLITE_DONE)
            rc = store_fail(s, r, "saving the plan's events", err);
        sqlite3_reset(st);
    }
    strbuf_free(&said);
    if (!rc)
        rc = save_progress(in, p->n_events, p->n_events, err);
    sqlite3_finalize(st);
    return rc;
}

int plans_save(store_t *s, const plan_save_t *in, int64_t *plan_id, rs_error_t *err)
{
    const fit_plan_t *p = in->plan;
    int64_t root, child;
    int rc = insert_context(s, 0, in->routine_id, in->profile_id, in->bindings, in->config, in->prefs, &root, err);
    strbuf_t flips;
    strbuf_init(&flips);
    for (int32_t i = 0; i < p->n_flips; i++)
        strbuf_printf(&flips, "%s%s", i ? " " : "", node_name(p, p->flips[i].node));
    if (!rc)
        rc = insert_context(s, root, in->routine_id, in->profile_id, in->bindings, in->config,
                            flips.s ? flips.s : "", &child, err);
    strbuf_free(&flips);
    if (rc)
        return rc;
    sqlite3_stmt *st;
    if ((rc = store_prepare(s,
                            "INSERT INTO plans(context_id, child_context_id, budget_kind, budget_bytes, cap, "
                            "baseline_total, baseline_live_peak, baseline_peak_step, baseline_buffers, "
                            "baseline_compute, final_total, final_live_peak, final_peak_step, final_buffers, "
                            "final_compute, considered, dropped, within_budget, elapsed_us, reused, lowered, "
                            "created_at, label, n_flips, n_events, sweep_id, audit, budget_spec) VALUES(?1, ?2, ?3, "
                            "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, "
                            "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?22, ?23, ?24, ?25, ?26, ?27)",
                            &st, err)))
        return rc;
    int k = 1;
    sqlite3_bind_int64(st, k++, root);
    sqlite3_bind_int64(st, k++, child);
    sqlite3_bind_text(st, k++, p->minimize ? "minimize" : "bytes", -1, SQLITE_STATIC);
    if (p->minimize)
        sqlite3_bind_null(st, k++);
    else
        sqlite3_bind_int64(st, k++, p->budget);
    sqlite3_bind_int(st, k++, p->cap);
    const footprint_t *fps[2] = { &p->baseline, &p->final };
    for (int f = 0; f < 2; f++) {
        sqlite3_bind_int64(st, k++, fps[f]->total);
        sqlite3_bind_int64(st, k++, fps[f]->live_peak);
        sqlite3_bind_int(st, k++, fps[f]->peak_step);
        sqlite3_bind_int(st, k++, fps[f]->buffers);
        sqlite3_bind_int64(st, k++, fps[f]->compute);
    }
    sqlite3_bind_int(st, k++, p->considered);
    sqlite3_bind_int(st, k++, p->dropped);
    sqlite3_bind_int(st, k++, p->within_budget);
    sqlite3_bind_int64(st, k++, in->elapsed_us);
    sqlite3_bind_int64(st, k++, p->reused);
    sqlite3_bind_int64(st, k++, p->lowered);
    if (in->label)
        sqlite3_bind_text(st, k++, in->label, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, k++);
    sqlite3_bind_int(st, k++, p->n_flips);
    sqlite3_bind_int(st, k++, p->n_events);
    if (in->sweep_id)
        sqlite3_bind_int64(st, k++, in->sweep_id);
    else
        sqlite3_bind_null(st, k++);
    if (in->audit)
        sqlite3_bind_text(st, k++, in->audit, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, k++);
    if (in->budget_spec)
        sqlite3_bind_text(st, k++, in->budget_spec, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, k++);
    if ((rc = store_exec_stmt(s, st, "saving the plan", err)))
        return rc;
    *plan_id = sqlite3_last_insert_rowid(store_db(s));
    if ((rc = store_prepare(s, "INSERT INTO flips(plan_id, seq, node, relief, cost, recompute) VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &st,
                            err)))
        return rc;
    for (int32_t i = 0; i < p->n_flips && !rc; i++) {
        sqlite3_bind_int64(st, 1, *plan_id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, node_name(p, p->flips[i].node), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, p->flips[i].relief);
        sqlite3_bind_int64(st, 5, p->flips[i].cost);
        sqlite3_bind_int64(st, 6, p->flips[i].recompute);
        int r = sqlite3_step(st);
        if (r != SQLITE_DONE)
            rc = store_fail(s, r, "saving the plan's flips", err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (!rc)
        rc = save_progress(in, 0, p->n_events, err);
    if (!rc)
        rc = insert_members(s, *plan_id, p, err);
    if (!rc)
        rc = insert_events(s, *plan_id, in, err);
    return rc;
}

int plans_sweep_put(store_t *s, int64_t routine_id, const char *budgets, int64_t reused, int64_t lowered,
                    int32_t n_plans, int64_t *sweep_id, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "INSERT INTO sweeps(routine_id, budgets, reused, lowered, n_plans, created_at) "
                           "VALUES(?1, ?2, ?3, ?4, ?5, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, routine_id);
    sqlite3_bind_text(st, 2, budgets, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, reused);
    sqlite3_bind_int64(st, 4, lowered);
    sqlite3_bind_int(st, 5, n_plans);
    rc = store_exec_stmt(s, st, "saving the sweep", err);
    *sweep_id = sqlite3_last_insert_rowid(store_db(s));
    return rc;
}

#define PLAN_COLS                                                                                         \
    "p.id, coalesce(p.label, ''), r.name, r.version, r.id, p.context_id, coalesce(p.child_context_id, 0), " \
    "coalesce(p.sweep_id, 0), coalesce(pr.name, ''), coalesce(pr.flops_per_s, 0) AS flops_per_s, c.bindings, c.config, "   \
    "c.prefs, coalesce(cc.prefs, ''), p.budget_kind, coalesce(p.budget_bytes, -1) AS budget_bytes, p.cap, "               \
    "p.baseline_total, p.baseline_live_peak, p.baseline_peak_step, p.baseline_buffers, p.baseline_compute, " \
    "p.final_total, p.final_live_peak, p.final_peak_step, p.final_buffers, p.final_compute, "              \
    "p.considered, p.dropped, p.within_budget, p.elapsed_us, p.reused, p.lowered, p.created_at, p.n_flips, " \
    "p.audit, "                                                                                            \
    "coalesce(p.gap_kind, ''), coalesce(p.gap_found, 0), coalesce(p.gap_total, -1) AS gap_total, "                      \
    "coalesce(p.gap_compute, -1) AS gap_compute, coalesce(p.gap_flips, ''), coalesce(p.gap_proved, 0), "                  \
    "coalesce(p.gap_explored, 0) AS gap_explored, coalesce(p.budget_spec, ''), coalesce(r.path, ''), "                                            \
    "fr.plan_id IS NOT NULL, coalesce(fr.total, 0) AS frontier_total, coalesce(fr.compute, 0) AS frontier_compute, " \
    "coalesce(fr.within_budget, 0), coalesce(fr.n_flips, 0) AS frontier_flips "                          \
    "FROM plans p JOIN contexts c ON c.id = p.context_id JOIN routines r ON r.id = c.routine_id "         \
    "LEFT JOIN profiles pr ON pr.id = c.profile_id LEFT JOIN contexts cc ON cc.id = p.child_context_id "  \
    "LEFT JOIN frontiers fr ON fr.plan_id = p.id "

/* Column k of st as an integer in [lo, hi]; a value outside it (a size
 * or compute of INT64_MIN: the file was damaged or edited) is noted in
 * p->damaged, the first one, for the reader to refuse the plan. */
static int64_t ranged(sqlite3_stmt *st, int k, int64_t lo, int64_t hi, stored_plan_t *p)
{
    int64_t v = sqlite3_column_int64(st, k);
    if ((v < lo || v > hi) && !p->damaged[0]) {
        snprintf(p->damaged, sizeof p->damaged, "%s", sqlite3_column_name(st, k));
        p->damaged_value = v;
    }
    return v < lo ? lo : v > hi ? hi : v;
}

#define NONNEG(k) ranged(st, k, 0, INT64_MAX, p)
#define NONNEG32(k) (int32_t) ranged(st, k, 0, INT32_MAX, p)

static void read_plan_row(sqlite3_stmt *st, stored_plan_t *p)
{
    memset(p, 0, sizeof *p);
    int k = 0;
    p->id = sqlite3_column_int64(st, k++);
    p->label = store_col_text(st, k++);
    p->routine = store_col_text(st, k++);
    p->routine_version = sqlite3_column_int(st, k++);
    p->routine_id = sqlite3_column_int64(st, k++);
    p->context_id = sqlite3_column_int64(st, k++);
    p->child_context_id = sqlite3_column_int64(st, k++);
    p->sweep_id = sqlite3_column_int64(st, k++);
    p->profile = store_col_text(st, k++);
    p->flops_per_s = NONNEG(k++);
    p->bindings = store_col_text(st, k++);
    p->config = store_col_text(st, k++);
    p->prefs = store_col_text(st, k++);
    p->child_prefs = store_col_text(st, k++);
    p->budget_kind = store_col_text(st, k++);
    p->budget_bytes = ranged(st, k++, -1, INT64_MAX, p); /* -1: minimize */
    p->cap = (int32_t)ranged(st, k++, -1, INT32_MAX, p);  /* -1: none */
    footprint_t *fps[2] = { &p->baseline, &p->final };
    for (int f = 0; f < 2; f++) {
        fps[f]->total = NONNEG(k++);
        fps[f]->live_peak = NONNEG(k++);
        fps[f]->peak_step = (int32_t)ranged(st, k++, -1, INT32_MAX, p);
        fps[f]->buffers = NONNEG32(k++);
        fps[f]->compute = NONNEG(k++);
    }
    p->considered = NONNEG32(k++);
    p->dropped = NONNEG32(k++);
    p->within_budget = sqlite3_column_int(st, k++) != 0;
    p->elapsed_us = NONNEG(k++);
    p->reused = NONNEG(k++);
    p->lowered = NONNEG(k++);
    p->created_at = store_col_text(st, k++);
    p->n_flips = NONNEG32(k++); /* until the flips are loaded: their count */
    p->audit = sqlite3_column_type(st, k) == SQLITE_NULL ? NULL : store_col_text(st, k);
    k++;
    p->gap.kind = store_col_text(st, k++);
    p->gap.found = sqlite3_column_int(st, k++) != 0;
    p->gap.total = ranged(st, k++, -1, INT64_MAX, p); /* -1: none */
    p->gap.compute = ranged(st, k++, -1, INT64_MAX, p);
    p->gap.flips = store_col_text(st, k++);
    p->gap.proved = sqlite3_column_int(st, k++) != 0;
    p->gap.explored = NONNEG(k++);
    p->budget_spec = store_col_text(st, k++);
    p->routine_path = store_col_text(st, k++);
    /* the frontier plan's summary (its flips come with plans_load) */
    p->frontier.present = sqlite3_column_int(st, k++) != 0;
    p->frontier.final.total = NONNEG(k++);
    p->frontier.final.compute = NONNEG(k++);
    p->frontier.within_budget = sqlite3_column_int(st, k++) != 0;
    p->frontier.n_flips = NONNEG32(k++); /* flips NULL until plans_load reads them */
}

/* RS_ESTORE naming plan p and its column when read_plan_row found one out
 * of its range, as for the other damage a read finds. */
static int refuse_damaged(store_t *s, const stored_plan_t *p, rs_error_t *err)
{
    if (!p->damaged[0])
        return RS_OK;
    return error_set(err, RS_ESTORE, store_path(s), 0, 0, "plan %lld is damaged: its %s is %lld, out of range",
                     (long long)p->id, p->damaged, (long long)p->damaged_value);
}

const char *plans_budget_text(const stored_plan_t *p, char *buf, size_t n)
{
    units_format_budget(p->budget_spec, strcmp(p->budget_kind, "minimize") == 0, p->budget_bytes, buf, n);
    return buf;
}

int plans_set_gap(store_t *s, int64_t id, const plan_gap_t *g, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "UPDATE plans SET gap_kind = ?2, gap_found = ?3, gap_total = ?4, gap_compute = ?5, "
                           "gap_flips = ?6, gap_proved = ?7, gap_explored = ?8 WHERE id = ?1",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, g->kind, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, g->found);
    sqlite3_bind_int64(st, 4, g->total);
    sqlite3_bind_int64(st, 5, g->compute);
    sqlite3_bind_text(st, 6, g->flips, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 7, g->proved);
    sqlite3_bind_int64(st, 8, g->explored);
    return store_exec_stmt(s, st, "recording the plan's gap", err);
}

static int load_flips(store_t *s, stored_plan_t *p, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT node, relief, cost, recompute FROM flips WHERE plan_id = ?1 ORDER BY seq", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, p->id);
    int32_t want = p->n_flips, cap = want > 0 ? want : 1;
    p->flips = calloc((size_t)cap, sizeof *p->flips);
    p->n_flips = 0;
    p->recompute_known = true;
    int step;
    while (p->flips && (step = sqlite3_step(st)) == SQLITE_ROW && p->n_flips < cap) {
        stored_flip_t *f = &p->flips[p->n_flips++];
        f->node = store_col_text(st, 0);
        f->relief = sqlite3_column_int64(st, 1);
        f->cost = sqlite3_column_int64(st, 2);
        f->recompute = sqlite3_column_int64(st, 3);
        if (sqlite3_column_type(st, 3) == SQLITE_NULL)
            p->recompute_known = false; /* saved before schema 7 */
    }
    sqlite3_finalize(st);
    if (!p->flips)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (p->n_flips != want)
        return error_set(err, RS_ESTORE, store_path(s), 0, 0, "plan %lld is damaged: %d of its %d flips are stored",
                         (long long)p->id, (int)p->n_flips, (int)want);
    return RS_OK;
}

int plans_flips(const stored_plan_t *p, const routine_t *r, fit_flip_t **out, rs_error_t *err)
{
    *out = calloc((size_t)p->n_flips + 1, sizeof **out);
    if (!*out)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; i < p->n_flips; i++) {
        const stored_flip_t *f = &p->flips[i];
        int32_t node = routine_find_node(r, f->node);
        if (node < 0) {
            free(*out);
            *out = NULL;
            return error_set(err, RS_ESTORE, NULL, 0, 0, "plan %lld: flip '%s' names no node of %s", (long long)p->id,
                             f->node, r->name);
        }
        (*out)[i] = (fit_flip_t){ .node = node, .relief = f->relief, .cost = f->cost, .recompute = f->recompute };
    }
    return RS_OK;
}

static int load_events(store_t *s, stored_plan_t *p, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "SELECT seq, round, kind, coalesce(node, ''), coalesce(reason, ''), alone, with_, cur, "
                           "relief, cost, rank, members, text, coalesce(group_off, 0), coalesce(group_n, -1) "
                           "FROM events WHERE plan_id = ?1 ORDER BY seq",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, p->id);
    int32_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (vec_reserve((void **)&p->events, &cap, (int64_t)p->n_events + 1, sizeof *p->events)) {
            sqlite3_finalize(st);
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        }
        stored_event_t *e = &p->events[p->n_events++];
        e->seq = sqlite3_column_int(st, 0);
        e->round = sqlite3_column_int(st, 1);
        e->kind = store_col_text(st, 2);
        e->node = store_col_text(st, 3);
        e->reason = store_col_text(st, 4);
        e->alone = sqlite3_column_int64(st, 5);
        e->with = sqlite3_column_int64(st, 6);
        e->cur = sqlite3_column_int64(st, 7);
        e->relief = sqlite3_column_int64(st, 8);
        e->cost = sqlite3_column_int64(st, 9);
        e->rank = sqlite3_column_int(st, 10);
        e->members = store_col_text(st, 11);
        e->text = store_col_text(st, 12);
        e->group_off = sqlite3_column_int(st, 13);
        e->group_n = sqlite3_column_int(st, 14);
    }
    sqlite3_finalize(st);
    return step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading the plan's events", err);
}

static int load_members(store_t *s, stored_plan_t *p, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT seq, node FROM group_members WHERE plan_id = ?1 ORDER BY seq", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, p->id);
    int32_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 0) != p->n_members) {
            sqlite3_finalize(st);
            return error_set(err, RS_ESTORE, store_path(s), 0, 0, "plan %lld is damaged: group member %d is not stored",
                             (long long)p->id, (int)p->n_members);
        }
        if (vec_reserve((void **)&p->members, &cap, (int64_t)p->n_members + 1, sizeof *p->members) ||
            !(p->members[p->n_members] = store_col_text(st, 1))) {
            sqlite3_finalize(st);
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        }
        p->n_members++;
    }
    sqlite3_finalize(st);
    return step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading the plan's group members", err);
}

int plans_event_members(const stored_plan_t *p, const stored_event_t *e, strbuf_t *out, rs_error_t *err)
{
    out->len = 0;
    strbuf_printf(out, "%s", e->group_n < 0 ? e->members : "");
    if (e->group_n > 0 && (e->group_off < 0 || e->group_off > p->n_members - e->group_n))
        return error_set(err, RS_ESTORE, NULL, 0, 0, "plan %lld is damaged: event %d names group members %d-%d of %d",
                         (long long)p->id, (int)e->seq, (int)e->group_off, (int)(e->group_off + e->group_n - 1),
                         (int)p->n_members);
    for (int32_t k = 0; k < e->group_n; k++)
        strbuf_printf(out, "%s%s", k ? " " : "", p->members[e->group_off + k]);
    return out->oom ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory") : RS_OK;
}

int plans_load(store_t *s, int64_t id, bool with_events, stored_plan_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT " PLAN_COLS "WHERE p.id = ?1", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    int step = sqlite3_step(st);
    if (step != SQLITE_ROW) {
        sqlite3_finalize(st);
        return step == SQLITE_DONE ? error_set(err, RS_EINPUT, NULL, 0, 0, "no plan %lld in %s", (long long)id,
                                               store_path(s))
                                   : store_fail(s, step, "reading the plan", err);
    }
    read_plan_row(st, out);
    sqlite3_finalize(st);
    rc = refuse_damaged(s, out, err);
    if (!rc)
        rc = load_flips(s, out, err);
    if (!rc)
        rc = frontiers_load(s, id, &out->frontier, err);
    if (!rc && with_events)
        rc = load_events(s, out, err);
    if (!rc && with_events)
        rc = load_members(s, out, err);
    if (rc)
        stored_plan_free(out);
    return rc;
}

static void free_fields(stored_plan_t *p)
{
    free(p->label);
    free(p->routine);
    free(p->routine_path);
    free(p->profile);
    free(p->bindings);
    free(p->config);
    free(p->prefs);
    free(p->child_prefs);
    free(p->budget_kind);
    free(p->budget_spec);
    free(p->created_at);
    free(p->audit);
    free(p->gap.kind);
    free(p->gap.flips);
}

void stored_plan_free(stored_plan_t *p)
{
    free_fields(p);
    for (int32_t i = 0; p->flips && i < p->n_flips; i++)
        free(p->flips[i].node);
    free(p->flips);
    for (int32_t i = 0; i < p->n_events; i++) {
        stored_event_t *e = &p->events[i];
        free(e->kind);
        free(e->node);
        free(e->reason);
        free(e->members);
        free(e->text);
    }
    free(p->events);
    for (int32_t i = 0; i < p->n_members; i++)
        free(p->members[i]);
    free(p->members);
    stored_frontier_free(&p->frontier);
    memset(p, 0, sizeof *p);
}

static void plan_row(sqlite3_stmt *st, void *elem) { read_plan_row(st, elem); }

static void plan_row_free(void *elem) { free_fields(elem); }

int plans_list(store_t *s, stored_plan_t **out, int *n, rs_error_t *err)
{
    int rc = store_collect(s, "SELECT " PLAN_COLS "ORDER BY p.id DESC", sizeof **out, plan_row, plan_row_free,
                           (void **)out, n, "listing plans", err);
    for (int i = 0; !rc && i < *n; i++)
        if ((rc = refuse_damaged(s, &(*out)[i], err)) != RS_OK) {
            plans_list_free(*out, *n);
            *out = NULL;
            *n = 0;
        }
    return rc;
}

void plans_list_free(stored_plan_t *p, int n)
{
    for (int i = 0; i < n; i++)
        free_fields(&p[i]);
    free(p);
}

int plans_delete(store_t *s, int64_t id, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s, "SELECT context_id, child_context_id FROM plans WHERE id = ?1", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return error_set(err, RS_EINPUT, NULL, 0, 0, "no plan %lld in %s", (long long)id, store_path(s));
    }
    int64_t ctx = sqlite3_column_int64(st, 0), child = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    const char *sql[] = { "DELETE FROM plans WHERE id = ?1", "DELETE FROM contexts WHERE id = ?1",
                          "DELETE FROM contexts WHERE id = ?1" };
    int64_t ids[] = { id, child, ctx };
    for (int k = 0; k < 3 && !rc; k++) {
        if (!ids[k] || (rc = store_prepare(s, sql[k], &st, err)))
            continue;
        sqlite3_bind_int64(st, 1, ids[k]);
        rc = store_exec_stmt(s, st, "deleting the plan", err);
    }
    return rc;
}
