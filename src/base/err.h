/*
 * err.h: the error value every fallible libquench function fills in.
 *
 * A fallible function returns an int (QN_OK or a negative qn_code) and takes
 * `qn_err *err` as its last parameter, which may be NULL. qn_err is a plain
 * value: no heap, never needs freeing.
 */
#ifndef QN_ERR_H
#define QN_ERR_H

#include <stddef.h>

typedef enum qn_code {
    QN_OK = 0,
    QN_ERR = -1,         /* unexpected / internal */
    QN_EIO = -2,         /* open/read/write failed; strerror(errno) in msg */
    QN_ESYNTAX = -3,     /* malformed YAML, state text or option value */
    QN_EINVAL = -4,      /* well-formed but violates the rules/schema */
    QN_ENOTFOUND = -5,   /* rule set or puzzle id missing; an input file
                            that cannot be opened (file.h) */
    QN_EUNSOLVABLE = -6, /* state has no solution under its rules */
    QN_EDB = -7,         /* SQLite failure; sqlite3_errmsg() in msg */
    QN_ELIMIT = -8,      /* input or search exceeds a documented limit */
    QN_EBUSY = -9,       /* resource busy (database locked): retry later */
    QN_ENEWER = -10,     /* database written by a newer quench */
    QN_ENOMEM = -11,     /* a library (SQLite) ran out of memory */
} qn_code;

typedef struct qn_err {
    qn_code code;
    char source[256]; /* file name, "<stdin>", or "" */
    int line, col;    /* 1-based; 0 = unknown */
    char msg[256];    /* lowercase, no final period */
} qn_err;

#define QN_ERR_INIT {QN_OK, "", 0, 0, ""}

#if defined(__GNUC__)
#define QN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define QN_PRINTF(f, a)
#endif

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
