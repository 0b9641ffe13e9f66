#include "tui/tui_fit_ask.h"

#include <stdio.h>
#include <string.h>

#include "tui/tui_answer.h"
#include "tui/tui_fit.h"

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
    return asked && tui_run_fit(t, buf);
}
