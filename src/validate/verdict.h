/*
 * verdict.h: one verdict per submitted puzzle, for `quench validate`.
 *
 * A judge keeps what a stream of verdicts needs across records: the solver,
 * the set of puzzles already accepted (up to the board's symmetries, see
 * canon.h; only ok verdicts enter it, so a rejected submission may be
 * corrected and sent again), and the counts per verdict. Verdicts are
 * decided in this order: malformed, trivial (already at the goal),
 * unsolvable, duplicate, claim-mismatch, ok. Every record whose state was
 * read (all but malformed) gets its puzzle id (puzzle_id.h), the name
 * generate, the store and exports give the same puzzle.
 */
#ifndef QN_VERDICT_H
#define QN_VERDICT_H

#include "quench/validate.h"

#include <stdint.h>

#include "base/buf.h"
#include "rules/puzzle_id.h"
#include "solve/solver.h"
#include "validate/submit.h"

const char *qn_verdict_name(qn_verdict v);

#define QN_RULING_WHY_CACHE 16 /* explanations a ruling keeps, by class */

/* What the judge found for one record; reused from call to call. */
typedef struct qn_ruling {
    qn_verdict verdict;
    qn_answer ans;      /* solvable/unsolvable details (not malformed) */
    int has_puzzle_id;  /* the state was read (every verdict but
                           malformed): puzzle_id and canon are set */
    uint64_t puzzle_id; /* the puzzle's id (puzzle_id.h) */
    uint8_t *canon;     /* ncells: its canonical cells (owned) */
    uint8_t *seen_key;  /* canon packed for the judge's set of accepted
                           puzzles, and its hash (qn_seen_prepare);
                           set for the verdicts settling decides */
    uint64_t seen_hash;
    uint64_t dup_of;        /* duplicate: seq of the first submission, or 0 */
    qn_buf dup_id;          /* duplicate: that submission's id (its line
                               number when it had none), NUL-terminated */
    int dup_has_id;         /* 1: dup_id came from the record itself */
    int dup_stored;         /* 1: a duplicate of a stored puzzle, */
    uint64_t dup_stored_id; /* whose puzzle id this is */
    qn_buf reason;          /* malformed/claim-mismatch: why, in words;
                               unsolvable: qn_solver_explain's lines */
    int claim_plan_bad;     /* claim-mismatch: the claimed solution fails */
    int64_t claim_delta;    /* claim-mismatch: claimed min - true min */
    /* unsolvable: the explanation depends only on the state's class
     * (qn_solver_class), so each ruling keeps the last few it made */
    uint64_t why_class[QN_RULING_WHY_CACHE]; /* UINT64_MAX: empty */
    qn_buf why_text[QN_RULING_WHY_CACHE];
    int why_slot; /* unsolvable: the why_text holding the words (reason
                     is then empty: see qn_ruling_why), or -1 */
    /* each why_text as a verdict writer last wrote it (escaped, in the
     * style why_style[i]; -1: not yet), filled by qn_verdict_write: a
     * class's words are escaped once, not a line at a time */
    qn_buf why_out[QN_RULING_WHY_CACHE];
    int why_style[QN_RULING_WHY_CACHE];
    int human_level; /* ok, claim-mismatch: the human grade
                        (human_score.h; -1: none, e.g. presses not
                        exact); score in thousandths */
    int64_t human_score;
} qn_ruling;

typedef struct qn_judge qn_judge;

/* solver is borrowed. NULL when out of memory. */
qn_judge *qn_judge_new(const qn_solver *solver);
void qn_judge_free(qn_judge *j); /* NULL-safe */

/* QN_OK, or QN_ENOMEM with *r released (qn_ruling_release is a no-op). */
int qn_ruling_init(qn_ruling *r, const qn_judge *j, qn_err *err);
void qn_ruling_release(qn_ruling *r);

/* Why an unsolvable state is (qn_solver_explain's lines): the reason, or
 * the ruling's cached words for the state's class. */
const qn_buf *qn_ruling_why(const qn_ruling *r);

/*
 * Judge one record (from qn_submit_next) into *out: qn_judge_prepare,
 * then qn_judge_settle. QN_OK, or QN_ENOMEM (as those say).
 */
int qn_judge_one(qn_judge *j, qn_ruling *out, const qn_submission *sub);

/*
 * The part of judging that needs no other record, so threads may do it
 * at once on one judge (each with its own ruling): everything but whether
 * an ok or claim-mismatch puzzle repeats an earlier one. Counts nothing.
 * An unsolvable state's reason is why, as `solve` says it (at most
 * QN_VERDICT_WHY_MAX failed conditions, then how many more).
 */
#define QN_VERDICT_WHY_MAX 8
/* QN_OK, or QN_ENOMEM: *out is no verdict then (reusable). */
int qn_judge_prepare(const qn_judge *j, qn_ruling *out,
                     const qn_submission *sub);

/*
 * The rest, one record at a time in input order (sub: the record
 * prepared): an ok or claim-mismatch puzzle accepted before becomes a
 * duplicate, citing the first submission's seq and id; a new ok one is
 * accepted, and the judge keeps its seq and id (so memory grows with
 * the accepted puzzles, by their ids). Counts the verdict. QN_OK, or
 * QN_ENOMEM: nothing settled or counted, except when only a duplicate's
 * dup_id could not be copied (then settled and counted).
 */
int qn_judge_settle(qn_judge *j, qn_ruling *r, const qn_submission *sub);

/*
 * The caller found r's puzzle stored already (a database): turn an ok
 * verdict into a duplicate of the stored puzzle whose puzzle id is
 * `puzzle_id`, keeping counts right.
 */
void qn_judge_stored_duplicate(qn_judge *j, qn_ruling *r, uint64_t puzzle_id);

/* How many records got verdict v so far. */
uint64_t qn_judge_count(const qn_judge *j, qn_verdict v);

#endif
