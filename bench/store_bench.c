/* store_bench: importing a 100k-step generated routine into a fresh store
 * (read, parse, lower to validate, write in one transaction) and saving
 * Minimize plans with their full traces (one with a held group that grows
 * to 598 members); seconds and rows per second.
 * usage: store_bench [DIR] (the stores are made in DIR, default /tmp) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "library.h"
#include "model/gen.h"
#include "plan/fit.h"
#include "plans.h"
#include "rebuild.h"
#include "store.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int fail(const rs_error_t *e)
{
    fprintf(stderr, "store_bench: %s\n", e->msg);
    return 1;
}

/* Fits text to Minimize, saves the plan with its trace into s and loads it
 * back; says how long each took and how many member names the events list
 * against the rows stored. */
static int bench_save(store_t *s, const char *text, const char *what, rs_error_t *err)
{
    routine_t *r;
    bindings_t b;
    if (routine_parse("t.routine", text, strlen(text), &r, err) || routine_bindings(r, NULL, 0, &b, err))
        return 1;
    score_config_t cfg;
    score_config_default(&cfg);
    fit_context_t *ctx;
    fit_plan_t *p;
    fit_options_t fo = { .max_candidates = -1, .device_bytes = -1 };
    fo.budget.kind = BUDGET_MINIMIZE;
    if (fit_context_root(r, &b, &cfg, NULL, 0, &ctx, err) || fit_run(&fo, ctx, NULL, &p, err))
        return 1;
    char *bindings = rebuild_bindings_format(r, &b);
    char config[128];
    rebuild_config_format(&cfg, config, sizeof config);
    double t0 = now_s();
    int64_t pid;
    int32_t version;
    bool was_new;
    plan_save_t in = { .plan = p, .bindings = bindings, .config = config, .prefs = "" };
    if (store_begin(s, err) ||
        library_routine_put(s, r->name, text, strlen(text), NULL, r->n_steps, r->n_nodes, &in.routine_id, &version,
                            &was_new, err) ||
        plans_save(s, &in, &pid, err) || store_commit(s, err))
        return 1;
    double t_save = now_s() - t0;
    int64_t listed = 0;
    for (int32_t i = 0; i < p->n_events; i++)
        listed += p->events[i].group_n;
    int64_t rows = 1 + 2 + p->n_flips + p->n_events + p->n_members;
    printf("save    %s of %d flips and %d events (%lld members listed, %d stored): %.3f s, %.0f rows/s\n", what,
           (int)p->n_flips, (int)p->n_events, (long long)listed, (int)p->n_members, t_save, (double)rows / t_save);
    t0 = now_s();
    stored_plan_t sp;
    if (plans_load(s, pid, true, &sp, err))
        return 1;
    printf("load    the same plan with its trace: %.3f s\n", now_s() - t0);
    stored_plan_free(&sp);
    free(bindings);
    fit_plan_free(p);
    fit_context_free(ctx);
    bindings_free(&b);
    routine_free(r);
    return 0;
}

/* n candidates a_i, each alone in its own region (test_fit.c's
 * test_default_caps, bigger): Minimize holds all but the last two. */
static char *many_alone(int n)
{
    size_t cap = 64 + (size_t)n * 64;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t w = (size_t)snprintf(text, cap, "routine many\ndtype u8\ninput x [4]\n");
    for (int i = 0; i < n; i++)
        w += (size_t)snprintf(text + w, cap - w, "a%d = f(x) [%d]\no%d = g(a%d) [0] @output\n", i, 10 + i, i, i);
    return text;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    char path[512];
    snprintf(path, sizeof path, "%s/rs_store_bench_%d.db", dir, (int)getpid());
    rs_error_t err;
    /* a 100k-step routine: chain of 50,000 layers (2 N + 2 steps) */
    gen_options_t o = { .kind = GEN_CHAIN, .layers = 49999 };
    char *text;
    if (gen_routine(&o, &text, &err))
        return fail(&err);
    size_t len = strlen(text);
    store_t *s;
    if (store_open(path, &s, &err))
        return fail(&err);
    double t0 = now_s();
    routine_t *r;
    bindings_t b;
    lowering_t *l;
    if (routine_parse("chain.routine", text, len, &r, &err) || routine_bindings(r, NULL, 0, &b, &err) ||
        lower_routine(r, &b, &l, &err))
        return fail(&err);
    double t_parse = now_s() - t0;
    int64_t id;
    int32_t version;
    bool was_new;
    if (store_begin(s, &err) ||
        library_routine_put(s, r->name, text, len, "chain.routine", r->n_steps, r->n_nodes, &id, &version, &was_new,
                            &err) ||
        store_commit(s, &err))
        return fail(&err);
    double t_import = now_s() - t0;
    printf("import  %d steps, %.1f MB of text: %.3f s (parse and lower %.3f s, write %.3f s), %.0f steps/s "
           "(goal: under 1 s)\n",
           (int)r->n_steps, (double)len / 1e6, t_import, t_parse, t_import - t_parse,
           (double)r->n_steps / t_import);
    lower_free(l);
    bindings_free(&b);
    routine_free(r);
    free(text);

    /* a Minimize plan with its full trace: transformer, 12 layers */
    o = (gen_options_t){ .kind = GEN_TRANSFORMER, .layers = 12 };
    if (gen_routine(&o, &text, &err) || bench_save(s, text, "a Minimize plan", &err))
        return fail(&err);
    free(text);
    /* a held group that grows to 598 members: 600 candidates, each alone in
     * its region (every try lists the whole group: quadratic if each event
     * kept its own list) */
    text = many_alone(600);
    if (!text || bench_save(s, text, "a growing held group", &err))
        return fail(&err);
    free(text);
    store_close(s);
    char side[600];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    return 0;
}
