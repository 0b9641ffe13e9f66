#include "cli/completion.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "datadir.h"
#include "export.h"
#include "fail.h"
#include "layout/layout.h"
#include "library.h"
#include "model/dtype.h"
#include "model/gen.h"
#include "plans.h"
#include "profiles.h"
#include "store.h"
#include "target.h"
#include "text.h"
#include "theme.h"
#include "version.h"

/* ---- the words an argument takes ---------------------------------------- */

typedef enum word_kind {
    W_NONE,     /* a number, a label: nothing to offer */
    W_FILES,
    W_LIST,     /* the words of a list_fn, known when the script is written */
    W_NAMES,    /* `rematscope --names KIND` when completing */
    W_ROUTINE,  /* files, and the store's routines */
} word_kind_t;

typedef void (*list_fn)(FILE *f);

static void layout_words(FILE *f)
{
    /* every strategy the parser takes back from its own name */
    for (int i = 0; layout_strategy_parse(layout_strategy_name((layout_strategy_t)i)) == i; i++)
        fprintf(f, "%s%s", i ? " " : "", layout_strategy_name((layout_strategy_t)i));
}

static void what_words(FILE *f)
{
    for (int i = 0; export_what_name(i); i++)
        fprintf(f, "%s ", export_what_name(i));
    fprintf(f, "svg"); /* cmd_export's own: a plan's arena as a picture */
}

static void dtype_words(FILE *f)
{
    for (int i = 0; i < DT_COUNT; i++)
        fprintf(f, "%s%s", i ? " " : "", dtype_name((dtype_t)i));
}

static void gen_words(FILE *f)
{
    for (int i = 0; i < GEN_COUNT; i++)
        fprintf(f, "%s%s", i ? " " : "", gen_kind_name((gen_kind_t)i));
}

static void budget_words(FILE *f) { fprintf(f, "minimize device"); /* DESIGN §7's words */ }

static void shell_words(FILE *f) { fprintf(f, "bash"); }

static const char *NAME_KINDS[] = { "themes", "profiles", "routines", "plans" };
#define N_NAME_KINDS ((int)(sizeof NAME_KINDS / sizeof NAME_KINDS[0]))

static void names_words(FILE *f)
{
    for (int i = 0; i < N_NAME_KINDS; i++)
        fprintf(f, "%s%s", i ? " " : "", NAME_KINDS[i]);
}

typedef struct value_rule {
    const char *option;
    word_kind_t kind;
    list_fn list;      /* W_LIST */
    const char *names; /* W_NAMES: the --names KIND */
} value_rule_t;

/* Options whose placeholder does not say what they take; any other option
 * with a value takes a file when its placeholder names one (PATH, FILE,
 * F.svg), else nothing is offered. */
static const value_rule_t VALUE_RULES[] = {
    { "--theme", W_NAMES, NULL, "themes" },      { "--profile", W_NAMES, NULL, "profiles" },
    { "--what", W_LIST, what_words, NULL },      { "--layout", W_LIST, layout_words, NULL },
    { "--strategy", W_LIST, layout_words, NULL }, { "--dtype", W_LIST, dtype_words, NULL },
    { "--budget", W_LIST, budget_words, NULL },  { "--completion", W_LIST, shell_words, NULL },
    { "--names", W_LIST, names_words, NULL },
};

static value_rule_t option_rule(const cli_option_doc_t *o)
{
    for (size_t i = 0; i < sizeof VALUE_RULES / sizeof VALUE_RULES[0]; i++)
        if (strcmp(VALUE_RULES[i].option, o->name) == 0)
            return VALUE_RULES[i];
    const char *dot = strchr(o->value, '.'); /* "F.svg", not "B,..." */
    bool file = strstr(o->value, "PATH") || strstr(o->value, "FILE") || (dot && dot[1] >= 'a' && dot[1] <= 'z');
    return (value_rule_t){ o->name, file ? W_FILES : W_NONE, NULL, NULL };
}

/* A command's positional arguments, from the first placeholder of its
 * usage ("ROUTINE", "[PLAN...]", "FILE|FOLDER..."). */
static value_rule_t positional_rule(const cli_command_doc_t *c)
{
    const char *a = c->args + strspn(c->args, "[");
    if (strncmp(a, "ROUTINE", 7) == 0)
        return (value_rule_t){ c->name, W_ROUTINE, NULL, "routines" };
    if (strncmp(a, "PLAN", 4) == 0)
        return (value_rule_t){ c->name, W_NAMES, NULL, "plans" };
    if (strncmp(a, "KIND", 4) == 0)
        return (value_rule_t){ c->name, W_LIST, gen_words, NULL };
    return (value_rule_t){ c->name, W_FILES, NULL, NULL };
}

/* ---- the bash script ------------------------------------------------------ */

/* The shell code that offers what rule r takes (one line, no newline). */
static void bash_offer(FILE *f, const value_rule_t *r)
{
    switch (r->kind) {
    case W_NONE:
        fprintf(f, ":");
        break;
    case W_FILES:
        fprintf(f, "_rematscope_files");
        break;
    case W_LIST:
        fprintf(f, "_rematscope_words '");
        r->list(f);
        fprintf(f, "'");
        break;
    case W_NAMES:
        fprintf(f, "_rematscope_names %s", r->names);
        break;
    case W_ROUTINE:
        fprintf(f, "_rematscope_files; _rematscope_names %s", r->names);
        break;
    }
}

/* "--output|-o|--svg...": every option that takes a value, as a case
 * pattern. */
static void bash_value_options(FILE *f)
{
    cli_option_doc_t o;
    bool first = true;
    for (int i = 0; cli_option_doc(i, &o); i++) {
        if (!o.value[0])
            continue;
        fprintf(f, "%s%s", first ? "" : "|", o.name);
        if (o.short_name)
            fprintf(f, "|%s", o.short_name);
        first = false;
    }
}

static void bash_commands(FILE *f, const char *sep)
{
    cli_command_doc_t c;
    for (int i = 0; cli_command_doc(i, &c); i++)
        fprintf(f, "%s%s", i ? sep : "", c.name);
}

/* The options command k accepts (every command's when k < 0), and --help. */
static void bash_options_of(FILE *f, int k)
{
    cli_option_doc_t o;
    for (int i = 0; cli_option_doc(i, &o); i++) {
        bool takes = k < 0 ? o.commands == CLI_ANY_COMMAND : (o.commands & (1u << k)) != 0;
        if (!takes)
            continue;
        fprintf(f, "%s ", o.name);
        if (o.short_name)
            fprintf(f, "%s ", o.short_name);
    }
    fprintf(f, "--help");
}

/* Every word reaches the command line quoted by printf %q, files and the
 * names a store holds alike (a name like xq$(touch x) is a word, never
 * code); nothing relies on readline's quoting of -o filenames, which a
 * name offered beside files got only by accident. */
static const char BASH_HELPERS[] =
    "# every word offered is quoted (printf %q): a stored name is never run as code\n"
    "_rematscope_add() { local q; printf -v q %q \"$1\"; COMPREPLY+=(\"$q\"); }\n"
    "_rematscope_words() { local w; for w in $(compgen -W \"$1\" -- \"$cur\"); do _rematscope_add \"$w\"; done; }\n"
    "_rematscope_files() {\n"
    "    local f d q\n"
    "    while IFS= read -r f; do\n"
    "        d=$f\n"
    "        [[ $f == \"~/\"* ]] && d=$HOME/${f#\"~/\"}\n"
    "        [[ -d $d ]] && { f+=/; compopt -o nospace 2>/dev/null; }\n"
    "        if [[ $f == \"~/\"?* ]]; then printf -v q '~/%q' \"${f#\"~/\"}\"; COMPREPLY+=(\"$q\")\n"
    "        else _rematscope_add \"$f\"; fi\n"
    "    done < <(compgen -f -- \"$cur\")\n"
    "}\n"
    "# the names only a run knows, from the binary being completed (and the line's --db)\n"
    "_rematscope_names() {\n"
    "    local bin=${COMP_WORDS[0]} w q\n"
    "    [[ $bin == \"~/\"* ]] && bin=$HOME/${bin#\"~/\"}\n"
    "    type -P \"$bin\" >/dev/null 2>&1 || bin=rematscope\n"
    "    # what was typed may be the name or its quoted form (a TAB before put that there)\n"
    "    while IFS= read -r w; do\n"
    "        printf -v q %q \"$w\"\n"
    "        [[ $w == \"$cur\"* || $q == \"$cur\"* ]] && COMPREPLY+=(\"$q\")\n"
    "    done < <(\"$bin\" --names \"$1\" \"${db[@]}\" 2>/dev/null)\n"
    "}\n";

static const char BASH_MAIN[] =
    "_rematscope() {\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} prev= opt= pre= cmd= w i npos=0\n"
    "    local -a db=()\n"
    "    COMPREPLY=()\n"
    "    # bash splits --opt=value at '=' (COMP_WORDBREAKS): the option is the word before it\n"
    "    if [[ $cur == = ]] && (( COMP_CWORD > 1 )); then\n"
    "        opt=${COMP_WORDS[COMP_CWORD-1]} cur=\n"
    "    elif (( COMP_CWORD > 2 )) && [[ ${COMP_WORDS[COMP_CWORD-1]} == = ]]; then\n"
    "        opt=${COMP_WORDS[COMP_CWORD-2]}\n"
    "    elif [[ $cur == --*=* ]]; then\n"
    "        opt=${cur%%%%=*} pre=${cur%%%%=*}= cur=${cur#*=}\n"
    "    elif (( COMP_CWORD > 1 )); then\n"
    "        prev=${COMP_WORDS[COMP_CWORD-1]}\n"
    "    fi\n"
    "    for (( i = 1; i < COMP_CWORD; i++ )); do\n"
    "        w=${COMP_WORDS[i]}\n"
    "        if [[ ${COMP_WORDS[i+1]} == = ]]; then\n"
    "            [[ $w == --db ]] && db=(--db \"${COMP_WORDS[i+2]}\")\n"
    "            (( i += 2 ))\n"
    "            continue\n"
    "        fi\n"
    "        case $w in\n"
    "            --db) db=(--db \"${COMP_WORDS[i+1]}\"); (( i++ )) ;;\n"
    "            --db=*) db=(--db \"${w#--db=}\") ;;\n"
    "            %s) (( i++ )) ;;\n" /* the options that take a value */
    "            -*) ;;\n"
    "            *)\n"
    "                if [[ -n $cmd ]]; then\n"
    "                    (( npos++ ))\n"
    "                else\n"
    "                    case $w in\n"
    "                        %s) cmd=$w ;;\n" /* the commands */
    "                        *) cmd=tui npos=1 ;; # rematscope FILE...: the TUI\n"
    "                    esac\n"
    "                fi ;;\n"
    "        esac\n"
    "    done\n"
    "    if [[ -z $opt && -n $prev ]]; then\n"
    "        case $prev in %s) opt=$prev ;; esac\n" /* the options that take a value */
    "    fi\n"
    "    if [[ -n $opt ]]; then\n"
    "        _rematscope_value \"$opt\"\n"
    "        [[ -n $pre ]] && COMPREPLY=(\"${COMPREPLY[@]/#/$pre}\")\n"
    "    elif [[ $cur == -* ]]; then\n"
    "        _rematscope_options \"$cmd\"\n"
    "    elif [[ -z $cmd ]]; then\n"
    "        _rematscope_words '%s'\n" /* the commands */
    "        _rematscope_files\n"
    "    else\n"
    "        _rematscope_positional \"$cmd\" \"$npos\" || _rematscope_options \"$cmd\"\n"
    "    fi\n"
    "    return 0\n"
    "}\n"
    "complete -F _rematscope rematscope\n";

int completion_write_bash(FILE *f)
{
    fprintf(f, "# bash completion for rematscope %s, generated from its command and option tables\n"
               "# (rematscope --completion bash); commands, options, the words an option takes,\n"
               "# theme, profile, routine and plan names (rematscope --names KIND), files.\n\n",
            version_string());
    fputs(BASH_HELPERS, f);

    fprintf(f, "_rematscope_value() {\n    case $1 in\n");
    cli_option_doc_t o;
    for (int i = 0; cli_option_doc(i, &o); i++) {
        if (!o.value[0])
            continue;
        value_rule_t r = option_rule(&o);
        fprintf(f, "        %s%s%s) ", o.name, o.short_name ? "|" : "", o.short_name ? o.short_name : "");
        bash_offer(f, &r);
        fprintf(f, " ;;\n");
    }
    fprintf(f, "    esac\n}\n");

    fprintf(f, "_rematscope_options() {\n    case $1 in\n");
    cli_command_doc_t c;
    for (int k = 0; cli_command_doc(k, &c); k++) {
        fprintf(f, "        %s) _rematscope_words '", c.name);
        bash_options_of(f, k);
        fprintf(f, "' ;;\n");
    }
    fprintf(f, "        *) _rematscope_words '");
    bash_options_of(f, -1);
    fprintf(f, "' ;;\n    esac\n}\n");

    fprintf(f, "# offers command $1's next positional argument ($2 before it); 1 when it takes no more\n"
               "_rematscope_positional() {\n    case $1 in\n");
    for (int k = 0; cli_command_doc(k, &c); k++) {
        if (c.max_pos == 0)
            continue;
        value_rule_t r = positional_rule(&c);
        fprintf(f, "        %s) (( $2 < %d )) || return 1; ", c.name, c.max_pos);
        bash_offer(f, &r);
        fprintf(f, " ;;\n");
    }
    fprintf(f, "        *) return 1 ;;\n    esac\n}\n");

    /* the commands and value options, each used twice by the main function */
    char cmds[1024], cmd_words[1024], values[2048];
    FILE *m;
    if ((m = fmemopen(cmds, sizeof cmds, "w")) == NULL)
        return -1;
    bash_commands(m, "|");
    fclose(m);
    if ((m = fmemopen(cmd_words, sizeof cmd_words, "w")) == NULL)
        return -1;
    bash_commands(m, " ");
    fclose(m);
    if ((m = fmemopen(values, sizeof values, "w")) == NULL)
        return -1;
    bash_value_options(m);
    fclose(m);
    fprintf(f, BASH_MAIN, values, cmds, values, cmd_words);
    return ferror(f) ? -1 : 0;
}

/* ---- --names KIND ----------------------------------------------------------- */

/* One name a line, escaped as every output is: a double-TAB lists these
 * to the terminal. */
static void say(FILE *f, const char *name)
{
    text_print(f, name);
    fputc('\n', f);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* NAME for each NAME.theme in the themes folder, sorted. */
static void list_themes(FILE *f)
{
    DIR *d = opendir(datadir_themes());
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 6 || e->d_name[0] == '.' || strcmp(e->d_name + len - 6, ".theme") != 0)
            continue;
        /* only what --theme takes: a file named otherwise is no theme to offer */
        if (strspn(e->d_name, THEME_NAME_CHARS) != len - 6)
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown)
            break;
        names = grown;
        if ((names[n] = strndup(e->d_name, len - 6)) != NULL)
            n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        say(f, names[i]);
        free(names[i]);
    }
    free(names);
}

/* The store c names, opened only to read it when it exists: completing
 * never creates, migrates or writes one.  NULL when there is none (or it has
 * another schema: it lists nothing until a command migrates it). */
static store_t *existing_store(const cmdline_t *c)
{
    char path[4096];
    struct stat st;
    if (c->db)
        snprintf(path, sizeof path, "%s", c->db);
    else if (store_default_path(path, sizeof path, false, NULL) != RS_OK)
        return NULL;
    if (strcmp(path, ":memory:") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    store_t *s;
    rs_error_t err;
    return store_open_read(path, &s, &err) == RS_OK ? s : NULL;
}

/* The store's profiles, then the bundled ones it lacks: what --profile finds. */
static void list_profiles(store_t *s, FILE *f)
{
    profile_t *p = NULL;
    int n = 0;
    rs_error_t err;
    if (s && library_profile_list(s, &p, &n, &err))
        n = 0;
    for (int i = 0; i < n; i++)
        say(f, p[i].name);
    profile_list_t l;
    if (target_bundled_profiles(&l, &err) == RS_OK) {
        for (int32_t i = 0; i < l.n; i++) {
            bool stored = false;
            for (int k = 0; k < n && !stored; k++)
                stored = strcmp(p[k].name, l.items[i].name) == 0;
            if (!stored)
                say(f, l.items[i].name);
        }
        profiles_free(&l);
    }
    free(p);
}

/* Each routine name once (the store lists every version). */
static void list_routines(store_t *s, FILE *f)
{
    routine_row_t *rows;
    int n;
    rs_error_t err;
    if (!s || library_routine_list(s, &rows, &n, &err))
        return;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int k = 0; k < i && !seen; k++)
            seen = strcmp(rows[k].name, rows[i].name) == 0;
        if (!seen)
            say(f, rows[i].name);
    }
    library_routine_rows_free(rows, n);
}

static void list_plans(store_t *s, FILE *f)
{
    stored_plan_t *p;
    int n;
    rs_error_t err;
    if (!s || plans_list(s, &p, &n, &err))
        return;
    for (int i = 0; i < n; i++)
        fprintf(f, "%lld\n", (long long)p[i].id);
    plans_list_free(p, n);
}

static int list_names(const cmdline_t *c, const char *kind)
{
    int k = 0;
    while (k < N_NAME_KINDS && strcmp(NAME_KINDS[k], kind) != 0)
        k++;
    if (k == N_NAME_KINDS) {
        rs_error_t err;
        error_set(&err, RS_EINPUT, "--names", 0, 0, "expected themes, profiles, routines or plans, found '%s'", kind);
        return fail_print(&err);
    }
    if (k == 0) {
        list_themes(stdout);
        return 0;
    }
    store_t *s = existing_store(c);
    if (k == 1)
        list_profiles(s, stdout);
    else if (k == 2)
        list_routines(s, stdout);
    else
        list_plans(s, stdout);
    if (s)
        store_close(s);
    return 0;
}

int completion_run(const cmdline_t *c)
{
    if (c->names)
        return list_names(c, c->names);
    if (strcmp(c->completion, "bash") != 0) {
        rs_error_t err;
        error_set(&err, RS_EINPUT, "--completion", 0, 0, "no completion for '%s' (there is one for bash)",
                  c->completion);
        return fail_print(&err);
    }
    return completion_write_bash(stdout) ? 1 : 0;
}
