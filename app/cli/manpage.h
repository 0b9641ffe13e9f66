/* manpage: the manual page, rematscope(1), written from a template of
 * hand-written roff (app/doc/rematscope.1.in) filled with what the tables
 * hold: the commands and options (cli.h) and each screen's keys
 * (keymap.h), so the page says what the parser and the TUI do. */
#ifndef RS_MANPAGE_H
#define RS_MANPAGE_H

#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

/* Writes the page: tmpl[0..len) (named path in errors) with each line
 * that is a placeholder replaced —
 *   @SYNOPSIS@          a synopsis line per command
 *   @COMMANDS@          each command, its arguments and what it does
 *   @OPTIONS@           each option, its value, help and where it applies
 *   @KEYS everywhere@   the keys of every screen
 *   @KEYS Screen@       a screen's own keys (Session, Arena, ...)
 * — and @VERSION@ anywhere.  Non-ASCII text is written as groff escapes.
 * RS_EINPUT at the template's line for an unknown placeholder, and at
 * its end when a screen's keys or a configuration key (config.h) is
 * missing from it, so the page cannot leave out what the tool has. */
int manpage_write(FILE *out, const char *tmpl, size_t len, const char *path, rs_error_t *err);

#endif
