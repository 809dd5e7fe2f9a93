/*
 * pack_load.c: qn_pack_doc_load, the pack document read from the store.
 * The pack's rows are gathered first and turned into rules and puzzles
 * only once the walk is over; stored rules and puzzles are checked on the
 * way (hashes, parses, press counts, puzzle ids).
 */
#include "export/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "export_internal.h"
#include "generate/distrib.h"
#include "generate/gen.h"
#include "rules/puzzle_id.h"
#include "rules/state.h"

typedef struct load_row {
    int64_t rule_id;
    char *state, *witness, *grade, *grader, *seed;
    char *submission, *source, *meta, *section;
    uint64_t min_presses, noptimal, uid;
    int64_t index, slot;
    int human_level, human_model; /* as qn_store_row's */
    int64_t human_score;
} load_row;

/*
 * What the pack walk gathered. The walk may stop at any row (a damaged
 * file fails part-way), so the document's rules and puzzles are built
 * only once it is over: until then they stay NULL with zero counts, a
 * state the document releases from.
 */
typedef struct load_ctx {
    qn_pack_doc *doc;
    load_row *rows;
    size_t nrows, cap;
    int64_t *rule_ids; /* nrules, first-appearance order */
    char **yaml;       /* their stored YAML, read with their puzzles */
    char **hash;       /* and their stored hashes */
    size_t nrules;
    qn_err *err;
} load_ctx;

/* s (NULL: "") copied into *out; 0, or -1 when out of memory */
static int dup_to(char **out, const char *s)
{
    return (*out = qn_strdup(s ? s : "")) ? 0 : -1;
}

/* The walks' callbacks stop them with QN_ENOMEM (err filled) when out of
 * memory; what they took so far is the context's to release. */
static int on_pack(void *vctx, const qn_store_pack *p)
{
    load_ctx *x = vctx;
    qn_pack_doc *doc = x->doc;

    /* pack names are unique: a second row comes from a damaged index */
    if (doc->name)
        return 0;
    doc->version = p->version;
    if (dup_to(&doc->name, p->name) || dup_to(&doc->title, p->title) ||
        dup_to(&doc->description, p->description) ||
        dup_to(&doc->author, p->author))
        return qn_err_nomem(x->err);
    return 0;
}

/* Room for one more rule in x's three arrays. */
static int grow_rules(load_ctx *x)
{
    size_t n = x->nrules + 1;
    int64_t *ids = QN_REALLOCN(x->rule_ids, n, int64_t);
    char **yaml, **hash;

    if (ids)
        x->rule_ids = ids;
    yaml = ids ? QN_REALLOCN(x->yaml, n, char *) : NULL;
    if (yaml)
        x->yaml = yaml;
    hash = yaml ? QN_REALLOCN(x->hash, n, char *) : NULL;
    if (!hash)
        return -1;
    x->hash = hash;
    x->yaml[x->nrules] = x->hash[x->nrules] = NULL;
    return 0;
}

static int on_row(void *vctx, const qn_store_row *row)
{
    load_ctx *x = vctx;
    load_row *lr;
    size_t i;

    if (x->nrows == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        load_row *rows = QN_REALLOCN(x->rows, cap, load_row);
        if (!rows)
            return qn_err_nomem(x->err);
        x->rows = rows;
        x->cap = cap;
    }
    lr = &x->rows[x->nrows++];
    memset(lr, 0, sizeof(*lr));
    lr->rule_id = row->rule_id;
    if (dup_to(&lr->state, row->state) || dup_to(&lr->witness, row->witness) ||
        dup_to(&lr->grade, row->grade) || dup_to(&lr->grader, row->grader) ||
        dup_to(&lr->seed, row->seed) ||
        dup_to(&lr->submission, row->submission) ||
        dup_to(&lr->source, row->source) || dup_to(&lr->meta, row->meta) ||
        dup_to(&lr->section, row->section))
        return qn_err_nomem(x->err);
    lr->slot = row->slot;
    lr->human_level = row->human_level;
    lr->human_score = row->human_score;
    lr->human_model = row->human_model;
    lr->uid = row->uid;
    lr->min_presses = row->min_presses;
    lr->noptimal = row->noptimal;
    lr->index = row->stream_index < 0 ? -1 : row->stream_index;
    for (i = 0; i < x->nrules; i++)
        if (x->rule_ids[i] == row->rule_id)
            return 0;
    if (grow_rules(x))
        return qn_err_nomem(x->err);
    x->rule_ids[i] = row->rule_id;
    x->nrules = i + 1;
    if (dup_to(&x->yaml[i], row->rule_yaml) ||
        dup_to(&x->hash[i], row->rule_hash))
        return qn_err_nomem(x->err);
    return 0;
}

/*
 * Compile the gathered rules into out->rules. A rule is known by its
 * hash: stored text that no longer hashes to it was changed after it was
 * stored (db check says the same), and its puzzles would be written out
 * under another rule.
 */
static int load_rules(qn_pack_doc *out, const load_ctx *x, qn_err *err)
{
    if (!(out->rules = QN_ALLOCN(x->nrules ? x->nrules : 1, qn_pack_rule)))
        return qn_err_nomem(err);
    out->nrules = x->nrules; /* zeroed entries release cleanly */
    for (size_t i = 0; i < x->nrules; i++) {
        qn_rules *r = NULL;
        int rc = qn_rules_load_buf(&r, x->yaml[i], strlen(x->yaml[i]), "", err);
        if (rc == QN_ENOMEM) /* not the stored rule's fault */
            return rc;
        if (rc != QN_OK) {
            char why[320];
            snprintf(why, sizeof(why), "%d:%d: %s", err ? err->line : 0,
                     err ? err->col : 0, err ? err->msg : "");
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "stored rule %lld does not load: %s",
                              (long long)x->rule_ids[i], why);
        }
        if ((rc = qn_pack_rule_from_rules(&out->rules[i], r, err)) != QN_OK) {
            qn_rules_free(r);
            return rc;
        }
        out->rules[i].rules = r;
        if (strcmp(out->rules[i].hash, x->hash[i]) != 0)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "stored rule %lld (%s) hashes to %s, the "
                              "database says %s",
                              (long long)x->rule_ids[i], out->rules[i].name,
                              out->rules[i].hash, x->hash[i]);
    }
    return QN_OK;
}

/*
 * Parse row lr of the pack into p under rule pr. A minimal plan's press
 * counts sum to min_presses, so a puzzle whose sum differs (or whose
 * texts do not parse) was changed after it was stored; so was one whose
 * stored id is not the id of its rule and state, and an export must not
 * carry a name that finds another puzzle, or none.
 */
static int load_puzzle(qn_pack_puzzle *p, const qn_pack_rule *pr, load_row *lr,
                       qn_err *err)
{
    const qn_layout *l = qn_rules_layout(pr->rules);
    uint64_t sum = 0;
    int rc;

    p->state = QN_ALLOCN((size_t)pr->ncells, uint8_t);
    p->solution = QN_ALLOCN((size_t)pr->ncells, uint8_t);
    if (!p->state || !p->solution)
        return qn_err_nomem(err);
    p->min_presses = lr->min_presses;
    p->noptimal = lr->noptimal;
    p->grade = lr->grade, lr->grade = NULL;
    p->grader = lr->grader, lr->grader = NULL;
    p->seed = lr->seed, lr->seed = NULL;
    p->index = lr->index;
    p->submission = lr->submission, lr->submission = NULL;
    p->source = lr->source, lr->source = NULL;
    p->meta = lr->meta, lr->meta = NULL;
    p->section = lr->section, lr->section = NULL;
    p->slot = lr->slot;
    p->human_level = lr->human_level;
    p->human_score = lr->human_score;
    p->human_model = lr->human_model;
    rc = qn_state_parse(p->state, l, pr->colours, lr->state, strlen(lr->state),
                        err);
    if (rc == QN_OK)
        rc = qn_state_parse(p->solution, l, pr->colours, lr->witness,
                            strlen(lr->witness), err);
    if (rc != QN_OK)
        return rc;
    for (int c = 0; c < pr->ncells; c++)
        sum += p->solution[c];
    if (sum != p->min_presses)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "its solution has %llu %s, min_presses is %llu",
                          (unsigned long long)sum,
                          qn_plural(sum, "press", "presses"),
                          (unsigned long long)p->min_presses);
    p->id = qn_export__content_id(pr, p->state);
    if (p->id != lr->uid) {
        char stored[QN_PUZZLE_ID_HEX], content[QN_PUZZLE_ID_HEX];
        qn_puzzle_id_hex(stored, lr->uid);
        qn_puzzle_id_hex(content, p->id);
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "its stored id is %s, its rule and state give %s",
                          stored, content);
    }
    return QN_OK;
}

static int load_puzzles(qn_pack_doc *out, const load_ctx *x, const char *name,
                        qn_err *err)
{
    if (!(out->puzzles = QN_ALLOCN(x->nrows ? x->nrows : 1, qn_pack_puzzle)))
        return qn_err_nomem(err);
    for (size_t i = 0; i < x->nrows; i++) {
        load_row *lr = &x->rows[i];
        qn_pack_puzzle *p = &out->puzzles[i];
        size_t ri = 0;

        while (x->rule_ids[ri] != lr->rule_id)
            ri++;
        out->npuzzles = i + 1;
        p->position = (int64_t)i + 1;
        p->rule = ri;
        int rc = load_puzzle(p, &out->rules[ri], lr, err);
        if (rc == QN_ENOMEM) /* not the stored puzzle's fault */
            return rc;
        if (rc != QN_OK) {
            char why[256];
            snprintf(why, sizeof(why), "%s", err ? err->msg : "");
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "stored puzzle %zu of pack '%s' does not "
                              "load: %s",
                              i + 1, name, why);
        }
    }
    return QN_OK;
}

/* Whether a stored grader version ("2") cut the tiers this one cuts. */
static int same_tiers(const char *grader)
{
    char *end;
    long v;

    if (!*grader)
        return 0;
    v = strtol(grader, &end, 10);
    return !*end && v >= QN_GRADER_TIERS_SINCE && v <= QN_GRADER_VERSION;
}

/*
 * A rule without tiers of its own whose puzzles carry grades was graded
 * by the tiers the generator made for it (distrib.h, "Difficulty
 * model"): made again the same way, they go into the document, so its
 * grades name tiers it holds. Only when every graded puzzle of the rule
 * was graded by a grader version with these tiers and has the grade those tiers
 * give its press count; otherwise the document says none, as before.
 */
static int graded_tiers(qn_pack_doc *doc, size_t ri, qn_err *err)
{
    qn_pack_rule *pr = &doc->rules[ri];
    size_t graded = 0;
    qn_tiers t;
    qn_err e = QN_ERR_INIT;

    if (pr->ntiers || !pr->rules)
        return QN_OK;
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        if (p->rule != ri || !*p->grade)
            continue;
        if (!same_tiers(p->grader))
            return QN_OK;
        graded++;
    }
    if (!graded)
        return QN_OK;
    if (!qn_gen_rule_tiers(pr->rules, &t, &e))
        return e.code == QN_ENOMEM ? qn_err_nomem(err) : QN_OK;
    if (!t.n)
        return QN_OK;
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        const char *g;
        if (p->rule != ri || !*p->grade)
            continue;
        g = qn_tiers_grade(&t, p->min_presses);
        if (!g || strcmp(g, p->grade) != 0)
            return QN_OK;
    }
    /* pr->ntiers last: a rule left without them releases cleanly */
    if (!(pr->tier_name = QN_ALLOCN(t.n, char *)) ||
        !(pr->tier_lo = QN_ALLOCN(t.n, int)) ||
        !(pr->tier_hi = QN_ALLOCN(t.n, int)))
        return qn_err_nomem(err);
    pr->ntiers = t.n;
    for (size_t i = 0; i < t.n; i++) {
        if (!(pr->tier_name[i] = qn_strdup(t.name[i])))
            return qn_err_nomem(err);
        pr->tier_lo[i] = (int)t.lo[i];
        pr->tier_hi[i] = (int)t.hi[i];
    }
    return QN_OK;
}

int qn_pack_doc_load(qn_pack_doc *out, qn_store *s, const char *name,
                     qn_err *err)
{
    load_ctx x;
    int64_t pack_id;
    int rc;

    memset(out, 0, sizeof(*out));
    memset(&x, 0, sizeof(x));
    x.doc = out;
    x.err = err;
    rc = qn_store_pack_find(s, name, &pack_id, err);
    if (rc == QN_OK)
        rc = qn_store_pack_list(s, name, on_pack, &x, err);
    if (rc == QN_OK)
        rc = qn_store_pack_each(s, pack_id, on_row, &x, err);
    if (rc == QN_OK)
        rc = load_rules(out, &x, err);
    if (rc == QN_OK)
        rc = load_puzzles(out, &x, name, err);
    for (size_t i = 0; rc == QN_OK && i < out->nrules; i++)
        rc = graded_tiers(out, i, err);
    for (size_t i = 0; i < x.nrows; i++) {
        free(x.rows[i].state);
        free(x.rows[i].witness);
        free(x.rows[i].grade);
        free(x.rows[i].grader);
        free(x.rows[i].seed);
        free(x.rows[i].submission);
        free(x.rows[i].source);
        free(x.rows[i].meta);
        free(x.rows[i].section);
    }
    free(x.rows);
    for (size_t i = 0; i < x.nrules; i++) {
        free(x.yaml[i]);
        free(x.hash[i]);
    }
    free(x.yaml);
    free(x.hash);
    free(x.rule_ids);
    if (rc != QN_OK) {
        qn_err_source(err, qn_store_path(s)); /* what is wrong is in it */
        qn_pack_doc_release(out);
    }
    return rc;
}
