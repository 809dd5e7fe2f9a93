/*
 * verdict_write.c: verdicts as text lines and JSON objects (see
 * verdict_write.h), each written at a pointer into room reserved once.
 */
#include "validate/verdict_write.h"

#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "rules/layout.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "rules/state.h"
#include "solve/human_score.h"

struct qn_verdict_writer { /* read by every worker for every verdict */
    char apart0[64];       /* off heap neighbours' cache lines */
    const qn_solver *solver;
    const qn_layout *l;
    qn_verdict_style style;
    int n;            /* cells */
    size_t state_max; /* bytes of a witness, at most */
    qn_buf names;     /* text: the cells' names ("(r,c)"), back to back */
    size_t *name_at;  /* n + 1 offsets into names */
    size_t name_max;  /* the longest name */
    char apart1[64];
};

qn_verdict_writer *qn_verdict_writer_new(const qn_solver *solver,
                                         qn_verdict_style style)
{
    qn_verdict_writer *w = QN_ALLOC(qn_verdict_writer);

    if (!w)
        return NULL;
    w->solver = solver;
    w->l = qn_rules_layout(qn_solver_rules(solver));
    w->style = style;
    w->n = qn_solver_ncells(solver);
    w->state_max = qn_state_format_max(w->l);
    qn_buf_init(&w->names);
    if (!(w->name_at = QN_ALLOCN((size_t)w->n + 1, size_t))) {
        free(w);
        return NULL;
    }
    for (int i = 0; i < w->n && !w->names.failed; i++) {
        qn_solver_cell_name(solver, &w->names, i);
        w->name_at[i + 1] = w->names.len;
        if (w->names.len - w->name_at[i] > w->name_max)
            w->name_max = w->names.len - w->name_at[i];
    }
    if (w->names.failed) {
        qn_verdict_writer_free(w);
        return NULL;
    }
    return w;
}

void qn_verdict_writer_free(qn_verdict_writer *w)
{
    if (!w)
        return;
    qn_buf_release(&w->names);
    free(w->name_at);
    free(w);
}

static void finish(qn_buf *out, char *p)
{
    out->len = (size_t)(p - out->buf);
    *p = '\0';
}

/* a string literal (pasting "" refuses anything else) */
#define PUT(p, lit) put(p, "" lit, sizeof(lit) - 1)

static char *put(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

static char *put_i64(char *p, int64_t v)
{
    if (v >= 0)
        return qn_json_put_u64(p, (uint64_t)v);
    *p++ = '-';
    return qn_json_put_u64(p, (uint64_t)0 - (uint64_t)v);
}

static char *put_puzzle_id(char *p, uint64_t id)
{
    char hex[QN_PUZZLE_ID_HEX];

    qn_puzzle_id_hex(hex, id);
    return put(p, hex, QN_PUZZLE_ID_HEX - 1);
}

/* A string from outside on a text line, escaped as every text quench
 * prints (text.h): no ESC, OSC or bidirectional control reaches the
 * terminal, and a verdict stays one line whatever ids and reasons hold.
 * Its room: QN_TEXT_ESCAPED_MAX(n) <= QN_JSON_STR_MAX(n), see room(). */
static char *put_line(char *p, const char *s, size_t n)
{
    return qn_text_put_escaped(p, s, n);
}

static char *put_str(char *p, const char *s)
{
    return qn_json_put_str(p, s, strlen(s));
}

/* A human level's name: quench's own word in lowercase letters, which
 * neither escape changes. */
static char *put_level(char *p, int level)
{
    const char *name = qn_human_level_name(level);

    return put(p, name, strlen(name));
}

/* A record's id as a JSON string (json) or on a text line: one the
 * submitter gave is escaped; the default, a line number, is digits. */
static char *put_id(char *p, const qn_submission *s, size_t n, int json)
{
    if (s->has_id)
        return json ? qn_json_put_str(p, s->id, n) : put_line(p, s->id, n);
    if (json)
        *p++ = '"';
    p = put(p, s->id, n);
    if (json)
        *p++ = '"';
    return p;
}

/* The cells as a JSON array's elements; most are single digits. */
static char *json_cells(char *p, const uint8_t *x, int n)
{
    int i = 0;

    /* single digits: each "d," whole, the last comma taken back */
    while (i < n && x[i] < 10) {
        p[0] = (char)('0' + x[i++]);
        p[1] = ',';
        p += 2;
    }
    if (i > 0)
        p--;
    for (; i < n; i++) {
        if (i)
            *p++ = ',';
        if (x[i] < 10)
            *p++ = (char)('0' + x[i]);
        else
            p = qn_json_put_u64(p, x[i]);
    }
    return p;
}

/* A duplicate of an earlier submission cites it by its id (has_id: the
 * submitter's; else its line number) and its number; of a stored puzzle,
 * by that puzzle's id (dup_of). */
static char *json_duplicate(char *p, int stored, uint64_t dup_of,
                            const char *id, int has_id)
{
    (void)has_id;
    if (!stored) {
        p = PUT(p, ",\"duplicate_of\":");
        p = qn_json_put_u64(p, dup_of);
        p = PUT(p, ",\"duplicate_of_id\":");
        return put_str(p, id);
    }
    p = PUT(p, ",\"duplicate_of_stored\":\"");
    p = put_puzzle_id(p, dup_of);
    *p++ = '"';
    return p;
}

static char *text_duplicate(char *p, int stored, uint64_t dup_of,
                            const char *id, int has_id)
{
    if (!stored) {
        p = PUT(p, "same puzzle as ");
        if (!has_id)
            p = PUT(p, "line ");
        p = put_line(p, id, strlen(id));
        p = PUT(p, " (#");
        p = qn_json_put_u64(p, dup_of);
        *p++ = ')';
        return p;
    }
    p = PUT(p, "same puzzle as stored puzzle ");
    return put_puzzle_id(p, dup_of);
}

/* Why a state is unsolvable (qn_solver_explain's lines) on one line:
 * the lines joined by "; ". Its room: QN_TEXT_ESCAPED_MAX(why->len) + 1
 * bytes a line, which QN_JSON_STR_MAX(why->len) covers (see room()). */
static char *text_why(char *p, const qn_buf *why)
{
    const char *s = why->buf, *end = why->buf + why->len;

    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (s != why->buf)
            p = PUT(p, "; ");
        p = put_line(p, s, n);
        s += n + (nl != NULL);
    }
    return p;
}

/* ,"human_level":"table","human_level_number":2,"human_score":7680,
 * "human_model_version":1 (level, number and score null without one) */
static char *json_human(char *p, const qn_ruling *r)
{
    if (r->human_level < 0) {
        p = PUT(p, ",\"human_level\":null,\"human_level_number\":null,"
                   "\"human_score\":null");
    } else {
        p = PUT(p, ",\"human_level\":\"");
        p = put_level(p, r->human_level);
        p = PUT(p, "\",\"human_level_number\":");
        *p++ = (char)('0' + r->human_level);
        p = PUT(p, ",\"human_score\":");
        p = put_i64(p, r->human_score);
    }
    p = PUT(p, ",\"human_model_version\":");
    return qn_json_put_u64(p, QN_HUMAN_MODEL_VERSION);
}

/* Why an unsolvable state is, as the verdict says it: "..." escaped
 * for JSON, or text_why's line. */
static char *put_why(const qn_verdict_writer *w, char *p, const qn_buf *why)
{
    if (w->style == QN_VERDICT_TEXT)
        return text_why(p, why);
    return qn_json_put_str(p, why->buf, why->len);
}

/* r's words (qn_ruling_why) as the verdict writes them: for words cached
 * by class, written into the ruling's cache once per class and style,
 * then copied whole; NULL when they are r's own (written in place). */
static const qn_buf *written_why(const qn_verdict_writer *w, qn_ruling *r)
{
    const qn_buf *why = qn_ruling_why(r);
    int i = r->why_slot;
    qn_buf *o;

    if (r->verdict != QN_VERDICT_UNSOLVABLE || i < 0)
        return NULL;
    o = &r->why_out[i];
    if (r->why_style[i] != (int)w->style) {
        qn_buf_reset(o);
        if (qn_buf_grow(o, QN_JSON_STR_MAX(why->len)))
            return NULL; /* written in place instead */
        finish(o, put_why(w, o->buf, why));
        r->why_style[i] = (int)w->style;
    }
    return o;
}

static char *put_written_why(const qn_verdict_writer *w, char *p,
                             const qn_ruling *r, const qn_buf *written)
{
    if (written)
        return put(p, written->buf, written->len);
    return put_why(w, p, qn_ruling_why(r));
}

/* What only this verdict says, after the common members (written: the
 * words of an unsolvable state written already, or NULL). */
static char *json_body(const qn_verdict_writer *w, char *p,
                       const qn_submission *s, const qn_ruling *r,
                       const char *grade, const qn_buf *written)
{
    const qn_answer *a = &r->ans;

    switch (r->verdict) {
    case QN_VERDICT_MALFORMED:
        p = PUT(p, ",\"line\":");
        p = put_i64(p, s->err.line);
        p = PUT(p, ",\"col\":");
        p = put_i64(p, s->err.col);
        p = PUT(p, ",\"reason\":");
        return put_str(p, r->reason.buf);
    case QN_VERDICT_UNSOLVABLE:
        p = PUT(p, ",\"why\":");
        p = put_written_why(w, p, r, written);
        if (!a->repair_known)
            return PUT(p, ",\"repair\":null");
        p = PUT(p, ",\"repair\":[");
        for (int i = 0; i < a->nrepair; i++) {
            if (i)
                *p++ = ',';
            *p++ = '[';
            p = put_i64(p, a->repair_cell[i]);
            *p++ = ',';
            p = qn_json_put_u64(p, a->repair_value[i]);
            *p++ = ']';
        }
        *p++ = ']';
        return p;
    case QN_VERDICT_DUPLICATE:
        return json_duplicate(p, r->dup_stored,
                              r->dup_stored ? r->dup_stored_id : r->dup_of,
                              r->dup_id.buf, r->dup_has_id);
    case QN_VERDICT_CLAIM_MISMATCH:
        p = PUT(p, ",\"reason\":");
        p = put_str(p, r->reason.buf);
        if (!r->claim_plan_bad) {
            p = PUT(p, ",\"claimed_minus_true\":");
            p = put_i64(p, r->claim_delta);
        }
        /* then the true figures, as for ok */
        /* fall through */
    case QN_VERDICT_OK:
        p = PUT(p, ",\"min_presses\":");
        p = qn_json_put_u64(p, a->mp.presses);
        p = a->exact ? PUT(p, ",\"exact\":true") : PUT(p, ",\"exact\":false");
        p = PUT(p, ",\"optimal_solutions\":");
        p = qn_json_put_u64(p, a->exact ? a->mp.noptimal : 0);
        p = PUT(p, ",\"grade\":");
        p = grade ? put_str(p, grade) : PUT(p, "null");
        p = json_human(p, r);
        p = PUT(p, ",\"solution\":[");
        p = json_cells(p, a->plan, w->n);
        *p++ = ']';
        return p;
    case QN_VERDICT_TRIVIAL:
    default:
        return p;
    }
}

static char *text_body(const qn_verdict_writer *w, char *p,
                       const qn_submission *s, const qn_ruling *r,
                       const char *grade, const qn_buf *written)
{
    const qn_answer *a = &r->ans;

    switch (r->verdict) {
    case QN_VERDICT_MALFORMED:
        p = put_i64(p, s->err.line);
        *p++ = ':';
        p = put_i64(p, s->err.col);
        p = PUT(p, ": ");
        return put_line(p, r->reason.buf, strlen(r->reason.buf));
    case QN_VERDICT_UNSOLVABLE:
        p = put_written_why(w, p, r, written);
        if (qn_ruling_why(r)->len)
            p = PUT(p, "; ");
        if (!a->repair_known)
            return PUT(p, "repair not computed");
        p = PUT(p, "change ");
        p = put_i64(p, a->nrepair);
        p = a->nrepair == 1 ? PUT(p, " cell:") : PUT(p, " cells:");
        for (int i = 0; i < a->nrepair; i++) {
            size_t at = w->name_at[a->repair_cell[i]];
            p = i ? PUT(p, ", ") : PUT(p, " ");
            p = put(p, w->names.buf + at,
                    w->name_at[a->repair_cell[i] + 1] - at);
            p = PUT(p, " to ");
            p = qn_json_put_u64(p, a->repair_value[i]);
        }
        return p;
    case QN_VERDICT_DUPLICATE:
        return text_duplicate(p, r->dup_stored,
                              r->dup_stored ? r->dup_stored_id : r->dup_of,
                              r->dup_id.buf, r->dup_has_id);
    case QN_VERDICT_TRIVIAL:
        return PUT(p, "already at the goal");
    case QN_VERDICT_CLAIM_MISMATCH:
        p = put_line(p, r->reason.buf, strlen(r->reason.buf));
        p = PUT(p, "; ");
        /* fall through */
    case QN_VERDICT_OK:
        p = qn_json_put_u64(p, a->mp.presses);
        p = a->mp.presses == 1 ? PUT(p, " press") : PUT(p, " presses");
        if (!a->exact)
            p = PUT(p, " (not proven minimal)");
        if (grade) {
            p = PUT(p, ", grade ");
            p = put_line(p, grade, strlen(grade));
        }
        if (r->human_level >= 0) { /* ", human table (2) 7.680" */
            p = PUT(p, ", human ");
            p = put_level(p, r->human_level);
            p = PUT(p, " (");
            *p++ = (char)('0' + r->human_level);
            p = PUT(p, ") ");
            p = qn_json_put_milli(p, r->human_score);
        }
        p = PUT(p, ", witness ");
        return qn_state_put(p, w->l, a->plan, '/');
    default:
        return p;
    }
}

/* Bytes the verdict may take, at most: the strings from outside escaped
 * (up to 6 bytes each in JSON, 4 on a text line), the cells, the repair,
 * and the rest. */
static size_t room(const qn_verdict_writer *w, const qn_ruling *r, size_t idlen,
                   size_t notelen, size_t metalen, size_t gradelen)
{
    size_t n = 512 + QN_JSON_STR_MAX(idlen) + QN_JSON_STR_MAX(notelen) +
               metalen + QN_JSON_STR_MAX(qn_ruling_why(r)->len) +
               QN_JSON_STR_MAX(gradelen) + QN_JSON_STR_MAX(r->dup_id.len);

    if (r->verdict == QN_VERDICT_OK || r->verdict == QN_VERDICT_CLAIM_MISMATCH)
        n += w->style == QN_VERDICT_TEXT ? w->state_max : 4 * (size_t)w->n;
    if (r->verdict == QN_VERDICT_UNSOLVABLE && r->ans.repair_known)
        n += (size_t)r->ans.nrepair * (w->name_max + 24);
    return n;
}

void qn_verdict_write(const qn_verdict_writer *w, qn_buf *out,
                      const qn_submission *s, qn_ruling *r, int first,
                      qn_verdict_marks *m)
{
    const char *name = qn_verdict_name(r->verdict), *grade = NULL;
    const qn_buf *written = written_why(w, r);
    size_t idlen = strlen(s->id), notelen = s->note ? strlen(s->note) : 0;
    size_t metalen = s->meta ? strlen(s->meta) : 0;
    int text = w->style == QN_VERDICT_TEXT;
    char *p;

    if (r->verdict == QN_VERDICT_OK || r->verdict == QN_VERDICT_CLAIM_MISMATCH)
        grade = qn_solver_grade(w->solver, r->ans.mp.presses);
    if (qn_buf_grow(out, room(w, r, idlen, notelen, metalen,
                              grade ? strlen(grade) : 0)))
        return;
    p = out->buf + out->len;
    m->start = out->len;
    if (text) {
        p = qn_json_put_u64(p, s->seq);
        *p++ = '\t';
        p = put_id(p, s, idlen, 0);
        *p++ = '\t';
    } else {
        if (w->style == QN_VERDICT_JSON && !first)
            *p++ = ',';
        p = PUT(p, "{\"seq\":");
        p = qn_json_put_u64(p, s->seq);
        p = PUT(p, ",\"id\":");
        p = put_id(p, s, idlen, 1);
        p = PUT(p, ",\"verdict\":\"");
    }
    m->name = (size_t)(p - out->buf);
    p = put(p, name, strlen(name));
    m->name_end = (size_t)(p - out->buf);
    if (text) {
        *p++ = '\t';
        if (r->has_puzzle_id) {
            p = PUT(p, "puzzle ");
            p = put_puzzle_id(p, r->puzzle_id);
            p = PUT(p, ": ");
        }
        m->body = (size_t)(p - out->buf);
        p = text_body(w, p, s, r, grade, written);
        m->tail = (size_t)(p - out->buf);
        if (s->note) {
            p = PUT(p, " (note: ");
            p = put_line(p, s->note, notelen);
            *p++ = ')';
        }
        *p++ = '\n';
    } else {
        *p++ = '"';
        if (r->has_puzzle_id) {
            p = PUT(p, ",\"puzzle_id\":\"");
            p = put_puzzle_id(p, r->puzzle_id);
            *p++ = '"';
        }
        if (s->note) {
            p = PUT(p, ",\"note\":");
            p = qn_json_put_str(p, s->note, notelen);
        }
        if (s->meta) {
            p = PUT(p, ",\"meta\":");
            p = put(p, s->meta, metalen);
        }
        m->body = (size_t)(p - out->buf);
        p = json_body(w, p, s, r, grade, written);
        m->tail = (size_t)(p - out->buf);
        *p++ = '}';
        if (w->style == QN_VERDICT_JSONL)
            *p++ = '\n';
    }
    m->end = (size_t)(p - out->buf);
    finish(out, p);
}

void qn_verdict_write_duplicate(const qn_verdict_writer *w, qn_buf *out,
                                const char *text, const qn_verdict_marks *m,
                                int stored, uint64_t dup_of, const char *id,
                                int has_id)
{
    const char *name = qn_verdict_name(QN_VERDICT_DUPLICATE);
    char *p;

    if (qn_buf_grow(out, m->end - m->start + strlen(name) + 128 +
                             QN_JSON_STR_MAX(strlen(id))))
        return;
    p = out->buf + out->len;
    p = put(p, text + m->start, m->name - m->start);
    p = put(p, name, strlen(name));
    p = put(p, text + m->name_end, m->body - m->name_end);
    p = w->style == QN_VERDICT_TEXT
            ? text_duplicate(p, stored, dup_of, id, has_id)
            : json_duplicate(p, stored, dup_of, id, has_id);
    p = put(p, text + m->tail, m->end - m->tail);
    finish(out, p);
}
