/* hlo_frames: the source tables XLA prints between the HloModule line and
 * the first computation (FileNames, FunctionNames, FileLocations,
 * StackFrames; DESIGN §10 "Source tables"), and an instruction's
 * stack_frame_id followed through them to the user's own line. */
#include "model/hlo_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

enum table { T_FILES, T_FUNCS, T_LOCS, T_FRAMES };
static const char *TABLES[] = { "FileNames", "FunctionNames", "FileLocations", "StackFrames" };

static int table_at(const hp_t *p)
{
    for (int k = 0; k < 4; k++) {
        size_t n = strlen(TABLES[k]);
        if (p->len - p->pos > n && memcmp(p->s + p->pos, TABLES[k], n) == 0 &&
            !hlo_name_char((unsigned char)p->s[p->pos + n]))
            return k;
    }
    return -1;
}

bool hlo_is_table(const hp_t *p) { return p->pos < p->len && table_at(p) >= 0; }

/* A quoted string with C escapes: *out its inside. */
static int read_quoted(hp_t *p, slice_t *out, const char *what)
{
    int rc = hlo_skip_ws(p);
    if (rc)
        return rc;
    if (hlo_peek(p) != '"')
        return hlo_expected(p, what);
    loc_t at = hlo_here(p);
    hlo_advance(p);
    out->off = p->pos;
    while (p->pos < p->len && p->s[p->pos] != '"' && p->s[p->pos] != '\n') {
        if (p->s[p->pos] == '\\' && p->pos + 1 < p->len)
            hlo_advance(p);
        hlo_advance(p);
    }
    if (hlo_peek(p) != '"')
        return hlo_fail_at(p, at, "unterminated string (a name in a source table ends on its line)");
    out->len = p->pos - out->off;
    hlo_advance(p);
    return RS_OK;
}

/* {key=N key=N ...}: the numbers of the keys named in keys (n of them) into
 * v (-1 when absent); others skipped.  An unclosed '{' is reported where it
 * opened, with where the file ended. */
static int read_fields(hp_t *p, const char *const *keys, int n, int64_t *v, const char *what)
{
    int rc = hlo_skip_ws(p);
    if (rc)
        return rc;
    loc_t open = hlo_here(p);
    if (!hlo_accept(p, '{'))
        return hlo_expected(p, what);
    for (int k = 0; k < n; k++)
        v[k] = -1;
    for (;;) {
        /* blanks only: a row is one line */
        while (hlo_peek(p) == ' ' || hlo_peek(p) == '\t' || hlo_peek(p) == ',')
            hlo_advance(p);
        if (hlo_accept(p, '}'))
            break;
        if (p->pos >= p->len || hlo_peek(p) == '\n' || hlo_peek(p) == '\r')
            return hlo_fail_at(p, open, "this '{' is not closed on its line (expected '}' before line %d ends)",
                               open.line);
        slice_t key;
        loc_t kat = hlo_here(p);
        if ((rc = hlo_read_name(p, &key, "a field (NAME=NUMBER) or '}'")))
            return rc;
        if (!hlo_accept(p, '='))
            return hlo_expected(p, "'=' after the field's name");
        bool neg = hlo_accept(p, '-');
        int64_t x;
        if ((rc = hlo_read_int(p, &x, "a number")))
            return rc;
        for (int k = 0; k < n; k++)
            if (hlo_slice_is(p, key, keys[k])) {
                if (neg)
                    return hlo_fail_at(p, kat, "%s cannot be negative", keys[k]);
                v[k] = x;
            }
    }
    for (int k = 0; k < n; k++)
        if (v[k] < 0)
            return hlo_fail_at(p, open, "%s: no %s= in this row", what, keys[k]);
    return RS_OK;
}

static int grow(hp_t *p, void **a, int32_t *cap, int32_t n, size_t size)
{
    return vec_reserve(a, cap, (int64_t)n + 1, size) ? hlo_oom(p) : RS_OK;
}

int hlo_parse_table(hp_t *p)
{
    int t = table_at(p);
    src_tables_t *st = &p->src;
    int32_t *count = t == T_FILES ? &st->n_files : t == T_FUNCS ? &st->n_funcs : t == T_LOCS ? &st->n_locs : &st->n_frames;
    p->pos += strlen(TABLES[t]);
    if (*count)
        return hlo_fail_at(p, hlo_here(p), "a second %s table", TABLES[t]);
    int rc;
    for (;;) {
        if ((rc = hlo_skip_ws(p)))
            return rc;
        int c = hlo_peek(p);
        if (c < '0' || c > '9')
            return RS_OK;
        loc_t at = hlo_here(p);
        int64_t id;
        if ((rc = hlo_read_int(p, &id, "a row number")))
            return rc;
        if (id != (int64_t)*count + 1)
            return hlo_fail_at(p, at, "%s row numbered %lld where %d was expected (rows are numbered 1, 2, ...)",
                               TABLES[t], (long long)id, (int)*count + 1);
        switch (t) {
        case T_FILES:
        case T_FUNCS: {
            slice_t **a = t == T_FILES ? &st->files : &st->funcs;
            int32_t *cap = t == T_FILES ? &st->cap_files : &st->cap_funcs;
            if ((rc = grow(p, (void **)a, cap, *count, sizeof **a)))
                return rc;
            if ((rc = read_quoted(p, &(*a)[*count], t == T_FILES ? "a file name in quotes" : "a function name in quotes")))
                return rc;
            break;
        }
        case T_LOCS: {
            static const char *const K[] = { "file_name_id", "function_name_id", "line" };
            int64_t v[3];
            if ((rc = grow(p, (void **)&st->locs, &st->cap_locs, *count, sizeof *st->locs)) ||
                (rc = read_fields(p, K, 3, v, "a file location {file_name_id=F function_name_id=G line=L ...}")))
                return rc;
            st->locs[*count] = (src_loc_t){ v[0], v[1], v[2], at };
            break;
        }
        default: {
            static const char *const K[] = { "file_location_id", "parent_frame_id" };
            int64_t v[2];
            if ((rc = grow(p, (void **)&st->frames, &st->cap_frames, *count, sizeof *st->frames)) ||
                (rc = read_fields(p, K, 2, v, "a stack frame {file_location_id=L parent_frame_id=P}")))
                return rc;
            st->frames[*count] = (src_frame_t){ v[0], v[1], at };
            break;
        }
        }
        (*count)++;
    }
}

void hlo_frames_free(hp_t *p)
{
    free(p->src.files);
    free(p->src.funcs);
    free(p->src.locs);
    free(p->src.frames);
    free(p->src.user);
    free(p->src.state);
}

/* Whether a file name is the user's: not inside an installed package. */
static bool user_file(const hp_t *p, slice_t f)
{
    static const char *PKG[] = { "site-packages/", "dist-packages/" };
    for (int k = 0; k < 2; k++) {
        size_t n = strlen(PKG[k]);
        for (size_t i = 0; i + n <= f.len; i++)
            if (memcmp(p->s + f.off + i, PKG[k], n) == 0)
                return false;
    }
    return true;
}

/* Frame f's location row checked: its file and function ids in range. */
static int check_location(hp_t *p, const src_frame_t *fr, const src_loc_t **loc)
{
    const src_tables_t *st = &p->src;
    if (fr->loc < 1 || fr->loc > st->n_locs)
        return hlo_fail_at(p, fr->at, "file_location_id=%lld is not a row of FileLocations (1 to %d)",
                           (long long)fr->loc, (int)st->n_locs);
    *loc = &st->locs[fr->loc - 1];
    if ((*loc)->file < 1 || (*loc)->file > st->n_files)
        return hlo_fail_at(p, (*loc)->at, "file_name_id=%lld is not a row of FileNames (1 to %d)",
                           (long long)(*loc)->file, (int)st->n_files);
    if ((*loc)->func < 1 || (*loc)->func > st->n_funcs)
        return hlo_fail_at(p, (*loc)->at, "function_name_id=%lld is not a row of FunctionNames (1 to %d)",
                           (long long)(*loc)->func, (int)st->n_funcs);
    return RS_OK;
}

/* The caller of frame f (1-based): XLA prints its id plus one, 1 for none;
 * 0 when f has none. */
static int caller_of(hp_t *p, int64_t f, int64_t *caller)
{
    const src_frame_t *fr = &p->src.frames[f - 1];
    if (fr->parent == 1) {
        *caller = 0;
        return RS_OK;
    }
    *caller = fr->parent - 1;
    if (*caller < 1 || *caller > p->src.n_frames)
        return hlo_fail_at(p, fr->at, "parent_frame_id=%lld names frame %lld, not a row of StackFrames (1 to %d; "
                                      "XLA prints the caller's id plus one, 1 for none)",
                           (long long)fr->parent, (long long)*caller, (int)p->src.n_frames);
    return RS_OK;
}

/* Follows frame f's chain once, filling user[] for every frame on it: the
 * innermost frame at or above it whose file is the user's (0 when none).
 * Iterative: a chain may be as long as the table. */
static int follow(hp_t *p, int64_t f)
{
    src_tables_t *st = &p->src;
    int64_t g = f;
    /* down the chain, marking, to the first frame already done (or none) */
    while (g && st->state[g - 1] != 2) {
        if (st->state[g - 1] == 1)
            return hlo_fail_at(p, st->frames[g - 1].at, "stack frame %lld is its own caller (the chain of "
                                                        "parent_frame_id comes back to it)", (long long)g);
        st->state[g - 1] = 1;
        const src_loc_t *loc;
        int64_t caller;
        int rc = check_location(p, &st->frames[g - 1], &loc);
        if (rc || (rc = caller_of(p, g, &caller)))
            return rc;
        g = caller;
    }
    int32_t above = g ? st->user[g - 1] : 0;
    /* back up from f: each frame's answer is itself when the user's, else
     * its caller's; walked again from f, the chain is now known good */
    int64_t n = 0;
    for (int64_t h = f; h != g; n++) {
        int64_t caller;
        (void)caller_of(p, h, &caller);
        h = caller;
    }
    /* frames on the chain, innermost first: fill from the outermost */
    int64_t *chain = malloc(((size_t)n + 1) * sizeof *chain);
    if (!chain)
        return hlo_oom(p);
    int64_t k = 0;
    for (int64_t h = f; h != g; k++) {
        chain[k] = h;
        int64_t caller;
        (void)caller_of(p, h, &caller);
        h = caller;
    }
    for (k = n - 1; k >= 0; k--) {
        int64_t h = chain[k];
        const src_loc_t *loc = &st->locs[st->frames[h - 1].loc - 1];
        if (user_file(p, st->files[loc->file - 1]))
            above = (int32_t)h;
        st->user[h - 1] = above;
        st->state[h - 1] = 2;
    }
    free(chain);
    return RS_OK;
}

int hlo_frame_origin(hp_t *p, const ins_t *in, slice_t *file, slice_t *func, int64_t *line)
{
    src_tables_t *st = &p->src;
    *file = *func = (slice_t){ 0, 0 };
    *line = -1;
    if (in->frame == 0)
        return RS_OK;
    if (in->frame < 1 || in->frame > st->n_frames) {
        loc_t at = in->at;
        for (size_t i = at.pos; i < in->frame_pos && i < p->len; i++)
            if (lex_line_ends(p->s, p->len, i)) {
                at.line++;
                at.line_start = i + 1;
            }
        at.pos = in->frame_pos;
        if (in->frame < 0)
            return hlo_fail_at(p, at, "stack_frame_id is not a frame number");
        return hlo_fail_at(p, at, "stack_frame_id=%lld is not a row of StackFrames (1 to %d)", (long long)in->frame,
                           (int)st->n_frames);
    }
    if (!st->user) {
        st->user = calloc((size_t)st->n_frames, sizeof *st->user);
        st->state = calloc((size_t)st->n_frames, 1);
        if (!st->user || !st->state)
            return hlo_oom(p);
    }
    int rc = st->state[in->frame - 1] == 2 ? RS_OK : follow(p, in->frame);
    if (rc)
        return rc;
    int64_t f = st->user[in->frame - 1] ? st->user[in->frame - 1] : in->frame;
    const src_loc_t *loc = &st->locs[st->frames[f - 1].loc - 1];
    *file = st->files[loc->file - 1];
    *func = st->funcs[loc->func - 1];
    *line = loc->line;
    return RS_OK;
}
