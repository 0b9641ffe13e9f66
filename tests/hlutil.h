/* hlutil: reading an HLO text in tests (hl_load), what its lowering gives
 * a node, and a located read error expected (BAD) — shared by test_hlo.c,
 * test_hlo_errors.c and test_hlo_donation.c. */
#ifndef RS_HLUTIL_H
#define RS_HLUTIL_H

#include "model/hlo.h"
#include "testutil.h"

/* An HLO module read, bound with its defaults and lowered. */
typedef struct hl {
    routine_t *r;
    bindings_t b;
    lowering_t *l;
} hl_t;

/* Reads text as "t.hlo" and lowers it; fails the test on any error. */
void hl_load(hl_t *h, const char *text);
void hl_free(hl_t *h);

/* The node index of name; fails the test when absent. */
int32_t hl_node(const hl_t *h, const char *name);

/* Node name's flags, cost and bytes in the lowering. */
uint8_t flags_of(const hl_t *h, const char *name);
int64_t cost_of(const hl_t *h, const char *name);
int64_t bytes_of(const hl_t *h, const char *name);

/* Expects hlo_read of text's len bytes (as "bad.hlo") to fail with
 * RS_EINPUT at line:col with a message containing needle. */
void expect_hlo_error(const char *text, size_t len, int line, int col, const char *needle);

/* Expects the arguments of name's first definition to be want ("a,b,c"). */
void expect_args(const hl_t *h, const char *name, const char *want);

/* expect_hlo_error of a string literal, its length taken from the literal
 * (so NUL bytes inside count). */
#define BAD(text, line, col, needle) expect_hlo_error(text, sizeof text - 1, line, col, needle)

#endif
