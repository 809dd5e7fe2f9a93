/*
 * verdict.c: verdicts for submissions (see verdict.h for their order).
 */
#include "validate/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "rules/canon.h"
#include "rules/rules.h"
#include "solve/human_score.h"
#include "verdict_internal.h"

static const char *const names[] = {
#define QN_X_NAME(e, s) s,
    QN_VERDICTS(QN_X_NAME)
#undef QN_X_NAME
};

const char *qn_verdict_name(qn_verdict v)
{
    return (unsigned)v < QN_NVERDICTS ? names[v] : "?";
}

/* Threads preparing read the first part for every record while the
 * settling thread counts; the 64-byte gaps keep the counts (and heap
 * neighbours) off the lines they read. */
struct qn_judge {
    char apart0[64];
    const qn_solver *solver;
    qn_seen *seen; /* accepted puzzles; read by qn_judge_prepare only for
                      its key size, so threads may prepare meanwhile */
    qn_puzzle_id_key id_key; /* the rule's, for puzzle ids */
    qn_canon_table *canon;   /* canonical forms by table, or NULL */
    qn_human_grader *human;  /* the human grade of ok puzzles, or NULL */
    qn_human_model model;
    char apart1[64];
    qn_buf firsts; /* each accepted submission: its seq (8 bytes), whether
                      its id is the submitter's (1 byte), its id and a NUL;
                      the seen set's payload is the offset of its entry */
    uint64_t count[QN_NVERDICTS];
    char apart2[64];
};

qn_judge *qn_judge_new(const qn_solver *solver)
{
    qn_judge *j = QN_ALLOC(qn_judge);
    qn_err e = QN_ERR_INIT;
    char hash[65];

    if (!j)
        return NULL;
    j->solver = solver;
    qn_rules_hash(qn_solver_rules(solver), hash);
    qn_puzzle_id_key_init(&j->id_key, hash);
    qn_buf_init(&j->firsts);
    j->seen =
        qn_seen_new(qn_solver_ncells(solver), qn_solver_colours(solver), NULL);
    /* no human grades where the ladder meets a limit; out of memory is
     * no judge */
    if (!j->seen ||
        qn_canon_table_new(&j->canon, qn_solver_rules(solver), NULL) != QN_OK ||
        qn_human_grader_new(&j->human, solver, &e) == QN_ENOMEM) {
        qn_judge_free(j);
        return NULL;
    }
    qn_human_model_default(&j->model);
    return j;
}

void qn_judge_free(qn_judge *j)
{
    if (!j)
        return;
    qn_seen_free(j->seen);
    qn_canon_table_free(j->canon);
    qn_buf_release(&j->firsts);
    qn_human_grader_free(j->human);
    free(j);
}

int qn_ruling_init(qn_ruling *r, const qn_judge *j, qn_err *err)
{
    memset(r, 0, sizeof(*r));
    qn_buf_init(&r->reason);
    qn_buf_init(&r->dup_id);
    r->why_slot = -1;
    for (int i = 0; i < QN_RULING_WHY_CACHE; i++) {
        r->why_class[i] = UINT64_MAX;
        qn_buf_init(&r->why_text[i]);
        qn_buf_init(&r->why_out[i]);
        r->why_style[i] = -1;
    }
    r->canon = QN_ALLOCN((size_t)qn_solver_ncells(j->solver) + 1, uint8_t);
    r->seen_key = QN_ALLOCN(qn_seen_key_size(j->seen) + 1, uint8_t);
    if (!r->canon || !r->seen_key ||
        qn_answer_init(&r->ans, j->solver, NULL) != QN_OK) {
        qn_ruling_release(r);
        return qn_err_nomem(err);
    }
    return QN_OK;
}

void qn_ruling_release(qn_ruling *r)
{
    qn_answer_release(&r->ans);
    free(r->canon);
    free(r->seen_key);
    qn_buf_release(&r->reason);
    qn_buf_release(&r->dup_id);
    for (int i = 0; i < QN_RULING_WHY_CACHE; i++) {
        qn_buf_release(&r->why_text[i]);
        qn_buf_release(&r->why_out[i]);
    }
}

const qn_buf *qn_ruling_why(const qn_ruling *r)
{
    return r->why_slot >= 0 ? &r->why_text[r->why_slot] : &r->reason;
}

uint64_t qn_judge_count(const qn_judge *j, qn_verdict v)
{
    return j->count[v];
}

/* Claims: a solution must replay; a minimum must be the true one. */
static int check_claims(const qn_judge *j, qn_ruling *out,
                        const qn_submission *s)
{
    if (s->has_solution &&
        !qn_solver_replays(j->solver, s->cells, s->solution)) {
        out->claim_plan_bad = 1;
        qn_buf_adds(&out->reason,
                    "the claimed solution does not reach the goal");
        return 1;
    }
    if (s->has_min && out->ans.exact && s->min_presses != out->ans.mp.presses) {
        out->claim_delta =
            (int64_t)s->min_presses - (int64_t)out->ans.mp.presses;
        qn_buf_addf(&out->reason,
                    "claimed minimum %llu is %lld %s the true minimum %llu",
                    (unsigned long long)s->min_presses,
                    (long long)(out->claim_delta > 0 ? out->claim_delta
                                                     : -out->claim_delta),
                    out->claim_delta > 0 ? "more than" : "less than",
                    (unsigned long long)out->ans.mp.presses);
        return 1;
    }
    return 0;
}

/* Why an unsolvable state is, as `solve` says it (qn_ruling_why): from
 * the ruling's cache when a state of its class was explained lately (most
 * boards have a few classes: 4 on classic 5x5), else into out->reason.
 * c: the state's class (qn_solver_class), UINT64_MAX when unnumbered.
 * Out of memory: reason's failed flag (and nothing cached). */
static void explain(const qn_judge *j, qn_ruling *out, const uint8_t *cells,
                    uint64_t c)
{
    int i = (int)(c % QN_RULING_WHY_CACHE);

    if (c == UINT64_MAX) {
        qn_solver_explain(j->solver, &out->reason, cells, QN_VERDICT_WHY_MAX);
        return;
    }
    if (out->why_class[i] != c) {
        qn_buf_reset(&out->why_text[i]);
        qn_solver_explain(j->solver, &out->why_text[i], cells,
                          QN_VERDICT_WHY_MAX);
        if (out->why_text[i].failed) {
            qn_buf_reset(&out->why_text[i]);
            out->why_class[i] = UINT64_MAX;
            qn_buf_fail(&out->reason);
            return;
        }
        out->why_class[i] = c;
        out->why_style[i] = -1; /* its written form is another's */
    }
    out->why_slot = i;
}

/* Everything but the set of accepted puzzles: a claim is checked before
 * settling knows whether the puzzle repeats one, and dropped if so. Out
 * of memory: reason's failed flag. */
static qn_verdict examine(const qn_judge *j, qn_ruling *out,
                          const qn_submission *sub)
{
    int n = qn_solver_ncells(j->solver);
    uint64_t cls = UINT64_MAX;

    if (!sub->ok) {
        qn_buf_adds(&out->reason, sub->err.msg);
        return QN_VERDICT_MALFORMED;
    }
    /* the id names the puzzle whatever becomes of it */
    qn_canon_form_table(j->canon, qn_solver_rules(j->solver), out->canon,
                        sub->cells);
    out->puzzle_id = qn_puzzle_id(&j->id_key, out->canon, n);
    out->has_puzzle_id = 1;
    if (qn_solver_answer_class(j->solver, &out->ans, sub->cells, &cls) !=
        QN_OK) {
        qn_buf_fail(&out->reason);
        return QN_VERDICT_MALFORMED; /* not handed out */
    }
    if (out->ans.at_goal)
        return QN_VERDICT_TRIVIAL;
    if (!out->ans.solvable) {
        explain(j, out, sub->cells, cls);
        return QN_VERDICT_UNSOLVABLE;
    }
    qn_seen_prepare(j->seen, out->seen_key, &out->seen_hash, out->canon);
    if (check_claims(j, out, sub))
        return QN_VERDICT_CLAIM_MISMATCH;
    return QN_VERDICT_OK;
}

int qn_judge_prepare(const qn_judge *j, qn_ruling *out,
                     const qn_submission *sub)
{
    int rc = QN_OK;

    qn_buf_reset(&out->reason);
    out->why_slot = -1;
    out->has_puzzle_id = 0;
    out->puzzle_id = 0;
    out->dup_of = 0;
    out->dup_has_id = 0;
    qn_buf_reset(&out->dup_id);
    out->dup_stored = 0;
    out->dup_stored_id = 0;
    out->claim_plan_bad = 0;
    out->claim_delta = 0;
    out->human_level = -1;
    out->human_score = 0;
    out->verdict = examine(j, out, sub);
    if (out->reason.failed)
        return QN_ENOMEM;
    if ((out->verdict == QN_VERDICT_OK ||
         out->verdict == QN_VERDICT_CLAIM_MISMATCH) &&
        out->ans.exact && j->human) {
        qn_human_grade gr;
        rc = qn_human_grade_of(j->human, sub->cells, out->ans.plan,
                               out->ans.mp.presses, out->ans.mp.noptimal, &gr,
                               NULL);
        if (rc == QN_OK) {
            out->human_level = gr.level;
            out->human_score = qn_human_score_milli(&j->model, &gr);
        }
    }
    return rc == QN_ENOMEM ? QN_ENOMEM : QN_OK;
}

int qn_judge__human_model(const qn_judge *j)
{
    return j->model.version;
}

/* Only accepted puzzles count as seen: a rejected claim can be fixed. An
 * accepted one's seq and id are kept for the duplicates that cite it:
 * their room is had first, so out of memory leaves the judge as it was. */
int qn_judge__settle(qn_judge *j, qn_verdict *v, const uint8_t *key,
                     uint64_t hash, uint64_t seq, const char *id, int has_id,
                     uint64_t *first)
{
    uint64_t at = j->firsts.len;
    size_t idlen;
    int added, room;

    if (*v == QN_VERDICT_OK) {
        idlen = strlen(id);
        room = qn_buf_grow(&j->firsts, sizeof(seq) + 1 + idlen + 1);
        if (room) {
            j->firsts.failed = 0; /* a failed grow keeps the old block */
            return QN_ENOMEM;
        }
        added = qn_seen_add_prepared(j->seen, key, hash, at, first);
        if (added < 0)
            return QN_ENOMEM;
        if (!added) {
            *v = QN_VERDICT_DUPLICATE;
        } else {
            qn_buf_add(&j->firsts, &seq, sizeof(seq));
            qn_buf_addc(&j->firsts, has_id ? 1 : 0);
            qn_buf_add(&j->firsts, id, idlen + 1);
        }
    } else if (*v == QN_VERDICT_CLAIM_MISMATCH &&
               qn_seen_find_prepared(j->seen, key, hash, first)) {
        *v = QN_VERDICT_DUPLICATE;
    }
    j->count[*v]++;
    return QN_OK;
}

uint64_t qn_judge__first(const qn_judge *j, uint64_t first, const char **id,
                         int *has_id)
{
    const char *e = j->firsts.buf + first;
    uint64_t seq;

    memcpy(&seq, e, sizeof(seq));
    *has_id = e[sizeof(seq)];
    *id = e + sizeof(seq) + 1;
    return seq;
}

int qn_judge_settle(qn_judge *j, qn_ruling *r, const qn_submission *sub)
{
    uint64_t first = 0;
    qn_verdict v = r->verdict;
    int rc;

    rc = qn_judge__settle(j, &v, r->seen_key, r->seen_hash, sub->seq,
                          sub->id ? sub->id : "", sub->has_id, &first);
    if (rc != QN_OK)
        return rc;
    r->verdict = v;
    if (r->verdict == QN_VERDICT_DUPLICATE) {
        const char *id;
        r->dup_of = qn_judge__first(j, first, &id, &r->dup_has_id);
        qn_buf_reset(&r->dup_id);
        qn_buf_adds(&r->dup_id, id);
        qn_buf_reset(&r->reason); /* a repeat's claims are not looked at */
        r->claim_plan_bad = 0;
        r->claim_delta = 0;
        if (r->dup_id.failed) /* counted, as settled: only the id is lost */
            return QN_ENOMEM;
    }
    return QN_OK;
}

int qn_judge_one(qn_judge *j, qn_ruling *out, const qn_submission *sub)
{
    int rc = qn_judge_prepare(j, out, sub);

    return rc == QN_OK ? qn_judge_settle(j, out, sub) : rc;
}

void qn_judge__prefetch(const qn_judge *j, uint64_t hash)
{
    qn_seen_prefetch(j->seen, hash);
}

void qn_judge__recount(qn_judge *j, qn_verdict from, qn_verdict to)
{
    j->count[from]--;
    j->count[to]++;
}

const qn_solver *qn_judge__solver(const qn_judge *j)
{
    return j->solver;
}

size_t qn_judge__key_size(const qn_judge *j)
{
    return qn_seen_key_size(j->seen);
}

void qn_judge_stored_duplicate(qn_judge *j, qn_ruling *r, uint64_t puzzle_id)
{
    qn_judge__recount(j, r->verdict, QN_VERDICT_DUPLICATE);
    r->verdict = QN_VERDICT_DUPLICATE;
    r->dup_stored = 1;
    r->dup_stored_id = puzzle_id;
}
