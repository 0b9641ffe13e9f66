/* `rematscope score`: the footprint and per-buffer table of a routine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/answer_out.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/remat_out.h"
#include "fail.h"
#include "model/units.h"
#include "plan/cand.h"
#include "plan/floor.h"
#include "util/checked.h"
#include "target.h"
#include "text.h"

static void print_shape(const lowering_t *l, int32_t i, char *buf, size_t n)
{
    size_t w = (size_t)snprintf(buf, n, "[");
    for (int32_t k = l->dim_off[i]; k < l->dim_off[i + 1] && w < n; k++)
        w += (size_t)snprintf(buf + w, n - w, "%s%lld", k > l->dim_off[i] ? "," : "", (long long)l->dims[k]);
    if (w < n)
        snprintf(buf + w, n - w, "]");
}

/* The table's role column: lower_role's (DESIGN §13) with the detail a
 * reader wants: "input" or "param" for a resident, "into P" for an output
 * written into input P's buffer (donated), "output", "pinned", or "" for a
 * candidate. */
static const char *role(const lowering_t *l, int32_t i, char *buf, size_t n)
{
    switch (lower_role(l, i)) {
    case LOWER_RESIDENT: return l->kind[i] == NODE_INPUT ? "input" : "param";
    case LOWER_OUTPUT:
        if (lower_into(l, i) < 0)
            return "output";
        snprintf(buf, n, "into %s", l->routine->nodes[lower_into(l, i)].name);
        return buf;
    case LOWER_PINNED: return "pinned";
    case LOWER_CANDIDATE: break;
    }
    return "";
}

/* DESIGN §13's floor and the peak's bytes by role, of one scoring. */
typedef struct answers {
    floor_t floor;
    int64_t peak[FLOOR_ROLES];
} answers_t;

static void print_json(const target_t *t, const footprint_t *fp, const score_detail_t *d,
                       const flip_candidate_t *cand, int32_t n_cand, const answers_t *a)
{
    const lowering_t *l = t->lowering;
    const routine_t *r = t->routine;
    json_t j;
    json_init(&j, stdout);
    json_obj_begin(&j, NULL);
    json_str(&j, "routine", r->name);
    json_footprint(&j, "footprint", fp);
    if (t->xla_bytes >= 0)
        json_int(&j, "xla_bytes", t->xla_bytes);
    if (r->format == ROUTINE_HLO)
        json_bool(&j, "after_xla_passes", r->hlo_scheduled);
    json_arr_begin(&j, "buffers");
    for (int32_t i = 0; i < l->n_nodes; i++) {
        if (d->place.is_inline[i])
            continue;
        json_obj_begin(&j, NULL);
        json_str(&j, "node", r->nodes[i].name);
        json_int(&j, "bytes", l->bytes[i]);
        json_int(&j, "start", d->live.start[i]);
        json_int(&j, "end", d->live.end[i]);
        json_int(&j, "offset", d->offset[i]);
        if (lower_into(l, i) >= 0)
            json_str(&j, "into", r->nodes[lower_into(l, i)].name);
        json_node_origin(&j, r, i);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_inline_nodes(&j, "inline", r, d->place.is_inline, l->n_nodes);
    json_arr_begin(&j, "rejected");
    for (int32_t k = 0; k < d->place.n_rejected; k++) {
        json_obj_begin(&j, NULL);
        json_str(&j, "node", r->nodes[d->place.rejected[k].node].name);
        json_str(&j, "reason", virtualizer_reason_name((virtualizer_reason_t)d->place.rejected[k].reason));
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_arr_begin(&j, "candidates");
    for (int32_t k = 0; k < n_cand; k++) {
        json_obj_begin(&j, NULL);
        json_str(&j, "node", r->nodes[cand[k].node].name);
        json_str(&j, "direction", flip_dir_name((flip_dir_t)cand[k].dir));
        json_int(&j, "cost", cand[k].cost_bound);
        json_node_origin(&j, r, cand[k].node);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    answer_out_json_floor(&j, "floor", &a->floor);
    answer_out_json_roles(&j, "peak_by_role", a->peak);
    json_obj_end(&j);
    json_finish(&j);
}

/* What input_output_alias did to an HLO routine (DESIGN §10), and a §1
 * routine's @into nodes: the user sees that donated outputs are not counted
 * twice. */
static void print_donation(const routine_t *r, const lowering_t *l)
{
    char a[64]; /* under 1 KiB the bytes once: "72 B", not "72 B (72 B)" */
    const routine_donation_t *dn = &r->donation;
    if (r->format == ROUTINE_HLO && dn->pairs) {
        units_format_bytes_exact(dn->bytes, a, sizeof a);
        printf("donated    %d of %d aliased outputs, %s written into their parameters' buffers\n", (int)dn->donated,
               (int)dn->pairs, a);
    } else if (r->format != ROUTINE_HLO && r->n_into) {
        int64_t held = 0;
        for (int32_t k = 0; k < r->n_into; k++) {
            int32_t i = r->into[k].node;
            int64_t b;
            held = dtype_bytes((dtype_t)r->nodes[i].dtype, l->elems[i], &b) ? sat_add(held, b) : INT64_MAX;
        }
        units_format_bytes_exact(held, a, sizeof a);
        printf("into       %d node%s written into %s input's buffer (@into), %s not counted again\n", (int)r->n_into,
               r->n_into == 1 ? "" : "s", r->n_into == 1 ? "its" : "their", a);
    }
}

static void print_table(const target_t *t, const footprint_t *fp, const score_detail_t *d,
                        const flip_candidate_t *cand, int32_t n_cand, const answers_t *ans)
{
    const lowering_t *l = t->lowering;
    const routine_t *r = t->routine;
    char a[32], b[32], c[32];
    printf("routine %s: %s, %s", text_shown(r->name), text_count(l->n_steps, "step", NULL), text_count(l->n_nodes, "node", NULL));
    if (t->has_profile)
        printf(", profile %s", text_shown(t->profile.name));
    printf(", alignment %lld, max inline depth %d%s\n", (long long)t->cfg.alignment, (int)t->cfg.max_inline_depth,
           t->cfg.aliasing ? "" : ", aliasing off");
    units_format_bytes(fp->total, a, sizeof a);
    units_format_bytes(fp->live_peak, b, sizeof b);
    units_format_flops(fp->compute, c, sizeof c);
    printf("footprint  total %s (%lld B)  live peak %s at step %d  buffers %d  compute %s", a, (long long)fp->total, b,
           (int)fp->peak_step, (int)fp->buffers, c);
    if (t->has_profile && t->profile.flops_per_s > 0) {
        units_format_seconds(profile_seconds(&t->profile, fp->compute), c, sizeof c);
        printf(" (about %s at %s's peak FLOP/s)", c, text_shown(t->profile.name));
    }
    printf("\n");
    if (t->routine->format == ROUTINE_HLO && !t->routine->hlo_scheduled)
        /* .lower().as_text() is the dump a JAX user has at hand: 1.6x XLA's
         * peak on the Llama step, and nothing said so */
        printf("stage      before XLA's passes (the module is not scheduled): XLA fuses, reorders and reuses buffers "
               "after them, so what it allocates differs, usually less; --xla_dump_to's *after_optimizations.txt is "
               "the module XLA runs\n");
    if (t->xla_bytes >= 0) {
        /* XLA's own buffer assignment beside the dump: does the model read
         * the step as XLA does? */
        units_format_bytes(t->xla_bytes, a, sizeof a);
        units_format_bytes(fp->total, b, sizeof b);
        printf("xla        XLA's allocation (its memory-usage report's Total bytes): %s (%lld B); this arena: %s, "
               "%.3fx\n", a, (long long)t->xla_bytes, b, t->xla_bytes ? (double)fp->total / (double)t->xla_bytes : 0.0);
        /* the figure a JAX user checks first is not in the dump: say which
         * of ours it compares with (the walk read the arena against it) */
        units_format_bytes(fp->live_peak, b, sizeof b);
        printf("           XLA's peak: not in the dump (compiled.memory_analysis().peak_memory_in_bytes); hold it "
               "against this live peak: %s (%lld B)\n", b, (long long)fp->live_peak);
    }
    if (t->has_profile && t->profile.memory_bytes > 0) {
        units_format_bytes(t->profile.memory_bytes, c, sizeof c);
        printf("device     %s memory: %s\n", c, fp->total <= t->profile.memory_bytes ? "fits" : "does not fit");
    }
    answer_out_peak(fp, ans->peak);
    answer_out_floors(&ans->floor, NULL, 0, 0);
    print_donation(r, l);
    printf("\n%-20s %-12s %-18s %-5s %10s %11s %14s  %-6s  %s\n", "node", "op", "shape", "type", "bytes", "span",
           "offset", "role", "from");
    for (int32_t i = 0; i < l->n_nodes; i++) {
        if (d->place.is_inline[i])
            continue;
        char shape[64], span[32];
        print_shape(l, i, shape, sizeof shape);
        units_format_bytes(l->bytes[i], a, sizeof a);
        snprintf(span, sizeof span, "%d-%d", (int)d->live.start[i], (int)d->live.end[i]);
        const char *op = l->kind[i] == NODE_DEF ? routine_op(r, l->first_def[i]) : "-";
        char origin[1024], shown[1024], rl[600], rshown[1200];
        routine_node_origin(r, i, origin, sizeof origin);
        printf("%-20s %-12s %-18s %-5s %10s %11s %14lld  %-6s  %s\n", r->nodes[i].name, op, shape,
               dtype_name((dtype_t)r->nodes[i].dtype), a, span, (long long)d->offset[i],
               text_escape(role(l, i, rl, sizeof rl), rshown, sizeof rshown), text_escape(origin, shown, sizeof shown));
    }
    int n_inline = 0;
    for (int32_t i = 0; i < l->n_nodes; i++)
        if (d->place.is_inline[i])
            printf("%s%s", n_inline++ ? ", " : "\ninline: ", r->nodes[i].name);
    if (n_inline)
        printf("\n");
    for (int32_t k = 0; k < d->place.n_rejected; k++)
        printf("%s%s (%s)", k ? ", " : "\nrejected preferences: ", r->nodes[d->place.rejected[k].node].name,
               virtualizer_reason_name((virtualizer_reason_t)d->place.rejected[k].reason));
    if (d->place.n_rejected)
        printf("\n");
    printf("\nflip candidates (%d):\n", (int)n_cand);
    for (int32_t k = 0; k < n_cand; k++) {
        char origin[1024], shown[1024];
        routine_node_origin(r, cand[k].node, origin, sizeof origin);
        units_format_flops(cand[k].cost_bound, c, sizeof c);
        printf("  %-20s %-11s cost bound %-12s %s\n", r->nodes[cand[k].node].name,
               flip_dir_name((flip_dir_t)cand[k].dir), c, text_escape(origin, shown, sizeof shown));
    }
}

int cmd_score(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    target_t t;
    int rc = target_open(c, c->pos[0], &t, &err);
    if (rc)
        return fail_print(&err);
    target_drop_text(&t); /* score stores nothing: a big routine's source need not outlive its parse */
    if (c->n_remats > 0) {
        int st = remat_out_score(&t, c->json);
        target_free(&t);
        return st;
    }
    footprint_t fp;
    score_detail_t d;
    flip_candidate_t *cand = NULL;
    int32_t n_cand = 0;
    answers_t a;
    rc = score_lowering(t.lowering, t.prefs, &t.cfg, &fp, &d, &err);
    if (!rc)
        rc = flip_candidates(t.lowering, &d.place, &d.live, &cand, &n_cand, &err);
    if (!rc)
        rc = floor_compute(t.lowering, &d, &t.cfg, NULL, &a.floor, &err);
    if (!rc)
        floor_split_at(t.lowering, &d, &t.cfg, fp.peak_step, a.peak);
    int status = 0;
    if (rc)
        status = fail_print(&err);
    else if (c->json)
        print_json(&t, &fp, &d, cand, n_cand, &a);
    else
        print_table(&t, &fp, &d, cand, n_cand, &a);
    free(cand);
    score_detail_free(&d);
    target_free(&t);
    return status;
}
