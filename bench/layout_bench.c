/* layout_bench: the arena layout on every MiniMalloc-format CSV under the
 * directories given; prints buffers, height, the max-live lower bound and
 * the known-feasible capacity where the file name carries it
 * (A.1048576.csv), with the ratios and the best of several timed runs.
 * usage: layout_bench DIR... */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layout/arena.h"
#include "layout/layout.h"
#include "layout/tight.h"
#include "minimalloc.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* What one directory's files add up to, for the per-goal lines. */
typedef struct sums {
    double worst[3], slowest_us[3], tight_s;  /* greedy, timeline, the better of the two per file */
    int files, with_cap, tight_runs, tight_at_cap;
    char slowest[3][64];
} sums_t;

/* The best of several timed runs of strategy s; false on an error. */
static bool timed(const minimalloc_problem_t *p, layout_strategy_t s, int64_t *off, int64_t *height, double *best_us)
{
    rs_error_t err;
    int runs = p->n > 10000 ? 3 : 20;
    *best_us = 1e30;
    for (int r = 0; r < runs; r++) {
        double t0 = now_us();
        if (layout_run(p->bufs, p->n, 1, s, off, height, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return false;
        }
        double t = now_us() - t0;
        if (t < *best_us)
            *best_us = t;
    }
    return true;
}

static void note(sums_t *sum, int k, double ratio, double us, const char *name)
{
    if (ratio > sum->worst[k])
        sum->worst[k] = ratio;
    if (us > sum->slowest_us[k]) {
        sum->slowest_us[k] = us;
        snprintf(sum->slowest[k], sizeof sum->slowest[k], "%s", name);
    }
}

static int bench_file(const char *dir, const char *name, sums_t *sum)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    minimalloc_problem_t p;
    rs_error_t err;
    if (minimalloc_read(path, &p, &err)) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        return 1;
    }
    int64_t *off = malloc((size_t)(p.n ? p.n : 1) * sizeof *off);
    int64_t height = 0, th_line = 0;
    double g_us, t_us;
    int32_t a, b;
    int ok = timed(&p, LAYOUT_GREEDY, off, &height, &g_us) && arena_check(p.bufs, p.n, 1, off, &a, &b);
    ok = ok && timed(&p, LAYOUT_TIMELINE, off, &th_line, &t_us) && arena_check(p.bufs, p.n, 1, off, &a, &b);
    int64_t lower = arena_max_live(p.bufs, p.n, 1, NULL);
    /* A.1048576.csv: the capacity it is known to fit in */
    long long cap = 0;
    const char *dot = strchr(name, '.');
    char *end = NULL;
    if (dot)
        cap = strtoll(dot + 1, &end, 10);
    if (!end || strcmp(end, ".csv") != 0)
        cap = 0; /* only NAME.CAPACITY.csv carries one */
    /* ratios to the capacity where it is known, else to max-live */
    double ref = cap > 0 ? (double)cap : (double)(lower ? lower : 1);
    double rg = (double)height / ref, rt = (double)th_line / ref, rb = rg < rt ? rg : rt;
    sum->files++;
    sum->with_cap += cap > 0;
    note(sum, 0, rg, g_us, name);
    note(sum, 1, rt, t_us, name);
    note(sum, 2, rb, g_us + t_us, name);
    /* the tight strategy, with its default (deterministic) budget */
    char tight[64] = "-";
    int64_t th;
    tight_stats_t st;
    double t0 = now_us();
    if (!tight_layout(p.bufs, p.n, 1, NULL, off, &th, &st, &err)) {
        double dt = (now_us() - t0) / 1e6;
        sum->tight_s += dt;
        sum->tight_runs++;
        if (cap > 0 && th <= cap)
            sum->tight_at_cap++;
        snprintf(tight, sizeof tight, "%.4f %6.2fs%s", (double)th / ref, dt, st.optimal ? " opt" : "");
        if (!arena_check(p.bufs, p.n, 1, off, &a, &b))
            ok = 0;
    }
    printf("%-22s %8d %14lld %9.4f %11.0f %9.4f %11.0f %9.4f  %-18s %s\n", name, (int)p.n, (long long)lower, rg,
           g_us, rt, t_us, rb, tight, ok ? "" : "INVALID");
    free(off);
    minimalloc_free(&p);
    return ok ? 0 : 1;
}

/* The goals for this directory: the default strategy (greedy) and
 * the candidates for it against the quality and time goals, tight against
 * its own. */
static void print_goals(const sums_t *s)
{
    if (s->files == 0)
        return;
    static const char *const who[3] = { "greedy (the default)", "timeline", "better of the two" };
    bool caps = s->with_cap > 0;
    printf("goal 1, default strategy: worst height/%s (goal <= %s), slowest file (goal <= %s):\n",
           caps ? "capacity" : "max-live", caps ? "1.05" : "1.005", caps ? "1 ms a file" : "50 ms for Y_1");
    for (int k = 0; k < 3; k++)
        printf("  %-22s %.4f, %.2f ms on %s\n", who[k], s->worst[k], s->slowest_us[k] / 1e3, s->slowest[k]);
    if (s->tight_runs > 0 && caps)
        printf("goal 2, tight: %d of %d files at or below capacity (goal: all), %.1f s in all (goal < 10 s; "
               "MiniMalloc, given the capacity: 43 s)\n", s->tight_at_cap, s->tight_runs, s->tight_s);
    else if (s->tight_runs > 0)
        printf("goal 2, tight: %.1f s for %d files; ratios to max-live above\n", s->tight_s, s->tight_runs);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: layout_bench DIR...\n");
        return 2;
    }
    int bad = 0;
    printf("heights over the known capacity (A.1048576.csv) or else max-live; times: the best of several runs\n");
    printf("%-22s %8s %14s %9s %11s %9s %11s %9s  %s\n", "file", "buffers", "max-live", "greedy", "greedy us",
           "timeline", "timeline us", "better", "tight, time");
    for (int d = 1; d < argc; d++) {
        DIR *dir = opendir(argv[d]);
        if (!dir) {
            perror(argv[d]);
            return 2;
        }
        char *names[256];
        int n = 0;
        struct dirent *e;
        while ((e = readdir(dir)) && n < 256)
            if (strlen(e->d_name) > 4 && strcmp(e->d_name + strlen(e->d_name) - 4, ".csv") == 0)
                names[n++] = strdup(e->d_name);
        closedir(dir);
        qsort(names, (size_t)n, sizeof *names, cmp_str);
        sums_t sum = { 0 };
        for (int i = 0; i < n; i++) {
            bad |= bench_file(argv[d], names[i], &sum);
            free(names[i]);
        }
        print_goals(&sum);
    }
    return bad;
}
