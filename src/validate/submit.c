/*
 * submit.c: the streaming submission reader (format in submit.h). Input is
 * read in big blocks into one fixed buffer, and records are parsed in
 * place, so memory stays bounded by QN_SUBMIT_MAX_LINE whatever arrives;
 * JSON values go to json_in.c.
 */
#include "quench/submit.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "quench/buf.h"
#include "quench/mem.h"
#include "quench/state.h"
#include "submit_internal.h"

/*
 * Twice the line limit: a whole line of the maximum length plus its CRLF
 * always fits after compaction, so "no newline in the buffer" means "too
 * long" and never "buffer too small".
 */
#define BUFCAP (2 * (size_t)QN_SUBMIT_MAX_LINE)
#define MAXCOLS 7

/* The columns after COL_MIN are what `quench export --format csv` writes
 * beside a puzzle: accepted and ignored, so validate reads quench's own
 * CSV. */
enum col_kind {
    COL_ID,
    COL_STATE,
    COL_SOLUTION,
    COL_MIN,
    COL_OPTIMAL,
    COL_GRADE,
    COL_SEED
};
static const char *const col_names[MAXCOLS] = {
    "id", "state", "solution", "min_presses", "optimal_solutions", "grade",
    "seed"};

/* Where the JSON-document reader is. JS_SKIP: inside an element over
 * the limit, whose malformed record was already returned. */
enum json_phase { JS_START, JS_FIRST, JS_ELEM, JS_SKIP, JS_AFTER, JS_END };

/* How far the scan of one JSON array element has got. */
typedef struct jscan {
    int depth, in_str, esc, scalar;
    long long line, col; /* where the element starts */
} jscan;

struct qn_submit_reader {
    FILE *in;             /* borrowed */
    char source[256];
    const qn_layout *l;   /* borrowed */
    unsigned k;
    qn_submit_format fmt; /* never AUTO after open */
    char *buf;            /* BUFCAP bytes; data in [pos, end) */
    size_t pos, end;
    int eof;              /* fread reported end of input */
    uint64_t nread;       /* bytes read from `in` so far */
    uint64_t mark;        /* nread at the end of the last record returned
                             (bytes since then: the gap, see fill) */
    int skip_line;        /* the rest of an over-long line is still to be
                             skipped (its record went out at the limit) */
    char skipping[64];    /* what is being skipped, for the gap error */
    long long line;       /* line number of buf[pos] */
    long long col;        /* column of buf[pos] (JSON document only) */
    int state;            /* 0 reading, 1 ended, < 0 fatal code */
    qn_err fatal;         /* when state < 0 */
    uint64_t seq;         /* records returned */
    qn_submission rec;    /* the record handed out */
    qn_submit__rec data;  /* what the format parsers fill */
    char linebuf[24];     /* line number as text, the default id */
    qn_buf scratch;       /* a CSV record over several lines, a JSON
                             element; at most QN_SUBMIT_MAX_LINE + a line */
    /* CSV */
    int header_done;
    int ncols;                /* columns in the header */
    int col_of[MAXCOLS];      /* column index of each kind, or -1 */
    /* JSON document */
    enum json_phase js;
    int js_records;           /* 1: array of objects; 0: one state */
    jscan jsk;                /* the element being read or skipped */
};

/* ---- shared helpers ----------------------------------------------------- */

static int clamp_int(long long v)
{
    return v > INT_MAX ? INT_MAX : (int)v;
}

size_t qn_submit__check_bytes(const char *s, size_t len,
                              const char **what_out)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        unsigned c = p[i];
        size_t n, j;
        unsigned cp;
        if (c >= 0x01 && c < 0x80) {
            i++;
            continue;
        }
        if (c == 0) {
            *what_out = "NUL byte";
            return i;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            cp = c & 0x07;
        } else {
            break;
        }
        if (i + n >= len)
            break; /* truncated sequence */
        for (j = 1; j <= n; j++) {
            if ((p[i + j] & 0xc0) != 0x80)
                break;
            cp = (cp << 6) | (p[i + j] & 0x3f);
        }
        if (j <= n)
            break;
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            break;
        i += n + 1;
    }
    if (i < len)
        *what_out = "invalid UTF-8";
    return i;
}

void qn_submit__pos(const char *text, size_t off, int line, int col,
                    int *line_out, int *col_out)
{
    long long ln = line, cl = col;
    size_t i;

    for (i = 0; i < off; i++) {
        if (text[i] == '\n') {
            ln++;
            cl = 1;
        } else {
            cl++;
        }
    }
    *line_out = clamp_int(ln);
    *col_out = clamp_int(cl);
}

/* Base-36 digit value, or -1. */
static int digit36(unsigned char ch)
{
    unsigned v = (unsigned)ch - '0';

    if (v <= 9)
        return (int)v;
    v = (unsigned)(ch | 0x20) - 'a';
    return v <= 25 ? (int)v + 10 : -1;
}

/* The byte offset of 1-based (line, col) within s. */
static size_t offset_of(const char *s, size_t n, int line, int col)
{
    size_t i = 0;

    while (line > 1 && i < n) {
        if (s[i++] == '\n')
            line--;
    }
    i += col > 0 ? (size_t)col - 1 : 0;
    return i < n ? i : n;
}

int qn_submit__cells_str(uint8_t *out, const qn_layout *l, unsigned k,
                         int flat_ok, const char *s, size_t n,
                         size_t *bad_off, qn_err *err)
{
    qn_err e = QN_ERR_INIT;
    size_t i, digits = 0;
    int flat = flat_ok;

    /* A flat string: only digits and blanks, no row structure. */
    for (i = 0; flat && i < n; i++) {
        if (digit36((unsigned char)s[i]) >= 0)
            digits++;
        else if (s[i] != ' ' && s[i] != '\t')
            flat = 0;
    }
    if (flat && (l->h > 1 || digits != (size_t)l->w)) {
        size_t c = 0;
        for (i = 0; i < n; i++) {
            int v = digit36((unsigned char)s[i]);
            if (v < 0)
                continue;
            if (c == (size_t)l->ncells) {
                *bad_off = i;
                return qn_err_set(err, QN_ESYNTAX, 0, 0,
                                  "expected %d cells, got %zu", l->ncells,
                                  digits);
            }
            if ((unsigned)v >= k) {
                *bad_off = i;
                return qn_err_set(err, QN_ESYNTAX, 0, 0,
                                  "value '%c' must be less than colours "
                                  "(%u)",
                                  s[i], k);
            }
            out[c++] = (uint8_t)v;
        }
        if (c < (size_t)l->ncells) {
            *bad_off = n;
            return qn_err_set(err, QN_ESYNTAX, 0, 0,
                              "expected %d cells, got %zu", l->ncells, c);
        }
        return QN_OK;
    }
    if (qn_state_parse(out, l, k, s, n, &e) == QN_OK)
        return QN_OK;
    *bad_off = offset_of(s, n, e.line, e.col);
    return qn_err_set(err, e.code, 0, 0, "%s", e.msg);
}

/*
 * The common case of a TEXT line, without qn_state_parse's generality: h
 * rows of exactly w characters joined by '/', each a digit or '.' as the
 * layout demands, every value < k. Returns 1 if the line is exactly that;
 * 0 sends it to the careful path, which also finds the error.
 */
static int fast_state(uint8_t *out, const qn_layout *l, unsigned k,
                      const char *s, size_t n)
{
    const int *index = l->index;
    size_t i = 0;
    int r, c, w = l->w;

    if (n != (size_t)l->h * (size_t)(w + 1) - 1)
        return 0;
    for (r = 0; r < l->h; r++) {
        if (r > 0 && s[i++] != '/')
            return 0;
        for (c = 0; c < w; c++, i++) {
            int cell = index[r * w + c];
            unsigned char ch = (unsigned char)s[i];
            if (cell < 0) {
                if (ch != '.')
                    return 0;
            } else {
                unsigned v = (unsigned)ch - '0';
                if (v > 9) {
                    v = (unsigned)(ch | 0x20) - 'a';
                    if (v > 25)
                        return 0;
                    v += 10;
                }
                if (v >= k)
                    return 0;
                out[cell] = (uint8_t)v;
            }
        }
    }
    return 1;
}

/* ---- buffered input ----------------------------------------------------- */

static int set_fatal(qn_submit_reader *r, qn_err *err, qn_code code,
                     long long line, long long col, const char *fmt, ...)
    QN_PRINTF(6, 7);

static int set_fatal(qn_submit_reader *r, qn_err *err, qn_code code,
                     long long line, long long col, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    qn_err_set(&r->fatal, code, clamp_int(line), clamp_int(col), "%s", msg);
    qn_err_source(&r->fatal, r->source);
    r->state = code;
    if (err)
        *err = r->fatal;
    return code;
}

/*
 * Compact the buffer and read more. Returns the bytes added (0 at the end
 * of the input, which sets r->eof), QN_EIO, or QN_ELIMIT when more than
 * QN_SUBMIT_MAX_GAP bytes have gone by since the last record: every read
 * of the reader comes through here, so this one check bounds the input
 * consumed without a result (an over-long line that never ends, endless
 * blank lines), whatever the format.
 */
static long fill(qn_submit_reader *r, qn_err *err)
{
    size_t n;

    if (r->eof)
        return 0;
    if (r->nread - r->mark >= (uint64_t)QN_SUBMIT_MAX_GAP) {
        if (r->skipping[0])
            return set_fatal(r, err, QN_ELIMIT, r->line, 0,
                             "%s has no end within %d bytes: the rest of "
                             "the input is not read",
                             r->skipping, QN_SUBMIT_MAX_GAP);
        return set_fatal(r, err, QN_ELIMIT, r->line, 0,
                         "no submission within %d bytes: the rest of the "
                         "input is not read",
                         QN_SUBMIT_MAX_GAP);
    }
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->end - r->pos);
        r->end -= r->pos;
        r->pos = 0;
    }
    if (r->end == BUFCAP)
        return 0;
    n = fread(r->buf + r->end, 1, BUFCAP - r->end, r->in);
    if (n == 0) {
        if (ferror(r->in))
            return set_fatal(r, err, QN_EIO, r->line, 0, "read error: %s",
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
        if ((got = fill(r, err)) < 0)
            return (int)got;
        if (got == 0)
            break;
    }
    r->skip_line = 0;
    r->skipping[0] = '\0';
    r->line++;
    return 0;
}

/*
 * The next physical line, without its LF or CRLF. Returns 1 with *s, *n
 * and *line_out set (borrowed from the buffer until the next read), or
 * with *too_long set for a line over QN_SUBMIT_MAX_LINE bytes: that is
 * known as soon as the limit is passed, so the line is returned then,
 * without waiting for its end, and its rest is skipped unbuffered on the
 * next call. Returns 0 at the end, or a negative code.
 */
static int get_line(qn_submit_reader *r, const char **s, size_t *n,
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
            snprintf(r->skipping, sizeof(r->skipping), "line %lld",
                     r->line);
            return 1;
        }
        if (r->eof) {
            if (avail == 0)
                return 0;
            len = next = avail;
            break;
        }
        got = fill(r, err);
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

static int is_blank(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

/* ---- records ------------------------------------------------------------ */

/* Decimal text of v into r->linebuf. */
static const char *line_text(qn_submit_reader *r, long long v)
{
    char tmp[24];
    int n = 0, i = 0;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0)
        r->linebuf[i++] = tmp[--n];
    r->linebuf[i] = '\0';
    return r->linebuf;
}

/* Start a record at (line, col): fills everything but ok/err/values. */
static qn_submission *begin(qn_submit_reader *r, long long line,
                            long long col)
{
    qn_submission *rec = &r->rec;

    rec->seq = ++r->seq;
    rec->id = line_text(r, line);
    rec->line = clamp_int(line);
    rec->col = clamp_int(col);
    rec->ok = 1;
    rec->err.code = QN_OK;
    rec->err.line = rec->err.col = 0;
    rec->err.msg[0] = '\0';
    rec->cells = r->data.cells;
    rec->has_solution = 0;
    rec->solution = NULL;
    rec->has_min = 0;
    rec->min_presses = 0;
    r->data.has_id = r->data.has_solution = r->data.has_min = 0;
    return rec;
}

static int bad(qn_submit_reader *r, qn_code code, long long line,
               long long col, const char *fmt, ...) QN_PRINTF(5, 6);

/* Mark the current record malformed at (line, col). Returns 1. */
static int bad(qn_submit_reader *r, qn_code code, long long line,
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
    qn_err_set(&rec->err, code, clamp_int(line), clamp_int(col), "%s", msg);
    qn_err_source(&rec->err, r->source);
    return 1;
}

/* A malformed record whose error came located from a parser. */
static int bad_err(qn_submit_reader *r, const qn_err *e)
{
    return bad(r, e->code, e->line, e->col, "%s", e->msg);
}

/* Copy the parsed optional fields into the record. */
static int finish(qn_submit_reader *r)
{
    qn_submission *rec = &r->rec;

    if (r->data.has_id)
        rec->id = r->data.id;
    if (!rec->ok)
        return 1;
    rec->has_solution = r->data.has_solution;
    rec->solution = rec->has_solution ? r->data.solution : NULL;
    rec->has_min = r->data.has_min;
    rec->min_presses = r->data.min_presses;
    return 1;
}

/* A header record (quench's own output) was read: it is not a
 * submission, so take back the number begin() gave it. */
static void skip_meta(qn_submit_reader *r)
{
    r->seq--;
}

/* Check bytes; 0 when clean, else the record is marked malformed. */
static int bad_bytes(qn_submit_reader *r, const char *s, size_t n,
                     long long line, long long col)
{
    const char *what = "";
    size_t off = qn_submit__check_bytes(s, n, &what);
    int ln, cl;

    if (off == n)
        return 0;
    qn_submit__pos(s, off, clamp_int(line), clamp_int(col), &ln, &cl);
    return bad(r, QN_ESYNTAX, ln, cl, "%s", what);
}

static int too_long(qn_submit_reader *r, long long line, const char *what)
{
    return bad(r, QN_ELIMIT, line, 1, "%s longer than %d bytes", what,
               QN_SUBMIT_MAX_LINE);
}

/* ---- TEXT --------------------------------------------------------------- */

static int next_text(qn_submit_reader *r, qn_err *err)
{
    const char *s = NULL;
    size_t n = 0, i;
    long long line;
    int rc, tl;
    qn_err e;

    for (;;) {
        rc = get_line(r, &s, &n, &line, &tl, err);
        if (rc <= 0)
            return rc;
        if (tl) {
            begin(r, line, 1);
            return too_long(r, line, "line");
        }
        if (fast_state(r->data.cells, r->l, r->k, s, n)) {
            begin(r, line, 1);
            return 1;
        }
        for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r');
             i++)
            ;
        if (i < n && s[i] != '#')
            break;
    }
    begin(r, line, 1);
    if (bad_bytes(r, s, n, line, 1))
        return 1;
    if (qn_state_parse(r->data.cells, r->l, r->k, s, n, &e) != QN_OK)
        return bad(r, e.code, line, e.col, "%s", e.msg);
    return 1;
}

/* ---- JSONL -------------------------------------------------------------- */

static int next_jsonl(qn_submit_reader *r, qn_err *err)
{
    const char *s = NULL;
    size_t n = 0;
    long long line;
    int rc, tl;
    qn_err e = QN_ERR_INIT;

    for (;;) {
        do {
            rc = get_line(r, &s, &n, &line, &tl, err);
            if (rc <= 0)
                return rc;
        } while (!tl && is_blank(s, n));
        begin(r, line, 1);
        if (tl)
            return too_long(r, line, "line");
        if (bad_bytes(r, s, n, line, 1))
            return 1;
        if (qn_submit__json_record(&r->data, s, n, clamp_int(line), 1, &e) <
            0)
            bad_err(r, &e);
        if (!r->rec.ok || !r->data.is_meta)
            return finish(r);
        skip_meta(r);
    }
}

/* ---- CSV ---------------------------------------------------------------- */

typedef struct field {
    size_t raw, raw_end; /* offsets in the record text, quotes included */
    size_t dec, dec_len; /* decoded bytes in r->scratch after the text */
} field;

/*
 * The next CSV record (physical lines joined while a quoted field is open)
 * into r->scratch. Returns 1 with *line_out its first line and *tl set if
 * it went over the limit, 0 at the end, or QN_EIO.
 */
/*
 * Follow RFC 4180 quoting through one physical line: *q says whether a
 * quoted field is open (it carries over to the next line), *start whether
 * the next byte begins a field. Only a quote at the start of a field opens
 * one; a stray quote elsewhere is left for csv_split to report.
 */
static void csv_scan(const char *s, size_t n, int *q, int *start)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (*q) {
            if (s[i] == '"') {
                if (i + 1 < n && s[i + 1] == '"')
                    i++;
                else
                    *q = 0;
            }
        } else if (s[i] == ',') {
            *start = 1;
            continue;
        } else if (s[i] == '"' && *start) {
            *q = 1;
        }
        *start = 0;
    }
}

static int csv_record(qn_submit_reader *r, long long *line_out, int *tl,
                      qn_err *err)
{
    const char *s = NULL;
    size_t n = 0;
    long long line;
    int rc, in_q = 0, at_start = 1;

    do {
        rc = get_line(r, &s, &n, &line, tl, err);
        if (rc <= 0)
            return rc;
    } while (!*tl && is_blank(s, n));
    *line_out = line;
    qn_buf_reset(&r->scratch);
    if (*tl)
        return 1;
    for (;;) {
        csv_scan(s, n, &in_q, &at_start);
        qn_buf_add(&r->scratch, s, n);
        if (r->scratch.len > (size_t)QN_SUBMIT_MAX_LINE) {
            /* Reading resumes at the next physical line. */
            *tl = 1;
            return 1;
        }
        if (!in_q)
            return 1;
        rc = get_line(r, &s, &n, &line, tl, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return 1; /* unterminated quote: the parser reports it */
        if (*tl)
            return 1;
        qn_buf_addc(&r->scratch, '\n');
    }
}

/*
 * Split r->scratch[0..len) into fields, decoding into r->scratch after the
 * text. Returns the field count (up to max stored in f) or -1 with the
 * offset of the problem and a message.
 */
static long csv_split(qn_submit_reader *r, size_t len, field *f, int max,
                      size_t *bad_off, const char **why)
{
    size_t i = 0;
    long nf = 0;

    /* Decoded text never exceeds the raw text: grow once, then index. */
    qn_buf_grow(&r->scratch, len + 1);
    r->scratch.len = len;
    for (;;) {
        const char *t = r->scratch.buf;
        char *d = r->scratch.buf + r->scratch.len;
        size_t start = i, dstart = r->scratch.len, dn = 0;
        if (i < len && t[i] == '"') {
            i++;
            for (;;) {
                if (i >= len) {
                    *bad_off = start;
                    *why = "unterminated quoted field";
                    return -1;
                }
                if (t[i] == '"') {
                    if (i + 1 < len && t[i + 1] == '"') {
                        d[dn++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                d[dn++] = t[i++];
            }
            if (i < len && t[i] != ',') {
                *bad_off = i;
                *why = "unexpected character after a closing quote";
                return -1;
            }
        } else {
            while (i < len && t[i] != ',') {
                if (t[i] == '"') {
                    *bad_off = i;
                    *why = "quote inside an unquoted field";
                    return -1;
                }
                d[dn++] = t[i++];
            }
        }
        if (nf < max) {
            f[nf].raw = start;
            f[nf].raw_end = i;
            f[nf].dec = dstart;
            f[nf].dec_len = dn;
        }
        nf++;
        r->scratch.len += dn;
        if (i >= len)
            break;
        i++; /* the comma */
    }
    r->scratch.buf[r->scratch.len] = '\0';
    return nf;
}

/* Raw offset in the record text of decoded byte `off` of field f. */
static size_t csv_raw_off(const char *t, const field *f, size_t off)
{
    size_t j = f->raw, d = 0;

    if (j < f->raw_end && t[j] == '"') {
        j++;
        while (d < off && j < f->raw_end) {
            j += t[j] == '"' ? 2 : 1;
            d++;
        }
        return j;
    }
    return j + off;
}

/* Names of known columns, for the did-you-mean of an unknown one. */
static const char *csv_suggest(const char *name, size_t n)
{
    int i;

    for (i = 0; i < MAXCOLS; i++) {
        size_t cn = strlen(col_names[i]);
        if (n >= 2 && (strncmp(name, col_names[i], n < cn ? n : cn) == 0))
            return col_names[i];
    }
    for (i = 0; i < MAXCOLS; i++) {
        size_t cn = strlen(col_names[i]), j, same = 0;
        if (cn != n)
            continue;
        for (j = 0; j < n; j++)
            same += (name[j] | 0x20) == col_names[i][j];
        if (same + 1 >= n)
            return col_names[i];
    }
    return NULL;
}

static int csv_header(qn_submit_reader *r, qn_err *err)
{
    field f[MAXCOLS + 1];
    long long line;
    const char *why = "";
    size_t boff = 0, len;
    long nf, i;
    int rc, tl, ln, cl, kind;

    rc = csv_record(r, &line, &tl, err);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        r->header_done = 1;
        return 0; /* empty input: no records, no header needed */
    }
    if (tl)
        return set_fatal(r, err, QN_ELIMIT, line, 1,
                         "CSV header longer than %d bytes",
                         QN_SUBMIT_MAX_LINE);
    len = r->scratch.len;
    boff = qn_submit__check_bytes(r->scratch.buf, len, &why);
    if (boff == len) {
        nf = csv_split(r, len, f, MAXCOLS + 1, &boff, &why);
    } else {
        nf = -1;
    }
    if (nf < 0) {
        qn_submit__pos(r->scratch.buf, boff, clamp_int(line), 1, &ln, &cl);
        return set_fatal(r, err, QN_ESYNTAX, ln, cl, "CSV header: %s", why);
    }
    for (i = 0; i < MAXCOLS; i++)
        r->col_of[i] = -1;
    for (i = 0; i < nf; i++) {
        const char *name = i < MAXCOLS + 1 ? r->scratch.buf + f[i].dec : "";
        size_t n = i < MAXCOLS + 1 ? f[i].dec_len : 0;
        qn_submit__pos(r->scratch.buf, i < MAXCOLS + 1 ? f[i].raw : 0,
                       clamp_int(line), 1, &ln, &cl);
        for (kind = 0; kind < MAXCOLS; kind++)
            if (strlen(col_names[kind]) == n &&
                memcmp(name, col_names[kind], n) == 0)
                break;
        if (i >= MAXCOLS + 1)
            return set_fatal(r, err, QN_ESYNTAX, ln, cl,
                             "CSV header has more than %d columns",
                             MAXCOLS);
        if (kind == MAXCOLS) {
            const char *sug = csv_suggest(name, n);
            int shown = n > 64 ? 64 : (int)n;
            if (sug)
                return set_fatal(r, err, QN_ESYNTAX, ln, cl,
                                 "unknown CSV column '%.*s' (did you mean "
                                 "'%s'?)",
                                 shown, name, sug);
            return set_fatal(r, err, QN_ESYNTAX, ln, cl,
                             "unknown CSV column '%.*s' (expected id, "
                             "state, solution, min_presses)",
                             shown, name);
        }
        if (r->col_of[kind] >= 0)
            return set_fatal(r, err, QN_ESYNTAX, ln, cl,
                             "CSV column '%s' appears twice",
                             col_names[kind]);
        r->col_of[kind] = (int)i;
    }
    if (r->col_of[COL_STATE] < 0)
        return set_fatal(r, err, QN_ESYNTAX, line, 1,
                         "CSV header has no 'state' column");
    r->ncols = (int)nf;
    r->header_done = 1;
    return 1;
}

static int next_csv(qn_submit_reader *r, qn_err *err)
{
    field f[MAXCOLS + 1]; /* one past: where a surplus field starts */
    const char *why = "", *t;
    size_t boff = 0, len;
    long long line;
    long nf;
    int rc, tl, ln, cl, kind;

    if (!r->header_done) {
        rc = csv_header(r, err);
        if (rc <= 0)
            return rc;
    }
    rc = csv_record(r, &line, &tl, err);
    if (rc <= 0)
        return rc;
    begin(r, line, 1);
    if (tl)
        return too_long(r, line, "CSV record");
    len = r->scratch.len;
    if (bad_bytes(r, r->scratch.buf, len, line, 1))
        return 1;
    nf = csv_split(r, len, f, MAXCOLS + 1, &boff, &why);
    t = r->scratch.buf;
    if (nf < 0) {
        qn_submit__pos(t, boff, clamp_int(line), 1, &ln, &cl);
        return bad(r, QN_ESYNTAX, ln, cl, "%s", why);
    }
    /* The id first, so a malformed record still shows it. */
    if (r->col_of[COL_ID] >= 0 && r->col_of[COL_ID] < nf) {
        const field *fi = &f[r->col_of[COL_ID]];
        if (fi->dec_len > 0 && fi->dec_len <= QN_SUBMIT_MAX_ID) {
            memcpy(r->data.id, t + fi->dec, fi->dec_len);
            r->data.id[fi->dec_len] = '\0';
            r->data.has_id = 1;
        }
    }
    if (nf != r->ncols) {
        size_t at = nf > r->ncols ? f[r->ncols].raw : len;
        qn_submit__pos(t, at, clamp_int(line), 1, &ln, &cl);
        bad(r, QN_ESYNTAX, ln, cl, "expected %d fields, got %ld", r->ncols,
            nf);
        return finish(r);
    }
    for (kind = 0; kind < r->ncols; kind++) {
        int which;
        const field *fi = &f[kind];
        const char *v = t + fi->dec;
        size_t n = fi->dec_len, off = 0, j;
        qn_err e = QN_ERR_INIT;
        for (which = 0; which < MAXCOLS && r->col_of[which] != kind; which++)
            ;
        qn_submit__pos(t, fi->raw, clamp_int(line), 1, &ln, &cl);
        if (which == COL_ID) {
            if (n > QN_SUBMIT_MAX_ID) {
                bad(r, QN_ELIMIT, ln, cl, "id longer than %d bytes (%zu)",
                    QN_SUBMIT_MAX_ID, n);
                break;
            }
        } else if (which == COL_STATE || which == COL_SOLUTION) {
            uint8_t *out =
                which == COL_STATE ? r->data.cells : r->data.solution;
            if (n == 0 && which == COL_SOLUTION)
                continue;
            if (qn_submit__cells_str(out, r->l, r->k, which == COL_SOLUTION,
                                     v, n, &off, &e) != QN_OK) {
                qn_submit__pos(t, csv_raw_off(t, fi, off), clamp_int(line),
                               1, &ln, &cl);
                bad(r, e.code, ln, cl, "%s%s", which == COL_SOLUTION ?
                    "solution: " : "", e.msg);
                break;
            }
            if (which == COL_SOLUTION)
                r->data.has_solution = 1;
        } else if (which == COL_MIN) {
            uint64_t m = 0;
            if (n == 0)
                continue;
            for (j = 0; j < n; j++) {
                unsigned dgt = (unsigned)v[j] - '0';
                if (dgt > 9 || m > (UINT64_MAX - dgt) / 10)
                    break;
                m = m * 10 + dgt;
            }
            if (j < n) {
                if ((unsigned)v[j] - '0' <= 9)
                    bad(r, QN_ESYNTAX, ln, cl,
                        "min_presses '%.*s' does not fit in 64 bits",
                        (int)(n > 40 ? 40 : n), v);
                else
                    bad(r, QN_ESYNTAX, ln, cl,
                        "min_presses must be a non-negative integer, got "
                        "'%.*s'",
                        (int)(n > 40 ? 40 : n), v);
                break;
            }
            r->data.min_presses = m;
            r->data.has_min = 1;
        }
    }
    return finish(r);
}

/* ---- JSON document ------------------------------------------------------ */

/* The byte at buf[pos], reading more if needed; -1 at the end, or EIO. */
static int peekc(qn_submit_reader *r, qn_err *err)
{
    if (r->pos == r->end) {
        long got = fill(r, err);
        if (got < 0)
            return (int)got - 1000; /* distinguishable from -1 */
        if (got == 0)
            return -1;
    }
    return (unsigned char)r->buf[r->pos];
}

static void step(qn_submit_reader *r)
{
    if (r->buf[r->pos++] == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
}

/* Skip JSON blanks; returns the next byte as peekc does. */
static int skip_blanks(qn_submit_reader *r, qn_err *err)
{
    int c;

    while ((c = peekc(r, err)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        step(r);
    return c;
}

/*
 * Scan on through the element of *js, copying its bytes to r->scratch
 * while `copy` and below QN_SUBMIT_MAX_LINE (then *tl is set). Returns 1
 * at the element's end; 0 when the copy reached the limit and
 * `stop_at_limit` (nothing past the limit consumed: scanning resumes with
 * the same *js); or a negative code (fatal already set) at an I/O error,
 * the gap limit, or when the input ends inside the element.
 */
static int json_scan(qn_submit_reader *r, jscan *js, int copy,
                     int stop_at_limit, int *tl, qn_err *err)
{
    int c;

    for (;;) {
        c = peekc(r, err);
        if (c < -1)
            return r->state;
        if (c == -1) {
            if (js->scalar && js->depth == 0)
                return 1;
            return set_fatal(r, err, QN_ESYNTAX, js->line, js->col,
                             "JSON array element not closed at the end of "
                             "the input");
        }
        if (js->scalar && !js->in_str &&
            (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' ||
             c == '\n' || c == '\r'))
            return 1;
        if (copy && r->scratch.len >= (size_t)QN_SUBMIT_MAX_LINE) {
            *tl = 1;
            copy = 0;
            if (stop_at_limit)
                return 0;
        }
        step(r);
        if (copy)
            qn_buf_addc(&r->scratch, (char)c);
        if (js->in_str) {
            if (js->esc)
                js->esc = 0;
            else if (c == '\\')
                js->esc = 1;
            else if (c == '"') {
                js->in_str = 0;
                if (js->depth == 0 && !js->scalar)
                    return 1;
            }
        } else if (c == '"') {
            js->in_str = 1;
        } else if (c == '[' || c == '{') {
            js->depth++;
        } else if (c == ']' || c == '}') {
            if (--js->depth <= 0 && !js->scalar)
                return 1;
        }
    }
}

/*
 * Read one element of the top-level array into r->scratch: all of it, or
 * (stop_at_limit) up to QN_SUBMIT_MAX_LINE bytes, leaving the rest for
 * json_scan to skip. *tl says the element went past the limit. Returns
 * json_scan's result.
 */
static int json_element(qn_submit_reader *r, int stop_at_limit, int *tl,
                        qn_err *err)
{
    jscan *js = &r->jsk;
    int c;

    *tl = 0;
    qn_buf_reset(&r->scratch);
    c = peekc(r, err);
    memset(js, 0, sizeof(*js));
    js->scalar = c != '"' && c != '[' && c != '{';
    js->line = r->line;
    js->col = r->col;
    return json_scan(r, js, 1, stop_at_limit, tl, err);
}

/* The whole-document single state: every element one cell value. */
static int json_one_state(qn_submit_reader *r, long long line, long long col,
                          qn_err *err)
{
    long long el_line, el_col, first_extra_line = 0, first_extra_col = 0;
    size_t count = 0, ncells = (size_t)r->l->ncells;
    int c, tl, rc, is_int, have_err = 0;
    long long v;
    qn_err e = QN_ERR_INIT, first = QN_ERR_INIT;
    const char *what = "";

    for (;;) {
        c = skip_blanks(r, err);
        if (c < -1)
            return r->state;
        el_line = r->line;
        el_col = r->col;
        rc = json_element(r, 0, &tl, err);
        if (rc < 0)
            return rc;
        if (count == ncells && !first_extra_line) {
            first_extra_line = el_line;
            first_extra_col = el_col;
        }
        if (!have_err && count < ncells) {
            const char *t = r->scratch.buf;
            size_t n = r->scratch.len, off;
            int ln, cl;
            if (tl) {
                qn_err_set(&first, QN_ELIMIT, clamp_int(el_line),
                           clamp_int(el_col),
                           "JSON element longer than %d bytes",
                           QN_SUBMIT_MAX_LINE);
                have_err = 1;
            } else if ((off = qn_submit__check_bytes(t, n, &what)) < n) {
                qn_submit__pos(t, off, clamp_int(el_line), clamp_int(el_col),
                               &ln, &cl);
                qn_err_set(&first, QN_ESYNTAX, ln, cl, "%s", what);
                have_err = 1;
            } else if (qn_submit__json_int(&v, &is_int, t, n,
                                           clamp_int(el_line),
                                           clamp_int(el_col), &e) < 0) {
                const char *got = strstr(e.msg, ", got ");
                if (!is_int && got && strncmp(e.msg, "expected", 8) == 0) {
                    char tmp[128];
                    snprintf(tmp, sizeof(tmp), "%s", got);
                    snprintf(e.msg, sizeof(e.msg),
                             "state value at index %zu must be an "
                             "integer%s",
                             count, tmp);
                }
                first = e;
                have_err = 1;
            } else if (v < 0 || v >= (long long)r->k) {
                qn_err_set(&first, QN_ESYNTAX, clamp_int(el_line),
                           clamp_int(el_col),
                           "state value %lld at index %zu must be 0..%u", v,
                           count, r->k - 1);
                have_err = 1;
            } else {
                r->data.cells[count] = (uint8_t)v;
            }
        }
        count++;
        c = skip_blanks(r, err);
        if (c < -1)
            return r->state;
        if (c == ',') {
            step(r);
            continue;
        }
        if (c == ']') {
            step(r);
            break;
        }
        if (c == -1)
            return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                             "JSON array not closed at the end of the input");
        return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                         "expected ',' or ']' in the JSON array");
    }
    r->js = JS_END;
    begin(r, line, col);
    if (have_err)
        return bad_err(r, &first);
    if (count > ncells)
        return bad(r, QN_ESYNTAX, first_extra_line, first_extra_col,
                   "expected %zu cells, got %zu", ncells, count);
    if (count < ncells)
        return bad(r, QN_ESYNTAX, r->line, r->col - 1,
                   "expected %zu cells, got %zu", ncells, count);
    return 1;
}

static int next_json(qn_submit_reader *r, qn_err *err)
{
    long long line, col;
    int c, tl, rc;

    for (;;) {
        if (r->js == JS_SKIP) {
            /* the rest of an over-long element: blanks there may be
             * inside a string, so skip_blanks must not run first */
            rc = json_scan(r, &r->jsk, 0, 0, &tl, err);
            if (rc < 0)
                return rc;
            r->skipping[0] = '\0';
            r->js = JS_AFTER;
        }
        c = skip_blanks(r, err);
        if (c < -1)
            return r->state;
        switch (r->js) {
        case JS_START:
            if (c == -1)
                return 0;
            if (c != '[')
                return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                 "expected a JSON array, got %s",
                                 c == '{' ? "an object" : "something else");
            step(r);
            r->js = JS_FIRST;
            line = r->line;
            col = r->col - 1;
            c = skip_blanks(r, err);
            if (c < -1)
                return r->state;
            if (c == ']') {
                step(r);
                r->js = JS_END;
                continue;
            }
            if (c != '{') {
                r->js_records = 0;
                return json_one_state(r, line, col, err);
            }
            r->js_records = 1;
            r->js = JS_ELEM;
            continue;
        case JS_FIRST:
        case JS_ELEM:
            if (c == -1)
                return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                 "JSON array not closed at the end of the "
                                 "input");
            if (c == ']')
                return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                 "expected a JSON value after ','");
            line = r->line;
            col = r->col;
            rc = json_element(r, 1, &tl, err);
            if (rc < 0)
                return rc;
            r->js = JS_AFTER;
            begin(r, line, col);
            if (tl) {
                /* said at the limit; the rest is skipped next time */
                r->js = JS_SKIP;
                snprintf(r->skipping, sizeof(r->skipping),
                         "JSON element at %lld:%lld", line, col);
                return bad(r, QN_ELIMIT, line, col,
                           "JSON element longer than %d bytes",
                           QN_SUBMIT_MAX_LINE);
            }
            if (bad_bytes(r, r->scratch.buf, r->scratch.len, line, col))
                return 1;
            {
                qn_err e = QN_ERR_INIT;
                if (qn_submit__json_record(&r->data, r->scratch.buf,
                                           r->scratch.len, clamp_int(line),
                                           clamp_int(col), &e) < 0) {
                    bad_err(r, &e);
                } else if (r->data.is_meta) {
                    skip_meta(r);
                    continue;
                }
            }
            return finish(r);
        case JS_AFTER:
            if (c == ',') {
                step(r);
                r->js = JS_ELEM;
                continue;
            }
            if (c == ']') {
                step(r);
                r->js = JS_END;
                continue;
            }
            if (c == -1)
                return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                 "JSON array not closed at the end of the "
                                 "input");
            return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                             "expected ',' or ']' in the JSON array");
        case JS_SKIP: /* handled above */
        case JS_END:
            if (c == -1)
                return 0;
            return set_fatal(r, err, QN_ESYNTAX, r->line, r->col,
                             "unexpected data after the JSON array");
        }
    }
}

/* ---- public API --------------------------------------------------------- */

static qn_submit_format detect(qn_submit_reader *r)
{
    size_t i = r->pos, e, j;
    const char *b = r->buf;

    while (i < r->end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' ||
                          b[i] == '\n'))
        i++;
    if (i == r->end)
        return QN_SUBMIT_TEXT;
    if (b[i] == '{')
        return QN_SUBMIT_JSONL;
    if (b[i] == '[')
        return QN_SUBMIT_JSON;
    if (b[i] == '#')
        return QN_SUBMIT_TEXT;
    for (e = i; e < r->end && b[e] != '\n'; e++)
        ;
    if (b[i] == '"' || (e - i >= 3 && memcmp(b + i, "id,", 3) == 0))
        return QN_SUBMIT_CSV;
    if (e - i >= 5 && memcmp(b + i, "state", 5) == 0 &&
        is_blank(b + i + 5, e - i - 5))
        return QN_SUBMIT_CSV; /* a header with the one column */
    if (memchr(b + i, ',', e - i))
        for (j = i; j + 5 <= e; j++)
            if (memcmp(b + j, "state", 5) == 0)
                return QN_SUBMIT_CSV;
    return QN_SUBMIT_TEXT;
}

int qn_submit_open(qn_submit_reader **out, FILE *in, const char *source,
                   const qn_layout *l, unsigned k, qn_submit_format fmt,
                   qn_err *err)
{
    qn_submit_reader *r;
    long got;

    assert(out && in && l && l->ncells > 0 && k >= 2 && k <= 255);
    assert(fmt >= QN_SUBMIT_AUTO && fmt <= QN_SUBMIT_JSON);
    *out = NULL;
    r = QN_NEW(qn_submit_reader);
    r->in = in;
    snprintf(r->source, sizeof(r->source), "%s", source ? source : "");
    r->l = l;
    r->k = k;
    r->buf = qn_xmalloc(BUFCAP);
    r->line = 1;
    r->col = 1;
    r->data.l = l;
    r->data.k = k;
    r->data.cells = qn_xcalloc((size_t)l->ncells, 1);
    r->data.solution = qn_xcalloc((size_t)l->ncells, 1);
    qn_buf_init(&r->scratch);
    qn_err_source(&r->rec.err, r->source);
    /* Read the first block: the BOM and format detection need it. */
    got = fill(r, err);
    if (got < 0) {
        qn_submit_close(r);
        return (int)got;
    }
    if (r->end - r->pos >= 3 && memcmp(r->buf, "\xef\xbb\xbf", 3) == 0)
        r->pos += 3;
    r->fmt = fmt == QN_SUBMIT_AUTO ? detect(r) : fmt;
    r->js = JS_START;
    *out = r;
    return QN_OK;
}

int qn_submit_next(qn_submit_reader *r, const qn_submission **rec_out,
                   qn_err *err)
{
    int rc = 0;

    *rec_out = NULL;
    if (r->state < 0) {
        if (err)
            *err = r->fatal;
        return r->state;
    }
    if (r->state > 0)
        return 0;
    switch (r->fmt) {
    case QN_SUBMIT_AUTO:
    case QN_SUBMIT_TEXT: rc = next_text(r, err); break;
    case QN_SUBMIT_JSONL: rc = next_jsonl(r, err); break;
    case QN_SUBMIT_CSV: rc = next_csv(r, err); break;
    case QN_SUBMIT_JSON: rc = next_json(r, err); break;
    }
    if (rc == 0)
        r->state = 1;
    if (rc < 0) {
        if (r->state == 0)
            set_fatal(r, err, (qn_code)rc, r->line, 0, "cannot read input");
        if (err)
            *err = r->fatal;
        return r->state;
    }
    if (rc > 0) {
        *rec_out = &r->rec;
        r->mark = r->nread - (r->end - r->pos); /* a new gap starts */
    }
    return rc;
}

void qn_submit_close(qn_submit_reader *r)
{
    if (!r)
        return;
    qn_buf_release(&r->scratch);
    free(r->data.cells);
    free(r->data.solution);
    free(r->buf);
    free(r);
}

qn_submit_format qn_submit_detected(const qn_submit_reader *r)
{
    return r->fmt;
}

const char *qn_submit_format_name(qn_submit_format fmt)
{
    switch (fmt) {
    case QN_SUBMIT_AUTO: return "auto";
    case QN_SUBMIT_TEXT: return "text";
    case QN_SUBMIT_JSONL: return "jsonl";
    case QN_SUBMIT_CSV: return "csv";
    case QN_SUBMIT_JSON: return "json";
    }
    return "?";
}

int qn_submit_parse_state(uint8_t *cells_out, const qn_layout *l, unsigned k,
                          const char *text, size_t len, qn_err *err)
{
    const char *what = "";
    size_t i = 0, off;
    int ln, cl;

    while (i < len && (text[i] == ' ' || text[i] == '\t' ||
                       text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i < len && text[i] == '[') {
        off = qn_submit__check_bytes(text, len, &what);
        if (off < len) {
            qn_submit__pos(text, off, 1, 1, &ln, &cl);
            return qn_err_set(err, QN_ESYNTAX, ln, cl, "%s", what);
        }
        return qn_submit__json_state(cells_out, l, k, text, len, 1, 1, err);
    }
    return qn_state_parse(cells_out, l, k, text, len, err);
}
