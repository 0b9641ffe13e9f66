/* tui_draw: what every screen and service draws with: text clipped to a
 * width in display columns (UTF-8 aware, control bytes escaped), wrapped
 * or cut with an ellipsis, filled rows, lines and boxes as text, and the
 * glyph or its ASCII fallback. */
#ifndef RS_TUI_DRAW_H
#define RS_TUI_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/tui_state.h"

/* Draws s at (y, x) in w columns (display columns, UTF-8 aware).  What
 * does not fit is cut and the last column shows the ellipsis ("…", "~" in
 * ASCII), so a cut word or number never passes for a whole one (blanks
 * cut off the end are no loss and leave no mark).  Every text reaches the
 * screen through here. */
void tui_put(tui_t *t, int y, int x, int w, unsigned attr, const char *s);
/* ^Z (TUI_KEY_SUSPEND, a key: the TUI runs raw, so ^C reaches it): the
 * terminal restored as the shell had it, then the whole job stopped as the
 * shell's ^Z stops it; on fg the TUI's terminal mode is back and the
 * screen drawn again whole.  What the caller shows is redrawn from curses'
 * copy; it may redraw its own after. */
#define TUI_KEY_SUSPEND 26
void tui_suspend(void);

/* The display columns of s (UTF-8 aware). */
int tui_cols(const char *s);
/* s in exactly w columns in buf: padded with blanks, or its first w-1
 * and an ellipsis, so a name cut to a column says it was cut (UTF-8 aware,
 * where printf's %-*.*s counts bytes).  Returns buf. */
const char *tui_clip(const tui_t *t, const char *s, int w, char *buf, size_t n);
/* A node's name in exactly w columns in buf: whole and padded, or cut in
 * the middle with the ellipsis keeping its instance suffix (from its first
 * '.' before a digit, else its numeric suffix), which is what tells HLO
 * names apart ("batch_n….230" for batch_norm_training.230, where
 * "batch_norm_…" read alike for four of them; "mul….250_b17" for
 * multiply.250_b17), as much of its end as fits; a name without one keeps
 * its first two thirds and its end.  Every column of node names cuts them
 * through here.  Returns buf. */
const char *tui_clip_name(const tui_t *t, const char *s, int w, char *buf, size_t n);
/* The width of a column of the n names name(ud, i, buf, size) gives (each
 * may be written into buf, or returned as is): the widest in display
 * columns, at least min, at most max (min when max is below it), so the
 * column takes what its longest name needs before the columns beside it
 * take the rest. */
int tui_name_col(int n, const char *(*name)(const void *ud, int i, char *buf, size_t size), const void *ud, int min,
                 int max);
/* v bytes right-aligned in w columns, never a digit cut: the exact bytes
 * when they fit ("2199023255552"), else in units ("2.00 TiB"), else short
 * ("2.0T"); what even that does not fit is returned whole, wider than w
 * (the caller's column must make room).  Every byte count the screens
 * put in a column goes through here.  Returns buf. */
const char *tui_bytes(int64_t v, int w, char *buf, size_t n);
/* FLOPs for a narrow column: "111M" for 111 MFLOPs, "512" for 512 FLOPs,
 * with a sign when sign ("+111M", "+0", "-5"); never a digit cut (the
 * digits units_format_flops gives).  Returns buf. */
const char *tui_flops_short(int64_t flops, bool sign, char *buf, size_t n);
/* Draws s in w columns cut on the left ("…al.py:1266") when it does not
 * fit, so a source line's number stays. */
void tui_put_left_cut(tui_t *t, int y, int x, int w, unsigned attr, const char *s);
/* Draws s in w columns keeping its tail s + tail whole (the numbers after
 * a name: "+ broadcast.3988 (64.0 KiB)"): when s is wider, the part before
 * the tail, a name, is cut instead as tui_clip_name cuts it. */
void tui_put_tail(tui_t *t, int y, int x, int w, unsigned attr, const char *s, size_t tail);
/* Draws fields[0..n) joined by sep in at most max_rows rows of w columns
 * from (y, x), a row breaking only between fields (continuation rows
 * indented by indent), so no number in a field is split; a field wider
 * than a row is cut with the ellipsis.  When they do not all fit, the
 * last row ends in "… N more", N the fields left out (never a silent cut
 * of a list).  Returns the rows used. */
int tui_put_fields(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr,
                   const char *const *fields, int n, const char *sep);
/* The rows tui_put_fields takes for all n fields (nothing drawn). */
int tui_fields_rows(const char *const *fields, int n, int w, int indent, const char *sep);
/* The rows of a details block under a list (Session's footprint, Plans'
 * context): two, three when the fields need them, so they do not end in
 * "… N more" while the list above could give up a row. */
int tui_detail_rows(const char *const *fields, int n, int w, int indent, const char *sep);
/* Draws the first of variants[0..n) (longest first) that fits w columns,
 * else the last clipped: a line says less rather than being cut mid-number. */
void tui_put_fit(tui_t *t, int y, int x, int w, unsigned attr, const char *const *variants, int n);
/* printf into tui_put. */
void tui_putf(tui_t *t, int y, int x, int w, unsigned attr, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Word wrap: the bytes of s that fill one row of w columns, cut at the
 * last space when s goes on (a word that fits a row goes to the next one
 * whole); a word longer than a row is cut after its last '/' on the row
 * (a path breaks between folders), else where the row ends.  *next is
 * where the following row starts. */
size_t tui_wrap(const char *s, int w, const char **next);
/* Draws s wrapped into at most max_rows rows of w columns from (y, x),
 * continuation rows indented by indent; text left over after the last row
 * ends that row in the ellipsis.  Returns the rows used. */
int tui_put_wrapped(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr, const char *s);
/* Draws the sentence s wrapped between words into at most max_rows rows
 * of w columns from (y, x), continuation rows indented by indent, like
 * tui_put_wrapped but a number keeps its unit on its row ("45.6 MiB",
 * "+60.4 kFLOPs", "10.0 s"), and when words are left over the last row
 * ends in " …" after the whole words that fit, so no number is cut (a
 * word wider than a row alone is cut with the ellipsis).  Returns the rows
 * used; *cut (when cut is not NULL) says whether words were left over. */
int tui_put_prose(tui_t *t, int y, int x, int w, int max_rows, int indent, unsigned attr, const char *s, bool *cut);
/* The rows tui_put_prose takes for the whole of s (nothing drawn). */
int tui_prose_rows(const char *s, int w, int indent);
/* Fills w columns of row y with spaces in attr. */
void tui_fill(tui_t *t, int y, int x, int w, unsigned attr);
/* A horizontal line of w columns, and a box's frame (UTF-8 or ASCII). */
void tui_hline(tui_t *t, int y, int x, int w, unsigned attr);
void tui_box(tui_t *t, int y, int x, int h, int w, unsigned attr);
/* A glyph: the UTF-8 one, or its ASCII fallback. */
const char *tui_glyph(const tui_t *t, const char *utf8, const char *ascii);

#endif
