#include "datadir.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/path.h"

/* Set by CMake: the data folder relative to the installed binary's folder
 * (GNUInstallDirs' DATADIR/rematscope from BINDIR), and the source tree's
 * folders for a binary run where it was built. */
#ifndef RS_DATADIR_REL
#define RS_DATADIR_REL "../share/rematscope"
#endif
#ifndef RS_SOURCE_THEMES
#define RS_SOURCE_THEMES "themes"
#endif
#ifndef RS_SOURCE_SAMPLES
#define RS_SOURCE_SAMPLES "samples"
#endif

typedef struct found {
    bool done;
    char path[PATH_MAX + 64];
} found_t;

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* EXE's folder/RS_DATADIR_REL/sub into buf; false when the binary's own
 * path cannot be read (no /proc). */
static bool beside_binary(const char *sub, char *buf, size_t n)
{
    char exe[PATH_MAX];
    ssize_t got = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (got <= 0)
        return false;
    exe[got] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = 0;
    /* EXE/../share read as EXE's parent/share, so messages name the place */
    char rel[] = RS_DATADIR_REL;
    for (char *part = strtok(rel, "/"); part; part = strtok(NULL, "/")) {
        size_t len = strlen(exe);
        if (strcmp(part, "..") == 0 && (slash = strrchr(exe, '/')) != NULL)
            *(slash == exe ? slash + 1 : slash) = 0;
        else if (strcmp(part, ".") != 0 && len + strlen(part) + 2 < sizeof exe)
            snprintf(exe + len, sizeof exe - len, "%s%s", len && exe[len - 1] == '/' ? "" : "/", part);
    }
    return path_join(buf, n, exe, sub);
}

/* The installed folder when it is there, else the source tree's when that
 * is, else the installed one's name (or the source tree's without /proc). */
static const char *resolve(found_t *f, const char *sub, const char *source)
{
    if (f->done)
        return f->path;
    f->done = true;
    bool have = beside_binary(sub, f->path, sizeof f->path);
    if (!(have && is_dir(f->path)) && (!have || is_dir(source)))
        snprintf(f->path, sizeof f->path, "%s", source);
    return f->path;
}

const char *datadir_themes(void)
{
    static found_t f;
    const char *env = getenv("RS_THEMES");
    return env && *env ? env : resolve(&f, "themes", RS_SOURCE_THEMES);
}

const char *datadir_samples(void)
{
    static found_t f;
    return resolve(&f, "samples", RS_SOURCE_SAMPLES);
}

const char *datadir_profiles(void)
{
    static found_t f;
    const char *env = getenv("RS_PROFILES");
    if (env && *env)
        return env;
    if (!f.done) {
        f.done = true;
        snprintf(f.path, sizeof f.path, "%.*s/profiles.csv", PATH_MAX, datadir_samples());
    }
    return f.path;
}
