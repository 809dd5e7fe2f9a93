/*
 * buf.h: a growable byte buffer for text output (after git's strbuf).
 *
 * Invariant: `buf` is always NUL-terminated and `len` excludes the NUL; a
 * buffer from QN_BUF_INIT points at a shared empty string and owns nothing
 * until the first append. Release with qn_buf_release(). Out of memory is
 * sticky (quench/common.h): an append that cannot allocate sets `failed`
 * and later appends do nothing; check once at the end (qn_buf_check).
 */
#ifndef QN_BUF_H
#define QN_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "base/err.h"

void qn_buf_init(qn_buf *b);
void qn_buf_release(qn_buf *b);
void qn_buf_reset(qn_buf *b); /* len = 0, keeps the allocation */
/* Room for `extra` more bytes: 0, or -1 (failed set) when out of memory
 * or failed already; a caller writing into b->buf itself must check. */
int qn_buf_grow(qn_buf *b, size_t extra);
void qn_buf_add(qn_buf *b, const void *data, size_t len);
void qn_buf_adds(qn_buf *b, const char *s);
void qn_buf_addc(qn_buf *b, char c);
void qn_buf_addf(qn_buf *b, const char *fmt, ...) QN_PRINTF(2, 3);
void qn_buf_vaddf(qn_buf *b, const char *fmt, va_list ap);
/* Mark b failed: memory ran out for its text elsewhere (a scratch array
 * the writer needed); as an append that failed. */
void qn_buf_fail(qn_buf *b);
/* QN_OK, or QN_ENOMEM (err filled) when an append failed. */
int qn_buf_check(const qn_buf *b, qn_err *err);
/*
 * A program whose policy is to stop at the first allocation failure (the
 * CLI: exit 71) may have fn called whenever an append fails, before
 * `failed` is set, instead of checking every buffer it builds; fn == NULL
 * (the default) restores the sticky flag alone. Set once, before any
 * other call; the library never sets it.
 */
void qn_buf_on_failure(void (*fn)(void));

int qn_buf_check(const qn_buf *b, qn_err *err);
/* Hand the contents to the caller (free() them); b is left empty. */
char *qn_buf_detach(qn_buf *b, size_t *len_out);

/*
 * Append the exact decimal product of `n` factors (each >= 1). Used for
 * group orders such as kernel sizes, which overflow 64 bits on big boards.
 */
void qn_buf_add_product(qn_buf *b, const unsigned *factors, size_t n);

#endif
