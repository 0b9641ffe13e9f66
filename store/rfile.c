/* rfile: see rfile.h. */
#include "rfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a file that is not a regular one is, for the refusal. */
static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO (a named pipe)"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* Refuses what is not a regular file, or one over the cap; st filled. */
static int check(const char *path, const struct stat *st, rs_error_t *err)
{
    if (S_ISDIR(st->st_mode))
        return error_set(err, RS_EINPUT, path, 0, 0, "is a directory, not a file");
    if (!S_ISREG(st->st_mode))
        return error_set(err, RS_EINPUT, path, 0, 0, "is %s, not a file: rematscope reads regular files only",
                         kind_of(st->st_mode));
    if ((uintmax_t)st->st_size > RFILE_MAX)
        return error_set(err, RS_EINPUT, path, 0, 0, "is %jd bytes, more than the %zu MiB rematscope reads of a file",
                         (intmax_t)st->st_size, RFILE_MAX >> 20);
    return RS_OK;
}

int rfile_open(const char *path, FILE **f, size_t *size, rs_error_t *err)
{
    *f = NULL;
    struct stat st;
    /* stat first (following symlinks): opening a FIFO waits for a writer */
    if (stat(path, &st) != 0)
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
    int rc = check(path, &st, err);
    if (rc)
        return rc;
    FILE *in = fopen(path, "rb");
    if (!in)
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
    /* what was opened, in case the name changed hands since the stat */
    if (fstat(fileno(in), &st) != 0 || (rc = check(path, &st, err)) != RS_OK) {
        fclose(in);
        return rc ? rc : error_set(err, RS_EINPUT, path, 0, 0, "cannot read: %s", strerror(errno));
    }
    if (size)
        *size = (size_t)st.st_size;
    *f = in;
    return RS_OK;
}

int rfile_read(const char *path, char **text, size_t *len, rs_error_t *err)
{
    *text = NULL;
    *len = 0;
    FILE *f;
    size_t size;
    int rc = rfile_open(path, &f, &size, err);
    if (rc)
        return rc;
    /* a buffer of its size (one spare byte to see the end), not a doubled
     * one: a 46 MB routine would take 64 MB */
    size_t cap = size + 1, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    }
    for (;;) {
        if (n == cap) { /* it grew since the stat */
            char *nb = cap > RFILE_MAX ? NULL : realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return cap > RFILE_MAX ? error_set(err, RS_EINPUT, path, 0, 0, "grew past the %zu MiB rematscope "
                                                   "reads of a file while it was read", RFILE_MAX >> 20)
                                       : error_set(err, RS_ENOMEM, path, 0, 0, "out of memory reading the file");
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
    *text = buf;
    *len = n;
    return RS_OK;
}
