#include "rebuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "library.h"
#include "model/hlo.h"
#include "util/strbuf.h"

void rebuild_config_format(const score_config_t *c, char *buf, size_t n)
{
    snprintf(buf, n, "alignment=%lld max_inline_depth=%d aliasing=%s layout=%s", (long long)c->alignment,
             (int)c->max_inline_depth, c->aliasing ? "on" : "off", layout_strategy_name(c->layout));
}

int rebuild_config_parse(const char *text, score_config_t *c, rs_error_t *err)
{
    score_config_default(c);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return error_set(err, RS_ESTORE, NULL, 0, 0, "stored config '%s' is damaged", text);
        *eq++ = 0;
        if (strcmp(tok, "alignment") == 0)
            c->alignment = strtoll(eq, NULL, 10);
        else if (strcmp(tok, "max_inline_depth") == 0)
            c->max_inline_depth = (int32_t)strtol(eq, NULL, 10);
        else if (strcmp(tok, "aliasing") == 0)
            c->aliasing = strcmp(eq, "off") != 0;
        else if (strcmp(tok, "layout") == 0) {
            int st = layout_strategy_parse(eq);
            c->layout = st < 0 ? LAYOUT_GREEDY : (layout_strategy_t)st;
        }
    }
    if (c->alignment < 1)
        return error_set(err, RS_ESTORE, NULL, 0, 0, "stored config '%s' is damaged", text);
    return RS_OK;
}

char *rebuild_bindings_format(const routine_t *r, const bindings_t *b)
{
    strbuf_t s;
    strbuf_init(&s);
    strbuf_printf(&s, "%s", "");
    int w = 0;
    for (int32_t i = 0; i < b->n; i++)
        if (b->set[i])
            strbuf_printf(&s, "%s%s=%lld", w++ ? " " : "", r->syms.names[i], (long long)b->value[i]);
    if (s.oom) {
        strbuf_free(&s);
        return NULL;
    }
    return s.s;
}

/* Sets prefs[node] for each space-separated name of list. */
static int mark(const routine_t *r, const char *list, uint8_t *prefs, rs_error_t *err)
{
    char *copy = strdup(list);
    if (!copy)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    char *save = NULL;
    int rc = RS_OK;
    for (char *tok = strtok_r(copy, " ", &save); tok && !rc; tok = strtok_r(NULL, " ", &save)) {
        int32_t id = routine_find_node(r, tok);
        if (id < 0)
            rc = error_set(err, RS_ESTORE, NULL, 0, 0, "stored preference '%s' names no node of %s", tok, r->name);
        else
            prefs[id] = 1;
    }
    free(copy);
    return rc;
}

/* Routine id's stored text (kept in *source) parsed by its kind. */
static int read_stored(store_t *s, int64_t id, char **source, routine_t **out, rs_error_t *err)
{
    size_t len;
    char *name = NULL;
    int rc = library_routine_source(s, id, source, &len, &name, err);
    if (!rc) {
        char label[300];
        snprintf(label, sizeof label, "%s (stored)", name);
        rc = hlo_read_any(label, *source, len, out, err);
        if (!rc && (rc = routine_set_name(*out, name, err))) { /* its name in the store, not its text's */
            routine_free(*out);
            *out = NULL;
        }
    }
    free(name);
    return rc;
}

int rebuild_routine(store_t *s, int64_t routine_id, routine_t **out, rs_error_t *err)
{
    char *source = NULL;
    int rc = read_stored(s, routine_id, &source, out, err);
    free(source);
    return rc;
}

int rebuild_plan(store_t *s, const stored_plan_t *p, rebuilt_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int rc = read_stored(s, p->routine_id, &out->source, &out->routine, err);
    /* the stored bindings are every bound symbol: override all */
    char *copy = NULL;
    const char **kv = NULL;
    int n_kv = 0;
    if (!rc) {
        copy = strdup(p->bindings);
        kv = calloc(strlen(p->bindings) / 2 + 2, sizeof *kv);
        if (!copy || !kv)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        char *save = NULL;
        for (char *tok = copy ? strtok_r(copy, " ", &save) : NULL; !rc && tok; tok = strtok_r(NULL, " ", &save))
            kv[n_kv++] = tok;
    }
    if (!rc)
        rc = routine_bindings(out->routine, kv, n_kv, &out->bind, err);
    free(kv);
    free(copy);
    if (!rc)
        rc = rebuild_config_parse(p->config, &out->cfg, err);
    if (!rc)
        rc = lower_routine(out->routine, &out->bind, &out->lowering, err);
    if (!rc) {
        size_t nn = (size_t)out->routine->n_nodes + 1;
        out->root_prefs = calloc(nn, 1);
        out->final_prefs = calloc(nn, 1);
        if (!out->root_prefs || !out->final_prefs)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (!rc)
        rc = mark(out->routine, p->prefs, out->root_prefs, err);
    if (!rc) {
        memcpy(out->final_prefs, out->root_prefs, (size_t)out->routine->n_nodes);
        rc = mark(out->routine, p->child_prefs, out->final_prefs, err);
    }
    if (rc)
        rebuild_free(out);
    return rc;
}

void rebuild_free(rebuilt_t *r)
{
    lower_free(r->lowering);
    bindings_free(&r->bind);
    routine_free(r->routine);
    free(r->source);
    free(r->root_prefs);
    free(r->final_prefs);
    memset(r, 0, sizeof *r);
}
