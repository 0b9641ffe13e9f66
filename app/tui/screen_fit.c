/* The Fit stepper: run fit to a typed budget, then step through its events
 * with the candidates' statuses, the arena at that event, and the sentence
 * explaining it; Enter asks why of a node (tui_fit_why), g lists the flips
 * by origin (tui_fit_origins). */
#include "tui/screen_fit.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "plan/trace.h"
#include "util/path.h"
#include "text.h"
#include "tui/tui_answer.h"
#include "tui/tui_arena.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_fit_ask.h"
#include "tui/tui_fit_best.h"
#include "tui/tui_fit_origins.h"
#include "tui/tui_fit_why.h"
#include "tui/tui_frontier.h"
#include "tui/tui_model.h"
#include "tui/tui_widgets.h"

#define TABLE_Y 4
#define WIDE_COLS 140 /* from here the table has every column at full width */

/* Wide, the names get half the columns past WIDE_COLS, and more when the
 * longest needs it (a 13k-instruction step's were cut at 22 at 160
 * columns) while the arena beside the table keeps ARENA_MIN_COLS. */
#define ARENA_MIN_COLS 48
static const char *cand_node_name(const void *ud, int i, char *buf, size_t n)
{
    const tui_t *t = ud;
    (void)buf, (void)n;
    return t->tgt.routine->nodes[t->plan->cands[i].node].name;
}

/* The candidate names' width: 11, and from 140 columns half the columns
 * past 140 more, up to 21, or what the longest needs (HLO names such as
 * batch_norm_training.12).  One column less than the table once gave
 * them: the blank that ends the table (left_w). */
static int name_w(const tui_t *t)
{
    if (t->cols < WIDE_COLS)
        return 11;
    int w = 11 + ((t->cols - WIDE_COLS) / 2 > 10 ? 10 : (t->cols - WIDE_COLS) / 2);
    int most = t->cols - 3 - ARENA_MIN_COLS - (86 - 12);
    return tui_name_col(t->plan ? (int)t->plan->n_cands : 0, cand_node_name, t, w, most);
}

/* The candidate table's width: at 80 columns it leaves the arena 16.  Its
 * last column is a blank, so round two's verdict ("left held at end")
 * never reads on into the arena's header or footer beside it ("... end
 * max live 224 MiB"). */
static int left_w(const tui_t *t) { return t->cols >= WIDE_COLS ? 86 + name_w(t) - 12 : 61; }

static int table_rows(const tui_t *t) { return t->rows - TABLE_Y - 6; }

/* Round one's order (DESIGN §5): positive reliefs, then negative, then
 * zero; the candidates the cap dropped after.  A marker row opens each
 * class after the first, so a candidate that makes memory worse ranked
 * above a neutral one does not read as a bug (issue 28). */
static int cand_class(const fit_cand_t *c) { return c->solo < 0 ? 3 : c->relief > 0 ? 0 : c->relief < 0 ? 1 : 2; }

/* Whether a marker row comes before candidate i in a table starting at top. */
static bool marker_before(const fit_plan_t *p, int top, int i)
{
    return i > top && cand_class(&p->cands[i]) != cand_class(&p->cands[i - 1]);
}

/* The table row (from 0) of candidate i in a table starting at top. */
static int cand_row(const fit_plan_t *p, int top, int i)
{
    int r = i - top;
    for (int k = top + 1; k <= i; k++)
        r += marker_before(p, top, k);
    return r;
}

/* The rank column's width: the digits of the last rank, 3 at least. */
static int rank_w(const fit_plan_t *p)
{
    int w = snprintf(NULL, 0, "%d", (int)p->n_cands);
    return w < 3 ? 3 : w;
}

/* Round two's verdict in its column of w: the wide form where it fits,
 * else the narrow one, else cut with the ellipsis; padded to w.  Past
 * its column it ran into the arena beside the table. */
static void verdict_text(const tui_t *t, const trace_r2_t *v, bool wide, int w, char *buf, size_t n)
{
    char s[32];
    trace_round_two_text(v, !wide, s, sizeof s);
    if (tui_cols(s) > w)
        trace_round_two_text(v, true, s, sizeof s);
    tui_clip(t, s, w, buf, n);
}

static const char *CLASS_MARK[4] = { "", "worse alone: ranked after every relief", "neutral alone: ranked last",
                                     "over the cap: not scored" };

/* An arena of this fit, with the fit's budget line (not the Arena
 * screen's B line, which may have moved since). */
static void draw_fit_arena(tui_t *t, arena_view_t *a, int y, int x, int h, int w, int selected)
{
    a->has_floor = true; /* the fit's floor: no arena of it goes below */
    a->floor = t->plan->floor;
    tui_draw_arena(t, a, t->plan->minimize ? -1 : t->plan->budget, y, x, h, w, selected, true);
}

static theme_slot_t status_slot(uint8_t st)
{
    switch ((fit_status_t)st) {
    case ST_ACCEPTED:
    case ST_COMMITTED: return T_ACCEPTED;
    case ST_HELD: return T_HELD;
    case ST_DISCARDED:
    case ST_DROPPED: return T_DISCARDED;
    case ST_REJECTED: return T_REJECTED;
    default: return T_NORMAL;
    }
}

static void draw_event_arena(tui_t *t);
static void draw_best(tui_t *t);
static void draw_pane(tui_t *t);
static void draw_sentence(tui_t *t);

/* Whether the current event scored the held group with its candidate (a
 * try with a held group): what h shows. */
static bool event_has_held(const tui_t *t)
{
    const fit_event_t *e = &t->plan->events[t->event];
    return e->kind == EV_TRY && e->group_n > 0 && e->with >= 0 && e->node >= 0;
}

/* Re-scores the arena for the flips accepted at the current event, or
 * (h) for those and the held group and the event's candidate, as round two
 * scored them. */
static void event_arena(tui_t *t)
{
    int32_t acc = view_accepted_at(t->plan, t->event);
    bool held = t->ev_held && event_has_held(t);
    int32_t key = held ? -2 - t->event : acc;
    if (key == t->ev_accepted && t->ev_arena.bufs)
        return;
    uint8_t *prefs = calloc((size_t)t->tgt.routine->n_nodes + 1, 1);
    if (!prefs)
        return;
    fit_context_prefs(t->ctx, prefs);
    for (int32_t k = 0; k < acc && k < t->plan->n_flips; k++)
        prefs[t->plan->flips[k].node] = 1;
    if (held) {
        const fit_event_t *e = &t->plan->events[t->event];
        for (int32_t m = 0; m < e->group_n; m++)
            prefs[t->plan->members[e->group_off + m]] = 1;
        prefs[e->node] = 1;
    }
    if (tui_score(t, prefs, &t->ev_det, &t->ev_arena))
        t->ev_accepted = key;
    free(prefs);
}

/* The candidate cap the fit used, as the header says it (DESIGN §5 step
 * 1: 32 cheapest for a byte budget unless C says otherwise), so a fit
 * that differs from `fit --max-candidates all` shows why: "cap 32 of
 * 1687, 1655 dropped" (form 0), "cap 32 of 1687" (1), "cap 32/1687" (2);
 * "cap all" when it dropped none (every candidate considered, or the
 * baseline met the budget before any was). */
static void cap_text(const fit_plan_t *p, int form, char *buf, size_t n)
{
    int kept = (int)p->considered, all = (int)(p->considered + p->dropped);
    if (p->dropped <= 0)
        snprintf(buf, n, "cap all");
    else if (form == 0)
        snprintf(buf, n, "cap %d of %d, %d dropped", kept, all, (int)p->dropped);
    else if (form == 1)
        snprintf(buf, n, "cap %d of %d", kept, all);
    else
        snprintf(buf, n, "cap %d/%d", kept, all);
}

void screen_fit_draw(tui_t *t)
{
    if (!t->plan) {
        int y = 5;
        if (t->fit_gone[0]) {
            tui_put(t, 3, 2, t->cols - 4, t->attr[T_NORMAL] | A_BOLD, "No fit open.");
            y += tui_put_prose(t, 5, 2, t->cols - 4, 3, 0, t->attr[T_NORMAL], t->fit_gone, NULL) + 1;
        } else
            tui_put(t, 3, 2, t->cols - 4, t->attr[T_NORMAL] | A_BOLD, "No fit yet.");
        tui_put_prose(t, y, 2, t->cols - 4, 4, 0, t->attr[T_NORMAL],
                      "Press b and type a budget: 48MiB, 1.5GB, 60% (of the baseline), device (the profile's "
                      "memory), or minimize. ^C cancels a running fit. C sets the candidate cap first (a byte "
                      "budget fits the 32 cheapest; all considers every one).", NULL);
        return;
    }
    const fit_plan_t *p = t->plan;
    const routine_t *r = t->tgt.routine;
    if (t->event >= p->n_events)
        t->event = p->n_events - 1;
    if (t->event < 0)
        t->event = 0;
    const fit_event_t *e = &p->events[t->event];
    char base[32], fin[32], bud[64];
    units_format_bytes(p->baseline.total, base, sizeof base);
    units_format_bytes(p->final.total, fin, sizeof fin);
    units_format_budget(t->fit_budget_text, p->minimize, p->budget, bud, sizeof bud);
    /* where the stepper is first (it changes with every key), then the fit;
     * events are numbered from 0, as in the CLI and the CSV; narrower, the
     * words go before the numbers do */
    const char *kind = trace_kind_name((fit_event_kind_t)e->kind), *bar = tui_glyph(t, "│", "|");
    char cap_long[64], cap_short[48], cap_narrow[32], flips[48], v[7][384];
    cap_text(p, 0, cap_long, sizeof cap_long);
    cap_text(p, 1, cap_short, sizeof cap_short);
    cap_text(p, 2, cap_narrow, sizeof cap_narrow);
    snprintf(flips, sizeof flips, "%s", text_count(p->n_flips, "flip", NULL));
    /* the layout goes first (the status bar says it too); the cap stays
     * while it dropped candidates, and "cap all" gives way before the rest */
    int nv = 0;
    snprintf(v[nv++], sizeof v[0], "event %d/%d round %d %s %s fit %s: %s -> %s %s, %s, %s, layout %s", (int)t->event,
             (int)p->n_events - 1, (int)e->round, kind, bar, bud, base, fin,
             p->within_budget ? "within budget" : "NOT within budget", flips, cap_long,
             layout_strategy_name(t->tgt.cfg.layout));
    snprintf(v[nv++], sizeof v[0], "event %d/%d round %d %s %s fit %s: %s -> %s %s, %s, %s", (int)t->event,
             (int)p->n_events - 1, (int)e->round, kind, bar, bud, base, fin,
             p->within_budget ? "within budget" : "NOT within budget", flips, cap_long);
    snprintf(v[nv++], sizeof v[0], "event %d/%d round %d %s %s fit %s: %s -> %s %s, %s, %s", (int)t->event,
             (int)p->n_events - 1, (int)e->round, kind, bar, bud, base, fin,
             p->within_budget ? "within budget" : "NOT within budget", flips, cap_short);
    snprintf(v[nv++], sizeof v[0], "event %d/%d round %d %s %s %s: %s -> %s %s, %s, %s", (int)t->event,
             (int)p->n_events - 1, (int)e->round, kind, bar, bud, base, fin, p->within_budget ? "within" : "NOT within",
             flips, cap_short);
    if (p->dropped <= 0)
        snprintf(v[nv++], sizeof v[0], "event %d/%d round %d %s %s %s: %s -> %s %s, %s", (int)t->event,
                 (int)p->n_events - 1, (int)e->round, kind, bar, bud, base, fin,
                 p->within_budget ? "within" : "NOT within", flips);
    snprintf(v[nv++], sizeof v[0], "event %d/%d %s %s %s -> %s%s, %s%s%s", (int)t->event, (int)p->n_events - 1, kind,
             bar, base, fin, p->within_budget ? " within" : " missed", flips, p->dropped > 0 ? ", " : "",
             p->dropped > 0 ? cap_short : "");
    snprintf(v[nv++], sizeof v[0], "ev %d/%d %s %s %s%s%s%s", (int)t->event, (int)p->n_events - 1, kind, bar, fin,
             p->within_budget ? " within" : " missed", p->dropped > 0 ? ", " : "", p->dropped > 0 ? cap_narrow : "");
    const char *vs[7];
    for (int i = 0; i < nv; i++)
        vs[i] = v[i];
    tui_put_fit(t, 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD, vs, nv);
    /* above the plan: when the cap alone kept the budget out of reach (issue 43) */
    char hides[256];
    if (text_cap_hides(p, t->fit_budget_text, "", hides, sizeof hides))
        tui_answer_cap_line(t, 1, p->cap, t->fit_budget_text[0] ? t->fit_budget_text : bud, p->floor.bytes,
                            "C all");
    /* the candidates in round-one order, with their status at this event */
    uint8_t *status = calloc((size_t)p->n_cands + 1, 1);
    if (status)
        view_statuses_at(p, t->event, status);
    /* and round two's verdict at this event (the relief it was accepted
     * with, or why not); narrow, B/FLOP goes (solo / cost, and the Why
     * says it) and the cost is short */
    trace_r2_t *r2 = calloc((size_t)p->n_cands + 1, sizeof *r2);
    if (r2 && trace_round_two_at(p, t->event, r2)) {
        free(r2);
        r2 = NULL;
    }
    bool wide = t->cols >= WIDE_COLS;
    int lw = left_w(t), nw = name_w(t);
    if (t->show_frontier || t->fit_origins) {
        if (t->show_frontier)
            tui_frontier_draw(t, TABLE_Y - 1, lw, table_rows(t));
        else
            tui_fit_origins_draw(t, TABLE_Y, lw, table_rows(t), wide);
        free(status);
        free(r2);
        draw_pane(t);
        draw_sentence(t);
        return;
    }
    /* beside the bound, the compute each flip added once accepted (DESIGN
     * §13), '!' after it where the flip does not pay (answer_unpaid) */
    tui_answer_marks_t fm;
    tui_answer_marks(p, &fm);
    /* a rank of a 13.5k-instruction step's 9324 candidates takes 4
     * digits: the name column gives them up, so a row stays within the
     * table (its verdict was cut at the table's edge) */
    int rw = rank_w(p), cw = nw - (rw - 3), vw = wide ? 16 : 11;
    if (wide)
        tui_putf(t, 3, 1, lw, t->attr[T_DIM], "%*s %-*s %9s %11s %9s  %7s  %-9s %-*s", rw, "rk", cw, "candidate",
                 "solo", "cost bound", "recompute", "B/FLOP", "status", vw, "round two");
    else
        tui_putf(t, 3, 1, lw, t->attr[T_DIM], "%*s %-*s %9s %5s %5s  %-9s %-*s", rw, "rk", cw, "candidate", "solo",
                 "bound", "added", "status", vw, "round two");
    int rows = table_rows(t);
    if (t->fit_sel >= p->n_cands)
        t->fit_sel = p->n_cands - 1;
    if (t->fit_sel < 0)
        t->fit_sel = 0;
    if (t->fit_sel < t->fit_top)
        t->fit_top = t->fit_sel;
    while (rows > 0 && t->fit_top < t->fit_sel && cand_row(p, t->fit_top, t->fit_sel) >= rows)
        t->fit_top++;
    for (int k = 0, i = t->fit_top; k < rows && i < p->n_cands; k++, i++) {
        if (marker_before(p, t->fit_top, i)) {
            char m[160];
            snprintf(m, sizeof m, "%s %s ", tui_glyph(t, "──", "--"), CLASS_MARK[cand_class(&p->cands[i])]);
            tui_fill(t, TABLE_Y + k, 1, lw, t->attr[T_DIM]);
            tui_put(t, TABLE_Y + k, 5, lw - 4, t->attr[T_DIM], m);
            if (++k >= rows)
                break;
        }
        const fit_cand_t *c = &p->cands[i];
        char solo[32] = "-", ratio[16] = "-", cost[32], verdict[64] = "";
        if (wide)
            units_format_flops(c->cost, cost, sizeof cost);
        else
            tui_flops_short(c->cost, false, cost, sizeof cost);
        if (r2)
            verdict_text(t, &r2[i], wide, vw, verdict, sizeof verdict);
        if (c->solo >= 0) {
            char b[24];
            units_format_bytes(c->relief < 0 ? -c->relief : c->relief, b, sizeof b);
            snprintf(solo, sizeof solo, "%s%s", c->relief < 0 ? "-" : "", b);
            view_ratio_text((double)c->relief / (double)c->cost, ratio, sizeof ratio);
        }
        uint8_t st = status ? status[i] : c->status;
        char rec[40] = "-", bad = ' ';
        int32_t f = fm.flip_of ? fm.flip_of[c->node] : -1;
        if (f >= 0 && (st == ST_ACCEPTED || st == ST_COMMITTED)) {
            tui_flops_short(p->flips[f].recompute, wide, rec, sizeof rec);
            bad = fm.unpaid && fm.unpaid[f] ? '!' : ' ';
        }
        bool here = e->node == c->node;
        unsigned a = i == t->fit_sel ? t->attr[T_SELECTED] : t->attr[status_slot(st)];
        if (here && i != t->fit_sel)
            a |= A_BOLD | A_UNDERLINE;
        char rank[8];
        snprintf(rank, sizeof rank, c->rank ? "%d" : "-", (int)c->rank);
        const char *mark = here ? tui_glyph(t, "▶", ">") : " ", *stn = fit_status_name((fit_status_t)st);
        char nm[200]; /* a cut name ends in the ellipsis: multiply.442 read as another node */
        tui_clip_name(t, r->nodes[c->node].name, cw, nm, sizeof nm);
        if (wide)
            tui_putf(t, TABLE_Y + k, 1, lw, a, "%*s %s %9s %11s %9s%c %7.7s %s%-9s %s", rw, rank, nm, solo, cost, rec,
                     bad, ratio, mark, stn, verdict);
        else
            tui_putf(t, TABLE_Y + k, 1, lw, a, "%*s %s %9s %5s %5s%c%s%-9s %s", rw, rank, nm, solo, cost, rec, bad,
                     mark, stn, verdict);
    }
    tui_answer_marks_free(&fm);
    free(status);
    free(r2);
    draw_pane(t);
    draw_sentence(t);
}

/* Beside either table (candidates or origins): x / I's answer while it is
 * shown, else the event's arena (x under g searched and showed nothing). */
static void draw_pane(tui_t *t)
{
    if (t->show_frontier) { /* F: the frontier plan's §14 schedule */
        int x = left_w(t) + 2, w = t->cols - left_w(t) - 3;
        tui_frontier_arena_head(t, 3, x, w);
        draw_fit_arena(t, &t->fr_arena, 4, x, t->rows - 10, w, -1);
    } else if (t->show_best && t->best.kind)
        draw_best(t);
    else
        draw_event_arena(t);
}

/* The event's sentence, with the scores it compared. */
static void draw_sentence(tui_t *t)
{
    strbuf_t text;
    strbuf_init(&text);
    const char *s = trace_describe(t->plan, t->event, &text);
    tui_hline(t, t->rows - 5, 1, 40, t->attr[T_DIM]);
    /* a third row when the status line (the row below) is empty */
    tui_put_prose(t, t->rows - 4, 1, t->cols - 2, t->status[0] ? 2 : 3, 2, t->attr[T_NORMAL] | A_BOLD,
                  s ? s : "(out of memory)", NULL);
    strbuf_free(&text);
}

/* the arena for the flips accepted so far */
static void draw_event_arena(tui_t *t)
{
    const fit_plan_t *p = t->plan;
    const fit_event_t *e = &p->events[t->event];
    const routine_t *r = t->tgt.routine;
    event_arena(t);
    int32_t acc = view_accepted_at(p, t->event);
    char cur[32];
    units_format_bytes(t->ev_arena.fp.total, cur, sizeof cur);
    if (event_has_held(t)) { /* both totals round two compared, h switches the picture */
        char so_far[32], with[32];
        units_format_bytes(e->cur, so_far, sizeof so_far);
        units_format_bytes(e->with, with, sizeof with);
        char head[256];
        int w = t->cols - left_w(t) - 3;
        int n = snprintf(head, sizeof head, "%d accepted: %s; + held + %s: %s; shown: %s (h)", (int)acc, so_far,
                         r->nodes[e->node].name, with, t->ev_held ? "with held" : "accepted");
        /* narrower, the names go before the two totals do (they are what round two compared) */
        if (n > w)
            n = snprintf(head, sizeof head, "%d accepted: %s; with held: %s; shown: %s (h)", (int)acc, so_far, with,
                         t->ev_held ? "with held" : "accepted");
        if (n > w)
            n = snprintf(head, sizeof head, "%s, with held %s; %s (h)", so_far, with,
                         t->ev_held ? "with held" : "accepted");
        if (n > w) /* the one drawn in brackets */
            n = snprintf(head, sizeof head, t->ev_held ? "%s / [held %s] (h)" : "[%s] / held %s (h)", so_far, with);
        if (n > w) /* narrowest: which arena is shown; the event's sentence below has both totals */
            n = snprintf(head, sizeof head, "shown: %s (h)", t->ev_held ? "with held" : "accepted");
        if (n > w)
            snprintf(head, sizeof head, "%s (h)", t->ev_held ? "with held" : "accepted");
        tui_put(t, 3, left_w(t) + 2, w, t->attr[T_DIM], head);
    } else { /* narrower, fewer words: never "arena with 1862 accept" */
        char v[4][96];
        snprintf(v[0], sizeof v[0], "arena with %d accepted flip%s: %s", (int)acc, acc == 1 ? "" : "s", cur);
        snprintf(v[1], sizeof v[1], "%d accepted: %s", (int)acc, cur);
        snprintf(v[2], sizeof v[2], "%d flip%s: %s", (int)acc, acc == 1 ? "" : "s", cur);
        snprintf(v[3], sizeof v[3], "%s", cur);
        tui_put_fit(t, 3, left_w(t) + 2, t->cols - left_w(t) - 3, t->attr[T_DIM],
                    (const char *const[]){ v[0], v[1], v[2], v[3] }, 4);
    }
    /* the event's node highlighted where it is materialized */
    int here = -1;
    for (int32_t i = 0; i < t->ev_arena.n && here < 0; i++)
        if (t->ev_arena.bufs[i].node == e->node)
            here = i;
    draw_fit_arena(t, &t->ev_arena, 4, left_w(t) + 2, t->rows - 10, t->cols - left_w(t) - 3, here);
}

/* x / I's pane in the arena's place: the answer, the best plan's arena below. */
static void draw_best(tui_t *t)
{
    int x = left_w(t) + 2, w = t->cols - left_w(t) - 3, bottom = t->rows - 6;
    int y = tui_fit_best_draw(t, 3, x, w, bottom);
    if (t->best.found)
        draw_fit_arena(t, &t->best_arena, y, x, bottom - y, w, -1);
}

/* x / I: computes the best or improved plan once per fit, then toggles it. */
static void toggle_best(tui_t *t, best_kind_t kind)
{
    bool ran = t->best.kind != kind;
    if (ran)
        tui_best_run(t, kind);
    else
        t->show_best = !t->show_best;
    /* under g the answer goes beside the origins: said, as the table is not the candidates */
    if (!t->fit_origins || !t->show_best || t->best.kind != kind || t->status_error)
        return;
    if (ran)
        tui_status_append(t, " (shown beside the flips by origin; g the candidates)");
    else
        tui_status(t, false, "the %s plan shown beside the flips by origin (g the candidates)",
                   kind == BEST_EXACT ? "best" : "improved");
}

static void follow(tui_t *t)
{
    const fit_event_t *e = &t->plan->events[t->event];
    if (e->node < 0)
        return;
    for (int32_t k = 0; k < t->plan->n_cands; k++)
        if (t->plan->cands[k].node == e->node)
            t->fit_sel = k;
}

static void step_to(tui_t *t, int dir, int kind)
{
    for (int32_t i = t->event + dir; i >= 0 && i < t->plan->n_events; i += dir)
        if (kind < 0 || t->plan->events[i].kind == kind || (kind == EV_ACCEPT && t->plan->events[i].kind == EV_COMMIT_GROUP)) {
            t->event = i;
            follow(t);
            return;
        }
    tui_status(t, false, "no %s event %s", kind < 0 ? "" : trace_kind_name((fit_event_kind_t)kind),
               dir > 0 ? "after this" : "before this");
}


static void save(tui_t *t)
{
    /* the best plan beside it goes with it while it is shown, as on Compare (hidden, it went anyway) */
    if (tui_save_plan(t, t->plan, t->plan_elapsed_us, t->fit_budget_text, t->show_best ? &t->best : NULL,
                      "save plan, label (optional): ", ""))
        t->plan_saved = true;
}

static int32_t cand_node(const tui_t *t, int i) { return t->plan->cands[i].node; }

int screen_fit_key(tui_t *t, action_t a, int key)
{
    (void)key;
    if (a == ACT_RUN_FIT) {
        tui_fit_ask(t);
        return KEY_REDRAW;
    }
    if (a == ACT_SET_CAP) {
        tui_set_cap(t);
        return KEY_REDRAW;
    }
    if (!t->plan && a == ACT_FRONTIER) {
        tui_status(t, true, "F: no fit to start from (b fits; the frontier plan is searched at its budget)");
        return KEY_REDRAW;
    }
    if (!t->plan)
        return KEY_UNHANDLED;
    /* g, x and I show what they ask for in the frontier plan's place (F shows it again) */
    if (t->show_frontier && (a == ACT_ORIGINS || a == ACT_BEST || a == ACT_IMPROVE)) {
        t->show_frontier = false;
        best_kind_t k = a == ACT_BEST ? BEST_EXACT : BEST_IMPROVED;
        if (a == ACT_ORIGINS ? t->fit_origins : t->show_best && t->best.kind == k)
            return KEY_REDRAW; /* what the key shows was under it: shown now */
    }
    if (a == ACT_ORIGINS) {
        t->fit_origins = !t->fit_origins;
        tui_status(t, false, t->fit_origins ? "flips by origin: Enter lists an origin's flips, g the candidates"
                                            : "the candidates in round-one order (g: the flips by origin)");
        return KEY_REDRAW;
    }
    if (a == ACT_FRONTIER) {
        tui_frontier_toggle(t);
        return KEY_REDRAW;
    }
    if (t->show_frontier && tui_frontier_key(t, a, table_rows(t) - 4))
        return KEY_REDRAW;
    if (t->show_frontier && a == ACT_WHY) { /* Enter: the flip's buffer in the schedule, on the Arena */
        if (tui_frontier_select(t))
            t->screen = SCR_ARENA;
        return KEY_REDRAW;
    }
    if (t->fit_origins && tui_fit_origins_key(t, a, table_rows(t)))
        return KEY_REDRAW;
    int page = table_rows(t) > 1 ? table_rows(t) - 1 : 1;
    switch (a) {
    case ACT_NEXT_EVENT: step_to(t, 1, -1); return KEY_REDRAW;
    case ACT_PREV_EVENT: step_to(t, -1, -1); return KEY_REDRAW;
    case ACT_NEXT_ACCEPT: step_to(t, 1, EV_ACCEPT); return KEY_REDRAW;
    case ACT_PREV_ACCEPT: step_to(t, -1, EV_ACCEPT); return KEY_REDRAW;
    case ACT_HELD_ARENA:
        if (!event_has_held(t))
            tui_status(t, true, "h: this event scored no held group (a try with one does)");
        t->ev_held = !t->ev_held;
        return KEY_REDRAW;
    case ACT_FIRST_EVENT: t->event = 0; return KEY_REDRAW;
    case ACT_LAST_EVENT: t->event = t->plan->n_events - 1; return KEY_REDRAW;
    case ACT_ROUND_TWO:
        for (int32_t i = 0; i < t->plan->n_events; i++)
            if (t->plan->events[i].round == 2) {
                t->event = i;
                follow(t);
                break;
            }
        return KEY_REDRAW;
    case ACT_UP: t->fit_sel -= t->fit_sel > 0; return KEY_REDRAW;
    case ACT_DOWN: t->fit_sel += t->fit_sel + 1 < t->plan->n_cands; return KEY_REDRAW;
    case ACT_PGUP: t->fit_sel = t->fit_sel > page ? t->fit_sel - page : 0; return KEY_REDRAW;
    case ACT_PGDN: t->fit_sel = t->fit_sel + page < t->plan->n_cands ? t->fit_sel + page : t->plan->n_cands - 1; return KEY_REDRAW;
    case ACT_TOP: t->fit_sel = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->fit_sel = t->plan->n_cands ? t->plan->n_cands - 1 : 0; return KEY_REDRAW;
    case ACT_WHY: tui_fit_why(t); return KEY_REDRAW;
    case ACT_SAVE_PLAN: save(t); return KEY_REDRAW;
    case ACT_BEST: toggle_best(t, BEST_EXACT); return KEY_REDRAW;
    case ACT_IMPROVE: toggle_best(t, BEST_IMPROVED); return KEY_REDRAW;
    case ACT_DIFF: tui_fit_best_popup(t); return KEY_REDRAW;
    case ACT_SEARCH:
    case ACT_SEARCH_NEXT: {
        char *q = t->search[SCR_FIT];
        char buf[64] = "";
        if (a == ACT_SEARCH) {
            if (!tui_prompt(t, "candidate: ", buf, sizeof buf, false) || !buf[0])
                return KEY_REDRAW;
            snprintf(q, sizeof t->search[SCR_FIT], "%s", buf);
        }
        if (!q[0])
            return KEY_REDRAW;
        bool by_origin = false;
        int i = tui_find_node(t, t->plan->n_cands, a == ACT_SEARCH ? 0 : t->fit_sel + 1, cand_node, q, &by_origin);
        if (i >= 0) { /* said, as the Arena's search says what it found */
            t->fit_sel = i;
            const fit_cand_t *c = &t->plan->cands[i];
            const routine_origin_t *o = t->tgt.routine->nodes[c->node].origin;
            const char *src = o->source ? o->source : o->function;
            src = src ? path_tail(src, 1) : NULL; /* the file's name and line */
            tui_status(t, false, "%s%s%.250s%s: candidate %d of %d, fit: %s", text_shown(t->tgt.routine->nodes[c->node].name),
                       by_origin ? " (" : "", by_origin && src ? src : "", by_origin ? ")" : "",
                       i + 1, (int)t->plan->n_cands, fit_status_name((fit_status_t)c->status));
        } else {
            tui_status(t, true, "no candidate matches '%s'", q);
        }
        return KEY_REDRAW;
    }
    default:
        return KEY_UNHANDLED;
    }
}

int screen_fit_click(tui_t *t, int y, int x)
{
    if (!t->plan || x > left_w(t))
        return KEY_HANDLED;
    int row = y - TABLE_Y; /* a marker row (round one's classes) selects nothing */
    if (t->fit_origins && row >= 0 && row < table_rows(t)) {
        t->org_sel = t->org_top + row; /* the draw clamps it */
        return KEY_REDRAW;
    }
    for (int i = t->fit_top; row >= 0 && row < table_rows(t) && i < t->plan->n_cands; i++)
        if (cand_row(t->plan, t->fit_top, i) == row)
            t->fit_sel = i;
    return KEY_REDRAW;
}
