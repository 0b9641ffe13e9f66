/* tui_pair: two plans on one arena, a view inside Plans (D on two plans
 * of one routine) or Compare (D on two rows): the second plan's arena
 * classified against the first's, both footprints, both flip lists. */
#ifndef RS_TUI_PAIR_H
#define RS_TUI_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "model/routine.h"
#include "tui/keymap.h"
#include "tui/tui_state.h"

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


/* Opens the two-plan arena on the current screen: b's arena classified
 * against a's (nodes matched by name), both footprints, both flip lists;
 * text (n lines, copied) is what D there shows.  Takes b->arena (zeroed);
 * a stays the caller's.  False with a status message on error. */
bool tui_pair_open(tui_t *t, tui_pair_plan_t *a, tui_pair_plan_t *b, char *const *text, int n);
/* D on Plans: two stored plans (loaded; one routine under one bindings and
 * alignment) on one arena, both rebuilt from the store on a worker with a
 * progress bar (^C stops), then opened with text (n lines) as D's text;
 * the status says what came of it. */
void tui_pair_stored(tui_t *t, const stored_plan_t full[2], char *const *text, int n);
/* Closes it and frees what it holds. */
void tui_pair_close(tui_t *t);
/* Whether it is open on screen s. */
bool tui_pair_shown(const tui_t *t, screen_id_t s);
/* Draws it, and its keys (KEY_UNHANDLED for the global ones). */
void tui_pair_draw(tui_t *t);
int tui_pair_key(tui_t *t, action_t a);

#endif
