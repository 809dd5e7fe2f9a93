/*
 * verdict_write.h: verdicts as `quench validate` prints them, one a line
 * of text or one JSON object each (the formats are in docs/quench.1).
 *
 * Written for millions of verdicts a second: room for a whole verdict is
 * reserved once, pieces of known length are copied whole, numbers come
 * from a digit table, and only strings from outside (ids, notes, reasons,
 * grade names) are escaped. A verdict is written before it is settled
 * (qn_judge_settle, on another thread); the marks it leaves let one that
 * settles as a duplicate be rewritten from the parts that stay.
 */
#ifndef QN_VERDICT_WRITE_H
#define QN_VERDICT_WRITE_H

#include "quench/validate.h"

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "solve/solver.h"
#include "validate/submit.h"
#include "validate/verdict.h"

/* Where the parts of one written verdict sit (offsets into its buffer). */
typedef struct qn_verdict_marks {
    size_t start;    /* its first byte */
    size_t name;     /* the verdict's name ... */
    size_t name_end; /* ... up to here */
    size_t body;     /* what only this verdict says (repair, presses,
                        witness, reason) ... */
    size_t tail;     /* ... up to here; then the rest of the record */
    size_t end;      /* one past its last byte */
} qn_verdict_marks;

typedef struct qn_verdict_writer qn_verdict_writer;

/* A writer for the solver (borrowed; it must outlive the writer); NULL
 * when out of memory. */
qn_verdict_writer *qn_verdict_writer_new(const qn_solver *solver,
                                         qn_verdict_style style);
void qn_verdict_writer_free(qn_verdict_writer *w); /* NULL-safe */

/*
 * Append r's verdict for the record s to out (first: the first element of
 * a JSON array) and say where its parts are in *m. Threads may share a
 * writer; r (one thread's) keeps its cached explanations as written. Out
 * of memory: nothing appended, out's failed flag set (buf.h), here and in
 * qn_verdict_write_duplicate.
 */
void qn_verdict_write(const qn_verdict_writer *w, qn_buf *out,
                      const qn_submission *s, qn_ruling *r, int first,
                      qn_verdict_marks *m);

/*
 * Append the verdict written at text with marks m, said again as a
 * duplicate: of the earlier submission numbered dup_of, whose id is id
 * (has_id: the submitter's, else its line number), or (stored) of the
 * stored puzzle whose id is dup_of (id unused).
 */
void qn_verdict_write_duplicate(const qn_verdict_writer *w, qn_buf *out,
                                const char *text, const qn_verdict_marks *m,
                                int stored, uint64_t dup_of, const char *id,
                                int has_id);

#endif
