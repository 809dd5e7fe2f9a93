/*
 * verdict_stream.h: the verdicts of a whole submission stream, judged on
 * every core and handed back one at a time in input order.
 *
 * The caller's thread reads records (qn_submit_next) into batches of up to
 * 1024 (fewer for big boards or long records, so a batch holds about 256
 * KiB), or with more than one job cuts a text input's lines into slices
 * (qn_submit_take_slice) that the judges parse; worker threads judge each
 * batch (qn_judge_prepare) and write its verdicts (qn_verdict_write), and
 * so does the caller's thread rather than wait for them; the caller's
 * thread then settles the records in order (qn_judge_settle: duplicates)
 * and takes them one by one. At most jobs + 1 batches exist at once, so
 * memory stays flat whatever the input's length. The verdicts, their
 * order and the judge's counts are the same whatever the number of
 * threads.
 */
#ifndef QN_VERDICT_STREAM_H
#define QN_VERDICT_STREAM_H

#include "quench/validate.h"

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "validate/submit.h"
#include "validate/verdict.h"
#include "validate/verdict_write.h"

typedef struct qn_verdict_stream qn_verdict_stream;

/*
 * Judge the records of rd with j, writing verdicts in `style`, on `jobs`
 * threads: the caller's and jobs - 1 workers, started only when the input
 * is longer than one batch. j and rd are borrowed and
 * must outlive the stream; while it lives, only it reads rd and settles
 * with j (the caller may still call qn_judge_count). NULL when out of
 * memory.
 */
qn_verdict_stream *qn_verdict_stream_new(qn_judge *j, qn_submit_reader *rd,
                                         qn_verdict_style style, int jobs);

/*
 * The next record, settled: returns 1 with *out set, 0 at the end of the
 * input, or the reader's negative code (err set as qn_submit_next does)
 * once every record before the failure has come out. Out of memory
 * (reading, judging in any thread, settling) is QN_ENOMEM the same way:
 * the records before it come out settled and counted, none after, and
 * every later call says QN_ENOMEM again; never 0.
 */
int qn_verdict_stream_next(qn_verdict_stream *vs, const qn_verdict_item **out,
                           qn_err *err);

/* The current record (an ok one) is a stored puzzle: it becomes a
 * duplicate of the stored puzzle whose id is puzzle_id. */
void qn_verdict_stream_stored(qn_verdict_stream *vs, uint64_t puzzle_id);

/* Append the current record's verdict to out (out of memory: out's
 * failed flag). */
void qn_verdict_stream_write(qn_verdict_stream *vs, qn_buf *out);

/*
 * The current record's verdict where it was written, when settling (and
 * the caller) left it as judged: returns 1 with *p and *n set, else 0
 * (write it with qn_verdict_stream_write). The verdicts of one batch lie
 * one after another, and stay put until qn_verdict_stream_next moves
 * past the last of them (qn_verdict_stream_batch_end), so a caller may
 * write a run of them out in one piece, without copying each.
 */
int qn_verdict_stream_text(const qn_verdict_stream *vs, const char **p,
                           size_t *n);

/* 1 when the current record is the last of its batch: the next call of
 * qn_verdict_stream_next may reuse the batch's text. */
int qn_verdict_stream_batch_end(const qn_verdict_stream *vs);

/* qn_submit_skipped as of the last record handed out (or the end). */
uint64_t qn_verdict_stream_skipped(const qn_verdict_stream *vs);

/* Stop the workers and free; NULL-safe. */
void qn_verdict_stream_free(qn_verdict_stream *vs);

#endif
