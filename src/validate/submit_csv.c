/*
 * submit_csv.c: the CSV format (RFC 4180 quoting, a header naming the
 * columns): records over several lines while a quoted field is open,
 * split into fields, each field checked where it stands in the text, the
 * cells of columns quench does not read kept as metadata.
 */
#include "submit_reader.h"

#include <string.h>

#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"

/* The columns quench reads; any other is the record's metadata. */
enum col_kind {
    COL_OTHER = -1,
    COL_ID,
    COL_STATE,
    COL_SOLUTION,
    COL_MIN,
    COL_RULE,
    COL_RULE_HASH
};
static const char *const col_names[QN_SUBMIT__NREAD] = {
    "id", "state", "solution", "min_presses", "rule", "rule_hash"};

struct qn_submit__col {
    int kind;              /* enum col_kind */
    size_t name, name_len; /* COL_OTHER: its "name": in r->col_names */
};

typedef struct qn_submit__field {
    size_t raw, raw_end; /* offsets in the record text, quotes included */
    size_t dec, dec_len; /* decoded bytes in r->scratch after the text */
} field;

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

/*
 * The next CSV record (physical lines joined while a quoted field is open)
 * into r->scratch. Returns 1 with *line_out its first line and *tl set if
 * it went over the limit, 0 at the end, or QN_EIO.
 */
static int csv_record(qn_submit_reader *r, long long *line_out, int *tl,
                      qn_err *err)
{
    const char *s = NULL;
    size_t n = 0;
    long long line;
    int rc, in_q = 0, at_start = 1;

    do {
        rc = qn_submit__get_line(r, &s, &n, &line, tl, err);
        if (rc <= 0)
            return rc;
    } while (!*tl && qn_submit__is_blank(s, n));
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
        rc = qn_submit__get_line(r, &s, &n, &line, tl, err);
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
 * offset of the problem and a message; *done is the count of the fields
 * split before it (complete in f up to max) either way.
 */
static long csv_split(qn_submit_reader *r, size_t len, field *f, int max,
                      long *done, size_t *bad_off, const char **why)
{
    size_t i = 0;
    long nf = 0;

    /* Decoded text never exceeds the raw text: grow once, then index.
     * Out of memory leaves scratch failed: qn_submit_next says so. */
    if (qn_buf_grow(&r->scratch, len + 1)) {
        *done = 0;
        *bad_off = 0;
        *why = "out of memory";
        return -1;
    }
    r->scratch.len = len;
    for (;;) {
        const char *t = r->scratch.buf;
        char *d = r->scratch.buf + r->scratch.len;
        size_t start = i, dstart = r->scratch.len, dn = 0;
        if (i < len && t[i] == '"') {
            i++;
            for (;;) {
                if (i >= len) {
                    *done = nf;
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
                *done = nf;
                *bad_off = i;
                *why = "unexpected character after a closing quote";
                return -1;
            }
        } else {
            while (i < len && t[i] != ',') {
                if (t[i] == '"') {
                    *done = nf;
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
    *done = nf;
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

/*
 * Column i of the header, named name[0..n) at (ln, cl): a column quench
 * reads, or one whose cells are metadata under its name. Returns 0, or a
 * fatal code (a repeated or unnamed column: no record could say which
 * field it holds).
 */
static int csv_column(qn_submit_reader *r, int i, const char *name, size_t n,
                      int ln, int cl, qn_err *err)
{
    qn_submit__col *c = &r->cols[i];
    int kind, j, shown = n > 64 ? 64 : (int)n;

    if (n == 0)
        return qn_submit__fatal(r, err, QN_ESYNTAX, ln, cl,
                                "CSV column %d has no name", i + 1);
    for (kind = 0; kind < QN_SUBMIT__NREAD; kind++)
        if (qn_submit__same_name(name, n, col_names[kind]))
            break;
    if (kind < QN_SUBMIT__NREAD) {
        if (r->col_of[kind] >= 0)
            return qn_submit__fatal(r, err, QN_ESYNTAX, ln, cl,
                                    "CSV column '%s' appears twice",
                                    col_names[kind]);
        r->col_of[kind] = i;
        c->kind = kind;
        return 0;
    }
    c->kind = COL_OTHER;
    c->name = r->col_names.len;
    qn_json_escape(&r->col_names, name, n);
    qn_buf_addc(&r->col_names, ':');
    c->name_len = r->col_names.len - c->name;
    for (j = 0; j < i; j++)
        if (r->cols[j].kind == COL_OTHER &&
            r->cols[j].name_len == c->name_len &&
            memcmp(r->col_names.buf + r->cols[j].name,
                   r->col_names.buf + c->name, c->name_len) == 0)
            return qn_submit__fatal(r, err, QN_ESYNTAX, ln, cl,
                                    "CSV column '%.*s' appears twice", shown,
                                    name);
    qn_submit__note_field(&r->data, "CSV column", name, n);
    return 0;
}

/*
 * A header without a state column: which columns it has and which quench
 * reads, so a file of other columns (or another header line) is told
 * from a file of bad states.
 */
static int no_state(qn_submit_reader *r, const field *f, long nf,
                    long long line, qn_err *err)
{
    qn_buf found = QN_BUF_INIT;
    const char *near = NULL;
    char name[33];
    long i;
    int rc;

    for (i = 0; i < nf && found.len < 64; i++) {
        size_t n = f[i].dec_len > 32 ? 32 : f[i].dec_len;
        memcpy(name, r->scratch.buf + f[i].dec, n);
        name[n] = '\0';
        qn_buf_addf(&found, "%s'", i ? ", " : "");
        qn_text_escape(&found, name);
        qn_buf_addc(&found, '\'');
        if (!near && r->cols[i].kind == COL_OTHER)
            near = qn_submit__suggest(r->scratch.buf + f[i].dec, f[i].dec_len);
    }
    if (i < nf)
        qn_buf_addf(&found, " and %ld more", nf - i);
    if (found.failed) {
        qn_buf_release(&found);
        return qn_submit__nomem(r, err);
    }
    rc = qn_submit__fatal(
        r, err, QN_ESYNTAX, line, 1,
        "CSV header has no 'state' column: found %s%s; "
        "expected state (any case) and any of id, "
        "solution, min_presses, rule, rule_hash",
        found.buf,
        near && !strcmp(near, "state") ? " (did you mean 'state'?)" : "");
    qn_buf_release(&found);
    return rc;
}

static int csv_header(qn_submit_reader *r, qn_err *err)
{
    long long line;
    const char *why = "";
    size_t boff = 0, len;
    long nf = -1, i, done;
    int rc, tl, ln, cl;
    field *f;

    rc = csv_record(r, &line, &tl, err);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        r->header_done = 1;
        return 0; /* empty input: no records, no header needed */
    }
    if (tl)
        return qn_submit__fatal(r, err, QN_ELIMIT, line, 1,
                                "CSV header longer than %d bytes",
                                QN_SUBMIT_MAX_LINE);
    f = r->fields = QN_ALLOCN((size_t)QN_SUBMIT_MAX_COLUMNS + 1, field);
    if (!f)
        return qn_submit__nomem(r, err);
    len = r->scratch.len;
    boff = qn_submit__check_bytes(r->scratch.buf, len, &why);
    if (boff == len)
        nf =
            csv_split(r, len, f, QN_SUBMIT_MAX_COLUMNS + 1, &done, &boff, &why);
    if (nf < 0) {
        qn_submit__pos(r->scratch.buf, boff, qn_submit__clamp(line), 1, &ln,
                       &cl);
        return qn_submit__fatal(r, err, QN_ESYNTAX, ln, cl, "CSV header: %s",
                                why);
    }
    if (nf > QN_SUBMIT_MAX_COLUMNS) {
        qn_submit__pos(r->scratch.buf, f[QN_SUBMIT_MAX_COLUMNS].raw,
                       qn_submit__clamp(line), 1, &ln, &cl);
        return qn_submit__fatal(r, err, QN_ELIMIT, ln, cl,
                                "CSV header has more than %d columns",
                                QN_SUBMIT_MAX_COLUMNS);
    }
    for (i = 0; i < QN_SUBMIT__NREAD; i++)
        r->col_of[i] = -1;
    if (!(r->cols = QN_ALLOCN((size_t)nf + 1, qn_submit__col)))
        return qn_submit__nomem(r, err);
    r->data.note[0] = '\0';
    for (i = 0; i < nf; i++) {
        qn_submit__pos(r->scratch.buf, f[i].raw, qn_submit__clamp(line), 1, &ln,
                       &cl);
        if ((rc = csv_column(r, (int)i, r->scratch.buf + f[i].dec, f[i].dec_len,
                             ln, cl, err)) < 0)
            return rc;
    }
    if (r->col_of[COL_STATE] < 0)
        return no_state(r, f, nf, line, err);
    snprintf(r->csv_note, sizeof(r->csv_note), "%s", r->data.note);
    r->ncols = (int)nf;
    r->header_done = 1;
    return 1;
}

/* The id first, so a malformed record still shows it. */
static void csv_take_id(qn_submit_reader *r, const field *f, long nf)
{
    int col = r->col_of[COL_ID];

    if (col >= 0 && col < nf) {
        const field *fi = &f[col];
        if (fi->dec_len > 0 && fi->dec_len <= QN_SUBMIT_MAX_ID) {
            memcpy(r->data.id, r->scratch.buf + fi->dec, fi->dec_len);
            r->data.id[fi->dec_len] = '\0';
            r->data.has_id = 1;
        }
    }
}

/* The min_presses field v[0..n), at (ln, cl). Returns 1 when the record
 * turned malformed. */
static int csv_min(qn_submit_reader *r, const char *v, size_t n, int ln, int cl)
{
    uint64_t m = 0;
    size_t j;

    if (n == 0)
        return 0;
    for (j = 0; j < n; j++) {
        unsigned dgt = (unsigned)v[j] - '0';
        if (dgt > 9 || m > (UINT64_MAX - dgt) / 10)
            break;
        m = m * 10 + dgt;
    }
    if (j < n) {
        if ((unsigned)v[j] - '0' <= 9)
            qn_submit__bad(r, QN_ESYNTAX, ln, cl,
                           "min_presses '%.*s' does not fit in 64 bits",
                           (int)(n > 40 ? 40 : n), v);
        else
            qn_submit__bad(r, QN_ESYNTAX, ln, cl,
                           "min_presses must be a non-negative integer, got "
                           "'%.*s'",
                           (int)(n > 40 ? 40 : n), v);
        return 1;
    }
    r->data.min_presses = m;
    r->data.has_min = 1;
    return 0;
}

/* Field fi of column kind `which` of the record at `line`. Returns 1 when
 * the record turned malformed. */
static int csv_field(qn_submit_reader *r, int which, const field *fi,
                     long long line)
{
    const char *t = r->scratch.buf, *v = t + fi->dec;
    size_t n = fi->dec_len, off = 0;
    qn_err e = QN_ERR_INIT;
    int ln, cl;

    qn_submit__pos(t, fi->raw, qn_submit__clamp(line), 1, &ln, &cl);
    if (which == COL_ID) {
        if (n > QN_SUBMIT_MAX_ID)
            return qn_submit__bad(r, QN_ELIMIT, ln, cl,
                                  "id longer than %d bytes (%zu)",
                                  QN_SUBMIT_MAX_ID, n);
    } else if (which == COL_STATE || which == COL_SOLUTION) {
        uint8_t *out = which == COL_STATE ? r->data.cells : r->data.solution;
        if (n == 0 && which == COL_SOLUTION)
            return 0;
        if (qn_submit__cells_str(out, r->l, r->k, which == COL_SOLUTION, v, n,
                                 &off, &e) != QN_OK) {
            qn_submit__pos(t, csv_raw_off(t, fi, off), qn_submit__clamp(line),
                           1, &ln, &cl);
            return qn_submit__bad(r, e.code, ln, cl, "%s%s",
                                  which == COL_SOLUTION ? "solution: " : "",
                                  e.msg);
        }
        if (which == COL_SOLUTION)
            r->data.has_solution = 1;
    } else if (which == COL_MIN) {
        return csv_min(r, v, n, ln, cl);
    }
    return 0;
}

/* The rule columns, before the others: a puzzle of another rule is
 * reported as such. Returns 1 when the record turned malformed. */
static int csv_rule(qn_submit_reader *r, const field *f, long long line)
{
    qn_err e = QN_ERR_INIT;
    int kind, col, ln, cl;

    for (kind = COL_RULE; kind <= COL_RULE_HASH; kind++) {
        if ((col = r->col_of[kind]) < 0 || f[col].dec_len == 0)
            continue;
        if (qn_submit__check_rule(&r->data, r->scratch.buf + f[col].dec,
                                  f[col].dec_len, &e) != QN_OK) {
            qn_submit__pos(r->scratch.buf, f[col].raw, qn_submit__clamp(line),
                           1, &ln, &cl);
            return qn_submit__bad(r, e.code, ln, cl, "%s", e.msg);
        }
    }
    return 0;
}

/* Field fi of column c onto the record's metadata, as a string. */
static void csv_meta(qn_submit_reader *r, const qn_submit__col *c,
                     const field *fi)
{
    qn_buf *m = &r->data.meta;

    qn_buf_addc(m, m->len ? ',' : '{');
    qn_buf_add(m, r->col_names.buf + c->name, c->name_len);
    qn_json_escape(m, r->scratch.buf + fi->dec, fi->dec_len);
}

int qn_submit__next_csv(qn_submit_reader *r, qn_err *err)
{
    const char *why = "";
    size_t boff = 0, len;
    long long line;
    long nf, done;
    int rc, tl, ln, cl, i;
    field *f;

    if (!r->header_done) {
        rc = csv_header(r, err);
        if (rc <= 0)
            return rc;
    }
    rc = csv_record(r, &line, &tl, err);
    if (rc <= 0)
        return rc;
    qn_submit__begin(r, line, 1);
    snprintf(r->data.note, sizeof(r->data.note), "%s", r->csv_note);
    if (tl)
        return qn_submit__too_long(r, line, "CSV record");
    len = r->scratch.len;
    if (qn_submit__bad_bytes(r, r->scratch.buf, len, line, 1))
        return 1;
    f = r->fields;
    nf = csv_split(r, len, f, r->ncols + 1, &done, &boff, &why);
    if (nf < 0) {
        /* the fields before the problem are whole: keep the id */
        csv_take_id(r, f, done < r->ncols ? done : r->ncols);
        qn_submit__pos(r->scratch.buf, boff, qn_submit__clamp(line), 1, &ln,
                       &cl);
        qn_submit__bad(r, QN_ESYNTAX, ln, cl, "%s", why);
        return qn_submit__finish(r);
    }
    csv_take_id(r, f, nf);
    if (nf != r->ncols) {
        size_t at = nf > r->ncols ? f[r->ncols].raw : len;
        qn_submit__pos(r->scratch.buf, at, qn_submit__clamp(line), 1, &ln, &cl);
        qn_submit__bad(r, QN_ESYNTAX, ln, cl, "expected %d fields, got %ld",
                       r->ncols, nf);
        return qn_submit__finish(r);
    }
    if (csv_rule(r, f, line))
        return qn_submit__finish(r);
    for (i = 0; i < r->ncols; i++) {
        if (r->cols[i].kind == COL_OTHER)
            csv_meta(r, &r->cols[i], &f[i]);
        else if (csv_field(r, r->cols[i].kind, &f[i], line))
            break;
    }
    if (r->data.meta.len)
        qn_buf_addc(&r->data.meta, '}');
    return qn_submit__finish(r);
}
