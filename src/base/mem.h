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

/* Print "quench: out of memory" and exit with status 71. */
_Noreturn void qn_mem_oom(void);

/* Ask for transparent huge pages over the whole 2 MB pages of a fresh,
 * not yet touched block (large, randomly read tables); a hint only. */
void qn_mem_advise_huge(void *p, size_t bytes);

/*
 * Allocation failure injection for tests: when QN_FAIL_ALLOC=N is set in the
 * environment, the N-th allocation (1-based, counted across threads) fails
 * as if memory ran out, and "quench: injected allocation failure N" goes to
 * stderr first, so a sweep over N knows when N is past the last allocation.
 * qn_mem_hook_sqlite() (src/store_alloc.c) routes SQLite's allocations
 * through the same count; a failure there returns NULL to SQLite, which
 * reports SQLITE_NOMEM (QN_ENOMEM, exit 71) or recovers. libyaml's own
 * allocations are not counted.
 *
 * qn_mem_hook_jansson() (src/json_alloc.c) makes jansson allocate under this
 * policy (exit 71, counted): call it once before any JSON is read, as the
 * CLI does; jansson left alone reports a failed allocation inside a string
 * as a syntax error.
 */
void qn_mem_fail_after(long n); /* n < 0: never; resets the count */
long qn_mem_counted(void); /* allocations counted since qn_mem_fail_after */
int qn_mem_inject(void); /* 1 when this allocation is the one to fail */
void qn_mem_hook_sqlite(void);  /* before any other SQLite call */
void qn_mem_hook_jansson(void);

#define QN_NEW(type) ((type *)qn_xcalloc(1, sizeof(type)))
#define QN_NEWN(n, type) ((type *)qn_xcalloc((n), sizeof(type)))
#define QN_RENEW(p, n, type) ((type *)qn_xreallocarray((p), (n), sizeof(type)))

#endif
