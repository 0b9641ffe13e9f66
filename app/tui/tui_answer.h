/* tui_answer: DESIGN §13's answers where the screens need them: the open
 * routine's floor (the Arena's line), the Fit prompt that shows it and asks
 * before a fit no plan can meet, and a plan's recompute as the sum of its
 * flips'.  core computes every figure (plan/floor, plan/fit's outlook). */
#ifndef RS_TUI_ANSWER_H
#define RS_TUI_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/answer.h"
#include "plan/fit.h"
#include "tui/tui_state.h"

/* The floor of the open routine's scoring (t->det) into t->arena.floor,
 * once per scoring (a rescore clears it); false when no routine is open or
 * it cannot be computed. */
bool tui_answer_floor(tui_t *t);

/* The Fit prompt: offers a budget (tui_budget_offer) into buf (n bytes)
 * with the floor in its label; for a byte budget below the floor, or below
 * the floor under the cap of the fit that would run, says what holds the
 * floor at its step and asks whether to fit anyway.  True when the fit
 * should run on buf; false when cancelled or answered no (the status says
 * why nothing was fitted). */
bool tui_answer_ask_fit(tui_t *t, char *buf, size_t n);

/* Row y, one line before a plan (Fit) or the rows (Compare), when the
 * candidate cap alone kept budgets (their text as typed, "2.2GB, 2.3GB")
 * out of reach (text_cap_hides): "the cap of 32 keeps 2.2GB out of reach;
 * every candidate reaches down to 1.98 GiB: C all" and then how (what
 * a key does about it), in fewer words where the row is narrower. */
void tui_answer_cap_line(tui_t *t, int y, int32_t cap, const char *budgets, int64_t floor_bytes, const char *how);

/* The compute p's flips added: the exact sum of their recompute (DESIGN
 * §13: it is final.compute - baseline.compute). */
int64_t tui_answer_recompute(const fit_plan_t *p);

/* The same of a stored plan loaded with its flips; for a plan saved
 * before flips carried their recompute (schema 6 and older),
 * final.compute - baseline.compute, which it equals. */
int64_t tui_answer_stored_recompute(const stored_plan_t *p);

/* The marks the Fit table puts on p's flips: per node of p's routine its
 * flip (-1 none), per flip 1 where it does not pay (answer_unpaid).
 * Either array is NULL when out of memory; free with tui_answer_marks_free. */
typedef struct tui_answer_marks {
    int32_t *flip_of;
    uint8_t *unpaid;
} tui_answer_marks_t;
void tui_answer_marks(const fit_plan_t *p, tui_answer_marks_t *m);
void tui_answer_marks_free(tui_answer_marks_t *m);

/* p's flips grouped by origin (answer_by_origin): a new array (free()) of
 * *n groups, each flip's group into group_of (p->n_flips entries, may be
 * NULL); NULL (*n 0) when p flips nothing or out of memory. */
answer_origin_t *tui_answer_origins(const fit_plan_t *p, int32_t *n, int32_t *group_of);

#endif
