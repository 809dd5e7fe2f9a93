/*
 * submit_json.c: the JSON-document format, one top-level array of record
 * objects (or of the cell values of one state), or a quench-pack document
 * whose "puzzles" array holds the records, streamed: each element is
 * scanned byte by byte out of the block buffer and parsed alone by
 * json_in.c, so a huge array needs no more memory than its largest
 * element, and the document's other members are skipped without being
 * kept at all.
 */
#include "submit_reader.h"

#include "base/mem.h"

#include <string.h>

/* The byte at buf[pos], reading more if needed; -1 at the end, or EIO. */
static int peekc(qn_submit_reader *r, qn_err *err)
{
    if (r->pos == r->end) {
        long got = qn_submit__fill(r, err);
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
            return qn_submit__fatal(r, err, QN_ESYNTAX, js->line, js->col,
                                    "%s not closed at the end of the input",
                                    r->js == JS_KEY || r->js == JS_MEMBER
                                        ? "quench-pack document member"
                                        : "JSON array element");
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
 * Read one JSON value (an element of an array, a member's name or value)
 * into r->scratch: all of it, or (stop_at_limit) up to QN_SUBMIT_MAX_LINE
 * bytes, leaving the rest for json_scan to skip; or (!copy) none of it,
 * just past it. *tl says the value went past the limit. Returns
 * json_scan's result.
 */
static int json_element(qn_submit_reader *r, int copy, int stop_at_limit,
                        int *tl, qn_err *err)
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
    return json_scan(r, js, copy, stop_at_limit, tl, err);
}

/* Neither ',' nor ']' after an element of the array (c: as peekc). */
static int bad_separator(qn_submit_reader *r, int c, qn_err *err)
{
    if (c == -1)
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "JSON array not closed at the end of the "
                                "input");
    return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                            "expected ',' or ']' in the JSON array");
}

/*
 * Element `idx` of the whole-document state, read into r->scratch from
 * (line, col) (tl: it went past the limit): into r->data.cells, or its
 * error into *first. Returns 1 when it set *first, QN_ENOMEM (the
 * stream's end, qn_submit__nomem) when out of memory.
 */
static int state_cell(qn_submit_reader *r, size_t idx, long long line,
                      long long col, int tl, qn_err *first)
{
    const char *t = r->scratch.buf, *what = "";
    size_t n = r->scratch.len, off;
    int ln = qn_submit__clamp(line), cl = qn_submit__clamp(col), is_int, rc;
    qn_err e = QN_ERR_INIT;
    long long v;

    if (tl) {
        qn_err_set(first, QN_ELIMIT, ln, cl,
                   "JSON element longer than %d bytes", QN_SUBMIT_MAX_LINE);
        return 1;
    }
    if ((off = qn_submit__check_bytes(t, n, &what)) < n) {
        qn_submit__pos(t, off, ln, cl, &ln, &cl);
        qn_err_set(first, QN_ESYNTAX, ln, cl, "%s", what);
        return 1;
    }
    if ((rc = qn_submit__json_int(&v, &is_int, t, n, ln, cl, &e)) == QN_ENOMEM)
        return qn_submit__nomem(r, NULL);
    if (rc < 0) {
        const char *got = strstr(e.msg, ", got ");
        if (!is_int && got && strncmp(e.msg, "expected", 8) == 0) {
            char tmp[128];
            snprintf(tmp, sizeof(tmp), "%s", got);
            snprintf(e.msg, sizeof(e.msg),
                     "state value at index %zu must be an integer%s", idx, tmp);
        }
        *first = e;
        return 1;
    }
    if (v < 0 || v >= (long long)r->k) {
        qn_err_set(first, QN_ESYNTAX, ln, cl,
                   "state value %lld at index %zu must be 0..%u", v, idx,
                   r->k - 1);
        return 1;
    }
    r->data.cells[idx] = (uint8_t)v;
    return 0;
}

/*
 * The whole-document single state: every element one cell value. The
 * array is read to its end whatever goes wrong, and the record reports
 * the first problem.
 */
static int json_one_state(qn_submit_reader *r, long long line, long long col,
                          qn_err *err)
{
    long long el_line, el_col, first_extra_line = 0, first_extra_col = 0;
    size_t count = 0, ncells = (size_t)r->l->ncells;
    int c, tl, rc, have_err = 0;
    qn_err first = QN_ERR_INIT;

    for (;;) {
        c = skip_blanks(r, err);
        if (c < -1)
            return r->state;
        el_line = r->line;
        el_col = r->col;
        rc = json_element(r, 1, 0, &tl, err);
        if (rc < 0)
            return rc;
        if (count == ncells && !first_extra_line) {
            first_extra_line = el_line;
            first_extra_col = el_col;
        }
        if (!have_err && count < ncells &&
            (have_err = state_cell(r, count, el_line, el_col, tl, &first)) < 0)
            return have_err == QN_ENOMEM && err ? (*err = r->fatal, have_err)
                                                : have_err;
        count++;
        c = skip_blanks(r, err);
        if (c < -1)
            return r->state;
        if (c != ',' && c != ']')
            return bad_separator(r, c, err);
        step(r);
        if (c == ']')
            break;
    }
    r->js = JS_END;
    qn_submit__begin(r, line, col);
    if (have_err)
        return qn_submit__bad_err(r, &first);
    if (count > ncells)
        return qn_submit__bad(r, QN_ESYNTAX, first_extra_line, first_extra_col,
                              "expected %zu cells, got %zu", ncells, count);
    if (count < ncells)
        return qn_submit__bad(r, QN_ESYNTAX, r->line, r->col - 1,
                              "expected %zu cells, got %zu", ncells, count);
    return 1;
}

/* next_json's phases return this to go round again: the phase moved on
 * without a record to hand out. */
#define AGAIN 2

/* ---- the quench-pack document ------------------------------------------- */

/* The value just read into r->scratch is the JSON text `want`. */
static int scratch_is(const qn_submit_reader *r, const char *want)
{
    size_t n = strlen(want);

    return r->scratch.len == n && memcmp(r->scratch.buf, want, n) == 0;
}

/* The document's closing '}' was read: did it hold what it must? */
static int doc_end(qn_submit_reader *r, qn_err *err)
{
    r->js = JS_END;
    if (!r->doc_format)
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->doc_line, r->doc_col,
                                "a JSON object must be a quench-pack "
                                "document, with \"format\": "
                                "\"quench-pack\"");
    if (!r->doc_puzzles)
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->doc_line, r->doc_col,
                                "the quench-pack document has no "
                                "\"puzzles\" array");
    return AGAIN;
}

/* The value of "format" or "format_version" at (line, col), in
 * r->scratch: what this reader can read, or a fatal error. */
static int doc_check(qn_submit_reader *r, int is_version, long long line,
                     long long col, qn_err *err)
{
    int shown = r->scratch.len > 40 ? 40 : (int)r->scratch.len;

    if (!is_version) {
        if (!scratch_is(r, "\"quench-pack\""))
            return qn_submit__fatal(r, err, QN_ESYNTAX, line, col,
                                    "not a quench-pack document: format "
                                    "is %.*s",
                                    shown, r->scratch.buf);
        r->doc_format = 1;
        return AGAIN;
    }
    if (!scratch_is(r, "1") && !scratch_is(r, "2"))
        return qn_submit__fatal(r, err, QN_ESYNTAX, line, col,
                                "quench-pack format_version %.*s: this "
                                "quench reads versions 1 and 2",
                                shown, r->scratch.buf);
    return AGAIN;
}

/* The value of "puzzles", at byte c: its records come next. */
static int doc_puzzles(qn_submit_reader *r, int c, qn_err *err)
{
    if (c != '[')
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "\"puzzles\" must be an array");
    step(r);
    r->doc_puzzles = 1;
    r->js_records = 1;
    c = skip_blanks(r, err);
    if (c < -1)
        return r->state;
    r->js = JS_ELEM;
    if (c == ']') {
        step(r);
        r->js = JS_MEMBER;
    }
    return AGAIN;
}

/*
 * JS_KEY at byte c: one member of the document. "format" and
 * "format_version" are checked, "puzzles" holds the records; any other
 * member ("pack", "rules", what a later version adds) is skipped unread.
 */
static int doc_member(qn_submit_reader *r, int c, qn_err *err)
{
    long long line = r->line, col = r->col;
    int tl, rc, which;

    if (c == '}' && r->doc_members == 0) {
        step(r);
        return doc_end(r, err);
    }
    if (c != '"')
        return qn_submit__fatal(r, err, QN_ESYNTAX, line, col,
                                "expected a member name in the quench-pack "
                                "document");
    if ((rc = json_element(r, 1, 1, &tl, err)) < 0)
        return rc;
    if (tl)
        return qn_submit__fatal(r, err, QN_ELIMIT, line, col,
                                "member name longer than %d bytes",
                                QN_SUBMIT_MAX_LINE);
    which = scratch_is(r, "\"format\"")           ? 0
            : scratch_is(r, "\"format_version\"") ? 1
            : scratch_is(r, "\"puzzles\"")        ? 2
                                                  : 3;
    if ((c = skip_blanks(r, err)) < -1)
        return r->state;
    if (c != ':')
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "expected ':' after the member name");
    step(r);
    if ((c = skip_blanks(r, err)) < -1)
        return r->state;
    if (c == -1)
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "quench-pack document not closed at the "
                                "end of the input");
    r->doc_members++;
    r->js = JS_MEMBER;
    if (which == 2)
        return doc_puzzles(r, c, err);
    line = r->line;
    col = r->col;
    if ((rc = json_element(r, which < 2, 1, &tl, err)) < 0)
        return rc;
    return which < 2 ? doc_check(r, which, line, col, err) : AGAIN;
}

/* JS_MEMBER at byte c: another member, or the document's end. */
static int doc_next(qn_submit_reader *r, int c, qn_err *err)
{
    if (c == ',') {
        step(r);
        r->js = JS_KEY;
        return AGAIN;
    }
    if (c == '}') {
        step(r);
        return doc_end(r, err);
    }
    if (c == -1)
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "quench-pack document not closed at the "
                                "end of the input");
    return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                            "expected ',' or '}' in the quench-pack "
                            "document");
}

/* ---- the top level ------------------------------------------------------ */

/* JS_START at byte c: open the top-level array and see what it holds, or
 * open a quench-pack document. */
static int json_open(qn_submit_reader *r, int c, qn_err *err)
{
    long long line, col;

    if (c == -1)
        return 0;
    if (c == '{') {
        r->js_doc = 1;
        r->doc_line = r->line;
        r->doc_col = r->col;
        step(r);
        r->js = JS_KEY;
        return AGAIN;
    }
    if (c != '[')
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "expected a JSON array or a quench-pack "
                                "document, got something else");
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
        return AGAIN;
    }
    if (c != '{') {
        r->js_records = 0;
        return json_one_state(r, line, col, err);
    }
    r->js_records = 1;
    r->js = JS_ELEM;
    return AGAIN;
}

/* JS_FIRST, JS_ELEM at byte c: the next record object of the array. */
static int json_next_record(qn_submit_reader *r, int c, qn_err *err)
{
    qn_err e = QN_ERR_INIT;
    long long line, col;
    int tl, rc;

    if (c == -1)
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "JSON array not closed at the end of the "
                                "input");
    if (c == ']')
        return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                "expected a JSON value after ','");
    line = r->line;
    col = r->col;
    rc = json_element(r, 1, 1, &tl, err);
    if (rc < 0)
        return rc;
    r->js = JS_AFTER;
    qn_submit__begin(r, line, col);
    if (tl) {
        /* said at the limit; the rest is skipped next time */
        r->js = JS_SKIP;
        snprintf(r->skipping, sizeof(r->skipping), "JSON element at %lld:%lld",
                 line, col);
        return qn_submit__bad(r, QN_ELIMIT, line, col,
                              "JSON element longer than %d bytes",
                              QN_SUBMIT_MAX_LINE);
    }
    if (qn_submit__bad_bytes(r, r->scratch.buf, r->scratch.len, line, col))
        return 1;
    rc = qn_submit__json_record(&r->data, r->scratch.buf, r->scratch.len,
                                qn_submit__clamp(line), qn_submit__clamp(col),
                                &e);
    if (rc == QN_ENOMEM)
        return qn_submit__nomem(r, err);
    if (rc < 0) {
        qn_submit__bad_err(r, &e);
    } else if (r->data.is_meta) {
        qn_submit__skip_meta(r);
        return AGAIN;
    }
    return qn_submit__finish(r);
}

int qn_submit__next_json(qn_submit_reader *r, qn_err *err)
{
    int c, tl, rc = AGAIN;

    for (;;) {
        if (r->js == JS_SKIP) {
            /* the rest of an over-long element: blanks there may be
             * inside a string, so skip_blanks must not run first */
            if ((rc = json_scan(r, &r->jsk, 0, 0, &tl, err)) < 0)
                return rc;
            r->skipping[0] = '\0';
            r->js = JS_AFTER;
        }
        c = skip_blanks(r, err);
        if (c < -1)
            return r->state;
        switch (r->js) {
        case JS_START:
            rc = json_open(r, c, err);
            break;
        case JS_FIRST:
        case JS_ELEM:
            rc = json_next_record(r, c, err);
            break;
        case JS_AFTER:
            if (c != ',' && c != ']')
                return bad_separator(r, c, err);
            step(r);
            r->js = c == ',' ? JS_ELEM : r->js_doc ? JS_MEMBER : JS_END;
            continue;
        case JS_KEY:
            rc = doc_member(r, c, err);
            break;
        case JS_MEMBER:
            rc = doc_next(r, c, err);
            break;
        case JS_SKIP: /* handled above */
        case JS_END:
            if (c == -1)
                return 0;
            return qn_submit__fatal(r, err, QN_ESYNTAX, r->line, r->col,
                                    "unexpected data after the JSON %s",
                                    r->js_doc ? "document" : "array");
        }
        if (rc != AGAIN)
            return rc;
    }
}
