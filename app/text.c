#include "text.h"

#include <stdio.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

const char *text_escape(const char *s, char *buf, size_t n)
{
    size_t w = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && w + 5 < n) {
        size_t len = utf8_len(p);
        if (*p == '\n' || *p == '\t' || *p == '\r') {
            w += (size_t)snprintf(buf + w, n - w, "\\%c", *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r');
            p++;
        } else if (len == 0 || *p < 0x20 || *p == 0x7f) {
            w += (size_t)snprintf(buf + w, n - w, "\\x%02x", *p);
            p++;
        } else {
            if (w + len >= n)
                break;
            memcpy(buf + w, p, len);
            w += len;
            p += len;
        }
    }
    buf[w < n ? w : n - 1] = 0;
    return buf;
}
