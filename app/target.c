#include "target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fit.h"
#include "library.h"
#include "profiles.h"

#ifndef RS_SAMPLES_DIR
#define RS_SAMPLES_DIR "samples"
#endif

int target_read_file(const char *path, char **text, size_t *len, rs_error_t *err)
{
    *text = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return error_set(err, RS_EINPUT, path, 0, 0, "is a directory, not a file");
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    }
    for (;;) {
        if (n == cap) {
            char *nb = cap > SIZE_MAX / 4 ? NULL : realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory reading the file");
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return error_set(err, RS_EINPUT, path, 0, 0, "read error");
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return RS_OK;
}

int target_find_profile(const char *name, profile_t *out, rs_error_t *err)
{
    const char *path = getenv("RS_PROFILES");
    if (!path || !*path)
        path = RS_SAMPLES_DIR "/profiles.csv";
    profile_list_t l;
    int rc = profiles_read(path, &l, err);
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

int session_open(const cli_t *c, store_t **out, rs_error_t *err) { return store_open(c->db, out, err); }

int target_store(const cli_t *c, target_t *t, rs_error_t *err)
{
    return t->store ? RS_OK : session_open(c, &t->store, err);
}

/* Whether a store exists to be asked without creating one. */
static bool store_exists(const cli_t *c)
{
    if (c->db)
        return true;
    char path[4096];
    struct stat st;
    return store_default_path(path, sizeof path, false, NULL) == RS_OK && stat(path, &st) == 0;
}

static int read_routine(const cli_t *c, const char *arg, target_t *t, rs_error_t *err)
{
    struct stat st;
    size_t n = strlen(arg);
    bool looks_like_file = strchr(arg, '/') || (n > 8 && strcmp(arg + n - 8, ".routine") == 0);
    if (stat(arg, &st) == 0 || looks_like_file || !store_exists(c))
        return target_read_file(arg, &t->text, &t->len, err);
    int rc = target_store(c, t, err);
    bool found = false;
    char *path = NULL;
    int64_t id;
    if (!rc)
        rc = library_routine_find(t->store, arg, &id, &t->text, &t->len, &path, &found, err);
    free(path);
    if (!rc && !found)
        rc = error_set(err, RS_EINPUT, arg, 0, 0, "no such file, and no routine of that name in %s",
                       store_path(t->store));
    return rc;
}

static int find_profile(const cli_t *c, target_t *t, rs_error_t *err)
{
    if (store_exists(c)) {
        int rc = target_store(c, t, err);
        bool found = false;
        if (!rc)
            rc = library_profile_find(t->store, c->profile, &t->profile, NULL, &found, err);
        if (rc || found)
            return rc;
    }
    return target_find_profile(c->profile, &t->profile, err);
}

int target_open(const cli_t *c, const char *arg, target_t *t, rs_error_t *err)
{
    memset(t, 0, sizeof *t);
    score_config_default(&t->cfg);
    int rc = read_routine(c, arg, t, err);
    if (!rc)
        rc = routine_parse(arg, t->text, t->len, &t->routine, err);
    if (!rc)
        rc = routine_bindings(t->routine, c->binds, c->n_binds, &t->bind, err);
    if (!rc && c->profile) {
        rc = find_profile(c, t, err);
        if (!rc) {
            t->has_profile = true;
            profile_apply(&t->profile, &t->cfg);
        }
    }
    if (rc)
        goto fail;
    if (c->alignment >= 0) {
        if (c->alignment < 1) {
            rc = error_set(err, RS_EINPUT, "--alignment", 0, 0, "alignment must be at least 1");
            goto fail;
        }
        t->cfg.alignment = c->alignment;
    }
    if (c->max_depth >= 0)
        t->cfg.max_inline_depth = c->max_depth > INT32_MAX ? INT32_MAX : (int32_t)c->max_depth;
    t->cfg.aliasing = !c->no_aliasing;
    t->cfg.log_memory_budget = c->log_budget;
    if (c->layout) {
        int s = arena_strategy_parse(c->layout);
        if (s < 0) {
            rc = error_set(err, RS_EINPUT, "--layout", 0, 0, "unknown layout strategy '%s' (expected " ARENA_STRATEGY_NAMES ")",
                           c->layout);
            goto fail;
        }
        t->cfg.layout = (arena_strategy_t)s;
    }
    t->prefs = calloc(t->routine->n_nodes ? (size_t)t->routine->n_nodes : 1, 1);
    if (!t->prefs) {
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
    if ((rc = lower_routine(t->routine, &t->bind, &t->lowering, err)))
        goto fail;
    return RS_OK;
fail:
    target_free(t);
    return rc;
}

void target_free(target_t *t)
{
    lower_free(t->lowering);
    bindings_free(&t->bind);
    routine_free(t->routine);
    free(t->prefs);
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
