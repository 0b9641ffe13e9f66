/* Tests for store/'s wait for another process's lock: the busy timeout,
 * and store_set_stop ending the wait early with RS_ECANCELED. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fitutil.h"
#include "store.h"

typedef struct stopper {
    int calls, stop_at; /* stop once called stop_at times; 0: never */
} stopper_t;

static int stop_after(void *ud)
{
    stopper_t *s = ud;
    return ++s->calls >= s->stop_at && s->stop_at > 0;
}

/* Two connections to one store: while b holds the write lock, a's write
 * waits, and a stop asked during the wait ends it at once. */
static void test_stop_ends_a_wait_for_the_lock(void **state)
{
    (void)state;
    char dir[64], path[96];
    snprintf(dir, sizeof dir, "/tmp/rs_store_lock_%d", (int)getpid());
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/s.db", dir);
    setenv("RS_BUSY_TIMEOUT_MS", "60000", 1); /* a stop, not the timeout, must end the first wait */
    rs_error_t err;
    store_t *a = NULL, *b = NULL;
    assert_int_equal(store_open(path, &a, &err), RS_OK);
    assert_int_equal(store_open(path, &b, &err), RS_OK);
    assert_int_equal(store_begin(b, &err), RS_OK);

    stopper_t st = { 0, 3 };
    store_set_stop(a, stop_after, &st);
    assert_int_equal(store_begin(a, &err), RS_ECANCELED);
    assert_int_equal(st.calls, 3); /* asked once a 10 ms sleep, ended at the third */
    assert_non_null(strstr(err.msg, "stopped while the store was locked"));

    /* no stop: the timeout ends it, and the message names the lock */
    store_set_stop(a, NULL, NULL);
    setenv("RS_BUSY_TIMEOUT_MS", "50", 1);
    assert_int_equal(store_begin(a, &err), RS_ESTORE);
    assert_non_null(strstr(err.msg, "the store is locked by"));
    assert_non_null(strstr(err.msg, "(waited 50 ms)"));

    /* a stop that never asks changes nothing once the lock goes */
    stopper_t never = { 0, 0 };
    store_set_stop(a, stop_after, &never);
    store_rollback(b);
    assert_int_equal(store_begin(a, &err), RS_OK);
    assert_int_equal(store_commit(a, &err), RS_OK);
    assert_int_equal(never.calls, 0); /* nothing waited */
    store_close(a);
    store_close(b);
    unsetenv("RS_BUSY_TIMEOUT_MS");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_ends_a_wait_for_the_lock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
