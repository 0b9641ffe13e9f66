/* `rematscope convert`: an XLA HLO dump written as a routine in the §1
 * format (DESIGN §10), to read, diff or edit. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "fail.h"
#include "model/hlo.h"
#include "rfile.h"

int cmd_convert(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    char *text = NULL, *out = NULL;
    size_t len, n;
    int rc = rfile_read(c->pos[0], &text, &len, &err);
    if (!rc && !hlo_sniff(text, len))
        rc = error_set(&err, RS_EINPUT, c->pos[0], 1, 1, "expected `HloModule NAME` as the first statement (convert "
                                                        "reads XLA HLO text)");
    if (!rc)
        rc = hlo_convert(c->pos[0], text, len, &out, &n, &err);
    free(text);
    int status = rc ? fail_print(&err) : cli_write_text(c, c->output, out, n);
    free(out);
    return status;
}
