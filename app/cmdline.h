/* cmdline: the command line (DESIGN §9) as data, what one run was asked
 * for.  app/cli parses it (cli_parse); both front ends read it, and so do
 * the modules they share (target, import, save, config). */
#ifndef RS_CMDLINE_H
#define RS_CMDLINE_H

#include <stdbool.h>
#include <stdint.h>

struct config;

typedef struct cmdline {
    int cmd;                 /* enum cmd_id (cli/cli.h) */
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
    const char **remats;     /* score: DESIGN §14's remat flips (--remat NODE) */
    int n_remats;
    const char **policies;   /* sweep: the same step under jax.checkpoint policies (--policy FILE), issue 45 */
    int n_policies;
    bool no_aliasing;
    bool no_mouse;           /* the TUI */
    const char *layout;
    /* per command */
    bool json, events, save, audit, log_budget;
    bool exact, improve;     /* fit: DESIGN §12 */
    const char *planner;     /* fit, sweep: "two-round" (DESIGN §5, the default) or "frontier" (§14) */
    bool no_progress;        /* fit, sweep, verify: no progress line on a terminal's stderr */
    const char *budget, *budgets, *label, *strategy, *output, *what;
    const char *name;        /* import: the routine's name in the store, not its text's */
    int64_t max_candidates;  /* -1: the default; INT32_MAX: all (FIT_CAP_ALL) */
    const char *scoring;     /* fit, sweep: "full" (the check) or "incremental" (the default); NULL: the default */
    int64_t layers;          /* gen; -1: the kind's default */
    double time_limit;       /* layout --strategy tight, fit --exact/--improve; 0: none (fit: the default) */
    int64_t iterations;      /* layout --strategy tight; -1: the default */
    const char *dtype;       /* gen */
    const char *svg;         /* layout: the arena as SVG */
    bool raw;                /* export: text cells as stored, no leading ' */
    bool version;            /* --version: say it, run nothing */
    const char *completion;  /* --completion SHELL: print the script (completion.h) */
    const char *names;       /* --names KIND: the names a completion offers */
    const char **pos;        /* positional arguments */
    int n_pos;
} cmdline_t;

/* Copies of c's positional arguments, each a path tidied (path_tidy:
 * "dumps//llama/" is "dumps/llama"), for the FILEs import and the TUI
 * read; NULL when out of memory.  Free with cmdline_tidy_free. */
char **cmdline_tidy_paths(const cmdline_t *c);
void cmdline_tidy_free(char **paths, int n);

#endif
