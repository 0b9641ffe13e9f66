/* scoring_bench: fit over every candidate, laying each scoring out from
 * scratch (--scoring full) and incrementally (the default), in CPU seconds
 * (every thread), with the ratio to one `score` of the routine (read,
 * lower, lay out, list candidates); a sweep of four budgets against a
 * single fit; and a check that every way gives the same plans and traces.
 * usage: scoring_bench [FILE BUDGET]...  (a FILE is a .routine or an HLO
 * dump; "gen:transformer:96" generates one).  Default: nothing. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "alloc.h"
#include "lower/score.h"
#include "model/gen.h"
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

static char *read_text(const char *path, size_t *n)
{
    if (strncmp(path, "gen:", 4) == 0) {
        char kind[32];
        int layers = 0;
        if (sscanf(path + 4, "%31[a-z]:%d", kind, &layers) != 2)
            return NULL;
        char *out = NULL;
        rs_error_t err;
        int k = gen_kind_parse(kind);
        gen_options_t o = { .kind = (gen_kind_t)k, .layers = layers };
        if (k < 0 || gen_routine(&o, &out, &err))
            return NULL;
        *n = strlen(out);
        return out;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b)
        b[len] = 0;
    *n = (size_t)len;
    return b;
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

static int bench(const char *path, const char *budget)
{
    size_t len;
    char *text = read_text(path, &len);
    routine_t *r;
    bindings_t b;
    rs_error_t err;
    if (!text || hlo_read_any(path, text, len, &r, &err) || routine_bindings(r, NULL, 0, &b, &err)) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(text);
        return 1;
    }
    double score_cpu = score_once(path, text, len);
    score_config_t cfg;
    score_config_default(&cfg);
    fit_context_t *ctx;
    fit_context_root(r, &b, &cfg, NULL, 0, &ctx, &err);
    budget_spec_t spec;
    units_parse_budget(budget, "budget", &spec, &err);
    fit_plan_t *full = NULL, *inc = NULL;
    double t_full = 0, t_inc = 0;
    int bad = sweep_or_fit(ctx, &spec, 1, false, &inc, &t_inc) || sweep_or_fit(ctx, &spec, 1, true, &full, &t_full);
    if (!bad) {
        int64_t scorings = inc->reused + inc->lowered;
        bool ok = same(full, inc);
        printf("%-34s %-9s %7lld %9.3f %9.3f %7.1fx %8.4f %7.0f %s\n", path, budget, (long long)scorings, t_full, t_inc,
               t_full / t_inc, score_cpu, t_inc / score_cpu, ok ? "identical" : "DIFFERENT");
        bad = !ok;
    }
    /* a sweep of four budgets against the single fit (incremental both) */
    static const char *const four[4] = { "90%", "75%", "60%", "minimize" };
    budget_spec_t specs[4];
    fit_plan_t *plans[4] = { 0 }, *single[4] = { 0 };
    double t_sweep = 0, t_single = 0, t;
    for (int i = 0; i < 4; i++)
        units_parse_budget(four[i], "budget", &specs[i], &err);
    if (!bad && !sweep_or_fit(ctx, specs, 4, false, plans, &t_sweep)) {
        bool ok = true;
        for (int i = 0; i < 4 && !bad; i++) {
            bad = sweep_or_fit(ctx, &specs[i], 1, false, &single[i], &t);
            t_single += t;
            ok = ok && !bad && same(plans[i], single[i]);
        }
        double longest = 0;
        if (!bad) {
            for (int i = 0; i < 4; i++) /* the dearest single fit of the four */
                if (plans[i]->reused + plans[i]->lowered > longest)
                    longest = (double)(single[i]->reused + single[i]->lowered);
            printf("%-34s %-9s sweep 90%%,75%%,60%%,minimize: %.3f s, the four fits alone %.3f s (%.2fx), plans %s\n",
                   "", "", t_sweep, t_single, t_single / t_sweep, ok ? "identical" : "DIFFERENT");
        }
        bad = bad || !ok;
    }
    for (int i = 0; i < 4; i++) {
        fit_plan_free(plans[i]);
        fit_plan_free(single[i]);
    }
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
    printf("%-34s %-9s %7s %9s %9s %8s %8s %7s\n", "routine (every candidate)", "budget", "scorings", "full CPU",
           "incr CPU", "ratio", "score", "x score");
    int bad = 0;
    for (int i = 1; i + 1 < argc; i += 2)
        bad |= bench(argv[i], argv[i + 1]);
    return bad;
}
