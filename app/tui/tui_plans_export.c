/* tui_plans_export: e on Plans, the chosen plans written to CSV or as
 * SVG pictures on a worker, with a bar and ^C (tui_plans_export.h). */
#include "tui/tui_plans_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "svg.h"
#include "text.h"
#include "tui/tui_wait.h"
#include "tui/tui_widgets.h"
#include "wfile.h"

/* e's "svg": not a CSV export (svg.c writes it), so outside export_what_t */
enum { EXPORT_SVG_PICTURE = 100 };

/* The plans chosen, loaded and written on a worker (each file whole
 * through wfile); ^C stops before the next file. */
typedef struct export_work {
    store_t *store;
    const stored_plan_t **pick;
    int n, w, files;
    bool per_plan;
    char (*paths)[600];
    stored_plan_t *full;
    int loaded, written;
} export_work_t;

static int export_tick(void *job, int64_t done, int64_t total) { return tui_job_progress(job, done, total); }

static int export_work(tui_job_t *job, void *ud, rs_error_t *err)
{
    export_work_t *x = ud;
    int rc = RS_OK;
    tui_job_doing(job, "reading the plans");
    for (; !rc && x->loaded < x->n; x->loaded++)
        rc = plans_load(x->store, x->pick[x->loaded]->id, x->w == EXPORT_EVENTS, &x->full[x->loaded], err);
    if (rc)
        x->loaded--;
    for (int i = 0; !rc && i < x->files; i++) {
        if (tui_job_progress(job, i, x->files))
            return error_set(err, RS_ECANCELED, NULL, 0, 0, "stopped");
        tui_job_doing(job, "%s", x->paths[i]);
        if (x->w == EXPORT_SVG_PICTURE)
            rc = svg_write_plan(x->store, &x->full[i], x->paths[i], NULL, err);
        else {
            /* events run to millions of rows: the bar counts them, not the one file */
            export_options_t o = { .progress = x->w == EXPORT_EVENTS ? export_tick : NULL, .progress_ud = job };
            rc = export_plans_with(x->store, x->per_plan ? &x->full[i] : x->full, x->per_plan ? 1 : x->n,
                                   (export_what_t)x->w, x->paths[i], &o, err);
        }
        x->written += !rc;
    }
    return rc;
}

void tui_plans_export(tui_t *t, const stored_plan_t **pick, int n)
{
    char path[512], what[32] = "plans";
    snprintf(path, sizeof path, "%s", t->export_path[0] ? t->export_path : "plans.csv");
    if (!tui_prompt(t, "export to (Tab completes): ", path, sizeof path, true) || !path[0])
        return;
    snprintf(t->export_path, sizeof t->export_path, "%s", path);
    /* the file's name suggests what goes in it */
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (text_ends_with(path, ".svg"))
        snprintf(what, sizeof what, "svg");
    char kinds[96] = "";
    for (int k = 0; export_what_name(k); k++) {
        const char *name = export_what_name(k);
        if (k > 0 && strstr(base, name))
            snprintf(what, sizeof what, "%s", name);
        snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s, ", name);
    }
    char question[128];
    snprintf(question, sizeof question, "what (%ssvg): ", kinds);
    if (!tui_prompt(t, question, what, sizeof what, false))
        return;
    int w = strcmp(what, "svg") == 0 ? EXPORT_SVG_PICTURE : export_what_parse(what);
    if (w < 0) {
        tui_status(t, true, "expected %ssvg", kinds);
        return;
    }
    /* a layout or a picture is one file a plan: "layout.csv" becomes
     * layout-3.csv, layout-5.csv */
    bool per_plan = (w == EXPORT_LAYOUT || w == EXPORT_SVG_PICTURE) && n > 1;
    char (*paths)[600] = calloc((size_t)n, sizeof *paths);
    stored_plan_t *full = calloc((size_t)n, sizeof *full);
    if (!paths || !full) {
        free(paths);
        free(full);
        tui_status(t, true, "out of memory");
        return;
    }
    int files = per_plan ? n : 1, existing = 0;
    for (int i = 0; i < files; i++) {
        if (per_plan)
            export_plan_path(path, pick[i]->id, paths[i], sizeof paths[i]);
        else
            snprintf(paths[i], sizeof paths[i], "%s", path);
        existing += access(paths[i], F_OK) == 0;
    }
    rs_error_t err;
    for (int i = 0; i < files; i++) /* before asking to overwrite it */
        if (wfile_refuse(paths[i], store_path(t->store), "the export", &err)) {
            tui_error(t, NULL, &err);
            free(paths);
            free(full);
            return;
        }
    if (existing) {
        char q[700];
        snprintf(q, sizeof q, "%s exist%s: overwrite?", files == 1 ? paths[0] : "some of the files",
                 files == 1 ? "s" : "");
        if (!tui_confirm(t, q)) {
            tui_status(t, false, "nothing written");
            free(paths);
            free(full);
            return;
        }
    }
    export_work_t x = { .store = t->store, .pick = pick, .n = n, .w = w, .files = files, .per_plan = per_plan,
                        .paths = paths, .full = full };
    char head[80];
    snprintf(head, sizeof head, "exporting %d plan%s (%s)", n, n == 1 ? "" : "s", what);
    int rc = tui_wait(t, head, export_work, &x, &err);
    if (rc == RS_ECANCELED)
        tui_status(t, false, "export stopped: %d of %s written", x.written, text_count(files, "file", NULL));
    else if (rc)
        tui_error(t, NULL, &err);
    else if (per_plan)
        tui_status(t, false, "wrote %d %s: %s ... %s", n, w == EXPORT_SVG_PICTURE ? "pictures" : "layouts", paths[0],
                   paths[n - 1]);
    else
        tui_status(t, false, "wrote %d plan%s (%s) to %s", n, n == 1 ? "" : "s", what, paths[0]);
    int loaded = x.loaded;
    for (int i = 0; i < loaded; i++)
        stored_plan_free(&full[i]);
    free(full);
    free(paths);
}
