/* fit_bench: fit on generated routines, three ways — reusing the lowering
 * (the default), re-lowering for every scoring, and round one on one thread
 * instead of all cores — with the ratios, and a check that every way gives
 * the same plan.
 * usage: fit_bench [ROUTINE_FILE BUDGET]... (default: a built-in set) */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "model/gen.h"
#include "plan/fit.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct run {
    double seconds;
    fit_plan_t *plan;
} run_t;

static int fit_once(const routine_t *r, const bindings_t *b, const char *budget, int32_t threads, bool relower,
                    run_t *out)
{
    score_config_t cfg;
    score_config_default(&cfg);
    fit_context_t *ctx;
    rs_error_t err;
    if (fit_context_root(r, b, &cfg, NULL, 0, &ctx, &err))
        return 1;
    fit_options_t opt = { .max_candidates = -1, .device_bytes = -1, .threads = threads, .relower = relower };
    if (units_parse_budget(budget, "budget", &opt.budget, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double t0 = now_s();
    int rc = fit_run(&opt, ctx, NULL, &out->plan, &err);
    out->seconds = now_s() - t0;
    if (rc)
        fprintf(stderr, "fit: %s\n", err.msg);
    fit_context_free(ctx);
    return rc;
}

static bool same(const fit_plan_t *a, const fit_plan_t *b)
{
    return a->n_flips == b->n_flips && memcmp(a->flips, b->flips, (size_t)a->n_flips * sizeof *a->flips) == 0 &&
           a->n_events == b->n_events && memcmp(a->events, b->events, (size_t)a->n_events * sizeof *a->events) == 0;
}

static int bench(const char *label, const char *text, const char *budget)
{
    routine_t *r;
    rs_error_t err;
    bindings_t b;
    if (routine_parse(label, text, strlen(text), &r, &err) || routine_bindings(r, NULL, 0, &b, &err)) {
        fprintf(stderr, "%s: %s\n", label, err.msg);
        return 1;
    }
    run_t reuse, relower, single;
    int bad = fit_once(r, &b, budget, 0, false, &reuse) || fit_once(r, &b, budget, 0, true, &relower) ||
              fit_once(r, &b, budget, 1, false, &single);
    if (!bad) {
        int64_t scorings = reuse.plan->reused + reuse.plan->lowered;
        printf("%-26s %-9s %6d %6d %8lld %9.3f %9.3f %7.2fx %9.3f %7.2fx %s\n", label, budget, (int)r->n_steps,
               (int)reuse.plan->considered, (long long)scorings, reuse.seconds, relower.seconds,
               relower.seconds / reuse.seconds, single.seconds, single.seconds / reuse.seconds,
               same(reuse.plan, relower.plan) && same(reuse.plan, single.plan) ? "identical" : "DIFFERENT");
        bad = !(same(reuse.plan, relower.plan) && same(reuse.plan, single.plan));
    }
    fit_plan_free(reuse.plan);
    fit_plan_free(relower.plan);
    fit_plan_free(single.plan);
    bindings_free(&b);
    routine_free(r);
    return bad;
}

static char *generated(gen_kind_t k, int32_t layers, const char *const *binds, int n)
{
    gen_options_t o = { .kind = k, .layers = layers, .binds = binds, .n_binds = n };
    char *text = NULL;
    rs_error_t err;
    if (gen_routine(&o, &text, &err))
        fprintf(stderr, "gen: %s\n", err.msg);
    return text;
}

/* A line of /proc/self/status in KiB (VmRSS, VmHWM); -1 where there is none. */
static long status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t k = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, k) == 0 && line[k] == ':')
            v = strtol(line + k + 1, NULL, 10);
    if (f)
        fclose(f);
    return v;
}

/* Resets the peak RSS to the current one (Linux: clear_refs 5); false where unsupported. */
static bool reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

/* The 48-layer transformer of the performance issue, in a child process so
 * its peak RSS is its own: a Bytes fit with the default cap and a Minimize
 * fit over every candidate, against their goals, and memory against the
 * lowering's size. */
static int scale(void)
{
    fflush(stdout); /* or the child would print the table again */
    pid_t pid = fork();
    if (pid != 0) {
        int st = 1;
        if (pid > 0)
            waitpid(pid, &st, 0);
        return pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }
    const char *binds[] = { "B=8", "T=2048" };
    char *text = generated(GEN_TRANSFORMER, 48, binds, 2);
    routine_t *r;
    rs_error_t err;
    bindings_t b;
    lowering_t *l;
    if (!text || routine_parse("t48", text, strlen(text), &r, &err) || routine_bindings(r, NULL, 0, &b, &err) ||
        lower_routine(r, &b, &l, &err))
        _exit(1);
    run_t bytes, min;
    int bad = fit_once(r, &b, "60%", 0, false, &bytes);
    /* the Minimize fit's own memory: its peak above what the process held before it */
    bool reset = reset_peak();
    long before = status_kib("VmRSS");
    bad = bad || fit_once(r, &b, "minimize", getenv("RS_THREADS") ? atoi(getenv("RS_THREADS")) : 0, false, &min);
    long peak = status_kib("VmHWM");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (!bad) {
        printf("\ntransformer 48 layers (B=8, T=2048): %d steps, %d nodes, lowering %.1f MiB\n", (int)r->n_steps,
               (int)r->n_nodes, (double)l->block_bytes / 1048576.0);
        printf("  Bytes 60%% fit, default cap: %.3f s (goal < 0.5 s), %d considered, %d dropped\n", bytes.seconds,
               (int)bytes.plan->considered, (int)bytes.plan->dropped);
        printf("  Minimize fit, every candidate: %.1f s (goal < 30 s), %d candidates, %lld scorings\n", min.seconds,
               (int)min.plan->considered, (long long)(min.plan->reused + min.plan->lowered));
        printf("  process peak RSS %.1f MiB (libraries, the parent's pages, the routine and its parse included)\n",
               (double)ru.ru_maxrss / 1024.0);
        if (reset && before > 0 && peak >= before)
            printf("  the Minimize fit's own peak: %.2f MiB above the %.1f MiB before it = %.1fx the lowering "
                   "(goal < 10x)\n",
                   (double)(peak - before) / 1024.0, (double)before / 1024.0,
                   (double)(peak - before) * 1024.0 / (double)l->block_bytes);
        else
            printf("  the Minimize fit's own peak: not measurable here (no /proc/self/clear_refs)\n");
    }
    fflush(stdout);
    _exit(bad);
}

int main(int argc, char **argv)
{
    alloc_tune(); /* as the program does */
    printf("%-26s %-9s %6s %6s %8s %9s %9s %8s %9s %8s %s\n", "routine", "budget", "steps", "cands", "scorings",
           "reuse s", "relower s", "ratio", "1-thread", "ratio", "plans");
    int bad = 0;
    if (argc > 2) {
        for (int i = 1; i + 1 < argc; i += 2) {
            FILE *f = fopen(argv[i], "rb");
            if (!f) {
                perror(argv[i]);
                return 2;
            }
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            char *text = malloc((size_t)n + 1);
            text[fread(text, 1, (size_t)n, f)] = 0;
            fclose(f);
            bad |= bench(argv[i], text, argv[i + 1]);
            free(text);
        }
        return bad;
    }
    struct {
        const char *label;
        gen_kind_t kind;
        int32_t layers;
        const char *budget;
    } cases[] = {
        { "chain 256", GEN_CHAIN, 256, "minimize" },
        { "transformer 4", GEN_TRANSFORMER, 4, "minimize" },
        { "transformer 12", GEN_TRANSFORMER, 12, "minimize" },
        { "transformer 12", GEN_TRANSFORMER, 12, "60%" },
        { "resnet 16", GEN_RESNET, 16, "minimize" },
        { "unet 5", GEN_UNET, 5, "minimize" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = generated(cases[i].kind, cases[i].layers, NULL, 0);
        if (!text)
            return 2;
        bad |= bench(cases[i].label, text, cases[i].budget);
        free(text);
    }
    if (!getenv("RS_BENCH_QUICK"))
        bad |= scale();
    return bad;
}
