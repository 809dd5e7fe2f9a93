/*
 * mem.c: allocation through the allocator qn_set_allocator installs (the
 * C library's by default); a failure returns NULL (mem.h).
 */
#include "base/mem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/err.h"

static qn_allocator use = {malloc, calloc, realloc};

void qn_mem__use(const qn_allocator *a)
{
    use = a ? *a : (qn_allocator){malloc, calloc, realloc};
}

int qn_err_nomem(qn_err *err)
{
    return qn_err_set(err, QN_ENOMEM, 0, 0, "out of memory");
}

void *qn_malloc(size_t size)
{
    return use.malloc_fn(size ? size : 1);
}

void *qn_calloc(size_t n, size_t size)
{
    if (n && size > SIZE_MAX / n)
        return NULL;
    return use.calloc_fn(n ? n : 1, size ? size : 1);
}

void *qn_realloc(void *p, size_t size)
{
    return use.realloc_fn(p, size ? size : 1);
}

void *qn_reallocarray(void *p, size_t n, size_t size)
{
    if (n && size > SIZE_MAX / n)
        return NULL;
    return qn_realloc(p, n * size);
}

char *qn_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = qn_malloc(len + 1);

    if (!d)
        return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *qn_strdup(const char *s)
{
    return qn_strndup(s, SIZE_MAX);
}

void *qn_memdup(const void *p, size_t size)
{
    void *d = qn_malloc(size);

    if (d && size)
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
