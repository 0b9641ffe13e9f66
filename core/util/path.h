/* path: file paths as strings (no file is touched): joined and tidied so
 * a message never says "/tmp//rematscope/session.db" (issue 43). */
#ifndef RS_PATH_H
#define RS_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* dir, one '/', then name into buf (n bytes, always NUL-terminated): no
 * second '/' when dir already ends in one, none at all when dir is "".
 * False when it was cut. */
bool path_join(char *buf, size_t n, const char *dir, const char *name);

/* The last parts components of path, as a pointer into it:
 * path_tail("/d/llama_scan/after.hlo", 2) is "llama_scan/after.hlo"; the
 * whole path when it has no more.  parts >= 1. */
const char *path_tail(const char *path, int parts);

/* p in place with each run of '/' as one and the '/' at its end dropped
 * ("dumps//llama/" is "dumps/llama"; "/" and "//" stay "/"). */
void path_tidy(char *p);

#endif
