/* cli: the command line (DESIGN §9) parsed into a cmdline_t (cmdline.h)
 * from an option table and a subcommand table, and the subcommand run;
 * the usage text is generated from both. */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmdline.h"
#include "util/error.h"

enum cmd_id {
    CMD_SCORE, CMD_LAYOUT, CMD_FIT, CMD_SWEEP, CMD_GEN, CMD_IMPORT, CMD_ROUTINES, CMD_PROFILES, CMD_PLANS,
    CMD_SHOW, CMD_COMPARE, CMD_EXPORT, CMD_DELETE, CMD_TUI, CMD_CONVERT, CMD_CONFIG, CMD_VERIFY, CMD_COUNT
};

/* Parses argv into c (arrays are allocated; free with cli_free).  Returns
 * RS_OK, RS_EINPUT with a message for bad usage, or RS_ECANCELED when help
 * was printed. */
int cli_parse(int argc, char **argv, cmdline_t *c, rs_error_t *err);
void cli_free(cmdline_t *c);

/* Reads the configuration file (--config, else the default one) and runs
 * the parsed command with it; returns the process exit status. */
int cli_run(const cmdline_t *c);

/* Usage text, generated from the tables. */
void cli_usage(FILE *f);

/* Every command's bit (1u << enum cmd_id). */
#define CLI_ANY_COMMAND ((1u << CMD_COUNT) - 1)

/* A row of the command table, for what is generated from it (the manual
 * page, the shell completion). */
typedef struct cli_command_doc {
    const char *name, *args, *summary;
    int min_pos, max_pos; /* positional arguments it takes */
} cli_command_doc_t;

/* A row of the option table, likewise: value is the placeholder of its
 * value ("PATH"; empty for a flag), help the text after it. */
typedef struct cli_option_doc {
    const char *name, *short_name; /* "--output", "-o" or NULL */
    char value[24];
    const char *help;
    bool repeatable;
    unsigned commands; /* bit per command that accepts it; CLI_ANY_COMMAND: all */
} cli_option_doc_t;

/* Row i of the command (option) table into out; false past the last row. */
bool cli_command_doc(int i, cli_command_doc_t *out);
bool cli_option_doc(int i, cli_option_doc_t *out);

/* Subcommands (app/cmd_*.c). */
int cmd_score(const cmdline_t *c);
int cmd_layout(const cmdline_t *c);
int cmd_fit(const cmdline_t *c);
int cmd_sweep(const cmdline_t *c);
int cmd_gen(const cmdline_t *c);
int cmd_import(const cmdline_t *c);
int cmd_routines(const cmdline_t *c);
int cmd_profiles(const cmdline_t *c);
int cmd_plans(const cmdline_t *c);
int cmd_show(const cmdline_t *c);
int cmd_compare(const cmdline_t *c);
int cmd_export(const cmdline_t *c);
int cmd_delete(const cmdline_t *c);
int cmd_tui(const cmdline_t *c);
int cmd_convert(const cmdline_t *c);

/* Writes text[0..n) to path whole (a temporary file renamed into place),
 * or to stdout when path is NULL; refuses a path that is c's store (or its
 * -wal/-shm); returns the exit status. */
int cli_write_text(const cmdline_t *c, const char *path, const char *text, size_t n);
int cmd_config(const cmdline_t *c);
int cmd_verify(const cmdline_t *c);

#endif
