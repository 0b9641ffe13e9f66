/* tui_bench: redraw time of the arena of a 100,000-buffer layout, rendered
 * into an off-screen terminal (curses writing to /dev/null), whole and
 * zoomed; the goal is under 10 ms a frame, independent of the routine. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "tui.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(void)
{
    enum { N = 100000, STEPS = 200000 };
    arena_buf_t *bufs = malloc(N * sizeof *bufs);
    int64_t *off = malloc(N * sizeof *off);
    unsigned s = 42;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        int64_t start = (s >> 4) % STEPS;
        s = s * 1103515245u + 12345u;
        int64_t len = 1 + (s >> 4) % (i % 50 == 0 ? 20000 : 400);
        s = s * 1103515245u + 12345u;
        int64_t size = 256 * (1 + (s >> 4) % 4096);
        bufs[i] = (arena_buf_t){ size, start, start + len > STEPS - 1 ? STEPS - 1 : start + len };
    }
    int64_t height;
    rs_error_t err;
    double t0 = now_ms();
    if (arena_layout(bufs, N, 1, ARENA_GREEDY, off, &height, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double t_layout = now_ms() - t0;
    arena_view_t a;
    memset(&a, 0, sizeof a);
    a.n = N;
    a.steps = STEPS;
    a.bufs = malloc(N * sizeof *a.bufs);
    for (int i = 0; i < N; i++)
        a.bufs[i] = (view_buf_t){ bufs[i].start, bufs[i].end, off[i], bufs[i].size, i, (uint8_t)(i % ROLE_COUNT) };
    a.live = view_live_bytes(a.bufs, N, STEPS);
    a.fp.total = height;
    a.fp.live_peak = arena_max_live(bufs, N, 1, NULL);
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    if (!scr) {
        fprintf(stderr, "tui_bench: no terminfo for xterm-256color\n");
        return 1;
    }
    set_term(scr);
    resizeterm(50, 200);
    tui_t t;
    memset(&t, 0, sizeof t);
    t.rows = 50;
    t.cols = 200;
    t.utf8 = true;
    t.budget = height / 2;
    printf("layout of %d buffers over %d steps: %.0f ms (height %lld)\n", N, STEPS, t_layout, (long long)height);
    const char *names[] = { "whole routine", "zoomed to 1/64" };
    for (int z = 0; z < 2; z++) {
        t.view_step0 = z ? STEPS / 2 : 0;
        t.view_step1 = z ? STEPS / 2 + STEPS / 64 : 0;
        int frames = getenv("FRAMES") ? atoi(getenv("FRAMES")) : 40;
        double best = 1e30, sum = 0;
        for (int f = 0; f < frames; f++) {
            double f0 = now_ms();
            erase();
            tui_draw_arena(&t, &a, 1, 0, 48, 200, f % N, true);
            refresh();
            double dt = now_ms() - f0;
            sum += dt;
            if (dt < best)
                best = dt;
        }
        printf("arena frame, %-15s 200x48: mean %.2f ms, best %.2f ms (goal < 10 ms)\n", names[z], sum / frames, best);
    }
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    tui_arena_free(&a);
    free(bufs);
    free(off);
    return 0;
}
