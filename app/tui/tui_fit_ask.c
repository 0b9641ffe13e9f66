#include "tui/tui_fit_ask.h"

#include <stdio.h>
#include <string.h>

#include "tui/tui_answer.h"
#include "tui/tui_fit.h"
#include "model/units.h"

/* Whether a fit to budget would give the plan on screen again: the same
 * budget as typed, the same cap (fit is deterministic; a change of the
 * routine, bindings or profile closes the fit before). */
static bool fits_the_same(const tui_t *t, const char *budget)
{
    budget_spec_t spec;
    rs_error_t err;
    if (!t->plan || strcmp(budget, t->fit_budget_text) != 0 || units_parse_budget(budget, "budget", &spec, &err))
        return false;
    fit_options_t opt = { .max_candidates = t->fit_cap >= 0 ? t->fit_cap : t->cap };
    return fit_cap(&opt, spec.kind == BUDGET_MINIMIZE) == t->plan->cap;
}

bool tui_fit_ask(tui_t *t)
{
    char offered[sizeof t->unfitted_budget], buf[sizeof t->unfitted_budget];
    tui_budget_offer(t, offered, sizeof offered);
    bool asked = tui_answer_ask_fit(t, buf, sizeof buf);
    /* a budget typed is kept until a fit of it is installed (install_fit
     * clears it): after n to the floor's question, C all and b, the prompt
     * was empty and the budget had to be typed again.  The offer closed
     * as it came changes nothing, so the budget line's text stays first. */
    if (buf[0] && strcmp(buf, offered) != 0)
        snprintf(t->unfitted_budget, sizeof t->unfitted_budget, "%s", buf);
    if (!asked)
        return false;
    char what[sizeof buf + 16];
    snprintf(what, sizeof what, "a fit to %s", buf);
    return (fits_the_same(t, buf) || tui_fit_may_replace(t, what, NULL)) && tui_run_fit(t, buf);
}
