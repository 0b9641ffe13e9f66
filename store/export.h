/* export: saved plans as CSV through libcsv (a header row, names quoted
 * when they need it, numbers unformatted, bytes as integers). */
#ifndef RS_EXPORT_H
#define RS_EXPORT_H

#include "lower/score.h"
#include "plans.h"
#include "rebuild.h"
#include "store.h"

typedef enum export_what {
    EXPORT_PLANS,
    EXPORT_FLIPS,
    EXPORT_EVENTS,
    EXPORT_LAYOUT,
    EXPORT_ORIGINS,
    EXPORT_FRONTIER
} export_what_t;

/* "plans", "flips", "events", "layout", "origins" (flips by origin, DESIGN
 * §13), "frontier" (the frontier plans' flips with their kind, §14), or -1. */
int export_what_parse(const char *s);
/* The name of export kind i ("plans", ...), NULL past the last. */
const char *export_what_name(int i);

/* The file plan id takes when an export writes one file a plan (a layout
 * or a picture of several plans): the id before the suffix,
 * "out/layout.csv" -> "out/layout-3.csv", "plan" -> "plan-3".  Cut to n. */
void export_plan_path(const char *path, int64_t id, char *buf, size_t n);

/* Writes plans[0..n) (flips and events loaded) as what to path, whole (a
 * temporary file renamed into place).  EXPORT_LAYOUT writes the final arena
 * of one plan in MiniMalloc's solution format (id,lower,upper,size,offset,
 * with ids the node names), re-scored from the store. */
int export_plans(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                 rs_error_t *err);

/* Plan p's final arena made again from the store (its stored routine text,
 * bindings, config and preferences plus its flips): *rb the rebuilt
 * context, *fp and *d its scoring.  RS_ESTORE when it no longer scores to
 * the total the plan recorded.  On success free *d with score_detail_free
 * and *rb with rebuild_free; on error there is nothing to free. */
int export_plan_arena(store_t *s, const stored_plan_t *p, rebuilt_t *rb, footprint_t *fp, score_detail_t *d,
                      rs_error_t *err);

/* How an export goes: raw as export_plans_raw says; progress, when set, is
 * told the rows written of all (events only, every 4096 from 0 and then
 * all of them: the one export that takes seconds) and stops the export,
 * leaving the file untouched, RS_ECANCELED, when it returns nonzero. */
typedef struct export_options {
    bool raw;
    int (*progress)(void *ud, int64_t done, int64_t total);
    void *progress_ud;
} export_options_t;

/* export_plans under o (NULL: the defaults). */
int export_plans_with(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path,
                      const export_options_t *o, rs_error_t *err);

/* The same; a text cell (a label, a name, a sentence) that begins with
 * = + - @ TAB or CR is written with a leading ' so a spreadsheet shows it
 * instead of running it as a formula (OWASP's CSV injection advice), unless
 * raw.  Numbers are never touched.  export_plans is raw = false. */
int export_plans_raw(store_t *s, const stored_plan_t *plans, int n, export_what_t what, const char *path, bool raw,
                     rs_error_t *err);

#endif
