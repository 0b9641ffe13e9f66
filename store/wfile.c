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

#include "store.h"

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

/* Where a path leads: the folder its final name is in (by device and
 * inode) and that name, through every symlink on the way, a final one
 * whose target does not exist yet included (opening it for writing would
 * create the target).  false when it leads nowhere a file could be made
 * (no such folder, a loop, a name that is a folder): a write fails there
 * by itself. */
typedef struct place {
    dev_t dir_dev;
    ino_t dir_ino;
    char *dir;  /* the folder as a path that reaches it */
    char *name; /* the final name in it */
} place_t;

static void place_free(place_t *p)
{
    free(p->dir);
    free(p->name);
}

static char *read_link(const char *path, off_t size_hint)
{
    size_t n = size_hint > 0 ? (size_t)size_hint + 1 : 256;
    for (;;) {
        char *buf = malloc(n);
        if (!buf)
            return NULL;
        ssize_t k = readlink(path, buf, n);
        if (k < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)k < n) {
            buf[k] = 0;
            return buf;
        }
        free(buf);
        n *= 2;
    }
}

/* path's folder part and final name ("." for a bare name). */
static bool split_path(const char *path, char **dir, char **name)
{
    const char *slash = strrchr(path, '/');
    *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    *name = strdup(slash ? slash + 1 : path);
    return *dir && *name;
}

static bool place_of(const char *path, place_t *p)
{
    memset(p, 0, sizeof *p);
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) == 0 && S_ISLNK(st.st_mode)) {
            char *to = read_link(cur, st.st_size), *next = NULL;
            if (to && to[0] != '/') {
                char *dir, *name;
                if (split_path(cur, &dir, &name) && (next = malloc(strlen(dir) + strlen(to) + 2)))
                    sprintf(next, "%s/%s", dir, to);
                free(dir);
                free(name);
                free(to);
            } else {
                next = to;
            }
            free(cur);
            cur = next;
            continue;
        }
        bool ok = split_path(cur, &p->dir, &p->name) && p->name[0] && strcmp(p->name, ".") != 0 &&
                  strcmp(p->name, "..") != 0 && stat(p->dir, &st) == 0 && S_ISDIR(st.st_mode);
        free(cur);
        if (!ok) {
            place_free(p);
            return false;
        }
        p->dir_dev = st.st_dev;
        p->dir_ino = st.st_ino;
        return true;
    }
    free(cur);
    return false;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int wfile_refuse(const char *path, const char *store, const char *what, rs_error_t *err)
{
    char def[4096];
    if (!store) {
        if (store_default_path(def, sizeof def, false, NULL))
            return RS_OK; /* no default location: no store there to hit */
        store = def;
    }
    if (!store[0] || strcmp(store, ":memory:") == 0)
        return RS_OK;
    place_t out, db;
    if (!place_of(path, &out))
        return RS_OK;
    bool db_placed = place_of(store, &db);
    static const char *const suffix[] = { "", "-wal", "-shm" };
    size_t n = strlen(store) + (db_placed ? strlen(db.dir) + strlen(db.name) : 0) + 8;
    char *name = malloc(n), *file = malloc(n);
    int rc = name && file ? RS_OK : error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < 3 && !rc; i++) {
        bool same = false;
        if (db_placed) {
            snprintf(name, n, "%s%s", db.name, suffix[i]);
            snprintf(file, n, "%s/%s", db.dir, name);
            same = (out.dir_dev == db.dir_dev && out.dir_ino == db.dir_ino && strcmp(out.name, name) == 0) ||
                   same_file(path, file);
        }
        snprintf(name, n, "%s%s", store, suffix[i]);
        same = same || same_file(path, name);
        if (same)
            rc = error_set(err, RS_EINPUT, path, 0, 0, "this is the session store%s (%s); writing %s there would destroy it",
                           i ? (i == 1 ? "'s write-ahead log" : "'s shared memory") : "", name, what);
    }
    free(name);
    free(file);
    place_free(&out);
    if (db_placed)
        place_free(&db);
    return rc;
}

int wfile_open(wfile_t *w, const char *path, const char *store, const char *what, rs_error_t *err)
{
    memset(w, 0, sizeof *w);
    int refused = wfile_refuse(path, store, what, err);
    if (refused)
        return refused;
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
