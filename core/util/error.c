#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void error_clear(rs_error_t *e)
{
    if (e)
        memset(e, 0, sizeof *e);
}

int error_set(rs_error_t *e, int code, const char *file, int line, int col,
              const char *fmt, ...)
{
    if (!e)
        return code;
    /* formatted apart first: file or an argument may be e's own text (an
     * error re-set with its file added) */
    char f[sizeof e->file], msg[sizeof e->msg];
    snprintf(f, sizeof f, "%s", file ? file : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    e->code = code;
    memcpy(e->file, f, sizeof f);
    e->line = line;
    e->col = col;
    memcpy(e->msg, msg, sizeof msg);
    return code;
}

void error_format(const rs_error_t *e, char *buf, size_t n)
{
    if (!e->file[0])
        snprintf(buf, n, "%s", e->msg);
    else if (e->line <= 0)
        snprintf(buf, n, "%s: %s", e->file, e->msg);
    else if (e->col <= 0)
        snprintf(buf, n, "%s:%d: %s", e->file, e->line, e->msg);
    else
        snprintf(buf, n, "%s:%d:%d: %s", e->file, e->line, e->col, e->msg);
}
