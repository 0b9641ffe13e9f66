/* tui_bench: redraw time of the arena of a 100,000-buffer layout, rendered
 * into an off-screen terminal (curses writing to /dev/null), whole and
 * zoomed, of the two-plan arena (Plans' D) of it against a second plan
 * that frees a tenth of the buffers and extends a seventh, and of the Arena
 * screen with the step inspector (a step key and the redraw it causes,
 * every buffer naming a source line); the goal is
 * under 10 ms a frame, independent of the routine. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layout/arena.h"
#include "layout/layout.h"
#include "tui/screen_arena.h"
#include "tui/tui_arena.h"
#include "tui/tui_pair.h"

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
    if (layout_run(bufs, N, 1, LAYOUT_GREEDY, off, &height, &err)) {
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
            tui_draw_arena(&t, &a, t.budget, 1, 0, 48, 200, f % N, true);
            refresh();
            double dt = now_ms() - f0;
            sum += dt;
            if (dt < best)
                best = dt;
        }
        printf("arena frame, %-15s 200x48: mean %.2f ms, best %.2f ms (goal < 10 ms)\n", names[z], sum / frames, best);
    }
    {
        /* two plans: a, the layout above with every 10th buffer gone from b
         * and every 7th of b's living 50 steps longer */
        tui_pair_plan_t pa, pb;
        memset(&pa, 0, sizeof pa);
        memset(&pb, 0, sizeof pb);
        snprintf(pa.name, sizeof pa.name, "plan 1");
        snprintf(pb.name, sizeof pb.name, "plan 2");
        pa.arena = a;
        pb.arena.bufs = malloc(N * sizeof *pb.arena.bufs);
        for (int i = 0; i < N; i++)
            if (i % 10) {
                view_buf_t v = a.bufs[i];
                if (i % 7 == 0)
                    v.end = v.end + 50 < STEPS ? v.end + 50 : STEPS - 1;
                pb.arena.bufs[pb.arena.n++] = v;
            }
        pb.arena.steps = STEPS;
        pb.arena.live = view_live_bytes(pb.arena.bufs, pb.arena.n, STEPS);
        pb.arena.fp = a.fp;
        t.rows = 50;
        t.view_step0 = t.view_step1 = 0;
        double p0 = now_ms();
        if (!tui_pair_open(&t, &pa, &pb, NULL, 0)) {
            fprintf(stderr, "tui_bench: %s\n", t.status);
            return 1;
        }
        double t_open = now_ms() - p0;
        int frames = getenv("FRAMES") ? atoi(getenv("FRAMES")) : 40;
        double best = 1e30, sum = 0;
        for (int f = 0; f < frames; f++) {
            double f0 = now_ms();
            erase();
            tui_pair_draw(&t);
            refresh();
            double dt = now_ms() - f0;
            sum += dt;
            if (dt < best)
                best = dt;
        }
        printf("two-plan arena (%d new or extended, %d pieces gone): classified in %.1f ms;\n"
               "  frame 200x50: mean %.2f ms, best %.2f ms (goal < 10 ms)\n",
               t.pair.count[VIEW_NEW] + t.pair.count[VIEW_EXTENDED], t.pair.arena.n_gone, t_open, sum / frames, best);
        tui_pair_close(&t);
        tui_arena_free(&pb.arena);
    }
    /* the Arena screen with the step inspector: every node named and with a
     * source line, as an HLO routine's; Right from the peak step and back,
     * each key with the redraw it causes */
    routine_t r;
    memset(&r, 0, sizeof r);
    r.n_nodes = N;
    r.nodes = calloc(N, sizeof *r.nodes);
    routine_origin_t *origins = calloc(N, sizeof *origins);
    for (int i = 0; i < N; i++) {
        char nm[32], src[64];
        snprintf(nm, sizeof nm, "fusion.%d", i);
        snprintf(src, sizeof src, "/src/models/layer_%d.py:%d", i % 97, 10 + i % 1000);
        r.nodes[i].name = strdup(nm);
        origins[i].source = strdup(src);
        r.nodes[i].origin = &origins[i];
    }
    for (int64_t st = 0; st < STEPS; st++)
        if (a.live[st] > a.live[a.fp.peak_step])
            a.fp.peak_step = st;
    t.tgt.routine = &r;
    t.arena = a;
    t.open = true;
    t.origins = true;
    t.view_step0 = t.view_step1 = 0;
    screen_arena_key(&t, ACT_STEP_PEAK, 0);
    int32_t *live = malloc(N * sizeof *live), m = 0;
    double l0 = now_ms();
    for (int k = 0; k < 40; k++)
        m = view_live_at(a.bufs, N, a.fp.peak_step + k % 2, live);
    printf("inspector at the peak step %lld: %d buffers live, listed in %.3f ms (view_live_at; twice a key)\n",
           (long long)a.fp.peak_step, (int)m, (now_ms() - l0) / 40);
    free(live);
    for (int z = 0; z < 2; z++) {
        t.view_step0 = z ? a.fp.peak_step - STEPS / 128 : 0;
        t.view_step1 = z ? a.fp.peak_step + STEPS / 128 : 0;
        int frames = getenv("FRAMES") ? atoi(getenv("FRAMES")) : 40;
        double best = 1e30, sum = 0;
        for (int f = 0; f < frames; f++) {
            double f0 = now_ms();
            screen_arena_key(&t, f % 2 ? ACT_STEP_PREV : ACT_STEP_NEXT, 0);
            erase();
            screen_arena_draw(&t);
            refresh();
            double dt = now_ms() - f0;
            sum += dt;
            if (dt < best)
                best = dt;
        }
        printf("inspector key+frame, %-15s 200x50: mean %.2f ms, best %.2f ms (goal < 10 ms)\n", names[z],
               sum / frames, best);
    }
    for (int i = 0; i < N; i++) {
        free(r.nodes[i].name);
        free((char *)origins[i].source);
    }
    free(origins);
    free(r.nodes);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    tui_arena_free(&a);
    free(bufs);
    free(off);
    return 0;
}
