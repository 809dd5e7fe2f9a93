/*
 * submit_lines.c: the two formats with one record a line: TEXT (a board
 * in the state text format, with a fast path for the common exact form)
 * and JSON Lines (one object a line, parsed by json_in.c).
 */
#include "submit_reader.h"

#include "base/mem.h"
#include "rules/state.h"

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

/* ---- TEXT --------------------------------------------------------------- */

int qn_submit__next_text(qn_submit_reader *r, qn_err *err)
{
    const char *s = NULL;
    size_t n = 0, i;
    long long line;
    int rc, tl;
    qn_err e;

    for (;;) {
        rc = qn_submit__get_line(r, &s, &n, &line, &tl, err);
        if (rc <= 0)
            return rc;
        if (tl) {
            qn_submit__begin(r, line, 1);
            return qn_submit__too_long(r, line, "line");
        }
        if (fast_state(r->data.cells, r->l, r->k, s, n)) {
            qn_submit__begin(r, line, 1);
            return 1;
        }
        for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'); i++)
            ;
        if (i < n && s[i] != '#')
            break;
    }
    qn_submit__begin(r, line, 1);
    if (qn_submit__bad_bytes(r, s, n, line, 1))
        return 1;
    if (qn_state_parse(r->data.cells, r->l, r->k, s, n, &e) != QN_OK)
        return qn_submit__bad(r, e.code, line, e.col, "%s", e.msg);
    return 1;
}

/* ---- JSONL -------------------------------------------------------------- */

int qn_submit__next_jsonl(qn_submit_reader *r, qn_err *err)
{
    const char *s = NULL;
    size_t n = 0;
    long long line;
    int rc, tl;
    qn_err e = QN_ERR_INIT;

    for (;;) {
        do {
            rc = qn_submit__get_line(r, &s, &n, &line, &tl, err);
            if (rc <= 0)
                return rc;
        } while (!tl && qn_submit__is_blank(s, n));
        qn_submit__begin(r, line, 1);
        if (tl)
            return qn_submit__too_long(r, line, "line");
        if (qn_submit__bad_bytes(r, s, n, line, 1))
            return 1;
        rc = qn_submit__json_record(&r->data, s, n, qn_submit__clamp(line), 1,
                                    &e);
        if (rc == QN_ENOMEM)
            return qn_submit__nomem(r, err);
        if (rc < 0)
            qn_submit__bad_err(r, &e);
        if (!r->rec.ok || !r->data.is_meta)
            return qn_submit__finish(r);
        qn_submit__skip_meta(r);
    }
}
