/* xla_report: XLA's own figure for a dump (DESIGN §10), read from the
 * memory-usage report --xla_dump_to writes beside it. */
#include "xla_report.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "rfile.h"

int64_t xla_report_bytes(const char *path)
{
    size_t n = strlen(path);
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : n;
    size_t dir = slash ? (size_t)(slash - path + 1) : 0;
    char *cand[2] = { malloc(n + 32), malloc(n + 32) };
    int64_t v = -1;
    if (cand[0] && cand[1]) {
        snprintf(cand[0], n + 32, "%.*s-memory-usage-report.txt", (int)stem, path);
        snprintf(cand[1], n + 32, "%.*smemory-usage-report.txt", (int)dir, path);
    }
    for (int k = 0; k < 2 && v < 0 && cand[k]; k++) {
        char *text = NULL;
        size_t len;
        rs_error_t e;
        if (rfile_read(cand[k], &text, &len, &e) == RS_OK) {
            const char *t = text ? strstr(text, "Total bytes:") : NULL;
            if (t) {
                char *end;
                long long x = strtoll(t + 12, &end, 10);
                if (end != t + 12 && x >= 0)
                    v = x;
            }
        }
        free(text);
    }
    free(cand[0]);
    free(cand[1]);
    return v;
}

