/* Tests for core/util: strpool (stable, packed strings) and strmap. */
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/path.h"
#include "util/strmap.h"
#include "util/strpool.h"

/* Every string handed out keeps its address and bytes while the pool grows
 * across many chunks; alignment is honoured; NULs inside are kept. */
static void strpool_strings_stay_put(void **state)
{
    (void)state;
    strpool_t p;
    strpool_init(&p);
    enum { N = 200000 };
    char **at = malloc(N * sizeof *at);
    char name[32];
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "node_%d", i);
        at[i] = strpool_dup(&p, name, (size_t)n);
        assert_non_null(at[i]);
    }
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "node_%d", i);
        assert_string_equal(at[i], name);
    }
    char *z = strpool_dup(&p, "a\0b", 3);
    assert_int_equal(memcmp(z, "a\0b\0", 4), 0);
    for (size_t a = 1; a <= alignof(max_align_t); a *= 2) {
        strpool_dup(&p, "x", 1); /* knock the cursor off alignment */
        void *q = strpool_alloc(&p, 24, a);
        assert_non_null(q);
        assert_int_equal((uintptr_t)q % a, 0);
    }
    assert_null(strpool_alloc(&p, 8, 3));
    /* a string larger than any chunk gets its own */
    size_t big = (size_t)3 << 20;
    char *src = malloc(big);
    memset(src, 'q', big);
    char *copy = strpool_dup(&p, src, big);
    assert_non_null(copy);
    assert_int_equal(copy[big - 1], 'q');
    assert_int_equal(copy[big], 0);
    assert_string_equal(at[0], "node_0");
    free(src);
    free(at);
    strpool_free(&p);
    strpool_free(&p); /* freeing twice is harmless: the pool is empty again */
}

static void strmap_put_get_replace(void **state)
{
    (void)state;
    strmap_t *m = strmap_new();
    assert_int_equal(strmap_get(m, "a", 1), -1);
    assert_int_equal(strmap_put(m, "a", 1, 7), 0);
    assert_int_equal(strmap_put(m, "ab", 2, 8), 0);
    assert_int_equal(strmap_put(m, "", 0, 9), 0);
    assert_int_equal(strmap_get(m, "a", 1), 7);
    assert_int_equal(strmap_get(m, "ab", 2), 8);
    assert_int_equal(strmap_get(m, "abc", 2), 8); /* the key is key[0..len) */
    assert_int_equal(strmap_get(m, "", 0), 9);
    assert_int_equal(strmap_put(m, "a", 1, 70), 0);
    assert_int_equal(strmap_get(m, "a", 1), 70);
    /* keys holding NULs differ by their bytes and their length */
    assert_int_equal(strmap_put(m, "x\0y", 3, 1), 0);
    assert_int_equal(strmap_put(m, "x\0z", 3, 2), 0);
    assert_int_equal(strmap_put(m, "x", 1, 3), 0);
    assert_int_equal(strmap_get(m, "x\0y", 3), 1);
    assert_int_equal(strmap_get(m, "x\0z", 3), 2);
    assert_int_equal(strmap_get(m, "x", 1), 3);
    assert_int_equal(strmap_get(m, "x\0", 2), -1);
    strmap_free(m);
}

/* Many keys force many grows; every key still maps to its own value and the
 * key bytes are the map's own copy, not the caller's buffer. */
static void strmap_many_keys(void **state)
{
    (void)state;
    strmap_t *m = strmap_new();
    char name[32];
    enum { N = 300000 };
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "k%d", i);
        assert_int_equal(strmap_put(m, name, (size_t)n, i), 0);
    }
    memset(name, 0, sizeof name);
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "k%d", i);
        assert_int_equal(strmap_get(m, name, (size_t)n), i);
    }
    assert_int_equal(strmap_get(m, "k300000", 7), -1);
    strmap_free(m);
}

/* issue 43: a message named "/tmp/uxd//sub/bad.routine" when the folder
 * was typed with its '/' (and "/tmp//rematscope" from XDG_DATA_HOME=/tmp/). */
static void path_join_and_tidy(void **state)
{
    (void)state;
    char b[32];
    assert_true(path_join(b, sizeof b, "/tmp/", "rematscope"));
    assert_string_equal(b, "/tmp/rematscope");
    assert_true(path_join(b, sizeof b, "/tmp", "rematscope"));
    assert_string_equal(b, "/tmp/rematscope");
    assert_true(path_join(b, sizeof b, "dumps/", "/a.hlo"));
    assert_string_equal(b, "dumps/a.hlo");
    assert_true(path_join(b, sizeof b, "", "a.hlo"));
    assert_string_equal(b, "a.hlo");
    assert_true(path_join(b, sizeof b, "/", "a"));
    assert_string_equal(b, "/a");
    assert_false(path_join(b, 8, "/tmp/", "rematscope"));
    assert_string_equal(b, "/tmp/re");
    char p[][32] = { "dumps//llama/", "/", "//", "a", "a///b//", "./x/" };
    const char *want[] = { "dumps/llama", "/", "/", "a", "a/b", "./x" };
    for (int i = 0; i < 6; i++) {
        path_tidy(p[i]);
        assert_string_equal(p[i], want[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_join_and_tidy),
        cmocka_unit_test(strpool_strings_stay_put),
        cmocka_unit_test(strmap_put_get_replace),
        cmocka_unit_test(strmap_many_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
