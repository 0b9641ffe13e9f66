#include "frontiers.h"

#include <stdlib.h>
#include <string.h>

#include "store_int.h"

int frontiers_save(store_t *s, int64_t plan_id, const routine_t *r, const frontier_result_t *f, int64_t elapsed_us,
                   rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "INSERT INTO frontiers(plan_id, total, live_peak, peak_step, buffers, compute, explored, "
                           "within_budget, stopped, seeds_cut, elapsed_us, n_flips) "
                           "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                           &st, err);
    if (rc)
        return rc;
    int k = 1;
    sqlite3_bind_int64(st, k++, plan_id);
    sqlite3_bind_int64(st, k++, f->final.total);
    sqlite3_bind_int64(st, k++, f->final.live_peak);
    sqlite3_bind_int(st, k++, f->final.peak_step);
    sqlite3_bind_int(st, k++, f->final.buffers);
    sqlite3_bind_int64(st, k++, f->final.compute);
    sqlite3_bind_int64(st, k++, f->explored);
    sqlite3_bind_int(st, k++, f->within_budget);
    sqlite3_bind_int(st, k++, f->stopped);
    sqlite3_bind_int(st, k++, f->seeds_cut);
    sqlite3_bind_int64(st, k++, elapsed_us);
    sqlite3_bind_int(st, k++, f->n_flips);
    if ((rc = store_exec_stmt(s, st, "saving the frontier plan", err)))
        return rc;
    if ((rc = store_prepare(s,
                            "INSERT INTO frontier_flips(plan_id, seq, node, kind, relief, recompute) "
                            "VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                            &st, err)))
        return rc;
    for (int32_t i = 0; i < f->n_flips && !rc; i++) {
        const frontier_flip_t *x = &f->flips[i];
        sqlite3_bind_int64(st, 1, plan_id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, r->nodes[x->node].name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, frontier_kind_name((frontier_kind_t)x->kind), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 5, x->relief);
        sqlite3_bind_int64(st, 6, x->recompute);
        int step = sqlite3_step(st);
        if (step != SQLITE_DONE)
            rc = store_fail(s, step, "saving the frontier plan's flips", err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

static int damaged(store_t *s, int64_t plan_id, const char *what, rs_error_t *err)
{
    return error_set(err, RS_ESTORE, store_path(s), 0, 0, "plan %lld's frontier plan is damaged: %s",
                     (long long)plan_id, what);
}

static int load_flips(store_t *s, int64_t plan_id, int32_t want, stored_frontier_t *f, rs_error_t *err)
{
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "SELECT node, kind, relief, recompute FROM frontier_flips WHERE plan_id = ?1 ORDER BY seq",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, plan_id);
    f->flips = calloc((size_t)want + 1, sizeof *f->flips);
    int step = SQLITE_DONE;
    bool bad_kind = false;
    while (f->flips && f->n_flips < want && (step = sqlite3_step(st)) == SQLITE_ROW) {
        stored_frontier_flip_t *x = &f->flips[f->n_flips++];
        x->node = store_col_text(st, 0);
        const char *kind = (const char *)sqlite3_column_text(st, 1);
        x->kind = kind && strcmp(kind, "remat") == 0 ? FRONTIER_REMAT : FRONTIER_INLINE;
        bad_kind |= !kind || (strcmp(kind, "remat") != 0 && strcmp(kind, "inline") != 0);
        x->relief = sqlite3_column_int64(st, 2);
        x->recompute = sqlite3_column_int64(st, 3);
        if (!x->node)
            break;
    }
    if (f->flips && f->n_flips == want && step == SQLITE_ROW)
        step = sqlite3_step(st); /* one more row than the count says */
    sqlite3_finalize(st);
    if (!f->flips || (f->n_flips && !f->flips[f->n_flips - 1].node))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return store_fail(s, step, "reading the frontier plan's flips", err);
    if (bad_kind)
        return damaged(s, plan_id, "a flip's kind is neither inline nor remat", err);
    if (f->n_flips != want || step == SQLITE_ROW)
        return damaged(s, plan_id, "its flips are not the number it records", err);
    return RS_OK;
}

int frontiers_load(store_t *s, int64_t plan_id, stored_frontier_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    int rc = store_prepare(s,
                           "SELECT total, live_peak, peak_step, buffers, compute, explored, within_budget, stopped, "
                           "seeds_cut, elapsed_us, n_flips FROM frontiers WHERE plan_id = ?1",
                           &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, plan_id);
    int step = sqlite3_step(st);
    if (step != SQLITE_ROW) {
        sqlite3_finalize(st);
        return step == SQLITE_DONE ? RS_OK : store_fail(s, step, "reading the frontier plan", err);
    }
    int64_t v[11];
    bool negative = false;
    for (int k = 0; k < 11; k++) {
        v[k] = sqlite3_column_int64(st, k);
        negative |= v[k] < 0;
    }
    sqlite3_finalize(st);
    if (negative || v[2] > INT32_MAX || v[3] > INT32_MAX || v[10] > INT32_MAX)
        return damaged(s, plan_id, "a count or a size is out of its range", err);
    out->present = true;
    out->final = (footprint_t){ .total = v[0], .live_peak = v[1], .peak_step = (int32_t)v[2],
                                .buffers = (int32_t)v[3], .compute = v[4] };
    out->explored = v[5];
    out->within_budget = v[6] != 0;
    out->stopped = v[7] != 0;
    out->seeds_cut = v[8] != 0;
    out->elapsed_us = v[9];
    rc = load_flips(s, plan_id, (int32_t)v[10], out, err);
    if (rc)
        stored_frontier_free(out);
    return rc;
}

void stored_frontier_free(stored_frontier_t *f)
{
    for (int32_t i = 0; f->flips && i < f->n_flips; i++)
        free(f->flips[i].node);
    free(f->flips);
    memset(f, 0, sizeof *f);
}

int frontiers_flips(const stored_frontier_t *f, const routine_t *r, frontier_flip_t **out, rs_error_t *err)
{
    *out = calloc((size_t)f->n_flips + 1, sizeof **out);
    if (!*out)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; i < f->n_flips; i++) {
        int32_t node = routine_find_node(r, f->flips[i].node);
        if (node < 0) {
            free(*out);
            *out = NULL;
            return error_set(err, RS_ESTORE, NULL, 0, 0, "a frontier flip '%s' names no node of %s", f->flips[i].node,
                             r->name);
        }
        (*out)[i] = (frontier_flip_t){ .relief = f->flips[i].relief, .recompute = f->flips[i].recompute,
                                       .node = node, .kind = (uint8_t)f->flips[i].kind };
    }
    return RS_OK;
}
