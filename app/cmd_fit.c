/* `rematscope fit` and `sweep` (filled in by the fit issue). */
#include "cli.h"

int cmd_fit(const cli_t *c)
{
    rs_error_t err;
    error_set(&err, RS_EINPUT, NULL, 0, 0, "fit is not implemented yet");
    (void)c;
    return cli_fail(&err);
}

int cmd_sweep(const cli_t *c)
{
    rs_error_t err;
    error_set(&err, RS_EINPUT, NULL, 0, 0, "sweep is not implemented yet");
    (void)c;
    return cli_fail(&err);
}
