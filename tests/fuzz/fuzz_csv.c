/* Fuzz target: the MiniMalloc and profile CSV readers (through libcsv);
 * whatever reads as a layout problem is laid out, greedy, timeline and
 * (when small) tight, and the layouts must be valid. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout/arena.h"
#include "layout/layout.h"
#include "layout/tight.h"
#include "minimalloc.h"
#include "profiles.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* up to 1 MiB, so a field of a megabyte is in reach (libcsv grew its
     * buffer 128 bytes at a time: a minute under ASan); only small
     * problems go on to be laid out */
    if (size == 0 || size > 1 << 20)
        return 0;
    rs_error_t err;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    minimalloc_problem_t p;
    if (!minimalloc_read_stream(f, "fuzz.csv", &p, &err)) {
        int64_t *off = malloc(((size_t)p.n + 1) * sizeof *off), h;
        if (off && p.n < 5000 && size <= 1 << 16 && !layout_run(p.bufs, p.n, 1 + (int64_t)(size % 7), LAYOUT_GREEDY, off, &h, &err)) {
            int32_t a, b;
            if (!arena_check(p.bufs, p.n, 1 + (int64_t)(size % 7), off, &a, &b))
                abort(); /* an overlap: a layout bug */
            if (h < arena_max_live(p.bufs, p.n, 1 + (int64_t)(size % 7), NULL))
                abort();
            /* the timeline layout: valid, never below max-live */
            int64_t lh;
            if (!layout_run(p.bufs, p.n, 1 + (int64_t)(size % 7), LAYOUT_TIMELINE, off, &lh, &err) &&
                (!arena_check(p.bufs, p.n, 1 + (int64_t)(size % 7), off, &a, &b) ||
                 lh < arena_max_live(p.bufs, p.n, 1 + (int64_t)(size % 7), NULL)))
                abort();
            /* the search, on a small budget: valid, never above the greedy or the timeline, never below max-live */
            tight_options_t o = { .max_iterations = 1 };
            tight_stats_t st;
            int64_t th;
            if (p.n <= 64 && !tight_layout(p.bufs, p.n, 1 + (int64_t)(size % 7), &o, off, &th, &st, &err) &&
                (!arena_check(p.bufs, p.n, 1 + (int64_t)(size % 7), off, &a, &b) || th > h || th > lh ||
                 th < st.lower_bound || st.proven_bound > th))
                abort();
        }
        free(off);
        minimalloc_free(&p);
    }
    fclose(f);
    f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    profile_list_t l;
    if (!profiles_read_stream(f, "fuzz.csv", &l, &err))
        profiles_free(&l);
    fclose(f);
    return 0;
}
