/* gen: routine generators for whole training steps (forward, backward,
 * parameter update) of common model families, as routine text. */
#ifndef RS_GEN_H
#define RS_GEN_H

#include <stdint.h>

#include "util/error.h"

typedef enum gen_kind { GEN_TRANSFORMER, GEN_RESNET, GEN_UNET, GEN_CHAIN, GEN_MLP, GEN_COUNT } gen_kind_t;

typedef struct gen_options {
    gen_kind_t kind;
    int32_t layers;               /* -1: the kind's default */
    const char *dtype;            /* NULL: f32 */
    const char *const *binds;     /* "K=V" overrides of the kind's default bindings */
    int n_binds;
} gen_options_t;

/* The kind named s, or -1. */
int gen_kind_parse(const char *s);
const char *gen_kind_name(gen_kind_t k);

/* Writes the routine text for o into a new string *text (free()).  The same
 * options always give the same bytes.  RS_EINPUT for an unknown binding, a
 * bad dtype or a layer count out of range. */
int gen_routine(const gen_options_t *o, char **text, rs_error_t *err);

/* The defaults of kind k: layers, and its bindings as "B=8 T=512 ...". */
int32_t gen_default_layers(gen_kind_t k);
const char *gen_default_binds(gen_kind_t k);

#endif
