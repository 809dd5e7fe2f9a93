/*
 * pack_put.c: one solvable state into the store and a pack, for callers
 * of the public API (quench/pack.h): the rule row, the canonical key and
 * the puzzle id computed here, as validate --into and campaigns do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "export/export.h"
#include "generate/distrib.h"
#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "solve/human_score.h"
#include "solve/solver.h"
#include "store/store.h"

/* The pack called name, created when missing. */
static int pack_row(qn_store *s, const char *name, int64_t *id, qn_err *err)
{
    qn_store_pack p;
    int rc = qn_store_pack_find(s, name, id, err);

    if (rc != QN_ENOTFOUND)
        return rc;
    memset(&p, 0, sizeof(p));
    p.name = name;
    return qn_store_pack_create(s, &p, id, err);
}

/* The state's human grade into sp (none when it has none). */
/* The human grade of a stored puzzle; a rule the ladder cannot grade (a
 * limit) leaves it ungraded. QN_OK, or QN_ENOMEM. */
static int human_of(const qn_solver *solver, const qn_answer *a,
                    const uint8_t *state, qn_store_puzzle *sp, qn_err *err)
{
    qn_human_grader *hg = NULL;
    qn_human_grade gr;
    qn_human_model m;
    qn_err e = QN_ERR_INIT;
    int rc;

    qn_human_model_default(&m);
    if ((rc = qn_human_grader_new(&hg, solver, &e)) == QN_OK &&
        (rc = qn_human_grade_of(hg, state, a->plan, a->mp.presses,
                                a->mp.noptimal, &gr, &e)) == QN_OK) {
        sp->human_graded = 1;
        sp->human_level = gr.level;
        sp->human_score = qn_human_score_milli(&m, &gr);
        sp->human_model = m.version;
    }
    qn_human_grader_free(hg);
    if (rc == QN_ENOMEM) {
        if (err)
            *err = e;
        return rc;
    }
    return QN_OK;
}

static int put(qn_store *s, const qn_solver *solver, const qn_answer *a,
               const uint8_t *state, const char *pack, uint64_t *uid_out,
               int *is_new_out, qn_err *err)
{
    const qn_rules *r = qn_solver_rules(solver);
    int n = qn_rules_ncells(r), is_new = 0, rc;
    unsigned k = qn_rules_colours(r);
    uint8_t *canon = qn_malloc((size_t)n);
    uint8_t *key = qn_malloc(qn_store_canon_size(n, k) + 1);
    char hash[65], grader[16];
    qn_puzzle_id_key pk;
    qn_store_puzzle sp;
    int64_t rule_id = 0, id, pack_id = 0;

    if (!canon || !key) {
        free(canon);
        free(key);
        return qn_err_nomem(err);
    }
    qn_rules_hash(r, hash);
    qn_canon_form(r, canon, state);
    qn_puzzle_id_key_init(&pk, hash);
    snprintf(grader, sizeof(grader), "%d", QN_GRADER_VERSION);
    memset(&sp, 0, sizeof(sp));
    sp.state_cells = state;
    sp.witness_cells = a->plan;
    sp.canon = key;
    sp.canon_len = qn_store_canon_pack(key, canon, n, k);
    sp.min_presses = a->mp.presses;
    sp.noptimal = a->mp.noptimal;
    sp.grade = qn_solver_grade(solver, a->mp.presses);
    sp.grader = grader;
    sp.stream_index = -1;
    sp.provenance = QN_STORE_VALIDATE;
    sp.uid = qn_puzzle_id(&pk, canon, n);
    rc = human_of(solver, a, state, &sp, err);
    if (rc == QN_OK)
        rc = qn_store_put_ruleset(s, r, &rule_id, err);
    sp.rule_id = rule_id;
    if (rc == QN_OK)
        rc = qn_store_put_puzzle(s, &sp, &id, &is_new, err);
    if (rc == QN_OK && pack)
        rc = pack_row(s, pack, &pack_id, err);
    if (rc == QN_OK && pack) {
        rc = qn_store_pack_add(s, pack_id, id, 0, err);
        if (rc == QN_EINVAL && !is_new) { /* already in the pack */
            qn_err_clear(err);
            rc = QN_OK;
        }
    }
    if (rc == QN_OK && uid_out)
        *uid_out = sp.uid;
    if (rc == QN_OK && is_new_out)
        *is_new_out = is_new == 1;
    free(canon);
    free(key);
    return rc;
}

int qn_pack_put(qn_store *s, const qn_solver *solver, const uint8_t *state,
                const char *pack, uint64_t *uid_out, int *is_new_out,
                qn_err *err)
{
    qn_answer a;
    int rc, batch = qn_store_in_batch(s);

    if ((rc = qn_answer_init(&a, solver, err)) != QN_OK)
        return rc;
    if (qn_solver_answer(solver, &a, state) != QN_OK)
        rc = qn_err_nomem(err);
    else if (a.at_goal)
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "the state is the goal: not a puzzle");
    else if (!a.solvable)
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0,
                        "the state cannot be solved under rule %s",
                        qn_rules_name(qn_solver_rules(solver)));
    else if (!a.exact)
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "the least presses are not proven (walk limit)");
    else if (!batch && (rc = qn_store_begin(s, err)) != QN_OK)
        ;
    else {
        rc = put(s, solver, &a, state, pack, uid_out, is_new_out, err);
        if (!batch && rc == QN_OK)
            rc = qn_store_commit(s, err);
        else if (!batch)
            qn_store_rollback(s, NULL);
    }
    qn_answer_release(&a);
    return rc;
}

qn_pack_doc *qn_pack_doc_new(void)
{
    return QN_ALLOC(qn_pack_doc);
}

void qn_pack_doc_free(qn_pack_doc *doc)
{
    if (!doc)
        return;
    qn_pack_doc_release(doc);
    free(doc);
}

const char *qn_pack_doc_name(const qn_pack_doc *doc)
{
    return doc->name ? doc->name : "";
}

size_t qn_pack_doc_npuzzles(const qn_pack_doc *doc)
{
    return doc->npuzzles;
}
