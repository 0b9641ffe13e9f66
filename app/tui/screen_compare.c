/* Compare budgets: a row per budget, those not fitted yet fitted as one
 * search (one reuse cell; rows fitted before on what is open stay); final footprint, flips, recompute and its estimated time, within
 * budget; a footprint-vs-recompute chart; the flips that change between a
 * budget and the one above it (or the marked one), and D: the two on one
 * arena. */
#include "tui/screen_compare.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "model/units.h"
#include "plan/answer.h"
#include "text.h"
#include "tui/tui_answer.h"
#include "tui/tui_arena.h"
#include "tui/tui_compare_chart.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_model.h"
#include "tui/tui_pair.h"
#include "tui/tui_policy.h"
#include "tui/tui_rows.h"
#include "tui/tui_sweep.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"
#include "util/strbuf.h"

#define TABLE_Y 3

static double overhead(const fit_plan_t *p) { return tui_overhead(p, p->final.compute); }

static double best_overhead(const fit_plan_t *p, const best_plan_t *b) { return tui_overhead(p, b->final.compute); }

/* A row's budget as typed, with the bytes it came to once it is fitted
 * ("99% = 251 MiB", "8GB = 7.45 GiB", as Plans says it; "99%" alone hid
 * them). */
static const char *row_budget(const compare_row_t *r, bool wide, char *buf, size_t n)
{
    if (r->plan)
        units_format_budget(r->budget, r->plan->minimize, r->plan->budget, buf, n);
    if (!r->plan || !strstr(buf, " = ")) { /* "20B" as typed where its bytes say no more */
        snprintf(buf, n, "%s", r->budget);
        return buf;
    }
    if (wide)
        return buf;
    /* narrow, the room is within's: "2.5GB=2.33G" in the 11 columns a
     * budget has (a typed 2.5GB beside a final of 2.46 GiB read as met) */
    char b[32], shortb[32];
    units_format_bytes(r->plan->budget, b, sizeof b);
    size_t k = 0;
    for (const char *c = b; *c && k + 1 < sizeof shortb; c++)
        if (*c != ' ' && *c != 'i' && *c != 'B')
            shortb[k++] = *c;
    shortb[k] = 0;
    if (strlen(r->budget) + 1 + strlen(shortb) <= 12)
        snprintf(buf, n, "%s=%s", r->budget, shortb);
    else
        snprintf(buf, n, "%s", r->budget);
    return buf;
}

/* The table row of budget i (a best row follows each when shown). */
static int row_of(const tui_t *t, int i) { return TABLE_Y + 1 + i * (t->cmp_show_best ? 2 : 1); }

#define EST_W 10 /* the est. time column */

/* A time with its unit, right-aligned in EST_W columns (not bytes: "µs"
 * is one column of two bytes, and printf's width counted bytes, pulling
 * the cap column after it out of line at 80 columns): "   +12 ns",
 * "  +3.4 µs", "  +3.69 ms", "  +2.50 min" (units_format_seconds: never
 * "+1.23e+03 s"). */
static void format_seconds(const tui_t *t, double s, char *buf, size_t n)
{
    char u[32], v[40];
    units_format_seconds(s < 0 ? -s : s, u, sizeof u);
    size_t l = strlen(u);
    if (l > 3 && strcmp(u + l - 3, " us") == 0)
        snprintf(u + l - 2, sizeof u - (l - 2), "%s", tui_glyph(t, "µs", "us"));
    snprintf(v, sizeof v, "%s%s", s < 0 ? "-" : "+", u);
    int pad = EST_W - tui_cols(v);
    snprintf(buf, n, "%*s%s", pad > 0 ? pad : 0, "", v);
}

static bool has_flip(const fit_plan_t *p, int32_t node)
{
    for (int32_t k = 0; p && k < p->n_flips; k++)
        if (p->flips[k].node == node)
            return true;
    return false;
}

/* "its biggest group 1961 flips for 21.1 MiB" when p committed a group
 * of more than three (members and the flip that closed it): what makes a
 * budget jump from 7 flips to 3,878; "" otherwise. */
static void biggest_group(const fit_plan_t *p, char *buf, size_t n)
{
    buf[0] = 0;
    int32_t *closer = malloc(((size_t)p->n_flips + 1) * sizeof *closer);
    int32_t *size = calloc((size_t)p->n_flips + 1, sizeof *size);
    if (closer && size && answer_groups(p->flips, p->n_flips, closer) > 0) {
        int32_t best = -1;
        for (int32_t i = 0; i < p->n_flips; i++)
            if (closer[i] >= 0 && ++size[closer[i]] > (best < 0 ? 0 : size[best]))
                best = closer[i];
        if (best >= 0 && size[best] > 3) {
            char rel[32];
            units_format_bytes(p->flips[best].relief, rel, sizeof rel);
            snprintf(buf, n, "its biggest group %d flips for %s", (int)size[best], rel);
        }
    }
    free(closer);
    free(size);
}

/* The row the selected one is compared with: the marked row, else the
 * nearest row above that was fitted (a row fails when the profile its
 * budget needs is gone); -1 for the baseline.  *marked: it is the marked. */
static int other_row(const tui_t *t, bool *marked)
{
    int above = t->cmp_sel - 1;
    while (above >= 0 && !t->cmp_rows[above].plan)
        above--;
    *marked = t->cmp_mark >= 0 && t->cmp_mark < t->n_cmp_rows && t->cmp_mark != t->cmp_sel &&
              t->cmp_rows[t->cmp_mark].plan;
    return *marked ? t->cmp_mark : above;
}

/* Row i as one side of the two-plan arena: its final arena scored on the
 * open routine (the routine's preferences plus its flips). */
static bool pair_side(tui_t *t, int i, tui_pair_plan_t *side, const char **names, int64_t *relief)
{
    const fit_plan_t *p = t->cmp_rows[i].plan;
    memset(side, 0, sizeof *side);
    uint8_t *prefs = malloc((size_t)t->tgt.routine->n_nodes + 1);
    if (!prefs) {
        tui_status(t, true, "out of memory");
        return false;
    }
    memcpy(prefs, t->tgt.prefs, (size_t)t->tgt.routine->n_nodes);
    for (int32_t k = 0; k < p->n_flips; k++) {
        prefs[p->flips[k].node] = 1;
        names[k] = t->tgt.routine->nodes[p->flips[k].node].name;
        relief[k] = p->flips[k].relief;
    }
    score_detail_t det;
    memset(&det, 0, sizeof det);
    bool ok = tui_score(t, prefs, &det, &side->arena);
    score_detail_free(&det);
    free(prefs);
    if (ok && side->arena.fp.total != p->final.total)
        tui_status(t, true, "row %d scores to %lld B, not the %lld B its fit found", i + 1,
                   (long long)side->arena.fp.total, (long long)p->final.total);
    snprintf(side->name, sizeof side->name, "row %d (%s)", i + 1, t->cmp_rows[i].budget);
    snprintf(side->budget, sizeof side->budget, "%s", t->cmp_rows[i].budget);
    side->routine = t->tgt.routine;
    side->flip = names;
    side->relief = relief;
    side->n_flips = p->n_flips;
    return ok;
}

/* D: the other row (marked, or the one above) and the selected row on one
 * arena; D there shows the text the diff line says. */
static void pair(tui_t *t)
{
    bool marked;
    int other = t->n_cmp_rows && t->cmp_rows[t->cmp_sel].plan ? other_row(t, &marked) : -1;
    if (other < 0) {
        tui_status(t, true, "mark a row with Space and select another (or select a row under a fitted one)");
        return;
    }
    const fit_plan_t *p[2] = { t->cmp_rows[other].plan, t->cmp_rows[t->cmp_sel].plan };
    const char **names = calloc((size_t)p[0]->n_flips + (size_t)p[1]->n_flips + 1, sizeof *names);
    int64_t *relief = calloc((size_t)p[0]->n_flips + (size_t)p[1]->n_flips + 1, sizeof *relief);
    tui_pair_plan_t side[2];
    memset(side, 0, sizeof side);
    if (names && relief && pair_side(t, other, &side[0], names, relief) &&
        pair_side(t, t->cmp_sel, &side[1], names + p[0]->n_flips, relief + p[0]->n_flips)) {
        char *lines[8], buf[2][1024];
        int m = 0;
        for (int k = 0; k < 2; k++) {
            int i = k ? t->cmp_sel : other;
            snprintf(buf[k], sizeof buf[k], "row %d (%s): final %lld B, %s, recompute %+.3f%%, within budget %s",
                     i + 1, t->cmp_rows[i].budget, (long long)p[k]->final.total, text_count(p[k]->n_flips, "flip", NULL),
                     overhead(p[k]),
                     p[k]->within_budget ? "yes" : "no");
            lines[m++] = buf[k];
        }
        /* the flips each row has and the other lacks, every one, as the
         * Plans diff says them (the overlay wraps the line) */
        strbuf_t only[2];
        for (int k = 0; k < 2; k++) {
            strbuf_init(&only[k]);
            int shown = 0;
            for (int32_t f = 0; f < p[k]->n_flips; f++)
                shown += !has_flip(p[1 - k], p[k]->flips[f].node);
            /* the count first, where the overlay shows it without scrolling */
            strbuf_printf(&only[k], shown > 8 ? "only in row %d (%d flips):" : "only in row %d:",
                          (k ? t->cmp_sel : other) + 1, shown);
            for (int32_t f = 0; f < p[k]->n_flips; f++)
                if (!has_flip(p[1 - k], p[k]->flips[f].node))
                    strbuf_printf(&only[k], " %s", t->tgt.routine->nodes[p[k]->flips[f].node].name);
            if (!shown)
                strbuf_printf(&only[k], " none");
            lines[m++] = only[k].s ? only[k].s : (char *)"only in: (out of memory)";
        }
        if (tui_pair_open(t, &side[0], &side[1], lines, m))
            tui_status(t, false, "row %d against row %d: D the numbers, Esc back", t->cmp_sel + 1, other + 1);
        strbuf_free(&only[0]);
        strbuf_free(&only[1]);
    } else if (!names || !relief) {
        tui_status(t, true, "out of memory");
    }
    tui_arena_free(&side[0].arena);
    tui_arena_free(&side[1].arena);
    free(names);
    free(relief);
}

/* Above the rows, the budgets the cap alone kept out of reach (their
 * within says "no, cap"), in one line with the key that fits them again
 * with every candidate (issue 43). */
static void cap_line(tui_t *t)
{
    char list[240] = "", said[256];
    size_t at = 0;
    const fit_plan_t *first = NULL;
    for (int i = 0; i < t->n_cmp_rows; i++) {
        const compare_row_t *r = &t->cmp_rows[i];
        if (!r->plan || !text_cap_hides(r->plan, r->budget, "", said, sizeof said) || at >= sizeof list)
            continue;
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", first ? ", " : "", r->budget);
        first = first ? first : r->plan;
    }
    if (first)
        tui_answer_cap_line(t, 1, first->cap, list, first->floor.bytes, "A fits them with every candidate");
}

void screen_compare_draw(tui_t *t)
{
    if (tui_pair_shown(t, SCR_COMPARE)) {
        tui_pair_draw(t);
        return;
    }
    if (!t->open)
        return;
    if (t->n_cmp_rows && !tui_sweep_current(t)) {
        /* the wait drew the rows as they were under its bar: the screen
         * is drawn again whole, not over that (a stopped refit left the
         * old numbers beside "(stopped)") */
        tui_sweep_run(t);
        t->redraw(t);
        return;
    }
    char head[3][400];
    snprintf(head[0], sizeof head[0],
             "%d budget%s on %s, one search: reuse %lld/%lld   (a adds, d removes, Space marks, D one arena, S saves, x best)",
             t->n_cmp_rows, t->n_cmp_rows == 1 ? "" : "s", t->open_name, (long long)t->cmp_reused, (long long)t->cmp_lowered);
    snprintf(head[1], sizeof head[1], "%d budget%s on %s, one search: reuse %lld/%lld   (? keys)", t->n_cmp_rows,
             t->n_cmp_rows == 1 ? "" : "s", t->open_name, (long long)t->cmp_reused, (long long)t->cmp_lowered);
    snprintf(head[2], sizeof head[2], "%d budget%s, reuse %lld/%lld (? keys)", t->n_cmp_rows,
             t->n_cmp_rows == 1 ? "" : "s", (long long)t->cmp_reused, (long long)t->cmp_lowered);
    tui_put_fit(t, 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD, (const char *const[]){ head[0], head[1], head[2] }, 3);
    cap_line(t);
    /* narrow: the exact bytes column goes first, so "within" is never cut;
     * the budget column is as wide as the widest budget typed (a budget is
     * a number: never cut) */
    bool wide = t->cols >= 110;
    int bw = 11;
    for (int i = 0; i < t->n_cmp_rows; i++) {
        char said[64];
        bw = (int)strlen(row_budget(&t->cmp_rows[i], wide, said, sizeof said)) > bw ? (int)strlen(said) : bw;
    }
    /* recompute: the exact sum of the flips' (DESIGN §13), the overhead
     * it is of the baseline's compute when wide; within: why no plan could
     * meet a budget below the floor ("no, floor", "no, cap", as sweep says) */
    tui_putf(t, TABLE_Y, 1, t->cols - 2, t->attr[T_DIM], "%2s %-*s %10s%s %5s %10s%s %10s %4s %7s %9s", "#", bw,
             "budget", "final", wide ? "         final B" : "", "flips", "recompute", wide ? "   overhead" : "",
             "est. time", "cap", "dropped", "within");
    if (!t->n_cmp_rows)
        tui_put_prose(t, TABLE_Y + 1, 3, t->cols - 4, 3, 0, t->attr[T_DIM],
                      "(no budgets: press a and type one or several, 90%,75%,60%,minimize: one search fits them "
                      "all)", NULL);
    for (int i = 0; i < t->n_cmp_rows; i++) {
        const compare_row_t *r = &t->cmp_rows[i];
        const fit_plan_t *p = r->plan;
        unsigned a = i == t->cmp_sel ? t->attr[T_SELECTED] : t->attr[T_NORMAL];
        char mark = i == t->cmp_mark ? '*' : ' ';
        if (!p) {
            tui_putf(t, row_of(t, i), 1, t->cols - 2, a, "%2d%c%-*s %10s", i + 1, mark, bw, r->budget,
                     t->cmp_running ? "(fitting)" : t->cmp_stopped ? "(stopped: Enter fits)" : "(error)");
            continue;
        }
        char fin[32], est[48] = "         -", exact[24] = "", cap[16] = "all"; /* -1: minimize, unbounded */
        units_format_bytes(p->final.total, fin, sizeof fin);
        if (t->tgt.has_profile && t->tgt.profile.flops_per_s > 0)
            format_seconds(t, profile_seconds(&t->tgt.profile, p->final.compute - p->baseline.compute), est, sizeof est);
        if (wide)
            snprintf(exact, sizeof exact, " %15lld", (long long)p->final.total);
        if (p->cap == INT32_MAX)
            snprintf(cap, sizeof cap, "all");
        else if (p->cap >= 0)
            snprintf(cap, sizeof cap, "%d", (int)p->cap);
        char rec[32], over[24] = "";
        tui_flops_short(tui_answer_recompute(p), true, rec, sizeof rec);
        if (wide)
            snprintf(over, sizeof over, " %+9.3f%%", overhead(p));
        char said[64];
        tui_putf(t, row_of(t, i), 1, t->cols - 2, a, "%2d%c%-*s %10s%s %5d %10s%s %s %4s %7d %9s", i + 1, mark, bw,
                 row_budget(r, wide, said, sizeof said), fin, exact, (int)p->n_flips, rec, over, est, cap,
                 (int)p->dropped, text_within(p));
        const best_plan_t *b = &r->best;
        if (!t->cmp_show_best || !b->kind)
            continue;
        if (!b->found) {
            /* a search the time limit stopped proved nothing: it says what it did not find */
            tui_putf(t, row_of(t, i) + 1, 1, t->cols - 2, t->attr[T_DIM], "   %-*s %s", bw + 1, "best",
                     b->proved ? "no subset fits (proved)" : "none found in the time limit (not proved)");
            continue;
        }
        units_format_bytes(b->final.total, fin, sizeof fin);
        if (wide)
            snprintf(exact, sizeof exact, " %15lld", (long long)b->final.total);
        char free_flips[160];
        if (text_free_flips(p, b->n_flips, b->final.total, b->final.compute, free_flips, sizeof free_flips)) {
            /* the baseline met the budget: "40 flips +0" read as flips it needed; nothing when they save nothing */
            if (free_flips[0])
                tui_putf(t, row_of(t, i) + 1, 1, t->cols - 2, t->attr[T_HELD], "   %-*s %10s%s  %s", bw,
                         b->proved ? "best" : "best?", fin, exact, free_flips);
            continue;
        }
        tui_flops_short(b->final.compute - p->baseline.compute, true, rec, sizeof rec);
        over[0] = 0;
        if (wide)
            snprintf(over, sizeof over, " %+9.3f%%", best_overhead(p, b));
        tui_putf(t, row_of(t, i) + 1, 1, t->cols - 2, t->attr[T_HELD], "   %-*s %10s%s %5d %10s%s %10s %4s %7s %9s", bw,
                 b->proved ? "best" : "best?", fin, exact, (int)b->n_flips, rec, over, "", "", "",
                 p->minimize || b->final.total <= p->budget ? "yes" : "no");
    }
    int y = row_of(t, t->n_cmp_rows ? t->n_cmp_rows : 1) + 1;
    if (t->n_cmp_rows && t->cmp_rows[t->cmp_sel].plan) {
        bool marked;
        int above = other_row(t, &marked);
        const fit_plan_t *p = t->cmp_rows[t->cmp_sel].plan, *q = above >= 0 ? t->cmp_rows[above].plan : NULL;
        /* the flips that differ, as fields: four rows of them at most, the
         * last saying how many more there are (D lists them all) */
        char vs[32], lead[200], group[96];
        snprintf(vs, sizeof vs, "row %d", above + 1);
        int32_t plus = 0, minus = 0;
        for (int32_t k = 0; k < p->n_flips; k++)
            plus += !has_flip(q, p->flips[k].node);
        for (int32_t k = 0; q && k < q->n_flips; k++)
            minus += !has_flip(p, q->flips[k].node);
        biggest_group(p, group, sizeof group);
        /* the group a field of its own: at 80 columns it wraps (it was cut) */
        snprintf(lead, sizeof lead, "row %d vs %s (+%d -%d flips%s", t->cmp_sel + 1,
                 above < 0 ? "the baseline" : !marked && above == t->cmp_sel - 1 ? "the row above" : vs, (int)plus,
                 (int)minus, group[0] ? "," : "):");
        int n = 0, cap = p->n_flips + (q ? q->n_flips : 0) + 3;
        char **f = calloc((size_t)cap, sizeof *f);
        const char **fields = calloc((size_t)cap, sizeof *fields);
        if (f && fields) {
            f[n++] = strdup(lead);
            if (group[0] && (f[n] = malloc(sizeof group + 4)))
                snprintf(f[n++], sizeof group + 4, "%s):", group);
            for (int32_t k = 0; k < p->n_flips; k++)
                if (!has_flip(q, p->flips[k].node) && (f[n] = malloc(160)))
                    snprintf(f[n++], 160, "+%s", t->tgt.routine->nodes[p->flips[k].node].name);
            for (int32_t k = 0; q && k < q->n_flips; k++)
                if (!has_flip(p, q->flips[k].node) && (f[n] = malloc(160)))
                    snprintf(f[n++], 160, "-%s", t->tgt.routine->nodes[q->flips[k].node].name);
            if (n == 1 + (group[0] != 0))
                f[n++] = strdup("the same flips");
            for (int k = 0; k < n; k++)
                fields[k] = f[k] ? f[k] : "";
            y += tui_put_fields(t, y, 1, t->cols - 2, 4, 2, t->attr[T_NORMAL], fields, n, " ") - 1;
        }
        for (int k = 0; f && k < n; k++)
            free(f[k]);
        free(f);
        free(fields);
    }
    y += tui_policy_line(t, y + 1);
    tui_compare_chart(t, y + 2, 1, t->rows - y - 5, t->cols - 2);
}

/* The selected row as a stored plan (sweep --save does it for all). */
static void save_row(tui_t *t)
{
    if (!t->n_cmp_rows || !t->cmp_rows[t->cmp_sel].plan)
        return;
    compare_row_t *r = &t->cmp_rows[t->cmp_sel];
    char what[96];
    snprintf(what, sizeof what, "row %d (%s)", t->cmp_sel + 1, r->budget);
    if (tui_save_plan(t, r->plan, r->elapsed_us, r->budget, t->cmp_show_best ? &r->best : NULL,
                      "save this row as a plan, label (optional): ", what))
        r->saved = true;
}

/* Whether spec is a row's budget already or one of new[0..n), as parsed
 * ("60%" and "60 %" alike). */
static bool budget_listed(const tui_t *t, char *const *new, int n, const budget_spec_t *spec)
{
    for (int i = 0; i < t->n_cmp_rows + n; i++) {
        budget_spec_t o;
        rs_error_t err;
        const char *text = i < t->n_cmp_rows ? t->cmp_rows[i].budget : new[i - t->n_cmp_rows];
        if (!units_parse_budget(text, "budget", &o, &err) && o.kind == spec->kind && o.bytes == spec->bytes &&
            o.pct_num * spec->pct_den == spec->pct_num * o.pct_den)
            return true;
    }
    return false;
}

int screen_compare_key(tui_t *t, action_t a, int key)
{
    (void)key;
    if (tui_pair_shown(t, SCR_COMPARE))
        return tui_pair_key(t, a);
    if (!t->open)
        return KEY_UNHANDLED;
    switch (a) {
    case ACT_ADD_BUDGET: {
        char buf[256] = "";
        if (!tui_prompt(t, "add budgets (48MiB, 60%, device, minimize; several: 90%,70%,50%): ", buf, sizeof buf,
                        false) || !buf[0])
            return KEY_REDRAW;
        /* every budget is checked before any is added; one already a row
         * (or given twice) is no second row */
        char *toks[TUI_MAX_BUDGETS + 1], *save = NULL;
        int n = 0, again = 0;
        for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
            budget_spec_t spec;
            rs_error_t err;
            if (units_parse_budget(tok, "budget", &spec, &err)) {
                tui_error(t, tok, &err);
                return KEY_REDRAW;
            }
            if (budget_listed(t, toks, n, &spec)) {
                again++;
                continue;
            }
            if (t->n_cmp_rows + n >= TUI_MAX_BUDGETS) {
                tui_status(t, true, "at most %d budgets", TUI_MAX_BUDGETS);
                return KEY_REDRAW;
            }
            toks[n++] = tok;
        }
        if (!n) {
            tui_status(t, false, "%s already a row", again == 1 ? "that budget is" : "those budgets are");
            return KEY_REDRAW;
        }
        for (int k = 0; k < n; k++)
            tui_rows_add(t, toks[k]); /* room for n was checked above */
        t->cmp_sel = t->n_cmp_rows - 1;
        /* a budget that cannot be fitted is no row: the status says why (a stopped one stays) */
        if (tui_sweep_run(t) != RS_ECANCELED)
            for (int i = t->n_cmp_rows - 1; i >= 0; i--)
                if (!t->cmp_rows[i].plan)
                    tui_rows_remove(t, i);
        return KEY_REDRAW;
    }
    case ACT_ADD_POLICY: tui_policy_add(t); return KEY_REDRAW;
    case ACT_REMOVE_BUDGET:
        if (!t->n_cmp_rows)
            return KEY_REDRAW;
        tui_rows_remove(t, t->cmp_sel); /* the other rows are what fit gives each alone: nothing is fitted again */
        return KEY_REDRAW;
    case ACT_OPEN: /* the row in the stepper: the same plan, event by event, not fitted again */
        if (t->n_cmp_rows && !t->cmp_rows[t->cmp_sel].plan && t->cmp_stopped) {
            tui_sweep_run(t); /* the rows the stop left unfitted; those it finished stay */
        } else if (t->n_cmp_rows && t->cmp_rows[t->cmp_sel].plan) {
            const compare_row_t *r = &t->cmp_rows[t->cmp_sel];
            char what[80];
            snprintf(what, sizeof what, "row %d (%s)", t->cmp_sel + 1, r->budget);
            if (!tui_fit_may_replace(t, what, r->plan))
                return KEY_REDRAW;
            if (tui_show_plan(t, r->plan, r->elapsed_us, r->budget, what)) {
                t->plan_saved = r->saved; /* S on this row stored it */
                t->screen = SCR_FIT;
            }
        }
        return KEY_REDRAW;
    case ACT_BEST:
        t->cmp_show_best = !t->cmp_show_best;
        if (t->cmp_show_best && !tui_sweep_current(t))
            tui_sweep_run(t); /* with the best rows */
        else if (t->cmp_show_best)
            tui_sweep_best(t);
        return KEY_REDRAW;
    case ACT_MARK: /* then the next row, as on Plans: Space, D compares the two */
        t->cmp_mark = t->cmp_mark == t->cmp_sel ? -1 : t->cmp_sel;
        t->cmp_sel += t->cmp_sel + 1 < t->n_cmp_rows;
        return KEY_REDRAW;
    case ACT_SAVE_PLAN: save_row(t); return KEY_REDRAW;
    case ACT_SET_CAP: tui_set_cap(t); return KEY_REDRAW;
    case ACT_REFIT_ALL: tui_sweep_refit_all(t); return KEY_REDRAW;
    case ACT_DIFF: pair(t); return KEY_REDRAW;
    case ACT_UP: t->cmp_sel -= t->cmp_sel > 0; return KEY_REDRAW;
    case ACT_DOWN: t->cmp_sel += t->cmp_sel + 1 < t->n_cmp_rows; return KEY_REDRAW;
    case ACT_TOP: t->cmp_sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->cmp_sel = t->n_cmp_rows ? t->n_cmp_rows - 1 : 0; return KEY_REDRAW;
    default: return KEY_UNHANDLED;
    }
}
