/*
 * verdict.c: verdicts for submissions (see verdict.h for their order).
 */
#include "quench/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "quench/canon.h"
#include "quench/mem.h"
#include "quench/rules.h"

static const char *const names[] = {
#define QN_X_NAME(e, s) s,
    QN_VERDICTS(QN_X_NAME)
#undef QN_X_NAME
};

const char *qn_verdict_name(qn_verdict v)
{
    return (unsigned)v < QN_NVERDICTS ? names[v] : "?";
}

struct qn_judge {
    const qn_solver *g;
    qn_seen *seen;
    uint64_t count[QN_NVERDICTS];
    uint8_t *canon;
    qn_puzzle_id_key id_key; /* the rule's, for puzzle ids */
};

qn_judge *qn_judge_new(const qn_solver *g)
{
    qn_judge *j = QN_NEW(qn_judge);
    char hash[65];

    j->g = g;
    qn_rules_hash(qn_solver_rules(g), hash);
    qn_puzzle_id_key_init(&j->id_key, hash);
    j->seen = qn_seen_new(qn_solver_ncells(g), qn_solver_colours(g));
    j->canon = QN_NEWN((size_t)qn_solver_ncells(g) + 1, uint8_t);
    return j;
}

void qn_judge_free(qn_judge *j)
{
    if (!j)
        return;
    qn_seen_free(j->seen);
    free(j->canon);
    free(j);
}

void qn_ruling_init(qn_ruling *r, const qn_judge *j)
{
    memset(r, 0, sizeof(*r));
    qn_answer_init(&r->ans, j->g);
    qn_buf_init(&r->reason);
}

void qn_ruling_release(qn_ruling *r)
{
    qn_answer_release(&r->ans);
    qn_buf_release(&r->reason);
}

uint64_t qn_judge_count(const qn_judge *j, qn_verdict v)
{
    return j->count[v];
}

/* Claims: a solution must replay; a minimum must be the true one. */
static int check_claims(qn_judge *j, qn_ruling *out, const qn_submission *s)
{
    if (s->has_solution && !qn_solver_replays(j->g, s->cells, s->solution)) {
        out->claim_plan_bad = 1;
        qn_buf_adds(&out->reason,
                    "the claimed solution does not reach the goal");
        return 1;
    }
    if (s->has_min && out->ans.exact &&
        s->min_presses != out->ans.mp.presses) {
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

static qn_verdict decide(qn_judge *j, qn_ruling *out,
                         const qn_submission *sub)
{
    if (!sub->ok) {
        qn_buf_adds(&out->reason, sub->err.msg);
        return QN_VERDICT_MALFORMED;
    }
    /* the id names the puzzle whatever becomes of it */
    qn_canon_form(qn_solver_rules(j->g), j->canon, sub->cells);
    out->puzzle_id =
        qn_puzzle_id(&j->id_key, j->canon, qn_solver_ncells(j->g));
    out->canon = j->canon;
    out->has_puzzle_id = 1;
    qn_solver_answer(j->g, &out->ans, sub->cells);
    if (out->ans.at_goal)
        return QN_VERDICT_TRIVIAL;
    if (!out->ans.solvable)
        return QN_VERDICT_UNSOLVABLE;
    /* only accepted puzzles count as seen: a rejected claim can be fixed */
    if (qn_seen_find(j->seen, j->canon, &out->dup_of))
        return QN_VERDICT_DUPLICATE;
    if (check_claims(j, out, sub))
        return QN_VERDICT_CLAIM_MISMATCH;
    qn_seen_add(j->seen, j->canon, sub->seq, NULL);
    return QN_VERDICT_OK;
}

void qn_judge_one(qn_judge *j, qn_ruling *out, const qn_submission *sub)
{
    qn_buf_reset(&out->reason);
    out->has_puzzle_id = 0;
    out->puzzle_id = 0;
    out->canon = NULL;
    out->dup_of = 0;
    out->dup_stored = 0;
    out->dup_stored_id = 0;
    out->claim_plan_bad = 0;
    out->claim_delta = 0;
    out->verdict = decide(j, out, sub);
    j->count[out->verdict]++;
}

void qn_judge_stored_duplicate(qn_judge *j, qn_ruling *r,
                               uint64_t puzzle_id)
{
    j->count[r->verdict]--;
    r->verdict = QN_VERDICT_DUPLICATE;
    r->dup_stored = 1;
    r->dup_stored_id = puzzle_id;
    j->count[r->verdict]++;
}
