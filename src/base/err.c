/*
 * err.c: recording and naming errors. Only cmd/main.c prints them.
 */
#include "base/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int qn_err_set(qn_err *err, qn_code code, int line, int col, const char *fmt,
               ...)
{
    va_list ap;

    if (!err)
        return code;
    err->code = code;
    err->line = line;
    err->col = col;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return code;
}

void qn_err_source(qn_err *err, const char *source)
{
    if (!err)
        return;
    snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
}

void qn_err_place(const qn_err *err, char *buf, size_t n)
{
    if (err->source[0] && err->line > 0)
        snprintf(buf, n, "%s:%d:%d: ", err->source, err->line,
                 err->col > 0 ? err->col : 1);
    else if (err->source[0])
        snprintf(buf, n, "%s: ", err->source);
    else if (n)
        buf[0] = '\0';
}

void qn_err_clear(qn_err *err)
{
    if (err)
        memset(err, 0, sizeof(*err));
}

const char *qn_code_name(qn_code code)
{
    switch (code) {
    case QN_OK:
        return "ok";
    case QN_ERR:
        return "internal error";
    case QN_EIO:
        return "i/o error";
    case QN_ESYNTAX:
        return "syntax error";
    case QN_EINVAL:
        return "invalid";
    case QN_ENOTFOUND:
        return "not found";
    case QN_EUNSOLVABLE:
        return "unsolvable";
    case QN_EDB:
        return "database error";
    case QN_ELIMIT:
        return "limit exceeded";
    case QN_EBUSY:
        return "busy";
    case QN_ENEWER:
        return "newer database";
    case QN_ENOMEM:
        return "out of memory";
    }
    return "unknown error";
}
