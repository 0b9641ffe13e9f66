/* keymap: the key bindings of every screen as one table; the help overlay
 * and keymap_lookup read the same rows, so help never drifts from what the
 * keys do. */
#ifndef RS_KEYMAP_H
#define RS_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef enum screen_id { SCR_SESSION, SCR_ARENA, SCR_FIT, SCR_COMPARE, SCR_PLANS, SCR_COUNT } screen_id_t;

typedef enum action {
    ACT_NONE,
    /* everywhere */
    ACT_HELP, ACT_BACK, ACT_QUIT, ACT_NEXT_PANE, ACT_UP, ACT_DOWN, ACT_LEFT, ACT_RIGHT, ACT_TOP, ACT_BOTTOM, ACT_PGUP, ACT_PGDN,
    ACT_SEARCH, ACT_SEARCH_NEXT, ACT_GO_SESSION, ACT_GO_ARENA, ACT_GO_FIT, ACT_GO_COMPARE, ACT_GO_PLANS, ACT_REDRAW, ACT_SUSPEND,
    /* session */
    ACT_OPEN, ACT_IMPORT, ACT_BINDINGS, ACT_PROFILE, ACT_RENAME,
    /* arena */
    ACT_ZOOM_IN, ACT_ZOOM_BUFFER, ACT_ZOOM_OUT, ACT_STEP_PREV, ACT_STEP_NEXT, ACT_STEP_PEAK, ACT_HELD_ARENA, ACT_ZOOM_RESET, ACT_SET_BUDGET, ACT_CURVE_STYLE, ACT_LAYOUT,
    /* fit */
    ACT_RUN_FIT, ACT_NEXT_EVENT, ACT_PREV_EVENT, ACT_NEXT_ACCEPT, ACT_PREV_ACCEPT, ACT_ROUND_TWO, ACT_FIRST_EVENT,
    ACT_LAST_EVENT, ACT_WHY, ACT_SAVE_PLAN,
    /* compare */
    ACT_ADD_BUDGET, ACT_REMOVE_BUDGET, ACT_ADD_POLICY,
    /* plans */
    ACT_SORT, ACT_SORT_REVERSE, ACT_MARK, ACT_DIFF, ACT_EXPORT, ACT_DELETE,
    /* pictures */
    ACT_EXPORT_SVG,
    /* fit, compare: DESIGN §12 */
    ACT_BEST, ACT_IMPROVE,
    ACT_SET_CAP, ACT_REFIT_ALL,
    /* fit: DESIGN §13 */
    ACT_ORIGINS,
    /* fit: DESIGN §14 */
    ACT_FRONTIER,
    ACT_COUNT
} action_t;

typedef struct key_entry {
    unsigned screens;   /* bit per screen_id_t */
    int key;            /* a curses key code or character */
    const char *key_name;
    action_t action;
    const char *help;
} key_entry_t;

#define KEYS_ALL 0x1fu

/* The action of key on screen s (ACT_NONE when unbound). */
action_t keymap_lookup(screen_id_t s, int key);

/* The table's rows, for the help overlay. */
const key_entry_t *keymap_entries(int *n);

/* Whether row r works on screen s: it is one of the screen's, and no row
 * of the screen's own takes its key (Fit's g over the first-row g). */
bool keymap_row_on(screen_id_t s, const key_entry_t *r);

/* The keys of row i's action on screen s, joined by sep ("Up, k"), into
 * buf: among the screen's own rows when row i is one, else among those that
 * work everywhere, as the help overlay lists them.  False (buf empty) when
 * row i is not on screen s or an earlier row of its part has the action,
 * whose line names them all.  For the generated manual page. */
bool keymap_keys_for(screen_id_t s, int i, const char *sep, char *buf, size_t n);

/* A column of a screen's table: its heading (the wide one; the meaning
 * names a narrow one) and what it holds. */
typedef struct column_legend {
    const char *heading;
    const char *meaning;
} column_legend_t;

/* The columns of screen s's table, in the order drawn (*n is 0 for a
 * screen without one); the help overlay and the manual page list them. */
const column_legend_t *keymap_columns(screen_id_t s, int *n);

/* The screen's title ("Session", "Arena", ...). */
const char *keymap_screen_name(screen_id_t s);

#endif
