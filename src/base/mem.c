/*
 * mem.c: allocation that never returns NULL. Out of memory ends the process
 * with a message and EX_OSERR (71); see mem.h for the failure-injection hook.
 */
#include "base/mem.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static long fail_at = -1; /* allocation number that fails; -1 = never */
static atomic_long nalloc; /* worker threads allocate too */

void qn_mem_fail_after(long n)
{
    fail_at = n;
    atomic_store(&nalloc, 0);
}

long qn_mem_counted(void)
{
    return atomic_load(&nalloc);
}

_Noreturn void qn_mem_oom(void)
{
    fputs("quench: out of memory\n", stderr);
    exit(71);
}

int qn_mem_inject(void)
{
    if (fail_at < 0 || atomic_fetch_add(&nalloc, 1) + 1 != fail_at)
        return 0;
    fprintf(stderr, "quench: injected allocation failure %ld\n", fail_at);
    return 1;
}

static void count(void)
{
    if (qn_mem_inject())
        qn_mem_oom();
}

void *qn_xmalloc(size_t size)
{
    void *p;

    count();
    p = malloc(size ? size : 1);
    if (!p)
        qn_mem_oom();
    return p;
}

void *qn_xcalloc(size_t n, size_t size)
{
    void *p;

    count();
    if (n && size > SIZE_MAX / n)
        qn_mem_oom();
    p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        qn_mem_oom();
    return p;
}

void *qn_xrealloc(void *p, size_t size)
{
    void *q;

    count();
    q = realloc(p, size ? size : 1);
    if (!q)
        qn_mem_oom();
    return q;
}

void *qn_xreallocarray(void *p, size_t n, size_t size)
{
    if (n && size > SIZE_MAX / n)
        qn_mem_oom();
    return qn_xrealloc(p, n * size);
}

char *qn_xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = qn_xmalloc(len + 1);

    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *qn_xstrdup(const char *s)
{
    return qn_xstrndup(s, SIZE_MAX);
}

void *qn_xmemdup(const void *p, size_t size)
{
    void *d = qn_xmalloc(size);

    memcpy(d, p, size);
    return d;
}

/*
 * Large matrices (16384^2 bits is 32 MB) are walked a row at a time in
 * stripes of columns, one 4 KB page per row or two, and a large hash
 * table (the seen-set's slots) is read at random: with 4 KB pages every
 * access misses the TLB, and first touching 32 MB page by page cost
 * 0.2 s of CPU on the project's machine. Transparent huge pages (Linux,
 * where the kernel offers them on request) fix both; the hint is best
 * effort and changes no result. Only whole 2 MB pages inside the block
 * can be huge.
 */
void qn_mem_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);

    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
