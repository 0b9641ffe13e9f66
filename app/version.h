/* version: what `rematscope --version` says: the tool's version (set once,
 * in CMakeLists.txt's project()), then the libraries it runs with. */
#ifndef RS_VERSION_H
#define RS_VERSION_H

#include <stdio.h>

/* "X.Y.Z", the version this binary was built as. */
const char *version_string(void);

/* Writes "rematscope X.Y.Z" and, on a second line, the SQLite, ncurses and
 * libcsv versions to f. */
void version_print(FILE *f);

#endif
