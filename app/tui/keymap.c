#include "tui/keymap.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define S(x) (1u << (x))
#define CTRL(c) ((c) & 0x1f)

static const key_entry_t KEYS[] = {
    { KEYS_ALL, '?', "?", ACT_HELP, "help for this screen" },
    { KEYS_ALL, KEY_F(1), "F1", ACT_HELP, "help" },
    { KEYS_ALL, 'q', "q", ACT_BACK, "back (quit on the Session screen)" },
    { KEYS_ALL, 27, "Esc", ACT_BACK, "back / close" },
    { KEYS_ALL, 'Q', "Q", ACT_QUIT, "quit" },
    { KEYS_ALL, '\t', "Tab", ACT_NEXT_PANE, "next pane" },
    { KEYS_ALL, KEY_UP, "Up", ACT_UP, "up" },
    { KEYS_ALL, 'k', "k", ACT_UP, "up" },
    { KEYS_ALL, KEY_DOWN, "Down", ACT_DOWN, "down" },
    { KEYS_ALL, 'j', "j", ACT_DOWN, "down" },
    { KEYS_ALL & ~S(SCR_FIT) & ~S(SCR_ARENA), KEY_LEFT, "Left", ACT_LEFT, "left / scroll" },
    { KEYS_ALL & ~S(SCR_FIT) & ~S(SCR_ARENA), 'h', "h", ACT_LEFT, "left / scroll" },
    { KEYS_ALL & ~S(SCR_FIT) & ~S(SCR_ARENA), KEY_RIGHT, "Right", ACT_RIGHT, "right / scroll" },
    { KEYS_ALL & ~S(SCR_FIT) & ~S(SCR_ARENA), 'l', "l", ACT_RIGHT, "right / scroll" },
    { KEYS_ALL, 'g', "g", ACT_TOP, "first" },
    { KEYS_ALL, KEY_HOME, "Home", ACT_TOP, "first" },
    { KEYS_ALL, 'G', "G", ACT_BOTTOM, "last" },
    { KEYS_ALL, KEY_END, "End", ACT_BOTTOM, "last" },
    { KEYS_ALL, KEY_PPAGE, "PgUp", ACT_PGUP, "page up" },
    { KEYS_ALL, KEY_NPAGE, "PgDn", ACT_PGDN, "page down" },
    { KEYS_ALL, '/', "/", ACT_SEARCH, "search by node or name; on Arena and Fit also by source line or function (train_step.py:75)" },
    { KEYS_ALL, 'N', "N", ACT_SEARCH_NEXT, "next search match" },
    { KEYS_ALL, '1', "1", ACT_GO_SESSION, "Session screen" },
    { KEYS_ALL, '2', "2", ACT_GO_ARENA, "Arena screen" },
    { KEYS_ALL, '3', "3", ACT_GO_FIT, "Fit stepper" },
    { KEYS_ALL, '4', "4", ACT_GO_COMPARE, "Compare budgets" },
    { KEYS_ALL, '5', "5", ACT_GO_PLANS, "Plans" },
    { KEYS_ALL, CTRL('l'), "^L", ACT_REDRAW, "redraw" },
    { KEYS_ALL, CTRL('z'), "^Z", ACT_SUSPEND, "suspend to the shell (fg resumes)" },

    { S(SCR_SESSION), '\n', "Enter", ACT_OPEN, "open the routine / use the profile" },
    { S(SCR_SESSION), KEY_ENTER, "Enter", ACT_OPEN, "open the routine / use the profile" },
    { S(SCR_SESSION), 'i', "i", ACT_IMPORT, "import a file by path (Tab completes; cannot be stopped once it runs)" },
    { S(SCR_SESSION), 'b', "b", ACT_BINDINGS, "edit bindings (B=512 D=1024)" },
    { S(SCR_SESSION), 'p', "p", ACT_PROFILE, "pick the profile (none, or one in the list); the store remembers it" },
    { S(SCR_SESSION), 'r', "r", ACT_RENAME, "rename the highlighted routine (its plans stay with it)" },

    { S(SCR_ARENA), KEY_LEFT, "Left", ACT_STEP_PREV, "step cursor left: the pane lists what is live there" },
    { S(SCR_ARENA), 'h', "h", ACT_STEP_PREV, "step cursor left" },
    { S(SCR_ARENA), KEY_RIGHT, "Right", ACT_STEP_NEXT, "step cursor right" },
    { S(SCR_ARENA), 'l', "l", ACT_STEP_NEXT, "step cursor right" },
    { S(SCR_ARENA), 'p', "p", ACT_STEP_PEAK, "step cursor to the peak: the peak breakdown" },
    { S(SCR_ARENA), '\n', "Enter", ACT_OPEN, "the pane: the step's buffers <-> the selected buffer's details" },
    { S(SCR_ARENA), KEY_ENTER, "Enter", ACT_OPEN, "the pane: step list or details" },
    { S(SCR_ARENA), '<', "<", ACT_LEFT, "pan left" },
    { S(SCR_ARENA), '>', ">", ACT_RIGHT, "pan right" },
    { S(SCR_ARENA), '+', "+", ACT_ZOOM_BUFFER, "zoom to the selected buffer's steps" },
    { S(SCR_ARENA), '=', "=", ACT_ZOOM_IN, "zoom in (half the steps, around the middle)" },
    { S(SCR_ARENA), '-', "-", ACT_ZOOM_OUT, "zoom out" },
    { S(SCR_ARENA), '0', "0", ACT_ZOOM_RESET, "whole routine" },
    { S(SCR_ARENA), 'B', "B", ACT_SET_BUDGET, "set the budget line" },
    { S(SCR_ARENA), 'f', "f", ACT_RUN_FIT, "fit to a budget" },
    { S(SCR_ARENA), 'L', "L", ACT_LAYOUT, "layout: greedy, timeline or tight (a search); fits score with it too" },
    { S(SCR_ARENA), 'E', "E", ACT_EXPORT_SVG, "write what is on screen as an SVG picture (asks for a path)" },
    { S(SCR_ARENA) | S(SCR_FIT), 'c', "c", ACT_CURVE_STYLE, "live-bytes curve: braille or blocks" },

    { S(SCR_FIT), 'b', "b", ACT_RUN_FIT, "type a budget and run fit (^C cancels)" },
    { S(SCR_FIT), 'f', "f", ACT_RUN_FIT, "type a budget and run fit" },
    { S(SCR_FIT), 'n', "n", ACT_NEXT_EVENT, "next event" },
    { S(SCR_FIT), KEY_RIGHT, "Right", ACT_NEXT_EVENT, "next event" },
    { S(SCR_FIT), 'l', "l", ACT_NEXT_EVENT, "next event" },
    { S(SCR_FIT), 'p', "p", ACT_PREV_EVENT, "previous event" },
    { S(SCR_FIT), 'h', "h", ACT_HELD_ARENA, "arena: accepted so far, or with the held group and this candidate" },
    { S(SCR_FIT), KEY_LEFT, "Left", ACT_PREV_EVENT, "previous event" },
    { S(SCR_FIT), 'a', "a", ACT_NEXT_ACCEPT, "next accept" },
    { S(SCR_FIT), 'A', "A", ACT_PREV_ACCEPT, "previous accept" },
    { S(SCR_FIT), 'r', "r", ACT_ROUND_TWO, "jump to round two" },
    { S(SCR_FIT), '0', "0", ACT_FIRST_EVENT, "first event" },
    { S(SCR_FIT), 'e', "e", ACT_LAST_EVENT, "the end" },
    { S(SCR_FIT), '\n', "Enter", ACT_WHY, "why: the selected node's events and explanation" },
    { S(SCR_FIT), KEY_ENTER, "Enter", ACT_WHY, "why" },
    { S(SCR_FIT), 'w', "w", ACT_WHY, "why" },
    { S(SCR_FIT), 'g', "g", ACT_ORIGINS, "the table: the candidates, or the flips by origin (source line, else op; Enter lists an origin's flips)" },
    { S(SCR_FIT), 'F', "F", ACT_FRONTIER, "the frontier plan (recompute once: inline and remat flips, up to 30 s, ^C stops with the best found) at this budget, seeded with this plan; the Arena draws its schedule; again hides it" },
    { S(SCR_FIT), 'S', "S", ACT_SAVE_PLAN, "save the plan to the store (label prompt; ^C stops a long save, storing nothing)" },
    { S(SCR_FIT), 'x', "x", ACT_BEST, "the best plan (exact search, up to 10 s) beside the two-round plan; again hides it" },
    { S(SCR_FIT), 'I', "I", ACT_IMPROVE, "an improved plan (local search from the two-round plan) beside it" },
    { S(SCR_FIT), 'D', "D", ACT_DIFF, "the best (or improved) plan in full: both plans' totals and every flip that differs" },
    { S(SCR_ARENA) | S(SCR_FIT) | S(SCR_COMPARE), 'C', "C", ACT_SET_CAP, "candidate cap of the fits that follow (a number, all, empty: 32)" },
    { S(SCR_COMPARE), 'A', "A", ACT_REFIT_ALL, "fit the rows that say no, cap (the cap alone kept them out of reach) again with every candidate" },
    { S(SCR_COMPARE), 'x', "x", ACT_BEST, "a best-plan row under every budget (exact search, up to 3 s each)" },

    { S(SCR_COMPARE), 'a', "a", ACT_ADD_BUDGET, "add budgets (several with commas: 90%,70%,50%)" },
    { S(SCR_COMPARE), 'P', "P", ACT_ADD_POLICY, "add the same step under a jax.checkpoint policy (a stored routine): its total a budget, its point P beside the plans" },
    { S(SCR_COMPARE), '\n', "Enter", ACT_OPEN, "the selected row in the Fit stepper (why it meets or misses)" },
    { S(SCR_COMPARE), KEY_ENTER, "Enter", ACT_OPEN, "the selected row in the Fit stepper" },
    { S(SCR_COMPARE), ' ', "Space", ACT_MARK, "mark the row the diff line compares against, then the next row" },
    { S(SCR_COMPARE), 'D', "D", ACT_DIFF, "the marked (or above) and selected rows on one arena: + new or extended, hatched freed, flips side by side; Esc back" },
    { S(SCR_COMPARE), 'S', "S", ACT_SAVE_PLAN, "save the selected row as a plan (label prompt; ^C stops a long save)" },
    { S(SCR_COMPARE), 'd', "d", ACT_REMOVE_BUDGET, "remove the selected budget" },
    { S(SCR_COMPARE), KEY_DC, "Del", ACT_REMOVE_BUDGET, "remove the selected budget" },

    { S(SCR_PLANS), 's', "s", ACT_SORT, "sort by the next column" },
    { S(SCR_PLANS), 'S', "S", ACT_SORT_REVERSE, "reverse the order" },
    { S(SCR_PLANS), ' ', "Space", ACT_MARK, "mark / unmark (for diff and export)" },
    { S(SCR_PLANS), 'D', "D", ACT_DIFF, "the two marked plans (or marked and selected) on one arena: + new or extended in the second, hatched what it freed, both totals and peaks, flips side by side; D again the text diff, Esc back (two routines: the text diff)" },
    { S(SCR_PLANS), 'e', "e", ACT_EXPORT, "export marked (or selected) plans to CSV, or one plan's arena as SVG" },
    { S(SCR_PLANS), 'x', "x", ACT_DELETE, "delete the selected plan (asks)" },
    { S(SCR_PLANS), KEY_DC, "Del", ACT_DELETE, "delete the selected plan (asks)" },
    { S(SCR_PLANS), '\n', "Enter", ACT_OPEN, "open the plan in the fit stepper" },
    { S(SCR_PLANS), KEY_ENTER, "Enter", ACT_OPEN, "open the plan in the fit stepper" },
};

action_t keymap_lookup(screen_id_t s, int key)
{
    /* screen-specific rows win over the global ones */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
            if (KEYS[i].key == key && (KEYS[i].screens & (1u << s)) && ((KEYS[i].screens == KEYS_ALL) == (pass == 1)))
                return KEYS[i].action;
    return ACT_NONE;
}

const key_entry_t *keymap_entries(int *n)
{
    *n = (int)(sizeof KEYS / sizeof KEYS[0]);
    return KEYS;
}

/* The headings are the ones drawn: at 80 columns Fit says "bound" and
 * "added", which no one could read without this. */
static const column_legend_t FIT_COLUMNS[] = {
    { "rk", "round one's rank: relief per cost, best first" },
    { "solo", "what the flip alone takes off the baseline arena (round one)" },
    { "cost bound", "(\"bound\" when narrow) its recompute-cost bound: the node's cost times its readers (at "
                    "least 1), FLOPs, under the baseline" },
    { "recompute", "(\"added\" when narrow) the FLOPs it added once accepted: the plan's compute after it minus "
                   "before it (a group's on the flip that closed it). It can pass the bound: flips accepted before "
                   "it can make its readers run more often. '!' marks a flip that does not pay: the share of the "
                   "compute it adds is over 100 times the share of the arena it relieves" },
    { "B/FLOP", "solo per cost bound (at 140 columns and wider)" },
    { "status", "where the candidate stands at this event" },
    { "round two", "round two's verdict on it at this event, with the relief it was accepted with; its words "
                   "follow (narrow, the short form in brackets)" },
    { "+2.00 MiB", "accepted alone, relieving that much" },
    { "+8.64 MiB group", "(+8.64 MiB) it closed a load-bearing group and carries the group's relief" },
    { "+0 held group", "(+0 group) a held member, accepted with its group: it carries 0" },
    { "held (= cur)", "(held) alone it relieves nothing: held, to be tried with the candidates after it" },
    { "with grp >= cur", "(with >= cur) rejected: with the held group it is not below the current arena" },
    { "rej: worse alone", "(worse alone) rejected: alone it makes the arena bigger" },
    { "harmful group", "(harmful) discarded: with it the held group made the arena bigger" },
    { "left held at end", "(left over) discarded: still held when round two ended (recompute is never paid for "
                          "zero bytes)" },
    { "dropped by cap", "(over cap) over the candidate cap: never scored (C sets the cap)" },
    { "budget met first", "(budget met) the budget was met before its turn" },
};

static const column_legend_t PLANS_COLUMNS[] = {
    { "final", "the plan's arena" },
    { "recomp.", "the compute its flips added: final minus baseline (at 100 columns and wider)" },
    { "within", "whether the final arena is within the budget" },
};

const column_legend_t *keymap_columns(screen_id_t s, int *n)
{
    switch (s) {
    case SCR_FIT: *n = (int)(sizeof FIT_COLUMNS / sizeof FIT_COLUMNS[0]); return FIT_COLUMNS;
    case SCR_PLANS: *n = (int)(sizeof PLANS_COLUMNS / sizeof PLANS_COLUMNS[0]); return PLANS_COLUMNS;
    default: *n = 0; return NULL;
    }
}

const char *keymap_screen_name(screen_id_t s)
{
    static const char *names[SCR_COUNT] = { "Session", "Arena", "Fit", "Compare", "Plans" };
    return (unsigned)s < SCR_COUNT ? names[s] : "?";
}

bool keymap_row_on(screen_id_t s, const key_entry_t *r)
{
    return (r->screens & (1u << s)) && keymap_lookup(s, r->key) == r->action;
}

/* Row r is in the part of screen s's keys that row i is in: the screen's
 * own rows, or those that work everywhere. */
static bool same_part(screen_id_t s, const key_entry_t *i, const key_entry_t *r)
{
    return keymap_row_on(s, r) && (r->screens == KEYS_ALL) == (i->screens == KEYS_ALL);
}

bool keymap_keys_for(screen_id_t s, int i, const char *sep, char *buf, size_t n)
{
    int count = (int)(sizeof KEYS / sizeof KEYS[0]);
    if (n)
        buf[0] = 0;
    if (i < 0 || i >= count || !keymap_row_on(s, &KEYS[i]))
        return false;
    for (int j = 0; j < i; j++)
        if (KEYS[j].action == KEYS[i].action && same_part(s, &KEYS[i], &KEYS[j]))
            return false;
    size_t w = 0;
    for (int j = i; j < count; j++) {
        if (KEYS[j].action != KEYS[i].action || !same_part(s, &KEYS[i], &KEYS[j]))
            continue;
        bool seen = false; /* Enter is both '\n' and KEY_ENTER */
        for (int q = i; q < j && !seen; q++)
            seen = KEYS[q].action == KEYS[i].action && strcmp(KEYS[q].key_name, KEYS[j].key_name) == 0;
        if (!seen && w < n)
            w += (size_t)snprintf(buf + w, n - w, "%s%s", w ? sep : "", KEYS[j].key_name);
    }
    return true;
}
