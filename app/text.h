/* text: making names safe to print: control characters and invalid UTF-8
 * are shown escaped (\n, \x01), so a hostile name cannot break a table or
 * a terminal. */
#ifndef RS_TEXT_H
#define RS_TEXT_H

#include <stddef.h>

/* Writes s escaped into buf (always NUL-terminated, cut to n) and returns
 * buf. */
const char *text_escape(const char *s, char *buf, size_t n);

#endif
