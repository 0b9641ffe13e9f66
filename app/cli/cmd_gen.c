/* `rematscope gen`: write a generated training-step routine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fail.h"
#include "model/gen.h"
#include "wfile.h"

int cmd_gen(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    int kind = gen_kind_parse(c->pos[0]);
    if (kind < 0) {
        error_set(&err, RS_EINPUT, NULL, 0, 0, "unknown kind '%s' (transformer, resnet, unet, chain, mlp)", c->pos[0]);
        return fail_print(&err);
    }
    gen_options_t o = { .kind = (gen_kind_t)kind, .layers = (int32_t)c->layers, /* at most INT32_MAX: cli_parse */
                        .dtype = c->dtype, .binds = c->binds, .n_binds = c->n_binds };
    char *text;
    if (gen_routine(&o, &text, &err))
        return fail_print(&err);
    int status = cli_write_text(c, c->output, text, strlen(text));
    free(text);
    return status;
}

int cli_write_text(const cmdline_t *c, const char *path, const char *text, size_t n)
{
    rs_error_t err;
    error_clear(&err);
    if (path) {
        wfile_t w;
        if (wfile_open(&w, path, c->db, "the routine", &err) ||
            wfile_close(&w, fwrite(text, 1, n, w.f) == n, &err))
            return fail_print(&err);
    } else if (fwrite(text, 1, n, stdout) != n) {
        error_set(&err, RS_EINPUT, "stdout", 0, 0, "write failed");
        return fail_print(&err);
    }
    return 0;
}
