/*
 * pack_import.c: a parsed pack document checked against quench's own
 * answers (qn_pack_doc_verify) and stored as a new pack (qn_pack_import),
 * in one transaction, with what the database kept listed by
 * export_diff.c.
 */
#include "export/export.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "export_internal.h"
#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "rules/state.h"
#include "solve/human_score.h"
#include "solve/solver.h"

/*
 * A puzzle's human grade against quench's: the level always, the score
 * when it names the model quench has (another model's score is kept as
 * it is). *hg is the rule's grader, built on first use.
 */
static int check_human(const qn_solver *solver, qn_human_grader **hg,
                       const qn_pack_puzzle *p, const qn_answer *a,
                       const char *id, qn_err *err)
{
    qn_human_grade gr;
    qn_human_model m;
    int64_t score;
    int rc;

    if (!*hg && (rc = qn_human_grader_new(hg, solver, err)) != QN_OK)
        return rc == QN_ENOMEM ? rc : QN_EINVAL;
    rc = qn_human_grade_of(*hg, p->state, a->plan, a->mp.presses,
                           a->mp.noptimal, &gr, err);
    if (rc == QN_ENOMEM) /* not the document's fault */
        return rc;
    if (rc != QN_OK)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "%s: human_level is %s, but quench gives the "
                          "state none (more than %d optimal plans)",
                          id, qn_human_level_name(p->human_level),
                          QN_HUMAN_MAX_PLANS);
    if (gr.level != p->human_level)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "%s: human_level is %s, quench computes %s", id,
                          qn_human_level_name(p->human_level),
                          qn_human_level_name(gr.level));
    qn_human_model_default(&m);
    score = qn_human_score_milli(&m, &gr);
    if (p->human_model == m.version && score != p->human_score)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "%s: human_score is %lld/1000, model %d computes "
                          "%lld/1000",
                          id, (long long)p->human_score, m.version,
                          (long long)score);
    return QN_OK;
}

int qn_pack_doc_verify(const qn_pack_doc *doc, qn_err *err)
{
    qn_human_grader **humans =
        QN_ALLOCN(doc->nrules ? doc->nrules : 1, qn_human_grader *);
    qn_solver **solvers = QN_ALLOCN(doc->nrules ? doc->nrules : 1, qn_solver *);
    qn_answer *answers = QN_ALLOCN(doc->nrules ? doc->nrules : 1, qn_answer);
    int rc = QN_OK;

    if (!humans || !solvers || !answers) {
        free(humans);
        free(solvers);
        free(answers);
        return qn_err_nomem(err);
    }
    for (size_t i = 0; i < doc->nrules && rc == QN_OK; i++) {
        rc = qn_solver_new(&solvers[i], doc->rules[i].rules, err);
        if (rc == QN_OK && (rc = qn_answer_init(&answers[i], solvers[i], err)))
            qn_solver_free(solvers[i]), solvers[i] = NULL;
    }
    for (size_t i = 0; i < doc->npuzzles && rc == QN_OK; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        const qn_solver *solver = solvers[p->rule];
        qn_answer *a = &answers[p->rule];
        int n = doc->rules[p->rule].ncells;
        uint64_t sum = 0;
        char id[QN_EXPORT__NAME];

        qn_export__puzzle_name(id, p);
        for (int c = 0; c < n; c++)
            sum += p->solution[c];
        if (qn_solver_answer(solver, a, p->state) != QN_OK)
            rc = qn_err_nomem(err);
        else if (!a->solvable)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: the state has no solution", id);
        else if (a->at_goal)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: the state is already solved", id);
        else if (!qn_solver_replays(solver, p->state, p->solution))
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: the solution does not reach the goal", id);
        else if (!a->exact)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: minimal presses cannot be proven (kernel "
                            "too large to walk)",
                            id);
        else if (a->mp.presses != p->min_presses)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: min_presses is %llu, quench computes %llu", id,
                            (unsigned long long)p->min_presses,
                            (unsigned long long)a->mp.presses);
        else if (sum != p->min_presses)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: the solution has %llu %s, min_presses "
                            "is %llu",
                            id, (unsigned long long)sum,
                            qn_plural(sum, "press", "presses"),
                            (unsigned long long)p->min_presses);
        else if (a->mp.noptimal != p->noptimal)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: optimal_solutions is %llu, quench computes "
                            "%llu",
                            id, (unsigned long long)p->noptimal,
                            (unsigned long long)a->mp.noptimal);
        else if (p->human_model >= 1)
            rc = check_human(solver, &humans[p->rule], p, a, id, err);
    }
    for (size_t i = 0; i < doc->nrules; i++)
        qn_human_grader_free(humans[i]);
    free(humans);
    for (size_t i = 0; i < doc->nrules; i++)
        if (solvers[i]) {
            qn_answer_release(&answers[i]);
            qn_solver_free(solvers[i]);
        }
    free(answers);
    free(solvers);
    return rc;
}

/* One import: where it goes, what it stores, and what is stored so far. */
typedef struct importer {
    qn_store *s;
    const qn_pack_doc *doc;
    int64_t *rule_ids; /* the stored id of each of doc's rules */
    int64_t pack_id;
    uint8_t *canon, *key; /* scratch for canonical keys, kept across puzzles */
    qn_solver **solvers;  /* per rule, built for the first puzzle without a */
    qn_human_grader **hg; /* human grade, which import grades */
} importer;

/* Store the document's rules (as rebuilt YAML) and note their ids. */
static int put_rules(importer *im, qn_err *err)
{
    const qn_pack_doc *doc = im->doc;
    qn_buf yaml = QN_BUF_INIT, layout = QN_BUF_INIT;
    int rc = QN_OK;

    for (size_t i = 0; i < doc->nrules && rc == QN_OK; i++) {
        const qn_pack_rule *pr = &doc->rules[i];
        qn_store_rule sr;
        memset(&sr, 0, sizeof(sr));
        qn_buf_reset(&yaml);
        qn_pack_rule_yaml(&yaml, pr);
        qn_buf_reset(&layout);
        qn_state_format_zero(&layout, qn_rules_layout(pr->rules));
        if (yaml.failed || layout.failed) {
            rc = qn_err_nomem(err);
            break;
        }
        sr.hash = pr->hash;
        sr.name = pr->name;
        sr.yaml = yaml.buf;
        sr.cells = pr->ncells;
        sr.colours = pr->colours;
        sr.layout = layout.buf;
        rc = qn_store_put_rule(im->s, &sr, &im->rule_ids[i], err);
    }
    qn_buf_release(&yaml);
    qn_buf_release(&layout);
    return rc;
}

/*
 * A new, empty pack `name` for the document: an existing one is an error.
 * The document's version is kept: the pack is created at it and filled
 * without changing it (qn_store_pack_fill_slot, each puzzle in the
 * document's slot and section); keep_version checks where it
 * ends.
 */
static int create_pack(importer *im, const char *name, qn_err *err)
{
    const qn_pack_doc *doc = im->doc;
    qn_store_pack pk;
    int rc = qn_store_pack_find(im->s, name, &im->pack_id, err);

    if (rc == QN_OK)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "pack '%s' already exists (import under another "
                          "name with --pack)",
                          name);
    if (rc != QN_ENOTFOUND)
        return rc;
    memset(&pk, 0, sizeof(pk));
    pk.name = name;
    pk.title = doc->title;
    pk.description = doc->description;
    pk.author = doc->author;
    pk.version = doc->version;
    return qn_store_pack_create(im->s, &pk, &im->pack_id, err);
}

static int on_version(void *ctx, const qn_store_pack *p)
{
    *(int64_t *)ctx = p->version;
    return 0;
}

/* The pack, filled, is at the document's version (create_pack). */
static int keep_version(importer *im, const char *name, qn_err *err)
{
    int64_t v = 0;
    int rc;

    rc = qn_store_pack_list(im->s, name, on_version, &v, err);
    if (rc == QN_OK && v != im->doc->version)
        rc = qn_err_set(err, QN_ERR, 0, 0,
                        "pack '%s' is at version %lld after the import, "
                        "not the document's %lld: the store counts "
                        "versions in another way than import expects",
                        name, (long long)v, (long long)im->doc->version);
    return rc;
}

/* A puzzle that came without a human grade (a document of an older
 * quench) gets the grade quench gives it now, as generate would; a rule
 * the ladder cannot grade (a limit) leaves it ungraded. QN_OK, or
 * QN_ENOMEM. */
static int grade_missing(importer *im, const qn_pack_puzzle *p,
                         qn_store_puzzle *sp, qn_err *err)
{
    size_t r = p->rule;
    qn_human_grade gr;
    qn_human_model m;
    qn_err e = QN_ERR_INIT;
    int rc = QN_OK;

    if (!im->hg) {
        size_t nr = im->doc->nrules ? im->doc->nrules : 1;
        if (!im->solvers && !(im->solvers = QN_ALLOCN(nr, qn_solver *)))
            return qn_err_nomem(err);
        if (!(im->hg = QN_ALLOCN(nr, qn_human_grader *)))
            return qn_err_nomem(err);
    }
    if (!im->solvers[r] &&
        ((rc = qn_solver_new(&im->solvers[r], im->doc->rules[r].rules, &e)) !=
             QN_OK ||
         (rc = qn_human_grader_new(&im->hg[r], im->solvers[r], &e)) != QN_OK))
        goto out;
    qn_human_model_default(&m);
    if (im->hg[r] &&
        (rc = qn_human_grade_state(im->hg[r], p->state, &gr, &e)) == QN_OK) {
        sp->human_graded = 1;
        sp->human_level = gr.level;
        sp->human_score = qn_human_score_milli(&m, &gr);
        sp->human_model = m.version;
    }
out:
    if (rc == QN_ENOMEM) {
        if (err)
            *err = e;
        return rc;
    }
    return QN_OK;
}

/*
 * Store puzzle p (or find it stored already, up to symmetry) and add it to
 * the pack, where it must not be yet.
 */
static int put_puzzle(importer *im, const qn_pack_puzzle *p, qn_err *err)
{
    const qn_pack_rule *pr = &im->doc->rules[p->rule];
    qn_buf st = QN_BUF_INIT, wt = QN_BUF_INIT;
    const qn_layout *l = qn_rules_layout(pr->rules);
    qn_store_puzzle sp;
    qn_puzzle_id_key key;
    int64_t id;
    int is_new = 0, rc;
    uint8_t *canon = qn_realloc(im->canon, (size_t)pr->ncells), *ckey;

    if (canon)
        im->canon = canon;
    ckey = canon ? qn_realloc(im->key,
                              qn_store_canon_size(pr->ncells, pr->colours))
                 : NULL;
    if (!ckey)
        return qn_err_nomem(err);
    im->key = ckey;
    qn_canon_form(pr->rules, im->canon, p->state);
    qn_state_format(&st, l, p->state, '/');
    qn_state_format(&wt, l, p->solution, '/');
    if (st.failed || wt.failed) {
        qn_buf_release(&st);
        qn_buf_release(&wt);
        return qn_err_nomem(err);
    }
    memset(&sp, 0, sizeof(sp));
    sp.rule_id = im->rule_ids[p->rule];
    sp.state = st.buf;
    sp.canon = im->key;
    sp.canon_len =
        qn_store_canon_pack(im->key, im->canon, pr->ncells, pr->colours);
    sp.min_presses = p->min_presses;
    sp.noptimal = p->noptimal;
    sp.witness = wt.buf;
    sp.grade = *p->grade ? p->grade : NULL;
    sp.grader = p->grader;
    if (p->human_model >= 1) {
        sp.human_graded = 1;
        sp.human_level = p->human_level;
        sp.human_score = p->human_score;
        sp.human_model = p->human_model;
    } else if ((rc = grade_missing(im, p, &sp, err)) != QN_OK) {
        qn_buf_release(&st);
        qn_buf_release(&wt);
        return rc;
    }
    sp.seed = *p->seed ? p->seed : NULL;
    sp.stream_index = p->index;
    sp.provenance = QN_STORE_IMPORT;
    qn_puzzle_id_key_init(&key, pr->hash);
    sp.uid = qn_puzzle_id(&key, im->canon, pr->ncells);
    sp.submission = *p->submission ? p->submission : NULL;
    sp.source = *p->source ? p->source : NULL;
    sp.meta = *p->meta ? p->meta : NULL;
    rc = qn_store_put_puzzle(im->s, &sp, &id, &is_new, err);
    if (rc == QN_OK) {
        rc = qn_store_pack_fill_slot(im->s, im->pack_id, id, p->slot,
                                     p->section, err);
        if (rc == QN_EINVAL) {
            char name[QN_EXPORT__NAME];
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "%s: the same puzzle (up to symmetry) is "
                            "already in the pack",
                            qn_export__puzzle_name(name, p));
        }
    }
    qn_buf_release(&st);
    qn_buf_release(&wt);
    return rc;
}

/* The rules, a new pack and its puzzles, inside the caller's transaction. */
static int import_in_batch(qn_store *s, const qn_pack_doc *doc,
                           const char *name, qn_err *err)
{
    importer im;
    int rc;

    memset(&im, 0, sizeof(im));
    im.s = s;
    im.doc = doc;
    im.rule_ids = QN_ALLOCN(doc->nrules ? doc->nrules : 1, int64_t);
    rc = im.rule_ids ? put_rules(&im, err) : qn_err_nomem(err);
    if (rc == QN_OK)
        rc = create_pack(&im, name, err);
    for (size_t i = 0; i < doc->npuzzles && rc == QN_OK; i++)
        rc = put_puzzle(&im, &doc->puzzles[i], err);
    if (rc == QN_OK)
        rc = keep_version(&im, name, err);
    for (size_t i = 0; im.solvers && i < doc->nrules; i++) {
        qn_human_grader_free(im.hg ? im.hg[i] : NULL);
        qn_solver_free(im.solvers[i]);
    }
    free(im.solvers);
    free(im.hg);
    free(im.canon);
    free(im.key);
    free(im.rule_ids);
    return rc;
}

int qn_pack_import(qn_store *s, const qn_pack_doc *doc, const char *name,
                   qn_pack_diff_fn *fn, void *ctx, qn_err *err)
{
    qn_pack_doc kept;
    int rc = qn_store_begin(s, err);

    memset(&kept, 0, sizeof(kept));
    if (rc != QN_OK)
        return rc;
    name = name ? name : doc->name;
    rc = import_in_batch(s, doc, name, err);
    /* the pack as an export will write it: stored rows win (export.h);
     * compared before the commit, so that running out of memory there
     * leaves nothing stored */
    if (rc == QN_OK && fn)
        rc = qn_pack_doc_load(&kept, s, name, err);
    if (rc == QN_OK && fn)
        rc = qn_pack_doc_diff(doc, &kept, fn, ctx, NULL, err);
    qn_pack_doc_release(&kept);
    if (rc != QN_OK) {
        qn_store_rollback(s, NULL);
        return rc;
    }
    return qn_store_commit(s, err);
}
