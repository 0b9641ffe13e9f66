#include "cmdline.h"

#include <stdlib.h>
#include <string.h>

#include "util/path.h"

char **cmdline_tidy_paths(const cmdline_t *c)
{
    char **out = calloc((size_t)c->n_pos + 1, sizeof *out);
    for (int i = 0; out && i < c->n_pos; i++) {
        if (!(out[i] = strdup(c->pos[i]))) {
            cmdline_tidy_free(out, i);
            return NULL;
        }
        path_tidy(out[i]);
    }
    return out;
}

void cmdline_tidy_free(char **paths, int n)
{
    for (int i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
}
