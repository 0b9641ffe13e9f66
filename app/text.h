/* text: making names safe to print: control characters (C0 and C1) and
 * invalid UTF-8 are shown escaped (\n, \x01, \u009b, \xff), so a hostile name cannot break a table or
 * a terminal; and recompute said in the units people use. */
#ifndef RS_TEXT_H
#define RS_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes s escaped into buf (always NUL-terminated, cut to n) and returns
 * buf. */
const char *text_escape(const char *s, char *buf, size_t n);

/* Recompute for people: "+1.31 MFLOPs (+0.620%)" — extra over the
 * baseline's compute — then ", about +4.20 us on NAME" when flops_per_s
 * is known (> 0). */
void text_recompute(int64_t extra, int64_t baseline_compute, int64_t flops_per_s, const char *profile, char *buf,
                    size_t n);

/* s escaped into one of eight rotating buffers, for printf arguments: up
 * to eight in one call stay valid.  For the CLI's printing (one thread), of
 * names and paths: what escapes to more than 16 KiB is cut (text_print
 * is for text of any length). */
const char *text_shown(const char *s);

/* Writes s escaped to f, whole; -1 on a write error. */
int text_print(FILE *f, const char *s);

#endif
