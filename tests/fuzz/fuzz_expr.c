/* Fuzz target: integer expressions (parse and evaluate with two symbols
 * bound) and the budget/units parser, on the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "model/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = 0;
    expr_syms_t syms;
    if (expr_syms_init(&syms) == RS_OK) {
        int64_t values[2] = { 64, -3 };
        unsigned char bound[2] = { 1, 1 };
        expr_syms_intern(&syms, "B", 1);
        expr_syms_intern(&syms, "N", 1);
        lex_t lx = { .file = "fuzz", .s = s, .len = size, .line = 1 };
        expr_t e;
        rs_error_t err;
        expr_pool_t pool;
        expr_pool_init(&pool);
        if (!expr_parse(&lx, &syms, &pool, &e, &err)) {
            int64_t v;
            unsigned char all[2] = { bound[0], bound[1] };
            expr_env_t env = { values, syms.n > 2 ? NULL : all, &syms, "fuzz", &pool };
            (void)expr_eval(&e, &env, &v, &err);
        }
        expr_pool_free(&pool);
        expr_syms_free(&syms);
    }
    budget_spec_t b;
    rs_error_t err;
    if (!units_parse_budget(s, "fuzz", &b, &err)) {
        int64_t bytes;
        bool minimize;
        (void)units_budget_resolve(&b, INT64_MAX, 1 << 30, &bytes, &minimize, &err);
        if (b.kind == BUDGET_BYTES && b.bytes < 0)
            abort();
    }
    int64_t v;
    (void)units_parse_int(s, "fuzz", INT64_MIN, INT64_MAX, &v, &err);
    free(s);
    return 0;
}
