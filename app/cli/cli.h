/* cli: the command line (DESIGN §9) as data: an option table and a
 * subcommand table; the usage text is generated from both. */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

enum cmd_id {
    CMD_SCORE, CMD_LAYOUT, CMD_FIT, CMD_SWEEP, CMD_GEN, CMD_IMPORT, CMD_ROUTINES, CMD_PROFILES, CMD_PLANS,
    CMD_SHOW, CMD_COMPARE, CMD_EXPORT, CMD_DELETE, CMD_TUI, CMD_CONVERT, CMD_CONFIG, CMD_VERIFY, CMD_COUNT
};

typedef struct cli {
    int cmd;                 /* enum cmd_id */
    const char *db, *theme;  /* accepted anywhere */
    const char *config_path; /* --config, accepted anywhere */
    const struct config *config; /* the file read (config.h), set by cli_run */
    /* common */
    const char **binds;
    int n_binds;
    const char *profile;
    int64_t alignment;       /* -1: not given */
    int64_t max_depth;       /* -1: not given */
    const char **inlines;
    int n_inlines;
    bool no_aliasing;
    bool no_mouse;           /* the TUI */
    const char *layout;
    /* per command */
    bool json, events, save, audit, log_budget;
    bool exact, improve;     /* fit: DESIGN §12 */
    const char *budget, *budgets, *label, *strategy, *output, *what;
    int64_t max_candidates;  /* -1: the default; INT32_MAX: all (FIT_CAP_ALL) */
    const char *scoring;     /* fit, sweep: "full" (the check) or "incremental" (the default); NULL: the default */
    int64_t layers;          /* gen; -1: the kind's default */
    double time_limit;       /* layout --strategy tight, fit --exact/--improve; 0: none (fit: the default) */
    int64_t iterations;      /* layout --strategy tight; -1: the default */
    const char *dtype;       /* gen */
    const char *svg;         /* layout: the arena as SVG */
    bool raw;                /* export: text cells as stored, no leading ' */
    const char **pos;        /* positional arguments */
    int n_pos;
} cli_t;

/* Parses argv into c (arrays are allocated; free with cli_free).  Returns
 * RS_OK, RS_EINPUT with a message for bad usage, or RS_ECANCELED when help
 * was printed. */
int cli_parse(int argc, char **argv, cli_t *c, rs_error_t *err);
void cli_free(cli_t *c);

/* Reads the configuration file (--config, else the default one) and runs
 * the parsed command with it; returns the process exit status. */
int cli_run(const cli_t *c);

/* Prints "rematscope: <error>" on stderr; returns the exit status for it
 * (2 bad input, 3 store, 1 otherwise). */
int cli_fail(const rs_error_t *e);

/* Usage text, generated from the tables. */
void cli_usage(FILE *f);

/* Subcommands (app/cmd_*.c). */
int cmd_score(const cli_t *c);
int cmd_layout(const cli_t *c);
int cmd_fit(const cli_t *c);
int cmd_sweep(const cli_t *c);
int cmd_gen(const cli_t *c);
int cmd_import(const cli_t *c);
int cmd_routines(const cli_t *c);
int cmd_profiles(const cli_t *c);
int cmd_plans(const cli_t *c);
int cmd_show(const cli_t *c);
int cmd_compare(const cli_t *c);
int cmd_export(const cli_t *c);
int cmd_delete(const cli_t *c);
int cmd_tui(const cli_t *c);
int cmd_convert(const cli_t *c);

/* Writes text[0..n) to path whole (a temporary file renamed into place),
 * or to stdout when path is NULL; refuses a path that is c's store (or its
 * -wal/-shm); returns the exit status. */
int cli_write_text(const cli_t *c, const char *path, const char *text, size_t n);
int cmd_config(const cli_t *c);
int cmd_verify(const cli_t *c);

#endif
