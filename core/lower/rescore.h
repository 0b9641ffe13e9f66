/* rescore: scorings against a reference scoring.  A search scores the
 * same lowering thousands of times under preferences that differ from a
 * reference (the baseline, or what round two has accepted) in a node or
 * a few; each such scoring gives exactly score_lowering's footprint
 * (DESIGN §3: the greedy's offsets and total, max-live and its first peak
 * step), but lays out only what the change moved (relayout.h) and takes
 * max-live from the reference's live bytes per step and the buffers that
 * changed.  The virtualizer and liveness still run whole: they are a few
 * percent of a scoring.
 *
 * Only the greedy with buffer aliasing on has the incremental path; any
 * other config scores from scratch here (the same answer, slower).  A
 * reference is read-only to scorings (threads share one, each with its
 * own rescore_work_t); rescore_rebase makes a work's last scoring the
 * reference. */
#ifndef RS_RESCORE_H
#define RS_RESCORE_H

#include <stdint.h>

#include "layout/relayout.h"
#include "lower/lower.h"
#include "lower/score.h"
#include "util/error.h"

typedef struct rescore rescore_t;
typedef struct rescore_work rescore_work_t;

/* The reference scoring of l under prefs (may be NULL) and cfg; *out gets
 * its footprint (score_lowering's).  l is not kept: later scorings hand
 * in a lowering of the same routine (a reuse cell's copy).  Errors are
 * score_lowering's. */
int rescore_new(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, footprint_t *out,
                rescore_t **ref, rs_error_t *err);
/* rescore_new, and the reference scoring's detail into *detail (as
 * score_lowering gives it; free it with score_detail_free, also after an
 * error). */
int rescore_new_detail(const lowering_t *l, const uint8_t *prefs, const score_config_t *cfg, footprint_t *out,
                       score_detail_t *detail, rescore_t **ref, rs_error_t *err);
void rescore_free(rescore_t *ref);

/* A workspace for one thread's scorings against ref. */
int rescore_work_new(const rescore_t *ref, rescore_work_t **out, rs_error_t *err);
void rescore_work_free(rescore_work_t *w);

/* score_lowering(l, prefs, ref's config) into *out, without detail: the
 * same footprint, from the reference and what differs from it. */
int rescore_score(const rescore_t *ref, rescore_work_t *w, const lowering_t *l, const uint8_t *prefs,
                  footprint_t *out, rs_error_t *err);

/* Before its owner scores against ref again (no other thread scoring
 * against it): relayout_prepare. */
int rescore_prepare(rescore_t *ref, rs_error_t *err);

/* Makes w's last scoring the reference.  RS_EINVAL when it was against
 * another reference or an earlier version of this one. */
int rescore_rebase(rescore_t *ref, rescore_work_t *w, rs_error_t *err);

/* The layout's counts over every scoring of w (zeros when w scored from
 * scratch). */
void rescore_work_stats(const rescore_work_t *w, relayout_stats_t *out);

#endif
