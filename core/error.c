#include "error.h"

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
    e->code = code;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    e->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
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
