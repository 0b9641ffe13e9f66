/* `rematscope layout`: lay out a MiniMalloc buffer CSV. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/json.h"
#include "fail.h"
#include "layout/arena.h"
#include "layout/layout.h"
#include "layout/tight.h"
#include "minimalloc.h"
#include "model/units.h"
#include "monotime.h"
#include "svg.h"
#include "text.h"
#include "wfile.h"

static double deadline_s;

static double now_s(void) { return (double)monotime_us() / 1e6; }

static const char *buffer_id(const void *ud, int32_t node)
{
    return ((const minimalloc_problem_t *)ud)->ids[node];
}

/* The laid-out problem as an SVG picture: one role, the whole span of
 * steps, the height and the peak step of max live marked. */
static int write_svg(const cmdline_t *c, const minimalloc_problem_t *p, const int64_t *off, int64_t alignment,
                     int64_t height, layout_strategy_t strategy, svg_stats_t *st, rs_error_t *err)
{
    int64_t *size = malloc(((size_t)p->n + 1) * sizeof *size);
    view_buf_t *v = malloc(((size_t)p->n + 1) * sizeof *v);
    int rc = !size || !v ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory")
                         : arena_align_sizes(p->bufs, p->n, alignment, size, err);
    int64_t steps = 1, peak = 0, lower = 0;
    for (int32_t i = 0; !rc && i < p->n; i++) {
        v[i] = (view_buf_t){ p->bufs[i].start, p->bufs[i].end, off[i], size[i], i, 0 };
        if (p->bufs[i].end + 1 > steps)
            steps = p->bufs[i].end + 1;
    }
    if (!rc) {
        lower = arena_max_live(p->bufs, p->n, alignment, &peak);
        char title[512], sub[256], h[32], lb[32];
        units_format_bytes(height, h, sizeof h);
        units_format_bytes(lower, lb, sizeof lb);
        snprintf(title, sizeof title, "%s: %s, %s layout", c->pos[0], text_count(p->n, "buffer", NULL),
                 layout_strategy_name(strategy));
        snprintf(sub, sizeof sub, "height %s (%lld B), max live %s (%lld B, lower bound), ratio %.4f, alignment %lld",
                 h, (long long)height, lb, (long long)lower, lower ? (double)height / (double)lower : 1.0,
                 (long long)alignment);
        svg_arena_t a = { title, sub, v, p->n, buffer_id, p,
                          { SVG_WIDTH, SVG_HEIGHT, 0, steps, height, -1, p->n ? peak : -1, 1, 0, 0 }, SVG_PLAIN_ROLE,
                          lower, NULL };
        rc = svg_write_arena(&a, c->svg, c->db, st, err);
    }
    free(size);
    free(v);
    return rc;
}

static int deadline_passed(void *ud)
{
    (void)ud;
    return deadline_s > 0 && now_s() > deadline_s;
}

int cmd_layout(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    int64_t alignment = c->alignment >= 0 ? c->alignment : 1;
    if (alignment < 1) {
        error_set(&err, RS_EINPUT, "--alignment", 0, 0, "alignment must be at least 1");
        return fail_print(&err);
    }
    int strategy = LAYOUT_GREEDY;
    if (c->strategy && (strategy = layout_strategy_parse(c->strategy)) < 0) {
        error_set(&err, RS_EINPUT, "--strategy", 0, 0, "unknown strategy '%s' (expected " LAYOUT_STRATEGY_NAMES ")",
                  c->strategy);
        return fail_print(&err);
    }
    minimalloc_problem_t p;
    int rc = minimalloc_read(c->pos[0], &p, &err);
    if (rc)
        return fail_print(&err);
    int64_t *off = malloc((p.n ? (size_t)p.n : 1) * sizeof *off);
    int64_t height = 0;
    int64_t t0 = monotime_us();
    tight_stats_t st = { 0 };
    if (!off) {
        rc = error_set(&err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    } else if (strategy == LAYOUT_TIGHT) {
        deadline_s = c->time_limit > 0 ? now_s() + c->time_limit : 0;
        tight_options_t o = { .max_iterations = c->iterations, .stop = deadline_passed };
        rc = tight_layout(p.bufs, p.n, alignment, &o, off, &height, &st, &err);
    } else {
        rc = layout_run(p.bufs, p.n, alignment, (layout_strategy_t)strategy, off, &height, &err);
    }
    int64_t t1 = monotime_us();
    if (rc && !err.file[0])
        error_set(&err, err.code, c->pos[0], 0, 0, "%s", err.msg);
    /* neither output is written when the other would hit the store */
    if (!rc && c->output && c->svg)
        rc = wfile_refuse(c->output, c->db, "the solution", &err) || wfile_refuse(c->svg, c->db, "the picture", &err);
    if (!rc && c->output)
        rc = minimalloc_write_solution(c->output, c->db, &p, off, NULL, c->raw, &err);
    svg_stats_t svg_st = { 0 };
    if (!rc && c->svg)
        rc = write_svg(c, &p, off, alignment, height, (layout_strategy_t)strategy, &svg_st, &err);
    int status = 0;
    if (rc) {
        status = fail_print(&err);
    } else {
        int64_t lower = arena_max_live(p.bufs, p.n, alignment, NULL);
        double us = (double)(t1 - t0);
        if (c->json) {
            json_t j;
            json_init(&j, stdout);
            json_obj_begin(&j, NULL);
            json_int(&j, "height", height);
            json_int(&j, "lower_bound", lower);
            json_int(&j, "buffers", p.n);
            json_str(&j, "strategy", layout_strategy_name((layout_strategy_t)strategy));
            if (strategy == LAYOUT_TIGHT) {
                json_int(&j, "greedy_height", st.greedy_height);
                json_int(&j, "timeline_height", st.timeline_height);
                json_int(&j, "iterations", st.iterations);
                json_int(&j, "probes", st.probes);
                json_int(&j, "windows", st.windows);
                json_int(&j, "search_work", st.search_work);
                json_int(&j, "proven_bound", st.proven_bound);
                json_bool(&j, "optimal", st.optimal);
            }
            json_obj_end(&j);
            json_finish(&j);
        } else {
            char h[32], lb[32];
            units_format_bytes(height, h, sizeof h);
            units_format_bytes(lower, lb, sizeof lb);
            printf("%s: %s, strategy %s, alignment %lld\n", text_shown(c->pos[0]), text_count(p.n, "buffer", NULL),
                   layout_strategy_name((layout_strategy_t)strategy), (long long)alignment);
            printf("height       %lld B (%s)\nlower bound  %lld B (%s, max live)\nratio        %.4f\n"
                   "time         %.0f us\n",
                   (long long)height, h, (long long)lower, lb, lower ? (double)height / (double)lower : 1.0, us);
            if (strategy == LAYOUT_TIGHT)
            {
                printf("search       greedy gave %lld B (%.4f), timeline %lld B (%.4f); %s; %s probed",
                       (long long)st.greedy_height, lower ? (double)st.greedy_height / (double)lower : 1.0,
                       (long long)st.timeline_height, lower ? (double)st.timeline_height / (double)lower : 1.0,
                       text_count(st.iterations, "greedy placement", NULL),
                       text_count(st.probes, "capacity", "capacities"));
                if (st.windows)
                    printf("; %s of time re-packed", text_count(st.windows, "window", NULL));
                printf(" (%s)\n", text_count(st.search_work, "step", NULL));
                if (st.optimal && height <= lower)
                    printf("optimal      it meets the lower bound\n");
                else if (st.optimal)
                    printf("optimal      the search ruled out every height below it\n");
                else if (st.proven_bound > lower)
                    printf("not proven   nothing fits below %lld B (proven); the rest was not searched out\n",
                           (long long)st.proven_bound);
                else
                    printf("not proven   optimal\n");
            }
            if (c->output)
                printf("solution     %s\n", text_shown(c->output));
            if (c->svg)
                printf("picture      %s (%d buffer%s as %d rectangle%s)\n", text_shown(c->svg), (int)svg_st.drawn,
                       svg_st.drawn == 1 ? "" : "s", (int)svg_st.rects, svg_st.rects == 1 ? "" : "s");
        }
    }
    free(off);
    minimalloc_free(&p);
    return status;
}
