/* fit_round1: round one of DESIGN §5: every kept candidate scored alone,
 * on all cores, and the order round two takes them in. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "plan/cand.h"
#include "plan/fit_int.h"

/* ---- step 2: round one, solo scorings on all cores ------------------------ */

typedef struct round_one {
    search_t *s;
    const reuse_scope_t *scope; /* the caller's, inherited by the workers */
    const int32_t *nodes;
    int64_t *solo;
    footprint_t *fps;
    int32_t n;
    atomic_int next;
    atomic_int done;
    atomic_int failed;
    pthread_mutex_t err_lock;
    int rc;
    int32_t rc_index;     /* the lowest failing index wins, for determinism */
    rs_error_t err;
} round_one_t;

static void round_one_work(round_one_t *r, bool report_progress)
{
    /* each thread scores against the shared reference with its own work */
    const rescore_t *ref = r->s->sh ? r->s->sh->ref1 : NULL;
    rescore_work_t *work = NULL;
    if (ref) {
        rs_error_t e;
        if (rescore_work_new(ref, &work, &e)) {
            pthread_mutex_lock(&r->err_lock);
            if (!r->rc || r->rc_index > 0) {
                r->rc = e.code;
                r->rc_index = 0;
                r->err = e;
            }
            pthread_mutex_unlock(&r->err_lock);
            atomic_store(&r->failed, 1);
            return;
        }
    }
    for (;;) {
        if (atomic_load(&r->failed))
            break;
        int32_t i = atomic_fetch_add(&r->next, 1);
        if (i >= r->n)
            break;
        rs_error_t e;
        error_clear(&e);
        int rc = fit_score_set(r->s, ref, work, &r->nodes[i], 1, &r->fps[i], &e);
        if (!rc) {
            r->solo[i] = r->fps[i].total;
            atomic_fetch_add(&r->done, 1);
        }
        /* progress is reported from the calling thread only, so a TUI's
         * callback never runs on a worker */
        const fit_options_t *opt = r->s->opt;
        if (!rc && report_progress && opt->progress &&
            opt->progress(opt->progress_ud, r->s->progress_done + atomic_load(&r->done), r->s->progress_total))
            rc = error_set(&e, RS_ECANCELED, NULL, 0, 0, "fit cancelled");
        if (rc) {
            pthread_mutex_lock(&r->err_lock);
            if (!r->rc || i < r->rc_index) {
                r->rc = rc;
                r->rc_index = i;
                r->err = e;
            }
            pthread_mutex_unlock(&r->err_lock);
            atomic_store(&r->failed, 1);
            break;
        }
    }
    rescore_work_free(work);
}

static int round_one_worker(void *arg)
{
    round_one_work(arg, false);
    return 0;
}

static void *round_one_thread(void *arg)
{
    round_one_t *r = arg;
    reuse_with_scope(r->scope, round_one_worker, r);
    return NULL;
}

int fit_score_solo(search_t *s, const int32_t *nodes, int32_t n, int64_t *solo, rs_error_t *err)
{
    round_one_t r = { .s = s, .scope = reuse_scope_current(), .nodes = nodes, .solo = solo, .n = n };
    r.fps = malloc((n ? (size_t)n : 1) * sizeof *r.fps);
    if (!r.fps)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    atomic_init(&r.next, 0);
    atomic_init(&r.done, 0);
    atomic_init(&r.failed, 0);
    pthread_mutex_init(&r.err_lock, NULL);
    int32_t threads = s->opt->threads;
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int32_t)cores : 1;
    }
    if (threads > n)
        threads = n;
    if (threads > 64)
        threads = 64;
    /* the baseline scoring already filled the reuse cell: workers only copy */
    int rc = RS_OK;
    pthread_t tid[64];
    int32_t started = 0;
    for (int32_t t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, round_one_thread, &r) == 0)
            started++;
    round_one_work(&r, true);
    for (int32_t t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    if (r.rc) {
        if (err)
            *err = r.err;
        rc = r.rc;
    }
    s->progress_done += n;
    /* the workers may have made the last scorings: the round's end is
     * told once from here, so a count reaches its total */
    const fit_options_t *opt = s->opt;
    if (!rc && n > 0 && opt->progress && opt->progress(opt->progress_ud, s->progress_done, s->progress_total))
        rc = error_set(err, RS_ECANCELED, NULL, 0, 0, "fit cancelled");
    pthread_mutex_destroy(&r.err_lock);
    free(r.fps);
    return rc;
}

static int relief_class(int64_t relief) { return relief > 0 ? 0 : relief < 0 ? 1 : 2; }

/* Positive reliefs by ratio descending, then negative ones likewise, zero
 * last; ties by cost bound ascending, then definition order. */
int fit_cmp_ranked(const void *pa, const void *pb)
{
    const ranked_t *a = pa, *b = pb;
    int ca = relief_class(a->relief), cb = relief_class(b->relief);
    if (ca != cb)
        return ca - cb;
    if (ca != 2) {
        int r = compare_relief_ratio(b->relief, b->cost, a->relief, a->cost);
        if (r)
            return r;
    }
    if (a->cost != b->cost)
        return a->cost < b->cost ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}
