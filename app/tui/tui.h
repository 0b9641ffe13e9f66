/* tui: the full-screen interface.  One state for the session; each screen
 * is a file with a _draw and a _key function (screen_*.c); tui.c owns the
 * terminal, the event loop, the status bar, overlays and prompts. */
#ifndef RS_TUI_H
#define RS_TUI_H

#include <stdbool.h>
#include <stdint.h>

#include "best.h"
#include "cmdline.h"
#include "library.h"
#include "plan/cand.h"
#include "plan/fit.h"
#include "plans.h"
#include "target.h"
#include "theme.h"
#include "tui/keymap.h"
#include "view.h"

#define TUI_MIN_COLS 60
#define TUI_MIN_ROWS 18
#define TUI_MAX_BUDGETS 16

/* What a key handler asks of the loop (htop's HANDLED/REDRAW/BREAK). */
enum { KEY_HANDLED = 1, KEY_REDRAW = 2, KEY_UNHANDLED = 4 };

typedef struct arena_view {
    view_buf_t *bufs;
    int32_t n;
    int64_t *live;       /* per step */
    footprint_t fp;
    int64_t steps;
    /* the two-plan arena (tui_pair.c); NULL and 0 otherwise */
    uint8_t *diff;       /* per buffer, view_diff_t against the first plan */
    view_buf_t *gone;    /* what the first plan held and this one does not, drawn hatched where empty */
    int32_t n_gone;
    int64_t gone_top;    /* the highest offset + size among them */
} arena_view_t;

/* One plan of a two-plan arena, as the screen that opens it has it. */
typedef struct tui_pair_plan {
    char name[96];             /* "plan 3 \"label\"", "row 2" */
    char budget[48];           /* "200 MiB", "minimize" */
    const routine_t *routine;  /* the names of its arena's nodes */
    arena_view_t arena;        /* its final arena (the pair keeps the second's) */
    const char *const *flip;   /* its flips in order, by node name */
    const int64_t *relief;
    int32_t n_flips;
} tui_pair_plan_t;

/* Two plans on one arena (tui_pair.c): the second plan's arena with its
 * buffers classified against the first plan's, both footprints, and the
 * two flip lists side by side.  A state of the screen that opened it. */
typedef struct tui_pair {
    bool on;
    screen_id_t screen;        /* Plans or Compare */
    char name[2][96], budget[2][48];
    footprint_t fp[2];
    arena_view_t arena;        /* the second plan's, with diff kinds and what is gone */
    int32_t count[VIEW_DIFF_COUNT];
    int32_t n_freed;           /* the first plan's buffers the second has none of */
    char **flips[2];           /* a line a flip: "+" where the other plan lacks it */
    int n_flips[2];
    int top;                   /* the first flip line shown */
    char **text;               /* the text diff (D again), then the buffers that differ */
    int n_text, buf0;          /* buf0: the first of those buffers' lines */
} tui_pair_t;

typedef struct tui {
    const cmdline_t *cmdline;
    store_t *store;
    screen_id_t screen;
    bool quit;
    int rows, cols;
    bool utf8, color, mouse;
    bool braille;            /* the curve in braille (2 samples a cell), else blocks */
    theme_t theme;
    unsigned attr[T_COUNT];  /* curses attributes per theme slot */
    char status[512];
    bool status_error;
    char search[SCR_COUNT][64]; /* per screen: a search on one never filters another */

    /* overlay (help, why, diff): lines shown over the screen */
    char **overlay;
    int n_overlay, overlay_top;
    int overlay_rows;        /* its rows once wrapped to the width last drawn at */
    char overlay_title[128];

    /* session */
    routine_row_t *routines;
    int n_routines, sel_routine, top_routine;
    int64_t *routine_total;   /* baseline footprint per routine, -1 unknown, -2 error */
    int32_t *routine_buffers; /* its materialized buffers, once known */
    profile_t *profiles;
    int n_profiles, sel_profile, top_profile;
    int n_stored_profiles;   /* profiles[0..n_stored) are the store's, the rest bundled */
    int profile;              /* index of the active profile, -1 none */
    int session_pane;         /* 0 routines, 1 profiles */
    char binds[4096];         /* the open routine's bindings, "B=512 D=1024" */
    struct tui_binds {        /* bindings per routine: they belong to it, never to the session */
        char routine[128];
        char binds[4096];
    } *rbinds;
    int n_rbinds;

    /* the open routine */
    bool open;
    char open_name[128];
    target_t tgt;
    score_detail_t det;
    arena_view_t arena;
    flip_candidate_t *cand;
    int32_t n_cand;
    int sel_buf;              /* index into arena.bufs */
    int64_t view_step0, view_step1; /* the zoom: [0, 0) is the whole routine */
    bool inspect;             /* the right pane lists the buffers live at step_cursor */
    int64_t step_cursor;
    int insp_sel, insp_n;     /* the highlighted row of that list, its length */
    bool origins;             /* some node says where it came from (HLO, §10): the pane shows it */
    int64_t budget;           /* the budget line, -1 none */
    char budget_text[64];
    char fit_budget_text[64]; /* the words the shown fit's budget was given in */
    char last_budget[64];   /* the last fit's, as typed, on any routine: what the prompt offers next */

    /* fit */
    fit_context_t *ctx;
    fit_plan_t *plan;
    int64_t plan_elapsed_us;  /* how long fit_run took for it: saved with it */
    bool plan_saved;          /* quitting with an unsaved fit asks first */
    int32_t event;
    int fit_sel, fit_top;
    int32_t ev_accepted;      /* the accepted count the event arena was scored for, -1 none;
                               * -2 - event when scored with that event's held group */
    bool ev_held;             /* h: the event arena with the held group and the candidate */
    arena_view_t ev_arena;
    score_detail_t ev_det;
    best_plan_t best;         /* the best (x) or improved (I) plan beside t->plan */
    bool show_best;
    arena_view_t best_arena;
    score_detail_t best_det;

    /* compare */
    char budgets[TUI_MAX_BUDGETS][48];
    int n_budgets, cmp_sel;
    int cmp_mark;            /* the row the diff compares against, -1: the nearest fitted row above */
    int64_t cmp_elapsed[TUI_MAX_BUDGETS];
    fit_plan_t *cmp[TUI_MAX_BUDGETS];
    int64_t cmp_reused, cmp_lowered;
    bool cmp_stale;          /* the routine changed since the budgets were fitted */
    int32_t fit_cap;         /* candidate cap of the next fit, -1 the default */
    int32_t cap;             /* the cap C set for every fit that follows, -1 the default */
    bool cmp_show_best;      /* a best row per budget (x) */
    best_plan_t cmp_best[TUI_MAX_BUDGETS];

    /* plans */
    stored_plan_t *plans;
    int n_plans, plan_sel, plan_top, sort_col;
    int64_t plan_focus;      /* a plan just saved, selected when Plans next lists */
    char export_path[512];   /* the last path e wrote to, offered again */
    bool sort_rev;
    int *order;
    int n_order;
    bool *marked;

    /* two plans on one arena, from Plans or Compare */
    tui_pair_t pair;
} tui_t;

/* A monotonic clock in microseconds. */
int64_t tui_now_us(void);

/* Runs the TUI; returns the exit status. */
int tui_run(const cmdline_t *c);

/* Shared helpers for the screens (tui.c). */
void tui_status(tui_t *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A one-line editor on the bottom row; complete_paths: Tab completes file
 * names.  Returns false when cancelled (Esc, ^C). */
bool tui_prompt(tui_t *t, const char *label, char *buf, size_t n, bool complete_paths);
/* Where a search for q lands among n names (name(t, i) gives each): the
 * first exact match, else the first one containing q, looking from index
 * from on (wrapping); -1 when none. */
int tui_find(const tui_t *t, int n, int from, const char *(*name)(const tui_t *, int), const char *q);
/* Shows err in the status line as a TUI user meets it: an error about a
 * command-line flag names the key that sets the thing instead ("--bind:"
 * becomes "bindings (b on Session):"); what, when given, comes first. */
void tui_error(tui_t *t, const char *what, const rs_error_t *err);
/* Asks a yes/no question on the bottom row. */
bool tui_confirm(tui_t *t, const char *question);
/* Opens an overlay with lines (copied). */
void tui_overlay(tui_t *t, const char *title, char *const *lines, int n);
void tui_overlay_close(tui_t *t);
/* Word wrap: the bytes of s that fill one row of w columns (cut at the
 * last space when s goes on); *next is where the following row starts. */
size_t tui_wrap(const char *s, int w, const char **next);
/* Draws s wrapped into at most max_rows rows of w columns from (y, x),
 * continuation rows indented by indent; returns the rows used. */
int tui_put_wrapped(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr, const char *s);
/* Fills w columns of row y with spaces in attr. */
void tui_fill(tui_t *t, int y, int x, int w, unsigned attr);
/* The overlay over the screen, and the help overlay made from the keymap. */
void tui_draw_overlay(tui_t *t);
void tui_help_overlay(tui_t *t);

/* One line of a view's help: what its action does there, or NULL for a
 * key the view passes on to the screen (listed under "everywhere"). */
typedef struct help_row {
    action_t action;
    const char *help;
} help_row_t;

/* The help of a view inside a screen (the two-plan arena): under the
 * heading view, the keys the screen's table binds to rows[i].action, each
 * with rows[i].help; then those it passes on.  With rows NULL, the screen's
 * own help. */
void tui_help_overlay_for(tui_t *t, const char *view, const help_row_t *rows, int n_rows);
/* Closes the open routine and what was fitted on it. */
void tui_close_routine(tui_t *t);
/* Draws s at (y, x) clipped to w columns (display columns, UTF-8 aware). */
void tui_put(tui_t *t, int y, int x, int w, unsigned attr, const char *s);
/* The display columns of s (UTF-8 aware). */
int tui_cols(const char *s);
/* s in exactly w columns in buf: padded with blanks, or its first w-1
 * and an ellipsis, so a name cut to a column says it was cut (UTF-8 aware,
 * where printf's %-*.*s counts bytes).  Returns buf. */
const char *tui_clip(const tui_t *t, const char *s, int w, char *buf, size_t n);
/* Draws the first of variants[0..n) (longest first) that fits w columns,
 * else the last clipped: a line says less rather than being cut mid-number. */
void tui_put_fit(tui_t *t, int y, int x, int w, unsigned attr, const char *const *variants, int n);
/* printf into tui_put. */
void tui_putf(tui_t *t, int y, int x, int w, unsigned attr, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* A horizontal line of w columns, and a box's frame (UTF-8 or ASCII). */
void tui_hline(tui_t *t, int y, int x, int w, unsigned attr);
void tui_box(tui_t *t, int y, int x, int h, int w, unsigned attr);
/* A glyph: the UTF-8 one, or its ASCII fallback. */
const char *tui_glyph(const tui_t *t, const char *utf8, const char *ascii);
/* The bindings chosen for routine (b, or a re-run plan's), "" for its own. */
const char *tui_binds_of(const tui_t *t, const char *routine);
/* Sets them (the next open of routine uses them); false when out of memory. */
bool tui_binds_set(tui_t *t, const char *routine, const char *binds);
/* Whether routine name opens with its bindings (tui_binds_of); the error is
 * shown when not.  Nothing else changes. */
bool tui_check_binds(tui_t *t, const char *name);
/* Opens routine row i of the session list under the current bindings and
 * profile (re-scores); false with a status message on error. */
bool tui_open_routine(tui_t *t, const char *name);
/* The budget a Fit prompt offers: the shown fit's (or the budget line's),
 * else the last fit's on any routine ("60%" means the same share of every
 * routine), else the config file's memory_budget (DESIGN §11), else none. */
void tui_budget_offer(const tui_t *t, char *buf, size_t n);
/* Runs fit for budget text on the open routine with a progress bar (^C
 * cancels); replaces t->plan. */
bool tui_run_fit(tui_t *t, const char *budget);

/* Shows a copy of plan, fitted on the open routine under budget (Compare's
 * rows), in the Fit screen as if tui_run_fit had just made it, without
 * fitting again; what names it in the status line. */
bool tui_show_plan(tui_t *t, const fit_plan_t *plan, int64_t elapsed_us, const char *budget, const char *what);
/* Draws the whole screen (header, the current screen, status, overlay). */
void tui_redraw(tui_t *t);
/* ^C or Esc stops a search run on this thread with what it found: a
 * cancel callback (best_run_cancellable) polling the keyboard every 32
 * calls; other keys wait for the screen.  Once stopped it stays stopped, so
 * searches run one after another all end. */
typedef struct tui_cancel {
    int calls;
    bool stopped;
} tui_cancel_t;
int tui_cancel_poll(void *ud);
/* Asks for the candidate cap of the fits that follow (t->cap, Compare's rows
 * too, which it marks stale); false when cancelled or not a cap. */
bool tui_set_cap(tui_t *t);
/* Asks for a label (prompt) and stores p, fitted on the open routine in
 * elapsed_us under budget (as typed: "60%"), as a plan, the one Plans
 * selects next, with gap (the best or improved plan shown beside it; NULL
 * or kind 0: none) as its gap; the status says "WHAT saved as plan N".
 * False when cancelled or on error (the status says). */
bool tui_save_plan(tui_t *t, fit_plan_t *p, int64_t elapsed_us, const char *budget, const best_plan_t *gap,
                   const char *prompt, const char *what);
/* Reloads the session lists and the stored plans from the store. */
void tui_reload(tui_t *t);
/* Draws an arena (grid, peak, the line of budget bytes (-1: none), curve)
 * in the rectangle. */
void tui_draw_arena(tui_t *t, const arena_view_t *a, int64_t budget, int y, int x, int h, int w, int selected,
                    bool curve);
/* The buffer drawn at (dy, dx) inside the same rectangle, or -1. */
int tui_arena_buffer_at(const tui_t *t, const arena_view_t *a, int64_t budget, int h, int w, bool curve, int dy,
                        int dx);
/* Scores prefs on the open routine into a; det receives the detail. */
bool tui_score(tui_t *t, const uint8_t *prefs, score_detail_t *det, arena_view_t *a);
/* Lays the open routine out with strategy s from now on (fits too): the
 * plans fitted with the other one are closed, the arena rescored. */
void tui_set_layout(tui_t *t, layout_strategy_t s);
void tui_arena_free(arena_view_t *a);
/* E: asks for a path and writes the open routine's arena as on screen (the
 * steps in view, the budget line) as an SVG picture (tui_picture.c). */
void tui_export_svg(tui_t *t);
/* Drops the best or improved plan shown beside t->plan, with its arena. */
void tui_best_free(tui_t *t);

/* Opens the two-plan arena on the current screen: b's arena classified
 * against a's (nodes matched by name), both footprints, both flip lists;
 * text (n lines, copied) is what D there shows.  Takes b->arena (zeroed);
 * a stays the caller's.  False with a status message on error. */
bool tui_pair_open(tui_t *t, tui_pair_plan_t *a, tui_pair_plan_t *b, char *const *text, int n);
/* Closes it and frees what it holds. */
void tui_pair_close(tui_t *t);
/* Whether it is open on screen s. */
bool tui_pair_shown(const tui_t *t, screen_id_t s);
/* Draws it, and its keys (KEY_UNHANDLED for the global ones). */
void tui_pair_draw(tui_t *t);
int tui_pair_key(tui_t *t, action_t a);

/* The theme slot of a buffer role. */
static inline theme_slot_t role_attr_slot(uint8_t role) { return (theme_slot_t)(T_RESIDENT + role); }

/* The screens. */
void screen_session_draw(tui_t *t);
int screen_session_key(tui_t *t, action_t a, int key);
void screen_arena_draw(tui_t *t);
int screen_arena_key(tui_t *t, action_t a, int key);
void screen_fit_draw(tui_t *t);
int screen_fit_key(tui_t *t, action_t a, int key);
void screen_compare_draw(tui_t *t);
int screen_compare_key(tui_t *t, action_t a, int key);
void screen_plans_draw(tui_t *t);
int screen_plans_key(tui_t *t, action_t a, int key);

/* Mouse: a click at (y, x) on the screen; returns KEY_* flags. */
int screen_session_click(tui_t *t, int y, int x);
int screen_arena_click(tui_t *t, int y, int x);
int screen_fit_click(tui_t *t, int y, int x);
int screen_plans_click(tui_t *t, int y, int x);

#endif
