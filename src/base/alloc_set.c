/*
 * alloc_set.c: qn_set_allocator, the one place that points both quench's
 * own allocations (mem.c) and jansson's (json_alloc.c) at an allocator;
 * apart from them so neither of the two depends on the other.
 */
#include "base/err.h"
#include "base/mem.h"

int qn_set_allocator(const qn_allocator *a, unsigned libs, qn_err *err)
{
    if (a && (!a->malloc_fn || !a->calloc_fn || !a->realloc_fn))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "an allocator needs all three functions");
    qn_mem__use(a);
    qn_json_hook((libs & QN_ALLOC_JANSSON) != 0);
    return QN_OK;
}
