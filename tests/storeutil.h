/* storeutil: the scratch folder, the saved fit and the CSV reader that the
 * store tests (test_store.c, test_store_plans.c) share.  The names are the
 * ones those tests were written with, so they moved unchanged. */
#ifndef RS_STOREUTIL_H
#define RS_STOREUTIL_H

#include "csvio.h"
#include "fitutil.h"
#include "store.h"

/* cmocka group setup: makes the scratch folder /tmp/rs_store_test_PID. */
int su_setup(void **state);
/* cmocka group teardown: removes the scratch folder, read-only parts too. */
int su_teardown(void **state);

/* The scratch folder su_setup made. */
const char *su_dir(void);

/* name inside the scratch folder; one static buffer, overwritten by the
 * next call. */
char *path_of(const char *name);

/* Fits ROUTINE_HARMFUL and saves it with label; returns the plan id. */
int64_t save_fit(store_t *s, tf_t *f, const char *label);

/* A CSV file read whole: cells[row][col], each row NULL-terminated. */
typedef struct rows {
    char ***cells;
    int n, cap, width;
} rows_t;

/* csvio_read_file's row callback: appends a copy of row to the rows_t ud. */
int collect(void *ud, const csvio_row_t *row, rs_error_t *err);
void rows_free(rows_t *r);

#endif
