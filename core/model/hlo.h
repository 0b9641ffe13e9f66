/* hlo: XLA HLO text read as a routine (DESIGN §10).  The module's ENTRY
 * computation becomes §1 routine text (one line a node, with the node's HLO
 * name, op_name and source line as hlo=/op_name=/source= attributes), which
 * routine_parse then reads: `rematscope convert` prints exactly that text,
 * so reading it back gives the same routine. */
#ifndef RS_HLO_H
#define RS_HLO_H

#include <stdbool.h>
#include <stddef.h>

#include "model/routine.h"
#include "util/error.h"

/* True when the first statement of text[0..len) (after blanks and comments)
 * is `HloModule NAME`. */
bool hlo_sniff(const char *text, size_t len);

/* Translates the HLO text text[0..len) (the contents of path) into routine
 * text in the §1 format: a new NUL-terminated string in *out (its length in
 * *out_len).  Time linear in len, memory a small multiple of it.  Any error
 * is RS_EINPUT located at path:line:col of the HLO; nothing is returned on
 * error. */
int hlo_convert(const char *path, const char *text, size_t len, char **out, size_t *out_len, rs_error_t *err);

/* hlo_convert, then routine_parse of the result: a routine whose format is
 * ROUTINE_HLO and whose nodes and steps carry the HLO line and column of
 * their instruction. */
int hlo_read(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err);

/* Either format, told apart by content: hlo_read when hlo_sniff, else
 * routine_parse. */
int hlo_read_any(const char *path, const char *text, size_t len, routine_t **out, rs_error_t *err);

#endif
