#include "version.h"

#include <curses.h>
#include <string.h>

#include "csvio.h"
#include "store.h"

#ifndef RS_VERSION
#define RS_VERSION "0.0.0"
#endif

const char *version_string(void) { return RS_VERSION; }

void version_print(FILE *f)
{
    /* curses_version() is "ncurses 6.4.20221231": the library's, as loaded */
    const char *curses = curses_version();
    const char *space = strchr(curses, ' ');
    fprintf(f, "rematscope %s\nSQLite %s, ncurses %s, libcsv %s\n", RS_VERSION, store_sqlite_version(),
            space ? space + 1 : curses, csvio_libcsv_version());
}
