/* testutil: helpers shared by the cmocka tests. */
#ifndef RS_TESTUTIL_H
#define RS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <cmocka.h>

#include "layout/arena.h"
#include "lower/lower.h"
#include "lower/score.h"
#include "model/routine.h"
#include "util/error.h"

/* A routine parsed and lowered with its default bindings. */
typedef struct tr {
    routine_t *r;
    bindings_t b;
    lowering_t *l;
} tr_t;

/* Parses and lowers text; fails the test on any error. */
void tr_load(tr_t *t, const char *text);
void tr_free(tr_t *t);

/* The node index of name; fails the test when absent. */
int32_t tr_node(const tr_t *t, const char *name);

/* Expects routine_parse or lower_routine of text to fail at line:col with a
 * message containing needle. */
void expect_routine_error(const char *text, int line, int col, const char *needle);

/* A preference vector with the named nodes set (NULL-terminated list). */
uint8_t *tr_prefs(const tr_t *t, const char *first, ...);

/* n random buffers from the generator *seed: starts below max_start, spans
 * of up to max_len steps more, sizes 1..max_size. */
void tu_random_bufs(unsigned *seed, arena_buf_t *b, int32_t n, int64_t max_start, int64_t max_len,
                    int64_t max_size);

#endif
