/* rfile: see rfile.h. */
#include "rfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rfile_read(const char *path, char **text, size_t *len, rs_error_t *err)
{
    *text = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return error_set(err, RS_EINPUT, path, 0, 0, "is a directory, not a file");
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
    /* a regular file is read into a buffer of its size (one spare byte to
     * see the end), not a doubled one: a 46 MB routine would take 64 MB */
    size_t cap = 1 << 16, n = 0;
    struct stat fs;
    if (fstat(fileno(f), &fs) == 0 && S_ISREG(fs.st_mode) && fs.st_size > 0 &&
        (uintmax_t)fs.st_size < SIZE_MAX / 4)
        cap = (size_t)fs.st_size + 1;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    }
    for (;;) {
        if (n == cap) {
            char *nb = cap > SIZE_MAX / 4 ? NULL : realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory reading the file");
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return error_set(err, RS_EINPUT, path, 0, 0, "read error");
    }
    buf[n] = 0;
    if (cap - n > (1 << 16)) { /* a pipe or a file that shrank: give the slack back */
        char *fit = realloc(buf, n + 1);
        if (fit)
            buf = fit;
    }
    *text = buf;
    *len = n;
    return RS_OK;
}
