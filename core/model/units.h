/* units: byte budgets as users type them: `48MiB`, `1.5GB`, `4000000`,
 * `60%` (of the baseline), `device` (the profile's memory), `minimize`. */
#ifndef RS_UNITS_H
#define RS_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef enum budget_kind {
    BUDGET_BYTES,
    BUDGET_PERCENT,  /* of the baseline total */
    BUDGET_DEVICE,   /* the profile's memory_bytes */
    BUDGET_MINIMIZE
} budget_kind_t;

typedef struct budget_spec {
    budget_kind_t kind;
    int64_t bytes;        /* BUDGET_BYTES */
    int64_t pct_num;      /* BUDGET_PERCENT: the percentage is pct_num/pct_den */
    int64_t pct_den;
} budget_spec_t;

/* Parses text (surrounding blanks allowed).  Decimal units are powers of
 * 1000 (kB MB GB TB), binary ones of 1024 (KiB MiB GiB TiB); letters are
 * case-insensitive and a trailing B is optional (`48M` = 48 MB).  A
 * fraction of a byte rounds down.  Negative, non-numeric, out-of-range
 * inputs are RS_EINPUT errors naming the column; `what` names the input
 * (e.g. "--budget") in the message's file position. */
int units_parse_budget(const char *text, const char *what, budget_spec_t *out, rs_error_t *err);

/* Turns a parsed budget into bytes: percent of baseline_total (rounded
 * down), device memory (error when device_bytes < 0, i.e. no profile).
 * Sets *minimize for BUDGET_MINIMIZE (and *bytes to -1). */
int units_budget_resolve(const budget_spec_t *b, int64_t baseline_total, int64_t device_bytes,
                         int64_t *bytes, bool *minimize, rs_error_t *err);

/* Parses a non-negative decimal integer (with a unit, like budgets, when
 * allow_units); for flags such as --alignment. */
int units_parse_int(const char *text, const char *what, int64_t min, int64_t max,
                    int64_t *out, rs_error_t *err);

/* Formats bytes for people: "512 B", "1.5 KiB", "48.0 MiB", "2.00 GiB". */
void units_format_bytes(int64_t bytes, char *buf, size_t n);
/* Bytes for people with their exact count when rounding hides it:
 * "4.00 MiB (4194304 B)"; under 1 KiB the bytes once, "512 B". */
void units_format_bytes_exact(int64_t bytes, char *buf, size_t n);

/* A resolved budget for a person: "minimize", its bytes ("48.0 MiB"), or
 * what was asked for with the bytes it came to ("60% = 62.4 MiB", "device
 * = 80.0 GiB", "8GB = 7.45 GiB") unless the bytes shown say exactly what
 * was asked ("48MiB" is "48.0 MiB"); asked may be NULL or "" (not known). */
void units_format_budget(const char *asked, bool minimize, int64_t bytes, char *buf, size_t n);

/* Formats an operation count (a cost, recompute) in FLOPs with decimal
 * prefixes, three significant digits: "640 FLOPs", "1.31 MFLOPs",
 * "205 GFLOPs", "-12.0 kFLOPs"; up to E. */
void units_format_flops(int64_t flops, char *buf, size_t n);

/* Formats seconds, three significant digits, in ns, us, ms or s (min and h
 * above a minute): "850 ns", "12.3 us", "4.56 ms", "1.23 s", "2.50 min". */
void units_format_seconds(double s, char *buf, size_t n);

#endif
