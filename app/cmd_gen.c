/* `rematscope gen`: write a generated training-step routine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gen.h"

/* Writes text to path whole (a temporary name, then a rename), so a failed
 * write leaves no partial file. */
static int write_whole(const char *path, const char *text, rs_error_t *err)
{
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 24);
    if (!tmp)
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    snprintf(tmp, pl + 24, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int e = errno;
    bool bad = !f;
    if (f) {
        size_t n = strlen(text);
        bad = fwrite(text, 1, n, f) != n;
        e = errno;
        if (fclose(f) != 0 && !bad) {
            bad = true;
            e = errno;
        }
        if (!bad && rename(tmp, path) != 0) {
            bad = true;
            e = errno;
        }
        if (bad)
            unlink(tmp);
    }
    free(tmp);
    if (bad)
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot write: %s", strerror(e));
    return RS_OK;
}

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
        if (write_whole(c->output, text, &err))
            status = cli_fail(&err);
    } else if (fputs(text, stdout) < 0) {
        error_set(&err, RS_EINPUT, "stdout", 0, 0, "write failed");
        status = cli_fail(&err);
    }
    free(text);
    return status;
}
