/* bench_input: the one way a benchmark reads its input. */
#ifndef RS_BENCH_INPUT_H
#define RS_BENCH_INPUT_H
#include <stddef.h>

/* The text of path, NUL-terminated, its length in *n (the caller frees
 * it): a file, or "gen:KIND:LAYERS" generated (gen_routine).  NULL when
 * it cannot be read or generated. */
char *bench_read_text(const char *path, size_t *n);

#endif
