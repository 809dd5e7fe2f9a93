/*
 * json_alloc.c: jansson allocates through quench's allocator when
 * qn_set_allocator asks for it (QN_ALLOC_JANSSON), and a failed
 * allocation is remembered per thread (qn_json_nomem, mem.h): jansson
 * itself reports one in the middle of a string as "invalid token", which
 * would turn running out of memory into a malformed input. It also says
 * which jansson runs (version.h).
 */
#include <jansson.h>
#include <stdlib.h>

#include "base/mem.h"
#include "base/version.h"

static _Thread_local int js_failed;
static int hooked; /* jansson's allocator is ours */

static void *js_malloc(size_t n)
{
    void *p = qn_malloc(n);

    if (!p) {
        /* the readers (json_pack.c, json_in.c) look, and say QN_ENOMEM;
         * jansson itself does not fail safely (its lexer ignores a
         * failed append and then reads and writes past its string
         * buffer), so it gets the memory from the C library when there
         * is any (docs/RELIABILITY.md, "Out of memory: jansson") */
        js_failed = 1;
        p = malloc(n); /* NULL only when the C library has none either */
    }
    return p;
}

void qn_json_hook(int on)
{
    /* leave a program's own jansson allocator alone unless asked */
    if (on)
        json_set_alloc_funcs(js_malloc, free);
    else if (hooked)
        json_set_alloc_funcs(malloc, free);
    hooked = on;
}

void qn_json_nomem_clear(void)
{
    js_failed = 0;
}

int qn_json_nomem(void)
{
    return js_failed;
}

/* The version of the jansson linked in (not the headers built against):
 * what a bug report needs, as for the other libraries. */
const char *qn_version_jansson(void)
{
    return jansson_version_str();
}
