#include "lower/virtualizer.h"

#include <stdlib.h>
#include <string.h>

const char *virtualizer_reason_name(virtualizer_reason_t r)
{
    switch (r) {
    case REJECT_RESIDENT: return "resident";
    case REJECT_OUTPUT: return "output";
    case REJECT_PINNED: return "pinned";
    case REJECT_ACCUMULATED: return "accumulated";
    case REJECT_DEPTH: return "depth";
    case REJECT_INTO: return "into";
    default: return "none";
    }
}

static virtualizer_reason_t illegal_reason(const lowering_t *l, int32_t i)
{
    if (lower_is_resident(l, i))
        return REJECT_RESIDENT;
    if (l->flags[i] & FLAG_OUTPUT)
        return REJECT_OUTPUT;
    if (l->flags[i] & FLAG_PINNED)
        return REJECT_PINNED;
    if (l->flags[i] & FLAG_INTO)
        return REJECT_INTO;
    if (l->ndefs[i] > 1)
        return REJECT_ACCUMULATED;
    return REJECT_NONE;
}

int virtualizer_run(const lowering_t *l, const uint8_t *prefs, int32_t max_inline_depth,
                     placement_t *out, rs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int32_t N = l->n_nodes;
    out->n_nodes = N;
    out->is_inline = calloc(N ? (size_t)N : 1, 1);
    out->depth = calloc(N ? (size_t)N : 1, sizeof *out->depth);
    int32_t cap = 0;
    if (!out->is_inline || !out->depth) {
        virtualizer_free(out);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    }
    /* Node index order is definition order: a node is declared by its first
     * definition, and a single-definition node's arguments are all declared
     * before it, so their placement is settled when it is visited. */
    for (int32_t i = 0; i < N; i++) {
        if (!((prefs && prefs[i]) || (l->flags[i] & FLAG_INLINE)))
            continue;
        virtualizer_reason_t why = illegal_reason(l, i);
        int32_t depth = 0;
        if (why == REJECT_NONE) {
            int32_t s = l->first_def[i];
            int32_t below = 0;
            for (int32_t a = l->arg_off[s]; a < l->arg_off[s + 1]; a++) {
                int32_t b = l->args[a];
                if (out->is_inline[b] && out->depth[b] > below)
                    below = out->depth[b];
            }
            depth = 1 + below;
            if (depth > max_inline_depth)
                why = REJECT_DEPTH;
        }
        if (why == REJECT_NONE) {
            out->is_inline[i] = 1;
            out->depth[i] = depth;
            continue;
        }
        if (out->n_rejected == cap) {
            cap = cap ? cap * 2 : 8;
            virtualizer_rejection_t *nr = realloc(out->rejected, (size_t)cap * sizeof *nr);
            if (!nr) {
                virtualizer_free(out);
                return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            }
            out->rejected = nr;
        }
        out->rejected[out->n_rejected++] = (virtualizer_rejection_t){ i, (uint8_t)why, depth };
    }
    return RS_OK;
}

void virtualizer_free(placement_t *p)
{
    free(p->is_inline);
    free(p->depth);
    free(p->rejected);
    memset(p, 0, sizeof *p);
}
