#include "cli/remat_out.h"

#include <stdio.h>

#include "cli/json.h"
#include "fail.h"
#include "lower/remat.h"
#include "model/units.h"
#include "text.h"

static void print_json(const target_t *t, const footprint_t *fp, const remat_detail_t *d)
{
    const lowering_t *l = t->lowering;
    const routine_t *r = t->routine;
    json_t j;
    json_init(&j, stdout);
    json_obj_begin(&j, NULL);
    json_str(&j, "routine", r->name);
    json_footprint(&j, "footprint", fp);
    json_int(&j, "steps", d->n_steps);
    json_arr_begin(&j, "buffers");
    int32_t c = 0;
    for (int32_t i = 0; i < l->n_nodes; i++) {
        if (d->place.is_inline[i])
            continue;
        json_obj_begin(&j, NULL);
        json_str(&j, "node", r->nodes[i].name);
        json_int(&j, "bytes", l->bytes[i]);
        json_int(&j, "start", d->start[i]);
        json_int(&j, "end", d->end[i]);
        json_int(&j, "offset", d->offset[i]);
        json_obj_end(&j);
        for (; c < d->n_copies && d->copies[c].node == i; c++) {
            json_obj_begin(&j, NULL);
            json_str(&j, "node", r->nodes[i].name);
            json_bool(&j, "copy", true);
            json_int(&j, "bytes", l->bytes[i]);
            json_int(&j, "start", d->copies[c].step);
            json_int(&j, "end", d->copies[c].end);
            json_int(&j, "offset", d->copies[c].offset);
            json_obj_end(&j);
        }
    }
    json_arr_end(&j);
    json_inline_nodes(&j, "inline", r, d->place.is_inline, l->n_nodes);
    json_arr_begin(&j, "remat");
    for (int32_t i = 0; i < l->n_nodes; i++)
        if (t->remat[i]) {
            json_obj_begin(&j, NULL);
            json_str(&j, "node", r->nodes[i].name);
            json_str(&j, "outcome", remat_skip_name((remat_skip_t)d->skip[i]));
            json_obj_end(&j);
        }
    json_arr_end(&j);
    json_arr_begin(&j, "schedule");
    for (int32_t k = 0; k < d->n_steps; k++) {
        json_obj_begin(&j, NULL);
        json_str(&j, "node", r->nodes[d->step_node[k]].name);
        if (d->step_orig[k] >= 0)
            json_int(&j, "was", d->step_orig[k]);
        else
            json_bool(&j, "recompute", true);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    json_finish(&j);
}

static void print_text(const target_t *t, const footprint_t *fp, const remat_detail_t *d)
{
    const lowering_t *l = t->lowering;
    const routine_t *r = t->routine;
    char a[32], b[32], f[32];
    units_format_bytes(fp->total, a, sizeof a);
    units_format_bytes(fp->live_peak, b, sizeof b);
    units_format_flops(fp->compute, f, sizeof f);
    printf("routine %s: %s after %s (%d before)\n", r->name, text_count(d->n_steps, "step", NULL),
           text_count(d->n_copies, "recompute step", NULL), (int)l->n_steps);
    printf("footprint  total %s (%lld B)  live peak %s at step %d  buffers %d  compute %s (%lld FLOPs)\n", a,
           (long long)fp->total, b, (int)fp->peak_step, (int)fp->buffers, f, (long long)fp->compute);
    for (int32_t i = 0; i < l->n_nodes; i++)
        if (t->remat[i] && d->skip[i])
            printf("remat %s: not applied (%s)\n", text_shown(r->nodes[i].name),
                   remat_skip_name((remat_skip_t)d->skip[i]));
    printf("\n%-24s %10s %11s %14s\n", "buffer", "bytes", "span", "offset");
    int32_t c = 0;
    for (int32_t i = 0; i < l->n_nodes; i++) {
        if (d->place.is_inline[i])
            continue;
        char span[32], name[300];
        units_format_bytes(l->bytes[i], a, sizeof a);
        snprintf(span, sizeof span, "%d-%d", (int)d->start[i], (int)d->end[i]);
        printf("%-24s %10s %11s %14lld\n", text_shown(r->nodes[i].name), a, span, (long long)d->offset[i]);
        for (; c < d->n_copies && d->copies[c].node == i; c++) {
            snprintf(span, sizeof span, "%d-%d", (int)d->copies[c].step, (int)d->copies[c].end);
            snprintf(name, sizeof name, "%s (copy)", text_shown(r->nodes[i].name));
            printf("%-24s %10s %11s %14lld\n", name, a, span, (long long)d->copies[c].offset);
        }
    }
}

int remat_out_score(const target_t *t, bool json)
{
    rs_error_t err;
    error_clear(&err);
    footprint_t fp;
    remat_detail_t d;
    int rc = remat_score(t->lowering, t->prefs, t->remat, &t->cfg, &fp, &d, &err);
    int status = 0;
    if (rc)
        status = fail_print(&err);
    else if (json)
        print_json(t, &fp, &d);
    else
        print_text(t, &fp, &d);
    remat_detail_free(&d);
    return status;
}
