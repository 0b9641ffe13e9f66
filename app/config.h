/* config: the configuration file of DESIGN §11 and the effective settings.
 * `$XDG_CONFIG_HOME/rematscope/config` (else `~/.config/rematscope/config`)
 * or `--config PATH`: `key = value` lines, `#` comments.  A setting comes
 * from the command line, else the file, else the profile (alignment and
 * max_inline_depth only), else the built-in default. */
#ifndef RS_CONFIG_H
#define RS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/layout.h"
#include "model/profile.h"
#include "model/units.h"
#include "util/error.h"

struct cmdline;

typedef enum config_key {
    CONFIG_MEMORY_BUDGET,
    CONFIG_LOG_MEMORY_BUDGET,
    CONFIG_BUFFER_ALIASING,
    CONFIG_LAYOUT,
    CONFIG_ALIGNMENT,
    CONFIG_MAX_INLINE_DEPTH,
    CONFIG_PROFILE,
    CONFIG_THEME,
    CONFIG_N_KEYS
} config_key_t;

typedef enum config_source { SRC_DEFAULT, SRC_PROFILE, SRC_FILE, SRC_COMMAND_LINE } config_source_t;

/* A configuration file, read and checked: which keys it sets, where each
 * value stands, the value as written and parsed. */
typedef struct config {
    char *path;                     /* the file read; NULL when there is none */
    bool set[CONFIG_N_KEYS];
    int32_t line[CONFIG_N_KEYS];    /* of each value set (1-based) */
    int32_t col[CONFIG_N_KEYS];
    char *text[CONFIG_N_KEYS];      /* as written, trimmed; NULL when not set */
    budget_spec_t memory_budget;
    bool log_memory_budget;
    bool buffer_aliasing;
    layout_strategy_t layout;
    int64_t alignment;
    int32_t max_inline_depth;
} config_t;

/* The settings in effect, each with where it came from. */
typedef struct settings {
    config_source_t src[CONFIG_N_KEYS];
    char value[CONFIG_N_KEYS][160]; /* for people: "60%", "on", "greedy", "none" */
    bool has_budget;                /* memory_budget: none by default */
    budget_spec_t budget;
    bool log_memory_budget;
    bool aliasing;
    layout_strategy_t layout;
    int64_t alignment;
    int32_t max_inline_depth;
    const char *profile;            /* NULL: none */
    char profile_used[64];          /* the profile alignment or depth came from */
    const char *theme;
} settings_t;

/* The key's name in the file ("memory_budget", ...). */
const char *config_key_name(config_key_t k);

/* Parses text (len bytes) read from path into out (free with config_free,
 * also after an error).  An unknown key, a key set twice, a line without
 * `=` or a bad value is RS_EINPUT at path:LINE:COL. */
int config_parse(const char *path, const char *text, size_t len, config_t *out, rs_error_t *err);

/* Reads the configuration: path when given (it must exist), else the
 * default file when it exists, else none (out->path NULL).  A theme the
 * file names must load from themes_dir (NULL: $RS_THEMES, else the bundled
 * themes/).  Free with config_free. */
int config_load(const char *path, const char *themes_dir, config_t *out, rs_error_t *err);
void config_free(config_t *c);

/* The default file's path, or false when neither XDG_CONFIG_HOME nor HOME
 * is set. */
bool config_default_path(char *buf, size_t n);

/* The value f sets for k as written, or NULL (f may be NULL). */
const char *config_text(const config_t *f, config_key_t k);

/* The profile name in effect: --profile (its empty string: none), else the
 * file's; NULL when none.  *src says where from. */
const char *config_profile_name(const struct cmdline *c, const config_t *f, config_source_t *src);

/* Every setting in effect for c over f (may be NULL) over profile p (NULL:
 * none; the caller looked up config_profile_name).  Bad command-line
 * values are RS_EINPUT naming the flag. */
int settings_resolve(const struct cmdline *c, const config_t *f, const profile_t *p, settings_t *out, rs_error_t *err);

/* Where setting k came from, for people: "command line", "FILE:LINE",
 * "profile NAME", "default". */
void settings_source(const settings_t *s, const config_t *f, config_key_t k, char *buf, size_t n);

/* Moves an error about a value the file gave for k to the file's location
 * (an error found only when the value is used, e.g. a profile that does not
 * exist); a no-op unless s took k from the file. */
void settings_locate_error(const settings_t *s, const config_t *f, config_key_t k, rs_error_t *err);

#endif
