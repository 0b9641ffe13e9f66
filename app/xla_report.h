/* xla_report: XLA's own figure beside an HLO dump (DESIGN §10). */
#ifndef RS_XLA_REPORT_H
#define RS_XLA_REPORT_H

#include <stdint.h>

/* The first "Total bytes: N" of the memory-usage report beside the dump at
 * path (PATH-without-extension-memory-usage-report.txt, or
 * memory-usage-report.txt in its folder); -1 when there is none. */
int64_t xla_report_bytes(const char *path);

#endif
