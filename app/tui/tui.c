/* tui: terminal setup and restore, the theme as curses attributes, the
 * event loop (keys and clicks to the screen shown), the tab bar and the
 * status bar. */
#include "tui/tui.h"

#include <curses.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"
#include "datadir.h"
#include "fail.h"
#include "import.h"
#include "model/units.h"
#include "text.h"
#include "tui/screen_arena.h"
#include "tui/screen_compare.h"
#include "tui/screen_fit.h"
#include "tui/screen_plans.h"
#include "tui/screen_session.h"
#include "tui/tui_draw.h"
#include "tui/tui_fit.h"
#include "tui/tui_model.h"
#include "tui/tui_pair.h"
#include "tui/tui_rows.h"
#include "tui/tui_widgets.h"


/* ---- terminal safety --------------------------------------------------------- */

static volatile sig_atomic_t curses_on;

/* Restores the terminal from any signal that ends us: Ctrl-C from outside,
 * SIGTERM, SIGHUP, and crashes; then lets the signal do what it does. */
static void restore_and_reraise(int sig)
{
    if (curses_on) {
        endwin();
        curses_on = 0;
        if (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT) {
            static const char msg[] = "rematscope: crashed; the terminal was restored\n";
            ssize_t w = write(2, msg, sizeof msg - 1);
            (void)w;
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = restore_and_reraise;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* ---- theme -------------------------------------------------------------------- */

static short curses_colour(tui_t *t, short c)
{
    if (c < 0)
        return -1;
    if (c >= 8 && COLORS < 16)
        return (short)(c - 8); /* bright on 8 colours: bold is added below */
    return c;
}

static void apply_theme(tui_t *t)
{
    for (int s = 0; s < T_COUNT; s++) {
        unsigned a = 0, ta = t->theme.attr[s];
        if (ta & THEME_BOLD)
            a |= A_BOLD;
        if (ta & THEME_REVERSE)
            a |= A_REVERSE;
        if (ta & THEME_UNDERLINE)
            a |= A_UNDERLINE;
        if (ta & THEME_DIM)
            a |= A_DIM;
        if (t->color) {
            init_pair((short)(s + 1), curses_colour(t, t->theme.fg[s]), curses_colour(t, t->theme.bg[s]));
            a |= COLOR_PAIR(s + 1);
            if (t->theme.fg[s] >= 8 && COLORS < 16)
                a |= A_BOLD;
        } else {
            /* monochrome is a scheme of its own: attributes, glyphs do the rest */
            static const unsigned mono[T_COUNT] = {
                [T_HEADER] = A_REVERSE | A_BOLD, [T_STATUS] = A_REVERSE,  [T_SELECTED] = A_REVERSE | A_BOLD,
                [T_HELP] = A_NORMAL,             [T_ERROR] = A_BOLD,      [T_DIM] = A_DIM,
                [T_PEAK] = A_BOLD,               [T_BUDGET] = A_BOLD,     [T_ACCEPTED] = A_BOLD,
                [T_HELD] = A_UNDERLINE,          [T_DISCARDED] = A_DIM,   [T_REJECTED] = A_UNDERLINE,
            };
            a = mono[s];
        }
        t->attr[s] = a;
    }
}

/* ---- the loop ------------------------------------------------------------------------ */

static void draw_header(tui_t *t)
{
    tui_fill(t, 0, 0, t->cols, t->attr[T_HEADER]);
    int x = 1;
    tui_put(t, 0, x, 11, t->attr[T_HEADER] | A_BOLD, "rematscope");
    x += 12;
    for (int s = 0; s < SCR_COUNT; s++) {
        char lbl[32];
        snprintf(lbl, sizeof lbl, " %d %s ", s + 1, keymap_screen_name((screen_id_t)s));
        unsigned a = s == (int)t->screen ? t->attr[T_SELECTED] : t->attr[T_HEADER];
        tui_put(t, 0, x, (int)strlen(lbl), a, lbl);
        x += (int)strlen(lbl) + 1;
    }
}

static void draw_status(tui_t *t)
{
    int y = t->rows - 1;
    tui_fill(t, y, 0, t->cols, t->attr[T_STATUS]);
    /* the budget (the fit's, else the budget line's) as typed and in bytes */
    char bud[128] = "none";
    int64_t bytes = t->plan ? (t->plan->minimize ? -1 : t->plan->budget) : t->budget;
    if (t->plan && t->plan->minimize)
        snprintf(bud, sizeof bud, "minimize");
    else if (bytes >= 0) {
        /* the fit's words, or the line's, with what they came to ("8GB = 7.45 GiB") */
        units_format_budget(t->plan ? t->fit_budget_text : t->budget_text, false, bytes, bud, sizeof bud);
    }
    /* a budget line set after the fit (B on the Arena) is the one drawn
     * there: both there, or the bar said the fit's beside another line; Fit
     * draws the fit's, and the bar says that one */
    if (t->plan && t->screen != SCR_FIT && t->budget >= 0 && t->budget != (t->plan->minimize ? -1 : t->plan->budget)) {
        char line[32], fit[sizeof bud];
        units_format_bytes(t->budget, line, sizeof line);
        snprintf(fit, sizeof fit, "%s", bud);
        snprintf(bud, sizeof bud, "%s (fit %.80s)", line, fit);
    }
    int64_t reused, lowered; /* the process's totals, every search so far */
    reuse_counters(&reused, &lowered);
    const char *bar = tui_glyph(t, "│", "|");
    const char *routine = t->open ? t->open_name : "-", *prof = t->profile >= 0 ? t->profiles[t->profile].name : "none";
    const char *layout = layout_strategy_name(t->tgt.cfg.layout);
    /* narrower, the labels of the routine and the layout go first (their
     * values say what they are; "none" alone could be the profile or the
     * budget, so those keep theirs), then the routine's name is cut (to 12
     * columns at least), then the layout, then the profile; the reuse
     * counters and "? help" stay to 60 columns but beside a long budget */
    char v[5][512], rs[32];
    snprintf(rs, sizeof rs, "%lld/%lld", (long long)reused, (long long)lowered);
    snprintf(v[0], sizeof v[0], " routine %s %s profile %s %s budget %s %s layout %s %s reuse %s %s ? help", routine,
             bar, prof, bar, bud, bar, layout, bar, rs, bar);
    snprintf(v[1], sizeof v[1], " %s profile %s %s budget %s %s %s %s reuse %s %s ? help", bar, prof, bar, bud, bar,
             layout, bar, rs, bar); /* all but the routine */
    int room = t->cols - tui_cols(v[1]) - 1, len = tui_cols(routine);
    char clip[160];
    tui_clip(t, routine, room < 12 ? 12 : room < len ? room : len, clip, sizeof clip);
    snprintf(v[1], sizeof v[1], " %s %s profile %s %s budget %s %s %s %s reuse %s %s ? help", clip, bar, prof, bar,
             bud, bar, layout, bar, rs, bar);
    snprintf(v[2], sizeof v[2], " %s %s profile %s %s budget %s %s reuse %s %s ? help", clip, bar, prof, bar, bud,
             bar, rs, bar);
    snprintf(v[3], sizeof v[3], " %s %s budget %s %s reuse %s %s ? help", clip, bar, bud, bar, rs, bar);
    snprintf(v[4], sizeof v[4], " %s %s budget %s %s ? help", clip, bar, bud, bar); /* a long budget's words */
    const char *vs[5] = { v[0], v[1], v[2], v[3], v[4] };
    tui_put_fit(t, y, 0, t->cols, t->attr[T_STATUS], vs, 5);
    if (t->status[0]) {
        /* a reply longer than the row takes the row above too, as a
         * question does: its end ("(f fits again)") was what got cut */
        unsigned a = t->status_error ? t->attr[T_ERROR] : t->attr[T_NORMAL];
        int rows = !t->n_overlay && tui_prose_rows(t->status, t->cols, 2) > 1 ? 2 : 1; /* an overlay ends above */
        for (int r = 1; r <= rows; r++)
            tui_fill(t, y - r, 0, t->cols, a);
        tui_put_prose(t, y - rows, 0, t->cols, rows, 2, a, t->status, NULL);
    }
}

static void redraw(tui_t *t)
{
    erase();
    if (t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS) {
        char msg[80];
        snprintf(msg, sizeof msg, "terminal too small: %dx%d", t->cols, t->rows);
        char need[80];
        snprintf(need, sizeof need, "needs %dx%d", TUI_MIN_COLS, TUI_MIN_ROWS);
        tui_put(t, t->rows / 2 - 1, 0, t->cols, A_BOLD, msg);
        tui_put(t, t->rows / 2, 0, t->cols, A_NORMAL, need);
        refresh();
        return;
    }
    draw_header(t);
    switch (t->screen) {
    case SCR_SESSION: screen_session_draw(t); break;
    case SCR_ARENA: screen_arena_draw(t); break;
    case SCR_FIT: screen_fit_draw(t); break;
    case SCR_COMPARE: screen_compare_draw(t); break;
    case SCR_PLANS: screen_plans_draw(t); break;
    default: break;
    }
    draw_status(t);
    if (t->n_overlay)
        tui_draw_overlay(t);
    refresh();
}

static int overlay_key(tui_t *t, action_t a)
{
    int page = t->rows - 7 > 1 ? t->rows - 7 : 1; /* the rows the overlay shows */
    switch (a) {
    case ACT_BACK:
    case ACT_HELP:
    case ACT_QUIT:
        tui_overlay_close(t);
        break;
    case ACT_UP: t->overlay_top -= t->overlay_top > 0; break;
    case ACT_DOWN: t->overlay_top += t->overlay_top + page < t->overlay_rows; break;
    case ACT_PGUP: t->overlay_top = t->overlay_top > page ? t->overlay_top - page : 0; break;
    case ACT_PGDN: t->overlay_top = t->overlay_top + 2 * page < t->overlay_rows ? t->overlay_top + page
                                    : t->overlay_rows > page ? t->overlay_rows - page : 0; break;
    case ACT_TOP: t->overlay_top = 0; break;
    case ACT_BOTTOM: t->overlay_top = t->overlay_rows > page ? t->overlay_rows - page : 0; break;
    default: /* a key meant for the screen under it is not lost without a word */
        tui_status(t, false, "a popup is open: Esc or q closes it, Up/Down/PgUp/PgDn scroll");
        break;
    }
    return KEY_REDRAW;
}

static int screen_key(tui_t *t, action_t a, int key)
{
    switch (t->screen) {
    case SCR_SESSION: return screen_session_key(t, a, key);
    case SCR_ARENA: return screen_arena_key(t, a, key);
    case SCR_FIT: return screen_fit_key(t, a, key);
    case SCR_COMPARE: return screen_compare_key(t, a, key);
    case SCR_PLANS: return screen_plans_key(t, a, key);
    default: return KEY_UNHANDLED;
    }
}

static void handle_mouse(tui_t *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    if (ev.bstate & BUTTON4_PRESSED) {
        for (int i = 0; i < 3; i++)
            t->n_overlay ? overlay_key(t, ACT_UP) : screen_key(t, ACT_UP, KEY_UP);
        return;
    }
#ifdef BUTTON5_PRESSED
    if (ev.bstate & BUTTON5_PRESSED) {
        for (int i = 0; i < 3; i++)
            t->n_overlay ? overlay_key(t, ACT_DOWN) : screen_key(t, ACT_DOWN, KEY_DOWN);
        return;
    }
#endif
    if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) || t->n_overlay)
        return;
    if (ev.y == 0) { /* the screen tabs */
        int x = 13;
        for (int s = 0; s < SCR_COUNT; s++) {
            int w = (int)strlen(keymap_screen_name((screen_id_t)s)) + 4;
            if (ev.x >= x && ev.x < x + w)
                t->screen = (screen_id_t)s;
            x += w + 1;
        }
        return;
    }
    switch (t->screen) {
    case SCR_SESSION: screen_session_click(t, ev.y, ev.x); break;
    case SCR_ARENA: screen_arena_click(t, ev.y, ev.x); break;
    case SCR_FIT: screen_fit_click(t, ev.y, ev.x); break;
    case SCR_PLANS: screen_plans_click(t, ev.y, ev.x); break;
    default: break;
    }
}

static void go(tui_t *t, screen_id_t s)
{
    if (s != t->screen) /* what the last screen said is about it, not this one */
        t->status[0] = 0;
    if ((s == SCR_ARENA || s == SCR_FIT || s == SCR_COMPARE) && !t->open) {
        tui_status(t, true, "open a routine first: select one and press Enter");
        t->screen = SCR_SESSION;
        return;
    }
    t->screen = s;
    if (s == SCR_PLANS)
        tui_reload(t);
}

/* Quitting loses an unsaved fit: ask first. */
static bool may_quit(tui_t *t)
{
    if (!t->plan || t->plan_saved)
        return true;
    redraw(t);
    return tui_confirm(t, "quit and lose the fit you did not save? (S on Fit saves it)");
}

static void loop(tui_t *t)
{
    while (!t->quit) {
        getmaxyx(stdscr, t->rows, t->cols);
        if (t->screen == SCR_SESSION && !t->n_overlay && t->cols >= TUI_MIN_COLS && t->rows >= TUI_MIN_ROWS)
            screen_session_prepare(t);
        redraw(t);
        int ch = getch();
        if (ch == ERR)
            continue;
        if (ch == KEY_RESIZE) {
            getmaxyx(stdscr, t->rows, t->cols);
            clear();
            continue;
        }
        if (ch == KEY_MOUSE) {
            handle_mouse(t);
            continue;
        }
        if (ch == TUI_KEY_SUSPEND) { /* over any overlay, on any screen, even when too small */
            tui_suspend();
            getmaxyx(stdscr, t->rows, t->cols); /* the terminal may have been resized meanwhile */
            clear();
            continue;
        }
        if (getenv("RS_TEST_CRASH") && ch == 'Z')
            raise(SIGSEGV); /* the terminal-safety tests' trigger */
        if (getenv("RS_TEST_CRASH") && ch == 'Y')
            abort(); /* as a failed assertion does */
        if (t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS) {
            if (ch == 'q' || ch == 'Q')
                t->quit = true;
            continue;
        }
        action_t a = keymap_lookup(t->screen, ch);
        if (t->n_overlay) {
            overlay_key(t, a);
            continue;
        }
        if (ch == 3) { /* ^C outside a fit: nothing to cancel, but say how to leave */
            tui_status(t, false, "^C stops a running fit or search; Q quits");
            continue;
        }
        int r = screen_key(t, a, ch);
        if (!(r & KEY_UNHANDLED))
            continue;
        switch (a) {
        case ACT_HELP: tui_help_overlay(t); break;
        case ACT_QUIT: t->quit = may_quit(t); break;
        case ACT_BACK:
            if (t->screen == SCR_SESSION)
                t->quit = may_quit(t);
            else
                t->screen = t->screen == SCR_FIT && t->open ? SCR_ARENA : SCR_SESSION;
            break;
        case ACT_GO_SESSION: go(t, SCR_SESSION); break;
        case ACT_GO_ARENA: go(t, SCR_ARENA); break;
        case ACT_GO_FIT: go(t, SCR_FIT); break;
        case ACT_GO_COMPARE: go(t, SCR_COMPARE); break;
        case ACT_GO_PLANS: go(t, SCR_PLANS); break;
        case ACT_REDRAW: clear(); break;
        case ACT_SUSPEND: break; /* handled above, before the overlays */
        case ACT_CURVE_STYLE:
            t->braille = !t->braille && t->utf8;
            tui_status(t, false, "curve: %s", t->braille ? "braille" : "blocks");
            break;
        default: break;
        }
    }
}

/* Opens the routine a FILE argument was stored as.  The TUI opens a name's
 * latest version: when the file's text is an older one, the status says
 * so (what is open is not the file) and how to open the file's own. */
static void open_imported(tui_t *t, const import_routine_t *first)
{
    if (!tui_open_routine(t, first->name))
        return;
    t->screen = SCR_ARENA;
    for (int i = 0; i < t->n_routines; i++)
        if (strcmp(t->routines[i].name, first->name) == 0 && t->routines[i].version != first->version)
            tui_status(t, false,
                       "opened %s version %d, its latest (from %s); the file is its version %d: "
                       "import --name NAME (r on Session) gives it a name of its own",
                       text_shown(first->name), (int)t->routines[i].version, text_shown(t->routines[i].path),
                       (int)first->version);
}

int tui_run(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    tui_t *t = calloc(1, sizeof *t);
    if (!t)
        return 1;
    t->cmdline = c;
    t->redraw = redraw;
    t->status_bar = draw_status;
    t->profile = -1;
    t->budget = -1;
    t->ev_accepted = -1;
    t->fit_cap = -1;
    t->cap = -1;
    t->cmp_mark = -1;
    const char *theme = c->theme ? c->theme : config_text(c->config, CONFIG_THEME);
    if (theme_load(theme ? theme : "default", theme_dir(), &t->theme, &err)) {
        free(t);
        return fail_print(&err);
    }
    if (!isatty(0) || !isatty(1)) {
        error_set(&err, RS_EINPUT, NULL, 0, 0, "the TUI needs a terminal (use a subcommand from scripts)");
        free(t);
        return fail_print(&err);
    }
    if (store_open(c->db, &t->store, &err)) {
        free(t);
        return fail_print(&err);
    }
    /* FILE arguments: imported, and the first routine among them opened */
    import_routine_t first = { 0 };
    if (c->n_pos) {
        char **tidy = cmdline_tidy_paths(c); /* "dumps/" names "dumps/a.hlo", never "dumps//a.hlo" */
        int rc = tidy ? import_paths(c, t->store, (const char *const *)tidy, c->n_pos, NULL, NULL, &first, &err)
                      : error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        cmdline_tidy_free(tidy, c->n_pos);
        if (rc) {
            store_close(t->store);
            free(t);
            return fail_print(&err);
        }
    }
    const char *cs = nl_langinfo(CODESET);
    t->utf8 = cs && strcmp(cs, "UTF-8") == 0;
    /* braille where the terminal can draw it: UTF-8, and not the Linux
     * console, whose fonts lack the dots */
    const char *term = getenv("TERM");
    t->braille = t->utf8 && !(term && strcmp(term, "linux") == 0);
    install_handlers();
    initscr();
    curses_on = 1;
    raw(); /* ^C is a key (it cancels a fit), not a signal that kills the app */
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    const char *no_color = getenv("NO_COLOR");
    t->color = has_colors() && !(no_color && *no_color);
    if (t->color) {
        start_color();
        use_default_colors();
    }
    apply_theme(t);
    bkgd(t->attr[T_NORMAL]);
    t->mouse = !c->no_mouse;
    if (t->mouse)
        mousemask(ALL_MOUSE_EVENTS, NULL);
    tui_reload(t);
    /* the config file's profile, when the store has it, starts selected */
    const char *profile = config_text(c->config, CONFIG_PROFILE);
    for (int i = 0; profile && i < t->n_profiles; i++)
        if (strcmp(t->profiles[i].name, profile) == 0)
            t->profile = i;
    if (t->n_routines == 0)
        tui_status(t, false, "no routines yet: press i to import a file or folder (%s has samples), ? for help",
                   datadir_samples());
    else
        tui_status(t, false, "%s, %s: Enter opens a routine, Tab switches to profiles, ? help",
                   text_count(t->n_routines, "routine", NULL), text_count(t->n_profiles, "profile", NULL));
    tui_recall_profile(t); /* the last session's choice, over the config file's */
    tui_recall_cap(t);
    if (first.any)
        open_imported(t, &first);
    loop(t);
    endwin();
    curses_on = 0;
    tui_close_routine(t);
    tui_rows_free(t); /* Compare's rows outlive a routine closed for another; not the session */
    tui_overlay_close(t);
    tui_pair_close(t);
    library_routine_rows_free(t->routines, t->n_routines);
    free(t->routine_total);
    free(t->routine_buffers);
    free(t->profiles);
    plans_list_free(t->plans, t->n_plans);
    free(t->marked);
    free(t->order);
    free(t->rbinds);
    store_close(t->store);
    free(t);
    return 0;
}
