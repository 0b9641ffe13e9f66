/* relayout_int: what the parts of the incremental greedy share.
 * relayout_cover.c is the cover profiles (the union of the conflicting
 * placements of one buffer, with cover counts); relayout_index.c the time
 * index over a reference's buffers; relayout_build.c lays a reference out
 * from scratch with its profiles; relayout.c runs against a reference,
 * relayout_cascade.c carries a run's changes to the buffers after them,
 * relayout_rebase.c makes a run the reference.  Not for use
 * outside core/layout/relayout*.c. */
#ifndef RS_RELAYOUT_INT_H
#define RS_RELAYOUT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "layout/bestfit.h"
#include "layout/relayout.h"

/* ---- cover profiles ------------------------------------------------------ */

/* Cover counts are kept exactly up to RELAYOUT_CAP; above it a piece says
 * "at least RELAYOUT_CAP". */
#define RELAYOUT_CAP 8

/* [lo, hi) is covered by cnt buffers: exactly when cnt > 0, at least -cnt
 * when cnt < 0.  A profile is such pieces, sorted, disjoint, never cnt 0
 * (what no piece covers is covered by none). */
typedef struct rl_seg {
    int64_t lo, hi;
    int32_t cnt;
    int32_t reserved;
} rl_seg_t;

typedef struct rl_list {
    rl_seg_t *v;
    int32_t n, cap;
} rl_list_t;

/* How many buffers cover a piece, at least (the count's size). */
static inline int32_t rl_atleast(int32_t cnt) { return cnt < 0 ? -cnt : cnt; }

/* Adds one buffer over [a, b) to l.  -1 when out of memory. */
int relayout_cover_add(rl_list_t *l, int64_t a, int64_t b);

/* Takes one buffer off [a, b) of l: 0, 1 when some piece's count is no
 * longer known to be positive (the profile must be rebuilt from the
 * placements), -1 when out of memory. */
int relayout_cover_sub(rl_list_t *l, int64_t a, int64_t b);

/* A change of cover counts from x on: drem placements more taken off,
 * dadd more added (each -1, 0 or +1 at an end of one). */
typedef struct rl_edge {
    int64_t x;
    int32_t drem, dadd;
} rl_edge_t;

/* out = the profile v[0..n) after the changes e[0..m) (sorted by x): a
 * count known exactly stays exact; one known to be at least c becomes at
 * least max(added, c - taken + added), since whatever is taken off was
 * counted.  1 when some count is no longer known to be positive (the
 * profile must be rebuilt from the placements), -1 when out of memory. */
int relayout_cover_apply(const rl_seg_t *v, int32_t n, const rl_edge_t *e, int32_t m, rl_list_t *out);

/* Sorts e[0..m) by x. */
void relayout_edges_sort(rl_edge_t *e, int32_t m);

/* Appends to out the pieces of v[0..n) within [lo, hi), cut at its ends,
 * merging with out's last piece where they meet equal.  -1 when out of
 * memory. */
int relayout_cover_slice(const rl_seg_t *v, int32_t n, int64_t lo, int64_t hi, rl_list_t *out);

/* True when a and b cover the same offsets (whatever their counts). */
bool relayout_cover_same_union(const rl_seg_t *a, int32_t na, const rl_seg_t *b, int32_t nb);

/* True when [a, b) lies in pieces covered by at least k buffers. */
bool relayout_cover_has(const rl_seg_t *v, int32_t n, int64_t a, int64_t b, int32_t k);

/* out = the sum of the lists lists[0..k) (each buffer in one of them).
 * -1 when out of memory. */
int relayout_cover_sum(const rl_list_t *const *lists, int32_t k, rl_list_t *out, rl_list_t *scratch);

/* The §3 best fit in the union of v[0..n): the smallest gap that holds
 * size (lowest offset on a tie), else the top of the union. */
int64_t relayout_cover_fit(const rl_seg_t *v, int32_t n, int64_t size);

int relayout_list_reserve(rl_list_t *l, int64_t need);

/* ---- the reference -------------------------------------------------------- */

typedef struct rl_ids {
    int32_t *v;
    int32_t n, cap;
} rl_ids_t;

/* The time index: a segment tree over the distinct span starts.  stab[k]
 * holds the buffers whose span covers node k canonically, at[k] those whose
 * start lies under node k; both by order position ascending.  Two spans
 * meet when the later start lies in both, so the buffers meeting [a, b] are
 * those of stab along the path to a (covering a) and those of at over the
 * starts in (a, b], each found once. */
typedef struct rl_index {
    int64_t *coords;
    int32_t leaves, nodes;
    rl_ids_t *stab, *at;
} rl_index_t;

typedef struct rl_prof {
    int32_t off, n; /* pool[off .. off + n) */
} rl_prof_t;

struct relayout {
    int32_t n;
    int64_t alignment;
    uint8_t *present;
    int64_t *raw;   /* size before alignment */
    int64_t *size;  /* aligned */
    int64_t *start, *end;
    int64_t *off;   /* -1 when absent, 0 for a zero-byte buffer */
    int32_t *lo, *hi; /* leaf range of each indexed buffer */
    int32_t *pos;   /* position in order; -1 when absent or zero-byte */
    int32_t *order; /* the present buffers with bytes, in §3's order */
    int32_t n_order;
    rl_prof_t *prof; /* per id: the union of the conflicting placements before it, with counts */
    /* Buffers whose span holds every other's (the residents of a routine)
     * conflict with all: each one's profile is the previous one's plus
     * the buffers between them in the order, so a change reaches the
     * next ones in a chain instead of each of them. */
    uint8_t *full;
    int64_t span_lo, span_hi; /* the steps the present buffers cover */
    int32_t *full_order;      /* positions of the full buffers, ascending */
    int32_t n_full;
    int32_t *full_rank;       /* per id: its index in full_order, -1 */
    int32_t *next_full;       /* per position 0..n_order: the first full position at or after it, n_order */
    rl_prof_t *bprof;         /* per full id: the counts of the previous full buffer and those between */
    rl_prof_t *cprof;         /* a tree over the full ranks: each node's between counts summed */
    rl_prof_t *fprof;         /* the same over the full buffers' own placements */
    int32_t full_leaves, full_cap;
    rl_seg_t *pool;
    int32_t pool_n, pool_cap;
    int64_t pool_live;
    rl_index_t ix;
    int64_t height, n_top; /* the high-water mark; buffers reaching it */
    int64_t total;  /* sum of aligned sizes present (never overflows: checked) */
    int64_t version;
    /* Only the order, offsets and height are made (no index, profiles or
     * full buffers): a run against it lays out from scratch, keeping the
     * prefix no change reaches.  A rebase after a run that gave up makes
     * one, as the next run usually gives up too (relayout_prepare). */
    bool lazy;
    int32_t runs_lazy; /* relayout_prepare calls since it was made lazy */
};

/* §3's order between two buffers: aligned size, span length descending,
 * start, id ascending.  True when a comes first. */
static inline bool rl_before(int64_t size_a, int64_t len_a, int64_t start_a, int32_t id_a, int64_t size_b,
                             int64_t len_b, int64_t start_b, int32_t id_b)
{
    if (size_a != size_b)
        return size_a > size_b;
    if (len_a != len_b)
        return len_a > len_b;
    if (start_a != start_b)
        return start_a < start_b;
    return id_a < id_b;
}

/* A span's length as bestfit orders it (INT64_MAX when it overflows). */
static inline int64_t rl_span_len(int64_t start, int64_t end)
{
    int64_t d;
    return __builtin_sub_overflow(end, start, &d) ? INT64_MAX : d;
}

/* Lays out r's present buffers from scratch (order, offsets, profiles,
 * index, height).  The fields n, alignment, present, raw, size, start, end
 * are set; everything else is (re)built.  off (NULL: bestfit's) gives the
 * §3 offsets and height when a layout from scratch of these buffers has
 * already made them; order (NULL: sorted here) their §3 order, n_order
 * long, when it has made that too.  lazy: the profiles and index are left
 * for relayout_materialize. */
int relayout_build(relayout_t *r, const int64_t *off, int64_t height, const int32_t *order, int32_t n_order, bool lazy,
                   rs_error_t *err);

/* Makes a lazy reference's full buffers, index and profiles (nothing when
 * it is not lazy).  -1 when out of memory. */
int relayout_materialize(relayout_t *r);

/* Frees what relayout_build made. */
void relayout_build_free(relayout_t *r);

/* Every buffer's profile from scratch (the offsets, order, index and full
 * buffers being current): the full ones' between counts and checkpoints,
 * the others from the buffers meeting their span before them.  -1 when
 * out of memory. */
int relayout_build_profiles(relayout_t *r);

/* (Re)builds r's time index from its order. */
int relayout_index_build(relayout_t *r);
void relayout_index_free(rl_index_t *ix);

/* The canonical nodes of leaves [l, r] (out holds 2 * depth), and the
 * path root..leaf (out holds depth + 1); each returns how many. */
int32_t relayout_index_cover(const rl_index_t *ix, int32_t l, int32_t r, int32_t *out);
int32_t relayout_index_path(const rl_index_t *ix, int32_t leaf, int32_t *out);

/* The tree's depth bound: nodes on a path. */
int32_t relayout_index_depth(const rl_index_t *ix);

/* The first leaf whose coordinate is > v (ix->leaves when none), and the
 * last whose coordinate is <= v (-1 when none). */
int32_t relayout_index_first_gt(const rl_index_t *ix, int64_t v);
int32_t relayout_index_last_le(const rl_index_t *ix, int64_t v);

/* Removes id (at position pos) from the index / inserts it, using r->lo,
 * r->hi and r->pos.  -1 when out of memory. */
void relayout_index_remove(relayout_t *r, int32_t id, int32_t pos);
int relayout_index_insert(relayout_t *r, int32_t id);

/* Calls fn(ud, id) for every buffer of the index meeting [a, b] whose
 * position p has 2p > t (after) or 2p < t (before), each once; stops when
 * fn returns nonzero and returns that.  path and nodes hold a path and a
 * cover of the tree. */
typedef int (*relayout_visit_fn)(void *ud, int32_t id);
int relayout_index_walk(const relayout_t *r, int64_t a, int64_t b, int64_t t, bool after, int32_t *path,
                        int32_t *nodes, relayout_visit_fn fn, void *ud);

/* Appends a profile to r's pool and points *slot (an entry of r->prof or
 * r->bprof) at it; -1 when out of memory. */
int relayout_pool_put(relayout_t *r, rl_prof_t *slot, const rl_seg_t *v, int32_t n);

/* The full buffers: flags, span, order, next and previous (from r->order
 * and r->pos); -1 when out of memory. */
int relayout_full_index(relayout_t *r);

/* How many full buffers lie at positions p with 2p < t. */
int32_t relayout_full_before(const relayout_t *r, int64_t t);

/* The profiles of the full buffers from scratch (their between counts
 * and the checkpoints); -1 when out of memory. */
int relayout_full_profiles(relayout_t *r);

/* out = the profile of the full buffer of rank f over [lo, hi); a and b
 * are scratch.  -1 when out of memory. */
int relayout_full_c(const relayout_t *r, int32_t f, int64_t lo, int64_t hi, rl_list_t *out, rl_list_t *a, rl_list_t *b);

/* out = the counts of the full buffers of rank < nf over [lo, hi). */
int relayout_full_prefix(const relayout_t *r, int32_t nf, int64_t lo, int64_t hi, rl_list_t *out, rl_list_t *a,
                         rl_list_t *b);

/* The between counts of the full buffer of rank f from the order (b is
 * scratch); the trees again above the ranks ranks[0..n) (whose between
 * counts or placements changed; ranks is used up). */
int relayout_full_between(relayout_t *r, int32_t f, rl_list_t *b);
int relayout_full_update(relayout_t *r, int32_t *ranks, int32_t n);


/* ---- a run ------------------------------------------------------------------ */

/* A change to one buffer's profile: a placement taken off and/or added. */
typedef struct rl_delta {
    int64_t rlo, rhi; /* taken off; rlo == rhi: none */
    int64_t alo, ahi; /* added */
    int32_t next;     /* the buffer's previous delta, -1 */
    int32_t reserved;
} rl_delta_t;

/* A buffer whose presence, size or span differs from the reference. */
typedef struct rl_new {
    int64_t raw, size, start, end, len;
    int64_t off;      /* where the run placed it (present, with bytes) */
    int32_t id;
    int32_t slot;     /* reference positions before it in the new order */
    int32_t prof_off, prof_n; /* its profile, in the work's pool */
    uint8_t present;
    uint8_t reserved[7];
} rl_new_t;

struct relayout_work {
    int32_t n;
    uint32_t epoch;   /* stamps of this run in the arrays below */
    uint32_t *chg;    /* changed: cidx is its rl_new */
    int32_t *cidx;
    uint32_t *mark;   /* has deltas: dhead */
    int32_t *dhead;
    uint32_t *moved;  /* re-placed elsewhere: noff */
    int64_t *noff;
    uint32_t *built;  /* its new profile is wp in pool */
    rl_prof_t *wp;
    uint32_t *bbuilt; /* a full buffer's new between counts are wb in pool */
    rl_prof_t *wb;
    bool chain;       /* the full buffers are handled as a chain */
    int32_t full_moved; /* full buffers re-placed elsewhere so far */
    int32_t full_touched; /* full buffers looked at */
    uint64_t *bits;   /* reference positions with deltas, not yet handled */
    rl_delta_t *deltas;
    int32_t n_deltas, cap_deltas;
    rl_new_t *cn;     /* every changed buffer */
    int32_t n_cn, cap_cn;
    int32_t *placed;  /* indices of cn present with bytes, in the new order */
    int32_t n_placed;
    int32_t *touched, *movedl, *changed;
    int32_t n_touched, n_moved;
    rl_seg_t *pool;
    int32_t pool_n, pool_cap;
    rl_list_t prof, sum, scratch;
    rl_list_t lx[4];  /* scratch for the full buffers' profiles */
    int64_t *wlo, *whi; /* a full buffer's window of offsets where wp differs */
    rl_edge_t *edges;
    int32_t cap_edges;
    int32_t *path, *nodes;
    int64_t budget;   /* work left before the full layout is cheaper */
    int64_t height;
    bool full;        /* laid out from scratch: the new state is kept whole */
    arena_buf_t *fbufs;
    uint8_t *fpresent;
    int64_t *foff;
    int32_t fmoved;   /* of the buffers no change touched, how many foff put elsewhere */
    bool overflow;    /* a size or the total overflows: the one-off bestfit says which */
    /* the engine of the layouts from scratch (relayout_engine.c): the set
     * it holds, per id, and the new order */
    bestfit_t *eng;
    arena_buf_t *ebufs;
    uint8_t *epresent;
    int32_t *eorder;
    int32_t n_eorder; /* when the last run laid out through the engine: eorder's length (its new §3 order), else -1 */
    const relayout_t *ref;
    int64_t version;
    relayout_stats_t stats;
};

static inline bool rl_changed(const relayout_work_t *w, int32_t id) { return w->chg[id] == w->epoch; }

/* Where id lies in the run: re-placed, else the reference's offset. */
static inline int64_t rl_cur_off(const relayout_t *r, const relayout_work_t *w, int32_t id)
{
    return w->moved[id] == w->epoch ? w->noff[id] : r->off[id];
}

/* Sets r's buffers from (bufs, present): aligned sizes, the total. */
int relayout_set_buffers(relayout_t *r, const arena_buf_t *bufs, const uint8_t *present, rs_error_t *err);

/* Hands d to every clean buffer meeting [a, b] whose position p has 2p > t
 * (later in the new order than what changed), and to the chain of the full
 * buffers.  False to give up (the work is as much as a layout from
 * scratch, or memory ran out). */
bool relayout_push(const relayout_t *r, relayout_work_t *w, int64_t a, int64_t b, int64_t t, const rl_delta_t *d);

/* A change at new-order point t reaches the first full buffer after it
 * with d (NULL: its chain only is to be looked at).  False to give up. */
bool relayout_chain_event(const relayout_t *r, relayout_work_t *w, int64_t t, const rl_delta_t *d);

/* A clean buffer with deltas, a full one in the chain, the k-th placed
 * changed buffer: each re-placed where its union changed, its change handed
 * on.  False to give up. */
bool relayout_handle_clean(const relayout_t *r, relayout_work_t *w, int32_t id, int32_t n_placed);
bool relayout_handle_full(const relayout_t *r, relayout_work_t *w, int32_t id, int32_t n_placed);
bool relayout_handle_changed(const relayout_t *r, relayout_work_t *w, int32_t k);

/* The §3 greedy over the new state (kept whole for a rebase) through w's
 * engine, the new order's buffers before the stop pinned: the reference
 * positions before upto_pos and the first upto_ci placed changed buffers
 * (upto_pos < 0: none).  Needs the run's changed buffers with their
 * slots, and w->placed sorted. */
int relayout_run_engine(const relayout_t *r, relayout_work_t *w, const arena_buf_t *bufs, const uint8_t *present,
                        int32_t upto_pos, int32_t upto_ci, rs_error_t *err);
void relayout_engine_free(relayout_work_t *w);

/* w->prof = v[0..n) with id's deltas: 1 when a count went unknown, -1
 * when out of memory. */
int relayout_apply_deltas(relayout_work_t *w, int32_t id, const rl_seg_t *v, int32_t n);


#endif
