/* strbuf: a growable string built with printf-style appends. */
#ifndef RS_STRBUF_H
#define RS_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
    char *s;     /* NUL-terminated; owned */
    size_t len, cap;
    bool oom;    /* an append failed: the text is incomplete */
} strbuf_t;

void strbuf_init(strbuf_t *b);
void strbuf_free(strbuf_t *b);
/* Empties b for reuse, keeping its memory; clears oom. */
void strbuf_reset(strbuf_t *b);
/* Appends; on allocation failure sets b->oom and leaves the text as it was. */
void strbuf_printf(strbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
