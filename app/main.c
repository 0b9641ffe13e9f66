/* rematscope: entry point.  Parses the command line and runs a subcommand. */
#include <locale.h>
#include <signal.h>

#include "alloc.h"
#include "cli/cli.h"
#include "cli/completion.h"
#include "fail.h"
#include "version.h"

/* What the tool says about itself (--version, --completion, --names) needs
 * no configuration file and runs no command. */
static int say_about_itself(const cmdline_t *c)
{
    if (!c->version)
        return completion_run(c);
    version_print(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    setlocale(LC_CTYPE, "");
    alloc_tune();
    /* past a file-size limit, writes fail (and the store says the disk is
     * full) instead of the process dying half-way */
    signal(SIGXFSZ, SIG_IGN); /* numbers stay in the C locale: JSON and CSV need "1.5" */
    cmdline_t c;
    rs_error_t err;
    error_clear(&err);
    int rc = cli_parse(argc, argv, &c, &err);
    int status;
    if (rc == RS_ECANCELED)
        status = 0;
    else if (rc)
        status = fail_print(&err);
    else if (c.version || c.completion || c.names)
        status = say_about_itself(&c);
    else
        status = cli_run(&c);
    cli_free(&c);
    return status;
}
