#include "plan/frontier.h"

#include "plan/frontier_seed.h"

#include <stdlib.h>
#include <string.h>

enum { K_NONE = 0, K_INLINE = 1, K_REMAT = 2 };

/* A plan under search: each node's flip, and the order they were added. */
typedef struct state {
    uint8_t *kind;     /* per node: K_NONE, K_INLINE, K_REMAT */
    int32_t *ord;      /* nodes with a flip, in the order added */
    int32_t n_ord;
    footprint_t fp;
} state_t;

typedef struct fr {
    const frontier_options_t *opt;
    const lowering_t *l;
    const score_config_t *cfg;
    int32_t N;
    uint8_t *ctx;      /* the context's preferences */
    uint8_t *prefs, *rem; /* scratch: one scoring's inline preferences and remat flips */
    int64_t *live;     /* scratch: bytes live per step */
    int32_t *elig;     /* nodes a flip may name */
    int32_t n_elig;
    uint8_t *is_elig;  /* per node */
    uint8_t *ctx_inline; /* per node: inline under the context alone */
    int32_t *last_end; /* per node: the last step its buffer or copy lives, in the last quick look; -1 inline */
    int32_t *cur_end;  /* the same for the greedy's current plan */
    int32_t *members, n_members; /* a block move's nodes besides its own */
    int32_t *stack, *mark, stamp;
    double *keys;      /* the greedy's move keys, kept for later runs (as stale bounds) */
    int64_t *seen;     /* the version each key was scored at */
    bool have_keys;
    uint8_t *banned;   /* per node: no move may flip it (a recreate's removed flip) */
    bool no_fan;       /* this start leaves fan moves out */
    bool keep_free;    /* local search drops a flip only when strictly better */
    int64_t explored;
    bool stopped;
} fr_t;

static int oom(rs_error_t *err) { return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory planning"); }

static void count(fr_t *f)
{
    f->explored++;
    if ((f->opt->stop && f->opt->stop(f->opt->stop_ud)) ||
        (f->opt->max_scorings > 0 && f->explored >= f->opt->max_scorings))
        f->stopped = true;
}

static void set_flips(fr_t *f, const uint8_t *kind)
{
    for (int32_t i = 0; i < f->N; i++) {
        f->prefs[i] = f->ctx[i] || kind[i] == K_INLINE;
        f->rem[i] = kind[i] == K_REMAT;
    }
}

/* Scores kind exactly (the layout included) into *fp. */
static int eval_full(fr_t *f, const uint8_t *kind, footprint_t *fp, rs_error_t *err)
{
    set_flips(f, kind);
    int rc = remat_score(f->l, f->prefs, f->rem, f->cfg, fp, NULL, err);
    count(f);
    return rc;
}

/* Scores kind without the layout (fp->total is -1; compute and live_peak
 * exact) and, when excess is not NULL, the bytes live above target summed
 * over the steps into *excess. */
static int eval_spans(fr_t *f, const uint8_t *kind, int64_t target, footprint_t *fp, int64_t *excess,
                      rs_error_t *err)
{
    set_flips(f, kind);
    remat_detail_t d;
    int rc = remat_score_spans(f->l, f->prefs, f->rem, f->cfg, fp, &d, err);
    count(f);
    if (rc || !excess)
        goto done;
    for (int32_t i = 0; i < f->N; i++)
        f->last_end[i] = d.end[i];
    for (int32_t k = 0; k < d.n_copies; k++)
        f->last_end[d.copies[k].node] = d.copies[k].end;
    int32_t S = d.n_steps;
    memset(f->live, 0, ((size_t)S + 1) * sizeof *f->live);
    for (int32_t i = 0; i < f->N; i++)
        if (d.start[i] >= 0) {
            f->live[d.start[i]] += d.aligned[i];
            f->live[d.end[i] + 1] -= d.aligned[i];
        }
    for (int32_t k = 0; k < d.n_copies; k++) {
        f->live[d.copies[k].step] += d.aligned[d.copies[k].node];
        f->live[d.copies[k].end + 1] -= d.aligned[d.copies[k].node];
    }
    int64_t run = 0, ex = 0;
    for (int32_t s = 0; s < S; s++) {
        run += f->live[s];
        if (run > target)
            ex += run - target;
    }
    *excess = ex;
done:
    remat_detail_free(&d);
    return rc;
}

/* a strictly better than b by §14's objective */
static bool better(const fr_t *f, const footprint_t *a, const footprint_t *b)
{
    return frontier_better(f->opt->minimize, f->opt->budget, a, b);
}

static bool met(const fr_t *f, const footprint_t *fp) { return f->opt->minimize || fp->total <= f->opt->budget; }

static int state_init(state_t *s, int32_t N)
{
    s->kind = calloc(N ? (size_t)N : 1, 1);
    s->ord = malloc((N ? (size_t)N : 1) * sizeof *s->ord);
    s->n_ord = 0;
    return s->kind && s->ord ? 0 : -1;
}

static void state_free(state_t *s)
{
    free(s->kind);
    free(s->ord);
    memset(s, 0, sizeof *s);
}

static void state_copy(state_t *to, const state_t *from, int32_t N)
{
    memcpy(to->kind, from->kind, (size_t)N);
    memcpy(to->ord, from->ord, (size_t)from->n_ord * sizeof *to->ord);
    to->n_ord = from->n_ord;
    to->fp = from->fp;
}

static void state_drop(state_t *s, int32_t node)
{
    s->kind[node] = K_NONE;
    int32_t m = 0;
    for (int32_t k = 0; k < s->n_ord; k++)
        if (s->ord[k] != node)
            s->ord[m++] = s->ord[k];
    s->n_ord = m;
}

/* A move's worth: relief (excess freed) per added FLOP; a move that adds
 * no compute ranks above every one that does; no relief: dead (< 0). */
static double worth(int64_t relief, int64_t added)
{
    if (relief <= 0)
        return -1.0;
    return added <= 0 ? 1e100 * (double)relief : (double)relief / (double)added;
}

/* Moves: for each eligible node, an inline flip, a remat flip, a block:
 * the remat flip with the arguments (through inline ones) that it would
 * keep alive longer than they live now, transitively, so the block is
 * recomputed once from what lives at its boundary anyway (residents, and
 * values still live where the node's last read is); and a fan: remat flips
 * of every reader of the node, which is kept (what JAX's dots policies do:
 * keep a product, recompute what is made from it). */
#define KINDS 4

static void closure(fr_t *f, const state_t *s, int32_t node)
{
    const lowering_t *l = f->l;
    int32_t thr = f->cur_end[node], sp = 0;
    f->n_members = 0;
    if (thr < 0)
        return;
    f->stamp++;
    f->mark[node] = f->stamp;
    f->stack[sp++] = node;
    while (sp > 0) {
        int32_t x = f->stack[--sp], d = l->first_def[x];
        for (int32_t a = l->arg_off[d]; a < l->arg_off[d + 1]; a++) {
            int32_t b = l->args[a];
            if (f->mark[b] == f->stamp || lower_is_resident(l, b))
                continue;
            f->mark[b] = f->stamp;
            if (f->ctx_inline[b] || s->kind[b] == K_INLINE) { /* read through: its arguments are what is read */
                f->stack[sp++] = b;
                continue;
            }
            if (!f->is_elig[b] || f->banned[b] || s->kind[b] != K_NONE || f->cur_end[b] >= thr)
                continue; /* kept: not ours to flip, or live there anyway */
            f->members[f->n_members++] = b;
            f->stack[sp++] = b;
        }
    }
}

/* Puts move m on s->kind; false when it is no move (its node is flipped, or
 * a block holds nothing but its node). */
static bool move_apply(fr_t *f, state_t *s, int32_t m)
{
    int32_t node = f->elig[m / KINDS], k = m % KINDS;
    f->n_members = 0;
    if (s->kind[node] != K_NONE || f->banned[node])
        return false;
    if (k == 2) {
        closure(f, s, node);
        if (f->n_members == 0)
            return false;
    }
    if (k == 3) {
        const lowering_t *l = f->l;
        if (f->no_fan)
            return false;
        f->stamp++;
        for (int32_t r = l->rd_off[node]; r < l->rd_off[node + 1]; r++) {
            int32_t o = l->step_owner[l->rd_step[r]];
            if (f->mark[o] != f->stamp && f->is_elig[o] && !f->banned[o] && s->kind[o] == K_NONE) {
                f->mark[o] = f->stamp;
                f->members[f->n_members++] = o;
            }
        }
        if (f->n_members < 2) /* one reader: its own remat flip */
            return false;
        for (int32_t j = 0; j < f->n_members; j++)
            s->kind[f->members[j]] = K_REMAT;
        return true;
    }
    s->kind[node] = (uint8_t)(k == 0 ? K_INLINE : K_REMAT);
    for (int32_t j = 0; j < f->n_members; j++)
        s->kind[f->members[j]] = K_REMAT;
    return true;
}

static void move_undo(fr_t *f, state_t *s, int32_t m)
{
    if (m % KINDS != 3)
        s->kind[f->elig[m / KINDS]] = K_NONE;
    for (int32_t j = 0; j < f->n_members; j++)
        s->kind[f->members[j]] = K_NONE;
}

static void move_take(fr_t *f, state_t *s, int32_t m)
{
    if (m % KINDS != 3)
        s->ord[s->n_ord++] = f->elig[m / KINDS];
    for (int32_t j = 0; j < f->n_members; j++)
        s->ord[s->n_ord++] = f->members[j];
}

/* The lazy greedy: adds flips to s, the best worth first, until its total
 * is at most goal (or nothing frees bytes above the target, or a stop).
 * The target of the excess starts at goal and is lowered by what the
 * arena's height exceeds goal whenever nothing lives above it any more. */
static int greedy(fr_t *f, state_t *s, int64_t goal, bool reuse, rs_error_t *err)
{
    int32_t M = KINDS * f->n_elig;
    double *key = f->keys;
    int64_t *seen = f->seen;
    int64_t target = goal, ex = 0, version = 0;
    bool exact = true; /* s->fp is a scoring's, not a bound */
    reuse = reuse && f->have_keys;
    for (int32_t m = 0; m < M; m++) {
        if (!reuse) {
            key[m] = -1.0; /* dead until scored, so a cut first pass leaves the rest out */
            seen[m] = 0;
        } else { /* another plan's keys: every one stale, the dead worth a last look */
            seen[m] = -1;
            if (key[m] < 0)
                key[m] = 1e-300;
        }
    }
    footprint_t cheap;
    int rc = eval_full(f, s->kind, &s->fp, err);
    if (!rc && s->fp.total > goal) { /* a plan within the goal needs no pass over the moves */
        rc = eval_spans(f, s->kind, target, &cheap, &ex, err);
        memcpy(f->cur_end, f->last_end, (size_t)f->N * sizeof *f->cur_end);
    }
    for (int32_t m = 0; m < M && !reuse && !rc && !f->stopped && s->fp.total > goal; m++) {
        if (!move_apply(f, s, m))
            continue;
        footprint_t fp;
        int64_t nex;
        rc = eval_spans(f, s->kind, target, &fp, &nex, err);
        move_undo(f, s, m);
        key[m] = rc ? -1.0 : worth(ex - nex, fp.compute - s->fp.compute);
    }
    while (!rc && !f->stopped && s->fp.total > goal) {
        int32_t best = -1, second = -1;
        for (int32_t m = 0; m < M; m++) {
            if (s->kind[f->elig[m / KINDS]] != K_NONE || key[m] < 0)
                continue;
            if (best < 0 || key[m] > key[best]) {
                second = best;
                best = m;
            } else if (second < 0 || key[m] > key[second]) {
                second = m;
            }
        }
        if (best < 0)
            break;
        if (!move_apply(f, s, best)) { /* a block with nothing left but its node */
            key[best] = -1.0;
            continue;
        }
        footprint_t fp;
        int64_t nex;
        if ((rc = eval_spans(f, s->kind, target, &fp, &nex, err)))
            break;
        double w = worth(ex - nex, fp.compute - s->fp.compute);
        if (seen[best] != version && (w < 0 || (second >= 0 && w < key[second]))) {
            move_undo(f, s, best); /* stale: it sorts again by what it is worth now */
            key[best] = w;
            seen[best] = version;
            continue;
        }
        if (w < 0) { /* scored at this version and still frees nothing */
            move_undo(f, s, best);
            key[best] = -1.0;
            continue;
        }
        move_take(f, s, best);
        memcpy(f->cur_end, f->last_end, (size_t)f->N * sizeof *f->cur_end);
        /* the layout only once the live peak (a lower bound on the total)
         * is within the goal; until then the bound stands for the total */
        exact = fp.live_peak <= goal;
        if (exact && (rc = eval_full(f, s->kind, &s->fp, err)))
            break;
        if (!exact) {
            s->fp = fp;
            s->fp.total = fp.live_peak;
        }
        ex = nex;
        version++;
        if (ex == 0 && s->fp.total > goal) {
            /* nothing lives above the target, yet the layout's height is
             * over the goal: aim lower, and let the dead be tried again */
            int64_t over = s->fp.total - goal;
            target = target > over ? target - over : 0;
            if ((rc = eval_spans(f, s->kind, target, &fp, &ex, err)))
                break;
            memcpy(f->cur_end, f->last_end, (size_t)f->N * sizeof *f->cur_end);
            for (int32_t m = 0; m < M; m++)
                if (key[m] < 0)
                    key[m] = 1e-300;
        }
    }
    if (!rc && !exact)
        rc = eval_full(f, s->kind, &s->fp, err);
    if (!reuse && !f->stopped)
        f->have_keys = true;
    return rc;
}

/* Local search: drop a flip (taken when no worse; with keep_free, when
 * strictly better), or turn it into the other kind (taken when strictly
 * better); repeated until neither helps. */
static int improve(fr_t *f, state_t *s, rs_error_t *err)
{
    int rc = RS_OK;
    bool again = true;
    while (again && !rc && !f->stopped) {
        again = false;
        for (int32_t k = s->n_ord - 1; k >= 0 && !rc && !f->stopped; k--) {
            int32_t node = s->ord[k];
            uint8_t was = s->kind[node];
            for (int alt = 0; alt < 2 && !rc && !f->stopped; alt++) {
                s->kind[node] = alt == 0 ? K_NONE : (was == K_INLINE ? K_REMAT : K_INLINE);
                /* the layout only when the live peak (a lower bound on the
                 * total) leaves room to be better */
                footprint_t fp;
                rc = eval_spans(f, s->kind, 0, &fp, NULL, err);
                fp.total = fp.live_peak;
                /* a flip that buys nothing goes: recompute is never kept for
                 * zero bytes, nor a flip for nothing */
                bool drop = alt == 0 && !f->keep_free;
                if (!rc && (better(f, &fp, &s->fp) || (drop && !better(f, &s->fp, &fp))))
                    rc = eval_full(f, s->kind, &fp, err);
                if (!rc && (better(f, &fp, &s->fp) || (drop && !better(f, &s->fp, &fp)))) {
                    s->fp = fp;
                    if (alt == 0) {
                        s->kind[node] = was;
                        state_drop(s, node);
                    }
                    again = true;
                    break;
                }
                s->kind[node] = was;
            }
        }
    }
    return rc;
}

/* Ruin and recreate: for the flips of s with the costliest definitions,
 * one at a time, the plan without it, the greedy back to the budget with it
 * banned (from the keys kept, so a few scorings), then local search; the
 * result replaces s when strictly better. */
#define RECREATE_TRIES 12

static int recreate(fr_t *f, state_t *s, state_t *tmp, rs_error_t *err)
{
    int rc = RS_OK;
    for (int t = 0; t < RECREATE_TRIES && !rc && !f->stopped; t++) {
        int32_t x = -1; /* the t-th costliest flip of s now (index order on ties) */
        for (int32_t k = 0; k < s->n_ord; k++) {
            int32_t n = s->ord[k];
            int rank = 0;
            for (int32_t j = 0; j < s->n_ord; j++) {
                int32_t o = s->ord[j];
                rank += f->l->cost[o] > f->l->cost[n] || (f->l->cost[o] == f->l->cost[n] && o < n);
            }
            if (rank == t)
                x = n;
        }
        if (x < 0)
            break;
        state_copy(tmp, s, f->N);
        state_drop(tmp, x);
        f->banned[x] = 1;
        rc = greedy(f, tmp, f->opt->minimize ? s->fp.total : f->opt->budget, true, err);
        if (!rc)
            rc = improve(f, tmp, err);
        f->banned[x] = 0;
        if (!rc && better(f, &tmp->fp, &s->fp))
            state_copy(s, tmp, f->N);
    }
    return rc;
}

/* The search from s: the greedy toward the budget (Minimize: toward one
 * byte below each total reached, while that helps), then local search. */
static int search(fr_t *f, state_t *s, rs_error_t *err)
{
    int rc;
    if (!f->opt->minimize) {
        rc = greedy(f, s, f->opt->budget, false, err);
    } else {
        int64_t before;
        do {
            before = s->fp.total;
            rc = greedy(f, s, before > 0 ? before - 1 : 0, false, err);
        } while (!rc && !f->stopped && s->fp.total < before && s->fp.total > 0);
    }
    return rc ? rc : improve(f, s, err);
}

/* Policy-like seeds (frontier_seed.h), for each threshold: its remat
 * flips; local search keeping the flips that cost nothing (a drop taken
 * only when strictly better: far above the budget, the harmful flips go,
 * those that stretch arguments more than they free); the greedy toward the
 * goal, scoring its own moves (the kept keys were scored on a plan far from
 * this one); local search.  The best replaces *best when strictly better,
 * and is then given ruin and recreate. */
static int policy_seeds(fr_t *f, state_t *best, state_t *cur, state_t *tmp, rs_error_t *err)
{
    int rc = RS_OK;
    bool won = false;
    int32_t prev = -1;
    for (int t = 0; t < FRONTIER_SEED_COUNT && !rc && !f->stopped; t++) {
        memset(cur->kind, 0, (size_t)f->N);
        cur->n_ord = frontier_seed_threshold(f->l, f->elig, f->n_elig, f->banned, frontier_seed_fpb[t], cur->ord);
        if (cur->n_ord == 0 || cur->n_ord == prev) /* the lists nest: the same count is the same seed */
            continue;
        prev = cur->n_ord;
        for (int32_t k = 0; k < cur->n_ord; k++)
            cur->kind[cur->ord[k]] = K_REMAT;
        f->no_fan = false;
        int64_t goal = f->opt->minimize ? (best->fp.total > 0 ? best->fp.total - 1 : 0) : f->opt->budget;
        f->keep_free = true;
        rc = eval_full(f, cur->kind, &cur->fp, err);
        if (!rc)
            rc = improve(f, cur, err);
        f->keep_free = false;
        if (!rc)
            rc = greedy(f, cur, goal, false, err);
        if (!rc)
            rc = improve(f, cur, err);
        if (!rc && better(f, &cur->fp, &best->fp)) {
            state_copy(best, cur, f->N);
            won = true;
        }
    }
    if (!rc && won && !f->stopped)
        rc = recreate(f, best, tmp, err);
    return rc;
}

/* The flips of s in its order, each with its relief and recompute on top
 * of those before it (one scoring each). */
static int fill_flips(fr_t *f, const state_t *s, frontier_result_t *out, rs_error_t *err)
{
    out->flips = calloc((size_t)s->n_ord + 1, sizeof *out->flips);
    uint8_t *k = calloc(f->N ? (size_t)f->N : 1, 1);
    int rc = out->flips && k ? RS_OK : oom(err);
    footprint_t prev = out->baseline;
    for (int32_t j = 0; j < s->n_ord && !rc; j++) {
        int32_t node = s->ord[j];
        k[node] = s->kind[node];
        footprint_t fp;
        if ((rc = eval_full(f, k, &fp, err)))
            break;
        out->flips[j] = (frontier_flip_t){ .relief = prev.total - fp.total, .recompute = fp.compute - prev.compute,
                                           .node = node,
                                           .kind = (uint8_t)(s->kind[node] == K_REMAT ? FRONTIER_REMAT
                                                                                       : FRONTIER_INLINE) };
        prev = fp;
    }
    out->n_flips = rc ? 0 : s->n_ord;
    out->final = prev; /* = s->fp: the same flips */
    free(k);
    return rc;
}

int frontier_score(const fit_context_t *ctx, const lowering_t *l, const frontier_flip_t *flips, int32_t n,
                   footprint_t *out, rs_error_t *err)
{
    return frontier_score_detail(ctx, l, flips, n, out, NULL, err);
}

int frontier_score_detail(const fit_context_t *ctx, const lowering_t *l, const frontier_flip_t *flips, int32_t n,
                          footprint_t *out, remat_detail_t *detail, rs_error_t *err)
{
    if (detail)
        memset(detail, 0, sizeof *detail);
    int32_t N = l->n_nodes;
    uint8_t *p = calloc(N ? (size_t)N : 1, 1), *r = calloc(N ? (size_t)N : 1, 1);
    if (!p || !r) {
        free(p);
        free(r);
        return oom(err);
    }
    fit_context_prefs(ctx, p);
    for (int32_t k = 0; k < n; k++)
        (flips[k].kind == FRONTIER_REMAT ? r : p)[flips[k].node] = 1;
    int rc = remat_score(l, p, r, &ctx->cfg, out, detail, err);
    free(p);
    free(r);
    return rc;
}

/* The nodes a flip may name: materialized under the context alone, not
 * resident, @output, @pinned or @into, one definition. */
static int list_eligible(fr_t *f, rs_error_t *err)
{
    placement_t pl;
    int rc = virtualizer_run(f->l, f->ctx, f->cfg->max_inline_depth, &pl, err);
    if (rc)
        return rc;
    f->n_elig = 0;
    for (int32_t i = 0; i < f->N; i++) {
        f->ctx_inline[i] = pl.is_inline[i];
        f->is_elig[i] = !pl.is_inline[i] && lower_role(f->l, i) == LOWER_CANDIDATE && f->l->ndefs[i] == 1;
        if (f->is_elig[i])
            f->elig[f->n_elig++] = i;
    }
    virtualizer_free(&pl);
    return RS_OK;
}

int frontier_run(const frontier_options_t *opt, const fit_context_t *ctx, frontier_result_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (!ctx->cfg.aliasing)
        return error_set(err, RS_EINPUT, NULL, 0, 0, "the frontier planner needs buffer_aliasing on");
    lowering_t *l = NULL;
    int rc = lower_routine(ctx->routine, ctx->bindings, &l, err);
    if (rc)
        return rc;
    fr_t f = { .opt = opt, .l = l, .cfg = &ctx->cfg, .N = l->n_nodes };
    size_t nn = f.N ? (size_t)f.N : 1;
    f.ctx = calloc(nn, 1);
    f.prefs = calloc(nn, 1);
    f.rem = calloc(nn, 1);
    f.elig = malloc(nn * sizeof *f.elig);
    f.live = malloc(((size_t)l->n_steps + nn + 2) * sizeof *f.live);
    f.is_elig = calloc(nn, 1);
    f.ctx_inline = calloc(nn, 1);
    f.last_end = calloc(nn, sizeof *f.last_end);
    f.cur_end = calloc(nn, sizeof *f.cur_end);
    f.members = malloc(nn * sizeof *f.members);
    f.stack = malloc(nn * sizeof *f.stack);
    f.mark = calloc(nn, sizeof *f.mark);
    f.keys = malloc(((size_t)KINDS * nn + 1) * sizeof *f.keys);
    f.seen = malloc(((size_t)KINDS * nn + 1) * sizeof *f.seen);
    f.banned = calloc(nn, 1);
    state_t best = { 0 }, cur = { 0 }, tmp = { 0 }, seed = { 0 };
    if (!f.ctx || !f.prefs || !f.rem || !f.elig || !f.live || !f.is_elig || !f.ctx_inline || !f.last_end ||
        !f.cur_end || !f.members || !f.stack || !f.mark || !f.keys || !f.seen || !f.banned ||
        state_init(&best, f.N) || state_init(&cur, f.N) || state_init(&tmp, f.N) || state_init(&seed, f.N)) {
        rc = oom(err);
        goto done;
    }
    fit_context_prefs(ctx, f.ctx);
    if ((rc = list_eligible(&f, err)) || (rc = eval_full(&f, cur.kind, &out->baseline, err)))
        goto done;
    /* the seed: §5's plan, the plan to beat */
    for (int32_t k = 0; k < opt->n_seed; k++) {
        int32_t node = opt->seed[k];
        if (node >= 0 && node < f.N && best.kind[node] == K_NONE) {
            best.kind[node] = K_INLINE;
            best.ord[best.n_ord++] = node;
        }
    }
    if ((rc = eval_full(&f, best.kind, &best.fp, err)))
        goto done;
    out->seed = best.fp;
    /* from the seed, then from the context alone without fan moves and
     * with them (whose pass over the moves leaves the keys recreate starts
     * from): greedy searches differ by the path they take; the best of the
     * four, then ruin and recreate on it */
    state_copy(&seed, &best, f.N);
    for (int from = 0; from < 3 && !rc && !f.stopped; from++) {
        if (from == 0) {
            state_copy(&cur, &seed, f.N);
        } else {
            memset(cur.kind, 0, nn);
            cur.n_ord = 0;
        }
        f.no_fan = from == 1;
        f.have_keys = false; /* each start scores its own moves */
        rc = search(&f, &cur, err);
        if (!rc && better(&f, &cur.fp, &best.fp))
            state_copy(&best, &cur, f.N);
    }
    if (!rc && !f.stopped)
        rc = recreate(&f, &best, &tmp, err);
    /* after the starts and recreate, so a search the stop cuts there is
     * left as it was, and the seeds only add plans to pick from */
    bool seeded = !rc && !f.stopped && !opt->no_seeds;
    if (seeded)
        rc = policy_seeds(&f, &best, &cur, &tmp, err);
    bool stopped = f.stopped;
    out->seeds_cut = seeded && stopped;
    if (!rc)
        rc = fill_flips(&f, &best, out, err);
    out->explored = f.explored;
    out->stopped = stopped;
    out->within_budget = met(&f, &out->final);
done:
    state_free(&best);
    state_free(&cur);
    state_free(&tmp);
    state_free(&seed);
    free(f.ctx);
    free(f.prefs);
    free(f.rem);
    free(f.elig);
    free(f.live);
    free(f.is_elig);
    free(f.ctx_inline);
    free(f.last_end);
    free(f.cur_end);
    free(f.members);
    free(f.stack);
    free(f.mark);
    free(f.keys);
    free(f.seen);
    free(f.banned);
    lower_free(l);
    if (rc)
        frontier_result_free(out);
    return rc;
}
