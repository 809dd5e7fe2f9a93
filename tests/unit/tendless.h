/*
 * tendless.h: an input that never ends, for the readers' limits: a prefix,
 * then one byte for ever, counting what was read. The including file
 * defines _GNU_SOURCE before any header (fopencookie is a glibc stream).
 */
#ifndef QN_TENDLESS_H
#define QN_TENDLESS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* Past `cap` bytes the stream ends, so a reader that does not stop by
 * itself finishes (and fails its checks) instead of hanging the suite. */
typedef struct t_endless {
    const char *prefix;
    size_t plen;
    char fill;
    uint64_t served, cap;
} t_endless;

static ssize_t t_endless_read(void *cookie, char *buf, size_t size)
{
    t_endless *e = cookie;
    size_t n = 0;

    if (e->served >= e->cap)
        return 0;
    if (size > e->cap - e->served)
        size = (size_t)(e->cap - e->served);
    while (n < size && e->served + n < e->plen) {
        buf[n] = e->prefix[e->served + n];
        n++;
    }
    memset(buf + n, e->fill, size - n);
    e->served += size;
    return (ssize_t)size;
}

/* Open e (filled in by the caller, served 0) as a read-only stream. */
static inline FILE *t_endless_open(t_endless *e)
{
    cookie_io_functions_t io = {t_endless_read, NULL, NULL, NULL};

    e->plen = strlen(e->prefix);
    e->served = 0;
    return fopencookie(e, "r", io);
}

#endif
