/* svg_bench: time to write the SVG picture of a laid-out MiniMalloc CSV
 * (the real workloads, 10k-60k buffers, and the first 10,000 buffers of
 * the largest): the geometry and the file, best of five; the goal is under
 * 1 s for 10k buffers.  usage: svg_bench FILE.csv... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "layout/arena.h"
#include "layout/layout.h"
#include "minimalloc.h"
#include "svg.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *id_of(const void *ud, int32_t node) { return ((const minimalloc_problem_t *)ud)->ids[node]; }

static int bench(const char *path, const minimalloc_problem_t *p, int32_t n)
{
    int64_t *off = malloc(((size_t)n + 1) * sizeof *off), height;
    view_buf_t *v = malloc(((size_t)n + 1) * sizeof *v);
    rs_error_t err;
    if (!off || !v || layout_run(p->bufs, n, 1, LAYOUT_TIMELINE, off, &height, &err)) {
        fprintf(stderr, "%s: layout failed\n", path);
        return 1;
    }
    int64_t steps = 1, peak;
    for (int32_t i = 0; i < n; i++) {
        v[i] = (view_buf_t){ p->bufs[i].start, p->bufs[i].end, off[i], p->bufs[i].size, i, 0 };
        if (p->bufs[i].end + 1 > steps)
            steps = p->bufs[i].end + 1;
    }
    int64_t live = arena_max_live(p->bufs, n, 1, &peak);
    svg_arena_t a = { path, NULL, v, n, id_of, p, { SVG_WIDTH, SVG_HEIGHT, 0, steps, height, -1, peak, 1, 0, 0 },
                      SVG_PLAIN_ROLE, live, NULL };
    char out[64];
    snprintf(out, sizeof out, "/tmp/svg_bench_%d.svg", (int)getpid());
    double best = 1e9;
    svg_stats_t st = { 0 };
    for (int r = 0; r < 5; r++) {
        double t0 = now_s();
        if (svg_write_arena(&a, out, NULL, &st, &err)) {
            fprintf(stderr, "%s: %s\n", path, err.msg);
            return 1;
        }
        double t = now_s() - t0;
        best = t < best ? t : best;
    }
    struct stat sb;
    stat(out, &sb);
    unlink(out);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("| %s%s | %d | %d | %d | %.1f MB | %.0f ms |\n", base, n < p->n ? " (first 10,000)" : "", (int)n,
           (int)st.rects, (int)st.merged, (double)sb.st_size / 1e6, best * 1e3);
    free(off);
    free(v);
    return 0;
}

int main(int argc, char **argv)
{
    printf("| file | buffers | rectangles | merged | size | write |\n|---|---:|---:|---:|---:|---:|\n");
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        minimalloc_problem_t p;
        rs_error_t err;
        if (minimalloc_read(argv[i], &p, &err)) {
            fprintf(stderr, "%s: %s\n", argv[i], err.msg);
            bad = 1;
            continue;
        }
        bad |= bench(argv[i], &p, p.n);
        if (p.n > 10000)
            bad |= bench(argv[i], &p, 10000);
        minimalloc_free(&p);
    }
    return bad;
}
