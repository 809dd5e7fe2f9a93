/*
 * submit_read.c: the submission reader's input side, shared by every
 * format: big blocks into one fixed buffer (so memory stays bounded by
 * QN_SUBMIT_MAX_LINE whatever arrives), physical lines, and the framing of
 * the record handed out (its number, default id and error).
 */
#include "submit_reader.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "base/mem.h"

int qn_submit__fatal(qn_submit_reader *r, qn_err *err, qn_code code,
                     long long line, long long col, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    qn_err_set(&r->fatal, code, qn_submit__clamp(line), qn_submit__clamp(col),
               "%s", msg);
    qn_err_source(&r->fatal, r->source);
    r->state = code;
    if (err)
        *err = r->fatal;
    return code;
}

int qn_submit__nomem(qn_submit_reader *r, qn_err *err)
{
    qn_err_nomem(&r->fatal);
    r->state = QN_ENOMEM;
    if (err)
        *err = r->fatal;
    return QN_ENOMEM;
}

long qn_submit__fill(qn_submit_reader *r, qn_err *err)
{
    size_t n;

    if (r->eof)
        return 0;
    if (r->nread - r->mark >= (uint64_t)QN_SUBMIT_MAX_GAP) {
        if (r->skipping[0])
            return qn_submit__fatal(
                r, err, QN_ELIMIT, r->line, 0,
                "%s has no end within %d bytes: the rest of "
                "the input is not read",
                r->skipping, QN_SUBMIT_MAX_GAP);
        return qn_submit__fatal(
            r, err, QN_ELIMIT, r->line, 0,
            "no submission within %d bytes: the rest of the "
            "input is not read",
            QN_SUBMIT_MAX_GAP);
    }
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->end - r->pos);
        r->end -= r->pos;
        r->pos = 0;
    }
    if (r->end == QN_SUBMIT__BUFCAP)
        return 0;
    n = fread(r->buf + r->end, 1, QN_SUBMIT__BUFCAP - r->end, r->in);
    if (n == 0) {
        if (ferror(r->in))
            return qn_submit__fatal(r, err, QN_EIO, r->line, 0,
                                    "read error: %s",
                                    strerror(errno ? errno : EIO));
        r->eof = 1;
    }
    r->end += n;
    r->nread += n;
    return (long)n;
}

/*
 * Skip the rest of an over-long line, up to and including its newline.
 * Returns 0 or a negative code (an endless line meets fill's gap check).
 */
static int skip_rest_of_line(qn_submit_reader *r, qn_err *err)
{
    for (;;) {
        const char *nl = memchr(r->buf + r->pos, '\n', r->end - r->pos);
        long got;
        if (nl) {
            r->pos = (size_t)(nl - r->buf) + 1;
            break;
        }
        r->pos = r->end;
        if ((got = qn_submit__fill(r, err)) < 0)
            return (int)got;
        if (got == 0)
            break;
    }
    r->skip_line = 0;
    r->skipping[0] = '\0';
    r->line++;
    return 0;
}

int qn_submit__get_line(qn_submit_reader *r, const char **s, size_t *n,
                        long long *line_out, int *too_long, qn_err *err)
{
    size_t scanned = 0, len, next;
    const char *nl;
    long got;
    int rc;

    *too_long = 0;
    if (r->skip_line && (rc = skip_rest_of_line(r, err)) < 0)
        return rc;
    for (;;) {
        size_t avail = r->end - r->pos;
        nl = memchr(r->buf + r->pos + scanned, '\n', avail - scanned);
        if (nl) {
            len = (size_t)(nl - (r->buf + r->pos));
            next = len + 1;
            break;
        }
        scanned = avail;
        if (avail > (size_t)QN_SUBMIT_MAX_LINE + 1) {
            /* Too long (the +1 leaves room for a CR): say so now, drop
             * what is buffered, skip the rest before the next line. */
            *too_long = 1;
            *line_out = r->line;
            r->pos = r->end;
            r->skip_line = 1;
            snprintf(r->skipping, sizeof(r->skipping), "line %lld", r->line);
            return 1;
        }
        if (r->eof) {
            if (avail == 0)
                return 0;
            len = next = avail;
            break;
        }
        got = qn_submit__fill(r, err);
        if (got < 0)
            return (int)got;
    }
    *s = r->buf + r->pos;
    if (len > 0 && (*s)[len - 1] == '\r')
        len--;
    if (len > (size_t)QN_SUBMIT_MAX_LINE)
        *too_long = 1;
    *n = len;
    *line_out = r->line++;
    r->pos += next;
    return 1;
}

int qn_submit__is_blank(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

/* ---- records ------------------------------------------------------------ */

/* Decimal text of v into r->linebuf: the text it holds plus one when v
 * is the next number (lines mostly come one after another). */
static const char *line_text(qn_submit_reader *r, long long v)
{
    char tmp[24];
    int n = 0, i = 0;

    if (v == r->linebuf_of + 1 && v > 1) {
        char *p = r->linebuf + strlen(r->linebuf);
        while (p > r->linebuf && p[-1] == '9')
            *--p = '0';
        r->linebuf_of = v;
        if (p > r->linebuf) {
            p[-1]++;
            return r->linebuf;
        }
        /* all nines: one digit more */
        memmove(r->linebuf + 1, r->linebuf, strlen(r->linebuf) + 1);
        r->linebuf[0] = '1';
        return r->linebuf;
    }
    r->linebuf_of = v;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0)
        r->linebuf[i++] = tmp[--n];
    r->linebuf[i] = '\0';
    return r->linebuf;
}

qn_submission *qn_submit__begin(qn_submit_reader *r, long long line,
                                long long col)
{
    qn_submission *rec = &r->rec;

    rec->seq = ++r->seq;
    rec->id = line_text(r, line);
    rec->line = qn_submit__clamp(line);
    rec->col = qn_submit__clamp(col);
    rec->ok = 1;
    rec->err.code = QN_OK;
    rec->err.line = rec->err.col = 0;
    rec->err.msg[0] = '\0';
    rec->cells = r->data.cells;
    rec->has_solution = 0;
    rec->solution = NULL;
    rec->has_min = 0;
    rec->min_presses = 0;
    rec->has_id = 0;
    rec->meta = rec->note = NULL;
    rec->meta_len = 0;
    r->data.has_id = r->data.has_solution = r->data.has_min = 0;
    qn_buf_reset(&r->data.meta);
    r->data.note[0] = '\0';
    return rec;
}

int qn_submit__bad(qn_submit_reader *r, qn_code code, long long line,
                   long long col, const char *fmt, ...)
{
    qn_submission *rec = &r->rec;
    char msg[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    rec->ok = 0;
    rec->cells = NULL;
    qn_err_set(&rec->err, code, qn_submit__clamp(line), qn_submit__clamp(col),
               "%s", msg);
    qn_err_source(&rec->err, r->source);
    return 1;
}

int qn_submit__bad_err(qn_submit_reader *r, const qn_err *e)
{
    return qn_submit__bad(r, e->code, e->line, e->col, "%s", e->msg);
}

int qn_submit__finish(qn_submit_reader *r)
{
    qn_submission *rec = &r->rec;

    if (r->data.has_id)
        rec->id = r->data.id;
    rec->has_id = r->data.has_id;
    rec->note = r->data.note[0] ? r->data.note : NULL;
    if (!rec->ok)
        return 1;
    rec->has_solution = r->data.has_solution;
    rec->solution = rec->has_solution ? r->data.solution : NULL;
    rec->has_min = r->data.has_min;
    rec->min_presses = r->data.min_presses;
    if (r->data.meta.len) {
        rec->meta = r->data.meta.buf;
        rec->meta_len = r->data.meta.len;
    }
    return 1;
}

void qn_submit__skip_meta(qn_submit_reader *r)
{
    r->seq--;
    r->skipped++;
}

int qn_submit__bad_bytes(qn_submit_reader *r, const char *s, size_t n,
                         long long line, long long col)
{
    const char *what = "";
    size_t off = qn_submit__check_bytes(s, n, &what);
    int ln, cl;

    if (off == n)
        return 0;
    qn_submit__pos(s, off, qn_submit__clamp(line), qn_submit__clamp(col), &ln,
                   &cl);
    return qn_submit__bad(r, QN_ESYNTAX, ln, cl, "%s", what);
}

int qn_submit__too_long(qn_submit_reader *r, long long line, const char *what)
{
    return qn_submit__bad(r, QN_ELIMIT, line, 1, "%s longer than %d bytes",
                          what, QN_SUBMIT_MAX_LINE);
}
