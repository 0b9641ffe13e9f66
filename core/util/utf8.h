/* utf8: telling valid UTF-8 from bytes that only look like text, for every
 * writer that must not pass raw bytes on (the CLI's names, JSON, the
 * routine text convert writes). */
#ifndef RS_UTF8_H
#define RS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The length (1 to 4) of the valid UTF-8 sequence at s, which has n bytes
 * left, or 0: RFC 3629's, so no overlong forms, no surrogates and nothing
 * above U+10FFFF. */
size_t utf8_seq_len(const char *s, size_t n);

/* Whether the valid sequence at s (of utf8_seq_len len) is a C1 control,
 * U+0080 to U+009F: a terminal acts on these as on ESC (U+009B is CSI). */
static inline bool utf8_is_c1(const char *s, size_t len)
{
    return len == 2 && (unsigned char)s[0] == 0xC2 && (unsigned char)s[1] < 0xA0;
}

#endif
