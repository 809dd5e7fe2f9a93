/*
 * mem.h: the aborting allocator. Running out of memory is not an input
 * error: qn_xmalloc and friends print "quench: out of memory" and exit with
 * status 71 (EX_OSERR) rather than return NULL, so callers never check.
 * Typed helpers check the size multiplication for overflow.
 */
#ifndef QN_MEM_H
#define QN_MEM_H

#include <stddef.h>

void *qn_xmalloc(size_t size);
void *qn_xcalloc(size_t n, size_t size);       /* zeroed; overflow-checked */
void *qn_xrealloc(void *p, size_t size);
void *qn_xreallocarray(void *p, size_t n, size_t size); /* overflow-checked */
char *qn_xstrdup(const char *s);
char *qn_xstrndup(const char *s, size_t n);
void *qn_xmemdup(const void *p, size_t size);

/*
 * Allocation failure injection for tests: when QN_FAIL_ALLOC=N is set in the
 * environment, the N-th allocation (1-based) fails as if memory ran out.
 */
void qn_mem_fail_after(long n);

#define QN_NEW(type) ((type *)qn_xcalloc(1, sizeof(type)))
#define QN_NEWN(n, type) ((type *)qn_xcalloc((n), sizeof(type)))
#define QN_RENEW(p, n, type) ((type *)qn_xreallocarray((p), (n), sizeof(type)))

#endif
