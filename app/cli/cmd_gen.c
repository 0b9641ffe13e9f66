/* `rematscope gen`: write a generated training-step routine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gen.h"
#include "wfile.h"

int cmd_gen(const cli_t *c)
{
    rs_error_t err;
    error_clear(&err);
    int kind = gen_kind_parse(c->pos[0]);
    if (kind < 0) {
        error_set(&err, RS_EINPUT, NULL, 0, 0, "unknown kind '%s' (transformer, resnet, unet, chain, mlp)", c->pos[0]);
        return cli_fail(&err);
    }
    gen_options_t o = { .kind = (gen_kind_t)kind, .layers = c->layers > INT32_MAX ? INT32_MAX : (int32_t)c->layers,
                        .dtype = c->dtype, .binds = c->binds, .n_binds = c->n_binds };
    char *text;
    if (gen_routine(&o, &text, &err))
        return cli_fail(&err);
    int status = 0;
    if (c->output) {
        wfile_t w;
        size_t n = strlen(text);
        if (wfile_open(&w, c->output, &err) || wfile_close(&w, fwrite(text, 1, n, w.f) == n, &err))
            status = cli_fail(&err);
    } else if (fputs(text, stdout) < 0) {
        error_set(&err, RS_EINPUT, "stdout", 0, 0, "write failed");
        status = cli_fail(&err);
    }
    free(text);
    return status;
}
