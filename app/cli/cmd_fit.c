/* `rematscope fit` and `rematscope sweep`: the planner from the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "cli/answer_out.h"
#include "cli/best_out.h"
#include "cli/frontier_out.h"
#include "cli/policy_out.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/progress.h"
#include "fail.h"
#include "model/units.h"
#include "monotime.h"
#include "plan/fit.h"
#include "plan/trace.h"
#include "save.h"
#include "target.h"
#include "text.h"

static void json_events(json_t *j, const fit_plan_t *p)
{
    json_arr_begin(j, "events");
    strbuf_t said;
    strbuf_init(&said);
    for (int32_t i = 0; i < p->n_events; i++) {
        const fit_event_t *e = &p->events[i];
        const char *text = trace_describe(p, i, &said);
        json_obj_begin(j, NULL);
        json_str(j, "kind", trace_kind_name((fit_event_kind_t)e->kind));
        json_int(j, "round", e->round);
        if (e->node >= 0)
            json_str(j, "node", p->routine->nodes[e->node].name);
        if (e->reason)
            json_str(j, "reason", trace_reason_name((fit_reason_t)e->reason));
        json_int(j, "alone", e->alone);
        json_int(j, "with", e->with);
        json_int(j, "cur", e->cur);
        json_int(j, "relief", e->relief);
        json_int(j, "cost", e->cost);
        json_arr_begin(j, "members");
        for (int32_t k = 0; k < e->group_n; k++)
            json_str(j, NULL, p->routine->nodes[p->members[e->group_off + k]].name);
        json_arr_end(j);
        json_str(j, "text", text ? text : "(out of memory)");
        json_obj_end(j);
    }
    strbuf_free(&said);
    json_arr_end(j);
}

/* A fit's flips as the answers print them (DESIGN §13). */
static answer_flips_t answers_of(const fit_plan_t *p)
{
    return (answer_flips_t){ .r = p->routine, .f = p->flips, .n = p->n_flips, .recompute_known = true,
                             .baseline = p->baseline };
}

/* The keys of DESIGN §9, in its order; events when asked.  The budget also
 * carries spec, as it was asked for ("60%", "device", "48MiB"), as a
 * saved plan's does (show --json). */
static void json_plan(json_t *j, const char *key, const fit_plan_t *p, bool events, int64_t plan_id,
                      const best_plan_t *best, const char *spec, const frontier_shown_t *fr)
{
    json_obj_begin(j, key);
    json_str(j, "routine", p->routine->name);
    json_obj_begin(j, "budget");
    if (p->minimize) {
        json_str(j, "kind", "minimize");
    } else {
        json_str(j, "kind", "bytes");
        json_int(j, "bytes", p->budget);
    }
    if (spec)
        json_str(j, "spec", spec);
    json_obj_end(j);
    json_footprint(j, "baseline", &p->baseline);
    json_footprint(j, "final", &p->final);
    answer_flips_t a = answers_of(p);
    answer_out_json_flips(j, &a);
    json_int(j, "considered", p->considered);
    json_int(j, "dropped", p->dropped);
    json_bool(j, "within_budget", p->within_budget);
    json_obj_begin(j, "reuse");
    json_int(j, "reused", p->reused);
    json_int(j, "lowered", p->lowered);
    json_obj_end(j);
    /* DESIGN §13 */
    answer_out_json_floor(j, "floor", &p->floor);
    if (p->dropped > 0)
        answer_out_json_floor(j, "floor_cap", &p->floor_cap);
    answer_out_json_origins(j, &a);
    if (plan_id)
        json_int(j, "plan_id", plan_id);
    for (int k = 0; best && k < 2; k++)
        best_out_json(j, p, &best[k]);
    if (fr)
        frontier_out_json(j, fr);
    if (events)
        json_events(j, p);
    json_obj_end(j);
}

static void print_recompute(const target_t *t, const fit_plan_t *p)
{
    char r[192];
    text_recompute(p->final.compute - p->baseline.compute, p->baseline.compute,
                   t->has_profile ? t->profile.flops_per_s : 0, text_shown(t->profile.name), r, sizeof r);
    printf("recompute  %s\n", r);
}

/* The budget as typed with what it came to, exactly: "8GB = 7.45 GiB
 * (8000000000 B)", "60% = 5.68 MiB (5956303 B)", "48.0 MiB (50331648 B)". */
static void print_budget(const fit_plan_t *p, const char *spec)
{
    char a[64], typed[128];
    if (p->minimize) {
        printf("minimize");
        return;
    }
    units_format_bytes_exact(p->budget, a, sizeof a);
    units_format_budget(spec, false, p->budget, typed, sizeof typed);
    const char *eq = strstr(typed, " = ");
    if (eq)
        printf("%.*s = %s", (int)(eq - typed), typed, a);
    else
        printf("%s", a);
}

static void print_plan(const target_t *t, const fit_plan_t *p, bool events, const char *spec)
{
    char a[32], b[32], f[32], hides[256];
    if (text_cap_hides(p, spec, "--max-candidates all", hides, sizeof hides))
        printf("%s\n", hides);
    printf("fit %s: budget ", text_shown(p->routine->name));
    print_budget(p, spec);
    printf(", candidate cap %s\n", p->cap < 0 || p->cap == FIT_CAP_ALL /* -1: unbounded (minimize) */
                                        ? "all"
                                        : (snprintf(a, sizeof a, "%d", (int)p->cap), a));
    units_format_bytes(p->baseline.total, a, sizeof a);
    units_format_flops(p->baseline.compute, f, sizeof f);
    printf("baseline   %-10s (%lld B), compute %s\n", a, (long long)p->baseline.total, f);
    units_format_bytes(p->final.total, a, sizeof a);
    units_format_bytes(p->baseline.total - p->final.total, b, sizeof b);
    units_format_flops(p->final.compute, f, sizeof f);
    printf("final      %-10s (%lld B), compute %s, relieved %s\n", a, (long long)p->final.total, f, b);
    print_recompute(t, p);
    answer_out_floors(&p->floor, &p->floor_cap, p->considered, p->dropped);
    printf("within budget: %s", p->within_budget ? "yes" : "no");
    answer_out_missed_by(p->minimize ? -1 : p->budget, p->final.total, p->within_budget);
    if (text_below_floor(p))
        printf(" (the budget is below the floor: no plan can reach it)");
    else if (!p->within_budget && p->dropped > 0)
        printf(" (the cap kept the %d cheapest of %d candidates: --max-candidates %d considers every one)",
               (int)p->considered, (int)(p->considered + p->dropped), (int)(p->considered + p->dropped));
    else if (!p->within_budget && !p->minimize) /* above the floor, every candidate considered */
        printf(" (the two rounds considered every candidate: --improve or --exact searches further)");
    printf("\n");
    answer_flips_t af = answers_of(p);
    answer_out_flips(&af);
    printf("\ncandidates: %d considered, %d dropped\n", (int)p->considered, (int)p->dropped);
    printf("reuse: %lld reused, %lld lowered\n", (long long)p->reused, (long long)p->lowered);
    if (!events)
        return;
    printf("\nevents:\n");
    strbuf_t said;
    strbuf_init(&said);
    for (int32_t i = 0; i < p->n_events; i++) {
        const char *text = trace_describe(p, i, &said);
        const fit_event_t *e = &p->events[i];
        printf("  %4d  r%d %-14s %s\n", (int)i, e->round, trace_kind_name((fit_event_kind_t)e->kind),
               text ? text : "(out of memory)");
        strbuf_reset(&said);
        for (int32_t k = 0; k < e->group_n && e->group_n > 3; k++)
            strbuf_printf(&said, "%s%s", k ? " " : "", p->routine->nodes[p->members[e->group_off + k]].name);
        answer_out_event_group(trace_kind_name((fit_event_kind_t)e->kind), e->group_n, said.s ? said.s : "");
    }
    strbuf_free(&said);
}

/* config log_memory_budget: the candidates the cap dropped, one line each
 * on stderr (the trace has them either way). */
static void log_dropped(const target_t *t, const fit_plan_t *p)
{
    if (!t->cfg.log_memory_budget)
        return;
    for (int32_t i = 0; i < p->n_events; i++)
        if (p->events[i].kind == EV_DROPPED)
        {
            char f[32];
            units_format_flops(p->events[i].cost, f, sizeof f);
            fprintf(stderr, "rematscope: memory budget: dropped candidate %s (cost bound %s): over the cap of %d\n",
                    p->routine->nodes[p->events[i].node].name, f, (int)p->cap);
        }
}

/* --scoring: "full" (the check) or "incremental"; RS_EINPUT otherwise. */
static int parse_scoring(const cmdline_t *c, bool *full, rs_error_t *err)
{
    *full = false;
    if (!c->scoring || strcmp(c->scoring, "incremental") == 0)
        return RS_OK;
    if (strcmp(c->scoring, "full") == 0) {
        *full = true;
        return RS_OK;
    }
    return error_set(err, RS_EINPUT, "--scoring", 0, 0, "expected full or incremental, found '%s'", c->scoring);
}

/* DESIGN §13: says on stderr, before a fit starts, when its budget is below
 * the floor or the floor under the cap (the fit still runs: §5's outcome
 * is the contract).  A budget that does not resolve is the fit's error to
 * report, so nothing is said then. */
static void warn_floor(const fit_options_t *opt, const fit_context_t *ctx, progress_t *pg)
{
    fit_outlook_t o;
    rs_error_t ignored;
    char said[1024];
    if (fit_outlook(opt, ctx, &o, &ignored) || o.minimize || !text_floor_below(o.budget, &o.floors, said, sizeof said))
        return;
    progress_clear(pg); /* the line goes before the warning, and comes back after */
    answer_out_warn(o.budget, &o.floors);
}

/* RS_ECANCELED when ^C asked for a stop (rc when something failed first):
 * a stretch that takes no stop (the floors) ends, then the run stops. */
static int check_stop(const progress_t *pg, int rc, rs_error_t *err)
{
    return !rc && progress_stopped(pg) ? error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped") : rc;
}

static void fill_options(const cmdline_t *c, const target_t *t, fit_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->max_candidates = c->max_candidates > INT32_MAX ? INT32_MAX : (int32_t)c->max_candidates;
    o->device_bytes = t->has_profile ? t->profile.memory_bytes : -1;
    bool full;
    rs_error_t ignored;
    if (!parse_scoring(c, &full, &ignored)) /* checked before the routine is read */
        o->full_scoring = full;
}

/* --audit: the summary and each difference on stderr; returns the exit
 * status it asks for at the end (2 when any reuse differed). */
static int report_audit(const audit_t *a, const char *what)
{
    fprintf(stderr, "rematscope: audit%s%s: %s checked, %s\n", what ? " " : "", what ? what : "",
            text_count(a->checked, "reuse", NULL), text_count(a->differences, "difference", NULL));
    for (const char *l = a->lines.s; l && *l;) {
        const char *nl = strchr(l, '\n');
        int len = nl ? (int)(nl - l) : (int)strlen(l);
        fprintf(stderr, "rematscope: audit: %.*s\n", len, l);
        l += len + (nl != NULL);
    }
    if (a->differences > AUDIT_MAX_LINES)
        fprintf(stderr, "rematscope: audit: ... and %lld more\n", (long long)(a->differences - AUDIT_MAX_LINES));
    return a->differences ? 2 : 0;
}

int cmd_fit(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    fit_options_t opt;
    budget_spec_t spec; /* a bad --budget is told before the routine is read */
    bool full, frontier;
    if ((c->budget && units_parse_budget(c->budget, "--budget", &spec, &err)) || parse_scoring(c, &full, &err) ||
        frontier_out_wanted(c, &frontier, &err))
        return fail_print(&err);
    target_t t;
    if (target_open(c, c->pos[0], &t, &err))
        return fail_print(&err);
    /* without --budget, the config file's memory_budget (DESIGN §11) */
    if (!t.settings.has_budget) {
        error_set(&err, RS_EINPUT, NULL, 0, 0,
                  "fit needs --budget B (48MiB, 1.5GB, 60%%, device, minimize) or memory_budget in the config file");
        target_free(&t);
        return fail_print(&err);
    }
    fill_options(c, &t, &opt);
    opt.budget = t.settings.budget;
    fit_context_t *ctx = NULL;
    fit_plan_t *plan = NULL;
    best_plan_t best[2] = { { 0 }, { 0 } };
    /* the line from the first scoring (the floor's outlook scores the
     * baseline too) to the end of the save */
    progress_t pg;
    progress_fit_begin(&pg, !c->no_progress, t.settings.value[CONFIG_MEMORY_BUDGET], c->audit);
    progress_attach(&pg, &opt);
    int rc = target_context(&t, &ctx, &err);
    if (!rc)
        warn_floor(&opt, ctx, &pg);
    int64_t t0 = monotime_us(), elapsed = 0, plan_id = 0;
    audit_t audit;
    audit_init(&audit);
    char *record = NULL;
    if (!rc && (rc = audit_fit_run(c->audit ? &audit : NULL, &opt, ctx, NULL, &plan, &err)) &&
        strcmp(err.file, "--budget") == 0) /* e.g. `device` with no profile */
        settings_locate_error(&t.settings, c->config, CONFIG_MEMORY_BUDGET, &err);
    elapsed = monotime_us() - t0;
    rc = check_stop(&pg, rc, &err);
    if (!rc && t.cfg.log_memory_budget)
        progress_clear(&pg);
    if (!rc)
        log_dropped(&t, plan);
    if (!rc && c->audit && !(record = audit_record(&audit)))
        rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc)
        rc = check_stop(&pg, best_out_run(c, plan, ctx, progress_best_watch, &pg, best, &err), &err);
    frontier_result_t fr = { 0 };
    double fr_seconds = 0;
    if (!rc && frontier)
        rc = check_stop(&pg, frontier_out_run(c, plan, ctx, &pg, &fr, &fr_seconds, &err), &err);
    if (!rc && c->save) {
        const char *asked[1] = { t.settings.value[CONFIG_MEMORY_BUDGET] };
        save_extra_t x = { .budgets = asked, .audits = &record, .frontiers = frontier ? &fr : NULL,
                           .frontier_seconds = &fr_seconds };
        progress_attach_save(&pg, &x);
        rc = save_plans(c, &t, &plan, &elapsed, 1, &x, &plan_id, &err);
    }
    if (!rc && c->save && best_out_gap(best))
        rc = save_gap(&t, plan, plan_id, best_out_gap(best), &err);
    bool stopped = progress_end(&pg); /* the line goes before anything else is said */
    int status = 0;
    frontier_shown_t shown = frontier && !rc ? frontier_out_shown(&t, plan, &fr, fr_seconds) : (frontier_shown_t){ 0 };
    if (rc) {
        status = rc == RS_ECANCELED && stopped ? progress_fail_stopped(&pg) : fail_print(&err);
    } else if (c->json) {
        json_t j;
        json_init(&j, stdout);
        json_plan(&j, NULL, plan, c->events, plan_id, best, t.settings.value[CONFIG_MEMORY_BUDGET],
                  frontier ? &shown : NULL);
        json_finish(&j);
    } else {
        print_plan(&t, plan, c->events, t.settings.value[CONFIG_MEMORY_BUDGET]);
        for (int k = 0; k < 2; k++)
            best_out_print(plan, &best[k]);
        if (frontier)
            frontier_out_print(&shown);
        if (plan_id)
            printf("\nsaved as plan %lld in %s\n", (long long)plan_id, text_shown(store_path(t.store)));
    }
    if (!rc && c->audit)
        status = report_audit(&audit, NULL);
    free(record);
    audit_free(&audit);
    best_plan_free(&best[0]);
    best_plan_free(&best[1]);
    frontier_result_free(&fr);
    fit_plan_free(plan);
    fit_context_free(ctx);
    target_free(&t);
    return status;
}

/* Splits "a,b,c" into budgets; RS_EINPUT names the one at fault. */
/* The budgets of a comma list: (*out)[i] parsed from (*texts)[i], which
 * points into *copy (free both). */
static int parse_budgets(const char *list, budget_spec_t **out, const char ***texts, char **copy, int *n,
                         rs_error_t *err)
{
    *out = NULL;
    *texts = NULL;
    *n = 0;
    *copy = strdup(list);
    int cap = 1;
    for (const char *q = list; *q; q++)
        cap += *q == ',';
    budget_spec_t *b = calloc((size_t)cap, sizeof *b);
    const char **tx = calloc((size_t)cap, sizeof *tx);
    int rc = *copy && b && tx ? RS_OK : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    char *save = NULL;
    for (char *tok = rc ? NULL : strtok_r(*copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        for (char *e = tok + strlen(tok); e > tok && e[-1] == ' ';)
            *--e = 0;
        tx[*n] = tok;
        rc = units_parse_budget(tok, "--budgets", &b[(*n)++], err);
    }
    if (!rc && *n == 0)
        rc = error_set(err, RS_EINPUT, "--budgets", 0, 0, "expected a comma-separated list of budgets");
    if (rc) {
        free(b);
        free(tx);
        free(*copy);
        *copy = NULL;
        *n = 0;
        return rc;
    }
    *out = b;
    *texts = tx;
    return RS_OK;
}

static bool has_flip(const fit_plan_t *p, int32_t node)
{
    for (int32_t k = 0; p && k < p->n_flips; k++)
        if (p->flips[k].node == node)
            return true;
    return false;
}

#define SWEEP_TIME_W 10 /* "+3.69 ms", "+1.23 min" */
#define CHANGES_COLS 72 /* the names a sweep's "flips changed" cell prints before its count */

/* "+a +b -c": flips of p not in prev (NULL: the baseline), then those of
 * prev p dropped; past CHANGES_COLS columns of names, "... and N more
 * (+A -R in all)" (a cell of 1,889 names was one 30 KB line). */
static void print_flip_changes(const target_t *t, const fit_plan_t *prev, const fit_plan_t *p)
{
    int shown = 0, added = 0, removed = 0;
    size_t cols = 0;
    for (int32_t k = 0; k < p->n_flips; k++)
        added += !has_flip(prev, p->flips[k].node);
    for (int32_t m = 0; prev && m < prev->n_flips; m++)
        removed += !has_flip(p, prev->flips[m].node);
    for (int pass = 0; pass < 2; pass++) {
        const fit_plan_t *a = pass ? prev : p, *b = pass ? p : prev;
        for (int32_t k = 0; a && k < a->n_flips && cols < CHANGES_COLS; k++)
            if (!has_flip(b, a->flips[k].node)) {
                const char *name = text_shown(t->routine->nodes[a->flips[k].node].name);
                printf("%s%c%s", shown++ ? " " : "", pass ? '-' : '+', name);
                cols += strlen(name) + 2;
            }
    }
    if (shown < added + removed)
        printf(" ... and %d more (+%d -%d in all)", added + removed - shown, added, removed);
}

/* Before the table, one line for the budgets the cap alone kept out of
 * reach (text_cap_hides): "the cap of 32 keeps 2.2GB, 2.3GB out of reach;
 * every candidate reaches down to 1.98 GiB: --max-candidates all". */
static void print_cap_hides(fit_plan_t *const *plans, const char *const *asked, int n)
{
    strbuf_t which;
    strbuf_init(&which);
    char one[256];
    int first = -1;
    for (int i = 0; i < n; i++)
        if (text_cap_hides(plans[i], asked[i], "", one, sizeof one)) {
            char bud[64]; /* bare bytes (a policy's total) with units; as typed otherwise */
            if (strspn(asked[i], "0123456789") == strlen(asked[i]))
                units_format_bytes(plans[i]->budget, bud, sizeof bud);
            else
                snprintf(bud, sizeof bud, "%s", asked[i]);
            strbuf_printf(&which, "%s%s", first < 0 ? "" : ", ", text_shown(bud));
            first = first < 0 ? i : first;
        }
    if (first >= 0 && which.s && !which.oom)
        printf("the cap of %d keeps %s out of reach; every candidate reaches down to %s: --max-candidates all\n",
               (int)plans[first]->cap, which.s, (units_format_bytes(plans[first]->floor.bytes, one, sizeof one), one));
    strbuf_free(&which);
}

/* Appends the policies' totals to the sweep's budgets (issue 45): specs
 * and asked grow by n_pol; *all gets every budget as one comma list, for
 * the saved sweep. */
static int add_policy_budgets(const policy_point_t *pts, int n_pol, budget_spec_t **specs, const char ***asked, int *n,
                              char **all, rs_error_t *err)
{
    budget_spec_t *s = realloc(*specs, ((size_t)*n + (size_t)n_pol + 1) * sizeof *s);
    if (s)
        *specs = s;
    const char **a = s ? realloc(*asked, ((size_t)*n + (size_t)n_pol + 1) * sizeof *a) : NULL;
    if (a)
        *asked = a;
    strbuf_t list;
    strbuf_init(&list);
    for (int i = 0; a && i < *n; i++)
        strbuf_printf(&list, "%s%s", i ? "," : "", a[i]);
    int rc = a ? RS_OK : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int k = 0; k < n_pol && !rc; k++) {
        rc = units_parse_budget(pts[k].budget, "--policy", &s[*n], err);
        a[(*n)++] = pts[k].budget;
        strbuf_printf(&list, "%s%s", *n > 1 ? "," : "", pts[k].budget);
    }
    *all = rc || list.oom ? NULL : list.s;
    if (!rc && !*all)
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc)
        strbuf_free(&list);
    return rc;
}

int cmd_sweep(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    if (!c->budgets && c->n_policies == 0) {
        error_set(&err, RS_EINPUT, NULL, 0, 0, "sweep needs --budgets B1,B2,... (or --policy R)");
        return fail_print(&err);
    }
    budget_spec_t *specs = NULL;
    const char **asked = NULL;
    char *asked_copy = NULL, *all_budgets = NULL;
    int n = 0, n_pol = 0, first_pol;
    bool frontier;
    policy_point_t *pts = NULL;
    int prc = frontier_out_wanted(c, &frontier, &err);
    if (!prc && c->budgets)
        prc = parse_budgets(c->budgets, &specs, &asked, &asked_copy, &n, &err);
    if (!prc)
        prc = policy_out_score(c, &pts, &n_pol, &err);
    first_pol = n;
    if (!prc)
        prc = add_policy_budgets(pts, n_pol, &specs, &asked, &n, &all_budgets, &err);
    if (prc) {
        free(specs);
        free(asked);
        free(asked_copy);
        policy_out_free(pts, n_pol);
        return fail_print(&err);
    }
    target_t t;
    if (target_open(c, c->pos[0], &t, &err)) {
        free(specs);
        free(asked);
        free(asked_copy);
        free(all_budgets);
        policy_out_free(pts, n_pol);
        return fail_print(&err);
    }
    fit_options_t opt;
    fill_options(c, &t, &opt);
    opt.name = "sweep";
    fit_context_t *ctx = NULL;
    reuse_cell_t *cell = NULL;
    fit_plan_t **plans = calloc((size_t)n, sizeof *plans);
    int rc = plans ? target_context(&t, &ctx, &err) : error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc) {
        /* one search: every budget's fit shares one reuse cell */
        cell = reuse_cell_new();
        if (!cell)
            rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int64_t *elapsed = calloc((size_t)n, sizeof *elapsed), *ids = calloc((size_t)n, sizeof *ids);
    audit_t *audits = calloc((size_t)n, sizeof *audits); /* one per budget: each plan records its own */
    char **records = calloc((size_t)n, sizeof *records);
    if (!rc && (!elapsed || !ids || !audits || !records))
        rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; audits && i < n; i++)
        audit_init(&audits[i]);
    /* one search: the baseline and round one once, round two once per
     * candidate list, each budget's plan exactly its own fit's */
    progress_t pg;
    progress_sweep_begin(&pg, !c->no_progress, asked, n, c->audit);
    progress_attach(&pg, &opt);
    if (!rc)
        rc = audit_sweep_run(c->audit ? audits : NULL, &opt, specs, n, ctx, cell, plans, elapsed, &err);
    rc = check_stop(&pg, rc, &err);
    if (!rc && t.cfg.log_memory_budget)
        progress_clear(&pg);
    /* DESIGN §14: the frontier planner at each budget, seeded with its plan */
    frontier_result_t *frs = frontier && !rc ? calloc((size_t)n, sizeof *frs) : NULL;
    double *fr_seconds = frontier && !rc ? calloc((size_t)n, sizeof *fr_seconds) : NULL;
    if (frontier && !rc && (!frs || !fr_seconds))
        rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; frontier && i < n && !rc; i++)
        rc = check_stop(&pg, frontier_out_run(c, plans[i], ctx, &pg, &frs[i], &fr_seconds[i], &err), &err);
    if (frontier && !rc)
        rc = frontier_out_adopt(plans, frs, n, &err);
    for (int i = 0; i < n && !rc; i++) {
        log_dropped(&t, plans[i]);
        if (c->audit && !(records[i] = audit_record(&audits[i])))
            rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (!rc && c->save) {
        save_extra_t x = { .budgets = asked, .sweep_budgets = all_budgets, .audits = records, .frontiers = frs,
                           .frontier_seconds = fr_seconds };
        progress_attach_save(&pg, &x);
        rc = save_plans(c, &t, plans, elapsed, n, &x, ids, &err);
    }
    bool stopped = progress_end(&pg); /* the line goes before anything else is said */
    int status = 0;
    if (rc) {
        status = rc == RS_ECANCELED && stopped ? progress_fail_stopped(&pg) : fail_print(&err);
    } else if (c->json) {
        json_t j;
        json_init(&j, stdout);
        json_obj_begin(&j, NULL);
        json_str(&j, "routine", t.routine->name);
        json_arr_begin(&j, "plans");
        for (int i = 0; i < n; i++) {
            frontier_shown_t v = frs ? frontier_out_shown(&t, plans[i], &frs[i], fr_seconds[i]) : (frontier_shown_t){ 0 };
            json_plan(&j, NULL, plans[i], false, ids[i], NULL, asked[i], frs ? &v : NULL);
        }
        json_arr_end(&j);
        if (n_pol)
            policy_out_json(&j, plans, frs, first_pol, pts, n_pol);
        int64_t reused, lowered;
        reuse_cell_counters(cell, &reused, &lowered);
        json_obj_begin(&j, "reuse");
        json_int(&j, "reused", reused);
        json_int(&j, "lowered", lowered);
        json_obj_end(&j);
        json_obj_end(&j);
        json_finish(&j);
    } else {
        char a[32], b[32], f[32];
        units_format_bytes(plans[0]->baseline.total, a, sizeof a);
        units_format_flops(plans[0]->baseline.compute, f, sizeof f);
        printf("sweep %s: %s, baseline %s (%lld B), compute %s%s%s\n", text_shown(t.routine->name), text_count(n, "budget", NULL),
               a, (long long)plans[0]->baseline.total, f, t.has_profile && t.profile.flops_per_s > 0 ? ", time on " : "",
               t.has_profile && t.profile.flops_per_s > 0 ? text_shown(t.profile.name) : "");
        answer_out_floors(&plans[0]->floor, NULL, 0, 0);
        print_cap_hides(plans, asked, n);
        /* with a profile, the recompute's time as fit says it (text_recompute) */
        bool timed = t.has_profile && t.profile.flops_per_s > 0;
        char time_head[96] = "";
        if (timed)
            snprintf(time_head, sizeof time_head, " %*s", SWEEP_TIME_W, "time");
        printf("\n%-22s %12s %14s %6s %12s %10s%s %-9s %s\n", "budget", "final", "final B", "flips", "recompute", "",
               time_head, "within", "flips changed from the budget above");
        for (int i = 0; i < n; i++) {
            const fit_plan_t *p = plans[i];
            char bud[48];
            units_format_budget(asked[i], p->minimize, p->budget, bud, sizeof bud);
            units_format_bytes(p->final.total, b, sizeof b);
            double pct = p->baseline.compute ? 100.0 * (double)(p->final.compute - p->baseline.compute) /
                                                   (double)p->baseline.compute
                                             : 0.0;
            int64_t extra = p->final.compute - p->baseline.compute;
            char rec[40];
            units_format_flops(extra, f, sizeof f);
            snprintf(rec, sizeof rec, "%s%s", extra >= 0 ? "+" : "", f);
            char secs[48] = "";
            if (timed) {
                char sv[32], signed_sv[40];
                units_format_seconds((double)extra / (double)t.profile.flops_per_s, sv, sizeof sv);
                snprintf(signed_sv, sizeof signed_sv, "%s%s", extra >= 0 ? "+" : "", sv);
                snprintf(secs, sizeof secs, " %*s", SWEEP_TIME_W, signed_sv);
            }
            printf("%-22s %12s %14lld %6d %12s %+9.3f%%%s %-9s ", bud, b, (long long)p->final.total, (int)p->n_flips,
                   rec, pct, secs, text_within(p));
            print_flip_changes(&t, i > 0 ? plans[i - 1] : NULL, p);
            printf("\n");
        }
        /* what "no, floor" and "no, cap" say, once each */
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < n; i++)
                if (strcmp(text_within(plans[i]), k ? "no, cap" : "no, floor") == 0) {
                    char fl[512];
                    text_floor(k ? &plans[i]->floor_cap : &plans[i]->floor, k ? "dropped candidates" : NULL, fl,
                               sizeof fl);
                    printf(k ? "\nno, cap: below the floor under the cap, %s\n"
                             : "\nno, floor: the budget is below the floor: no plan can reach it\n", fl);
                    break;
                }
        /* a byte budget missed while the cap dropped candidates: say so once */
        for (int i = 0; i < n; i++)
            if (!plans[i]->within_budget && plans[i]->dropped > 0) {
                int all = (int)(plans[i]->considered + plans[i]->dropped);
                printf("\nmissed budgets kept the %d cheapest of %d candidates: --max-candidates %d considers every one\n",
                       (int)plans[i]->considered, all, all);
                break;
            }
        if (frs)
            frontier_out_curve(&t, plans, asked, frs, n);
        if (n_pol)
            policy_out_print(&t, plans, frs, first_pol, pts, n_pol);
        int64_t reused, lowered;
        reuse_cell_counters(cell, &reused, &lowered);
        printf("\nreuse (one search): %lld reused, %lld lowered\n", (long long)reused, (long long)lowered);
        if (c->save)
            printf("saved as plans %lld-%lld in %s\n", (long long)ids[0], (long long)ids[n - 1], text_shown(store_path(t.store)));
    }
    for (int i = 0; !rc && c->audit && i < n; i++) {
        char what[64];
        snprintf(what, sizeof what, "of budget %d", i + 1);
        if (report_audit(&audits[i], what))
            status = 2;
    }
    for (int i = 0; frs && i < n; i++)
        frontier_result_free(&frs[i]);
    free(frs);
    free(fr_seconds);
    for (int i = 0; audits && i < n; i++)
        audit_free(&audits[i]);
    for (int i = 0; records && i < n; i++)
        free(records[i]);
    free(audits);
    free(records);
    for (int i = 0; plans && i < n; i++)
        fit_plan_free(plans[i]);
    free(plans);
    free(elapsed);
    free(ids);
    reuse_cell_free(cell);
    fit_context_free(ctx);
    free(specs);
    free(asked);
    free(asked_copy);
    free(all_budgets);
    policy_out_free(pts, n_pol);
    target_free(&t);
    return status;
}
