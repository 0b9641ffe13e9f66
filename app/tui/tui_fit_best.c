/* The Fit screen's best-plan pane (x, I): the two-round plan's sentence
 * and the best or improved plan's beside it, the flips that differ, and
 * D's popup with the whole answer. */
#include "tui/tui_fit_best.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "best.h"
#include "model/units.h"
#include "text.h"
#include "tui/tui_draw.h"
#include "tui/tui_widgets.h"

/* The pane's two sentences: the two-round plan's totals and the best (or
 * improved) plan's, or that no subset fits (proved) or none was found in
 * the time limit, each in n bytes. */
static void best_lines(const tui_t *t, char *two_text, char *best_text, size_t n)
{
    const fit_plan_t *p = t->plan;
    const best_plan_t *b = &t->best;
    char two[32], bst[32], rec[96];
    units_format_bytes(p->final.total, two, sizeof two);
    text_recompute(p->final.compute - p->baseline.compute, p->baseline.compute, 0, "", rec, sizeof rec);
    snprintf(two_text, n, "two-round %s, recompute %s, %s", two, rec, text_count(p->n_flips, "flip", NULL));
    const char *what = b->kind == BEST_EXACT ? (b->proved ? "best (proved)" : "best found (not proved)")
                                             : (b->proved ? "improved (local optimum)" : "improved (stopped)");
    if (!b->found) { /* only a search that finished may say none fits: 337 subsets of 9324 candidates prove nothing */
        if (b->proved)
            snprintf(best_text, n, "%s: no subset of the %s fits", what, text_count(b->n_cands, "candidate", NULL));
        else
            snprintf(best_text, n, "best: none found in the time limit (not proved; %s of the %s scored)",
                     text_count(b->explored, "subset", NULL), text_count(b->n_cands, "candidate", NULL));
        return;
    }
    units_format_bytes(b->final.total, bst, sizeof bst);
    char free_flips[160];
    if (text_free_flips(p, b->n_flips, b->final.total, b->final.compute, free_flips, sizeof free_flips)) {
        /* the baseline met the budget: flips beside it only save bytes (nothing to say when they do not) */
        if (free_flips[0])
            snprintf(best_text, n, "%s %s: %s", what, bst, free_flips);
        else
            best_text[0] = 0;
        return;
    }
    text_recompute(b->final.compute - p->baseline.compute, p->baseline.compute, 0, "", rec, sizeof rec);
    snprintf(best_text, n, "%s %s, recompute %s, %s", what, bst, rec, text_count(b->n_flips, "flip", NULL));
}

/* The flips that differ between the best plan and the two-round one, as
 * fields: "differ:", then "+name" for each only in the best plan and
 * "-name" for each only in the two-round one ("none" when they agree).
 * Returns the count; *f and *fields (the caller frees both) hold them. */
static int best_differ(const tui_t *t, char (**f)[160], const char ***fields)
{
    const fit_plan_t *p = t->plan;
    const best_plan_t *b = &t->best;
    int cap = b->n_flips + p->n_flips + 2, m = 0;
    *f = calloc((size_t)cap, sizeof **f);
    *fields = calloc((size_t)cap, sizeof **fields);
    if (!*f || !*fields)
        return 0;
    snprintf((*f)[m++], sizeof (*f)[0], "differ:");
    for (int32_t i = 0; i < b->n_flips; i++)
        if (!best_plan_has(p, b->flips[i]))
            snprintf((*f)[m++], sizeof (*f)[0], "+%s", t->tgt.routine->nodes[b->flips[i]].name);
    for (int32_t i = 0; i < p->n_flips; i++)
        if (!best_has(b, p->flips[i].node))
            snprintf((*f)[m++], sizeof (*f)[0], "-%s", t->tgt.routine->nodes[p->flips[i].node].name);
    if (m == 1)
        snprintf((*f)[m++], sizeof (*f)[0], "none");
    for (int i = 0; i < m; i++)
        (*fields)[i] = (*f)[i];
    return m;
}

/* The best (or improved) plan beside the two-round one: footprint,
 * recompute and the flips that differ, over the arena the caller draws
 * below.  The two sentences get the pane's rows they need (at 80 columns
 * the pane is 16 wide: they took three rows each and were cut mid-answer,
 * the rows below blank); the differ list three rows while the arena below
 * keeps the 7 it needs, else what is left.  When something is still cut,
 * the last of those rows says "(D lists all)": D shows the whole answer in
 * a popup. */
int tui_fit_best_draw(tui_t *t, int y, int x, int w, int bottom)
{
    const best_plan_t *b = &t->best;
    int left = bottom - y;
    char two_text[256], best_text[256];
    best_lines(t, two_text, best_text, sizeof two_text);
    int n1 = tui_prose_rows(two_text, w, 2), n2 = tui_prose_rows(best_text, w, 2);
    int r1 = n1 < left - n2 ? n1 : left - n2 > 1 ? left - n2 : 1;
    bool cut1, cut2;
    y += tui_put_prose(t, y, x, w, r1, 2, t->attr[T_DIM], two_text, &cut1);
    left = bottom - y;
    y += tui_put_prose(t, y, x, w, left, 2, (b->found ? t->attr[T_ACCEPTED] : t->attr[T_NORMAL]) | A_BOLD, best_text,
                       &cut2);
    left = bottom - y;
    bool cut = cut1 || cut2;
    if (b->found && best_text[0]) { /* "" : flips beside a baseline that met the budget, saving nothing */
        char(*f)[160] = NULL;
        const char **fields = NULL;
        int m = best_differ(t, &f, &fields);
        if (m) {
            /* three rows and one for "(D lists all)" above the arena's 7 */
            int most = left >= 3 + 1 + 7 ? 3 : left >= 3 + 7 ? 2 : left, need = tui_fields_rows(fields, m, w, 2, " ");
            cut = cut || need > most;
            int rows = cut && most == left && most > 1 ? most - 1 : most;
            if (rows >= 2 || need <= rows)
                y += tui_put_fields(t, y, x, w, rows, 2, t->attr[T_NORMAL], fields, m, " ");
            else if (rows == 1) /* no room for a name and "… N more" after "differ:" */
                tui_putf(t, y++, x, w, t->attr[T_NORMAL], "%d flip%s differ", m - 1, m == 2 ? "" : "s");
        }
        free(f);
        free(fields);
    }
    left = bottom - y;
    if (cut && left > 0)
        tui_put(t, y++, x, w, t->attr[T_DIM], "(D lists all)");
    return y;
}

/* D: the best (or improved) plan's answer in full in a popup. */
void tui_fit_best_popup(tui_t *t)
{
    if (!t->show_best || !t->best.kind) {
        tui_status(t, true, "D: no best plan shown (x finds the best plan, I an improved one)");
        return;
    }
    char two_text[256], best_text[256];
    best_lines(t, two_text, best_text, sizeof two_text);
    char(*f)[160] = NULL;
    const char **fields = NULL;
    int m = t->best.found ? best_differ(t, &f, &fields) : 0;
    char **lines = calloc((size_t)m + 4, sizeof *lines);
    if (lines) {
        int k = 0;
        lines[k++] = two_text;
        lines[k++] = best_text;
        char head[96];
        bool none = m == 2 && strcmp(fields[1], "none") == 0;
        if (none)
            snprintf(head, sizeof head, "no flip differs");
        else
            snprintf(head, sizeof head, "%d flip%s differ%s (+ only in it, - only in the two-round plan):", m - 1,
                     m == 2 ? "" : "s", m == 2 ? "s" : "");
        if (m)
            lines[k++] = head;
        for (int i = 1; i < m && !none; i++)
            lines[k++] = f[i];
        tui_overlay(t, t->best.kind == BEST_EXACT ? "The best plan" : "The improved plan", lines, k);
    }
    free(lines);
    free(f);
    free(fields);
}
