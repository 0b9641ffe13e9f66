#include "wfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int wfile_open(wfile_t *w, const char *path, rs_error_t *err)
{
    memset(w, 0, sizeof *w);
    size_t n = strlen(path) + 32;
    w->tmp = malloc(n);
    w->path = strdup(path);
    if (!w->tmp || !w->path) {
        free(w->tmp);
        free(w->path);
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    }
    snprintf(w->tmp, n, "%s.tmp%ld", path, (long)getpid());
    w->f = fopen(w->tmp, "wb");
    if (!w->f) {
        int e = errno;
        free(w->tmp);
        free(w->path);
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot write: %s", strerror(e));
    }
    return RS_OK;
}

int wfile_close(wfile_t *w, bool ok, rs_error_t *err)
{
    int e = errno;
    ok = ok && !ferror(w->f);
    if (fclose(w->f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && rename(w->tmp, w->path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok)
        unlink(w->tmp);
    int rc = ok ? RS_OK : error_set(err, RS_EINPUT, w->path, 0, 0, "cannot write: %s", strerror(e ? e : EIO));
    free(w->tmp);
    free(w->path);
    memset(w, 0, sizeof *w);
    return rc;
}
