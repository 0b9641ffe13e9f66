/* Plans: the stored plans, sortable by column and filterable; mark two to
 * see on one arena (or diff); export the marked (or selected) ones to CSV; delete with
 * confirmation; Enter opens one in the fit stepper, replayed from its
 * stored events. */
#include "tui/screen_plans.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "model/units.h"
#include "rebuild.h"
#include "text.h"
#include "tui/tui_answer.h"
#include "tui/tui_arena.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_model.h"
#include "tui/tui_pair.h"
#include "tui/tui_plans_export.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"
#include "util/checked.h"
#include "util/strbuf.h"

#define TABLE_Y 4
enum { COL_ID, COL_LABEL, COL_ROUTINE, COL_BUDGET, COL_FINAL, COL_FLIPS, COL_WITHIN, COL_CREATED, N_COLS };
static const char *COL_NAMES[N_COLS] = { "id", "label", "routine", "budget", "final", "flips", "within", "created" };

static tui_t *sort_t; /* qsort has no context argument */

static int cmp_plans(const void *pa, const void *pb)
{
    const stored_plan_t *a = &sort_t->plans[*(const int *)pa], *b = &sort_t->plans[*(const int *)pb];
    int r = 0;
    switch (sort_t->sort_col) {
    case COL_LABEL: r = strcmp(a->label, b->label); break;
    case COL_ROUTINE: r = strcmp(a->routine, b->routine); break;
    case COL_BUDGET: r = (a->budget_bytes > b->budget_bytes) - (a->budget_bytes < b->budget_bytes); break;
    case COL_FINAL: r = (a->final.total > b->final.total) - (a->final.total < b->final.total); break;
    case COL_FLIPS: r = (a->n_flips > b->n_flips) - (a->n_flips < b->n_flips); break;
    case COL_WITHIN: r = (int)a->within_budget - (int)b->within_budget; break;
    case COL_CREATED: r = strcmp(a->created_at, b->created_at); break;
    default: break;
    }
    if (!r)
        r = (a->id > b->id) - (a->id < b->id);
    return sort_t->sort_rev ? -r : r;
}

/* The visible rows: filtered by the search text, sorted. */
static void order(tui_t *t)
{
    t->n_order = 0;
    for (int i = 0; i < t->n_plans; i++) {
        const stored_plan_t *p = &t->plans[i];
        const char *q = t->search[SCR_PLANS];
        if (q[0] && !strstr(p->label, q) && !strstr(p->routine, q))
            continue;
        t->order[t->n_order++] = i;
    }
    sort_t = t;
    qsort(t->order, (size_t)t->n_order, sizeof *t->order, cmp_plans);
    for (int k = 0; t->plan_focus && k < t->n_order; k++)
        if (t->plans[t->order[k]].id == t->plan_focus)
            t->plan_sel = k;
    t->plan_focus = 0;
    if (t->plan_sel >= t->n_order)
        t->plan_sel = t->n_order ? t->n_order - 1 : 0;
}


/* The alignment plan p's buffers were aligned to (its stored config). */
static int64_t plan_alignment(const stored_plan_t *p)
{
    score_config_t cfg;
    rs_error_t err;
    return rebuild_config_parse(p->config, &cfg, &err) ? 0 : cfg.alignment;
}

enum { PLAN_FIELDS = 7 };

/* The selected plan's routine file and context as fields: what makes two
 * baselines differ, and two routines of one name apart. */
static int plan_fields(const tui_t *t, const stored_plan_t *p, char f[PLAN_FIELDS][600],
                       const char *fields[PLAN_FIELDS])
{
    char path[512];
    const char *file = p->routine_path[0] ? p->routine_path : "(file not recorded)";
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    snprintf(f[0], sizeof f[0], "plan %lld: %s v%d from %s", (long long)p->id, text_shown(p->routine),
             (int)p->routine_version, text_escape(tui_cols(file) + 40 < t->cols ? file : base, path, sizeof path));
    snprintf(f[1], sizeof f[1], "profile %s", p->profile[0] ? text_shown(p->profile) : "none");
    snprintf(f[2], sizeof f[2], "alignment %lld", (long long)plan_alignment(p));
    snprintf(f[3], sizeof f[3], "bindings %s", p->bindings[0] ? text_shown(p->bindings) : "(none)");
    if (p->cap < 0 || p->cap == INT32_MAX)
        snprintf(f[4], sizeof f[4], "cap all"); /* -1 (minimize) considers every candidate too */
    else
        snprintf(f[4], sizeof f[4], "cap %d", (int)p->cap);
    snprintf(f[5], sizeof f[5], "saved %s", p->created_at);
    int n = 6;
    if (p->frontier.present) { /* DESIGN §14: the frontier plan saved beside it */
        char b[32], c[40];
        units_format_bytes(p->frontier.final.total, b, sizeof b);
        snprintf(f[n++], sizeof f[0], "frontier plan %s, %s over the baseline, %s", b,
                 text_signed_flops(p->frontier.final.compute - p->baseline.compute, c, sizeof c),
                 text_count(p->frontier.n_flips, "flip", NULL));
    }
    for (int k = 0; k < n; k++)
        fields[k] = f[k];
    return n;
}

/* Rows under the table for the selected plan's fields (tui_detail_rows). */
static int detail_rows(const tui_t *t)
{
    if (!t->n_order)
        return 2;
    char f[PLAN_FIELDS][600];
    const char *fields[PLAN_FIELDS];
    return tui_detail_rows(fields, plan_fields(t, &t->plans[t->order[t->plan_sel]], f, fields), t->cols - 2, 2, ", ");
}

static int rows(const tui_t *t) { return t->rows - TABLE_Y - 3 - detail_rows(t); }

/* The label's and the routine's columns in avail: each as wide as its
 * widest entry when both fit (a routine cut beside labels of one letter
 * read as missing room), else the label gives way first. */
static void name_widths(const tui_t *t, int avail, int *lw, int *rw)
{
    int wl = 5, wr = 7; /* "label", "routine" */
    for (int k = 0; k < t->n_order; k++) {
        const stored_plan_t *p = &t->plans[t->order[k]];
        char label[64], rname[64];
        int l = tui_cols(text_escape(p->label, label, sizeof label));
        snprintf(rname, sizeof rname, "%s v%d", text_shown(p->routine), (int)p->routine_version); /* as drawn */
        int r = tui_cols(rname);
        wl = l > wl ? l : wl;
        wr = r > wr ? r : wr;
    }
    if (wl + wr <= avail) {
        *lw = wl;
        *rw = avail - wl;
        if (*rw > 28) /* wider than needed: the columns after it stay near */
            *rw = wr > 28 ? wr : 28;
        return;
    }
    *lw = avail * 2 / 5 < 6 ? 6 : avail * 2 / 5 > wl ? wl : avail * 2 / 5;
    *rw = avail - *lw < 8 ? 8 : avail - *lw;
    if (*rw > wr) { /* the routines leave room: the labels take it */
        *rw = wr;
        *lw = avail - wr;
    }
}

void screen_plans_draw(tui_t *t)
{
    if (tui_pair_shown(t, SCR_PLANS)) {
        tui_pair_draw(t);
        return;
    }
    if (!t->order)
        return;
    order(t);
    int marked = 0;
    for (int i = 0; i < t->n_plans; i++)
        marked += t->marked[i];
    char head[2][480];
    int hn = snprintf(head[0], 360, "%s%s%s%s, %d marked; sorted by %s%s", text_count(t->n_order, "plan", NULL),
                      t->search[SCR_PLANS][0] ? " matching '" : "", t->search[SCR_PLANS],
                      t->search[SCR_PLANS][0] ? "'" : "", marked, COL_NAMES[t->sort_col],
                      t->sort_rev ? " (reversed)" : "");
    hn = hn < 360 ? hn : 359;
    snprintf(head[1], sizeof head[1], "%.360s   (? keys)", head[0]);
    snprintf(head[0] + hn, sizeof head[0] - (size_t)hn, "   (s sort, / filter, Space mark, D one arena, e export, x delete)");
    tui_put_fit(t, 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD, (const char *const[]){ head[0], head[1] }, 2);
    bool created = t->cols >= 120; /* narrower, the date goes under the table, never cut */
    /* the budget column is as wide as its widest entry ("60% = 62.4 MiB"),
     * 10 to 20; label and routine give way, so final, flips and within
     * show at 80 columns */
    int bw = 10;
    for (int k = 0; k < t->n_order; k++) {
        char bud[64];
        int l = (int)strlen(plans_budget_text(&t->plans[t->order[k]], bud, sizeof bud));
        bw = l > bw ? (l > 20 ? 20 : l) : bw;
    }
    bool rec_col = t->cols >= 100; /* at 80 columns label and routine keep the room */
    int avail = t->cols - 2 - 46 - (rec_col ? 8 : 0) - (bw - 10) - (t->cols >= 120 ? 21 : 0);
    int lw, rw;
    name_widths(t, avail, &lw, &rw);
    /* recompute: what the flips added, final.compute - baseline.compute,
     * which is the exact sum of their recompute (DESIGN §13) */
    tui_putf(t, TABLE_Y - 1, 1, t->cols - 2, t->attr[T_DIM], "  %5s  %-*s %-*s %-*s %9s %5s%s %6s  %s", "id", lw,
             "label", rw, "routine", bw, "budget", "final", "flips", rec_col ? " recomp." : "", "within",
             created ? "created" : "");
    int n = rows(t);
    if (t->plan_sel < t->plan_top)
        t->plan_top = t->plan_sel;
    if (n > 0 && t->plan_sel >= t->plan_top + n)
        t->plan_top = t->plan_sel - n + 1;
    for (int k = 0; k < n && t->plan_top + k < t->n_order; k++) {
        int i = t->order[t->plan_top + k];
        const stored_plan_t *p = &t->plans[i];
        char bud[64], fin[32], label[64], rname[64], lc[96], rc[96];
        plans_budget_text(p, bud, sizeof bud);
        if ((int)strlen(bud) > bw) /* "60% = 62.4 MiB" wider than the column: its bytes, never cut */
            units_format_budget(NULL, strcmp(p->budget_kind, "minimize") == 0, p->budget_bytes, bud, sizeof bud);
        units_format_bytes(p->final.total, fin, sizeof fin);
        text_escape(p->label, label, sizeof label);
        snprintf(rname, sizeof rname, "%s v%d", text_shown(p->routine), (int)p->routine_version); /* clipped as drawn */
        unsigned a = t->plan_top + k == t->plan_sel ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        char rec[32], f[32] = "";
        if (rec_col)
            snprintf(rec, sizeof rec, " %7s", tui_flops_short(sat_sub(p->final.compute, p->baseline.compute), true, f, sizeof f));
        else
            rec[0] = 0;
        tui_putf(t, TABLE_Y + k, 1, t->cols - 2, a, "%s %5lld  %s %s %-*s %9s %5d%s %6s  %s",
                 t->marked[i] ? tui_glyph(t, "●", "*") : " ", (long long)p->id, tui_clip(t, label, lw, lc, sizeof lc),
                 tui_clip(t, rname, rw, rc, sizeof rc), bw, bud,
                 fin, (int)p->n_flips, rec, p->within_budget ? "yes" : "no", created ? p->created_at : "");
    }
    if (!t->n_plans)
        tui_put(t, TABLE_Y, 3, t->cols - 4, t->attr[T_DIM], "(no plans: run a fit and press S to save it)");
    /* the selected plan's routine file and context: what makes two
     * baselines differ, and two routines of one name apart */
    const stored_plan_t *p = t->n_order ? &t->plans[t->order[t->plan_sel]] : NULL;
    if (p) {
        char f[PLAN_FIELDS][600];
        const char *fields[PLAN_FIELDS];
        int details = detail_rows(t);
        tui_put_fields(t, t->rows - 2 - details, 1, t->cols - 2, details, 2, t->attr[T_DIM], fields,
                       plan_fields(t, p, f, fields), ", ");
    }
}

static const stored_plan_t *selected(const tui_t *t)
{
    return t->n_order ? &t->plans[t->order[t->plan_sel]] : NULL;
}

/* The plans to act on: the marked ones, else the selected one. */
static int chosen(const tui_t *t, const stored_plan_t **out, int max)
{
    int n = 0;
    for (int k = 0; k < t->n_order && n < max; k++)
        if (t->marked[t->order[k]])
            out[n++] = &t->plans[t->order[k]];
    if (!n && selected(t))
        out[n++] = selected(t);
    return n;
}

/* "only in plan 3: a b c" with every flip plan k has and the other lacks
 * (the overlay wraps it), "none" when there is none; a new string. */
static char *only_in(const stored_plan_t *full, int k)
{
    strbuf_t b;
    strbuf_init(&b);
    int shown = 0;
    for (int32_t i = 0; i < full[k].n_flips; i++) {
        bool other = false;
        for (int32_t j = 0; j < full[1 - k].n_flips && !other; j++)
            other = strcmp(full[k].flips[i].node, full[1 - k].flips[j].node) == 0;
        if (!other)
            strbuf_printf(&b, " %s", text_shown(full[k].flips[i].node)), shown++;
    }
    if (!shown)
        strbuf_printf(&b, " none");
    /* the count first, where the overlay shows it without scrolling */
    char lead[64];
    snprintf(lead, sizeof lead, shown > 8 ? "only in plan %lld (%d flips):" : "only in plan %lld:", (long long)full[k].id,
             shown);
    strbuf_t whole;
    strbuf_init(&whole);
    strbuf_printf(&whole, "%s%s", lead, b.s ? b.s : "");
    whole.oom |= b.oom;
    strbuf_free(&b);
    b = whole;
    if (b.oom) {
        strbuf_free(&b);
        return strdup("only in: (out of memory)");
    }
    return b.s;
}

/* The text diff of two loaded plans, a line each into lines (up to 20,
 * strdup'ed); returns the count.  The rows that make two baselines differ
 * (routine, bindings, profile, alignment, layout) come first. */
static int diff_text(const stored_plan_t *full, char **lines)
{
    int m = 0;
    char buf[1024], a[64], b[64];
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "", (snprintf(a, sizeof a, "plan %lld", (long long)full[0].id), a),
             (snprintf(b, sizeof b, "plan %lld", (long long)full[1].id), b));
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "routine", text_shown(full[0].routine), text_shown(full[1].routine));
    lines[m++] = strdup(buf);
    /* what makes two baselines differ: a row each where the plans differ,
     * one line for what they share */
    score_config_t cfg[2];
    rs_error_t err;
    for (int k = 0; k < 2; k++)
        if (rebuild_config_parse(full[k].config, &cfg[k], &err))
            score_config_default(&cfg[k]);
    char ctx[4][2][160];
    static const char *const what[4] = { "bindings", "profile", "alignment", "layout" };
    for (int k = 0; k < 2; k++) {
        snprintf(ctx[0][k], sizeof ctx[0][k], "%s", full[k].bindings[0] ? text_shown(full[k].bindings) : "(none)");
        snprintf(ctx[1][k], sizeof ctx[1][k], "%s", full[k].profile[0] ? text_shown(full[k].profile) : "none");
        snprintf(ctx[2][k], sizeof ctx[2][k], "%lld", (long long)cfg[k].alignment);
        snprintf(ctx[3][k], sizeof ctx[3][k], "%s", layout_strategy_name(cfg[k].layout));
    }
    char alike[700] = "";
    size_t aw = 0;
    for (int r = 0; r < 4; r++) {
        if (strcmp(ctx[r][0], ctx[r][1]) != 0) {
            snprintf(buf, sizeof buf, "%-16s %26.150s %26.150s", what[r], ctx[r][0], ctx[r][1]);
            lines[m++] = strdup(buf);
        } else if (aw < sizeof alike) {
            aw += (size_t)snprintf(alike + aw, sizeof alike - aw, "%s%s %s", aw ? ", " : "", what[r], ctx[r][0]);
        }
    }
    if (alike[0]) {
        snprintf(buf, sizeof buf, "%-16s %s", "both", alike);
        lines[m++] = strdup(buf);
    }
    for (int k = 0; k < 2; k++)
        plans_budget_text(&full[k], k ? b : a, 64);
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "budget", a, b);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26lld %26lld", "baseline B", (long long)full[0].baseline.total,
             (long long)full[1].baseline.total);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26lld %26lld", "final B", (long long)full[0].final.total,
             (long long)full[1].final.total);
    lines[m++] = strdup(buf);
    char rec[2][192];
    for (int k = 0; k < 2; k++)
        text_recompute(tui_answer_stored_recompute(&full[k]), full[k].baseline.compute, full[k].flops_per_s, full[k].profile,
                       rec[k], sizeof rec[k]);
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "recompute", rec[0], rec[1]);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26d %26d", "flips", (int)full[0].n_flips, (int)full[1].n_flips);
    lines[m++] = strdup(buf);
    snprintf(buf, sizeof buf, "%-16s %26s %26s", "within budget", full[0].within_budget ? "yes" : "no",
             full[1].within_budget ? "yes" : "no");
    lines[m++] = strdup(buf);
    lines[m++] = strdup("");
    for (int k = 0; k < 2; k++)
        lines[m++] = only_in(full, k);
    return m;
}

/* D: two plans of one routine (and bindings) on one arena, the second
 * against the first; of two routines, the text diff, saying so. */
static void diff(tui_t *t)
{
    const stored_plan_t *pick[2];
    int n = 0;
    for (int k = 0; k < t->n_order && n < 2; k++)
        if (t->marked[t->order[k]])
            pick[n++] = &t->plans[t->order[k]];
    if (n == 1 && selected(t) && selected(t) != pick[0])
        pick[n++] = selected(t);
    if (n < 2) {
        tui_status(t, true, "mark two plans with Space (or one, and select the other)");
        return;
    }
    stored_plan_t full[2];
    rs_error_t err;
    if (plans_load(t->store, pick[0]->id, false, &full[0], &err)) {
        tui_error(t, NULL, &err);
        return;
    }
    if (plans_load(t->store, pick[1]->id, false, &full[1], &err)) {
        stored_plan_free(&full[0]);
        tui_error(t, NULL, &err);
        return;
    }
    char *lines[20];
    int m = diff_text(full, lines);
    bool same_routine = full[0].routine_id == full[1].routine_id || strcmp(full[0].routine, full[1].routine) == 0;
    bool same_binds = strcmp(full[0].bindings, full[1].bindings) == 0;
    int64_t al[2] = { plan_alignment(&full[0]), plan_alignment(&full[1]) };
    if (!same_routine || !same_binds || al[0] != al[1]) {
        char why[128];
        if (!same_routine)
            snprintf(why, sizeof why, "are of two routines");
        else if (!same_binds)
            snprintf(why, sizeof why, "bind one routine's sizes differently");
        else
            snprintf(why, sizeof why, "are aligned to %lld and %lld B", (long long)al[0], (long long)al[1]);
        tui_overlay(t, "Diff", lines, m);
        /* one row: the overlay leaves no other */
        tui_status(t, false, "plans %lld and %lld %s: no shared arena, a text diff", (long long)full[0].id,
                   (long long)full[1].id, why);
    } else {
        tui_pair_stored(t, full, lines, m);
    }
    for (int i = 0; i < m; i++)
        free(lines[i]);
    stored_plan_free(&full[0]);
    stored_plan_free(&full[1]);
}

/* e: the marked plans, else the selected one. */
static void export_chosen(tui_t *t)
{
    const stored_plan_t **pick = malloc(((size_t)t->n_order + 1) * sizeof *pick);
    int n = pick ? chosen(t, pick, t->n_order + 1) : 0;
    if (n)
        tui_plans_export(t, pick, n);
    free(pick);
}

/* Whether the re-run chose the flips p recorded, node by node and relief by
 * relief (a total alone can match with other flips); *why says the first
 * difference. */
static bool same_flips(tui_t *t, const stored_plan_t *p, char *why, size_t n)
{
    stored_plan_t full;
    rs_error_t err;
    if (plans_load(t->store, p->id, false, &full, &err)) {
        snprintf(why, n, "%.200s", err.msg);
        return false;
    }
    bool same = full.n_flips == t->plan->n_flips;
    if (!same)
        snprintf(why, n, "%s, not the %d it recorded", text_count(t->plan->n_flips, "flip", NULL), (int)full.n_flips);
    for (int32_t i = 0; same && i < full.n_flips; i++) {
        const char *node = t->tgt.routine->nodes[t->plan->flips[i].node].name;
        same = strcmp(node, full.flips[i].node) == 0 && t->plan->flips[i].relief == full.flips[i].relief;
        if (!same)
            snprintf(why, n, "flip %d is %s (relief %lld B), not the recorded %s (%lld B)", (int)i + 1, node,
                     (long long)t->plan->flips[i].relief, text_shown(full.flips[i].node),
                     (long long)full.flips[i].relief);
    }
    stored_plan_free(&full);
    return same;
}

/* Whether the routine open is the version plan p was fitted on. */
static bool open_is_plans(const tui_t *t, const stored_plan_t *p)
{
    for (int i = 0; i < t->n_routines; i++)
        if (strcmp(t->routines[i].name, p->routine) == 0)
            return t->routines[i].id == p->routine_id;
    return false;
}

/* Fits stored plan p again under budget (its trace does not replay):
 * fit is deterministic, so this is the same plan; the status says
 * whether it is, after why. */
static void refit_plan(tui_t *t, const stored_plan_t *p, const char *budget, const char *because)
{
    t->fit_cap = p->cap;
    if (!tui_run_fit(t, budget))
        return;
    t->screen = SCR_FIT;
    t->plan_saved = true; /* it is plan p */
    char why[256];
    if (t->plan->final.total != p->final.total)
        tui_status(t, true, "re-run of plan %lld (%s) gives %lld B, not the %lld B it recorded", (long long)p->id,
                   because, (long long)t->plan->final.total, (long long)p->final.total);
    else if (!same_flips(t, p, why, sizeof why))
        tui_status(t, true, "re-run of plan %lld (%s): %s", (long long)p->id, because, why);
    else
        tui_status(t, false, "plan %lld fitted again (%s): the same %s", (long long)p->id, because,
                   text_count(t->plan->n_flips, "flip", NULL));
}

/* After opening plan p: what of the session it changed, said after the
 * status (the profile chosen on Session went back to "none" unsaid). */
static void say_session_changed(tui_t *t, int old_profile)
{
    if (t->profile == old_profile || t->status_error)
        return;
    char more[200];
    snprintf(more, sizeof more, "; profile %s, the plan's (was %s)",
             t->profile >= 0 ? text_shown(t->profiles[t->profile].name) : "none",
             old_profile >= 0 ? text_shown(t->profiles[old_profile].name) : "none");
    tui_status_append(t, more);
}

/* Opens a stored plan in the fit stepper: its routine, bindings, profile,
 * config and preferences, then the plan replayed from its stored events
 * (no fit); only a plan of another version of the routine, or one whose
 * trace does not replay, is fitted again. */
static void open_plan(tui_t *t)
{
    const stored_plan_t *p = selected(t);
    if (!p)
        return;
    char what[48];
    snprintf(what, sizeof what, "opening plan %lld", (long long)p->id);
    if (!tui_fit_may_replace(t, what, NULL))
        return;
    if (strlen(p->bindings) >= sizeof t->binds) {
        tui_status(t, true, "plan %lld's bindings are %zu characters; the TUI holds %zu", (long long)p->id,
                   strlen(p->bindings), sizeof t->binds - 1);
        return;
    }
    /* a routine that does not open leaves its bindings and the session's
     * profile as they were, so other plans and routines still open */
    char old_binds[sizeof t->binds];
    int old_profile = t->profile;
    snprintf(old_binds, sizeof old_binds, "%s", tui_binds_of(t, p->routine));
    if (!tui_binds_set(t, p->routine, p->bindings)) /* the plan's routine's, no other's */
        return;
    t->profile = -1;
    for (int i = 0; i < t->n_profiles; i++)
        if (strcmp(t->profiles[i].name, p->profile) == 0)
            t->profile = i;
    /* laid out under the plan's config and preferences in the open's own
     * wait: no second scoring on the UI thread */
    if (!tui_open_routine_as(t, p->routine, p->config, p->prefs)) {
        tui_binds_set(t, p->routine, old_binds);
        t->profile = old_profile;
        return;
    }
    /* as it was asked for ("60%" of the same baseline is the same bytes), else its bytes */
    char budget[48];
    if (strcmp(p->budget_kind, "minimize") == 0)
        snprintf(budget, sizeof budget, "minimize");
    else if (p->budget_spec[0])
        snprintf(budget, sizeof budget, "%s", p->budget_spec);
    else
        snprintf(budget, sizeof budget, "%lld", (long long)p->budget_bytes);
    if (!open_is_plans(t, p))
        refit_plan(t, p, budget, "a newer version of its routine is open");
    else {
        int rc = tui_replay_plan(t, p->id, budget);
        if (rc == RS_OK) {
            t->screen = SCR_FIT;
            t->plan_saved = true; /* it is plan p */
        } else if (rc == RS_EINPUT) {
            refit_plan(t, p, budget, "its stored trace does not replay");
        }
    }
    say_session_changed(t, old_profile);
}

int screen_plans_key(tui_t *t, action_t a, int key)
{
    (void)key;
    if (tui_pair_shown(t, SCR_PLANS))
        return tui_pair_key(t, a);
    int page = rows(t) > 1 ? rows(t) - 1 : 1;
    switch (a) {
    case ACT_UP: t->plan_sel -= t->plan_sel > 0; return KEY_REDRAW;
    case ACT_DOWN: t->plan_sel += t->plan_sel + 1 < t->n_order; return KEY_REDRAW;
    case ACT_PGUP: t->plan_sel = t->plan_sel > page ? t->plan_sel - page : 0; return KEY_REDRAW;
    case ACT_PGDN: t->plan_sel = t->plan_sel + page < t->n_order ? t->plan_sel + page : (t->n_order ? t->n_order - 1 : 0); return KEY_REDRAW;
    case ACT_TOP: t->plan_sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->plan_sel = t->n_order ? t->n_order - 1 : 0; return KEY_REDRAW;
    case ACT_SORT: t->sort_col = (t->sort_col + 1) % N_COLS; return KEY_REDRAW;
    case ACT_SORT_REVERSE: t->sort_rev = !t->sort_rev; return KEY_REDRAW;
    case ACT_MARK:
        if (t->n_order) {
            t->marked[t->order[t->plan_sel]] = !t->marked[t->order[t->plan_sel]];
            t->plan_sel += t->plan_sel + 1 < t->n_order;
        }
        return KEY_REDRAW;
    case ACT_SEARCH: {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", t->search[SCR_PLANS]);
        if (tui_prompt(t, "filter (label or routine; empty clears): ", buf, sizeof buf, false))
            snprintf(t->search[SCR_PLANS], sizeof t->search[SCR_PLANS], "%s", buf);
        return KEY_REDRAW;
    }
    case ACT_DIFF: diff(t); return KEY_REDRAW;
    case ACT_EXPORT: export_chosen(t); return KEY_REDRAW;
    case ACT_DELETE: {
        const stored_plan_t *p = selected(t);
        if (!p)
            return KEY_REDRAW;
        char q[320], bud[64];
        plans_budget_text(p, bud, sizeof bud);
        const char *label = p->label ? p->label : "";
        snprintf(q, sizeof q, "delete plan %lld%s%.64s%s (%.64s, budget %s)?", (long long)p->id,
                 label[0] ? " \"" : "", label, label[0] ? "\"" : "", p->routine, bud);
        int64_t id = p->id;
        if (tui_confirm(t, q)) {
            rs_error_t err;
            int rc = store_begin(t->store, &err);
            if (!rc)
                rc = plans_delete(t->store, id, &err);
            if (!rc)
                rc = store_commit(t->store, &err);
            else
                store_rollback(t->store);
            if (rc)
                tui_error(t, NULL, &err);
            else
                tui_status(t, false, "deleted plan %lld", (long long)id);
            tui_reload(t);
        }
        return KEY_REDRAW;
    }
    case ACT_OPEN: open_plan(t); return KEY_REDRAW;
    default: return KEY_UNHANDLED;
    }
}

int screen_plans_click(tui_t *t, int y, int x)
{
    (void)x;
    if (tui_pair_shown(t, SCR_PLANS))
        return KEY_HANDLED;
    int row = y - TABLE_Y;
    if (row >= 0 && row < rows(t) && t->plan_top + row < t->n_order)
        t->plan_sel = t->plan_top + row;
    return KEY_REDRAW;
}
