/* The store's commands: import, routines, profiles, plans, show, compare,
 * export, delete. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/answer_out.h"
#include "cli/cli.h"
#include "cli/frontier_out.h"
#include "cli/json.h"
#include "datadir.h"
#include "export.h"
#include "fail.h"
#include "import.h"
#include "library.h"
#include "minimalloc.h"
#include "model/units.h"
#include "plan/floor.h"
#include "plans.h"
#include "profiles.h"
#include "rebuild.h"
#include "svg.h"
#include "target.h"
#include "text.h"
#include "util/checked.h"

/* ---- import ------------------------------------------------------------- */

int cmd_import(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    char **tidy = cmdline_tidy_paths(c);
    int rc = tidy ? import_paths(c, NULL, (const char *const *)tidy, c->n_pos, stdout, NULL, NULL, &err)
                  : error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    cmdline_tidy_free(tidy, c->n_pos);
    return rc ? fail_print(&err) : 0;
}

/* ---- listings ------------------------------------------------------------ */

static int open_or_fail(const cmdline_t *c, store_t **s)
{
    rs_error_t err;
    error_clear(&err);
    if (session_open(c, s, &err))
        return fail_print(&err);
    return 0;
}

int cmd_routines(const cmdline_t *c)
{
    store_t *s;
    int status = open_or_fail(c, &s);
    if (status)
        return status;
    rs_error_t err;
    routine_row_t *rows;
    int n;
    if (library_routine_list(s, &rows, &n, &err)) {
        store_close(s);
        return fail_print(&err);
    }
    if (c->json) {
        json_t j;
        json_init(&j, stdout);
        json_arr_begin(&j, NULL);
        for (int i = 0; i < n; i++) {
            json_obj_begin(&j, NULL);
            json_str(&j, "name", rows[i].name);
            json_int(&j, "version", rows[i].version);
            json_int(&j, "steps", rows[i].steps);
            json_int(&j, "nodes", rows[i].nodes);
            json_str(&j, "hash", rows[i].hash);
            json_str(&j, "path", rows[i].path);
            json_str(&j, "imported_at", rows[i].imported_at);
            json_str(&j, "kind", rows[i].kind);
            json_obj_end(&j);
        }
        json_arr_end(&j);
        json_finish(&j);
    } else {
        printf("%-28s %7s %-7s %7s %7s  %-20s  %s\n", "routine", "version", "kind", "steps", "nodes", "imported",
               "from");
        for (int i = 0; i < n; i++)
            printf("%-28s %7d %-7s %7d %7d  %-20s  %s\n", text_shown(rows[i].name), (int)rows[i].version, rows[i].kind,
                   (int)rows[i].steps, (int)rows[i].nodes, rows[i].imported_at, text_shown(rows[i].path));
        if (!n)
            printf("(no routines: rematscope import FILE...)\n");
    }
    library_routine_rows_free(rows, n);
    store_close(s);
    return 0;
}

static void print_profile(const profile_t *p, const char *from)
{
    char m[32], name[160];
    units_format_bytes(p->memory_bytes, m, sizeof m);
    printf("%-24s %12s %9lld %6d %14.4g %14.4g%s\n", text_escape(p->name, name, sizeof name), m, (long long)p->alignment,
           (int)p->max_inline_depth, (double)p->flops_per_s, (double)p->bytes_per_s, from);
}

/* After the n stored profiles: the bundled ones the store lacks, marked,
 * which --profile and the TUI offer as well (the TUI listed 9 while this
 * said there were none). */
static void print_bundled_profiles(const profile_t *stored, int n)
{
    profile_list_t l;
    rs_error_t err;
    int shown = 0;
    if (!target_bundled_profiles(&l, &err)) {
        for (int32_t i = 0; i < l.n; i++) {
            bool have = false;
            for (int k = 0; k < n && !have; k++)
                have = strcmp(stored[k].name, l.items[i].name) == 0;
            if (!have) {
                print_profile(&l.items[i], "  bundled");
                shown++;
            }
        }
        profiles_free(&l);
    }
    if (shown)
        printf("(bundled: read from %s, not stored; --profile and the TUI use them, import stores them)\n",
               text_shown(datadir_profiles()));
    else if (!n)
        printf("(no profiles: rematscope import %s)\n", text_shown(datadir_profiles()));
}

int cmd_profiles(const cmdline_t *c)
{
    store_t *s;
    int status = open_or_fail(c, &s);
    if (status)
        return status;
    rs_error_t err;
    profile_t *p;
    int n;
    if (library_profile_list(s, &p, &n, &err)) {
        store_close(s);
        return fail_print(&err);
    }
    if (c->json) {
        json_t j;
        json_init(&j, stdout);
        json_arr_begin(&j, NULL);
        for (int i = 0; i < n; i++) {
            json_obj_begin(&j, NULL);
            json_str(&j, "name", p[i].name);
            json_int(&j, "memory_bytes", p[i].memory_bytes);
            json_int(&j, "alignment", p[i].alignment);
            json_int(&j, "max_inline_depth", p[i].max_inline_depth);
            json_int(&j, "flops_per_s", p[i].flops_per_s);
            json_int(&j, "bytes_per_s", p[i].bytes_per_s);
            json_obj_end(&j);
        }
        json_arr_end(&j);
        json_finish(&j);
    } else {
        printf("%-24s %12s %9s %6s %14s %14s\n", "profile", "memory", "alignment", "depth", "FLOP/s", "bytes/s");
        for (int i = 0; i < n; i++)
            print_profile(&p[i], "");
        print_bundled_profiles(p, n);
    }
    free(p);
    store_close(s);
    return 0;
}

/* s (escaped text) in a column of w: cut at a character, never inside one
 * (a cut UTF-8 sequence is a byte a terminal shows as garbage), and padded. */
static const char *cell(const char *s, int w, char *buf, size_t n)
{
    int cols;
    size_t b = text_bytes_for_cols(s, w, &cols);
    snprintf(buf, n, "%.*s%*s", (int)b, s, w - cols, "");
    return buf;
}

int cmd_plans(const cmdline_t *c)
{
    store_t *s;
    int status = open_or_fail(c, &s);
    if (status)
        return status;
    rs_error_t err;
    stored_plan_t *p;
    int n;
    if (plans_list(s, &p, &n, &err)) {
        store_close(s);
        return fail_print(&err);
    }
    if (c->json) {
        json_t j;
        json_init(&j, stdout);
        json_arr_begin(&j, NULL);
        for (int i = 0; i < n; i++) {
            json_obj_begin(&j, NULL);
            json_int(&j, "id", p[i].id);
            json_str(&j, "label", p[i].label);
            json_str(&j, "routine", p[i].routine);
            json_str(&j, "budget_kind", p[i].budget_kind);
            json_int(&j, "budget_bytes", p[i].budget_bytes);
            json_str(&j, "budget_spec", p[i].budget_spec);
            json_int(&j, "baseline_total", p[i].baseline.total);
            json_int(&j, "final_total", p[i].final.total);
            json_int(&j, "flips", p[i].n_flips);
            json_bool(&j, "within_budget", p[i].within_budget);
            json_str(&j, "created_at", p[i].created_at);
            if (p[i].frontier.present) { /* DESIGN §14, saved beside it */
                json_obj_begin(&j, "frontier");
                json_int(&j, "final_total", p[i].frontier.final.total);
                json_int(&j, "final_compute", p[i].frontier.final.compute);
                json_int(&j, "flips", p[i].frontier.n_flips);
                json_bool(&j, "within_budget", p[i].frontier.within_budget);
                json_obj_end(&j);
            }
            json_obj_end(&j);
        }
        json_arr_end(&j);
        json_finish(&j);
    } else {
        printf("%5s  %-16s %-22s %-18s %12s %12s %6s %6s  %s\n", "plan", "label", "routine", "budget", "baseline",
               "final", "flips", "within", "created");
        for (int i = 0; i < n; i++) {
            char b[64], base[32], fin[32], rname[64];
            plans_budget_text(&p[i], b, sizeof b);
            units_format_bytes(p[i].baseline.total, base, sizeof base);
            units_format_bytes(p[i].final.total, fin, sizeof fin);
            snprintf(rname, sizeof rname, "%s v%d", text_shown(p[i].routine), (int)p[i].routine_version);
            char label[64], lc[80], rc[80];
            text_escape(p[i].label, label, sizeof label);
            printf("%5lld  %s %s %-18s %12s %12s %6d %6s  %s\n", (long long)p[i].id, cell(label, 16, lc, sizeof lc),
                   cell(rname, 22, rc, sizeof rc), b,
                   base, fin, (int)p[i].n_flips, p[i].within_budget ? "yes" : "no", p[i].created_at);
        }
        if (!n)
            printf("(no plans: rematscope fit ROUTINE --budget B --save)\n");
        int with = 0;
        for (int i = 0; i < n; i++)
            if (p[i].frontier.present) {
                char fin[32];
                units_format_bytes(p[i].frontier.final.total, fin, sizeof fin);
                printf("%s%lld = %s", with++ ? ", " : "with a frontier plan (DESIGN §14; show PLAN prints it): ",
                       (long long)p[i].id, fin);
            }
        if (with)
            printf("\n");
    }
    plans_list_free(p, n);
    store_close(s);
    return 0;
}

/* ---- show, compare, export, delete ---------------------------------------- */

static int parse_plan_id(const char *arg, int64_t *id, rs_error_t *err)
{
    return units_parse_int(arg, "PLAN", 1, INT64_MAX, id, err);
}

/* What show says beside a stored plan (DESIGN §13): its context rebuilt
 * from the store (the routine for the flips' origins, the baseline for the
 * floors), its flips as the planner's.  A plan still shows without it. */
typedef struct shown {
    rebuilt_t rb;
    bool rebuilt;
    floor_fit_t floors;
    bool has_floors;
    fit_flip_t *flips;
    const char **names;
    answer_flips_t a;
    bool has_frontier;       /* DESIGN §14: the frontier plan saved beside it */
    frontier_shown_t frontier;
} shown_t;

static void shown_open(store_t *s, const stored_plan_t *p, shown_t *out)
{
    memset(out, 0, sizeof *out);
    rs_error_t ignored;
    out->rebuilt = rebuild_plan(s, p, &out->rb, &ignored) == RS_OK;
    const routine_t *r = out->rebuilt ? out->rb.routine : NULL;
    if (r && plans_flips(p, r, &out->flips, &ignored))
        r = NULL, out->flips = NULL;
    out->has_floors = out->rebuilt &&
                      floor_of_fit(out->rb.lowering, out->rb.root_prefs, &out->rb.cfg, p->cap, &out->floors, &ignored) == RS_OK;
    if (!r) { /* names alone */
        out->flips = calloc((size_t)p->n_flips + 1, sizeof *out->flips);
        out->names = calloc((size_t)p->n_flips + 1, sizeof *out->names);
        for (int32_t i = 0; out->flips && out->names && i < p->n_flips; i++) {
            out->flips[i] = (fit_flip_t){ .node = -1, .relief = p->flips[i].relief, .cost = p->flips[i].cost,
                                          .recompute = p->flips[i].recompute };
            out->names[i] = p->flips[i].node;
        }
    }
    out->a = (answer_flips_t){ .r = r, .f = out->flips, .names = out->names, .n = out->flips ? p->n_flips : 0,
                               .recompute_known = p->recompute_known, .baseline = p->baseline };
    out->has_frontier = p->frontier.present &&
                        frontier_out_stored(p, out->rebuilt ? out->rb.routine : NULL, &out->frontier, &ignored) == RS_OK;
}

static void shown_free(shown_t *w)
{
    if (w->rebuilt)
        rebuild_free(&w->rb);
    free(w->flips);
    free(w->names);
    if (w->has_frontier)
        frontier_out_stored_free(&w->frontier);
}

/* The words of a space-separated list. */
static int32_t words(const char *s)
{
    int32_t n = 0;
    for (const char *c = s; *c; c++)
        n += *c != ' ' && (c == s || c[-1] == ' ');
    return n;
}

static void show_plan(const stored_plan_t *p, const shown_t *w, bool events)
{
    char a[32], b[64], f[32], label[256], rec[192];
    plans_budget_text(p, b, sizeof b);
    text_escape(p->label, label, sizeof label);
    printf("plan %lld%s%s%s: %s v%d, budget %s%s%s\n", (long long)p->id, p->label[0] ? " \"" : "", label,
           p->label[0] ? "\"" : "", text_shown(p->routine), (int)p->routine_version, b, p->profile[0] ? ", profile " : "",
           text_shown(p->profile));
    /* bindings and preferences grow with the routine: printed whole */
    printf("context    ");
    if (p->bindings[0]) { /* no bindings: nothing before the config, not a bare "; " */
        text_print(stdout, p->bindings);
        printf("; ");
    }
    text_print(stdout, p->config);
    printf("%s", p->prefs[0] ? "; inline " : "");
    text_print(stdout, p->prefs);
    printf("\n");
    units_format_bytes(p->baseline.total, a, sizeof a);
    units_format_flops(p->baseline.compute, f, sizeof f);
    printf("baseline   %-10s (%lld B), compute %s\n", a, (long long)p->baseline.total, f);
    units_format_bytes(p->final.total, a, sizeof a);
    units_format_flops(p->final.compute, f, sizeof f);
    printf("final      %-10s (%lld B), compute %s\n", a, (long long)p->final.total, f);
    text_recompute(sat_sub(p->final.compute, p->baseline.compute), p->baseline.compute, p->flops_per_s, text_shown(p->profile), rec,
                   sizeof rec);
    printf("recompute  %s\n", rec);
    if (w->has_floors)
        answer_out_floors(&w->floors.floor, &w->floors.cap, w->floors.candidates - w->floors.dropped,
                          w->floors.dropped);
    printf("within budget: %s", p->within_budget ? "yes" : "no");
    answer_out_missed_by(p->budget_bytes, p->final.total, p->within_budget);
    if (!p->within_budget && w->has_floors && p->budget_bytes >= 0 && p->budget_bytes < w->floors.floor.bytes)
        printf(" (the budget is below the floor: no plan can reach it)");
    printf("; %d considered, %d dropped; reuse %lld reused, %lld lowered; %.3f s; %s\n", (int)p->considered,
           (int)p->dropped, (long long)p->reused, (long long)p->lowered, (double)p->elapsed_us / 1e6, p->created_at);
    if (p->audit)
        printf("audit: %s", p->audit);
    answer_out_flips(&w->a);
    if (!events)
        return;
    printf("\nevents:\n");
    strbuf_t names;
    strbuf_init(&names);
    for (int32_t i = 0; i < p->n_events; i++) {
        printf("  %4d  r%d %-14s ", (int)p->events[i].seq, (int)p->events[i].round, text_shown(p->events[i].kind));
        text_print(stdout, p->events[i].text);
        printf("\n");
        const stored_event_t *e = &p->events[i];
        int32_t n = e->group_n >= 0 ? e->group_n : words(e->members); /* an older plan keeps its list */
        rs_error_t err;
        if (n > 3 && plans_event_members(p, e, &names, &err) == 0)
            answer_out_event_group(e->kind, n, names.s ? names.s : "");
    }
    strbuf_free(&names);
}

/* The gap to the best (fit --exact) or improved plan, when one was saved. */
static void json_gap(json_t *j, const plan_gap_t *g)
{
    if (!g->kind[0])
        return;
    json_obj_begin(j, "gap");
    json_str(j, "kind", g->kind);
    json_bool(j, "found", g->found);
    json_int(j, "total", g->total);
    json_int(j, "compute", g->compute);
    json_arr_begin(j, "flips");
    char *copy = strdup(g->flips), *save = NULL;
    for (char *tok = copy ? strtok_r(copy, " ", &save) : NULL; tok; tok = strtok_r(NULL, " ", &save))
        json_str(j, NULL, tok);
    free(copy);
    json_arr_end(j);
    json_bool(j, "proved", g->proved);
    json_int(j, "explored", g->explored);
    json_obj_end(j);
}

static void show_gap(const stored_plan_t *p)
{
    const plan_gap_t *g = &p->gap;
    if (!g->kind[0])
        return;
    if (!g->found) {
        printf("\n%s: %s\n", g->kind, strcmp(g->kind, "exact") == 0 && g->proved
                                         ? "no subset of the candidates fits the budget (proved)"
                                         : "none found within the budget before the search stopped (not proved)");
        return;
    }
    printf("\n%s plan%s: final %lld B (%+lld), compute %lld (%+lld); flips %s\n", g->kind,
           strcmp(g->kind, "exact") == 0 ? (g->proved ? ", proved best" : ", not proved") : "", (long long)g->total,
           (long long)sat_sub(g->total, p->final.total), (long long)g->compute, (long long)sat_sub(g->compute, p->final.compute),
           g->flips[0] ? g->flips : "(none)");
}

static int load_plans(const cmdline_t *c, store_t *s, int first, int count, bool events, stored_plan_t **out,
                      rs_error_t *err)
{
    *out = calloc((size_t)count, sizeof **out);
    if (!*out)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < count; i++) {
        int64_t id;
        int rc = parse_plan_id(c->pos[first + i], &id, err);
        if (!rc)
            rc = plans_load(s, id, events, &(*out)[i], err);
        if (rc) {
            for (int k = 0; k < i; k++)
                stored_plan_free(&(*out)[k]);
            free(*out);
            *out = NULL;
            return rc;
        }
    }
    return RS_OK;
}

int cmd_show(const cmdline_t *c)
{
    store_t *s;
    int status = open_or_fail(c, &s);
    if (status)
        return status;
    rs_error_t err;
    stored_plan_t *p;
    if (load_plans(c, s, 0, 1, c->events, &p, &err)) {
        store_close(s);
        return fail_print(&err);
    }
    shown_t w;
    shown_open(s, p, &w);
    if (c->json) {
        json_t j;
        json_init(&j, stdout);
        json_obj_begin(&j, NULL);
        json_int(&j, "id", p->id);
        json_str(&j, "label", p->label);
        json_str(&j, "routine", p->routine);
        json_obj_begin(&j, "budget");
        json_str(&j, "kind", p->budget_kind);
        if (p->budget_bytes >= 0)
            json_int(&j, "bytes", p->budget_bytes);
        json_str(&j, "spec", p->budget_spec);
        json_obj_end(&j);
        json_footprint(&j, "baseline", &p->baseline);
        json_footprint(&j, "final", &p->final);
        answer_out_json_flips(&j, &w.a);
        json_int(&j, "considered", p->considered);
        json_int(&j, "dropped", p->dropped);
        json_bool(&j, "within_budget", p->within_budget);
        json_obj_begin(&j, "reuse");
        json_int(&j, "reused", p->reused);
        json_int(&j, "lowered", p->lowered);
        json_obj_end(&j);
        if (w.has_floors) { /* DESIGN §13, from the rebuilt baseline */
            answer_out_json_floor(&j, "floor", &w.floors.floor);
            if (w.floors.dropped > 0)
                answer_out_json_floor(&j, "floor_cap", &w.floors.cap);
        }
        answer_out_json_origins(&j, &w.a);
        if (p->audit)
            json_str(&j, "audit", p->audit);
        json_gap(&j, &p->gap);
        if (w.has_frontier)
            frontier_out_json(&j, &w.frontier);
        json_obj_end(&j);
        json_finish(&j);
    } else {
        show_plan(p, &w, c->events);
        show_gap(p);
        if (w.has_frontier)
            frontier_out_print(&w.frontier);
    }
    shown_free(&w);
    stored_plan_free(p);
    free(p);
    store_close(s);
    return 0;
}

static bool plan_has(const stored_plan_t *p, const char *node)
{
    for (int32_t i = 0; i < p->n_flips; i++)
        if (strcmp(p->flips[i].node, node) == 0)
            return true;
    return false;
}

int cmd_compare(const cmdline_t *c)
{
    store_t *s;
    int status = open_or_fail(c, &s);
    if (status)
        return status;
    rs_error_t err;
    stored_plan_t *p;
    if (load_plans(c, s, 0, 2, false, &p, &err)) {
        store_close(s);
        return fail_print(&err);
    }
    char a[64], b[64];
    printf("%-16s %28s %28s\n", "", (snprintf(a, sizeof a, "plan %lld", (long long)p[0].id), a),
           (snprintf(b, sizeof b, "plan %lld", (long long)p[1].id), b));
    char la[64], lb[64];
    printf("%-16s %28s %28s\n", "label", text_escape(p[0].label, la, sizeof la), text_escape(p[1].label, lb, sizeof lb));
    snprintf(a, sizeof a, "%s v%d", text_shown(p[0].routine), (int)p[0].routine_version);
    snprintf(b, sizeof b, "%s v%d", text_shown(p[1].routine), (int)p[1].routine_version);
    printf("%-16s %28s %28s\n", "routine", a, b);
    /* what else makes two baselines differ: the profile and the alignment */
    printf("%-16s %28s %28s\n", "profile", p[0].profile[0] ? text_shown(p[0].profile) : "none",
           p[1].profile[0] ? text_shown(p[1].profile) : "none");
    score_config_t cfg[2];
    for (int k = 0; k < 2; k++)
        if (rebuild_config_parse(p[k].config, &cfg[k], &err))
            score_config_default(&cfg[k]);
    printf("%-16s %28lld %28lld\n", "alignment", (long long)cfg[0].alignment, (long long)cfg[1].alignment);
    plans_budget_text(&p[0], a, sizeof a);
    plans_budget_text(&p[1], b, sizeof b);
    printf("%-16s %28s %28s\n", "budget", a, b);
    printf("%-16s %28lld %28lld\n", "baseline B", (long long)p[0].baseline.total, (long long)p[1].baseline.total);
    printf("%-16s %28lld %28lld\n", "final B", (long long)p[0].final.total, (long long)p[1].final.total);
    /* recompute in FLOPs with its share, then the time on each plan's profile */
    char ra[2][192], rb[2][96];
    for (int k = 0; k < 2; k++) {
        text_recompute(sat_sub(p[k].final.compute, p[k].baseline.compute), p[k].baseline.compute, p[k].flops_per_s,
                       text_shown(p[k].profile), ra[k], sizeof ra[k]);
        char *about = strstr(ra[k], ", about ");
        snprintf(rb[k], sizeof rb[k], "%s", about ? about + 8 : "-");
        if (about)
            *about = 0;
    }
    printf("%-16s %28s %28s\n", "recompute", ra[0], ra[1]);
    printf("%-16s %28s %28s\n", "est. time", rb[0], rb[1]);
    printf("%-16s %28d %28d\n", "flips", (int)p[0].n_flips, (int)p[1].n_flips);
    printf("%-16s %28s %28s\n", "within budget", p[0].within_budget ? "yes" : "no", p[1].within_budget ? "yes" : "no");
    snprintf(a, sizeof a, "%lld/%lld", (long long)p[0].reused, (long long)p[0].lowered);
    snprintf(b, sizeof b, "%lld/%lld", (long long)p[1].reused, (long long)p[1].lowered);
    printf("%-16s %28s %28s\n", "reused/lowered", a, b);
    for (int k = 0; k < 2; k++) {
        const stored_plan_t *x = &p[k], *y = &p[1 - k];
        /* every name, wrapped to lines of 78 columns (1,889 of them were one 26 KB line) */
        int col = printf("\nflips only in plan %lld:", (long long)x->id) - 1, shown = 0;
        for (int32_t i = 0; i < x->n_flips; i++)
            if (!plan_has(y, x->flips[i].node)) {
                const char *name = text_shown(x->flips[i].node);
                int w = (int)strlen(name) + 2;
                if (shown && col + w > 78) {
                    printf(",\n ");
                    col = 1;
                } else if (shown) {
                    printf(",");
                    col++;
                }
                col += printf(" %s", name);
                shown++;
            }
        printf("%s", shown ? "\n" : " none\n");
        if (shown > 8)
            printf("(%d flips only in plan %lld)\n", shown, (long long)x->id);
    }
    stored_plan_free(&p[0]);
    stored_plan_free(&p[1]);
    free(p);
    store_close(s);
    return 0;
}

int cmd_export(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    bool svg = c->what && strcmp(c->what, "svg") == 0;
    int what = c->what ? export_what_parse(c->what) : -1;
    if (what < 0 && !svg) {
        error_set(&err, RS_EINPUT, "--what", 0, 0, "expected --what plans, flips, events, layout, origins, frontier or svg");
        return fail_print(&err);
    }
    if (!c->output) {
        error_set(&err, RS_EINPUT, "--output", 0, 0, "export needs --output F.csv");
        return fail_print(&err);
    }
    if (text_ends_with(c->output, svg ? ".csv" : ".svg")) { /* a picture in F.csv opened in a spreadsheet as garbage */
        error_set(&err, RS_EINPUT, "--output", 0, 0, "'%s' names %s file, but --what %s writes %s", c->output,
                  svg ? "a CSV" : "an SVG", c->what, svg ? "an SVG picture: name it F.svg" : "CSV: name it F.csv");
        return fail_print(&err);
    }
    store_t *s;
    int status = open_or_fail(c, &s);
    if (status)
        return status;
    stored_plan_t *p = NULL;
    int rc = load_plans(c, s, 0, c->n_pos, what == EXPORT_EVENTS, &p, &err);
    /* a picture or a layout is one file a plan, as the TUI's e writes them */
    bool per_plan = (svg || what == EXPORT_LAYOUT) && c->n_pos > 1;
    for (int i = 0; !rc && i < (per_plan ? c->n_pos : 1); i++) {
        char path[4096];
        if (per_plan)
            export_plan_path(c->output, p[i].id, path, sizeof path);
        else
            snprintf(path, sizeof path, "%s", c->output);
        svg_stats_t st;
        if (svg)
            rc = svg_write_plan(s, &p[i], path, &st, &err);
        else
            rc = export_plans_raw(s, &p[i], per_plan ? 1 : c->n_pos, (export_what_t)what, path, c->raw, &err);
        if (!rc && svg)
            printf("wrote %s (%s as %s)\n", text_shown(path), text_count(st.drawn, "buffer", NULL),
                   text_count(st.rects, "rectangle", NULL));
        else if (!rc)
            printf("wrote %s\n", text_shown(path));
    }
    for (int i = 0; p && i < c->n_pos; i++)
        stored_plan_free(&p[i]);
    free(p);
    status = rc ? fail_print(&err) : 0;
    store_close(s);
    return status;
}

int cmd_delete(const cmdline_t *c)
{
    store_t *s;
    int status = open_or_fail(c, &s);
    if (status)
        return status;
    rs_error_t err;
    int rc = store_begin(s, &err);
    for (int i = 0; i < c->n_pos && !rc; i++) {
        int64_t id;
        rc = parse_plan_id(c->pos[i], &id, &err);
        if (!rc)
            rc = plans_delete(s, id, &err);
    }
    if (!rc)
        rc = store_commit(s, &err);
    else
        store_rollback(s);
    if (!rc)
        printf("deleted %d plan%s\n", c->n_pos, c->n_pos == 1 ? "" : "s");
    status = rc ? fail_print(&err) : 0;
    store_close(s);
    return status;
}
