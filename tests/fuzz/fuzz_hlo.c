/* Fuzz target: the HLO reader (DESIGN §10).  Whatever it reads must also
 * read back from the §1 text convert writes, to the same lowering, and
 * score; whatever it rejects must be a located input error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lower/score.h"
#include "model/hlo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* up to 1 MiB reaches the reader, so a reading that is not linear in
     * its input times out; only what is small is converted, lowered and
     * scored */
    if (size > 1 << 20)
        return 0;
    const char *text = (const char *)data;
    routine_t *r;
    rs_error_t err;
    error_clear(&err);
    if (hlo_read("fuzz.hlo", text, size, &r, &err)) {
        if ((err.code != RS_EINPUT && err.code != RS_ENOMEM) || (err.code == RS_EINPUT && err.line < 1))
            abort();
        return 0;
    }
    if (size > 1 << 16) {
        routine_free(r);
        return 0;
    }
    char *rt;
    size_t rl;
    routine_t *r2 = NULL;
    if (hlo_convert("fuzz.hlo", text, size, &rt, &rl, &err) || routine_parse("fuzz.routine", rt, rl, &r2, &err))
        abort(); /* read once, converted and read again: never an error */
    free(rt);
    if (r2->n_nodes != r->n_nodes || r2->n_steps != r->n_steps)
        abort();
    bindings_t b, b2;
    lowering_t *l = NULL, *l2 = NULL;
    if (routine_bindings(r, NULL, 0, &b, &err) || routine_bindings(r2, NULL, 0, &b2, &err))
        abort();
    int rc1 = lower_routine(r, &b, &l, &err), rc2 = lower_routine(r2, &b2, &l2, &err);
    if (rc1 != rc2)
        abort();
    if (!rc1) {
        if (l->n_args != l2->n_args || memcmp(l->args, l2->args, (size_t)l->n_args * sizeof *l->args) ||
            memcmp(l->bytes, l2->bytes, (size_t)l->n_nodes * sizeof *l->bytes) ||
            memcmp(l->cost, l2->cost, (size_t)l->n_nodes * sizeof *l->cost) ||
            memcmp(l->flags, l2->flags, (size_t)l->n_nodes))
            abort();
        for (int32_t i = 0; i < l->n_nodes; i++)
            if (lower_into(l, i) != lower_into(l2, i)) /* donated buffers: the same @into both ways */
                abort();
        if (l->n_nodes < 2000) {
            score_config_t cfg;
            score_config_default(&cfg);
            footprint_t fp;
            if (!score_lowering(l, NULL, &cfg, &fp, NULL, &err) && fp.total < fp.live_peak)
                abort();
        }
    }
    lower_free(l);
    lower_free(l2);
    bindings_free(&b);
    bindings_free(&b2);
    routine_free(r);
    routine_free(r2);
    return 0;
}
