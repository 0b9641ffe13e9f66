/* tui: the full-screen interface.  One state for the session; each screen
 * is a file with a _draw and a _key function (screen_*.c); tui.c owns the
 * terminal, the event loop, the status bar, overlays and prompts. */
#ifndef RS_TUI_H
#define RS_TUI_H

#include <stdbool.h>
#include <stdint.h>

#include "cand.h"
#include "cli.h"
#include "fit.h"
#include "keymap.h"
#include "library.h"
#include "plans.h"
#include "target.h"
#include "theme.h"
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
} arena_view_t;

typedef struct tui {
    const cli_t *cli;
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
    char search[64];

    /* overlay (help, why, diff): lines shown over the screen */
    char **overlay;
    int n_overlay, overlay_top;
    char overlay_title[128];

    /* session */
    routine_row_t *routines;
    int n_routines, sel_routine, top_routine;
    int64_t *routine_total;   /* baseline footprint per routine, -1 unknown, -2 error */
    int32_t *routine_buffers; /* its materialized buffers, once known */
    profile_t *profiles;
    int n_profiles, sel_profile, top_profile;
    int profile;              /* index of the active profile, -1 none */
    int session_pane;         /* 0 routines, 1 profiles */
    char binds[256];          /* "B=512 D=1024" */

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
    int64_t budget;           /* the budget line, -1 none */
    char budget_text[64];

    /* fit */
    fit_context_t *ctx;
    fit_plan_t *plan;
    int32_t event;
    int fit_sel, fit_top;
    int32_t ev_accepted;      /* the accepted count the event arena was scored for, -1 none */
    arena_view_t ev_arena;
    score_detail_t ev_det;

    /* compare */
    char budgets[TUI_MAX_BUDGETS][48];
    int n_budgets, cmp_sel;
    fit_plan_t *cmp[TUI_MAX_BUDGETS];
    int64_t cmp_reused, cmp_lowered;
    bool cmp_stale;          /* the routine changed since the budgets were fitted */
    int32_t fit_cap;         /* candidate cap of the next fit, -1 the default */

    /* plans */
    stored_plan_t *plans;
    int n_plans, plan_sel, plan_top, sort_col;
    bool sort_rev;
    int *order;
    int n_order;
    bool *marked;
} tui_t;

/* Runs the TUI; returns the exit status. */
int tui_run(const cli_t *c);

/* Shared helpers for the screens (tui.c). */
void tui_status(tui_t *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A one-line editor on the bottom row; complete_paths: Tab completes file
 * names.  Returns false when cancelled (Esc, ^C). */
bool tui_prompt(tui_t *t, const char *label, char *buf, size_t n, bool complete_paths);
/* Asks a yes/no question on the bottom row. */
bool tui_confirm(tui_t *t, const char *question);
/* Opens an overlay with lines (copied). */
void tui_overlay(tui_t *t, const char *title, char *const *lines, int n);
void tui_overlay_close(tui_t *t);
/* Fills w columns of row y with spaces in attr. */
void tui_fill(tui_t *t, int y, int x, int w, unsigned attr);
/* The overlay over the screen, and the help overlay made from the keymap. */
void tui_draw_overlay(tui_t *t);
void tui_help_overlay(tui_t *t);
/* Closes the open routine and what was fitted on it. */
void tui_close_routine(tui_t *t);
/* Draws s at (y, x) clipped to w columns (display columns, UTF-8 aware). */
void tui_put(tui_t *t, int y, int x, int w, unsigned attr, const char *s);
/* printf into tui_put. */
void tui_putf(tui_t *t, int y, int x, int w, unsigned attr, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* A glyph: the UTF-8 one, or its ASCII fallback. */
const char *tui_glyph(const tui_t *t, const char *utf8, const char *ascii);
/* Opens routine row i of the session list under the current bindings and
 * profile (re-scores); false with a status message on error. */
bool tui_open_routine(tui_t *t, const char *name);
/* Runs fit for budget text on the open routine with a progress bar (^C
 * cancels); replaces t->plan. */
bool tui_run_fit(tui_t *t, const char *budget);
/* Reloads the session lists and the stored plans from the store. */
void tui_reload(tui_t *t);
/* Draws an arena (grid, peak, budget line, curve) in the rectangle. */
void tui_draw_arena(tui_t *t, const arena_view_t *a, int y, int x, int h, int w, int selected, bool curve);
/* Scores prefs on the open routine into a; det receives the detail. */
bool tui_score(tui_t *t, const uint8_t *prefs, score_detail_t *det, arena_view_t *a);
/* Lays the open routine out with strategy s from now on (fits too): the
 * plans fitted with the other one are closed, the arena rescored. */
void tui_set_layout(tui_t *t, arena_strategy_t s);
void tui_arena_free(arena_view_t *a);

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
