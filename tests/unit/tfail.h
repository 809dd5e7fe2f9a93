/*
 * tfail.h: allocation failure injection for the unit tests, through the
 * public allocator hook (qn_set_allocator): t_fail_after(n) makes the
 * n-th allocation from then on fail (n < 0: none), t_counted() says how
 * many were made since. Counted across threads. With t_fail_say set,
 * "injected allocation failure N" goes to stderr as the allocation fails
 * (a sweep of a whole program learns so that N was met).
 */
#ifndef QN_TFAIL_H
#define QN_TFAIL_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "quench/common.h"

static long t_fail_at = -1;
static atomic_long t_nalloc;
static int t_fail_say;

static int t_inject(void)
{
    if (t_fail_at < 0 || atomic_fetch_add(&t_nalloc, 1) + 1 != t_fail_at)
        return 0;
    if (t_fail_say)
        fprintf(stderr, "injected allocation failure %ld\n", t_fail_at);
    return 1;
}

static void *t_malloc(size_t n)
{
    return t_inject() ? NULL : malloc(n);
}

static void *t_calloc(size_t n, size_t size)
{
    return t_inject() ? NULL : calloc(n, size);
}

static void *t_realloc(void *p, size_t n)
{
    return t_inject() ? NULL : realloc(p, n);
}

/* Install the counting allocator (jansson's allocations too): once, at
 * the start of main. */
static inline void t_alloc_hook(void)
{
    static const qn_allocator a = {t_malloc, t_calloc, t_realloc};

    qn_set_allocator(&a, QN_ALLOC_JANSSON, NULL);
}

static inline void t_fail_after(long n)
{
    t_fail_at = n;
    atomic_store(&t_nalloc, 0);
}

static inline long t_counted(void)
{
    return atomic_load(&t_nalloc);
}

#endif
