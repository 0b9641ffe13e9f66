/* tui_state: the state of one TUI session, shared by every screen and
 * service: tui_t, and what it holds (an arena as drawn, the two-plan
 * arena).  Data only.  The layers, read from the includes: the loop
 * (tui.c) calls the screens (screen_*.c), which call the services
 * (tui_model, tui_pair, tui_arena, tui_picture, tui_widgets, tui_draw),
 * which work on this state; nothing below a screen calls a screen or the
 * loop (tests/include_check.py checks it). */
#ifndef RS_TUI_STATE_H
#define RS_TUI_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "best.h"
#include "cmdline.h"
#include "library.h"
#include "plan/cand.h"
#include "plan/fit.h"
#include "plan/frontier.h"
#include "plans.h"
#include "target.h"
#include "theme.h"
#include "tui/keymap.h"
#include "view.h"

#define TUI_MIN_COLS 60
#define TUI_MIN_ROWS 18
#define TUI_MAX_BUDGETS 16

/* routine_total's values that are not bytes */
enum { ROUTINE_TOTAL_UNKNOWN = -1, ROUTINE_TOTAL_ERROR = -2, ROUTINE_TOTAL_STOPPED = -3 };

/* What a key handler asks of the loop (htop's HANDLED/REDRAW/BREAK). */
enum { KEY_HANDLED = 1, KEY_REDRAW = 2, KEY_UNHANDLED = 4 };

/* An arena as the screens draw it: its buffers (view.h), the live bytes
 * at each step, its footprint (tui_arena.c draws it, tui_arena_free). */
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
    /* DESIGN §13's floor, drawn as a line like the budget's (tui_answer.c) */
    bool has_floor;
    floor_t floor;
    /* DESIGN §14's schedule (the frontier plan's, tui_frontier.c): its last
     * n_copies buffers are copies, and per step the node recomputed there
     * (-1: an original step); 0 and NULL otherwise */
    int32_t n_copies;
    int32_t *recompute;
} arena_view_t;

/* One row of Compare: the budget as typed and what was found for it.
 * A row is moved, swapped and freed whole (tui_rows.c). */
typedef struct compare_row {
    char budget[48];
    fit_plan_t *plan;        /* NULL: not fitted (failed, stopped, being fitted) */
    int64_t elapsed_us;      /* how long its fit took: saved with it */
    bool saved;              /* its plan is in the store (S): opened on Fit it counts as saved */
    best_plan_t best;        /* the best plan beside it (x); kind BEST_NONE: none searched */
    char policy[128];        /* P: the stored routine, the same step under a jax.checkpoint policy, whose
                              * total is this row's budget; "" for a budget typed */
    footprint_t policy_fp;   /* that routine scored alone */
} compare_row_t;

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
    int n_buf_lines, n_differ; /* the buffers named there (the biggest first), of all that differ */
} tui_pair_t;

typedef struct tui {
    const cmdline_t *cmdline;
    /* the loop's redraw of the whole screen, for a service that waits
     * with the screen under it (fit's progress bar); set by tui_run */
    void (*redraw)(struct tui *t);
    /* the loop's status bar alone (the bottom row), redrawn as a wait goes on */
    void (*status_bar)(struct tui *t);
    store_t *store;
    bool waiting;            /* a tui_wait runs: its work may be using the store, the screens must not */
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
    int overlay_hang;        /* where a wrapped row of a line indented by two goes on (the help's
                              * description column), 0: 4 columns in, as for any line */
    char overlay_title[128];

    /* session */
    routine_row_t *routines;
    int n_routines, sel_routine, top_routine;
    int64_t *routine_total;   /* baseline footprint per routine, or a ROUTINE_TOTAL_* */
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
    char unfitted_budget[64]; /* typed at the Fit prompt and not fitted (n, Esc): offered before the rest */

    /* fit */
    fit_context_t *ctx;
    fit_plan_t *plan;
    int64_t plan_elapsed_us;  /* how long fit_run took for it: saved with it */
    bool plan_saved;          /* quitting with an unsaved fit asks first */
    char fit_gone[224];       /* why Fit is empty after a change closed its fit; "" else */
    int32_t event;
    int fit_sel, fit_top;
    int32_t ev_accepted;      /* the accepted count the event arena was scored for, -1 none;
                               * -2 - event when scored with that event's held group */
    bool ev_held;             /* h: the event arena with the held group and the candidate */
    arena_view_t ev_arena;
    score_detail_t ev_det;
    bool fit_origins;         /* g: the table lists the flips by origin (DESIGN §13), not the candidates */
    int org_sel, org_top;
    /* the frontier plan (F, DESIGN §14) at t->plan's budget, seeded with its flips */
    bool has_frontier;
    frontier_result_t frontier;
    double frontier_s;        /* how long its search took */
    bool show_frontier;       /* Fit lists its flips, Fit's pane and the Arena draw its schedule */
    int fr_sel, fr_top;
    arena_view_t fr_arena;
    best_plan_t best;         /* the best (x) or improved (I) plan beside t->plan */
    bool show_best;
    arena_view_t best_arena;
    score_detail_t best_det;

    /* compare */
    compare_row_t cmp_rows[TUI_MAX_BUDGETS]; /* [0..n_cmp_rows); the rest all zero (tui_rows.c) */
    int n_cmp_rows, cmp_sel;
    int cmp_mark;            /* the row the diff compares against, -1: the nearest fitted row above */
    int64_t cmp_reused, cmp_lowered;
    bool cmp_stale;          /* the rows must be fitted again whatever the key says */
    bool cmp_running;        /* the rows are being fitted (drawn under the progress bar) */
    bool cmp_stopped;        /* ^C stopped the last search: a row without a plan was not fitted */
    char cmp_key[4608];      /* what the rows were fitted on (tui_compare_key); "" none */
    int32_t fit_cap;         /* candidate cap of the next fit, -1 the default */
    int32_t cap;             /* the cap C set for every fit that follows, -1 the default */
    char cap_offer[16];      /* the cap C chose in the store's last session ("all", "64"), C's prompt offers it */
    bool cmp_show_best;      /* a best row per budget (x) */

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

#endif
