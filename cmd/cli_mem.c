/*
 * cli_mem.c: the command line's side of allocation. Out of memory reaches
 * the user as "quench: out of memory" and exit status 71 (EX_OSERR),
 * whether a library call returned QN_ENOMEM (cli_report) or the CLI's own
 * allocation failed (cli_oom).
 *
 * Failure injection for tests: when QN_FAIL_ALLOC=N is set in the
 * environment, the N-th allocation (1-based, counted across threads) fails
 * as if memory ran out, and "quench: injected allocation failure N" goes
 * to stderr first, so a sweep over N (tests/faults.sh) knows when N is
 * past the last allocation. The count is that of the allocator handed to
 * libquench (qn_set_allocator): quench's own allocations and jansson's;
 * QN_FAIL_ALLOC_LIBS containing 's' adds SQLite's (qn_store_use_allocator).
 * libyaml's own allocations are not counted.
 *
 * Text built in a qn_buf that runs out of memory ends the command at once
 * (qn_buf_on_failure) rather than print a part of it: the CLI checks no
 * buffer itself.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "cmd.h"
#include "quench/db.h"

static long fail_at = -1;  /* allocation number that fails; -1 = never */
static atomic_long nalloc; /* worker threads allocate too */

_Noreturn void cli_oom(void)
{
    fputs("quench: out of memory\n", stderr);
    exit(QN_EXIT_OSERR);
}

static void *must(void *p)
{
    if (!p)
        cli_oom();
    return p;
}

void *cli_xmalloc(size_t size)
{
    return must(qn_malloc(size));
}

void *cli_xcalloc(size_t n, size_t size)
{
    return must(qn_calloc(n, size));
}

void *cli_xrealloc(void *p, size_t size)
{
    return must(qn_realloc(p, size));
}

void *cli_xreallocarray(void *p, size_t n, size_t size)
{
    return must(qn_reallocarray(p, n, size));
}

char *cli_xstrdup(const char *s)
{
    return must(qn_strdup(s));
}

char *cli_xstrndup(const char *s, size_t n)
{
    return must(qn_strndup(s, n));
}

void *cli_xmemdup(const void *p, size_t size)
{
    return must(qn_memdup(p, size));
}

static int inject(void)
{
    if (fail_at < 0 || atomic_fetch_add(&nalloc, 1) + 1 != fail_at)
        return 0;
    fprintf(stderr, "quench: injected allocation failure %ld\n", fail_at);
    return 1;
}

static void *c_malloc(size_t n)
{
    return inject() ? NULL : malloc(n);
}

static void *c_calloc(size_t n, size_t size)
{
    return inject() ? NULL : calloc(n, size);
}

static void *c_realloc(void *p, size_t n)
{
    return inject() ? NULL : realloc(p, n);
}

void cli_mem_setup(void)
{
    static const qn_allocator counting = {c_malloc, c_calloc, c_realloc};
    const char *fail = getenv("QN_FAIL_ALLOC");
    const char *libs = getenv("QN_FAIL_ALLOC_LIBS");

    /* the CLI's policy: a text it cannot build ends the command, 71 */
    qn_buf_on_failure(cli_oom);

    /* jansson through quench's allocator: its failures then read as out
     * of memory, not as a malformed document (base/mem.h) */
    if (!fail) {
        qn_set_allocator(NULL, QN_ALLOC_JANSSON, NULL);
        return;
    }
    fail_at = atol(fail);
    qn_set_allocator(&counting, QN_ALLOC_JANSSON, NULL);
    if (libs && strchr(libs, 's'))
        qn_store_use_allocator(NULL);
}
