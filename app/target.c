#include "target.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datadir.h"
#include "xla_report.h"
#include "library.h"
#include "model/hlo.h"
#include "plan/fit.h"
#include "profiles.h"
#include "rfile.h"

int target_bundled_profiles(profile_list_t *out, rs_error_t *err)
{
    return profiles_read(datadir_profiles(), out, err);
}

int target_find_profile(const char *name, profile_t *out, rs_error_t *err)
{
    profile_list_t l;
    int rc = target_bundled_profiles(&l, err);
    if (rc)
        return rc;
    const profile_t *p = profiles_find(&l, name);
    if (!p) {
        char names[400] = "";
        size_t w = 0;
        for (int32_t i = 0; i < l.n && w < sizeof names - 70; i++)
            w += (size_t)snprintf(names + w, sizeof names - w, "%s%s", i ? ", " : "", l.items[i].name);
        profiles_free(&l);
        return error_set(err, RS_EINPUT, "--profile", 0, 0, "no profile '%s' (known: %s)", name, names);
    }
    *out = *p;
    profiles_free(&l);
    return RS_OK;
}

int session_open(const cmdline_t *c, store_t **out, rs_error_t *err) { return store_open(c->db, out, err); }

int target_store(const cmdline_t *c, target_t *t, rs_error_t *err)
{
    return t->store ? RS_OK : session_open(c, &t->store, err);
}

/* Whether a store exists to be asked without creating one. */
static bool store_exists(const cmdline_t *c)
{
    if (c->db)
        return true;
    char path[4096];
    struct stat st;
    return store_default_path(path, sizeof path, false, NULL) == RS_OK && stat(path, &st) == 0;
}

/* Reads arg's text into t: the file, else the routine of that name in the
 * store (*stored true). */
static int read_routine(const cmdline_t *c, const char *arg, target_t *t, bool *stored, rs_error_t *err)
{
    *stored = false;
    struct stat st;
    bool looks_like_file = strchr(arg, '/') || library_name_is_file(arg);
    t->xla_bytes = -1;
    if (stat(arg, &st) == 0 || looks_like_file || !store_exists(c)) {
        int rc = rfile_read(arg, &t->text, &t->len, err);
        if (!rc && hlo_sniff(t->text, t->len))
            t->xla_bytes = xla_report_bytes(arg);
        return rc;
    }
    int rc = target_store(c, t, err);
    bool found = false;
    char *path = NULL;
    int64_t id;
    if (!rc)
        rc = library_routine_find(t->store, arg, &id, &t->text, &t->len, &path, &found, err);
    free(path);
    if (!rc && found)
        rc = library_routine_xla(t->store, arg, &t->xla_bytes, err);
    if (!rc && !found)
        rc = error_set(err, RS_EINPUT, arg, 0, 0, "no such file, and no routine of that name in %s",
                       store_path(t->store));
    *stored = !rc;
    return rc;
}

static int find_profile(const cmdline_t *c, const char *name, target_t *t, rs_error_t *err)
{
    if (store_exists(c)) {
        int rc = target_store(c, t, err);
        bool found = false;
        if (!rc)
            rc = library_profile_find(t->store, name, &t->profile, NULL, &found, err);
        if (rc || found)
            return rc;
    }
    return target_find_profile(name, &t->profile, err);
}

int target_settings(const cmdline_t *c, target_t *t, rs_error_t *err)
{
    config_source_t src;
    const char *name = config_profile_name(c, c->config, &src);
    int rc = RS_OK;
    if (name) {
        rc = find_profile(c, name, t, err);
        if (rc && src == SRC_FILE) {
            t->settings.src[CONFIG_PROFILE] = SRC_FILE;
            settings_locate_error(&t->settings, c->config, CONFIG_PROFILE, err);
        }
        t->has_profile = !rc;
    }
    if (!rc)
        rc = settings_resolve(c, c->config, t->has_profile ? &t->profile : NULL, &t->settings, err);
    if (rc)
        return rc;
    const settings_t *s = &t->settings;
    score_config_default(&t->cfg);
    t->cfg.alignment = s->alignment;
    t->cfg.max_inline_depth = s->max_inline_depth;
    t->cfg.aliasing = s->aliasing;
    t->cfg.layout = s->layout;
    t->cfg.log_memory_budget = s->log_memory_budget;
    return RS_OK;
}

int target_open(const cmdline_t *c, const char *arg, target_t *t, rs_error_t *err)
{
    memset(t, 0, sizeof *t);
    t->xla_bytes = -1;
    score_config_default(&t->cfg);
    bool stored;
    int rc = read_routine(c, arg, t, &stored, err);
    if (!rc)
        rc = hlo_read_any(arg, t->text, t->len, &t->routine, err);
    if (!rc && stored) /* the store's name, which a rename or import --name may have chosen */
        rc = routine_set_name(t->routine, arg, err);
    if (!rc)
        rc = routine_bindings(t->routine, c->binds, c->n_binds, &t->bind, err);
    if (!rc)
        rc = target_settings(c, t, err);
    if (rc)
        goto fail;
    t->prefs = calloc(t->routine->n_nodes ? (size_t)t->routine->n_nodes : 1, 1);
    t->remat = calloc(t->routine->n_nodes ? (size_t)t->routine->n_nodes : 1, 1);
    if (!t->prefs || !t->remat) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        goto fail;
    }
    for (int i = 0; i < c->n_inlines; i++) {
        int32_t id = routine_find_node(t->routine, c->inlines[i]);
        if (id < 0) {
            rc = error_set(err, RS_EINPUT, "--inline", 0, 0, "routine '%s' has no node '%s'", t->routine->name,
                           c->inlines[i]);
            goto fail;
        }
        t->prefs[id] = 1;
    }
    for (int i = 0; i < c->n_remats; i++) {
        int32_t id = routine_find_node(t->routine, c->remats[i]);
        if (id < 0) {
            rc = error_set(err, RS_EINPUT, "--remat", 0, 0, "routine '%s' has no node '%s'", t->routine->name,
                           c->remats[i]);
            goto fail;
        }
        t->remat[id] = 1;
    }
    if ((rc = lower_routine(t->routine, &t->bind, &t->lowering, err)))
        goto fail;
    return RS_OK;
fail:
    target_free(t);
    return rc;
}

void target_drop_text(target_t *t)
{
    free(t->text);
    t->text = NULL;
    t->len = 0;
}

void target_free(target_t *t)
{
    lower_free(t->lowering);
    bindings_free(&t->bind);
    routine_free(t->routine);
    free(t->prefs);
    free(t->remat);
    free(t->text);
    store_close(t->store);
    memset(t, 0, sizeof *t);
}

int target_context(const target_t *t, fit_context_t **out, rs_error_t *err)
{
    int32_t n = 0, N = t->routine->n_nodes;
    int32_t *nodes = malloc(((size_t)N + 1) * sizeof *nodes);
    if (!nodes)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int32_t i = 0; i < N; i++)
        if (t->prefs[i])
            nodes[n++] = i;
    int rc = fit_context_root(t->routine, &t->bind, &t->cfg, nodes, n, out, err);
    free(nodes);
    return rc;
}
