/* import: reading routines, profile CSVs, MiniMalloc CSVs and folders of
 * them, checking everything, then writing it all in one transaction. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import.h"
#include "xla_report.h"
#include "library.h"
#include "minimalloc.h"
#include "model/hlo.h"
#include "profiles.h"
#include "rfile.h"
#include "target.h"
#include "util/vec.h"
#include "text.h"

/* ---- import -------------------------------------------------------------- */

typedef enum item_kind { ITEM_ROUTINE, ITEM_PROFILES, ITEM_LAYOUT } item_kind_t;

typedef struct item {
    item_kind_t kind;
    char *path;
    int64_t xla_bytes;     /* routine: XLA's "Total bytes:" from the report beside it, -1 none */
    char *text;            /* routine */
    size_t len;
    routine_t *routine;
    profile_list_t profiles;
    minimalloc_problem_t layout;
} item_t;

typedef struct import {
    item_t *items;
    int n, cap;
    dev_t *seen_dev;       /* directories walked, against symlink loops */
    ino_t *seen_ino;
    int n_seen, cap_seen;
    const import_progress_t *progress;
    char *skipped;         /* what dump folders held besides their modules, said at the end */
    size_t n_skipped;
} import_t;

static void say(const import_t *im, const char *doing, const char *path, int done, int total)
{
    if (im->progress && im->progress->say)
        im->progress->say(im->progress->ud, doing, path, done, total);
}

/* What a CSV holds, from its first line. */
static int csv_kind(const char *path, item_kind_t *kind, rs_error_t *err)
{
    FILE *f;
    int rc = rfile_open(path, &f, NULL, err);
    if (rc)
        return rc;
    char line[256] = "";
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    fclose(f);
    if (strncmp(line, "id,", 3) == 0)
        *kind = ITEM_LAYOUT;
    else if (strstr(line, "name") && strstr(line, "memory_bytes"))
        *kind = ITEM_PROFILES;
    else
        return error_set(err, RS_EINPUT, path, 1, 1,
                         "expected a profiles header (name,memory_bytes,...) or a MiniMalloc one (id,lower,upper,size)");
    return RS_OK;
}

/* Whether a file in a folder is an XLA dump (--xla_dump_to writes *.txt
 * beside other text): its first 64 KiB are enough to tell. */
static bool hlo_file(const char *path)
{
    FILE *f;
    rs_error_t err;
    if (rfile_open(path, &f, NULL, &err))
        return false;
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return hlo_sniff(buf, n);
}

/* Whether path is a module dumped before XLA's passes (--xla_dump_to's
 * *before_optimizations.txt, or a before.* beside an after.*). */
static bool before_passes(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return strstr(b, "before_optimizations") || strncmp(b, "before.", 7) == 0;
}

static int load_item(item_t *it, rs_error_t *err)
{
    switch (it->kind) {
    case ITEM_ROUTINE: {
        int rc = rfile_read(it->path, &it->text, &it->len, err);
        if (!rc)
            rc = hlo_read_any(it->path, it->text, it->len, &it->routine, err);
        if (rc)
            return rc;
        /* one module's two stages are two routines, not two versions of one */
        if (it->routine->format == ROUTINE_HLO && before_passes(it->path)) {
            size_t n = strlen(it->routine->name) + 8;
            char *name = malloc(n);
            if (!name)
                return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            snprintf(name, n, "%s.before", it->routine->name);
            rc = routine_set_name(it->routine, name, err);
            free(name);
            if (rc)
                return rc;
        }
        /* a routine must lower under its own bindings to be worth keeping */
        bindings_t b;
        lowering_t *l = NULL;
        rc = routine_bindings(it->routine, NULL, 0, &b, err);
        if (!rc)
            rc = lower_routine(it->routine, &b, &l, err);
        lower_free(l);
        bindings_free(&b);
        return rc;
    }
    case ITEM_PROFILES:
        return profiles_read(it->path, &it->profiles, err);
    case ITEM_LAYOUT:
        return minimalloc_read(it->path, &it->layout, err);
    }
    return RS_OK;
}

static int add_path(import_t *im, const char *path, bool from_dir, rs_error_t *err);

/* An --xla_dump_to folder: it holds a module dumped after XLA's passes. */
static bool dump_folder(char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (names[i] && text_ends_with(names[i], "after_optimizations.txt"))
            return true;
    return false;
}

/* In a dump folder: what a file that is not a module after XLA's passes is,
 * for the line that says what was skipped. */
static const char *dump_skip_kind(const char *name)
{
    static const struct {
        const char *part, *what;
    } K[] = { { "before_optimizations", "before XLA's passes" },
              { "buffer-assignment", "buffer assignment" },
              { "memory-usage-report", "memory usage report" },
              { ".ptx", "PTX" },
              { ".ll", "LLVM IR" } };
    for (size_t k = 0; k < sizeof K / sizeof K[0]; k++)
        if (strstr(name, K[k].part))
            return K[k].what;
    return "other";
}

/* Whether names holds the module after XLA's passes whose memory-usage
 * report name is (MODULE.txt's stem then "-memory-usage-report.txt"):
 * the report was read for XLA's figure, not skipped. */
static bool report_of_a_module(const char *name, char *const *names, int n)
{
    static const char TAIL[] = "-memory-usage-report.txt";
    size_t len = strlen(name), tail = sizeof TAIL - 1;
    if (len <= tail || strcmp(name + len - tail, TAIL) != 0)
        return false;
    for (int i = 0; i < n; i++)
        if (names[i] && text_ends_with(names[i], "after_optimizations.txt") && strlen(names[i]) == len - tail + 4 &&
            strncmp(names[i], name, len - tail) == 0)
            return true;
    return false;
}

/* Notes in im->skipped: "FOLDER: an XLA dump, N modules after XLA's
 * passes imported (R with XLA's memory-usage report); skipped K files (a
 * before XLA's passes, b ...)". */
static void note_dump(import_t *im, const char *path, char *const *names, int n)
{
    static const char *KINDS[] = { "before XLA's passes", "buffer assignment", "memory usage report", "PTX",
                                   "LLVM IR", "other" };
    int count[6] = { 0 }, modules = 0, skipped = 0, reports = 0;
    for (int i = 0; i < n; i++) {
        if (!names[i])
            continue;
        if (text_ends_with(names[i], "after_optimizations.txt")) {
            modules++;
            continue;
        }
        if (report_of_a_module(names[i], names, n)) {
            reports++;
            continue;
        }
        const char *k = dump_skip_kind(names[i]);
        for (int j = 0; j < 6; j++)
            if (strcmp(k, KINDS[j]) == 0)
                count[j]++;
        skipped++;
    }
    char line[1024];
    size_t w = (size_t)snprintf(line, sizeof line, "%s: an XLA dump folder, %d module%s after XLA's passes imported",
                                text_shown(path), modules, modules == 1 ? "" : "s");
    if (reports)
        w += (size_t)snprintf(line + w, sizeof line - w, " (%d with XLA's memory-usage report, read for its figure)",
                              reports);
    if (skipped) {
        w += (size_t)snprintf(line + w, sizeof line - w, "; skipped %d file%s (", skipped, skipped == 1 ? "" : "s");
        for (int j = 0, first = 1; j < 6 && w < sizeof line; j++)
            if (count[j]) {
                w += (size_t)snprintf(line + w, sizeof line - w, "%s%d %s", first ? "" : ", ", count[j], KINDS[j]);
                first = 0;
            }
        if (w < sizeof line)
            w += (size_t)snprintf(line + w, sizeof line - w, ")");
    }
    if (w >= sizeof line)
        w = sizeof line - 1;
    char *grown = realloc(im->skipped, im->n_skipped + w + 2);
    if (!grown)
        return;
    im->skipped = grown;
    memcpy(im->skipped + im->n_skipped, line, w);
    im->n_skipped += w;
    im->skipped[im->n_skipped++] = '\n';
    im->skipped[im->n_skipped] = 0;
}

static int walk_dir(import_t *im, const char *path, const struct stat *st, rs_error_t *err)
{
    for (int i = 0; i < im->n_seen; i++)
        if (im->seen_dev[i] == st->st_dev && im->seen_ino[i] == st->st_ino)
            return RS_OK; /* a symlink loop, or a folder reached twice: once is enough */
    void **const seen[] = { (void **)&im->seen_dev, (void **)&im->seen_ino };
    const size_t seen_size[] = { sizeof *im->seen_dev, sizeof *im->seen_ino };
    if (vec_reserve_many(seen, seen_size, 2, &im->cap_seen, (int64_t)im->n_seen + 1))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    im->seen_dev[im->n_seen] = st->st_dev;
    im->seen_ino[im->n_seen++] = st->st_ino;
    DIR *d = opendir(path);
    if (!d)
        return error_set(err, RS_EINPUT, path, 0, 0, "cannot read the folder: %s", strerror(errno));
    char **names = NULL;
    int n = 0, cap = 0, rc = RS_OK;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (vec_reserve((void **)&names, &cap, (int64_t)n + 1, sizeof *names)) {
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    /* a stable order: the same folder always imports the same way */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    /* a folder --xla_dump_to wrote: its modules after XLA's passes only */
    bool dump = dump_folder(names, n);
    if (dump)
        note_dump(im, path, names, n);
    for (int i = 0; i < n; i++) {
        if (!rc && names[i] && (!dump || text_ends_with(names[i], "after_optimizations.txt"))) {
            size_t len = strlen(path) + strlen(names[i]) + 2;
            char *child = malloc(len);
            if (!child) {
                rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
            } else {
                /* a folder named with its '/' keeps one */
                size_t pl = strlen(path);
                snprintf(child, len, "%s%s%s", path, pl && path[pl - 1] == '/' ? "" : "/", names[i]);
                rc = add_path(im, child, true, err);
                free(child);
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

static int add_path(import_t *im, const char *path, bool from_dir, rs_error_t *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return from_dir && errno == ELOOP ? RS_OK
                                          : error_set(err, RS_EINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        return walk_dir(im, path, &st, err);
    item_kind_t kind = ITEM_ROUTINE;
    if (text_ends_with(path, ".csv")) {
        int rc = csv_kind(path, &kind, err);
        if (rc)
            return rc;
    } else if (library_name_is_file(path) || !from_dir || (text_ends_with(path, ".txt") && hlo_file(path))) {
        kind = ITEM_ROUTINE;
    } else {
        return RS_OK; /* in a folder, only what we know how to read */
    }
    if (vec_reserve((void **)&im->items, &im->cap, (int64_t)im->n + 1, sizeof *im->items))
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    item_t *it = &im->items[im->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->xla_bytes = kind == ITEM_ROUTINE ? xla_report_bytes(path) : -1;
    it->path = strdup(path);
    if (!it->path)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    say(im, "reading", path, im->n - 1, 0);
    return load_item(it, err);
}

static void import_free(import_t *im)
{
    for (int i = 0; i < im->n; i++) {
        item_t *it = &im->items[i];
        free(it->path);
        free(it->text);
        routine_free(it->routine);
        profiles_free(&it->profiles);
        minimalloc_free(&it->layout);
    }
    free(im->items);
    free(im->skipped);
    free(im->seen_dev);
    free(im->seen_ino);
}

/* The file's base name without its extension: a layout problem's name. */
static void base_name(const char *path, char *out, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, n, "%s", b);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
}

/* Stores routine item it: under name (import --name), else under its own
 * name, or the one its text was renamed to; says which in report and, when
 * first holds no routine yet, there. */
static int write_routine(store_t *s, const item_t *it, const char *name, FILE *report, import_routine_t *first,
                         rs_error_t *err)
{
    int64_t id;
    int32_t version;
    bool was_new;
    char *stored_as = NULL;
    int rc = name ? library_routine_put(s, name, it->text, it->len, it->path, it->routine->n_steps,
                                        it->routine->n_nodes, &id, &version, &was_new, err)
                  : library_routine_put_own(s, it->routine->name, it->text, it->len, it->path, it->routine->n_steps,
                                            it->routine->n_nodes, &id, &version, &was_new, &stored_as, err);
    const char *as = name ? name : it->routine->name;
    if (!rc && it->xla_bytes >= 0)
        rc = library_routine_set_xla(s, id, it->xla_bytes, err);
    if (!rc && first && !first->any) {
        first->any = true;
        snprintf(first->name, sizeof first->name, "%s", stored_as ? stored_as : as);
        first->version = version;
    }
    if (!rc && report && stored_as)
        fprintf(report, "%s: routine %s unchanged (the same text as its version %d; the file calls it %s; %d steps)\n",
                text_shown(it->path), text_shown(stored_as), (int)version, text_shown(as),
                (int)it->routine->n_steps);
    else if (!rc && report)
        fprintf(report, was_new ? "%s: routine %s, version %d (%d steps)"
                                : "%s: routine %s unchanged (the same text as version %d; %d steps)",
                text_shown(it->path), text_shown(as), (int)version, (int)it->routine->n_steps);
    /* another file under the same name (two PyTorch/XLA dumps are both
     * SyncTensorsGraph.N): say so, and how to keep them apart */
    char *before = NULL;
    bool found = false;
    if (!rc && report && was_new && version > 1 &&
        !library_routine_path(s, as, version - 1, &before, &found, err) && found && before[0] &&
        strcmp(before, it->path) != 0)
        fprintf(report, "; version %d came from %s: import --name NAME (r on the Session screen) gives it a name "
                        "of its own", (int)version - 1, text_shown(before));
    free(before);
    if (!rc && report && !stored_as)
        fputc('\n', report);
    free(stored_as);
    return rc;
}

static int write_held(store_t *s, import_t *im, const char *routine_name, FILE *report, import_routine_t *first,
                      rs_error_t *err)
{
    say(im, "writing", im->n ? im->items[0].path : "", 0, im->n); /* the store may be busy: it waits there */
    int rc = store_begin(s, err);
    for (int i = 0; i < im->n && !rc; i++) {
        item_t *it = &im->items[i];
        say(im, "writing", it->path, i, im->n);
        if (it->kind == ITEM_ROUTINE) {
            rc = write_routine(s, it, routine_name, report, first, err);
        } else if (it->kind == ITEM_PROFILES) {
            rc = library_profiles_put(s, it->profiles.items, it->profiles.n, err);
            if (!rc && report)
                fprintf(report, "%s: %d profiles\n", text_shown(it->path), (int)it->profiles.n);
        } else {
            char name[256];
            base_name(it->path, name, sizeof name);
            bool was_new;
            rc = library_layout_put(s, name, it->path, &it->layout, &was_new, err);
            if (!rc && report)
                fprintf(report, was_new ? "%s: layout problem %s (%d buffers)\n" : "%s: layout problem %s unchanged (%d buffers)\n",
                       text_shown(it->path), text_shown(name), (int)it->layout.n);
        }
    }
    if (!rc)
        rc = store_commit(s, err);
    else
        store_rollback(s);
    if (!rc && report && im->skipped)
        fputs(im->skipped, report);
    return rc;
}

/* Writes every item in one transaction.  What it says of each goes to
 * report only once the commit succeeded: a full disk at the commit saves
 * nothing, and the report must not have said otherwise first. */
static int write_items(store_t *s, import_t *im, const char *routine_name, FILE *report, import_routine_t *first,
                       rs_error_t *err)
{
    char *said = NULL;
    size_t said_len = 0;
    FILE *held = report ? open_memstream(&said, &said_len) : NULL;
    if (report && !held)
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = write_held(s, im, routine_name, held, first, err);
    if (held) {
        if (fclose(held) != 0 && !rc)
            rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
        if (!rc)
            fwrite(said, 1, said_len, report);
        free(said);
    }
    return rc;
}

int import_paths(const cmdline_t *c, store_t *store, const char *const *paths, int n, FILE *report,
                 const import_progress_t *progress, import_routine_t *first, rs_error_t *err)
{
    import_t im = { .progress = progress };
    if (first)
        first->any = false;
    int rc = RS_OK;
    /* everything is read and checked before the store is touched: one bad
     * file imports nothing */
    for (int i = 0; i < n && !rc; i++)
        rc = add_path(&im, paths[i], false, err);
    if (!rc && c->name) { /* one routine takes a name of the user's */
        int routines = 0;
        for (int i = 0; i < im.n; i++)
            routines += im.items[i].kind == ITEM_ROUTINE;
        rc = library_routine_name_check(c->name, "--name", err);
        if (!rc && routines != 1)
            rc = error_set(err, RS_EINPUT, "--name", 0, 0, "names one routine, and the import holds %d", routines);
    }
    store_t *own = NULL;
    if (!rc && !store)
        rc = session_open(c, &own, err);
    if (!rc)
        rc = write_items(store ? store : own, &im, c->name, report, first, err);
    store_close(own);
    import_free(&im);
    return rc;
}

