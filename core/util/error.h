/* error: errors as values.  A function that can fail returns a status and
 * fills one rs_error_t once, where the error is found; the caller at the top
 * formats it once. */
#ifndef RS_ERROR_H
#define RS_ERROR_H

#include <stddef.h>

enum {
    RS_OK = 0,
    RS_EINPUT = 2,    /* bad user input: file, flag, budget */
    RS_ESTORE = 3,    /* session store failure */
    RS_ENOMEM = 4,    /* allocation failed */
    RS_EINVAL = 5,    /* API misuse (e.g. a reuse cell handed a foreign owner) */
    RS_ECANCELED = 6, /* the caller asked to stop */
    RS_EAUDIT = 7     /* an audit found a reused lowering that differs */
};

typedef struct rs_error {
    int code;       /* RS_OK when nothing failed */
    char file[256]; /* "" when the error has no file */
    int line;       /* 1-based; 0 when unknown */
    int col;        /* 1-based; 0 when unknown */
    char msg[512];
} rs_error_t;

/* Clears e (e may be NULL). */
void error_clear(rs_error_t *e);

/* Fills e (if not NULL) with code, location and a printf-style message;
 * returns code so callers can write `return error_set(...)`.  file and the
 * arguments may be e's own text (re-setting an error to add its file). */
int error_set(rs_error_t *e, int code, const char *file, int line, int col,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Writes "FILE:LINE:COL: message" (leaving out what is unknown) into buf. */
void error_format(const rs_error_t *e, char *buf, size_t n);

#endif
