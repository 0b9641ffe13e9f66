/* alloc: process-wide allocator settings for a program that runs fits. */
#ifndef RS_ALLOC_H
#define RS_ALLOC_H

/* Keeps freed memory in the process instead of handing it back to the
 * kernel after every layout: a fit lays out thousands of routines of one
 * size, and returning and re-faulting those pages cost 40 % of a large
 * Minimize fit.  The peak is unchanged; up to 64 MiB of freed memory may
 * stay resident.  A no-op outside glibc.  Call once, before any thread. */
void alloc_tune(void);

#endif
