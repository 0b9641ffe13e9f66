#include "fail.h"

#include <stdio.h>

#include "text.h"

int fail_print(const rs_error_t *e)
{
    char buf[1024], shown[2048];
    error_format(e, buf, sizeof buf);
    /* one line, whatever the names in it hold: newlines and control bytes
     * are shown escaped */
    fprintf(stderr, "rematscope: %s\n", text_escape(buf, shown, sizeof shown));
    switch (e->code) {
    case RS_EINPUT:
    case RS_EINVAL:
        return 2;
    case RS_ESTORE:
        return 3;
    default:
        return 1;
    }
}
