#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void strbuf_init(strbuf_t *b)
{
    b->s = NULL;
    b->len = b->cap = 0;
    b->oom = false;
}

void strbuf_free(strbuf_t *b)
{
    free(b->s);
    strbuf_init(b);
}

void strbuf_reset(strbuf_t *b)
{
    b->len = 0;
    b->oom = false;
    if (b->s)
        b->s[0] = 0;
}

void strbuf_printf(strbuf_t *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) {
        b->oom = true;
        return;
    }
    if (b->len + (size_t)need + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap : 256;
        while (ncap < b->len + (size_t)need + 1)
            ncap *= 2;
        char *ns = realloc(b->s, ncap);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = ncap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}
