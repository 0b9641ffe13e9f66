/* rematscope-docgen: writes the files that are generated from the tool's
 * own tables at build time (CMakeLists.txt runs it; it is not installed):
 *   rematscope-docgen man TEMPLATE OUT   the manual page (cli/manpage.h)
 *   rematscope-docgen bash OUT           the bash completion (cli/completion.h)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/completion.h"
#include "cli/manpage.h"
#include "rfile.h"
#include "wfile.h"

static int usage(void)
{
    fprintf(stderr, "usage: rematscope-docgen man TEMPLATE OUT | bash OUT\n");
    return 2;
}

int main(int argc, char **argv)
{
    bool man = argc == 4 && strcmp(argv[1], "man") == 0;
    if (!man && !(argc == 3 && strcmp(argv[1], "bash") == 0))
        return usage();
    const char *out_path = argv[argc - 1];
    rs_error_t err;
    error_clear(&err);
    char *tmpl = NULL;
    size_t len = 0;
    if (man && rfile_read(argv[2], &tmpl, &len, &err)) {
        fprintf(stderr, "rematscope-docgen: %s: %s\n", err.file, err.msg);
        return 2;
    }
    wfile_t w; /* whole or not at all: no half page for make to take as done */
    int rc = wfile_open(&w, out_path, ":memory:", "the generated file", &err);
    if (!rc)
        rc = man                         ? manpage_write(w.f, tmpl, len, argv[2], &err)
             : completion_write_bash(w.f) ? error_set(&err, RS_EINPUT, out_path, 0, 0, "cannot write")
                                          : RS_OK;
    free(tmpl);
    if (w.f) {
        rs_error_t cerr;
        int crc = wfile_close(&w, rc == RS_OK, &cerr);
        if (!rc && crc) {
            rc = crc;
            err = cerr;
        }
    }
    if (rc) {
        char msg[1024];
        error_format(&err, msg, sizeof msg);
        fprintf(stderr, "rematscope-docgen: %s\n", msg);
        return 2;
    }
    return 0;
}
