#include "util/path.h"

#include <stdio.h>
#include <string.h>

bool path_join(char *buf, size_t n, const char *dir, const char *name)
{
    size_t len = strlen(dir);
    const char *sep = len && dir[len - 1] != '/' ? "/" : "";
    while (name[0] == '/' && len) /* "a/" and "/b" make "a/b" */
        name++;
    int w = snprintf(buf, n, "%s%s%s", dir, sep, name);
    return w >= 0 && (size_t)w < n;
}

const char *path_tail(const char *path, int parts)
{
    const char *end = path + strlen(path);
    while (end > path && end[-1] == '/') /* a folder's "dumps/" is one part */
        end--;
    for (const char *c = end; c > path; c--)
        if (c[-1] == '/' && --parts == 0)
            return c;
    return path;
}

void path_tidy(char *p)
{
    char *to = p;
    for (const char *c = p; *c; c++)
        if (*c != '/' || to == p || to[-1] != '/')
            *to++ = *c;
    if (to > p + 1 && to[-1] == '/')
        to--;
    *to = 0;
}
