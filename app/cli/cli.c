#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "config.h"
#include "fail.h"
#include "layout/arena.h"
#include "layout/layout.h"
#include "model/units.h"

#define M(cmd) (1u << (cmd))
#define COMMON (M(CMD_SCORE) | M(CMD_FIT) | M(CMD_SWEEP))
#define ANY 0xffffffffu

typedef struct cmd_entry {
    const char *name;
    const char *args;
    const char *summary;
    int (*run)(const cmdline_t *c);
    int min_pos, max_pos;
} cmd_entry_t;

static const cmd_entry_t COMMANDS[CMD_COUNT] = {
    [CMD_SCORE] = { "score", "ROUTINE [common] [--remat NODE]... [--json]", "footprint and per-buffer table", cmd_score, 1, 1 },
    [CMD_LAYOUT] = { "layout", "BUFFERS.csv [--alignment N] [--strategy greedy|timeline|tight] [--time-limit S] [--iterations N] [--output SOLUTION.csv] [--svg F.svg] [--json]",
                     "lay out a MiniMalloc buffer CSV", cmd_layout, 1, 1 },
    [CMD_FIT] = { "fit", "ROUTINE [--budget B] [--max-candidates N|all] [--scoring full] [common] [--events] [--json] [--audit] [--exact] [--improve] [--planner two-round|frontier] [--time-limit S] [--iterations N] [--log-memory-budget] [--no-progress] [--save [--label L]]",
                  "run the recompute-vs-store planner", cmd_fit, 1, 1 },
    [CMD_SWEEP] = { "sweep", "ROUTINE --budgets B1,B2,... [--policy R]... [--max-candidates N|all] [--scoring full] [--planner two-round|frontier] [--time-limit S] [--iterations N] [common] [--json] [--audit] [--log-memory-budget] [--no-progress] [--save [--label L]]",
                    "several budgets as one search (one reuse cell)", cmd_sweep, 1, 1 },
    [CMD_GEN] = { "gen", "KIND [--layers N] [--bind K=V]... [--dtype T] [-o FILE]",
                  "write a training-step routine: transformer, resnet, unet, chain, mlp", cmd_gen, 1, 1 },
    [CMD_IMPORT] = { "import", "FILE|FOLDER... [--name NAME]", "routines, a profiles CSV, MiniMalloc CSVs (all or nothing)",
                     cmd_import, 1, 100000 },
    [CMD_ROUTINES] = { "routines", "[--json]", "routines in the store", cmd_routines, 0, 0 },
    [CMD_PROFILES] = { "profiles", "[--json]", "hardware profiles in the store", cmd_profiles, 0, 0 },
    [CMD_PLANS] = { "plans", "[--json]", "saved plans, newest first", cmd_plans, 0, 0 },
    [CMD_SHOW] = { "show", "PLAN [--events] [--json]", "one saved plan", cmd_show, 1, 1 },
    [CMD_COMPARE] = { "compare", "PLAN PLAN", "two saved plans side by side", cmd_compare, 2, 2 },
    [CMD_EXPORT] = { "export", "PLAN... --what plans|flips|events|layout|origins|frontier|svg --output F.csv [--raw]", "saved plans as CSV (svg: a plan's arena; layout and svg of several plans: F-ID a plan)",
                     cmd_export, 1, 100000 },
    [CMD_DELETE] = { "delete", "PLAN...", "delete saved plans", cmd_delete, 1, 100000 },
    [CMD_TUI] = { "tui", "[FILE...] [--theme NAME] [--no-mouse]",
                  "the full-screen interface (also with no command); FILEs are imported first", cmd_tui, 0, 100000 },
    [CMD_CONVERT] = { "convert", "F.hlo [-o F.routine]", "an XLA HLO dump as a routine in the .routine format",
                      cmd_convert, 1, 1 },
    [CMD_CONFIG] = { "config", "[--config PATH] [settings flags] [--json]",
                     "each effective setting and where it comes from", cmd_config, 0, 0 },
    [CMD_VERIFY] = { "verify", "[PLAN...] [--no-progress]",
                     "re-check stored plans through a separate plain path (all when none named)", cmd_verify, 0,
                     100000 },
};

typedef enum opt_kind { OPT_FLAG, OPT_STR, OPT_LIST, OPT_INT, OPT_SECONDS, OPT_CAP } opt_kind_t;

typedef struct opt_entry {
    const char *name;
    const char *short_name; /* "-o", or NULL */
    opt_kind_t kind;
    size_t offset;      /* field in cmdline_t */
    size_t count_off;   /* OPT_LIST: its count field */
    unsigned commands;  /* where it is accepted */
    const char *help;
} opt_entry_t;

#define F(field) offsetof(cmdline_t, field)
static const opt_entry_t OPTIONS[] = {
    { "--db", NULL, OPT_STR, F(db), 0, ANY, "PATH  the session store (:memory: for none)" },
    { "--theme", NULL, OPT_STR, F(theme), 0, ANY, "NAME  colour theme of the TUI" },
    { "--config", NULL, OPT_STR, F(config_path), 0, ANY, "PATH  the configuration file to read" },
    { "--bind", NULL, OPT_LIST, F(binds), F(n_binds), COMMON | M(CMD_GEN), "K=V   override a binding (repeatable)" },
    { "--profile", NULL, OPT_STR, F(profile), 0, COMMON | M(CMD_CONFIG), "NAME  hardware profile (alignment, depth, memory)" },
    { "--alignment", NULL, OPT_INT, F(alignment), 0, COMMON | M(CMD_LAYOUT) | M(CMD_CONFIG), "N     buffer alignment in bytes" },
    { "--max-inline-depth", NULL, OPT_INT, F(max_depth), 0, COMMON | M(CMD_CONFIG), "N     inline depth limit" },
    { "--inline", NULL, OPT_LIST, F(inlines), F(n_inlines), COMMON, "NODE  a context inline preference (repeatable)" },
    { "--remat", NULL, OPT_LIST, F(remats), F(n_remats), M(CMD_SCORE), "NODE  a remat flip: NODE recomputed once, before its later reads (§14)" },
    { "--policy", NULL, OPT_LIST, F(policies), F(n_policies), M(CMD_SWEEP), "R     the same step under a jax.checkpoint policy: its total one more budget, its point beside the plans (repeatable)" },
    { "--no-aliasing", NULL, OPT_FLAG, F(no_aliasing), 0, COMMON | M(CMD_CONFIG), "      buffer_aliasing=off" },
    { "--layout", NULL, OPT_STR, F(layout), 0, COMMON | M(CMD_CONFIG), "S     layout: " LAYOUT_STRATEGY_NAMES " (greedy by default)" },
    { "--json", NULL, OPT_FLAG, F(json), 0, ANY, "      machine-readable output" },
    { "--no-mouse", NULL, OPT_FLAG, F(no_mouse), 0, M(CMD_TUI), "      the TUI ignores the mouse" },
    { "--budget", NULL, OPT_STR, F(budget), 0, M(CMD_FIT) | M(CMD_CONFIG), "B     48MiB, 1.5GB, 60%, device, minimize (else memory_budget)" },
    { "--budgets", NULL, OPT_STR, F(budgets), 0, M(CMD_SWEEP), "B,... budgets of a sweep" },
    { "--max-candidates", NULL, OPT_CAP, F(max_candidates), 0, M(CMD_FIT) | M(CMD_SWEEP), "N|all candidate cap (all: every candidate)" },
    { "--scoring", NULL, OPT_STR, F(scoring), 0, M(CMD_FIT) | M(CMD_SWEEP),
      "full  a check: lay every scoring out from scratch (same output, slower)" },
    { "--events", NULL, OPT_FLAG, F(events), 0, M(CMD_FIT) | M(CMD_SHOW), "      print the trace" },
    { "--save", NULL, OPT_FLAG, F(save), 0, M(CMD_FIT) | M(CMD_SWEEP), "      record the plan(s) in the store" },
    { "--label", NULL, OPT_STR, F(label), 0, M(CMD_FIT) | M(CMD_SWEEP), "L     a label for saved plans" },
    { "--what", NULL, OPT_STR, F(what), 0, M(CMD_EXPORT), "W     plans, flips, events, layout, origins, frontier or svg" },
    { "--audit", NULL, OPT_FLAG, F(audit), 0, M(CMD_FIT) | M(CMD_SWEEP), "      re-lower on every reuse and compare" },
    { "--log-memory-budget", NULL, OPT_FLAG, F(log_budget), 0, M(CMD_FIT) | M(CMD_SWEEP) | M(CMD_CONFIG),
      "      log each candidate the cap drops (stderr)" },
    { "--no-progress", NULL, OPT_FLAG, F(no_progress), 0, M(CMD_FIT) | M(CMD_SWEEP) | M(CMD_VERIFY),
      "      no progress line on stderr (there is one only when it is a terminal)" },
    { "--strategy", NULL, OPT_STR, F(strategy), 0, M(CMD_LAYOUT), "S     layout strategy: " LAYOUT_STRATEGY_NAMES },
    { "--time-limit", NULL, OPT_SECONDS, F(time_limit), 0, M(CMD_LAYOUT) | M(CMD_FIT) | M(CMD_SWEEP),
      "S     tight, fit --exact/--improve, --planner frontier: stop searching after S seconds" },
    { "--planner", NULL, OPT_STR, F(planner), 0, M(CMD_FIT) | M(CMD_SWEEP),
      "P     two-round (DESIGN §5, the default) or frontier (§14: inline and remat flips)" },
    { "--exact", NULL, OPT_FLAG, F(exact), 0, M(CMD_FIT), "      also the best plan over every candidate subset" },
    { "--improve", NULL, OPT_FLAG, F(improve), 0, M(CMD_FIT), "      also a local search from the two-round plan" },
    { "--iterations", NULL, OPT_INT, F(iterations), 0, M(CMD_LAYOUT) | M(CMD_FIT) | M(CMD_SWEEP),
      "N     tight, fit --exact/--improve, --planner frontier: the search's budget in steps or scorings (deterministic)" },
    { "--output", "-o", OPT_STR, F(output), 0, M(CMD_LAYOUT) | M(CMD_GEN) | M(CMD_EXPORT) | M(CMD_CONVERT),
      "FILE  where to write (solution, routine, export)" },
    { "--svg", NULL, OPT_STR, F(svg), 0, M(CMD_LAYOUT), "F.svg the arena as an SVG picture" },
    { "--layers", NULL, OPT_INT, F(layers), 0, M(CMD_GEN), "N     layers (blocks, levels) to generate" },
    { "--dtype", NULL, OPT_STR, F(dtype), 0, M(CMD_GEN), "T     element type of what gen writes" },
    { "--raw", NULL, OPT_FLAG, F(raw), 0, M(CMD_EXPORT) | M(CMD_LAYOUT), "      text cells verbatim (no ' before = + - @)" },
    { "--version", "-V", OPT_FLAG, F(version), 0, ANY, "      the version, then SQLite's, ncurses' and libcsv's" },
    { "--completion", NULL, OPT_STR, F(completion), 0, ANY, "SHELL the completion script for SHELL (bash)" },
    { "--names", NULL, OPT_STR, F(names), 0, ANY, "KIND  list themes, profiles, routines or plans" },
    { "--name", NULL, OPT_STR, F(name), 0, M(CMD_IMPORT), "NAME  the imported routine's name in the store (one routine)" },
};
#undef F
#define N_OPTIONS ((int)(sizeof OPTIONS / sizeof OPTIONS[0]))

void cli_usage(FILE *f)
{
    fprintf(f, "usage: rematscope [--db PATH] COMMAND [options]\n\ncommands:\n");
    for (int i = 0; i < CMD_COUNT; i++)
        fprintf(f, "  rematscope %-7s %s\n      %s\n", COMMANDS[i].name, COMMANDS[i].args, COMMANDS[i].summary);
    fprintf(f, "\noptions:\n");
    for (int i = 0; i < N_OPTIONS; i++) {
        char where[128] = "";
        size_t w = 0;
        if (OPTIONS[i].commands == ANY)
            snprintf(where, sizeof where, "any command");
        else
            for (int k = 0; k < CMD_COUNT; k++)
                if (OPTIONS[i].commands & M(k))
                    w += (size_t)snprintf(where + w, sizeof where - w, "%s%s", w ? "," : "", COMMANDS[k].name);
        char names[32];
        snprintf(names, sizeof names, "%s%s%s", OPTIONS[i].short_name ? OPTIONS[i].short_name : "",
                 OPTIONS[i].short_name ? ", " : "", OPTIONS[i].name);
        fprintf(f, "  %-19s %-48s [%s]\n", names, OPTIONS[i].help, where);
    }
}

static int find_command(const char *s)
{
    for (int i = 0; i < CMD_COUNT; i++)
        if (strcmp(COMMANDS[i].name, s) == 0)
            return i;
    return -1;
}

static int push(const char ***list, int *n, const char *v)
{
    const char **nl = realloc(*list, (size_t)(*n + 1) * sizeof *nl);
    if (!nl)
        return -1;
    nl[(*n)++] = v;
    *list = nl;
    return 0;
}

/* The largest value an integer option takes: what fits the 32 bits its
 * reader has (so 4294967296 is refused as the configuration file refuses
 * it, never clamped), else 64 bits. */
static int64_t int_max(const opt_entry_t *o)
{
    size_t narrow[] = { offsetof(cmdline_t, max_depth), offsetof(cmdline_t, layers),
                        offsetof(cmdline_t, max_candidates) };
    for (size_t k = 0; k < sizeof narrow / sizeof narrow[0]; k++)
        if (o->offset == narrow[k])
            return INT32_MAX;
    return INT64_MAX;
}

/* --time-limit's one rule: from a millisecond to a million seconds (0,
 * 0.0, 1e-320 and nan alike are refused). */
#define SECONDS_MIN 1e-3
#define SECONDS_MAX 1e6

static int set_option(const opt_entry_t *o, cmdline_t *c, const char *val, rs_error_t *err)
{
    char *base = (char *)c;
    switch (o->kind) {
    case OPT_FLAG:
        *(bool *)(base + o->offset) = true;
        return RS_OK;
    case OPT_STR:
        *(const char **)(base + o->offset) = val;
        return RS_OK;
    case OPT_LIST:
        if (push((const char ***)(base + o->offset), (int *)(base + o->count_off), val))
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        return RS_OK;
    case OPT_INT:
        return units_parse_int(val, o->name, 0, int_max(o), (int64_t *)(base + o->offset), err);
    case OPT_CAP: /* a count, or every candidate */
        if (strcmp(val, "all") == 0) {
            *(int64_t *)(base + o->offset) = INT32_MAX;
            return RS_OK;
        }
        return units_parse_int(val, o->name, 0, int_max(o), (int64_t *)(base + o->offset), err);
    case OPT_SECONDS: {
        char *end;
        double v = strtod(val, &end);
        if (*end || end == val || !(v >= SECONDS_MIN && v <= SECONDS_MAX))
            return error_set(err, RS_EINPUT, o->name, 0, 0, "expected seconds from 0.001 to 1000000 (e.g. 2.5), "
                             "found '%.40s'", val);
        *(double *)(base + o->offset) = v;
        return RS_OK;
    }
    }
    return RS_OK;
}

int cli_parse(int argc, char **argv, cmdline_t *c, rs_error_t *err)
{
    memset(c, 0, sizeof *c);
    c->cmd = -1;
    c->alignment = -1;
    c->max_depth = -1;
    c->max_candidates = -1;
    c->layers = -1;
    c->iterations = -1;
    /* Options may precede the subcommand (--db PATH score ...); they are
     * checked against it once it is known. */
    const opt_entry_t *seen[256];
    int n_seen = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cli_usage(stdout);
            return RS_ECANCELED;
        }
        bool is_short = a[0] == '-' && a[1] && a[1] != '-' && !a[2];
        if ((a[0] == '-' && a[1] == '-' && a[2]) || is_short) {
            const char *eq = is_short ? NULL : strchr(a, '=');
            size_t nl = eq ? (size_t)(eq - a) : strlen(a);
            const opt_entry_t *o = NULL;
            for (int k = 0; k < N_OPTIONS; k++)
                if ((strlen(OPTIONS[k].name) == nl && strncmp(OPTIONS[k].name, a, nl) == 0) ||
                    (is_short && OPTIONS[k].short_name && strcmp(OPTIONS[k].short_name, a) == 0))
                    o = &OPTIONS[k];
            if (!o)
                return error_set(err, RS_EINPUT, NULL, 0, 0, "unknown option '%s' (see rematscope --help)", a);
            const char *val = NULL;
            if (o->kind != OPT_FLAG) {
                if (eq)
                    val = eq + 1;
                else if (i + 1 < argc)
                    val = argv[++i];
                else
                    return error_set(err, RS_EINPUT, NULL, 0, 0, "option %s needs a value", o->name);
            } else if (eq) {
                return error_set(err, RS_EINPUT, NULL, 0, 0, "option %s takes no value", o->name);
            }
            int rc = set_option(o, c, val, err);
            if (rc)
                return rc;
            if (n_seen < 256)
                seen[n_seen++] = o;
            continue;
        }
        if (c->cmd < 0) {
            c->cmd = find_command(a);
            if (c->cmd >= 0)
                continue;
            /* `rematscope FILE...`: the TUI, with FILEs imported first */
            struct stat st;
            if (stat(a, &st) != 0)
                return error_set(err, RS_EINPUT, NULL, 0, 0, "unknown command or file '%s' (see rematscope --help)",
                                 a);
            c->cmd = CMD_TUI;
        }
        if (push(&c->pos, &c->n_pos, a))
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (c->cmd < 0)
        c->cmd = CMD_TUI;
    /* SQLite would open "" as an anonymous temporary store and lose what is saved */
    if (c->db && !*c->db)
        return error_set(err, RS_EINPUT, "--db", 0, 0, "an empty path (give a file, or :memory: for no store)");
    for (int k = 0; k < n_seen; k++)
        if (!(seen[k]->commands & M(c->cmd)))
            return error_set(err, RS_EINPUT, NULL, 0, 0, "option %s does not apply to '%s'", seen[k]->name,
                             COMMANDS[c->cmd].name);
    const cmd_entry_t *e = &COMMANDS[c->cmd];
    if (c->n_pos < e->min_pos || c->n_pos > e->max_pos)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "usage: rematscope %s %s", e->name, e->args);
    return RS_OK;
}

void cli_free(cmdline_t *c)
{
    free(c->binds);
    free(c->inlines);
    free(c->remats);
    free(c->policies);
    free(c->pos);
    memset(c, 0, sizeof *c);
}

int cli_run(const cmdline_t *c)
{
    config_t cfg;
    rs_error_t err;
    error_clear(&err);
    if (config_load(c->config_path, NULL, &cfg, &err))
        return fail_print(&err);
    cmdline_t with = *c;
    with.config = &cfg;
    int status = COMMANDS[c->cmd].run(&with);
    config_free(&cfg);
    return status;
}

bool cli_command_doc(int i, cli_command_doc_t *out)
{
    if (i < 0 || i >= CMD_COUNT)
        return false;
    const cmd_entry_t *e = &COMMANDS[i];
    *out = (cli_command_doc_t){ e->name, e->args, e->summary, e->min_pos, e->max_pos };
    return true;
}

bool cli_option_doc(int i, cli_option_doc_t *out)
{
    if (i < 0 || i >= N_OPTIONS)
        return false;
    const opt_entry_t *o = &OPTIONS[i];
    memset(out, 0, sizeof *out);
    out->name = o->name;
    out->short_name = o->short_name;
    out->repeatable = o->kind == OPT_LIST;
    out->commands = o->commands == ANY ? CLI_ANY_COMMAND : o->commands & CLI_ANY_COMMAND;
    /* the help is "PLACEHOLDER  text" for an option with a value, "      text" for a flag */
    const char *h = o->help;
    if (o->kind != OPT_FLAG) {
        size_t n = strcspn(h, " ");
        snprintf(out->value, sizeof out->value, "%.*s", (int)n, h);
        h += n;
    }
    out->help = h + strspn(h, " ");
    return true;
}
