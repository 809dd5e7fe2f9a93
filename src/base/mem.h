/*
 * mem.h: allocation. Running out of memory is an error like any other:
 * the qn_* allocators return NULL (a failed qn_realloc leaves p as it
 * was) and their callers return QN_ENOMEM (qn_err_nomem) with their
 * objects left valid; only cmd/ prints "quench: out of memory" and exits
 * 71. Every allocation goes through the allocator qn_set_allocator
 * installs (quench/common.h; the C library's by default), which is how
 * cmd/ and the tests inject failures (QN_FAIL_ALLOC: cmd/cli_mem.c). The
 * array helpers check the size multiplication for overflow (NULL).
 */
#ifndef QN_MEM_H
#define QN_MEM_H

#include <stddef.h>

#include "quench/common.h"

void *qn_malloc(size_t size);
void *qn_calloc(size_t n, size_t size); /* zeroed; overflow-checked */
void *qn_realloc(void *p, size_t size);
void *qn_reallocarray(void *p, size_t n, size_t size); /* overflow-checked */
char *qn_strdup(const char *s);
char *qn_strndup(const char *s, size_t n);
void *qn_memdup(const void *p, size_t size);

/* Fill err (may be NULL) with QN_ENOMEM "out of memory"; returns
 * QN_ENOMEM, so failing is `return qn_err_nomem(err);`. */
int qn_err_nomem(qn_err *err);

#define QN_ALLOC(type) ((type *)qn_calloc(1, sizeof(type)))
#define QN_ALLOCN(n, type) ((type *)qn_calloc((n), sizeof(type)))
#define QN_REALLOCN(p, n, type)                                                \
    ((type *)qn_reallocarray((p), (n), sizeof(type)))

/*
 * jansson allocates through the same allocator once qn_set_allocator was
 * asked to (QN_ALLOC_JANSSON). jansson reports some failed allocations as
 * a syntax error ("invalid token" inside a long string): qn_json_nomem()
 * tells, after a failed json_load*, whether an allocation of this thread
 * failed since qn_json_nomem_clear(), so the caller says QN_ENOMEM, not
 * that the input is malformed.
 */
void qn_json_nomem_clear(void);
int qn_json_nomem(void);
void qn_json_hook(int on); /* qn_set_allocator: route jansson or not */
void qn_mem__use(const qn_allocator *a); /* qn_set_allocator; NULL: libc */

/* Ask for transparent huge pages over the whole 2 MB pages of a fresh,
 * not yet touched block (large, randomly read tables); a hint only. */
void qn_mem_advise_huge(void *p, size_t bytes);

#endif
