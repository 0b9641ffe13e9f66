/* tui_rows: Compare's rows moved and freed whole (tui_rows.h). */
#include "tui/tui_rows.h"

#include <stdio.h>
#include <string.h>

bool tui_rows_add(tui_t *t, const char *budget)
{
    if (t->n_cmp_rows >= TUI_MAX_BUDGETS)
        return false;
    compare_row_t *r = &t->cmp_rows[t->n_cmp_rows++];
    memset(r, 0, sizeof *r);
    snprintf(r->budget, sizeof r->budget, "%s", budget);
    return true;
}

void tui_rows_clear(compare_row_t *r, bool keep_best)
{
    fit_plan_free(r->plan);
    r->plan = NULL;
    r->elapsed_us = 0;
    r->saved = false; /* a plan fitted again is not the one stored */
    if (!keep_best)
        best_plan_free(&r->best);
}

/* Index *at after rows i and j changed places. */
static void follow_swap(int *at, int i, int j)
{
    if (*at == i)
        *at = j;
    else if (*at == j)
        *at = i;
}

void tui_rows_swap(tui_t *t, int i, int j)
{
    compare_row_t r = t->cmp_rows[i];
    t->cmp_rows[i] = t->cmp_rows[j];
    t->cmp_rows[j] = r;
    follow_swap(&t->cmp_sel, i, j);
    follow_swap(&t->cmp_mark, i, j);
}

void tui_rows_remove(tui_t *t, int i)
{
    tui_rows_clear(&t->cmp_rows[i], false);
    memmove(&t->cmp_rows[i], &t->cmp_rows[i + 1], (size_t)(t->n_cmp_rows - i - 1) * sizeof t->cmp_rows[0]);
    t->n_cmp_rows--;
    memset(&t->cmp_rows[t->n_cmp_rows], 0, sizeof t->cmp_rows[0]); /* it moved up: the slot holds nothing */
    t->cmp_mark = t->cmp_mark == i ? -1 : t->cmp_mark > i ? t->cmp_mark - 1 : t->cmp_mark;
    if (t->cmp_sel > i || (t->cmp_sel >= t->n_cmp_rows && t->cmp_sel > 0))
        t->cmp_sel--;
}

void tui_rows_free(tui_t *t)
{
    for (int i = 0; i < t->n_cmp_rows; i++)
        tui_rows_clear(&t->cmp_rows[i], false);
    memset(t->cmp_rows, 0, sizeof t->cmp_rows);
    t->n_cmp_rows = 0;
    t->cmp_sel = 0;
    t->cmp_mark = -1;
}
