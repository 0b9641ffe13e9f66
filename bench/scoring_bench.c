/* scoring_bench: fit over every candidate, laying each scoring out from
 * scratch (--scoring full) and incrementally (the default), in CPU seconds
 * (every thread), with the ratio to one `score` of the routine (read,
 * lower, lay out, list candidates); a sweep of four budgets against a
 * single fit; and a check that every way gives the same plans and traces.
 * usage: scoring_bench [--[no-]full] [--[no-]sweep] FILE BUDGET ...  (a FILE
 * is a .routine or an HLO dump; "gen:transformer:96" generates one; the
 * flags hold for the inputs after them: --no-full skips the from-scratch
 * fit, --no-sweep the four budgets).  Default: nothing. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "alloc.h"
#include "bench_input.h"
#include "lower/score.h"
#include "model/hlo.h"
#include "plan/cand.h"
#include "plan/fit.h"

static double cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           (double)u.ru_stime.tv_usec / 1e6;
}

static bool same(const fit_plan_t *a, const fit_plan_t *b)
{
    return a->n_flips == b->n_flips && memcmp(a->flips, b->flips, (size_t)a->n_flips * sizeof *a->flips) == 0 &&
           a->n_events == b->n_events && memcmp(a->events, b->events, (size_t)a->n_events * sizeof *a->events) == 0 &&
           a->n_members == b->n_members &&
           memcmp(a->members, b->members, (size_t)a->n_members * sizeof *a->members) == 0 &&
           memcmp(&a->final, &b->final, sizeof a->final) == 0;
}

/* One `score`: read, lower, lay out, list the candidates. */
static double score_once(const char *path, const char *text, size_t len)
{
    double t0 = cpu_s();
    routine_t *r;
    bindings_t b;
    lowering_t *l;
    rs_error_t err;
    if (hlo_read_any(path, text, len, &r, &err) || routine_bindings(r, NULL, 0, &b, &err) ||
        lower_routine(r, &b, &l, &err))
        return -1;
    score_config_t cfg;
    score_config_default(&cfg);
    footprint_t fp;
    score_detail_t d;
    flip_candidate_t *c = NULL;
    int32_t nc;
    if (!score_lowering(l, NULL, &cfg, &fp, &d, &err))
        flip_candidates(l, &d.place, &d.live, &c, &nc, &err);
    double t = cpu_s() - t0;
    free(c);
    score_detail_free(&d);
    lower_free(l);
    bindings_free(&b);
    routine_free(r);
    return t;
}

static int sweep_or_fit(const fit_context_t *ctx, const budget_spec_t *specs, int32_t n, bool full, fit_plan_t **plans,
                        double *cpu)
{
    fit_options_t opt = { .max_candidates = FIT_CAP_ALL, .device_bytes = -1, .full_scoring = full };
    rs_error_t err;
    double t0 = cpu_s();
    int rc = fit_sweep(&opt, specs, n, ctx, NULL, plans, &err);
    *cpu = cpu_s() - t0;
    if (rc)
        fprintf(stderr, "fit: %s\n", err.msg);
    return rc;
}

static int64_t scorings_of(const fit_plan_t *p) { return p->reused + p->lowered; }

/* A sweep of four budgets against the four single fits (incremental all),
 * the plans checked equal.  The measure is the sweep against one
 * single fit: against the dearest of the four and against their mean. */
static int sweep_four(const fit_context_t *ctx)
{
    static const char *const four[4] = { "90%", "75%", "60%", "minimize" };
    budget_spec_t specs[4];
    fit_plan_t *plans[4] = { 0 }, *single[4] = { 0 };
    double t_sweep = 0, t_single[4] = { 0 }, sum = 0, dearest = 0;
    rs_error_t err;
    for (int i = 0; i < 4; i++)
        units_parse_budget(four[i], "budget", &specs[i], &err);
    int bad = sweep_or_fit(ctx, specs, 4, false, plans, &t_sweep);
    bool ok = !bad;
    for (int i = 0; i < 4 && !bad; i++) {
        bad = sweep_or_fit(ctx, &specs[i], 1, false, &single[i], &t_single[i]);
        ok = ok && !bad && same(plans[i], single[i]);
        sum += t_single[i];
        dearest = t_single[i] > dearest ? t_single[i] : dearest;
    }
    if (!bad) {
        printf("  sweep 90%%,75%%,60%%,minimize: %.3f s CPU; alone %.3f + %.3f + %.3f + %.3f = %.3f s "
               "(scorings %lld, %lld, %lld, %lld)\n",
               t_sweep, t_single[0], t_single[1], t_single[2], t_single[3], sum, (long long)scorings_of(single[0]),
               (long long)scorings_of(single[1]), (long long)scorings_of(single[2]),
               (long long)scorings_of(single[3]));
        printf("  sweep / dearest single fit %.2f, / mean single fit %.2f, four alone / sweep %.2fx; plans %s\n",
               t_sweep / dearest, t_sweep / (sum / 4), sum / t_sweep, ok ? "identical" : "DIFFERENT");
    }
    for (int i = 0; i < 4; i++) {
        fit_plan_free(plans[i]);
        fit_plan_free(single[i]);
    }
    return bad || !ok;
}

/* One `score` in CPU seconds: the least of three runs. */
static double score_best(const char *path, const char *text, size_t len)
{
    double best = -1;
    for (int i = 0; i < 3; i++) {
        double t = score_once(path, text, len);
        if (t < 0)
            return -1;
        best = best < 0 || t < best ? t : best;
    }
    return best;
}

static int bench(const char *path, const char *budget, bool with_full, bool with_sweep)
{
    size_t len;
    char *text = bench_read_text(path, &len);
    routine_t *r;
    bindings_t b;
    rs_error_t err;
    budget_spec_t spec;
    if (!text || hlo_read_any(path, text, len, &r, &err) || routine_bindings(r, NULL, 0, &b, &err)) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(text);
        return 1;
    }
    if (units_parse_budget(budget, "budget", &spec, &err)) {
        fprintf(stderr, "%s: %s\n", budget, err.msg);
        bindings_free(&b);
        routine_free(r);
        free(text);
        return 1;
    }
    double score_cpu = score_best(path, text, len);
    score_config_t cfg;
    score_config_default(&cfg);
    fit_context_t *ctx;
    if (score_cpu < 0 || fit_context_root(r, &b, &cfg, NULL, 0, &ctx, &err)) {
        fprintf(stderr, "%s: cannot score\n", path);
        bindings_free(&b);
        routine_free(r);
        free(text);
        return 1;
    }
    fit_plan_t *full = NULL, *inc = NULL;
    double t_full = 0, t_inc = 0;
    int bad = sweep_or_fit(ctx, &spec, 1, false, &inc, &t_inc) ||
              (with_full && sweep_or_fit(ctx, &spec, 1, true, &full, &t_full));
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!bad) {
        bool ok = !with_full || same(full, inc);
        char fs[32] = "-", rs[32] = "-";
        if (with_full) {
            snprintf(fs, sizeof fs, "%.3f", t_full);
            snprintf(rs, sizeof rs, "%.1fx", t_full / t_inc);
        }
        printf("%-28s %-9s %6d %9lld %9s %9.3f %7s %8.4f %7.0f %s\n", name, budget, inc->considered,
               (long long)scorings_of(inc), fs, t_inc, rs, score_cpu, t_inc / score_cpu,
               !with_full ? "-" : ok ? "identical" : "DIFFERENT");
        fflush(stdout);
        bad = !ok;
    }
    if (!bad && with_sweep)
        bad = sweep_four(ctx);
    fflush(stdout);
    fit_plan_free(full);
    fit_plan_free(inc);
    fit_context_free(ctx);
    bindings_free(&b);
    routine_free(r);
    free(text);
    return bad;
}

int main(int argc, char **argv)
{
    alloc_tune();
    printf("CPU seconds of every thread (getrusage); \"full\" is the same binary scoring from scratch (--scoring full),\n"
           "\"incr\" the default; \"score\" one read + lower + layout + candidates, the least of three\n");
    printf("%-28s %-9s %6s %9s %9s %9s %7s %8s %7s %s\n", "routine (every candidate)", "budget", "cands", "scorings",
           "full CPU", "incr CPU", "speedup", "score", "x score", "plans");
    int bad = 0;
    bool with_full = true, with_sweep = true;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-full") == 0 || strcmp(argv[i], "--full") == 0)
            with_full = argv[i][2] == 'f';
        else if (strcmp(argv[i], "--no-sweep") == 0 || strcmp(argv[i], "--sweep") == 0)
            with_sweep = argv[i][2] == 's';
        else if (i + 1 < argc)
            bad |= bench(argv[i], argv[i + 1], with_full, with_sweep), i++;
    }
    return bad;
}
