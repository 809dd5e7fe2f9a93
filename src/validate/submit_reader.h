/*
 * submit_reader.h: the submission reader's state, and the block reader and
 * record framing (submit_read.c) that the format files (submit_lines.c,
 * submit_csv.c, submit_json.c) and the API in submit.c build on. Not
 * installed.
 */
#ifndef QN_SUBMIT_READER_H
#define QN_SUBMIT_READER_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/err.h"
#include "submit_internal.h"
#include "validate/submit.h"

/*
 * Twice the line limit: a whole line of the maximum length plus its CRLF
 * always fits after compaction, so "no newline in the buffer" means "too
 * long" and never "buffer too small".
 */
#define QN_SUBMIT__BUFCAP (2 * (size_t)QN_SUBMIT_MAX_LINE)
/* The longest state line read by a byte template (submit_lines.c). */
#define QN_SUBMIT__TMPL_MAX 256
/* Lines and boards of at most this many bytes and cells are checked and
 * gathered 16 bytes a step (submit_lines.c, with SSSE3). */
#define QN_SUBMIT__VEC_MAX 128
/* Bytes after a reader's cells that the gather may write (submit_lines.c
 * stores 16 cells at a time). */
#define QN_SUBMIT__CELLS_PAD 16
/* The CSV columns quench reads (col_names in submit_csv.c). */
#define QN_SUBMIT__NREAD 6

/* Where the JSON-document reader is. JS_SKIP: inside an element over
 * the limit, whose malformed record was already returned. JS_KEY,
 * JS_MEMBER: in a quench-pack document, before a member's name and after
 * a member. */
enum json_phase {
    JS_START,
    JS_FIRST,
    JS_ELEM,
    JS_SKIP,
    JS_AFTER,
    JS_KEY,
    JS_MEMBER,
    JS_END
};

/* One CSV column (submit_csv.c). */
typedef struct qn_submit__col qn_submit__col;
/* Where one field of a CSV record sits (submit_csv.c). */
typedef struct qn_submit__field qn_submit__field;

/* How far the scan of one JSON array element has got. */
typedef struct jscan {
    int depth, in_str, esc, scalar;
    long long line, col; /* where the element starts */
} jscan;

struct qn_submit_reader {
    FILE *in; /* borrowed */
    char source[256];
    const qn_layout *l; /* borrowed */
    unsigned k;
    qn_submit_format fmt; /* never AUTO after open */
    char *buf;            /* QN_SUBMIT__BUFCAP bytes; data in [pos, end);
                             a slice reader's is borrowed (read only) */
    int slices;           /* a slice reader (qn_submit_open_slices) */
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
    uint64_t skipped;     /* quench's own records skipped */
    char rule_hash[65];   /* qn_submit_expect_rule's, or "" */
    qn_submission rec;    /* the record handed out */
    qn_submit__rec data;  /* what the format parsers fill */
    char linebuf[24];     /* line number as text, the default id */
    long long linebuf_of; /* the number linebuf holds, or -1 */
    /* TEXT: the exact form of a state line as a byte template (built on
     * the first line when it has at most QN_SUBMIT__TMPL_MAX bytes and k
     * is 2, 4 or 8): byte i of a line in that form, masked with
     * tmpl_mask[i], is tmpl_want[i]; cell c is at byte tmpl_pos[c] */
    int tmpl; /* 0 not built, 1 usable, -1 not for this board */
    size_t tmpl_len;
    unsigned char tmpl_mask[QN_SUBMIT__TMPL_MAX];
    unsigned char tmpl_want[QN_SUBMIT__TMPL_MAX];
    unsigned char tmpl_pos[QN_SUBMIT__TMPL_MAX];
    /* the template 16 bytes a step (vec 1): cells 16c..16c+15 are
     * gathered from the line's 16-byte chunks vec_lo[c]..vec_hi[c], by
     * the byte shuffle vec_shuf[c][chunk] */
    int vec;
    unsigned char vec_tail[16]; /* the last chunk out of the line's last
                                   16 bytes (lines of 16 bytes or more) */
    unsigned char vec_lo[QN_SUBMIT__VEC_MAX / 16];
    unsigned char vec_hi[QN_SUBMIT__VEC_MAX / 16];
    unsigned char vec_shuf[QN_SUBMIT__VEC_MAX / 16][QN_SUBMIT__VEC_MAX / 16]
                          [16];
    qn_buf scratch; /* a CSV record over several lines, a JSON
                       element; at most QN_SUBMIT_MAX_LINE + a line */
    /* CSV */
    int header_done;
    int ncols;                    /* columns in the header */
    int col_of[QN_SUBMIT__NREAD]; /* column index of each kind, or -1 */
    qn_submit__col *cols;         /* ncols */
    qn_submit__field *fields;     /* QN_SUBMIT_MAX_COLUMNS + 1 */
    qn_buf col_names;             /* the "name": of each unread column */
    char csv_note[192];           /* the header's note for every record */
    /* JSON document */
    enum json_phase js;
    int js_records;              /* 1: array of objects; 0: one state */
    int js_doc;                  /* 1: a quench-pack document */
    int doc_members;             /* members of the document read so far */
    int doc_format, doc_puzzles; /* "format" and "puzzles" were seen */
    long long doc_line, doc_col; /* where the document starts */
    jscan jsk;                   /* the element being read or skipped */
};

/* ---- submit.c ----------------------------------------------------------- */

/*
 * A reader of l's boards in k colours, named source, with its record's
 * blocks allocated and nothing to read yet (the caller says where it
 * reads: a stream, or slices): NULL when memory ran out.
 */
qn_submit_reader *qn_submit__new(const char *source, const qn_layout *l,
                                 unsigned k);

/* ---- submit_read.c: the block reader ------------------------------------ */

/*
 * End the reader with a fatal error at (line, col): sets r->fatal and
 * r->state, copies it to *err (may be NULL) and returns code.
 */
int qn_submit__fatal(qn_submit_reader *r, qn_err *err, qn_code code,
                     long long line, long long col, const char *fmt, ...)
    QN_PRINTF(6, 7);

/*
 * Compact the buffer and read more. Returns the bytes added (0 at the end
 * of the input, which sets r->eof), QN_EIO, or QN_ELIMIT when more than
 * QN_SUBMIT_MAX_GAP bytes have gone by since the last record: every read
 * of the reader comes through here, so this one check bounds the input
 * consumed without a result (an over-long line that never ends, endless
 * blank lines), whatever the format.
 */
long qn_submit__fill(qn_submit_reader *r, qn_err *err);
/* Out of memory, fatal for the stream (as qn_submit__fatal): QN_ENOMEM. */
int qn_submit__nomem(qn_submit_reader *r, qn_err *err);

/*
 * The next physical line, without its LF or CRLF. Returns 1 with *s, *n
 * and *line_out set (borrowed from the buffer until the next read), or
 * with *too_long set for a line over QN_SUBMIT_MAX_LINE bytes: that is
 * known as soon as the limit is passed, so the line is returned then,
 * without waiting for its end, and its rest is skipped unbuffered on the
 * next call. Returns 0 at the end, or a negative code.
 */
int qn_submit__get_line(qn_submit_reader *r, const char **s, size_t *n,
                        long long *line_out, int *too_long, qn_err *err);

/* 1 when s[0..n) holds only blanks (space, tab, CR). */
int qn_submit__is_blank(const char *s, size_t n);

/* ---- submit_read.c: record framing -------------------------------------- */

/* Start a record at (line, col): fills everything but ok/err/values. */
qn_submission *qn_submit__begin(qn_submit_reader *r, long long line,
                                long long col);

/* Mark the current record malformed at (line, col). Returns 1. */
int qn_submit__bad(qn_submit_reader *r, qn_code code, long long line,
                   long long col, const char *fmt, ...) QN_PRINTF(5, 6);

/* A malformed record whose error came located from a parser. Returns 1. */
int qn_submit__bad_err(qn_submit_reader *r, const qn_err *e);

/* Check bytes; 0 when clean, else the record is marked malformed (1). */
int qn_submit__bad_bytes(qn_submit_reader *r, const char *s, size_t n,
                         long long line, long long col);

/* The record at `line` is over QN_SUBMIT_MAX_LINE bytes. Returns 1. */
int qn_submit__too_long(qn_submit_reader *r, long long line, const char *what);

/* Copy the parsed optional fields into the record. Returns 1. */
int qn_submit__finish(qn_submit_reader *r);

/* A header record (quench's own output) was read: it is not a
 * submission, so take back the number qn_submit__begin gave it. */
void qn_submit__skip_meta(qn_submit_reader *r);

/* ---- the formats: the next record, as qn_submit_next returns it --------- */

int qn_submit__next_text(qn_submit_reader *r, qn_err *err);  /* lines */
int qn_submit__next_jsonl(qn_submit_reader *r, qn_err *err); /* lines */
int qn_submit__next_csv(qn_submit_reader *r, qn_err *err);
int qn_submit__next_json(qn_submit_reader *r, qn_err *err);

#endif
