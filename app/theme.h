/* theme: colour themes from small text files in themes/ (`slot = fg bg
 * [attrs]`), read at run time and checked: the settings check the theme a
 * configuration file names, the TUI turns the one it loads into curses
 * attributes (tui.c).  No curses here, so it is tested on its own. */
#ifndef RS_THEME_H
#define RS_THEME_H

#include "util/error.h"

typedef enum theme_slot {
    T_NORMAL, T_HEADER, T_STATUS, T_SELECTED, T_HELP, T_ERROR, T_DIM, T_PEAK, T_BUDGET, T_CURVE,
    T_RESIDENT, T_INTERMEDIATE, T_OUTPUT, T_CANDIDATE, T_REJECTED, /* in view_role_t order */
    T_ACCEPTED, T_HELD, T_DISCARDED,
    T_COUNT
} theme_slot_t;

enum { THEME_BOLD = 1, THEME_REVERSE = 2, THEME_UNDERLINE = 4, THEME_DIM = 8 };

typedef struct theme {
    char name[64];
    short fg[T_COUNT], bg[T_COUNT]; /* -1 default, 0..7, 8..15 bright */
    unsigned attr[T_COUNT];
} theme_t;

/* The characters a theme's name is made of (what theme_load takes). */
#define THEME_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"

/* Reads a theme: name is the name of a file NAME.theme in dir, letters,
 * digits, - and _ only (a theme is a name, never a path: `--theme
 * ../../etc/passwd` reads nothing).  Errors name the file, line and
 * column. */
int theme_load(const char *name, const char *dir, theme_t *t, rs_error_t *err);

/* Where themes named without a path are: $RS_THEMES, else the installed
 * themes beside the binary, else the source tree's (datadir.h). */
const char *theme_dir(void);

/* The built-in fallback (the default theme's values). */
void theme_builtin(theme_t *t);

/* The slot's name ("normal", "header", ...). */
const char *theme_slot_name(theme_slot_t s);

#endif
