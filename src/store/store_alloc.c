/*
 * store_alloc.c: route SQLite's allocations through quench's allocator
 * (qn_set_allocator, quench/common.h), for a program that budgets memory
 * or a test that injects failures (cmd/cli_mem.c). A failed allocation
 * returns NULL to SQLite, which reports SQLITE_NOMEM: quench must turn
 * that into a clean QN_ENOMEM with the transaction rolled back.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/mem.h"
#include "quench/db.h"

/* SQLite wants each block's size back: keep it in a header. */
#define HDR 16 /* keeps the 16-byte alignment malloc gives */

static void *sq_malloc(int n)
{
    char *p;

    if (n < 0 || !(p = qn_malloc((size_t)n + HDR)))
        return NULL;
    memcpy(p, &n, sizeof n);
    return p + HDR;
}

static void sq_free(void *p)
{
    if (p)
        free((char *)p - HDR);
}

static int sq_size(void *p)
{
    int n = 0;

    if (p)
        memcpy(&n, (char *)p - HDR, sizeof n);
    return n;
}

static void *sq_realloc(void *p, int n)
{
    char *q;

    if (!p)
        return sq_malloc(n);
    if (n < 0 || !(q = qn_realloc((char *)p - HDR, (size_t)n + HDR)))
        return NULL;
    memcpy(q, &n, sizeof n);
    return q + HDR;
}

static int sq_roundup(int n)
{
    return (n + 7) & ~7;
}

static int sq_init(void *app)
{
    (void)app;
    return SQLITE_OK;
}

static void sq_shutdown(void *app)
{
    (void)app;
}

int qn_store_use_allocator(qn_err *err)
{
    static const sqlite3_mem_methods m = {sq_malloc,   sq_free,    sq_realloc,
                                          sq_size,     sq_roundup, sq_init,
                                          sq_shutdown, NULL};

    /* before any other SQLite call: only then may the allocator change */
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK)
        return qn_err_set(err, QN_ERR, 0, 0,
                          "SQLite is in use already: its allocator cannot "
                          "change");
    return QN_OK;
}
