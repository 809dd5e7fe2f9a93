/*
 * mem.c: allocation that never returns NULL. Out of memory ends the process
 * with a message and EX_OSERR (71); see mem.h for the failure-injection hook.
 */
#include "quench/mem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fail_at = -1; /* allocation number that fails; -1 = never */
static long nalloc;

void qn_mem_fail_after(long n)
{
    fail_at = n;
    nalloc = 0;
}

static void oom(void)
{
    fputs("quench: out of memory\n", stderr);
    exit(71);
}

static void count(void)
{
    if (fail_at >= 0 && ++nalloc >= fail_at)
        oom();
}

void *qn_xmalloc(size_t size)
{
    void *p;

    count();
    p = malloc(size ? size : 1);
    if (!p)
        oom();
    return p;
}

void *qn_xcalloc(size_t n, size_t size)
{
    void *p;

    count();
    if (n && size > SIZE_MAX / n)
        oom();
    p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom();
    return p;
}

void *qn_xrealloc(void *p, size_t size)
{
    void *q;

    count();
    q = realloc(p, size ? size : 1);
    if (!q)
        oom();
    return q;
}

void *qn_xreallocarray(void *p, size_t n, size_t size)
{
    if (n && size > SIZE_MAX / n)
        oom();
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
