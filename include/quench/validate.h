/*
 * quench/validate.h: read a stream of submitted puzzles (text, JSON
 * Lines, CSV or a JSON array: docs/VALIDATE.md) and judge each against a
 * rule: a verdict, the puzzle id, and the least presses.
 *
 * A reader (qn_submit_reader) reads one FILE; a judge (qn_judge) holds
 * the solver and the verdict counts; a verdict stream settles the
 * reader's records with the judge, on `jobs` threads, in input order.
 * Each object is used by one thread at a time (the stream's workers are
 * its own). Untrusted input is bounded (docs/VALIDATE.md).
 */
#ifndef QN_PUBLIC_VALIDATE_H
#define QN_PUBLIC_VALIDATE_H

#include <stdio.h>

#include "quench/common.h"
#include "quench/solve.h"

typedef enum qn_submit_format {
    QN_SUBMIT_AUTO,
    QN_SUBMIT_TEXT,
    QN_SUBMIT_JSONL,
    QN_SUBMIT_CSV,
    QN_SUBMIT_JSON,
} qn_submit_format;

/*
 * One record, borrowed from the reader: every pointer in it stays valid
 * only until the next qn_submit_next() or qn_submit_close().
 */
typedef struct qn_submission {
    uint64_t seq;         /* 1-based record number */
    const char *id;       /* the record's id, or its line number as text */
    int has_id;           /* 1: id came from the record itself */
    int line, col;        /* where the record starts, 1-based */
    int ok;               /* 1: well-formed; 0: malformed, see err */
    qn_err err;           /* when !ok: code (QN_ESYNTAX, or QN_ELIMIT for
                             an over-long line/element/id or deep JSON),
                             absolute line:col, reason; the source is the
                             reader's. Code QN_OK when ok */
    const uint8_t *cells; /* when ok: l->ncells values < k */
    int has_solution;
    const uint8_t *solution; /* when has_solution: l->ncells values < k */
    int has_min;
    uint64_t min_presses; /* when has_min */
    const char *meta;     /* when ok: the fields quench does not read, one
                             compact JSON object text (NUL-terminated); NULL
                             when the record has none */
    size_t meta_len;
    const char *note; /* a field that looks like a misspelt one quench
                         reads, in words; NULL when none (any record) */
} qn_submission;

typedef struct qn_submit_reader qn_submit_reader; /* opaque */

/*
 * Start reading submissions for rule r (borrowed: it must outlive the
 * reader) from `in` (borrowed, left open; read with fread only, so a pipe
 * works). `source` names the input in errors (copied; NULL = ""). With
 * QN_SUBMIT_AUTO the reader reads ahead to detect the format. *out is the
 * caller's (qn_submit_close). QN_OK, or QN_EIO or QN_ENOMEM with *out
 * NULL. An empty input is not an error.
 */
QN_API int qn_submit_open_rules(qn_submit_reader **out, FILE *in,
                                const char *source, const qn_rules *r,
                                qn_submit_format fmt, qn_err *err);
/*
 * Read the next record: 1 with *rec_out set (borrowed until the next
 * call; a malformed record has ok = 0 and says why), 0 at the end, or a
 * negative code when the input as a whole cannot be read (QN_EIO,
 * QN_ESYNTAX, QN_ELIMIT, err located; QN_ENOMEM). After 0 or a code, the
 * same again.
 */
QN_API int qn_submit_next(qn_submit_reader *r, const qn_submission **rec_out,
                          qn_err *err);
/* Records naming their rule must name the rule of this hash (64 hex
 * digits, copied); call before the first qn_submit_next. */
QN_API void qn_submit_expect_rule(qn_submit_reader *r, const char *hash);
/* quench's own records (headers, summaries) skipped so far. */
QN_API uint64_t qn_submit_skipped(const qn_submit_reader *r);
/* Free the reader (not the FILE); NULL is a no-op. */
QN_API void qn_submit_close(qn_submit_reader *r);
/* The format in use (the detected one for AUTO), and a format's name
 * ("auto", "text", "jsonl", "csv", "json"; static). */
QN_API qn_submit_format qn_submit_detected(const qn_submit_reader *r);
QN_API const char *qn_submit_format_name(qn_submit_format fmt);

/* The verdicts: enum, stable names (CLI and JSON), in one list. */
#define QN_VERDICTS(X)                                                         \
    X(OK, "ok")                                                                \
    X(UNSOLVABLE, "unsolvable")                                                \
    X(MALFORMED, "malformed")                                                  \
    X(TRIVIAL, "trivial")                                                      \
    X(DUPLICATE, "duplicate")                                                  \
    X(CLAIM_MISMATCH, "claim-mismatch")
typedef enum qn_verdict {
#define QN_X_ENUM(e, s) QN_VERDICT_##e,
    QN_VERDICTS(QN_X_ENUM)
#undef QN_X_ENUM
        QN_NVERDICTS
} qn_verdict;

/* A verdict's name ("ok", "unsolvable", ...; static). */
QN_API const char *qn_verdict_name(qn_verdict v);

typedef struct qn_judge qn_judge; /* opaque */
/* A judge for rule g (borrowed: it must outlive the judge); NULL when out
 * of memory. Free with qn_judge_free (NULL-safe). */
QN_API qn_judge *qn_judge_new(const qn_solver *solver);
QN_API void qn_judge_free(qn_judge *j);
/* How many records got verdict v so far. */
QN_API uint64_t qn_judge_count(const qn_judge *j, qn_verdict v);

/* How qn_verdict_stream_write spells a verdict. */
typedef enum qn_verdict_style {
    QN_VERDICT_TEXT,  /* "SEQ\tID\tVERDICT\tdetails\n": ids, notes,
                         reasons and grades escaped (text.h) */
    QN_VERDICT_JSONL, /* one JSON object and "\n" */
    QN_VERDICT_JSON,  /* one JSON object, after a ',' unless first: the
                         elements of an array */
} qn_verdict_style;

/* One settled record, borrowed until the next qn_verdict_stream_next. */
typedef struct qn_verdict_item {
    const qn_submission *sub; /* the record as the reader gave it */
    qn_verdict verdict;
    int has_puzzle_id; /* every verdict but malformed */
    uint64_t puzzle_id;
    const uint8_t *canon; /* has_puzzle_id: the canonical cells */
    /* ok and claim-mismatch: the least presses, how many solutions
     * attain it, and the smallest such solution (ncells) */
    uint64_t presses, noptimal;
    const uint8_t *plan;
    /* ok and claim-mismatch: the human grade (docs/GENERATE.md "The
     * human score"): level 0..3 (-1: none), score in thousandths, and
     * the model's version */
    int human_level;
    int64_t human_score;
    int human_model_version;
} qn_verdict_item;

typedef struct qn_verdict_stream qn_verdict_stream; /* opaque */
/*
 * Judge the records of rd with j (both borrowed: they must outlive the
 * stream, and only it uses them meanwhile), writing in `style`, on `jobs`
 * threads (the caller's and jobs - 1 workers). NULL when out of memory.
 */
QN_API qn_verdict_stream *qn_verdict_stream_new(qn_judge *j,
                                                qn_submit_reader *rd,
                                                qn_verdict_style style,
                                                int jobs);
/* The next settled record: 1 with *out set (borrowed until the next
 * call), 0 at the end, or the reader's negative code, err set; QN_ENOMEM
 * when memory ran out (in any thread): the records before it came out,
 * no later one does, and it is not the end of the input. */
QN_API int qn_verdict_stream_next(qn_verdict_stream *vs,
                                  const qn_verdict_item **out, qn_err *err);
/* The current (ok) record is a stored puzzle: it becomes a duplicate. */
QN_API void qn_verdict_stream_stored(qn_verdict_stream *vs, uint64_t puzzle_id);
/* Append the current record's verdict line to out (out of memory: out's
 * failed flag, qn_buf_check). */
QN_API void qn_verdict_stream_write(qn_verdict_stream *vs, qn_buf *out);
/* qn_submit_skipped as of the last record handed out. */
QN_API uint64_t qn_verdict_stream_skipped(const qn_verdict_stream *vs);
/* Stop the workers and free; NULL-safe. */
QN_API void qn_verdict_stream_free(qn_verdict_stream *vs);

#endif
