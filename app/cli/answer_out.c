#include "cli/answer_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "plan/answer.h"
#include "text.h"

void answer_out_floors(const floor_t *floor, const floor_t *cap, int32_t kept, int32_t dropped)
{
    char t[512];
    text_floor(floor, NULL, t, sizeof t);
    printf("floor      %s: no plan goes below it\n", t);
    if (dropped <= 0)
        return;
    text_floor(cap, "dropped candidates", t, sizeof t);
    printf("floor under the cap  %s: no plan of the %d cheapest of %d candidates goes below it\n", t, (int)kept,
           (int)(kept + dropped));
}

void answer_out_peak(const footprint_t *fp, const int64_t role[FLOOR_ROLES])
{
    char b[32], roles[192];
    units_format_bytes(fp->live_peak, b, sizeof b);
    text_roles(role, "candidate", roles, sizeof roles);
    printf("peak       live %s at step %d: %s\n", b, (int)fp->peak_step, roles);
}

bool answer_out_warn(int64_t budget, const floor_fit_t *ff)
{
    char said[1024];
    int below = text_floor_below(budget, ff, said, sizeof said);
    if (below == 1)
        fprintf(stderr, "rematscope: floor: %s; fitting anyway\n", said);
    else if (below == 2)
        fprintf(stderr, "rematscope: floor: %s (--max-candidates %d considers every one); fitting anyway\n", said,
                (int)ff->candidates);
    return below != 0;
}

static const char *name_of(const answer_flips_t *a, int32_t i)
{
    return a->names ? a->names[i] : a->r->nodes[a->f[i].node].name;
}

static void signed_flops(int64_t v, char *buf, size_t n)
{
    char f[32];
    units_format_flops(v, f, sizeof f);
    snprintf(buf, n, "%s%s", v >= 0 ? "+" : "", f);
}

/* What the flips that do not pay cost, under the table. */
static void print_unpaid(const answer_flips_t *a, const uint8_t *unpaid, int32_t marked)
{
    int64_t relief = 0, rec = 0;
    for (int32_t i = 0; i < a->n; i++)
        if (unpaid[i])
            relief += a->f[i].relief, rec += a->f[i].recompute;
    char r[32], c[40];
    units_format_bytes(relief, r, sizeof r);
    signed_flops(rec, c, sizeof c);
    double rp = a->baseline.total ? 100.0 * (double)relief / (double)a->baseline.total : 0.0;
    double cp = a->baseline.compute ? 100.0 * (double)rec / (double)a->baseline.compute : 0.0;
    printf("  ! %d flip%s do%s not pay: together %s (%.3g%% of the baseline's compute) for %s (%lld B, %.3g%% of its "
           "bytes): a flip or committed group is marked when its share of the compute is over %d times its share "
           "of the bytes\n",
           (int)marked, marked == 1 ? "" : "s", marked == 1 ? "es" : "", c, cp, r, (long long)relief, rp,
           ANSWER_UNPAID_FACTOR);
}

static void print_origins(const answer_flips_t *a)
{
    answer_origin_t *g;
    int32_t n;
    rs_error_t err;
    if (!a->r || !a->n || answer_by_origin(a->r, a->f, a->n, &g, &n, NULL, &err))
        return;
    printf("\nflips by origin (%d, biggest relief first):\n", (int)n);
    printf("  %5s %12s %14s %16s  %s\n", "flips", "relief", "relief B", "recompute", "origin");
    for (int32_t k = 0; k < n; k++) {
        char r[32], c[40];
        units_format_bytes(g[k].relief, r, sizeof r);
        if (a->recompute_known)
            signed_flops(g[k].recompute, c, sizeof c);
        else
            snprintf(c, sizeof c, "-");
        printf("  %5d %12s %14lld %16s  %s", (int)g[k].flips, r, (long long)g[k].relief, c, text_shown(g[k].origin));
        if (g[k].function)
            printf(" (%s)", text_shown(g[k].function));
        printf("\n");
    }
    free(g);
}

/* Whether each node of r is accumulated (more than one defining step,
 * `+=`): a flip of one is the virtualizer's to reject (DESIGN §2, §4: the
 * candidate list keeps them), so it stays a buffer.  NULL without r. */
static uint8_t *accumulated_nodes(const routine_t *r)
{
    if (!r)
        return NULL;
    uint8_t *defs = calloc((size_t)r->n_nodes + 1, 1);
    for (int32_t s = 0; defs && s < r->n_steps; s++)
        if (defs[r->steps[s].node] < 2)
            defs[r->steps[s].node]++;
    for (int32_t i = 0; defs && i < r->n_nodes; i++)
        defs[i] = defs[i] > 1;
    return defs;
}

/* "2 of the 212 flips are on accumulated nodes (+=): ..." when any is. */
static void print_accumulated(const answer_flips_t *a)
{
    uint8_t *acc = accumulated_nodes(a->r);
    int32_t k = 0;
    for (int32_t i = 0; acc && i < a->n; i++)
        k += a->f[i].node >= 0 && acc[a->f[i].node];
    if (k) {
        printf("%d of the %d flips %s, which the virtualizer rejects (DESIGN §2): %s:", (int)k, (int)a->n,
               k == 1 ? "is on an accumulated node (+=)" : "are on accumulated nodes (+=)",
               k == 1 ? "it stays a buffer and changes nothing" : "they stay buffers and change nothing");
        for (int32_t i = 0, said = 0; i < a->n && said < 8; i++)
            if (a->f[i].node >= 0 && acc[a->f[i].node])
                printf(" %s#%d %s", said++ ? ", " : "", (int)i + 1, text_shown(name_of(a, i)));
        printf("%s\n", k > 8 ? " …" : "");
    }
    free(acc);
}

void answer_out_flips(const answer_flips_t *a)
{
    printf("\nflips (%d, in acceptance order):\n", (int)a->n);
    uint8_t *unpaid = calloc((size_t)a->n + 1, 1);
    int32_t marked = unpaid && a->recompute_known
                         ? answer_unpaid(a->f, a->n, a->baseline.total, a->baseline.compute, unpaid)
                         : 0;
    int nw = 24; /* the node column: as wide as the longest name, so the columns stay aligned */
    for (int32_t i = 0; i < a->n; i++) {
        size_t len = strlen(text_shown(name_of(a, i)));
        if (len > (size_t)nw)
            nw = len < 80 ? (int)len : 80;
    }
    /* the held members of load-bearing groups, which carry 0: said so on
     * their rows ("in #12") and the closer's ("closes 3"), or 3827 rows of
     * "0 B ... +0 FLOPs" read as a broken planner */
    int32_t *closer = malloc(((size_t)a->n + 1) * sizeof *closer);
    int32_t *held = calloc((size_t)a->n + 1, sizeof *held);
    int32_t members = closer && held ? answer_groups(a->f, a->n, closer) : 0, groups = 0;
    for (int32_t i = 0; members && i < a->n; i++)
        if (closer[i] >= 0 && closer[i] != i)
            held[closer[i]]++;
        else if (closer[i] == i)
            groups++;
    if (a->n)
        printf("  %3s  %-*s %12s %14s %16s %16s  %-*s%s%s\n", "#", nw, "node", "relief", "relief B", "cost bound",
               "recompute", members ? 10 : 0, members ? "group" : "", members ? " " : "", "source");
    for (int32_t i = 0; i < a->n; i++) {
        const fit_flip_t *f = &a->f[i];
        char r[32], b[32], c[40], src[1024], g[24] = "";
        if (members && closer[i] == i)
            snprintf(g, sizeof g, "closes %d", (int)held[i]);
        else if (members && closer[i] >= 0)
            snprintf(g, sizeof g, "in #%d", (int)closer[i] + 1);
        units_format_bytes(f->relief, r, sizeof r);
        units_format_flops(f->cost, b, sizeof b);
        if (a->recompute_known)
            signed_flops(f->recompute, c, sizeof c);
        else
            snprintf(c, sizeof c, "-");
        src[0] = 0;
        if (a->r && f->node >= 0)
            routine_node_origin(a->r, f->node, src, sizeof src);
        printf("  %3d%c %-*s %12s %14lld %16s %16s  %-*s%s%s\n", (int)i + 1, unpaid && unpaid[i] ? '!' : ' ', nw,
               text_shown(name_of(a, i)), r, (long long)f->relief, b, c, members ? 10 : 0, g, members ? " " : "",
               text_shown(src));
    }
    if (members)
        printf("%d of the %d flips are held members of %d load-bearing group%s: each carries 0, the flip that "
               "closed its group (\"closes N\") the group's relief and recompute\n",
               (int)members, (int)a->n, (int)groups, groups == 1 ? "" : "s");
    free(closer);
    free(held);
    print_accumulated(a);
    if (marked)
        print_unpaid(a, unpaid, marked);
    free(unpaid);
    print_origins(a);
}

static void roles_keys(json_t *j, const int64_t role[FLOOR_ROLES])
{
    for (int r = 0; r < FLOOR_ROLES; r++)
        json_int(j, floor_role_name((lower_role_t)r), role[r]);
}

void answer_out_json_floor(json_t *j, const char *key, const floor_t *f)
{
    json_obj_begin(j, key);
    json_int(j, "bytes", f->bytes);
    json_int(j, "step", f->step);
    roles_keys(j, f->role);
    json_obj_end(j);
}

void answer_out_json_roles(json_t *j, const char *key, const int64_t role[FLOOR_ROLES])
{
    json_obj_begin(j, key);
    roles_keys(j, role);
    json_obj_end(j);
}

void answer_out_json_flips(json_t *j, const answer_flips_t *a)
{
    uint8_t *unpaid = calloc((size_t)a->n + 1, 1);
    if (unpaid && a->recompute_known)
        answer_unpaid(a->f, a->n, a->baseline.total, a->baseline.compute, unpaid);
    uint8_t *acc = accumulated_nodes(a->r);
    json_arr_begin(j, "flips");
    for (int32_t i = 0; i < a->n; i++) {
        json_obj_begin(j, NULL);
        json_str(j, "node", name_of(a, i));
        if (acc && a->f[i].node >= 0 && acc[a->f[i].node])
            json_bool(j, "accumulated", true); /* rejected by the virtualizer: stays a buffer */
        json_int(j, "relief", a->f[i].relief);
        json_int(j, "cost", a->f[i].cost);
        if (a->recompute_known && unpaid) {
            json_int(j, "recompute", a->f[i].recompute);
            json_bool(j, "pays", !unpaid[i]);
        } else {
            json_null(j, "recompute");
            json_null(j, "pays");
        }
        if (a->r)
            json_node_origin(j, a->r, a->f[i].node);
        json_obj_end(j);
    }
    json_arr_end(j);
    free(unpaid);
    free(acc);
}

void answer_out_json_origins(json_t *j, const answer_flips_t *a)
{
    answer_origin_t *g = NULL;
    int32_t n = 0;
    rs_error_t err;
    if (!a->r || answer_by_origin(a->r, a->f, a->n, &g, &n, NULL, &err))
        return;
    json_arr_begin(j, "by_origin");
    for (int32_t k = 0; k < n; k++) {
        json_obj_begin(j, NULL);
        json_str(j, "origin", g[k].origin);
        if (g[k].function)
            json_str(j, "function", g[k].function);
        json_int(j, "flips", g[k].flips);
        json_int(j, "relief", g[k].relief);
        if (a->recompute_known)
            json_int(j, "recompute", g[k].recompute);
        else
            json_null(j, "recompute");
        json_obj_end(j);
    }
    json_arr_end(j);
    free(g);
}

void answer_out_missed_by(int64_t budget, int64_t final, bool within)
{
    if (within || budget < 0 || final <= budget)
        return;
    char by[64];
    units_format_bytes_exact(final - budget, by, sizeof by);
    printf(", missed by %s", by);
}

void answer_out_event_group(const char *kind, int32_t n, const char *names)
{
    if (n <= 3 || (strcmp(kind, "commit-group") != 0 && strcmp(kind, "discard-group") != 0))
        return;
    printf("  %4s  %2s %-14s the group: ", "", "", "");
    text_print(stdout, names);
    printf("\n");
}
