#include "plan/reuse.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct reuse_cell {
    bool filled;
    reuse_owner_t owner;   /* recorded when the cell is first filled */
    lowering_t *snapshot;
    char *name;            /* the resolved routine name, with the snapshot */
    int64_t reused, lowered;
    pthread_mutex_t lock;
};

/* One frame per with_* call, on that call's stack; a nested frame copies
 * the enclosing one and replaces its own hook. */
struct reuse_scope {
    reuse_audit_fn audit;
    void *audit_ud;
    reuse_created_fn created;
    void *created_ud;
};

static _Atomic int64_t g_reused, g_lowered;
static _Thread_local const reuse_scope_t *tl_scope;

const reuse_scope_t *reuse_scope_current(void) { return tl_scope; }

int reuse_with_scope(const reuse_scope_t *scope, reuse_body_fn body, void *ud)
{
    const reuse_scope_t *outer = tl_scope;
    tl_scope = scope;
    int rc = body(ud);
    tl_scope = outer;
    return rc;
}

static reuse_scope_t scope_inner(void)
{
    return tl_scope ? *tl_scope : (reuse_scope_t){ 0 };
}

int reuse_with_audit(reuse_audit_fn check, void *check_ud, reuse_body_fn body, void *body_ud)
{
    reuse_scope_t s = scope_inner();
    s.audit = check;
    s.audit_ud = check_ud;
    return reuse_with_scope(&s, body, body_ud);
}

int reuse_with_created_observer(reuse_created_fn fn, void *fn_ud, reuse_body_fn body, void *body_ud)
{
    reuse_scope_t s = scope_inner();
    s.created = fn;
    s.created_ud = fn_ud;
    return reuse_with_scope(&s, body, body_ud);
}

void reuse_counters(int64_t *reused, int64_t *lowered)
{
    *reused = atomic_load(&g_reused);
    *lowered = atomic_load(&g_lowered);
}

reuse_cell_t *reuse_cell_new(void)
{
    reuse_cell_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->lock, NULL);
    const reuse_scope_t *s = tl_scope;
    if (s && s->created)
        s->created(s->created_ud, c);
    return c;
}

void reuse_cell_free(reuse_cell_t *c)
{
    if (!c)
        return;
    lower_free(c->snapshot);
    free(c->name);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static bool same_owner(const reuse_owner_t *a, const reuse_owner_t *b)
{
    return a->context == b->context && a->routine == b->routine && a->bindings == b->bindings && a->name == b->name;
}

static int foreign(const reuse_cell_t *c, const reuse_owner_t *o, rs_error_t *err)
{
    const char *why = c->owner.context != o->context   ? "context"
                      : c->owner.routine != o->routine ? "routine"
                      : c->owner.bindings != o->bindings ? "bindings"
                                                         : "name";
    return error_set(err, RS_EINVAL, NULL, 0, 0,
                     "reuse cell handed a different owner (its %s differs): a cell serves one search", why);
}

/* The first scoring: lower, keep a private snapshot and the name, record
 * the owner.  Called with the lock held. */
static int fill(reuse_cell_t *c, const reuse_owner_t *owner, const reuse_thunk_t *lower, lowering_t **out,
                rs_error_t *err)
{
    lowering_t *l;
    const char *name = NULL;
    int rc = lower->lower(lower->ud, &l, &name, err);
    if (rc)
        return rc;
    char *kept = strdup(name ? name : "");
    if (!kept) {
        lower_free(l);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    /* the caller gets l, the cell a copy no scoring ever touches */
    if ((rc = lower_copy(l, &c->snapshot, err))) {
        free(kept);
        lower_free(l);
        return rc;
    }
    c->name = kept;
    c->owner = *owner;
    c->filled = true;
    c->lowered++;
    atomic_fetch_add(&g_lowered, 1);
    *out = l;
    return RS_OK;
}

int reuse_cell_lowering(reuse_cell_t *c, const reuse_owner_t *owner, const reuse_thunk_t *lower, lowering_t **out,
                        const char **name, rs_error_t *err)
{
    *out = NULL;
    const reuse_scope_t *s = tl_scope;
    reuse_audit_fn check = s ? s->audit : NULL;
    lowering_t *for_check = NULL;
    pthread_mutex_lock(&c->lock);
    int rc;
    if (!c->filled) {
        rc = fill(c, owner, lower, out, err);
    } else if (!same_owner(&c->owner, owner)) {
        rc = foreign(c, owner, err);
    } else {
        rc = lower_copy(c->snapshot, out, err);
        if (!rc && check && (rc = lower_copy(c->snapshot, &for_check, err))) {
            lower_free(*out);
            *out = NULL;
        }
        if (!rc) {
            c->reused++;
            atomic_fetch_add(&g_reused, 1);
        }
    }
    if (!rc && name)
        *name = c->name;
    pthread_mutex_unlock(&c->lock);
    if (rc || !for_check)
        return rc;
    /* an audit: lower fresh too, outside the lock (the check may be slow) */
    lowering_t *fresh;
    const char *ignored;
    rc = lower->lower(lower->ud, &fresh, &ignored, err);
    if (!rc) {
        check(s->audit_ud, for_check, fresh);
        lower_free(fresh);
    } else {
        lower_free(*out);
        *out = NULL;
    }
    lower_free(for_check);
    return rc;
}

int reuse_cell_reseed(reuse_cell_t *c, const reuse_owner_t *owner, lowering_t *l, rs_error_t *err)
{
    if (l->routine != owner->routine)
        return error_set(err, RS_EINVAL, NULL, 0, 0, "reseed with a lowering of another routine");
    pthread_mutex_lock(&c->lock);
    int rc = RS_OK;
    if (!c->filled) {
        rc = error_set(err, RS_EINVAL, NULL, 0, 0, "reseed of an empty reuse cell (nothing lowered yet)");
    } else if (!same_owner(&c->owner, owner)) {
        rc = foreign(c, owner, err);
    } else {
        lower_free(c->snapshot);
        c->snapshot = l;
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

const lowering_t *reuse_cell_snapshot(const reuse_cell_t *c) { return c->snapshot; }

void reuse_cell_counters(const reuse_cell_t *c, int64_t *reused, int64_t *lowered)
{
    pthread_mutex_lock((pthread_mutex_t *)&c->lock);
    *reused = c->reused;
    *lowered = c->lowered;
    pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
}
