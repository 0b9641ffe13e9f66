/* storeutil: see storeutil.h. */
#include "storeutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "library.h"
#include "plans.h"
#include "rebuild.h"

static char dir[128];

int su_setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/rs_store_test_%d", (int)getpid());
    mkdir(dir, 0755);
    return 0;
}

int su_teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", dir, dir);
    return system(cmd) == 0 ? 0 : 0;
}

const char *su_dir(void) { return dir; }

char *path_of(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

int64_t save_fit(store_t *s, tf_t *f, const char *label)
{
    rs_error_t err;
    tf_fit(f, ROUTINE_HARMFUL, "minimize", -1, 0);
    assert_int_equal(store_begin(s, &err), RS_OK);
    int64_t rid, pid;
    int32_t version;
    bool was_new;
    assert_int_equal(library_routine_put(s, f->t.r->name, ROUTINE_HARMFUL, strlen(ROUTINE_HARMFUL), "mem",
                                         f->t.r->n_steps, f->t.r->n_nodes, &rid, &version, &was_new, &err),
                     RS_OK);
    char *bindings = rebuild_bindings_format(f->t.r, &f->t.b);
    char config[128];
    rebuild_config_format(&f->ctx->cfg, config, sizeof config);
    plan_save_t in = { .plan = f->plan, .routine_id = rid, .bindings = bindings, .config = config, .prefs = "",
                       .label = label, .elapsed_us = 1234, .budget_spec = "minimize" };
    if (plans_save(s, &in, &pid, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(store_commit(s, &err), RS_OK);
    free(bindings);
    return pid;
}

int collect(void *ud, const csvio_row_t *row, rs_error_t *err)
{
    (void)err;
    rows_t *r = ud;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->cells = realloc(r->cells, (size_t)r->cap * sizeof *r->cells);
    }
    char **cells = calloc((size_t)row->n + 1, sizeof *cells);
    for (int i = 0; i < row->n; i++)
        cells[i] = strdup(row->field[i]);
    r->cells[r->n++] = cells;
    r->width = row->n;
    return 0;
}

void rows_free(rows_t *r)
{
    for (int i = 0; i < r->n; i++) {
        for (int k = 0; r->cells[i][k]; k++)
            free(r->cells[i][k]);
        free(r->cells[i]);
    }
    free(r->cells);
}
