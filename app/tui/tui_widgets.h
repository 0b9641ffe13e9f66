/* tui_widgets: what a screen says and asks through: the status line, an
 * error said in the TUI's words, the one-line prompt (Tab completes
 * paths), yes/no, search, overlays (help, why, diff) and the help made
 * from the keymap, and ^C polling for a search that runs on the UI
 * thread. */
#ifndef RS_TUI_WIDGETS_H
#define RS_TUI_WIDGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/keymap.h"
#include "tui/tui_state.h"
#include "util/error.h"

/* Sets the status line (an error shows in the error colour). */
void tui_status(tui_t *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds more after the status line's text (cut so more fits), as a reply
 * that is not an error ("...; dropped the fit to 60% (f fits again)"). */
void tui_status_append(tui_t *t, const char *more);
/* Shows err in the status line as a TUI user meets it: an error about a
 * command-line flag names the key that sets the thing instead ("--bind:"
 * becomes "bindings (b on Session):"); what, when given, comes first. */
void tui_error(tui_t *t, const char *what, const rs_error_t *err);
/* A one-line editor on the bottom row; complete_paths: Tab completes file
 * names.  Returns false when cancelled (Esc, ^C). */
bool tui_prompt(tui_t *t, const char *label, char *buf, size_t n, bool complete_paths);
/* Asks a yes/no question on the bottom row. */
bool tui_confirm(tui_t *t, const char *question);
/* Asks question with its answers said after it ("(y/n, a: ...)"): the key
 * pressed when it is one of keys (lower case), else 0 (no). */
int tui_ask(tui_t *t, const char *question, const char *answers, const char *keys);
/* Where a search for q lands among n names (name(t, i) gives each): the
 * first exact match, else the first one containing q, looking from index
 * from on (wrapping); -1 when none. */
int tui_find(const tui_t *t, int n, int from, const char *(*name)(const tui_t *, int), const char *q);
/* Where a search for q lands among n items of the open routine's nodes
 * (node(t, i) gives each): the first named q, else the first whose name
 * holds q, else the first whose source or function holds q (a user's
 * line, "train_step.py:75", or "llama_block"), looking from index from on
 * (wrapping); -1 when none.  *by_origin (may be NULL) says the last. */
int tui_find_node(const tui_t *t, int n, int from, int32_t (*node)(const tui_t *, int), const char *q,
                  bool *by_origin);
/* Whether node's name, source or function holds q (the items a search
 * for q also finds). */
bool tui_node_matches(const tui_t *t, int32_t node, const char *q);

/* Opens an overlay with lines (copied). */
void tui_overlay(tui_t *t, const char *title, char *const *lines, int n);
void tui_overlay_close(tui_t *t);
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

/* ^C or Esc stops a search run on this thread with what it found: a
 * cancel callback (best_run_cancellable) polling the keyboard every 32
 * calls; other keys wait for the screen.  Once stopped it stays stopped, so
 * searches run one after another all end. */
typedef struct tui_cancel {
    int calls;
    bool stopped;
} tui_cancel_t;
int tui_cancel_poll(void *ud);

#endif
