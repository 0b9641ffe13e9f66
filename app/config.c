#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdline.h"
#include "lower/score.h"
#include "model/lex.h"
#include "rfile.h"
#include "util/path.h"
#include "theme.h"

static const char *KEY_NAMES[CONFIG_N_KEYS] = {
    [CONFIG_MEMORY_BUDGET] = "memory_budget",       [CONFIG_LOG_MEMORY_BUDGET] = "log_memory_budget",
    [CONFIG_BUFFER_ALIASING] = "buffer_aliasing",   [CONFIG_LAYOUT] = "layout",
    [CONFIG_ALIGNMENT] = "alignment",               [CONFIG_MAX_INLINE_DEPTH] = "max_inline_depth",
    [CONFIG_PROFILE] = "profile",                   [CONFIG_THEME] = "theme",
};

const char *config_key_name(config_key_t k) { return KEY_NAMES[k]; }

void config_free(config_t *c)
{
    free(c->path);
    for (int k = 0; k < CONFIG_N_KEYS; k++)
        free(c->text[k]);
    memset(c, 0, sizeof *c);
}

/* The longest value a key takes (a budget, a name): a longer one is an
 * error that does not echo it. */
#define VALUE_MAX 256

/* fmt's one %s is the value v, cut to 60 bytes ("...") so the message
 * keeps its end (what was expected). */
static int bad(rs_error_t *err, const char *path, int line, int col, const char *fmt, const char *v)
{
    char shown[72];
    snprintf(shown, sizeof shown, "%.60s%s", v, strlen(v) > 60 ? "..." : "");
    return error_set(err, RS_EINPUT, path, line, col, fmt, shown);
}

/* A parse error of a core parser (units, layout names), moved from its own
 * position inside the value to where the value stands in the file. */
static int relocate(rs_error_t *err, const char *path, int line, int col)
{
    int inner = err->col > 0 ? err->col - 1 : 0;
    return error_set(err, RS_EINPUT, path, line, col + inner, "%s", err->msg);
}

static int parse_bool(const char *v, const char *yes, const char *no, bool *out)
{
    if (strcmp(v, yes) == 0)
        *out = true;
    else if (strcmp(v, no) == 0)
        *out = false;
    else
        return -1;
    return 0;
}

static int parse_value(config_t *c, config_key_t k, const char *v, const char *path, int line, int col,
                       rs_error_t *err)
{
    int64_t n;
    switch (k) {
    case CONFIG_MEMORY_BUDGET:
        return units_parse_budget(v, path, &c->memory_budget, err) ? relocate(err, path, line, col) : RS_OK;
    case CONFIG_LOG_MEMORY_BUDGET:
        if (parse_bool(v, "true", "false", &c->log_memory_budget))
            return bad(err, path, line, col, "log_memory_budget: expected true or false, found '%s'", v);
        return RS_OK;
    case CONFIG_BUFFER_ALIASING:
        if (parse_bool(v, "on", "off", &c->buffer_aliasing))
            return bad(err, path, line, col, "buffer_aliasing: expected on or off, found '%s'", v);
        return RS_OK;
    case CONFIG_LAYOUT: {
        int s = layout_strategy_parse(v);
        if (s < 0)
            return bad(err, path, line, col, "layout: unknown strategy '%s' (expected " LAYOUT_STRATEGY_NAMES ")", v);
        c->layout = (layout_strategy_t)s;
        return RS_OK;
    }
    case CONFIG_ALIGNMENT:
        if (units_parse_int(v, "alignment", 1, INT64_MAX, &n, err))
            return error_set(err, RS_EINPUT, path, line, col, "alignment: %s", err->msg);
        c->alignment = n;
        return RS_OK;
    case CONFIG_MAX_INLINE_DEPTH:
        if (units_parse_int(v, "max_inline_depth", 0, INT32_MAX, &n, err))
            return error_set(err, RS_EINPUT, path, line, col, "max_inline_depth: %s", err->msg);
        c->max_inline_depth = (int32_t)n;
        return RS_OK;
    case CONFIG_PROFILE:
    case CONFIG_THEME:
        /* looked up where they are used: the profile in the store or the
         * bundled list, the theme by config_load */
        return RS_OK;
    case CONFIG_N_KEYS:
        break;
    }
    return RS_OK;
}

int config_parse(const char *path, const char *text, size_t len, config_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (!(out->path = strdup(path)))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int line = 0;
    for (size_t at = 0; at < len;) {
        line++;
        size_t next;
        size_t end = at + lex_line_span(text, len, at, &next);
        /* the line without its comment and the blanks around */
        size_t stop = at;
        while (stop < end && text[stop] != '#')
            stop++;
        size_t b = at, e = stop;
        while (b < e && isspace((unsigned char)text[b]))
            b++;
        while (e > b && isspace((unsigned char)text[e - 1]))
            e--;
        if (b == e) {
            at = next;
            continue;
        }
        int key_col = (int)(b - at) + 1;
        size_t ke = b;
        while (ke < e && (isalnum((unsigned char)text[ke]) || text[ke] == '_'))
            ke++;
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(ke - b), text + b);
        if (ke == b)
            return error_set(err, RS_EINPUT, path, line, key_col, "expected `key = value`");
        int k = 0;
        while (k < CONFIG_N_KEYS && strcmp(KEY_NAMES[k], key) != 0)
            k++;
        if (k == CONFIG_N_KEYS)
            return error_set(err, RS_EINPUT, path, line, key_col,
                             "unknown key '%s' (keys: memory_budget, log_memory_budget, buffer_aliasing, layout, "
                             "alignment, max_inline_depth, profile, theme)",
                             key);
        size_t eq = ke;
        while (eq < e && (text[eq] == ' ' || text[eq] == '\t'))
            eq++;
        if (eq == e || text[eq] != '=')
            return error_set(err, RS_EINPUT, path, line, (int)(eq - at) + 1, "expected '=' after '%s'", key);
        size_t v = eq + 1;
        while (v < e && isspace((unsigned char)text[v]))
            v++;
        int val_col = (int)(v - at) + 1;
        if (v == e)
            return error_set(err, RS_EINPUT, path, line, val_col, "%s: expected a value", key);
        if (e - v > VALUE_MAX)
            return error_set(err, RS_EINPUT, path, line, val_col, "%s: a value of %zu bytes (at most %d)", key, e - v,
                             VALUE_MAX);
        if (out->set[k])
            return error_set(err, RS_EINPUT, path, line, key_col, "%s is set twice (first at line %d)", key,
                             (int)out->line[k]);
        char *value = malloc(e - v + 1);
        if (!value)
            return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        memcpy(value, text + v, e - v);
        value[e - v] = 0;
        if (memchr(value, 0, e - v)) {
            free(value);
            return error_set(err, RS_EINPUT, path, line, val_col, "%s: a NUL byte in the value", key);
        }
        out->text[k] = value;
        out->set[k] = true;
        out->line[k] = line;
        out->col[k] = val_col;
        int rc = parse_value(out, (config_key_t)k, value, path, line, val_col, err);
        if (rc)
            return rc;
        at = next;
    }
    return RS_OK;
}

bool config_default_path(char *buf, size_t n)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        path_join(buf, n, xdg, "rematscope/config");
    else if (home && *home)
        path_join(buf, n, home, ".config/rematscope/config");
    else
        return false;
    return true;
}

/* err, a theme's error, placed at what named the theme (file, line, col)
 * with the theme file's own FILE:LINE:COL kept before its message, as
 * every error of a file says where it stands. */
static int theme_error(rs_error_t *err, const char *file, int line, int col, const char *what)
{
    char at[300] = "";
    if (err->file[0] && err->line)
        snprintf(at, sizeof at, "%s:%d:%d: ", err->file, err->line, err->col);
    else if (err->file[0])
        snprintf(at, sizeof at, "%s: ", err->file);
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    return error_set(err, RS_EINPUT, file, line, col, "%s%s%s", what, at, msg);
}

int config_load(const char *path, const char *themes_dir, config_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    char def[4096];
    struct stat st;
    if (!path) {
        /* no default file is no configuration, not an error */
        if (!config_default_path(def, sizeof def) || stat(def, &st) != 0)
            return RS_OK;
        path = def;
    }
    char *text;
    size_t len;
    int rc = rfile_read(path, &text, &len, err);
    if (rc)
        return rc;
    rc = config_parse(path, text, len, out, err);
    free(text);
    if (!themes_dir)
        themes_dir = theme_dir(); /* as the TUI looks them up */
    if (!rc && out->set[CONFIG_THEME]) {
        theme_t t;
        if (theme_load(out->text[CONFIG_THEME], themes_dir, &t, err))
            rc = theme_error(err, out->path, out->line[CONFIG_THEME], out->col[CONFIG_THEME], "theme: ");
    }
    if (rc)
        config_free(out);
    return rc;
}

const char *config_text(const config_t *f, config_key_t k) { return f && f->set[k] ? f->text[k] : NULL; }

const char *config_profile_name(const cmdline_t *c, const config_t *f, config_source_t *src)
{
    if (c->profile) {
        *src = SRC_COMMAND_LINE;
        return c->profile[0] ? c->profile : NULL;
    }
    const char *v = config_text(f, CONFIG_PROFILE);
    *src = v ? SRC_FILE : SRC_DEFAULT;
    return v;
}

static void put(settings_t *s, config_key_t k, config_source_t src, const char *fmt, const char *v)
{
    s->src[k] = src;
    snprintf(s->value[k], sizeof s->value[k], fmt, v);
}

/* The file's value of k when it sets it: the source and text. */
static bool from_file(settings_t *s, const config_t *f, config_key_t k)
{
    if (!f || !f->set[k])
        return false;
    put(s, k, SRC_FILE, "%s", f->text[k]);
    return true;
}

int settings_resolve(const cmdline_t *c, const config_t *f, const profile_t *p, settings_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    char num[32];
    /* memory_budget */
    if (c->budget) {
        if (units_parse_budget(c->budget, "--budget", &out->budget, err))
            return RS_EINPUT;
        out->has_budget = true;
        put(out, CONFIG_MEMORY_BUDGET, SRC_COMMAND_LINE, "%s", c->budget);
    } else if (from_file(out, f, CONFIG_MEMORY_BUDGET)) {
        out->has_budget = true;
        out->budget = f->memory_budget;
    } else {
        put(out, CONFIG_MEMORY_BUDGET, SRC_DEFAULT, "%s", "none");
    }
    /* log_memory_budget: the flag can only turn it on */
    if (c->log_budget) {
        out->log_memory_budget = true;
        put(out, CONFIG_LOG_MEMORY_BUDGET, SRC_COMMAND_LINE, "%s", "true");
    } else if (from_file(out, f, CONFIG_LOG_MEMORY_BUDGET)) {
        out->log_memory_budget = f->log_memory_budget;
    } else {
        put(out, CONFIG_LOG_MEMORY_BUDGET, SRC_DEFAULT, "%s", "false");
    }
    /* buffer_aliasing: the flag can only turn it off */
    if (c->no_aliasing) {
        out->aliasing = false;
        put(out, CONFIG_BUFFER_ALIASING, SRC_COMMAND_LINE, "%s", "off");
    } else if (from_file(out, f, CONFIG_BUFFER_ALIASING)) {
        out->aliasing = f->buffer_aliasing;
    } else {
        out->aliasing = true;
        put(out, CONFIG_BUFFER_ALIASING, SRC_DEFAULT, "%s", "on");
    }
    /* layout */
    if (c->layout) {
        int s = layout_strategy_parse(c->layout);
        if (s < 0)
            return error_set(err, RS_EINPUT, "--layout", 0, 0,
                             "unknown layout strategy '%s' (expected " LAYOUT_STRATEGY_NAMES ")", c->layout);
        out->layout = (layout_strategy_t)s;
        put(out, CONFIG_LAYOUT, SRC_COMMAND_LINE, "%s", c->layout);
    } else if (from_file(out, f, CONFIG_LAYOUT)) {
        out->layout = f->layout;
    } else {
        out->layout = LAYOUT_GREEDY;
        put(out, CONFIG_LAYOUT, SRC_DEFAULT, "%s", layout_strategy_name(LAYOUT_GREEDY));
    }
    /* alignment and max_inline_depth: the profile sits between the file
     * and the defaults */
    score_config_t def;
    score_config_default(&def);
    if (p)
        snprintf(out->profile_used, sizeof out->profile_used, "%s", p->name);
    if (c->alignment >= 0) {
        if (c->alignment < 1)
            return error_set(err, RS_EINPUT, "--alignment", 0, 0, "alignment must be at least 1");
        out->alignment = c->alignment;
        out->src[CONFIG_ALIGNMENT] = SRC_COMMAND_LINE;
    } else if (f && f->set[CONFIG_ALIGNMENT]) {
        out->alignment = f->alignment;
        out->src[CONFIG_ALIGNMENT] = SRC_FILE;
    } else if (p) {
        out->alignment = p->alignment;
        out->src[CONFIG_ALIGNMENT] = SRC_PROFILE;
    } else {
        out->alignment = def.alignment;
        out->src[CONFIG_ALIGNMENT] = SRC_DEFAULT;
    }
    snprintf(num, sizeof num, "%lld", (long long)out->alignment);
    put(out, CONFIG_ALIGNMENT, out->src[CONFIG_ALIGNMENT], "%s", num);
    if (c->max_depth >= 0) {
        out->max_inline_depth = (int32_t)c->max_depth; /* cli_parse refuses more than 32 bits */
        out->src[CONFIG_MAX_INLINE_DEPTH] = SRC_COMMAND_LINE;
    } else if (f && f->set[CONFIG_MAX_INLINE_DEPTH]) {
        out->max_inline_depth = f->max_inline_depth;
        out->src[CONFIG_MAX_INLINE_DEPTH] = SRC_FILE;
    } else if (p) {
        out->max_inline_depth = p->max_inline_depth;
        out->src[CONFIG_MAX_INLINE_DEPTH] = SRC_PROFILE;
    } else {
        out->max_inline_depth = def.max_inline_depth;
        out->src[CONFIG_MAX_INLINE_DEPTH] = SRC_DEFAULT;
    }
    snprintf(num, sizeof num, "%d", (int)out->max_inline_depth);
    put(out, CONFIG_MAX_INLINE_DEPTH, out->src[CONFIG_MAX_INLINE_DEPTH], "%s", num);
    /* profile */
    config_source_t src;
    out->profile = config_profile_name(c, f, &src);
    put(out, CONFIG_PROFILE, src, "%s", out->profile ? out->profile : "none");
    /* theme */
    if (c->theme) { /* checked as the file's is, so config says what the TUI will */
        theme_t th;
        if (theme_load(c->theme, theme_dir(), &th, err))
            return theme_error(err, "--theme", 0, 0, "");
        out->theme = c->theme;
        put(out, CONFIG_THEME, SRC_COMMAND_LINE, "%s", c->theme);
    } else if (from_file(out, f, CONFIG_THEME)) {
        out->theme = f->text[CONFIG_THEME];
    } else {
        out->theme = "default";
        put(out, CONFIG_THEME, SRC_DEFAULT, "%s", "default");
    }
    return RS_OK;
}

void settings_source(const settings_t *s, const config_t *f, config_key_t k, char *buf, size_t n)
{
    switch (s->src[k]) {
    case SRC_COMMAND_LINE: snprintf(buf, n, "command line"); break;
    case SRC_FILE: snprintf(buf, n, "%s:%d", f->path, (int)f->line[k]); break;
    case SRC_PROFILE: snprintf(buf, n, "profile %s", s->profile_used); break;
    case SRC_DEFAULT: snprintf(buf, n, "default"); break;
    }
}

void settings_locate_error(const settings_t *s, const config_t *f, config_key_t k, rs_error_t *err)
{
    if (s->src[k] != SRC_FILE || !f)
        return;
    error_set(err, err->code, f->path, f->line[k], f->col[k], "%s: %s", KEY_NAMES[k], err->msg);
}
