/*
 * submit_internal.h: the value parsers every submission format shares:
 * byte checks, positions and cell strings (submit_cells.c) and the JSON
 * values of json_in.c (the only user of jansson). Not installed.
 */
#ifndef QN_SUBMIT_INTERNAL_H
#define QN_SUBMIT_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "rules/layout.h"
#include "validate/submit.h"

/* The fields of one record as a format parser fills them. */
typedef struct qn_submit__rec {
    const qn_layout *l; /* borrowed */
    unsigned k;
    uint8_t *cells;    /* l->ncells, owned by the reader */
    uint8_t *solution; /* l->ncells, owned by the reader */
    int has_solution, has_min, has_id;
    int is_meta; /* JSON: one of quench's own records around the puzzles
                    ("type": "header"/"summary", "record": "pack") */
    uint64_t min_presses;
    char id[QN_SUBMIT_MAX_ID + 1]; /* NUL-terminated when has_id */
    const char *rule_hash; /* what "rule" must be (64 hex), NULL = any */
    qn_buf meta;           /* the fields not read, a JSON object text; empty
                              when there are none (owned by the reader) */
    char note[192];        /* a misspelt-looking field, in words, or "" */
} qn_submit__rec;

/* A line or column counted in long long, as an int for a qn_err. */
static inline int qn_submit__clamp(long long v)
{
    return v > INT_MAX ? INT_MAX : (int)v;
}

/*
 * submit_cells.c.
 *
 * The offset of the first NUL byte or invalid UTF-8 sequence in s[0..len),
 * or len when there is none; *what_out is then "NUL byte" or "invalid
 * UTF-8". Overlong forms, surrogates and code points above U+10FFFF are
 * invalid.
 */
size_t qn_submit__check_bytes(const char *s, size_t len, const char **what_out);

/*
 * The absolute line:col of byte `off` of `text`, whose byte 0 sits at
 * (line, col): newlines in text[0..off) advance the line.
 */
void qn_submit__pos(const char *text, size_t off, int line, int col,
                    int *line_out, int *col_out);

/*
 * Parse a decoded string of cell values: the state text format, or (when
 * flat_ok) exactly l->ncells base-36 digits without separators. Returns
 * QN_OK or QN_ESYNTAX with err->msg set and *bad_off the byte offset in s
 * of the problem (err->line/col are not meaningful).
 */
int qn_submit__cells_str(uint8_t *out, const qn_layout *l, unsigned k,
                         int flat_ok, const char *s, size_t n, size_t *bad_off,
                         qn_err *err);

/* Whether a[0..n) is the name b, letters compared without case (ASCII):
 * a CSV header's "State" is the column state. */
int qn_submit__same_name(const char *a, size_t n, const char *b);

/*
 * The field quench reads ("id", "state", "solution", "min_presses",
 * "rule") that the unread field name[0..n) looks like a misspelling of
 * (another case, a prefix or an extension, an edit or two away), or NULL.
 */
const char *qn_submit__suggest(const char *name, size_t n);

/* Set rec->note for the unread field name[0..n), when it looks misspelt
 * and the record has no note yet. */
void qn_submit__note_field(qn_submit__rec *rec, const char *what,
                           const char *name, size_t n);

/*
 * Compare a record's rule field v[0..n) with rec->rule_hash: QN_OK, or
 * QN_ESYNTAX with the reason in err->msg (err->line/col not meaningful).
 */
int qn_submit__check_rule(const qn_submit__rec *rec, const char *v, size_t n,
                          qn_err *err);

/*
 * json_in.c. Each parses `len` bytes of `text` whose byte 0 sits at the
 * absolute (line, col) and reports errors at absolute positions.
 *
 * qn_submit__json_record: one record object into rec (cells, and solution,
 * min_presses, id when present; the rule checked; other members into
 * rec->meta, and rec->note). rec->has_id is set as soon as a valid id is
 * seen, even when the record is malformed. A record quench writes itself
 * is read as it is: "type"/"record" "puzzle" is a submission,
 * "header"/"summary"/"pack" sets rec->is_meta (nothing else is read), and
 * the other keys of generate and export are metadata. Returns QN_OK,
 * QN_ESYNTAX or QN_ELIMIT (nesting deeper than QN_SUBMIT_MAX_DEPTH).
 */
int qn_submit__json_record(qn_submit__rec *rec, const char *text, size_t len,
                           int line, int col, qn_err *err);

/* One JSON array of l->ncells integers 0..k-1 into out. */
int qn_submit__json_state(uint8_t *out, const qn_layout *l, unsigned k,
                          const char *text, size_t len, int line, int col,
                          qn_err *err);

/* One JSON value that must be an integer (an element of a streamed state
 * array): QN_OK with *out set, or QN_ESYNTAX ("invalid JSON: ..." or "not an
 * integer"; *is_int_out says which). */
int qn_submit__json_int(long long *out, int *is_int_out, const char *text,
                        size_t len, int line, int col, qn_err *err);

#endif
