/* best_bench: DESIGN §12's searches measured.
 *   1. fit --exact on every routine with up to 16 candidates: random
 *      routines (a fixed generator, up to 40 steps) and the bundled samples
 *      that have at most 16, under Minimize and at 60% of the baseline:
 *      proved or not, subsets scored, the slowest time per candidate count.
 *   2. fit --improve against the two-round plan on the generated samples
 *      (each ROUTINE argument), at Minimize and 60%: footprint, recompute,
 *      time of each.
 * usage: best_bench SAMPLES_DIR [IMPROVE_SECONDS] */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "best.h"
#include "plan/exact.h"
#include "plan/fit.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static unsigned next(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

/* Like the test suite's random routines, longer: more candidates. */
static char *random_routine(unsigned seed)
{
    size_t cap = 1 << 16, w = 0;
    char *buf = malloc(cap);
    unsigned s = seed * 2654435761u + 7;
    int n_in = 1 + (int)(next(&s) % 3), n_def = 8 + (int)(next(&s) % 33);
    w += (size_t)snprintf(buf + w, cap - w, "routine b%u\ndtype u8\n", seed);
    for (int i = 0; i < n_in; i++)
        w += (size_t)snprintf(buf + w, cap - w, "input i%d [%u]\n", i, 1 + next(&s) % 64);
    for (int d = 0; d < n_def; d++) {
        int n_args = 1 + (int)(next(&s) % 3);
        w += (size_t)snprintf(buf + w, cap - w, "n%d = op(", d);
        for (int a = 0; a < n_args; a++) {
            int pick = (int)(next(&s) % (unsigned)(n_in + d));
            if (d > 0 && next(&s) % 3)
                pick = n_in + d - 1 - (int)(next(&s) % (unsigned)(d < 4 ? d : 4));
            if (pick < n_in)
                w += (size_t)snprintf(buf + w, cap - w, "%si%d", a ? ", " : "", pick);
            else
                w += (size_t)snprintf(buf + w, cap - w, "%sn%d", a ? ", " : "", pick - n_in);
        }
        unsigned r = next(&s) % 8;
        const char *flag = r == 0 || d == n_def - 1 ? " @output" : r == 1 ? " @pinned" : "";
        w += (size_t)snprintf(buf + w, cap - w, ") [%u] cost=%u%s\n", 1 + next(&s) % 300, 1 + next(&s) % 50, flag);
    }
    return buf;
}

typedef struct loaded {
    routine_t *r;
    bindings_t b;
    fit_context_t *ctx;
} loaded_t;

static int load(const char *name, const char *text, loaded_t *o)
{
    rs_error_t err;
    memset(o, 0, sizeof *o);
    score_config_t cfg;
    score_config_default(&cfg);
    if (routine_parse(name, text, strlen(text), &o->r, &err) || routine_bindings(o->r, NULL, 0, &o->b, &err) ||
        fit_context_root(o->r, &o->b, &cfg, NULL, 0, &o->ctx, &err)) {
        fprintf(stderr, "%s: %s\n", name, err.msg);
        return 1;
    }
    return 0;
}

static void unload(loaded_t *o)
{
    fit_context_free(o->ctx);
    bindings_free(&o->b);
    routine_free(o->r);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
        free(t);
        t = NULL;
    }
    if (t)
        t[n] = 0;
    fclose(f);
    return t;
}

typedef struct stats {
    int routines, proved;
    double worst_s;
    int64_t explored, worst_explored;
    char worst_name[64];
} stats_t;

static stats_t by_k[17];

/* Both objectives on one routine with k <= 16 candidates. */
static void exact_one(const char *name, const loaded_t *o, int64_t baseline)
{
    for (int minimize = 0; minimize < 2; minimize++) {
        exact_options_t opt = { .goal = { minimize, baseline * 6 / 10 } };
        exact_result_t r;
        rs_error_t err;
        double t0 = now_s();
        if (exact_run(&opt, o->ctx, &r, &err)) {
            fprintf(stderr, "%s: %s\n", name, err.msg);
            continue;
        }
        double dt = now_s() - t0;
        if (r.n_cands <= 16) {
            stats_t *s = &by_k[r.n_cands];
            s->routines++;
            s->proved += r.proved;
            s->explored += r.explored;
            if (r.explored > s->worst_explored)
                s->worst_explored = r.explored;
            if (dt > s->worst_s) {
                s->worst_s = dt;
                snprintf(s->worst_name, sizeof s->worst_name, "%s %s", name, minimize ? "min" : "60%");
            }
        }
        exact_result_free(&r);
    }
}

/* The candidate count and the baseline total of o; -1 on error. */
static int32_t count_cands(const loaded_t *o, int64_t *baseline)
{
    subset_scorer_t sc;
    rs_error_t err;
    int32_t k = -1;
    if (!subset_scorer_init(&sc, o->ctx, NULL, false, &err)) {
        k = sc.n_cands;
        *baseline = sc.baseline.total;
    }
    subset_scorer_free(&sc);
    return k;
}

static void part_exact(const char *samples)
{
    int seen = 0;
    for (unsigned seed = 1; seen < 400 && seed < 20000; seed++) {
        char *text = random_routine(seed);
        loaded_t o;
        char name[32];
        snprintf(name, sizeof name, "random %u", seed);
        if (!load(name, text, &o)) {
            int64_t base = 0;
            int32_t k = count_cands(&o, &base);
            /* every candidate count from 1 to 16, about equally often */
            if (k >= 1 && k <= 16 && by_k[k].routines < 2 * (400 / 16)) {
                exact_one(name, &o, base);
                seen++;
            }
            unload(&o);
        }
        free(text);
    }
    const char *dirs[] = { "", "/gen" };
    for (int d = 0; d < 2; d++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s%s", samples, dirs[d]);
        DIR *dp = opendir(dir);
        struct dirent *e;
        while (dp && (e = readdir(dp))) {
            size_t n = strlen(e->d_name);
            if (n < 9 || strcmp(e->d_name + n - 8, ".routine") != 0)
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            char *text = read_file(path);
            loaded_t o;
            if (text && !load(e->d_name, text, &o)) {
                int64_t base = 0;
                int32_t k = count_cands(&o, &base);
                if (k >= 0 && k <= 16)
                    exact_one(e->d_name, &o, base);
                unload(&o);
            }
            free(text);
        }
        if (dp)
            closedir(dp);
    }
    printf("| candidates | runs | proved | mean explored | most explored (of 2^k) | slowest | on |\n");
    printf("|---:|---:|---:|---:|---:|---:|---|\n");
    for (int k = 1; k <= 16; k++) {
        stats_t *s = &by_k[k];
        if (!s->routines)
            continue;
        printf("| %d | %d | %d | %.0f | %lld (%lld) | %.4f s | %s |\n", k, s->routines, s->proved,
               (double)s->explored / s->routines, (long long)s->worst_explored, 1LL << k, s->worst_s, s->worst_name);
    }
}

static void part_improve(const char *samples, int argc, char **argv, double limit)
{
    printf("\n| routine | budget | cands | two-round footprint | recompute | time | improved footprint | recompute | "
           "time | moves | local optimum |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < argc; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/gen/%s.routine", samples, argv[i]);
        char *text = read_file(path);
        loaded_t o;
        if (!text || load(argv[i], text, &o)) {
            free(text);
            continue;
        }
        const char *budgets[] = { "minimize", "60%" };
        for (int b = 0; b < 2; b++) {
            fit_options_t opt = { .max_candidates = -1, .device_bytes = -1 };
            rs_error_t err;
            fit_plan_t *p;
            units_parse_budget(budgets[b], "budget", &opt.budget, &err);
            double t0 = now_s();
            if (fit_run(&opt, o.ctx, NULL, &p, &err)) {
                fprintf(stderr, "%s: %s\n", argv[i], err.msg);
                continue;
            }
            double fit_s = now_s() - t0;
            best_plan_t bp;
            if (best_run(BEST_IMPROVED, p, o.ctx, (best_limits_t){ limit, 0 }, false, &bp, &err)) {
                fprintf(stderr, "%s: %s\n", argv[i], err.msg);
                fit_plan_free(p);
                continue;
            }
            int64_t base = p->baseline.compute;
            printf("| %s | %s | %d | %lld | %+lld | %.2f s | %lld | %+lld | %.2f s | %lld | %s |\n", argv[i],
                   budgets[b], (int)bp.n_cands, (long long)p->final.total, (long long)(p->final.compute - base),
                   fit_s, (long long)bp.final.total, (long long)(bp.final.compute - base),
                   (double)bp.elapsed_us / 1e6, (long long)bp.moves, bp.proved ? "yes" : "no (time limit)");
            fflush(stdout);
            best_plan_free(&bp);
            fit_plan_free(p);
        }
        unload(&o);
        free(text);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: best_bench SAMPLES_DIR [IMPROVE_SECONDS] [ROUTINE...]\n");
        return 2;
    }
    double limit = argc > 2 ? atof(argv[2]) : 60.0;
    printf("== fit --exact on every routine with up to 16 candidates (Minimize and 60%%)\n\n");
    part_exact(argv[1]);
    char *dflt[] = { "transformer_small", "resnet_small", "unet_small", "unet_4", "resnet_8", "transformer_12" };
    printf("\n== fit --improve vs the two-round plan (time limit %.0f s)\n", limit);
    if (argc > 3)
        part_improve(argv[1], argc - 3, argv + 3, limit);
    else
        part_improve(argv[1], 6, dflt, limit);
    return 0;
}
