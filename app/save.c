#include "save.h"

#include <stdlib.h>
#include <string.h>

#include "library.h"
#include "plans.h"
#include "rebuild.h"
#include "util/strbuf.h"

int save_plans(const cmdline_t *c, target_t *t, fit_plan_t *const *plans, const int64_t *elapsed_us, int n,
               const save_extra_t *x, int64_t *ids, rs_error_t *err)
{
    save_extra_t none = { 0 };
    if (!x)
        x = &none;
    int rc = target_store(c, t, err);
    if (rc)
        return rc;
    char *bindings = rebuild_bindings_format(t->routine, &t->bind);
    strbuf_t prefs;
    strbuf_init(&prefs);
    strbuf_printf(&prefs, "%s", "");
    for (int32_t i = 0, w = 0; i < t->routine->n_nodes; i++)
        if (t->prefs[i])
            strbuf_printf(&prefs, "%s%s", w++ ? " " : "", t->routine->nodes[i].name);
    char config[256];
    rebuild_config_format(&t->cfg, config, sizeof config);
    if (!bindings || prefs.oom) {
        free(bindings);
        strbuf_free(&prefs);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    rc = store_begin(t->store, err);
    int64_t routine_id = 0, profile_id = 0, sweep_id = 0;
    int32_t version;
    bool was_new;
    char *stored_as = NULL; /* the text is kept under another name (renamed): that routine */
    if (!rc)
        rc = library_routine_put_own(t->store, t->routine->name, t->text, t->len, t->routine->path,
                                     t->routine->n_steps, t->routine->n_nodes, &routine_id, &version, &was_new,
                                     &stored_as, err);
    free(stored_as);
    if (!rc && t->has_profile)
        rc = library_profile_put(t->store, &t->profile, &profile_id, err);
    if (!rc && x->sweep_budgets) {
        int64_t reused = n ? plans[n - 1]->reused : 0, lowered = n ? plans[n - 1]->lowered : 0;
        rc = plans_sweep_put(t->store, routine_id, x->sweep_budgets, reused, lowered, n, &sweep_id, err);
    }
    for (int i = 0; i < n && !rc; i++) {
        plan_save_t in = { .plan = plans[i], .routine_id = routine_id, .profile_id = profile_id,
                           .bindings = bindings, .config = config, .prefs = prefs.s, .label = c->label,
                           .elapsed_us = elapsed_us[i], .sweep_id = sweep_id,
                           .audit = x->audits ? x->audits[i] : NULL,
                           .budget_spec = x->budgets ? x->budgets[i] : NULL, .progress = x->progress,
                           .progress_ud = x->progress_ud };
        rc = plans_save(t->store, &in, &ids[i], err);
        if (!rc && x->frontiers)
            rc = frontiers_save(t->store, ids[i], t->routine, &x->frontiers[i],
                                (int64_t)(x->frontier_seconds[i] * 1e6), err);
    }
    if (!rc)
        rc = store_commit(t->store, err);
    else
        store_rollback(t->store);
    free(bindings);
    strbuf_free(&prefs);
    return rc;
}

int save_gap(target_t *t, const fit_plan_t *p, int64_t plan_id, const best_plan_t *b, rs_error_t *err)
{
    strbuf_t names;
    strbuf_init(&names);
    for (int32_t i = 0; i < b->n_flips; i++)
        strbuf_printf(&names, "%s%s", i ? " " : "", p->routine->nodes[b->flips[i]].name);
    plan_gap_t g = { .kind = (char *)best_kind_name(b->kind), .found = b->found, .proved = b->proved,
                     .total = b->found ? b->final.total : -1, .compute = b->found ? b->final.compute : -1,
                     .flips = names.s ? names.s : "", .explored = b->explored };
    int rc = plans_set_gap(t->store, plan_id, &g, err);
    strbuf_free(&names);
    return rc;
}
