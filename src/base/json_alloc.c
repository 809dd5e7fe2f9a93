/*
 * json_alloc.c: jansson allocates through quench's policy: out of memory
 * exits 71 (mem.h). jansson itself would report a failed allocation in
 * the middle of a string as "invalid token", turning our OOM into a
 * malformed input; and its allocations join the failure-injection count
 * (QN_FAIL_ALLOC). It also says which jansson runs (version.h).
 */
#include <jansson.h>
#include <stdlib.h>

#include "base/mem.h"
#include "base/version.h"

static void *js_malloc(size_t n)
{
    void *p;

    if (qn_mem_inject() || !(p = malloc(n)))
        qn_mem_oom();
    return p;
}

void qn_mem_hook_jansson(void)
{
    json_set_alloc_funcs(js_malloc, free);
}

/* The version of the jansson linked in (not the headers built against):
 * what a bug report needs, as for the other libraries. */
const char *qn_version_jansson(void)
{
    return jansson_version_str();
}
