#include "reuse.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct reuse_cell {
    reuse_owner_t owner;
    bool audit;
    lowering_t *snapshot;
    int64_t reused, lowered;
    pthread_mutex_t lock;
};

static _Thread_local int64_t tl_reused, tl_lowered;

static pthread_mutex_t observer_lock = PTHREAD_MUTEX_INITIALIZER;
static reuse_created_fn observer_fn;
static void *observer_ud;

void reuse_set_created_observer(reuse_created_fn fn, void *ud)
{
    pthread_mutex_lock(&observer_lock);
    observer_fn = fn;
    observer_ud = ud;
    pthread_mutex_unlock(&observer_lock);
}

reuse_cell_t *reuse_cell_new(const reuse_owner_t *owner, bool audit)
{
    reuse_cell_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->owner = *owner;
    c->audit = audit;
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_lock(&observer_lock);
    reuse_created_fn fn = observer_fn;
    void *ud = observer_ud;
    pthread_mutex_unlock(&observer_lock);
    if (fn)
        fn(c, ud);
    return c;
}

void reuse_cell_free(reuse_cell_t *c)
{
    if (!c)
        return;
    lower_free(c->snapshot);
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

int reuse_cell_lowering(reuse_cell_t *c, const reuse_owner_t *owner, lowering_t **out, rs_error_t *err)
{
    *out = NULL;
    if (!same_owner(&c->owner, owner))
        return foreign(c, owner, err);
    pthread_mutex_lock(&c->lock);
    int rc;
    if (!c->snapshot) {
        /* the first scoring lowers; the lock keeps a racing first scoring
         * from lowering twice */
        lowering_t *l;
        rc = lower_routine(owner->routine, owner->bindings, &l, err);
        if (!rc)
            rc = lower_copy(l, out, err);
        if (!rc) {
            c->snapshot = l;
            c->lowered++;
            tl_lowered++;
        } else {
            lower_free(l);
        }
        pthread_mutex_unlock(&c->lock);
        return rc;
    }
    rc = lower_copy(c->snapshot, out, err);
    if (!rc) {
        c->reused++;
        tl_reused++;
    }
    pthread_mutex_unlock(&c->lock);
    if (rc || !c->audit)
        return rc;
    lowering_t *fresh;
    rc = lower_routine(owner->routine, owner->bindings, &fresh, err);
    if (rc) {
        lower_free(*out);
        *out = NULL;
        return rc;
    }
    char what[256];
    if (lower_compare(fresh, *out, what, sizeof what) != 0) {
        rc = error_set(err, RS_EAUDIT, NULL, 0, 0, "audit: a reused lowering differs from a fresh one: %s", what);
        lower_free(*out);
        *out = NULL;
    }
    lower_free(fresh);
    return rc;
}

int reuse_cell_reseed(reuse_cell_t *c, const reuse_owner_t *owner, lowering_t *l, rs_error_t *err)
{
    if (!same_owner(&c->owner, owner))
        return foreign(c, owner, err);
    if (l->routine != owner->routine)
        return error_set(err, RS_EINVAL, NULL, 0, 0, "reseed with a lowering of another routine");
    pthread_mutex_lock(&c->lock);
    if (!c->snapshot) {
        pthread_mutex_unlock(&c->lock);
        return error_set(err, RS_EINVAL, NULL, 0, 0, "reseed of an empty reuse cell (nothing lowered yet)");
    }
    lower_free(c->snapshot);
    c->snapshot = l;
    pthread_mutex_unlock(&c->lock);
    return RS_OK;
}

const lowering_t *reuse_cell_snapshot(const reuse_cell_t *c) { return c->snapshot; }

void reuse_cell_counters(const reuse_cell_t *c, int64_t *reused, int64_t *lowered)
{
    pthread_mutex_lock((pthread_mutex_t *)&c->lock);
    *reused = c->reused;
    *lowered = c->lowered;
    pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
}

void reuse_thread_counters(int64_t *reused, int64_t *lowered)
{
    *reused = tl_reused;
    *lowered = tl_lowered;
}

void reuse_thread_counters_reset(void)
{
    tl_reused = 0;
    tl_lowered = 0;
}
