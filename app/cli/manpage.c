#include "cli/manpage.h"

#include <stdbool.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "tui/keymap.h"
#include "version.h"

/* ---- roff ------------------------------------------------------------------- */

/* The code point of the UTF-8 sequence at s (its length in *len), or -1
 * for an invalid one (one byte long). */
static long utf8_decode(const unsigned char *s, size_t n, size_t *len)
{
    int extra = s[0] >= 0xf0 && s[0] < 0xf5 ? 3 : s[0] >= 0xe0 ? 2 : s[0] >= 0xc2 ? 1 : -1;
    *len = 1;
    if (s[0] >= 0xf5 || extra < 0 || (size_t)extra >= n)
        return -1;
    long cp = s[0] & (0x3f >> extra);
    for (int k = 1; k <= extra; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return -1;
        cp = (cp << 6) | (s[k] & 0x3f);
    }
    *len = (size_t)extra + 1;
    return cp;
}

/* Writes s[0..n): non-ASCII as groff's \[uXXXX]; when text, also a
 * backslash as \e, every '-' as \- (options stay ASCII hyphens when
 * copied), and \& before a '.' or '\'' that would start a request. */
static void roff_put(FILE *f, const char *s, size_t n, bool text)
{
    const unsigned char *u = (const unsigned char *)s;
    if (text && n && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", f);
    for (size_t i = 0; i < n;) {
        if (u[i] >= 0x80) {
            size_t len;
            long cp = utf8_decode(u + i, n - i, &len);
            if (cp < 0)
                fputc('?', f);
            else
                fprintf(f, "\\[u%04lX]", cp);
            i += len;
            continue;
        }
        if (text && s[i] == '\\')
            fputs("\\e", f);
        else if (text && s[i] == '-')
            fputs("\\-", f);
        else
            fputc(s[i], f);
        i++;
    }
}

static void roff_text(FILE *f, const char *s) { roff_put(f, s, strlen(s), true); }

/* A usage string ("ROUTINE [common] [--json]"): placeholders (a word that
 * starts with a capital) in italics, options in bold. */
static void roff_usage(FILE *f, const char *s)
{
    bool after_option = false;
    while (*s) {
        size_t sep = strspn(s, " []|,");
        if (after_option && sep == 1 && s[0] == ' ' && s[1] >= 'A' && s[1] <= 'Z')
            fputs("\\ ", f); /* "--svg F.svg" on one line */
        else
            roff_put(f, s, sep, true);
        s += sep;
        size_t w = strcspn(s, " []|,"), core = w;
        while (core > 0 && s[core - 1] == '.') /* "PLAN..." keeps its dots upright */
            core--;
        bool place = s[0] >= 'A' && s[0] <= 'Z', option = s[0] == '-';
        fputs(place ? "\\fI" : option ? "\\fB" : "", f);
        roff_put(f, s, core, true);
        fputs(place || option ? "\\fR" : "", f);
        roff_put(f, s + core, w - core, true);
        after_option = option;
        s += w;
    }
}

/* ---- what the tables hold ------------------------------------------------------------ */

/* "\fBscore\fR ROUTINE [common] [--json]": the command's name in bold,
 * its usage as roff_usage sets it, a line of its own. */
static void roff_command(FILE *f, const cli_command_doc_t *c)
{
    fprintf(f, "\\fB");
    roff_text(f, c->name);
    fprintf(f, "\\fR ");
    roff_usage(f, c->args);
    fputc('\n', f);
}

static void write_synopsis(FILE *f)
{
    cli_command_doc_t c;
    for (int i = 0; cli_command_doc(i, &c); i++) { /* one block: the template's .YS ends it */
        fprintf(f, ".SY rematscope\n");
        roff_command(f, &c);
    }
}

/* s as a sentence: the tables' texts are lower case with no stop, as
 * --help prints them, and stay so (a key name starts some). */
static void roff_sentence(FILE *f, const char *s)
{
    roff_text(f, s);
    fprintf(f, ".\n");
}

static void write_commands(FILE *f)
{
    cli_command_doc_t c;
    for (int i = 0; cli_command_doc(i, &c); i++) {
        fprintf(f, ".TP\n\\fBrematscope\\fR ");
        roff_command(f, &c);
        roff_sentence(f, c.summary);
    }
}

/* "score, fit, sweep" or "any command". */
static void write_where(FILE *f, unsigned commands)
{
    if (commands == CLI_ANY_COMMAND) {
        fprintf(f, "Any command.");
        return;
    }
    fprintf(f, "Accepted by ");
    cli_command_doc_t c;
    int n = 0, total = 0;
    for (int k = 0; cli_command_doc(k, &c); k++)
        total += (commands >> k) & 1;
    for (int k = 0; cli_command_doc(k, &c); k++) {
        if (!((commands >> k) & 1))
            continue;
        n++;
        fprintf(f, "%s\\fB", n == 1 ? "" : n == total ? " and " : ", ");
        roff_text(f, c.name);
        fprintf(f, "\\fR");
    }
    fprintf(f, ".");
}

static void write_options(FILE *f)
{
    cli_option_doc_t o;
    for (int i = 0; cli_option_doc(i, &o); i++) {
        fprintf(f, ".TP\n");
        if (o.short_name) {
            fprintf(f, "\\fB");
            roff_text(f, o.short_name);
            fprintf(f, "\\fR, ");
        }
        fprintf(f, "\\fB");
        roff_text(f, o.name);
        fprintf(f, "\\fR");
        if (o.value[0]) {
            fprintf(f, " \\fI");
            roff_text(f, o.value);
            fprintf(f, "\\fR");
        }
        fputc('\n', f);
        roff_sentence(f, o.help);
        write_where(f, o.commands);
        fputc('\n', f);
    }
}

/* The keys of screen s, or (everywhere) those every screen has. */
static void write_keys(FILE *f, screen_id_t s, bool everywhere)
{
    int n;
    const key_entry_t *k = keymap_entries(&n);
    for (int i = 0; i < n; i++) {
        char keys[128];
        if ((k[i].screens == KEYS_ALL) != everywhere || !keymap_keys_for(s, i, ", ", keys, sizeof keys))
            continue;
        fprintf(f, ".TP\n.B ");
        roff_text(f, keys);
        fputc('\n', f);
        roff_text(f, k[i].help);
        if (everywhere) /* a screen whose own row takes the key (Fit's g): said, as the help overlay drops it there */
            for (int sc = 0; sc < SCR_COUNT; sc++)
                if (!keymap_row_on((screen_id_t)sc, &k[i])) {
                    char note[160];
                    snprintf(note, sizeof note, " (not on %s: there %s is its own key)",
                             keymap_screen_name((screen_id_t)sc), k[i].key_name);
                    roff_text(f, note);
                }
        fputc('\n', f);
    }
    int nc;
    const column_legend_t *c = everywhere ? NULL : keymap_columns(s, &nc);
    if (!c)
        return;
    fprintf(f, ".PP\nThe table's columns:\n");
    for (int i = 0; i < nc; i++) {
        fprintf(f, ".TP\n.B ");
        roff_text(f, c[i].heading);
        fputc('\n', f);
        roff_text(f, c[i].meaning);
        fputc('\n', f);
    }
}

/* ---- the template ----------------------------------------------------------------------- */

/* Whether word occurs in s[0..n) on its own (not inside a longer name). */
static bool has_word(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++) {
        if (memcmp(s + i, word, w) != 0)
            continue;
        bool before = i > 0 && (s[i - 1] == '_' || (s[i - 1] >= 'a' && s[i - 1] <= 'z'));
        bool after = i + w < n && (s[i + w] == '_' || (s[i + w] >= 'a' && s[i + w] <= 'z'));
        if (!before && !after)
            return true;
    }
    return false;
}

/* A template line: placeholders replaced, @VERSION@ filled in. */
static int write_line(FILE *f, const char *line, size_t n, bool *keys_done, const char *path, int ln,
                      rs_error_t *err)
{
    if (n >= 2 && line[0] == '@' && line[n - 1] == '@') {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(n - 2 < 63 ? n - 2 : 63), line + 1);
        if (strcmp(name, "SYNOPSIS") == 0)
            write_synopsis(f);
        else if (strcmp(name, "COMMANDS") == 0)
            write_commands(f);
        else if (strcmp(name, "OPTIONS") == 0)
            write_options(f);
        else if (strcmp(name, "KEYS everywhere") == 0) {
            write_keys(f, SCR_SESSION, true);
            keys_done[SCR_COUNT] = true;
        } else {
            int s = 0;
            while (s < SCR_COUNT && !(strncmp(name, "KEYS ", 5) == 0 && strcmp(name + 5, keymap_screen_name(s)) == 0))
                s++;
            if (s == SCR_COUNT)
                return error_set(err, RS_EINPUT, path, ln, 1, "unknown placeholder @%s@", name);
            write_keys(f, (screen_id_t)s, false);
            keys_done[s] = true;
        }
        return RS_OK;
    }
    for (size_t i = 0; i + 9 <= n; i++)
        if (memcmp(line + i, "@VERSION@", 9) == 0) {
            roff_put(f, line, i, false);
            fputs(version_string(), f);
            line += i + 9;
            n -= i + 9;
            i = (size_t)-1;
        }
    roff_put(f, line, n, false);
    fputc('\n', f);
    return RS_OK;
}

int manpage_write(FILE *out, const char *tmpl, size_t len, const char *path, rs_error_t *err)
{
    bool keys_done[SCR_COUNT + 1] = { false };
    int ln = 1;
    for (size_t at = 0; at < len; ln++) {
        const char *nl = memchr(tmpl + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (tmpl + at)) : len - at;
        int rc = write_line(out, tmpl + at, n, keys_done, path, ln, err);
        if (rc)
            return rc;
        at += n + 1;
    }
    for (int s = 0; s <= SCR_COUNT; s++)
        if (!keys_done[s])
            return error_set(err, RS_EINPUT, path, ln, 0, "no @KEYS %s@: the page would leave those keys out",
                             s < SCR_COUNT ? keymap_screen_name((screen_id_t)s) : "everywhere");
    for (int k = 0; k < CONFIG_N_KEYS; k++)
        if (!has_word(tmpl, len, config_key_name((config_key_t)k)))
            return error_set(err, RS_EINPUT, path, ln, 0, "the configuration key %s is not described",
                             config_key_name((config_key_t)k));
    return ferror(out) ? error_set(err, RS_EINPUT, NULL, 0, 0, "cannot write the page") : RS_OK;
}
