/* text: making names safe to print: control characters (C0 and C1) and
 * invalid UTF-8 are shown escaped (\n, \x01, \u009b, \xff), so a hostile name cannot break a table or
 * a terminal; and recompute said in the units people use. */
#ifndef RS_TEXT_H
#define RS_TEXT_H

#include <stdbool.h>
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

/* Bytes by role (DESIGN §13's four, indexed by lower_role_t) for people:
 * "resident 620 MiB, output 607 MiB, pinned 0 B", then ", LABEL 19.0 MiB"
 * for the candidate role when candidate (its label: "candidate", "dropped
 * candidates") is not NULL. */
void text_roles(const int64_t role[4], const char *candidate, char *buf, size_t n);

/* A floor for people: "1.21 GiB (1299227648 B) at step 7995: resident 620
 * MiB, output 607 MiB, pinned 0 B", the roles as text_roles gives them
 * (candidate: the label of the bytes the cap dropped, or NULL). */
struct floor;
void text_floor(const struct floor *f, const char *candidate, char *buf, size_t n);

/* What a byte budget (>= 0) below a floor of ff (DESIGN §13) says, as
 * `fit` warns and the TUI's Fit prompt asks: "the budget 50 B is below
 * the floor 54 B at step 3: resident 4 B, ...: no plan can reach it", or
 * for the floor under the cap "the budget 60 B is below the floor under
 * the cap, 124 B at step 1: ..., dropped candidates 100 B: no plan of the 1
 * cheapest of 2 candidates can reach it".  Returns 0 (buf "") when the
 * budget is below neither, 1 below the floor, 2 below the floor under the
 * cap only. */
struct floor_fit;
int text_floor_below(int64_t budget, const struct floor_fit *ff, char *buf, size_t n);

/* A plan's within-budget answer: "yes", "no", or why no plan could have
 * met its budget: "no, floor" (below the floor), "no, cap" (below the floor
 * under the cap); sweep's column and the TUI's Compare rows. */
struct fit_plan;
const char *text_within(const struct fit_plan *p);

/* Whether the candidate cap alone kept p's byte budget out of reach: the
 * floor under the cap is above the budget and the floor is not (issue 43:
 * the default cap of 32 hid the answer on real steps).  Then buf says it
 * in one line, the budget as typed (spec; NULL or "": its bytes), the
 * floor with every candidate, and how (the CLI's "--max-candidates all",
 * the TUI's "C all"): "the cap of 32 keeps 8GB out of reach; every
 * candidate reaches down to 1.98 GiB: --max-candidates all".  False (buf
 * "") otherwise. */
bool text_cap_hides(const struct fit_plan *p, const char *spec, const char *how, char *buf, size_t n);
/* Whether p missed its budget with candidates the cap dropped while the
 * floor under the cap is not above it (neither the floor nor text_cap_hides
 * is the reason: the greedy over the kept ones missed, and more candidates
 * may or may not help).  Then buf says so: "missed by 92.3 KiB; the cap
 * kept 32 of 41 candidates: C all may reach it".  False (buf "") otherwise. */
bool text_cap_may(const struct fit_plan *p, char *buf, size_t n);

/* Whether p's byte budget was met by its baseline already (no flip was
 * needed); then a plan beside it (the best plan, x) of n_flips flips to
 * total bytes and compute is said for what it is: "40 flips that add no
 * compute save 16.0 KiB" (issue 43: "40 flips +0" read as a plan the
 * budget needed), "" when it saves nothing.  False (buf "") otherwise. */
bool text_free_flips(const struct fit_plan *p, int32_t n_flips, int64_t total, int64_t compute, char *buf, size_t n);

/* Whether p missed a byte budget below its floor (no plan, whatever the
 * cap, could have met it): text_within's "no, floor". */
bool text_below_floor(const struct fit_plan *p);

/* s escaped into one of eight rotating buffers (each thread its own), for
 * printf arguments: up to eight in one call stay valid.  For printing names
 * and paths: what escapes to more than 16 KiB is cut (text_print is for
 * text of any length). */
const char *text_shown(const char *s);

/* A count and its noun for people, the noun plural unless n is 1:
 * text_count(1, "plan", NULL) is "1 plan", text_count(0, "plan", NULL)
 * "0 plans", text_count(3, "try", "tries") "3 tries" (many NULL: one and
 * an s).  Into one of eight rotating buffers of the calling thread, as
 * text_shown: up to eight in one printf call stay valid. */
const char *text_count(int64_t n, const char *one, const char *many);
/* FLOPs with their sign, "+7.18 GFLOPs", "-5 FLOPs", "+0 FLOPs", in buf
 * (n >= 40 holds any); returns buf. */
const char *text_signed_flops(int64_t v, char *buf, size_t n);
/* The noun text_count says for n, alone ("tries"; many NULL: one and an
 * s), for a count printed otherwise ("1,234 tries"); in the same buffers. */
const char *text_noun(int64_t n, const char *one, const char *many);

/* Whether the name s ends with suffix, ASCII letters in either case: a
 * file named PLAN.SVG or TRAIN.HLO is what its suffix says, as on the
 * file systems people copy dumps from. */
bool text_ends_with(const char *s, const char *suffix);

/* Writes s escaped to f, whole; -1 on a write error. */
int text_print(FILE *f, const char *s);

/* The bytes of the first w columns of UTF-8 s, counting a code point a
 * column (as the TUI and the CLI's progress line do); *cols the columns
 * they take (fewer than w when s ends first). */
size_t text_bytes_for_cols(const char *s, int w, int *cols);

#endif
