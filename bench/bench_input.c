#include "bench_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gen.h"

static char *generated(const char *spec, size_t *n)
{
    char kind[32];
    int layers = 0;
    if (sscanf(spec, "%31[a-z]:%d", kind, &layers) != 2)
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

char *bench_read_text(const char *path, size_t *n)
{
    if (strncmp(path, "gen:", 4) == 0)
        return generated(path + 4, n);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[len] = 0;
        *n = (size_t)len;
    }
    return b;
}
