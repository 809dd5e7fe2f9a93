/*
 * err.h: the error value every fallible libquench function fills in.
 *
 * A fallible function returns an int (QN_OK or a negative qn_code) and takes
 * `qn_err *err` as its last parameter, which may be NULL. qn_err is a plain
 * value: no heap, never needs freeing.
 */
#ifndef QN_ERR_H
#define QN_ERR_H

#include "quench/common.h"

#include <stddef.h>

/*
 * Record an error (if err is not NULL) and return `code`, so failing is one
 * line: `return qn_err_set(err, QN_EINVAL, 0, 0, "...")`. The source field is
 * left as it was; set it with qn_err_source().
 */
int qn_err_set(qn_err *err, qn_code code, int line, int col, const char *fmt,
               ...) QN_PRINTF(5, 6);

/* Set the source (file name) of an error; NULL-safe. */
void qn_err_source(qn_err *err, const char *source);

/* Where the error is, as a message begins: "SOURCE:LINE:COL: ", or
 * "SOURCE: " without a line, or "" without a source; into buf (n bytes,
 * cut short if need be). */
void qn_err_place(const qn_err *err, char *buf, size_t n);

/* Reset to QN_OK with empty fields; NULL-safe. */
void qn_err_clear(qn_err *err);

/* A short constant name for a code ("syntax error", "unsolvable", ...). */
const char *qn_code_name(qn_code code);

#endif
