/* target: what a routine subcommand works on: the routine read from a file,
 * its bindings, the scoring config (profile, flags) and the context's inline
 * preferences, all from the common options of DESIGN §9. */
#ifndef RS_TARGET_H
#define RS_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "cmdline.h"
#include "config.h"
#include "lower/lower.h"
#include "lower/score.h"
#include "model/profile.h"
#include "model/routine.h"
#include "plan/fit.h"
#include "profiles.h"
#include "store.h"

typedef struct target {
    store_t *store;        /* opened when the routine or profile came from it, or by target_store */
    char *text;            /* the routine's source */
    size_t len;
    routine_t *routine;
    bindings_t bind;
    score_config_t cfg;
    profile_t profile;
    bool has_profile;
    uint8_t *prefs;        /* per node: --inline preferences */
    uint8_t *remat;        /* per node: --remat flips (DESIGN §14) */
    lowering_t *lowering;  /* lowered once, for the caller's first use */
    settings_t settings;   /* what cfg and the profile came from (DESIGN §11) */
    int64_t xla_bytes;     /* XLA's own total for an HLO dump (§10), -1 when not known */
} target_t;

/* Reads and lowers the routine named by arg (a file path, or else the name
 * of a routine in the store) under c's common options.  --profile is looked
 * up in the store, then in the bundled profiles.  Errors name the file,
 * line and column, or the flag. */
int target_open(const cmdline_t *c, const char *arg, target_t *t, rs_error_t *err);
void target_free(target_t *t);

/* The settings in effect for c (its command line over c->config over the
 * profile over the defaults) into t->settings, t->cfg and t->profile (t
 * zeroed, or being opened by target_open).  A profile the file names that
 * is not found is an error at the file's line. */
int target_settings(const cmdline_t *c, target_t *t, rs_error_t *err);

/* The bundled profiles CSV ($RS_PROFILES, else samples/profiles.csv where
 * datadir.h finds it); free with profiles_free. */
int target_bundled_profiles(profile_list_t *out, rs_error_t *err);
/* Finds profile name in the bundled profiles CSV (as above). */
int target_find_profile(const char *name, profile_t *out, rs_error_t *err);

/* A root fit context for t: its routine, bindings, config, and its --inline
 * preferences.  Free with fit_context_free. */
int target_context(const target_t *t, fit_context_t **out, rs_error_t *err);

/* The session store of c (--db, else the default), opened once into t. */
int target_store(const cmdline_t *c, target_t *t, rs_error_t *err);

/* Opens the store c names (--db, else the default). */
int session_open(const cmdline_t *c, store_t **out, rs_error_t *err);

/* Frees t's source text, for a command that will not store the routine
 * (t->text becomes NULL). */
void target_drop_text(target_t *t);

#endif
