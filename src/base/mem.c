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
