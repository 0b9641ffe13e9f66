#include "wfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The temporary file being written, for the signal handler: an interrupted
 * export removes it instead of leaving `out.csv.tmpPID` behind.  One at a
 * time: the tool writes one file at once. */
static char *volatile pending_tmp;
static const int CLEAN_SIGS[] = { SIGINT, SIGTERM, SIGHUP };
#define N_CLEAN_SIGS ((int)(sizeof CLEAN_SIGS / sizeof CLEAN_SIGS[0]))
static struct sigaction old_actions[N_CLEAN_SIGS];

static void remove_and_reraise(int sig)
{
    for (int i = 0; i < N_CLEAN_SIGS; i++) {
        if (CLEAN_SIGS[i] != sig)
            continue;
        if (old_actions[i].sa_handler == SIG_IGN)
            return;
        char *tmp = pending_tmp;
        if (tmp)
            unlink(tmp);
        /* then whatever was there before (the TUI's terminal restore, or
         * the default: ending the process) */
        sigaction(sig, &old_actions[i], NULL);
        raise(sig);
        return;
    }
}

static void guard_on(char *tmp)
{
    pending_tmp = tmp;
    for (int i = 0; i < N_CLEAN_SIGS; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_and_reraise;
        sigemptyset(&sa.sa_mask);
        sigaction(CLEAN_SIGS[i], &sa, &old_actions[i]);
    }
}

static void guard_off(void)
{
    for (int i = 0; i < N_CLEAN_SIGS; i++)
        sigaction(CLEAN_SIGS[i], &old_actions[i], NULL);
    pending_tmp = NULL;
}

/* Removes `BASE.tmpPID` files beside path that a killed export left: the
 * process that made one is gone and the file is older than this call. */
static void sweep_stale(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    char *dir = slash ? strndup(path, dlen ? dlen : 1) : strdup(".");
    if (!dir)
        return;
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    size_t blen = strlen(base);
    int dfd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (strncmp(n, base, blen) != 0 || strncmp(n + blen, ".tmp", 4) != 0)
            continue;
        const char *digits = n + blen + 4;
        char *end;
        errno = 0;
        long pid = strtol(digits, &end, 10);
        if (!*digits || *end || errno || pid <= 0 || pid == (long)getpid() || pid != (long)(pid_t)pid)
            continue;
        struct stat st;
        if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        bool older = st.st_mtim.tv_sec < now.tv_sec ||
                     (st.st_mtim.tv_sec == now.tv_sec && st.st_mtim.tv_nsec < now.tv_nsec);
        if (older && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            unlinkat(dfd, n, 0);
    }
    closedir(d);
    free(dir);
}

int wfile_open(wfile_t *w, const char *path, rs_error_t *err)
{
    memset(w, 0, sizeof *w);
    w->path = strdup(path);
    if (!w->path)
        return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* a device, a FIFO, a symlink (/dev/stdout): write through it;
         * renaming onto it would replace the node itself */
        w->f = fopen(path, "wb");
    } else {
        size_t n = strlen(path) + 32;
        w->tmp = malloc(n);
        if (!w->tmp) {
            free(w->path);
            return error_set(err, RS_ENOMEM, path, 0, 0, "out of memory");
        }
        snprintf(w->tmp, n, "%s.tmp%ld", path, (long)getpid());
        sweep_stale(path);
        guard_on(w->tmp);
        w->f = fopen(w->tmp, "wb");
        if (!w->f)
            guard_off();
    }
    if (!w->f) {
        int e = errno;
        free(w->tmp);
        free(w->path);
        memset(w, 0, sizeof *w);
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
    if (w->tmp) {
        if (ok && rename(w->tmp, w->path) != 0) {
            ok = false;
            e = errno;
        }
        if (!ok)
            unlink(w->tmp);
        guard_off();
    }
    int rc = ok ? RS_OK : error_set(err, RS_EINPUT, w->path, 0, 0, "cannot write: %s", strerror(e ? e : EIO));
    free(w->tmp);
    free(w->path);
    memset(w, 0, sizeof *w);
    return rc;
}
