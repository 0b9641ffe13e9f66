#include "lower/score.h"

#include <stdlib.h>
#include <string.h>

void score_config_default(score_config_t *c)
{
    memset(c, 0, sizeof *c);
    c->alignment = 1;
    c->max_inline_depth = 8;
    c->aliasing = true;
    c->layout = LAYOUT_GREEDY;
}

void score_detail_free(score_detail_t *d)
{
    if (!d)
        return;
    virtualizer_free(&d->place);
    live_free(&d->live);
    free(d->aligned);
    free(d->offset);
    memset(d, 0, sizeof *d);
}

int score_lowering(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg,
                   footprint_t *out, score_detail_t *detail, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    score_detail_t local;
    score_detail_t *d = detail ? detail : &local;
    memset(d, 0, sizeof *d);
    int32_t N = l->n_nodes;
    int32_t final_step = l->n_steps > 0 ? l->n_steps - 1 : 0;
    arena_buf_t *bufs = NULL;
    int32_t *ids = NULL;
    int64_t *offs = NULL;
    int rc = virtualizer_run(l, prefs, cfg->max_inline_depth, &d->place, err);
    if (!rc)
        rc = live_compute(l, &d->place, &d->live, err);
    if (rc)
        goto done;
    size_t nn = N ? (size_t)N : 1;
    bufs = malloc(nn * sizeof *bufs);
    ids = malloc(nn * sizeof *ids);
    offs = malloc(nn * sizeof *offs);
    d->aligned = calloc(nn, sizeof *d->aligned);
    d->offset = malloc(nn * sizeof *d->offset);
    if (!bufs || !ids || !offs || !d->aligned || !d->offset) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory scoring");
        goto done;
    }
    int32_t m = 0;
    for (int32_t i = 0; i < N; i++) {
        d->offset[i] = -1;
        if (d->place.is_inline[i])
            continue;
        d->aligned[i] = arena_align(l->bytes[i], cfg->alignment);
        if (d->aligned[i] < 0) {
            rc = error_set(err, RS_EINPUT, l->routine->path, l->routine->nodes[i].line,
                           l->routine->nodes[i].col, "'%s' overflows when aligned",
                           l->routine->nodes[i].name);
            goto done;
        }
        bufs[m] = cfg->aliasing ? (arena_buf_t){ l->bytes[i], d->live.start[i], d->live.end[i] }
                                : (arena_buf_t){ l->bytes[i], 0, final_step };
        ids[m++] = i;
    }
    int64_t height;
    if ((rc = layout_run(bufs, m, cfg->alignment, cfg->layout, offs, &height, err))) {
        if (rc == RS_EINPUT && !err->file[0]) /* the arena overflows: say whose */
            error_set(err, rc, l->routine->path, 0, 0, "%s", err->msg);
        goto done;
    }
    for (int32_t k = 0; k < m; k++)
        d->offset[ids[k]] = offs[k];
    int64_t peak_step;
    out->total = height;
    out->live_peak = arena_max_live(bufs, m, cfg->alignment, &peak_step);
    if (out->live_peak < 0) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory scoring");
        goto done;
    }
    out->peak_step = (int32_t)peak_step;
    out->buffers = m;
    out->compute = d->live.compute;
done:
    free(bufs);
    free(ids);
    free(offs);
    if (!detail || rc) {
        if (!detail)
            score_detail_free(&local);
    }
    return rc;
}
