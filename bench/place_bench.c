/* place_bench: the cost of one §3 placement and of a layout from scratch
 * (issue 44), on a routine's baseline buffers: bestfit made and run once
 * (what `score` and `--scoring full` do), and a relayout work's layout
 * from scratch (what a scoring that gives up does), run again and again
 * with the first buffer of the order changed (nothing pinned: a whole
 * layout), in CPU time.  usage: place_bench [--reps N] FILE... (a
 * .routine, an HLO dump, or gen:KIND:LAYERS); --reps runs each N times
 * exactly (for callgrind's repeatable counts) instead of for a second. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_input.h"
#include "layout/bestfit.h"
#include "layout/relayout.h"
#include "lower/score.h"
#include "model/hlo.h"

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int fixed_reps;

static bool more(int done, double t) { return fixed_reps ? done < fixed_reps : t < 1.0 || done < 3; }

static int bench(const char *path)
{
    size_t len;
    char *text = bench_read_text(path, &len);
    routine_t *r;
    bindings_t b;
    lowering_t *l;
    rs_error_t err;
    if (!text || hlo_read_any(path, text, len, &r, &err) || routine_bindings(r, NULL, 0, &b, &err) ||
        lower_routine(r, &b, &l, &err)) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    score_config_t cfg;
    score_config_default(&cfg);
    footprint_t fp;
    score_detail_t d;
    if (score_lowering(l, NULL, &cfg, &fp, &d, &err)) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        return 1;
    }
    int32_t n = l->n_nodes, m = 0, first = -1;
    arena_buf_t *all = malloc((size_t)n * sizeof *all), *bufs = malloc((size_t)n * sizeof *bufs);
    uint8_t *present = malloc((size_t)n);
    for (int32_t i = 0; i < n; i++) {
        present[i] = !d.place.is_inline[i];
        all[i] = present[i] ? (arena_buf_t){ l->bytes[i], d.live.start[i], d.live.end[i] }
                            : (arena_buf_t){ l->bytes[i], 0, 0 };
        if (present[i])
            bufs[m++] = all[i];
    }
    /* bestfit made and run from scratch, as score does */
    int32_t *order = malloc((size_t)m * sizeof *order), placed = 0;
    int64_t *off = malloc((size_t)m * sizeof *off), h = 0;
    int reps = 0;
    double t0 = cpu_s(), t = 0;
    while (more(reps, t)) {
        bestfit_t *p;
        if (bestfit_new(bufs, m, cfg.alignment, &p, &err))
            return 1;
        bestfit_greedy_order(p, order);
        bestfit_run(p, order, off, &h, &err);
        if (!reps)
            for (int32_t k = 0; k < m; k++)
                placed += bestfit_aligned(p)[k] > 0;
        bestfit_free(p);
        reps++;
        t = cpu_s() - t0;
    }
    double scratch = t / reps;
    /* a relayout work's layout from scratch: the first buffer of the order
     * (the biggest) shortened by a step and back, with no budget */
    relayout_t *ref;
    relayout_work_t *w;
    if (relayout_new(all, present, n, cfg.alignment, &ref, &err) || relayout_work_new(n, &w, &err))
        return 1;
    for (int32_t i = 0; i < n; i++)
        if (present[i] && l->bytes[i] > 0 && all[i].end > all[i].start &&
            (first < 0 || l->bytes[i] > l->bytes[first] ||
             (l->bytes[i] == l->bytes[first] &&
              all[i].end - all[i].start > all[first].end - all[first].start)))
            first = i;
    int64_t end0 = all[first].end;
    int runs = 0;
    t0 = cpu_s();
    t = 0;
    while (more(runs, t)) {
        all[first].end = runs % 2 ? end0 - 1 : end0 - 2;
        int64_t hh;
        if (relayout_run_budget(ref, w, all, present, 0, &hh, &err))
            return 1;
        runs++;
        t = cpu_s() - t0;
    }
    double eng = t / runs;
    printf("%-40s %6d buffers (%d placed), height %lld | from scratch %8.3f ms, %5.3f us a placement (%d runs) | "
           "work's layout from scratch %8.3f ms, %5.3f us a placement (%d runs)\n",
           path, m, placed, (long long)h, scratch * 1e3, scratch * 1e6 / placed, reps, eng * 1e3,
           eng * 1e6 / placed, runs);
    relayout_work_free(w);
    relayout_free(ref);
    free(order);
    free(off);
    free(all);
    free(bufs);
    free(present);
    score_detail_free(&d);
    lower_free(l);
    bindings_free(&b);
    routine_free(r);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            fixed_reps = atoi(argv[++i]);
        else
            rc |= bench(argv[i]);
    }
    return rc;
}
