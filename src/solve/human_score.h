/*
 * human_score.h: a puzzle's human grade (issue #33, docs/GENERATE.md
 * "The human score"): its rung on the technique ladder (human.h) and a
 * continuous score from a versioned linear model over features quench
 * already has,
 *   score = b0 + sum_i w_i f_i,
 * read as the predicted natural log of an average player's solve time in
 * seconds. The weights sit in one named struct (qn_human_model) so that a
 * calibration can replace them; QN_HUMAN_MODEL_VERSION names the default
 * weights and the feature definitions together.
 *
 * A qn_human_grader is built once per rule and is immutable afterwards:
 * threads may share it. On k = 2 boards of at most 64 cells a state is
 * graded with bit operations (the chase residuals and the table's
 * conditions as masks), elsewhere through human.c's byte chase; both give
 * the same answer.
 */
#ifndef QN_HUMAN_SCORE_H
#define QN_HUMAN_SCORE_H

#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "solve/human.h"
#include "solve/solver.h"

#define QN_HUMAN_MODEL_VERSION 1

/* The features, in the model's order (names: qn_human_feature_name). */
enum qn_human_feature {
    QN_HF_LEVEL,      /* the level, 0 (spot) .. 3 (global) */
    QN_HF_PRESSES,    /* the least press count */
    QN_HF_LIT,        /* cells off their goal */
    QN_HF_OPTIMAL,    /* log2 of the number of optimal plans */
    QN_HF_COMPONENTS, /* groups of the optimal plan's presses whose
                         footprints overlap (joined transitively) */
    QN_HF_SPREAD,     /* rows + columns the plan's presses span (its
                         bounding box's height + width) */
    QN_HF_OVERSHOOT,  /* presses the level's technique makes beyond the
                         least count, each counted as made (chase: the
                         chase's; table: the first chase's, the pattern's
                         and the second chase's; spot, global: 0) */
    QN_HF_TABLE,      /* table level: log2 of the side's table patterns + 1
                         (the patterns to recall); else 0 */
    QN_HF_MULTI,      /* cells the plan presses more than once (count
                         mod k > 1) */
    QN_HF_COUNT
};

/* "level", "presses", "lit", "log2_optimal", "components", "spread",
 * "overshoot", "log2_table", "multi" (static); NULL past the range. */
const char *qn_human_feature_name(int f);

typedef struct qn_human_model {
    int version;
    double b0;
    double w[QN_HF_COUNT];
} qn_human_model;

/* The built-in model, version QN_HUMAN_MODEL_VERSION. */
void qn_human_model_default(qn_human_model *m);

/*
 * A model file (docs/GENERATE.md "The human score"): lines "version N",
 * "b0 X" and "NAME X" for feature names; '#' starts a comment; features
 * not named keep weight 0. Errors (QN_ESYNTAX, with the line): an unknown
 * key, a bad or non-finite number, a repeated key, no version or b0, a
 * text over 64 KiB.
 */
int qn_human_model_parse(qn_human_model *m, const char *text, size_t len,
                         qn_err *err);

/* A state's level and features. */
typedef struct qn_human_grade {
    int level; /* QN_HUMAN_SPOT .. QN_HUMAN_GLOBAL */
    int side;  /* the chase/table side (qn_human_side_name), else -1 */
    double f[QN_HF_COUNT];
} qn_human_grade;

typedef struct qn_human_grader qn_human_grader;

/* Build g's grader (g borrowed, must outlive it). Errors: qn_human_new's
 * (QN_ENOMEM among them). */
int qn_human_grader_new(qn_human_grader **out, const qn_solver *solver,
                        qn_err *err);
void qn_human_grader_free(qn_human_grader *hg); /* NULL-safe */
const qn_human *qn_human_grader_human(const qn_human_grader *hg);

/*
 * Grade a solvable state other than the goal, given what the solver
 * found: `plan` an optimal plan, `presses` its count, `noptimal` the
 * optimal plans. QN_OK,
 * or QN_ELIMIT when the state has more optimal plans than
 * QN_HUMAN_MAX_PLANS (spot undecided: no grade), or QN_ENOMEM.
 */
int qn_human_grade_of(const qn_human_grader *hg, const uint8_t *state,
                      const uint8_t *plan, uint64_t presses, uint64_t noptimal,
                      qn_human_grade *out, qn_err *err);

/* The same from the state alone (it is solved first): QN_EUNSOLVABLE
 * for an unsolvable state, QN_ELIMIT also when presses are not exact. */
int qn_human_grade_state(const qn_human_grader *hg, const uint8_t *state,
                         qn_human_grade *out, qn_err *err);

/* The model's score of a grade, and the same in thousandths, rounded
 * half up (as stored and exported). */
double qn_human_score(const qn_human_model *m, const qn_human_grade *gr);
int64_t qn_human_score_milli(const qn_human_model *m, const qn_human_grade *gr);

/*
 * The technique of state's level in words, one line a step, appended to
 * out (human_steps.c): "technique: table (2) from the top", then the
 * rows each chase clears and the cells it presses, the residual, the
 * table's pattern; for spot and global the plan's presses. Errors: those
 * of qn_human_grade_state; QN_ENOMEM also when an append failed (out then
 * holds part of the text).
 */
int qn_human_narrate(const qn_human_grader *hg, const uint8_t *state,
                     qn_buf *out, qn_err *err);

#endif
