/* tui_pair: two plans on one arena, opened from Plans (D on two plans of
 * one routine) or Compare (D on two rows): the second plan's arena with
 * what it holds that the first did not marked "+", what the first held and
 * it does not hatched, both footprints in bytes, and the two flip lists
 * side by side.  view_diff_buffers does the classifying. */
#include "tui/tui_pair.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "model/units.h"
#include "rebuild.h"
#include "text.h"
#include "tui/tui_arena.h"
#include "tui/tui_draw.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"

#define WIDE_COLS 120 /* from here the flip lists go beside the arena, a third of the width */
#define HEAD_ROWS 4 /* title, totals, peaks and the counts' first row (narrow, they take more) */
#define MAX_BUF_LINES 1000 /* buffers named in the text, the biggest first */

static void free_lines(char **l, int n)
{
    for (int i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

void tui_pair_close(tui_t *t)
{
    tui_pair_t *p = &t->pair;
    tui_arena_free(&p->arena);
    for (int k = 0; k < 2; k++)
        free_lines(p->flips[k], p->n_flips[k]);
    free_lines(p->text, p->n_text);
    memset(p, 0, sizeof *p);
}

bool tui_pair_shown(const tui_t *t, screen_id_t s) { return t->pair.on && t->pair.screen == s; }

/* The longer flip list's length. */
static int most_flips(const tui_pair_t *p) { return p->n_flips[0] > p->n_flips[1] ? p->n_flips[0] : p->n_flips[1]; }

/* Plan k's flips as lines: '-' (first plan) or '+' (second) before a flip
 * the other plan lacks. */
static bool flip_lines(tui_pair_t *p, int k, const tui_pair_plan_t *me, const tui_pair_plan_t *other)
{
    p->flips[k] = calloc((size_t)me->n_flips + 1, sizeof *p->flips[k]);
    if (!p->flips[k])
        return false;
    for (int32_t i = 0; i < me->n_flips; i++) {
        bool both = false;
        for (int32_t j = 0; j < other->n_flips && !both; j++)
            both = strcmp(me->flip[i], other->flip[j]) == 0;
        char rel[32], line[256];
        units_format_bytes(me->relief[i], rel, sizeof rel);
        snprintf(line, sizeof line, "%c %s (%s)", both ? ' ' : k ? '+' : '-', me->flip[i], rel);
        if (!(p->flips[k][p->n_flips[k]++] = strdup(line)))
            return false;
    }
    return true;
}

/* A buffer that differs: one of b's (kind new, extended, shortened; from
 * a's buffer from, or -1) or one of a's that b frees (kind -1). */
typedef struct differ {
    int64_t size;
    int32_t node, buf, from;
    int kind;
} differ_t;

static int by_size(const void *x, const void *y)
{
    const differ_t *a = x, *b = y;
    if (a->size != b->size)
        return a->size < b->size ? 1 : -1;
    return (a->node > b->node) - (a->node < b->node);
}

static const char *node_name(const routine_t *r, int32_t node, char *buf, size_t n)
{
    if (r && node >= 0 && node < r->n_nodes)
        return r->nodes[node].name;
    snprintf(buf, n, "node %d", (int)node);
    return buf;
}

/* "+ grad steps 2-4 -> 2-5, 1.00 MiB", "+ gw new: steps 4-5, 4.00 MiB",
 * "░ gw freed: steps 4-5, 4.00 MiB" */
static void differ_line(const tui_t *t, const differ_t *d, const tui_pair_plan_t *a, const view_buf_t *an,
                        const tui_pair_plan_t *b, const arena_view_t *bv, char *line, size_t n)
{
    char nb[32], sz[32];
    units_format_bytes(d->size, sz, sizeof sz);
    if (d->kind < 0) {
        const view_buf_t *q = &a->arena.bufs[d->buf];
        snprintf(line, n, "%s %s freed: steps %lld-%lld, %s", tui_glyph(t, "░", "."),
                 node_name(a->routine, q->node, nb, sizeof nb), (long long)q->start, (long long)q->end, sz);
        return;
    }
    const view_buf_t *q = &bv->bufs[d->buf];
    const char *name = node_name(b->routine, q->node, nb, sizeof nb);
    if (d->kind == VIEW_NEW)
        snprintf(line, n, "+ %s new: steps %lld-%lld, %s", name, (long long)q->start, (long long)q->end, sz);
    else
        snprintf(line, n, "%c %s steps %lld-%lld -> %lld-%lld, %s", d->kind == VIEW_EXTENDED ? '+' : ' ', name,
                 (long long)an[d->from].start, (long long)an[d->from].end, (long long)q->start, (long long)q->end,
                 sz);
}

/* The buffers that differ, a line each, the biggest first (up to
 * MAX_BUF_LINES), appended to p->text after a heading (p->buf0 the first
 * line): b's new, extended and shortened ones (an: a's buffers numbered by
 * b's nodes, kind their classes), and a's that b frees. */
static bool buffer_lines(tui_t *t, const tui_pair_plan_t *a, const view_buf_t *an, const tui_pair_plan_t *b,
                         const arena_view_t *bv, const uint8_t *kind)
{
    tui_pair_t *p = &t->pair;
    int32_t top = -1;
    for (int32_t i = 0; i < bv->n; i++)
        top = bv->bufs[i].node > top ? bv->bufs[i].node : top;
    int32_t *of_a = malloc(((size_t)top + 2) * sizeof *of_a); /* b's node -> a's buffer, -1 */
    bool *kept = calloc((size_t)a->arena.n + 1, sizeof *kept);
    differ_t *d = malloc(((size_t)bv->n + (size_t)a->arena.n + 1) * sizeof *d);
    bool ok = of_a && kept && d;
    int32_t m = 0;
    for (int32_t i = 0; ok && i <= top; i++)
        of_a[i] = -1;
    for (int32_t i = 0; ok && i < a->arena.n; i++)
        if (an[i].node >= 0 && an[i].node <= top)
            of_a[an[i].node] = i;
    for (int32_t i = 0; ok && i < bv->n; i++) {
        int32_t k = of_a[bv->bufs[i].node];
        if (k >= 0)
            kept[k] = true;
        if (kind[i] == VIEW_NEW || kind[i] == VIEW_EXTENDED || kind[i] == VIEW_SHORTENED)
            d[m++] = (differ_t){ bv->bufs[i].size, bv->bufs[i].node, i, k, kind[i] };
    }
    for (int32_t i = 0; ok && i < a->arena.n; i++)
        if (!kept[i])
            d[m++] = (differ_t){ a->arena.bufs[i].size, an[i].node, i, -1, -1 };
    int32_t shown = m < MAX_BUF_LINES ? m : MAX_BUF_LINES;
    char **more = ok ? realloc(p->text, ((size_t)p->n_text + (size_t)shown + 4) * sizeof *more) : NULL;
    ok = more != NULL;
    if (ok) {
        p->text = more;
        qsort(d, (size_t)m, sizeof *d, by_size);
        char line[256];
        snprintf(line, sizeof line, "buffers that differ: %d", (int)m);
        ok = (p->text[p->n_text++] = strdup("")) && (p->text[p->n_text++] = strdup(line));
        p->buf0 = p->n_text;
        p->n_buf_lines = shown;
        p->n_differ = m;
        for (int32_t i = 0; ok && i < shown; i++) {
            differ_line(t, &d[i], a, an, b, bv, line, sizeof line);
            ok = (p->text[p->n_text++] = strdup(line)) != NULL;
        }
        if (ok && m > shown) {
            snprintf(line, sizeof line, "... and %d more, smaller", (int)(m - shown));
            ok = (p->text[p->n_text++] = strdup(line)) != NULL;
        }
    }
    free(of_a);
    free(kept);
    free(d);
    return ok;
}

bool tui_pair_open(tui_t *t, tui_pair_plan_t *a, tui_pair_plan_t *b, char *const *text, int n)
{
    tui_pair_close(t);
    tui_pair_t *p = &t->pair;
    /* a's buffers numbered by b's nodes of the same name; a node b's
     * routine lacks matches nothing */
    view_buf_t *an = malloc(((size_t)a->arena.n + 1) * sizeof *an);
    uint8_t *kind = malloc((size_t)b->arena.n + 1);
    bool ok = an && kind;
    for (int32_t i = 0; ok && i < a->arena.n; i++) {
        an[i] = a->arena.bufs[i];
        if (a->routine != b->routine)
            an[i].node = routine_find_node(b->routine, a->routine->nodes[an[i].node].name);
        if (an[i].node < 0)
            an[i].node = -1 - i;
    }
    view_buf_t *gone = NULL;
    int32_t n_gone = 0;
    ok = ok && view_diff_buffers(an, a->arena.n, b->arena.bufs, b->arena.n, kind, &gone, &n_gone) == RS_OK;
    if (!ok) {
        free(an);
        free(kind);
        tui_status(t, true, "out of memory");
        return false;
    }
    p->arena = b->arena;
    memset(&b->arena, 0, sizeof b->arena);
    p->arena.diff = kind;
    p->arena.gone = gone;
    p->arena.n_gone = n_gone;
    for (int32_t i = 0; i < n_gone; i++)
        if (gone[i].offset + gone[i].size > p->arena.gone_top)
            p->arena.gone_top = gone[i].offset + gone[i].size;
    for (int32_t i = 0; i < p->arena.n; i++)
        p->count[kind[i]]++;
    /* each of a's buffers b keeps is one of b's that is not new */
    p->n_freed = a->arena.n - (p->arena.n - p->count[VIEW_NEW]);
    const tui_pair_plan_t *side[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        snprintf(p->name[k], sizeof p->name[k], "%s", side[k]->name);
        snprintf(p->budget[k], sizeof p->budget[k], "%s", side[k]->budget);
    }
    p->fp[0] = a->arena.fp;
    p->fp[1] = p->arena.fp;
    p->text = calloc((size_t)n + 1, sizeof *p->text);
    ok = p->text && flip_lines(p, 0, a, b) && flip_lines(p, 1, b, a);
    for (int i = 0; ok && i < n; i++)
        ok = (p->text[p->n_text++] = strdup(text[i])) != NULL;
    ok = ok && buffer_lines(t, a, an, b, &p->arena, kind);
    free(an);
    if (!ok) {
        tui_pair_close(t);
        tui_status(t, true, "out of memory");
        return false;
    }
    p->on = true;
    p->screen = t->screen;
    return true;
}

/* "110 MiB (115343360 B)" */
static const char *bytes_exact(int64_t v, char *buf, size_t n)
{
    char u[32];
    units_format_bytes(v, u, sizeof u);
    snprintf(buf, n, "%s (%lld B)", u, (long long)v);
    return buf;
}

/* The two flip lists side by side in h rows of w columns from (y, x). */
static void draw_flips(tui_t *t, int y, int x, int h, int w)
{
    const tui_pair_t *p = &t->pair;
    int cw = (w - 1) / 2, most = most_flips(p);
    /* when the lists scroll, their last row says where they are: on the
     * counts row it covered the second plan's budget */
    bool scrolls = p->top + h - 2 < most || p->top > 0;
    int last = scrolls && h > 3 ? h - 1 : h;
    for (int k = 0; k < 2; k++) {
        int cx = x + k * (cw + 1);
        tui_put(t, y, cx, cw, t->attr[T_NORMAL] | A_BOLD, p->name[k]);
        tui_putf(t, y + 1, cx, cw, t->attr[T_DIM], "%d flip%s, %s", p->n_flips[k], p->n_flips[k] == 1 ? "" : "s",
                 p->budget[k]);
        if (!p->n_flips[k])
            tui_put(t, y + 2, cx, cw, t->attr[T_DIM], "  (none)");
        for (int r = 2; r < last && p->top + r - 2 < p->n_flips[k]; r++) {
            const char *s = p->flips[k][p->top + r - 2], *relief = strrchr(s, '(');
            /* the name gives way, never its relief: "+ broadcast.39… (64.0 KiB)" */
            tui_put_tail(t, y + r, cx, cw, s[0] == ' ' ? t->attr[T_NORMAL] : t->attr[k ? T_HELD : T_ACCEPTED] | A_BOLD,
                         s, relief && relief > s ? (size_t)(relief - s) - 1 : strlen(s));
        }
    }
    if (last < h) {
        char at[48];
        int n = snprintf(at, sizeof at, "flips %d-%d of %d (Up/Down)", p->top + 1,
                         p->top + last - 2 < most ? p->top + last - 2 : most, most);
        tui_put(t, y + h - 1, x + w - n, n, t->attr[T_DIM], at);
    }
}

/* The counts line at row y, its three groups as fields: narrow, it wraps
 * between groups (at 80 columns a 13.5k-instruction step's was cut,
 * "same …", its number lost).  Returns the rows it took. */
static int draw_counts(tui_t *t, int y)
{
    const tui_pair_t *p = &t->pair;
    char g[3][96];
    snprintf(g[0], sizeof g[0], "+ new %d, extended %d", p->count[VIEW_NEW], p->count[VIEW_EXTENDED]);
    snprintf(g[1], sizeof g[1], "%s freed %d, cut %d", tui_glyph(t, "░", "."), p->n_freed,
             p->arena.n_gone - p->n_freed);
    snprintf(g[2], sizeof g[2], "moved %d, shortened %d, same %d", p->count[VIEW_MOVED], p->count[VIEW_SHORTENED],
             p->count[VIEW_SAME]);
    const char *fields[3] = { g[0], g[1], g[2] };
    int rows = tui_put_fields(t, y, 1, t->cols - 2, 3, 2, t->attr[T_DIM], fields, 3, "   ");
    tui_put(t, y, 1, 1, t->attr[T_HELD], "+");
    return rows;
}

void tui_pair_draw(tui_t *t)
{
    const tui_pair_t *p = &t->pair;
    char b0[64], b1[64];
    tui_putf(t, 2, 1, t->cols - 2, t->attr[T_NORMAL] | A_BOLD, "%s -> %s on one arena   (Esc back, D text diff)",
             p->name[0], p->name[1]);
    int64_t d = p->fp[1].total - p->fp[0].total;
    tui_putf(t, 3, 1, t->cols - 2, t->attr[T_NORMAL], "arena    %s -> %s  %+.1f%%", bytes_exact(p->fp[0].total, b0, sizeof b0),
             bytes_exact(p->fp[1].total, b1, sizeof b1),
             p->fp[0].total ? 100.0 * (double)d / (double)p->fp[0].total : 0.0);
    char peaks[256];
    int n = snprintf(peaks, sizeof peaks, "max live %s @ step %lld -> %s @ step %lld",
                     bytes_exact(p->fp[0].live_peak, b0, sizeof b0), (long long)p->fp[0].peak_step,
                     bytes_exact(p->fp[1].live_peak, b1, sizeof b1), (long long)p->fp[1].peak_step);
    if (n > t->cols - 2) { /* narrow: the exact bytes of the totals stay, the peaks' go */
        units_format_bytes(p->fp[0].live_peak, b0, sizeof b0);
        units_format_bytes(p->fp[1].live_peak, b1, sizeof b1);
        snprintf(peaks, sizeof peaks, "max live %s @ step %lld -> %s @ step %lld", b0, (long long)p->fp[0].peak_step,
                 b1, (long long)p->fp[1].peak_step);
    }
    tui_put(t, 4, 1, t->cols - 2, t->attr[T_NORMAL], peaks);
    int y = 2 + HEAD_ROWS + draw_counts(t, 5) - 1, bottom = t->rows - 3;
    int ah, aw = t->cols, fy, fx = 0, fh, fw = t->cols;
    if (t->cols >= WIDE_COLS) {
        fw = t->cols / 3;
        aw = t->cols - fw - 1;
        ah = fh = bottom - y;
        fx = aw + 1;
        fy = y;
    } else {
        int most = most_flips(p);
        fh = 2 + (most < 1 ? 1 : most > 5 ? 5 : most);
        ah = bottom - y - fh;
        if (ah < 9) {
            fh -= 9 - ah;
            ah = 9;
        }
        fy = y + ah;
    }
    /* the arena as drawn for the open routine, but whole, with no budget
     * line or step cursor: those belong to the Arena screen */
    int64_t budget = t->budget, s0 = t->view_step0, s1 = t->view_step1;
    t->budget = -1;
    t->view_step0 = t->view_step1 = 0;
    tui_draw_arena(t, &p->arena, t->budget, y, 0, ah, aw, -1, false);
    t->budget = budget;
    t->view_step0 = s0;
    t->view_step1 = s1;
    int nb = p->buf0 > 0 ? p->n_buf_lines : 0; /* the buffers that differ, when there is room under the flips */
    if (t->cols >= WIDE_COLS && nb > 0) {
        int most = most_flips(p);
        int flips_h = 2 + (most < 1 ? 1 : most) + (most > 1); /* a row for "1-N of M" */
        if (flips_h > fh / 2)
            flips_h = fh / 2;
        int by = fy + flips_h + 1;
        const char *hatch = tui_glyph(t, "░", ".");
        tui_put(t, by, fx + 1, fw - 1, t->attr[T_NORMAL] | A_BOLD, p->text[p->buf0 - 1]);
        /* as many as fit, the last row saying how many more D lists */
        int room = bottom - by - 1, shown = nb > room ? room - 1 : nb;
        shown = shown < 0 ? 0 : shown;
        size_t gl = strlen(hatch);
        for (int r = 1; r <= shown; r++) {
            const char *l = p->text[p->buf0 + r - 1];
            bool freed = strncmp(l, hatch, gl) == 0 && l[gl] == ' ';
            const char *lead = freed ? l + gl + 1 : l + 2, *end = strchr(lead, ' '); /* the name ends at its blank */
            tui_put_tail(t, by + r, fx + 1, fw - 1,
                         l[0] == '+' ? t->attr[T_HELD] : freed ? t->attr[T_ACCEPTED] : t->attr[T_NORMAL], l,
                         end ? (size_t)(end - l) : strlen(l));
        }
        /* of all that differ: D's list keeps the biggest MAX_BUF_LINES ("986 more" of 4904 read as wrong) */
        if (shown < p->n_differ && room > 0 && p->n_differ > p->n_buf_lines)
            tui_putf(t, by + shown + 1, fx + 1, fw - 1, t->attr[T_DIM], "%s %d more (D lists the biggest %d)",
                     tui_glyph(t, "…", "..."), p->n_differ - shown, p->n_buf_lines);
        else if (shown < p->n_differ && room > 0)
            tui_putf(t, by + shown + 1, fx + 1, fw - 1, t->attr[T_DIM], "%s %d more (D lists all)",
                     tui_glyph(t, "…", "..."), p->n_differ - shown);
        fh = flips_h;
    }
    if (fh >= 3)
        draw_flips(t, fy, fx + 1, fh, fw - 1);
}

int tui_pair_key(tui_t *t, action_t a)
{
    tui_pair_t *p = &t->pair;
    int most = most_flips(p);
    switch (a) {
    case ACT_BACK: /* what was said of the two ("row 2 against row 1: D ...") goes with them */
        tui_pair_close(t);
        t->status[0] = 0;
        return KEY_REDRAW;
    case ACT_DIFF: tui_overlay(t, "Diff", p->text, p->n_text); return KEY_REDRAW;
    case ACT_UP: p->top -= p->top > 0; return KEY_REDRAW;
    case ACT_DOWN: p->top += p->top + 1 < most; return KEY_REDRAW;
    case ACT_PGUP: p->top = p->top > 5 ? p->top - 5 : 0; return KEY_REDRAW;
    case ACT_PGDN: p->top = p->top + 5 < most ? p->top + 5 : p->top; return KEY_REDRAW;
    case ACT_TOP: p->top = 0; return KEY_REDRAW;
    case ACT_BOTTOM: p->top = most > 0 ? most - 1 : 0; return KEY_REDRAW;
    case ACT_HELP: {
        static const help_row_t rows[] = {
            { ACT_BACK, "back to the list" },
            { ACT_DIFF, "every flip and buffer that differs, as text" },
            { ACT_UP, "scroll the flips up" },
            { ACT_DOWN, "scroll the flips down" },
            { ACT_PGUP, "five flips up" },
            { ACT_PGDN, "five flips down" },
            { ACT_TOP, "first flip" },
            { ACT_BOTTOM, "last flip" },
            { ACT_HELP, NULL }, { ACT_QUIT, NULL }, { ACT_REDRAW, NULL }, { ACT_GO_SESSION, NULL },
            { ACT_GO_ARENA, NULL }, { ACT_GO_FIT, NULL }, { ACT_GO_COMPARE, NULL }, { ACT_GO_PLANS, NULL },
        };
        tui_help_overlay_for(t, "Two plans on one arena", rows, (int)(sizeof rows / sizeof *rows));
        return KEY_REDRAW;
    }
    case ACT_QUIT: case ACT_REDRAW: case ACT_CURVE_STYLE:
    case ACT_GO_SESSION: case ACT_GO_ARENA: case ACT_GO_FIT: case ACT_GO_COMPARE: case ACT_GO_PLANS:
        return KEY_UNHANDLED;
    default:
        tui_status(t, false, "two plans on one arena: Esc goes back to the %s", t->screen == SCR_PLANS ? "plans" : "rows");
        return KEY_REDRAW;
    }
}

/* ---- two stored plans (Plans, D) ------------------------------------------------------ */

/* Plan p (loaded) as one side of the two-plan arena: its arena rebuilt
 * from the store into side (rb keeps its routine alive). */
static int pair_side(store_t *store, const stored_plan_t *p, rebuilt_t *rb, tui_pair_plan_t *side, const char **names,
                     int64_t *relief, rs_error_t *err)
{
    memset(side, 0, sizeof *side);
    score_detail_t d;
    int rc = export_plan_arena(store, p, rb, &side->arena.fp, &d, err);
    if (rc)
        return rc;
    if (view_buffers(rb->lowering, &d, &side->arena.bufs, &side->arena.n)) {
        score_detail_free(&d);
        rebuild_free(rb);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    score_detail_free(&d);
    side->arena.steps = rb->lowering->n_steps > 0 ? rb->lowering->n_steps : 1;
    char label[64];
    text_escape(p->label, label, sizeof label);
    snprintf(side->name, sizeof side->name, p->label[0] ? "plan %lld \"%s\"" : "plan %lld", (long long)p->id, label);
    plans_budget_text(p, side->budget, sizeof side->budget);
    side->routine = rb->routine;
    for (int32_t i = 0; i < p->n_flips; i++) {
        names[i] = p->flips[i].node;
        relief[i] = p->flips[i].relief;
    }
    side->flip = names;
    side->relief = relief;
    side->n_flips = p->n_flips;
    return RS_OK;
}

/* Both sides of D's arena, rebuilt from the store on a worker. */
typedef struct pair_work {
    store_t *store;
    const stored_plan_t *full;
    rebuilt_t rb[2];
    tui_pair_plan_t side[2];
    const char **names;
    int64_t *relief;
} pair_work_t;

static int pair_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    pair_work_t *w = ud;
    tui_job_doing(job, "plan %lld", (long long)w->full[0].id);
    tui_job_progress(job, 0, 2);
    int rc = pair_side(w->store, &w->full[0], &w->rb[0], &w->side[0], w->names, w->relief, err);
    if (!rc && tui_job_stopped(job))
        rc = error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
    tui_job_doing(job, "plan %lld", (long long)w->full[1].id);
    tui_job_progress(job, 1, 2);
    if (!rc && (rc = pair_side(w->store, &w->full[1], &w->rb[1], &w->side[1], w->names + w->full[0].n_flips,
                               w->relief + w->full[0].n_flips, err))) {
        tui_arena_free(&w->side[0].arena);
        rebuild_free(&w->rb[0]);
    }
    return rc;
}

void tui_pair_stored(tui_t *t, const stored_plan_t full[2], char *const *text, int n)
{
    pair_work_t w = { .store = t->store, .full = full };
    w.names = calloc((size_t)full[0].n_flips + (size_t)full[1].n_flips + 1, sizeof *w.names);
    w.relief = calloc((size_t)full[0].n_flips + (size_t)full[1].n_flips + 1, sizeof *w.relief);
    rs_error_t err;
    int rc = w.names && w.relief ? tui_wait(t, "rebuilding two plans' arenas", pair_work, &w, &err)
                                 : error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc == RS_ECANCELED) {
        tui_status(t, false, "D stopped");
    } else if (rc) {
        tui_error(t, NULL, &err);
    } else {
        if (tui_pair_open(t, &w.side[0], &w.side[1], text, n))
            tui_status(t, false, "plan %lld against plan %lld: D the text diff, Esc back", (long long)full[1].id,
                       (long long)full[0].id);
        for (int k = 0; k < 2; k++) {
            tui_arena_free(&w.side[k].arena);
            rebuild_free(&w.rb[k]);
        }
    }
    free(w.names);
    free(w.relief);
}
