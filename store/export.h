/* export: saved plans as CSV through libcsv (a header row, names quoted
 * when they need it, numbers unformatted, bytes as integers). */
#ifndef RS_EXPORT_H
#define RS_EXPORT_H

#include "plans.h"
#include "store.h"

typedef enum export_what { EXPORT_PLANS, EXPORT_FLIPS, EXPORT_EVENTS, EXPORT_LAYOUT } export_what_t;

/* "plans", "flips", "events", "layout", or -1. */
int export_what_parse(const char *s);

/* Writes plans[0..n) (flips and events loaded) as what to path, whole (a
 * temporary file renamed into place).  EXPORT_LAYOUT writes the final arena
 * of one plan in MiniMalloc's solution format (id,lower,upper,size,offset,
 * with ids the node names), re-scored from the store. */
int export_plans(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                 rs_error_t *err);

#endif
