/* The Arena screen: buffers at their offsets over their live spans, the
 * peak, the budget line, the live-bytes curve, and the selected buffer's
 * details. */
#include "tui/screen_arena.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "plan/trace.h"
#include "util/path.h"
#include "tui/tui_answer.h"
#include "tui/tui_arena.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_fit_ask.h"
#include "tui/tui_frontier.h"
#include "tui/tui_model.h"
#include "tui/tui_picture.h"
#include "tui/tui_widgets.h"

#define DETAILS_W 36
/* the arena drawn: the frontier plan's schedule while Fit shows it (F) */
#define ARENA(t) (*tui_arena_shown(t))

static const char *buf_label(const tui_t *t, int32_t node, char *buf, size_t n);
/* Buffer bi's label: a §14 copy's carries the copy mark. */
static const char *buf_label_at(const tui_t *t, int bi, char *buf, size_t n)
{
    if (!tui_frontier_is_copy(&ARENA(t), bi))
        return buf_label(t, ARENA(t).bufs[bi].node, buf, n);
    char nm[600];
    return tui_frontier_label(t, &ARENA(t), bi, buf_label(t, ARENA(t).bufs[bi].node, nm, sizeof nm), buf, n);
}
static const char *arena_buf_name(const void *ud, int i, char *buf, size_t n)
{
    return buf_label_at(ud, i, buf, n);
}

/* The right pane's width: 36 columns, wider from 120 columns on for a
 * routine whose nodes name their source lines (the inspector's source
 * column; the details' op_name): 72 at 160 columns (a 23-character name
 * and "xla_op_registry.py:44" whole), at most 84.  Without sources, as
 * wide as the longest buffer's name needs up to that (issue 43: a JAX
 * step's opt_state_1__mu….1 was cut at 160 columns beside a wide
 * picture; the inspector's other columns take 26). */
static int pane_w(const tui_t *t)
{
    if (t->cols < 120)
        return DETAILS_W;
    int w = DETAILS_W + (t->cols - 120) * 9 / 10;
    w = w > 84 ? 84 : w;
    if (!t->open)
        return t->origins ? w : DETAILS_W;
    if (t->origins) {
        /* with a source column: wider, up to 84, when the longest name and
         * 12 of the source need it (a JAX step's parameter names run to 38) */
        int need = 26 + 12 + tui_name_col((int)ARENA(t).n, arena_buf_name, t, DETAILS_W - 26, 84 - 38);
        return need > w ? (need < 84 ? need : 84) : w;
    }
    int need = 26 + tui_name_col((int)ARENA(t).n, arena_buf_name, t, DETAILS_W - 26, w - 26);
    return need < w ? need : w;
}

/* Where node i came from, as the pane shows it: the source file's last
 * part with the line ("model.py:12"), NULL when not said. */
static const char *source_short(const tui_t *t, int32_t i)
{
    const char *src = t->tgt.routine->nodes[i].origin->source;
    if (!src)
        return NULL;
    return path_tail(src, 1);
}

static const char *ROLE_NAMES[ROLE_COUNT] = { "resident", "intermediate (pinned)", "output", "candidate",
                                              "rejected preference" };


/* What node i's flip in the plan carries, as Why says it: "flip    21.1
 * MiB for +208 MFLOPs" (a closer's: its group's; a held member's 0); the
 * next row. */
static int flip_details(tui_t *t, int32_t i, int y, int x, int w)
{
    for (int32_t k = 0; k < t->plan->n_flips; k++)
        if (t->plan->flips[k].node == i) {
            char rel[32], fl[32];
            units_format_bytes(t->plan->flips[k].relief, rel, sizeof rel);
            units_format_flops(t->plan->flips[k].recompute, fl, sizeof fl);
            const fit_cand_t *c = trace_cand(t->plan, i);
            bool member = c && c->status == ST_COMMITTED && t->plan->flips[k].relief == 0;
            tui_putf(t, y++, x, w, t->attr[T_NORMAL], member ? "flip    held member: %s, +%s" : "flip    %s for +%s",
                     rel, fl);
            break;
        }
    return y;
}

static void details(tui_t *t, int y, int x, int w)
{
    if (!ARENA(t).n)
        return;
    const view_buf_t *b = &ARENA(t).bufs[t->sel_buf];
    const lowering_t *l = t->tgt.lowering;
    const routine_t *r = t->tgt.routine;
    int32_t i = b->node;
    char title[600];
    tui_putf(t, y++, x, w, t->attr[T_SELECTED], " %s ", tui_frontier_label(t, &ARENA(t), t->sel_buf, r->nodes[i].name, title, sizeof title));
    const char *op = l->kind[i] == NODE_DEF ? routine_op(r, l->first_def[i]) : l->kind[i] == NODE_INPUT ? "input" : "param";
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "op      %s%s", op, l->ndefs[i] > 1 ? " (accumulated)" : "");
    char shape[96] = "[";
    size_t sw = 1;
    for (int32_t k = l->dim_off[i]; k < l->dim_off[i + 1] && sw < sizeof shape - 24; k++)
        sw += (size_t)snprintf(shape + sw, sizeof shape - sw, "%s%lld", k > l->dim_off[i] ? ", " : "",
                               (long long)l->dims[k]);
    snprintf(shape + sw, sizeof shape - sw, "]");
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "shape   %s %s", shape, dtype_name((dtype_t)r->nodes[i].dtype));
    char by[32], al[32];
    units_format_bytes(l->bytes[i], by, sizeof by);
    units_format_bytes(b->size, al, sizeof al);
    char v[2][96], ex[64];
    units_format_bytes_exact(l->bytes[i], ex, sizeof ex); /* under 1 KiB once: "0 B", not "0 B (0 B)" */
    snprintf(v[0], sizeof v[0], "bytes   %s", ex);
    snprintf(v[1], sizeof v[1], "bytes   %s", by);
    tui_put_fit(t, y++, x, w, t->attr[T_NORMAL], (const char *const[]){ v[0], v[1] }, 2);
    if (b->size != l->bytes[i])
        tui_putf(t, y++, x, w, t->attr[T_DIM], "        aligned %s", al);
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "span    steps %lld-%lld", (long long)b->start, (long long)b->end);
    char of[32];
    const char *ofs = tui_bytes(b->offset, w - 8, of, sizeof of);
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "offset  %s", ofs + strspn(ofs, " "));
    tui_putf(t, y++, x, w, t->attr[role_attr_slot(b->role)], "role    %s", ROLE_NAMES[b->role]);
    char alias[600];
    if (routine_into_text(r, i, alias, sizeof alias)[0]) /* §10's donated buffers */
        tui_putf(t, y++, x, w, t->attr[T_NORMAL], "alias   %s", alias);
    /* where it came from (§10): the HLO name, op_name, and the file's last
     * part with the line, which is what fits the pane */
    const routine_node_t *nd = &r->nodes[i];
    if (nd->origin->hlo && strcmp(nd->origin->hlo, nd->name) != 0)
        tui_putf(t, y++, x, w, t->attr[T_NORMAL], "hlo     %%%s", nd->origin->hlo);
    if (nd->origin->op_name)
        tui_putf(t, y++, x, w, t->attr[T_NORMAL], "op_name %s", nd->origin->op_name);
    if (nd->origin->source)
        tui_putf(t, y++, x, w, t->attr[T_NORMAL], "source  %s", source_short(t, i));
    if (nd->origin->function)
        tui_putf(t, y++, x, w, t->attr[T_NORMAL], "in      %s", nd->origin->function);
    /* readers: the nodes whose steps read it */
    char rd[256] = "";
    size_t rw = 0;
    int shown = 0, total = 0;
    int32_t last = -1;
    for (int32_t k = l->rd_off[i]; k < l->rd_off[i + 1]; k++) {
        int32_t owner = l->step_owner[l->rd_step[k]];
        if (owner == last)
            continue;
        last = owner;
        total++;
        if (shown < 6 && rw < sizeof rd - 40) {
            rw += (size_t)snprintf(rd + rw, sizeof rd - rw, "%s%s%s", shown ? ", " : "", r->nodes[owner].name,
                                   t->det.place.is_inline[owner] ? "*" : "");
            shown++;
        }
    }
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "readers %s%s", total ? rd : "(none)", total > shown ? ", ..." : "");
    if (total && rw && strchr(rd, '*'))
        tui_put(t, y++, x, w, t->attr[T_DIM], "        * inline: read through it");
    for (int32_t k = 0; k < t->n_cand; k++)
        if (t->cand[k].node == i && t->cand[k].dir == FLIP_INLINE) {
            char fl[32], tm[32];
            units_format_flops(t->cand[k].cost_bound, fl, sizeof fl);
            tui_putf(t, y++, x, w, t->attr[T_NORMAL], "cost    %s to recompute", fl);
            if (t->tgt.has_profile && t->tgt.profile.flops_per_s > 0) {
                units_format_seconds(profile_seconds(&t->tgt.profile, t->cand[k].cost_bound), tm, sizeof tm);
                tui_putf(t, y++, x, w, t->attr[T_DIM], "        about %s on %s", tm, t->tgt.profile.name);
            }
            break;
        }
    y = tui_frontier_details(t, &ARENA(t), t->sel_buf, y, x, w);
    if (t->plan && !t->show_frontier) { /* the two-round plan's: the frontier plan's are above */
        const fit_cand_t *c = trace_cand(t->plan, i);
        if (c && c->solo >= 0) {
            char rel[32];
            units_format_bytes(c->relief < 0 ? -c->relief : c->relief, rel, sizeof rel);
            tui_putf(t, y++, x, w, t->attr[T_NORMAL], "solo    relief %s%s (rank %d)", c->relief < 0 ? "-" : "", rel,
                     (int)c->rank);
            tui_putf(t, y++, x, w, t->attr[T_NORMAL], "fit     %s", fit_status_name((fit_status_t)c->status));
        }
        y = flip_details(t, i, y, x, w);
    }
    y++;
    tui_put(t, y++, x, w, t->attr[T_DIM], "legend");
    static const char *gu[ROLE_COUNT] = { "▒", "▞", "▓", "█", "╳" };
    static const char *ga[ROLE_COUNT] = { ":", "&", "@", "#", "x" };
    for (int k = 0; k < ROLE_COUNT; k++) {
        tui_put(t, y, x + 1, 1, t->attr[role_attr_slot((uint8_t)k)], t->utf8 ? gu[k] : ga[k]);
        tui_put(t, y++, x + 3, w - 3, t->attr[T_DIM], ROLE_NAMES[k]);
    }
    y = tui_frontier_legend(t, &ARENA(t), y, x, w);
    /* the lines across the picture: narrow, the head row has no room for their labels */
    char lb[32];
    if (ARENA(t).has_floor && ARENA(t).floor.bytes > 0) {
        units_format_bytes(ARENA(t).floor.bytes, lb, sizeof lb);
        tui_put(t, y, x + 1, 1, t->attr[T_PEAK], tui_glyph(t, "╌", "="));
        tui_putf(t, y++, x + 3, w - 3, t->attr[T_DIM], "floor %s: no plan is below", lb);
    }
    if (t->budget >= 0) {
        char typed[96]; /* as typed, with its bytes: "8GB = 7.45 GiB" */
        units_format_budget(t->budget_text, false, t->budget, typed, sizeof typed);
        tui_put(t, y, x + 1, 1, t->attr[T_BUDGET], tui_glyph(t, "─", "-"));
        tui_putf(t, y++, x + 3, w - 3, t->attr[T_DIM], "budget %s", typed);
    }
}

static const char *ROLE_SHORT[ROLE_COUNT] = { "res", "pin", "out", "cand", "rej" };

/* The live bytes at the cursor's step by role (DESIGN §13's peak by role
 * at the peak) as fields in f, in the design's order; when they do not all
 * fit max_rows rows of w columns, candidate leads: what the planner can
 * relieve, the role a user tuning recompute most needs, goes last (it was
 * the one "… 1 more" hid at 80 columns). */
static void role_fields(tui_t *t, int w, int max_rows, char f[FLOOR_ROLES][64], const char *fields[FLOOR_ROLES])
{
    int64_t role[FLOOR_ROLES];
    if (!tui_frontier_roles(t, &ARENA(t), t->step_cursor, role)) /* the frontier plan's steps are its own */
        floor_split_at(t->tgt.lowering, &t->det, &t->tgt.cfg, (int32_t)t->step_cursor, role);
    for (int r = 0; r < FLOOR_ROLES; r++) {
        char b[32];
        units_format_bytes(role[r], b, sizeof b);
        snprintf(f[r], sizeof f[r], "%s %s", floor_role_name((lower_role_t)r), b);
        fields[r] = f[r];
    }
    if (tui_fields_rows(fields, FLOOR_ROLES, w, 2, ", ") > max_rows) {
        for (int r = LOWER_CANDIDATE; r > 0; r--)
            fields[r] = fields[r - 1];
        fields[0] = f[LOWER_CANDIDATE];
    }
}

/* The rows the roles take at most: all they need when the step's list
 * below (list_rows without them) still shows its live_n buffers whole or
 * keeps 6 rows (it scrolls: a row fewer hides nothing Up/Down does not
 * reach, where a dropped role is gone), else 2. */
static int role_rows(tui_t *t, int w, int list_rows, int32_t live_n)
{
    char f[FLOOR_ROLES][64];
    const char *fields[FLOOR_ROLES];
    role_fields(t, w, FLOOR_ROLES, f, fields);
    int need = tui_fields_rows(fields, FLOOR_ROLES, w, 2, ", ");
    if (need <= 2)
        return 2;
    return list_rows - need >= live_n || list_rows - need >= 6 ? need : 2;
}

/* The roles on at most max_rows rows from y; returns the rows used. */
static int by_role(tui_t *t, int y, int x, int w, int max_rows)
{
    char f[FLOOR_ROLES][64];
    const char *fields[FLOOR_ROLES];
    role_fields(t, w, max_rows, f, fields);
    return tui_put_fields(t, y, x, w, max_rows, 2, t->attr[T_DIM], fields, FLOOR_ROLES, ", ");
}

/* A buffer's name as the step list shows it: an @into buffer (0 B) names
 * the input it is written into ("out→x"). */
static const char *buf_label(const tui_t *t, int32_t node, char *buf, size_t n)
{
    int32_t into = lower_into(t->tgt.lowering, node);
    if (into < 0)
        return t->tgt.routine->nodes[node].name;
    snprintf(buf, n, "%s%s%s", t->tgt.routine->nodes[node].name, tui_glyph(t, "→", ">"), t->tgt.routine->nodes[into].name);
    return buf;
}

/* The names of the buffers live at a step, for tui_name_col. */
typedef struct live_names {
    const tui_t *t;
    const int32_t *live;
} live_names_t;

static const char *live_name(const void *ud, int i, char *buf, size_t n)
{
    const live_names_t *ln = ud;
    return buf_label_at(ln->t, ln->live[i], buf, n);
}

static const char *live_source(const void *ud, int i, char *buf, size_t n)
{
    (void)buf, (void)n;
    const live_names_t *ln = ud;
    const char *src = source_short(ln->t, ARENA(ln->t).bufs[ln->live[i]].node);
    return src ? src : "";
}

/* Under a list too narrow for a source column: whose source it is (the
 * row alone, "source (not said)", read as a stray word beside the
 * footer), the source whole, the name giving way. */
static void source_row(tui_t *t, int y, int x, int w, int32_t node)
{
    const char *src = source_short(t, node);
    char buf[600], clip[200];
    const char *name = buf_label(t, node, buf, sizeof buf);
    int sl = src ? tui_cols(src) : (int)strlen("no source");
    int room = w - 10 - 2 - sl, nl = tui_cols(name); /* "source of " and ": " */
    room = room < 6 ? 6 : room < nl ? room : nl;
    tui_putf(t, y, x, w, t->attr[T_DIM], "source of %s: ", tui_clip_name(t, name, room, clip, sizeof clip));
    int at = 10 + tui_cols(clip) + 2;
    if (src)
        tui_put_left_cut(t, y, x + at, w - at, t->attr[T_NORMAL], src);
    else
        tui_put(t, y, x + at, w - at, t->attr[T_DIM], "no source");
}

/* The step inspector: the buffers live at the cursor's step, largest
 * first, and the live total against the max-live bound.  For a routine
 * whose nodes name their source lines, a pane of 46 columns or more has a
 * source column; a narrower one gives the highlighted buffer's source on
 * its last row. */
static void inspector(tui_t *t, int y, int x, int w, int h)
{
    int32_t *live = malloc(((size_t)ARENA(t).n + 1) * sizeof *live);
    if (!live)
        return;
    int32_t m = view_live_at(ARENA(t).bufs, ARENA(t).n, t->step_cursor, live);
    t->insp_n = m;
    if (t->insp_sel >= m)
        t->insp_sel = m ? m - 1 : 0;
    int64_t total = ARENA(t).live[t->step_cursor];
    char tot[32], lp[32];
    units_format_bytes(total, tot, sizeof tot);
    units_format_bytes(ARENA(t).fp.live_peak, lp, sizeof lp);
    char note[200];
    tui_putf(t, y++, x, w, t->attr[T_SELECTED], " step %lld%s%s ", (long long)t->step_cursor,
             t->step_cursor == ARENA(t).fp.peak_step ? " (the peak)" : "",
             tui_frontier_step_note(t, &ARENA(t), t->step_cursor, note, sizeof note));
    tui_putf(t, y++, x, w, t->attr[T_NORMAL], "live %s of max live %s", tot, lp);
    /* name, bytes (9), role (4), offset (10, more when the offsets'
     * digits fit: a wider offset is said in units), then the source */
    bool src_col = t->origins && w >= 46, src_row = t->origins && !src_col;
    int split = by_role(t, y, x, w, role_rows(t, w, h - 4 - src_row, m));
    y += split;
    h -= split;
    int nw = w - 26, ow = 10;
    int rows = h - 4 - src_row, top = t->insp_sel >= rows ? t->insp_sel - rows + 1 : 0;
    /* over every buffer live here, so the columns do not jump as the list scrolls */
    int64_t max_off = 0;
    for (int32_t k = 0; k < m; k++)
        max_off = ARENA(t).bufs[live[k]].offset > max_off ? ARENA(t).bufs[live[k]].offset : max_off;
    char digits[32];
    int extra = snprintf(digits, sizeof digits, "%lld", (long long)max_off) - ow;
    if (extra < -4) /* "offset" is 6 */
        extra = -4;
    if (extra < 0) { /* offsets of 8 digits: the names take the 2 columns (broadcast.12 whole at 80) */
        ow += extra, nw -= extra;
        extra = 0;
    }
    if (src_col) {
        /* the offset's digits while the name and source keep 10 each; then
         * the source what the longest live here needs, up to half of what
         * is left (a file name cut to "…tep.py:143" says nothing; a name
         * cut in its middle still does), the names the rest up to what
         * theirs need (the columns do not jump as the list scrolls): at
         * 160 columns batch_norm_training.230 whole, not batch_norm_t…,
         * and train_step.py:143 beside the longest parameter names */
        if (extra > 0 && w - 17 - ow - extra >= 20)
            ow += extra;
        live_names_t ln = { t, live };
        int left = w - 17 - ow, half = left / 2 > 10 ? left / 2 : 10;
        int src_need = tui_name_col((int)m, live_source, &ln, 10, half);
        nw = tui_name_col((int)m, live_name, &ln, 10, left - src_need);
    } else if (extra > 0 && nw - extra >= 10) {
        nw -= extra, ow += extra;
    }
    int sw = w - 17 - ow - nw;
    if (src_col)
        tui_putf(t, y++, x, w, t->attr[T_DIM], "%-*s %9s %-4s %*s %s", nw, "buffer", "bytes", "role", ow, "offset",
                 "source");
    else
        tui_putf(t, y++, x, w, t->attr[T_DIM], "%-*s %9s %-4s %*s", nw, "buffer", "bytes", "role", ow, "offset");
    for (int k = 0; k < rows && top + k < m; k++) {
        const view_buf_t *b = &ARENA(t).bufs[live[top + k]];
        char by[32], nm[200], of[32];
        units_format_bytes(b->size, by, sizeof by);
        unsigned a = top + k == t->insp_sel ? t->attr[T_SELECTED] : t->attr[role_attr_slot(b->role)];
        int32_t into = lower_into(t->tgt.lowering, b->node);
        char name[600];
        tui_putf(t, y, x, w, a, "%s %9s %-4s %s%*s", tui_clip_name(t, buf_label_at(t, live[top + k], name, sizeof name), nw, nm, sizeof nm), by,
                 into >= 0 ? "into" : ROLE_SHORT[b->role], tui_bytes(b->offset, ow, of, sizeof of), src_col ? sw + 1 : 0, "");
        const char *src = src_col ? source_short(t, b->node) : NULL;
        if (src)
            tui_put_left_cut(t, y, x + nw + ow + 17, sw, a, src);
        y++;
    }
    if (m > rows)
        tui_putf(t, y, x, w, t->attr[T_DIM], "%d-%d of %d (Up/Down)", top + 1, top + rows < m ? top + rows : m, (int)m);
    if (src_row && t->insp_sel < m)
        source_row(t, y + (m > rows), x, w, ARENA(t).bufs[live[t->insp_sel]].node);
    free(live);
}

/* The buffer on row insp_sel of the inspector, or -1. */
static int inspected(const tui_t *t)
{
    int32_t *live = malloc(((size_t)ARENA(t).n + 1) * sizeof *live);
    if (!live)
        return -1;
    int32_t m = view_live_at(ARENA(t).bufs, ARENA(t).n, t->step_cursor, live);
    int b = t->insp_sel < m ? live[t->insp_sel] : -1;
    free(live);
    return b;
}

void screen_arena_draw(tui_t *t)
{
    if (!t->open)
        return;
    int pw = pane_w(t), w = t->cols - pw - 1;
    tui_answer_floor(t);
    /* the two arenas (F) have different steps and buffers */
    if (t->step_cursor >= ARENA(t).steps)
        t->step_cursor = ARENA(t).steps - 1;
    if (t->sel_buf >= ARENA(t).n)
        t->sel_buf = ARENA(t).n ? ARENA(t).n - 1 : 0;
    tui_draw_arena(t, &ARENA(t), t->budget, 2, 0, t->rows - 5, w, t->sel_buf, true);
    if (t->inspect)
        inspector(t, 2, w + 1, pw, t->rows - 5);
    else
        details(t, 2, w + 1, pw);
}

/* Moves the step cursor to s (clamped), the view following it. */
static void step_to(tui_t *t, int64_t s)
{
    if (s < 0)
        s = 0;
    if (s >= ARENA(t).steps)
        s = ARENA(t).steps - 1;
    t->step_cursor = s;
    t->inspect = true;
    t->insp_sel = 0;
    int b = inspected(t);
    if (b >= 0)
        t->sel_buf = b;
    if (t->view_step1 > t->view_step0 && (s < t->view_step0 || s >= t->view_step1)) {
        int64_t span = t->view_step1 - t->view_step0;
        t->view_step0 = s < t->view_step0 ? s : s - span + 1;
        t->view_step1 = t->view_step0 + span;
    }
}

static const char *buf_name(const tui_t *t, int i) { return t->tgt.routine->nodes[ARENA(t).bufs[i].node].name; }

static int32_t buf_node(const tui_t *t, int i) { return ARENA(t).bufs[i].node; }

/* The buffer a search for q lands on (an exact name first, then a name,
 * then a source line or function holding q), or -1. */
static int find_buf(const tui_t *t, const char *q, int from, bool *by_origin)
{
    return tui_find_node(t, ARENA(t).n, from, buf_node, q, by_origin);
}

/* What the search t->search[SCR_ARENA] found: buffer i selected, shown
 * in the pane's details and in view, and said ("dot.72: buffer 3 of 3017,
 * steps 10-40, 4.00 MiB"); i < 0: why there is no such buffer. */
static void show_match(tui_t *t, int i, bool by_origin)
{
    const char *q = t->search[SCR_ARENA];
    if (i < 0) {
        int32_t node = routine_find_node(t->tgt.routine, q);
        if (node >= 0)
            tui_status(t, true, "%s is inline here: it has no buffer (a materialized node has one)", q);
        else
            tui_status(t, true, "no buffer matches '%s' (of %d)", q, (int)ARENA(t).n);
        return;
    }
    t->sel_buf = i;
    t->inspect = false; /* the pane shows what was found */
    const view_buf_t *b = &ARENA(t).bufs[i];
    if (t->view_step1 > t->view_step0 && (b->end < t->view_step0 || b->start >= t->view_step1)) {
        int64_t span = t->view_step1 - t->view_step0; /* the same zoom, moved to the buffer's start */
        t->view_step0 = b->start + span > ARENA(t).steps ? ARENA(t).steps - span : b->start;
        t->view_step0 = t->view_step0 < 0 ? 0 : t->view_step0;
        t->view_step1 = t->view_step0 + span;
    }
    int more = 0;
    for (int k = 0; k < ARENA(t).n; k++)
        more += k != i && tui_node_matches(t, ARENA(t).bufs[k].node, q);
    char by[32], at[600] = "";
    units_format_bytes(b->size, by, sizeof by);
    if (by_origin) { /* what of it matched: "fusion.661 (train_step.py:43 in attention)" */
        const routine_origin_t *o = t->tgt.routine->nodes[b->node].origin;
        const char *src = source_short(t, b->node);
        snprintf(at, sizeof at, " (%.250s%s%.250s)", src ? src : "", src && o->function ? " in " : "",
                 o->function ? o->function : "");
    }
    tui_status(t, false, "%s%s: buffer %d of %d, steps %lld-%lld, %s%s", buf_name(t, i), at, i + 1, (int)ARENA(t).n,
               (long long)b->start, (long long)b->end, by, more ? " (N: the next match)" : "");
}

/* Says the zoom (after =, -, 0, < and >), so no older "zoomed to" stays. */
static void say_zoom(tui_t *t)
{
    if (t->view_step1 <= t->view_step0)
        tui_status(t, false, "the whole routine: steps 0-%lld", (long long)ARENA(t).steps - 1);
    else
        tui_status(t, false, "steps %lld-%lld of %lld (= in, - out, < > pan, 0 all)", (long long)t->view_step0,
                   (long long)t->view_step1 - 1, (long long)ARENA(t).steps);
}

static void zoom(tui_t *t, int dir)
{
    int64_t s0 = t->view_step0, s1 = t->view_step1, steps = ARENA(t).steps;
    if (s1 <= s0) {
        s0 = 0;
        s1 = steps;
    }
    int64_t span = s1 - s0, centre = (s0 + s1) / 2;
    int64_t ns = dir > 0 ? span / 2 : span * 2;
    if (ns < 4)
        ns = span < 4 ? span : 4;
    if (ns >= steps) {
        t->view_step0 = t->view_step1 = 0;
        return;
    }
    int64_t a = centre - ns / 2;
    if (a < 0)
        a = 0;
    if (a + ns > steps)
        a = steps - ns;
    t->view_step0 = a;
    t->view_step1 = a + ns;
}

/* The view becomes exactly the selected buffer's span. */
static void zoom_buffer(tui_t *t)
{
    if (!ARENA(t).n)
        return;
    const view_buf_t *b = &ARENA(t).bufs[t->sel_buf];
    const char *name = t->tgt.routine->nodes[b->node].name;
    if (b->start == 0 && b->end + 1 >= ARENA(t).steps)
        t->view_step0 = t->view_step1 = 0;
    else if (t->view_step0 == b->start && t->view_step1 == b->end + 1) {
        tui_status(t, false, "zoomed to %s: steps %lld-%lld (= zooms in further, 0 shows all)", name,
                   (long long)b->start, (long long)b->end);
        return;
    } else {
        t->view_step0 = b->start;
        t->view_step1 = b->end + 1;
    }
    tui_status(t, false, "zoomed to %s: steps %lld-%lld", name, (long long)b->start, (long long)b->end);
}

static void pan(tui_t *t, int dir)
{
    if (t->view_step1 <= t->view_step0)
        return;
    int64_t span = t->view_step1 - t->view_step0, d = span / 4 > 0 ? span / 4 : 1;
    int64_t a = t->view_step0 + (dir > 0 ? d : -d);
    if (a < 0)
        a = 0;
    if (a + span > ARENA(t).steps)
        a = ARENA(t).steps - span;
    t->view_step0 = a;
    t->view_step1 = a + span;
}

/* L's cycle: the contract, the fast one, the search. */
static layout_strategy_t next_layout(layout_strategy_t s)
{
    return s == LAYOUT_GREEDY ? LAYOUT_TIMELINE : s == LAYOUT_TIMELINE ? LAYOUT_TIGHT : LAYOUT_GREEDY;
}

int screen_arena_key(tui_t *t, action_t a, int key)
{
    (void)key;
    if (!t->open)
        return KEY_UNHANDLED;
    int n = ARENA(t).n;
    if (t->inspect && (a == ACT_UP || a == ACT_DOWN)) { /* along the step's list, selecting in the arena */
        if (a == ACT_UP)
            t->insp_sel -= t->insp_sel > 0;
        else
            t->insp_sel += t->insp_sel + 1 < t->insp_n;
        int b = inspected(t);
        if (b >= 0)
            t->sel_buf = b;
        return KEY_REDRAW;
    }
    switch (a) {
    case ACT_STEP_PREV: step_to(t, t->inspect ? t->step_cursor - 1 : ARENA(t).fp.peak_step); return KEY_REDRAW;
    case ACT_STEP_NEXT: step_to(t, t->inspect ? t->step_cursor + 1 : ARENA(t).fp.peak_step); return KEY_REDRAW;
    case ACT_STEP_PEAK: step_to(t, ARENA(t).fp.peak_step); return KEY_REDRAW;
    case ACT_OPEN: t->inspect = !t->inspect; return KEY_REDRAW;
    case ACT_UP: t->sel_buf = n ? (t->sel_buf + n - 1) % n : 0; return KEY_REDRAW;
    case ACT_DOWN: t->sel_buf = n ? (t->sel_buf + 1) % n : 0; return KEY_REDRAW;
    case ACT_TOP: t->sel_buf = 0; return KEY_REDRAW;
    case ACT_BOTTOM: t->sel_buf = n ? n - 1 : 0; return KEY_REDRAW;
    case ACT_PGUP: t->sel_buf = t->sel_buf >= 10 ? t->sel_buf - 10 : 0; return KEY_REDRAW;
    case ACT_PGDN: t->sel_buf = t->sel_buf + 10 < n ? t->sel_buf + 10 : (n ? n - 1 : 0); return KEY_REDRAW;
    case ACT_ZOOM_IN: zoom(t, 1); say_zoom(t); return KEY_REDRAW;
    case ACT_ZOOM_BUFFER: zoom_buffer(t); return KEY_REDRAW;
    case ACT_ZOOM_OUT: zoom(t, -1); say_zoom(t); return KEY_REDRAW;
    case ACT_ZOOM_RESET: t->view_step0 = t->view_step1 = 0; say_zoom(t); return KEY_REDRAW;
    case ACT_LEFT: pan(t, -1); say_zoom(t); return KEY_REDRAW;
    case ACT_RIGHT: pan(t, 1); say_zoom(t); return KEY_REDRAW;
    case ACT_SET_BUDGET: {
        char buf[64] = "";
        if (tui_prompt(t, "budget line (48MiB, 60%, device, none): ", buf, sizeof buf, false)) {
            budget_spec_t spec;
            rs_error_t err;
            int64_t bytes;
            bool minimize;
            if (strcmp(buf, "none") == 0 || !buf[0])
                t->budget = -1;
            else if (units_parse_budget(buf, "budget", &spec, &err) ||
                     units_budget_resolve(&spec, t->arena.fp.total, /* of the baseline */
                                          t->tgt.has_profile ? t->tgt.profile.memory_bytes : -1, &bytes, &minimize,
                                          &err))
                tui_error(t, NULL, &err);
            else {
                t->budget = minimize ? -1 : bytes;
                snprintf(t->budget_text, sizeof t->budget_text, "%s", buf); /* the Fit prompt offers it */
            }
        }
        return KEY_REDRAW;
    }
    case ACT_LAYOUT: {
        char dropped[160];
        if (tui_fit_may_go(t, "changing the layout", dropped, sizeof dropped)) {
            tui_set_layout(t, next_layout(t->tgt.cfg.layout));
            if (dropped[0] && !t->status_error)
                tui_status_append(t, dropped);
        }
        return KEY_REDRAW;
    }
    case ACT_EXPORT_SVG: tui_export_svg(t); return KEY_REDRAW;
    case ACT_RUN_FIT:
        if (tui_fit_ask(t))
            t->screen = SCR_FIT;
        return KEY_REDRAW;
    case ACT_SET_CAP: tui_set_cap(t); return KEY_REDRAW; /* as on Fit: the floor's question under the cap names C */
    case ACT_SEARCH: {
        char buf[64] = "";
        if (tui_prompt(t, "node: ", buf, sizeof buf, false) && buf[0]) {
            snprintf(t->search[SCR_ARENA], sizeof t->search[SCR_ARENA], "%s", buf);
            bool by_origin = false;
            int i = find_buf(t, buf, 0, &by_origin);
            show_match(t, i, by_origin);
        }
        return KEY_REDRAW;
    }
    case ACT_SEARCH_NEXT:
        if (!t->search[SCR_ARENA][0])
            tui_status(t, false, "/ finds a node first; N then finds the next match");
        else {
            bool by_origin = false;
            int i = find_buf(t, t->search[SCR_ARENA], t->sel_buf + 1, &by_origin);
            show_match(t, i, by_origin);
        }
        return KEY_REDRAW;
    default:
        return KEY_UNHANDLED;
    }
}

int screen_arena_click(tui_t *t, int y, int x)
{
    if (!t->open)
        return KEY_HANDLED;
    int b = tui_arena_buffer_at(t, &ARENA(t), t->budget, t->rows - 5, t->cols - pane_w(t) - 1, true, y - 2, x);
    if (b >= 0)
        t->sel_buf = b;
    return KEY_REDRAW;
}
