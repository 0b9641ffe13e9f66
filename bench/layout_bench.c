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

#include "arena.h"
#include "minimalloc.h"
#include "tight.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* What one directory's files add up to, for the per-goal lines. */
typedef struct sums {
    double worst_cap, worst_lower, slowest_us, tight_s;
    int files, with_cap, tight_runs, tight_at_cap;
    char slowest[64];
} sums_t;

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
    int64_t height = 0;
    double best = 1e30;
    int runs = p.n > 10000 ? 3 : 20;
    for (int r = 0; r < runs; r++) {
        double t0 = now_us();
        if (arena_layout(p.bufs, p.n, 1, ARENA_GREEDY, off, &height, &err)) {
            fprintf(stderr, "%s: %s\n", path, err.msg);
            return 1;
        }
        double t = now_us() - t0;
        if (t < best)
            best = t;
    }
    int32_t a, b;
    int ok = arena_check(p.bufs, p.n, 1, off, &a, &b);
    int64_t lower = arena_max_live(p.bufs, p.n, 1, NULL);
    /* A.1048576.csv: the capacity it is known to fit in */
    long long cap = 0;
    const char *dot = strchr(name, '.');
    char *end = NULL;
    if (dot)
        cap = strtoll(dot + 1, &end, 10);
    if (!end || strcmp(end, ".csv") != 0)
        cap = 0; /* only NAME.CAPACITY.csv carries one */
    char capcol[48] = "-";
    sum->files++;
    if (cap > 0) {
        double rc = (double)height / (double)cap;
        snprintf(capcol, sizeof capcol, "%.4f", rc);
        if (rc > sum->worst_cap)
            sum->worst_cap = rc;
        sum->with_cap++;
    }
    if (lower > 0 && (double)height / (double)lower > sum->worst_lower)
        sum->worst_lower = (double)height / (double)lower;
    if (best > sum->slowest_us) {
        sum->slowest_us = best;
        snprintf(sum->slowest, sizeof sum->slowest, "%s", name);
    }
    /* the tight strategy, with its default (deterministic) budget */
    char tight[64] = "-";
    if (p.n <= 2048) {
        int64_t th;
        tight_stats_t st;
        double t0 = now_us();
        if (!tight_layout(p.bufs, p.n, 1, NULL, off, &th, &st, &err)) {
            double dt = (now_us() - t0) / 1e6;
            sum->tight_s += dt;
            sum->tight_runs++;
            if (cap > 0 && th <= cap)
                sum->tight_at_cap++;
            snprintf(tight, sizeof tight, "%.4f %6.2fs%s", cap > 0 ? (double)th / (double)cap : (double)th / (double)lower,
                     dt, st.optimal ? " opt" : "");
            int32_t x, y;
            if (!arena_check(p.bufs, p.n, 1, off, &x, &y))
                ok = 0;
        }
    }
    printf("%-22s %8d %14lld %14lld %9.4f %10s %12.0f  %-18s %s\n", name, (int)p.n, (long long)height,
           (long long)lower, lower ? (double)height / (double)lower : 1.0, capcol, best, tight, ok ? "" : "INVALID");
    free(off);
    minimalloc_free(&p);
    return ok ? 0 : 1;
}

/* The goals for this directory: the default strategy (greedy, so
 * far) against its quality and time goals, tight against its own. */
static void print_goals(const sums_t *s)
{
    if (s->files == 0)
        return;
    printf("goal 1, default strategy (greedy):\n");
    if (s->with_cap > 0)
        printf("  worst height/capacity %.4f (goal <= 1.05); slowest %.2f ms on %s (goal <= 1 ms a file)\n",
               s->worst_cap, s->slowest_us / 1e3, s->slowest);
    else
        printf("  worst height/max-live %.4f (goal <= 1.005); slowest %.0f ms on %s (goal <= 50 ms for Y_1)\n",
               s->worst_lower, s->slowest_us / 1e3, s->slowest);
    if (s->tight_runs > 0 && s->with_cap > 0)
        printf("goal 2, tight: %d of %d files at or below capacity (goal: all), %.1f s in all (goal < 10 s; "
               "MiniMalloc, given the capacity: 43 s)\n", s->tight_at_cap, s->tight_runs, s->tight_s);
    else if (s->tight_runs > 0)
        printf("goal 2, tight (files up to 2,048 buffers): %.1f s for %d files; ratios to max-live above\n",
               s->tight_s, s->tight_runs);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: layout_bench DIR...\n");
        return 2;
    }
    int bad = 0;
    printf("strategy greedy (DESIGN §3)\n");
    printf("%-22s %8s %14s %14s %9s %10s %12s  %s\n", "file", "buffers", "height", "max-live", "h/lower",
           "h/capacity", "best us", "tight: h/capacity, time");
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
