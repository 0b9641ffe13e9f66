/* completion: shell completion generated from the command and option
 * tables (cli.h) — commands, each command's options, the words an option
 * takes — and the names that only a run can know (themes, profiles,
 * routines, plans), listed by `rematscope --names KIND` for the script. */
#ifndef RS_COMPLETION_H
#define RS_COMPLETION_H

#include <stdio.h>

#include "cmdline.h"

/* Runs --completion SHELL (the script to stdout) or --names KIND (one name
 * a line); returns the exit status (2 for an unknown shell or kind). */
int completion_run(const cmdline_t *c);

/* Writes the bash completion script (a function _rematscope, registered
 * with `complete -F` for rematscope); -1 on a write error. */
int completion_write_bash(FILE *f);

#endif
