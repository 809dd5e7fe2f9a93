/*
 * submit.c: the streaming submission reader (format in submit.h): opening,
 * format detection, and handing each call to its format's file
 * (submit_lines.c, submit_csv.c, submit_json.c), all over the block reader
 * of submit_read.c; JSON values go to json_in.c.
 */
#include "validate/submit.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "rules/state.h"
#include "submit_reader.h"

/* The first byte at or after i in the first block that is not blank. */
static size_t skip_blank(const qn_submit_reader *r, size_t i)
{
    const char *b = r->buf;

    while (i < r->end &&
           (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    return i;
}

/* The format of the first block: the first byte that is not blank (for an
 * object, its first key: "format", or the "$schema" that export writes
 * before it, begins a quench-pack document), and
 * for a line that is neither JSON nor a comment, whether it reads as a CSV
 * header. */
static qn_submit_format detect(qn_submit_reader *r)
{
    size_t i = skip_blank(r, r->pos), e, j;
    const char *b = r->buf;

    if (i == r->end)
        return QN_SUBMIT_TEXT;
    if (b[i] == '{') {
        j = skip_blank(r, i + 1);
        if ((r->end - j >= 8 && memcmp(b + j, "\"format\"", 8) == 0) ||
            (r->end - j >= 9 && memcmp(b + j, "\"$schema\"", 9) == 0))
            return QN_SUBMIT_JSON;
        return QN_SUBMIT_JSONL;
    }
    if (b[i] == '[')
        return QN_SUBMIT_JSON;
    if (b[i] == '#')
        return QN_SUBMIT_TEXT;
    for (e = i; e < r->end && b[e] != '\n'; e++)
        ;
    /* A state text never holds a quote or a comma (state.h): a first line
     * with one is a CSV header, with or without its state column (the
     * reader then says which columns it found). */
    if (b[i] == '"' || memchr(b + i, ',', e - i))
        return QN_SUBMIT_CSV;
    if (e - i >= 5 && qn_submit__same_name(b + i, 5, "state") &&
        qn_submit__is_blank(b + i + 5, e - i - 5))
        return QN_SUBMIT_CSV; /* a header with the one column */
    return QN_SUBMIT_TEXT;
}

qn_submit_reader *qn_submit__new(const char *source, const qn_layout *l,
                                 unsigned k)
{
    qn_submit_reader *r = QN_ALLOC(qn_submit_reader);

    if (!r)
        return NULL;
    snprintf(r->source, sizeof(r->source), "%s", source ? source : "");
    r->l = l;
    r->k = k;
    r->linebuf_of = -1;
    r->data.l = l;
    r->data.k = k;
    /* room past the cells: a line's cells are stored 16 at a time */
    r->data.cells =
        QN_ALLOCN((size_t)l->ncells + QN_SUBMIT__CELLS_PAD, uint8_t);
    r->data.solution = QN_ALLOCN((size_t)l->ncells, uint8_t);
    qn_buf_init(&r->scratch);
    qn_buf_init(&r->data.meta);
    qn_buf_init(&r->col_names);
    qn_err_source(&r->rec.err, r->source);
    if (!r->data.cells || !r->data.solution) {
        qn_submit_close(r);
        return NULL;
    }
    return r;
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
    if (!(r = qn_submit__new(source, l, k)))
        return qn_err_nomem(err);
    r->in = in;
    r->line = 1;
    r->col = 1;
    if (!(r->buf = qn_malloc(QN_SUBMIT__BUFCAP))) {
        qn_submit_close(r);
        return qn_err_nomem(err);
    }
    /* Read the first block: the BOM and format detection need it. */
    got = qn_submit__fill(r, err);
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
    case QN_SUBMIT_TEXT:
        rc = qn_submit__next_text(r, err);
        break;
    case QN_SUBMIT_JSONL:
        rc = qn_submit__next_jsonl(r, err);
        break;
    case QN_SUBMIT_CSV:
        rc = qn_submit__next_csv(r, err);
        break;
    case QN_SUBMIT_JSON:
        rc = qn_submit__next_json(r, err);
        break;
    }
    /* a record read with a buffer that ran out is not handed out */
    if (rc != QN_ENOMEM &&
        (r->scratch.failed || r->data.meta.failed || r->col_names.failed))
        rc = qn_submit__nomem(r, err);
    if (rc == 0)
        r->state = 1;
    if (rc < 0) {
        if (r->state == 0)
            qn_submit__fatal(r, err, (qn_code)rc, r->line, 0,
                             "cannot read input");
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
    qn_buf_release(&r->data.meta);
    qn_buf_release(&r->col_names);
    free(r->cols);
    free(r->fields);
    free(r->data.cells);
    free(r->data.solution);
    if (!r->slices)
        free(r->buf);
    free(r);
}

void qn_submit_expect_rule(qn_submit_reader *r, const char *hash)
{
    assert(strlen(hash) == 64 && r->seq == 0);
    memcpy(r->rule_hash, hash, 65);
    r->data.rule_hash = r->rule_hash;
}

uint64_t qn_submit_skipped(const qn_submit_reader *r)
{
    return r->skipped;
}

qn_submit_format qn_submit_detected(const qn_submit_reader *r)
{
    return r->fmt;
}

const char *qn_submit_format_name(qn_submit_format fmt)
{
    switch (fmt) {
    case QN_SUBMIT_AUTO:
        return "auto";
    case QN_SUBMIT_TEXT:
        return "text";
    case QN_SUBMIT_JSONL:
        return "jsonl";
    case QN_SUBMIT_CSV:
        return "csv";
    case QN_SUBMIT_JSON:
        return "json";
    }
    return "?";
}

int qn_submit_parse_state(uint8_t *cells_out, const qn_layout *l, unsigned k,
                          const char *text, size_t len, qn_err *err)
{
    const char *what = "";
    size_t i = 0, off;
    int ln, cl;

    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' ||
                       text[i] == '\n'))
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
