/*
 * export_diff.c: what an import could not take over (export.h). A rule
 * or puzzle the database already holds keeps its stored row, so the pack
 * read back may differ from the document; qn_pack_doc_diff lists every
 * field that does, by the document's key and with both values as text.
 */
#include "export/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "rules/state.h"

typedef struct differ {
    qn_pack_diff d;
    qn_pack_diff_fn *fn;
    void *ctx;
    size_t n;
    int nomem; /* a value's text could not be built: no more calls */
} differ;

static void differs(differ *x, const char *field, const char *stored,
                    const char *document)
{
    if (x->nomem || !strcmp(stored, document))
        return;
    x->d.field = field;
    x->d.stored = stored;
    x->d.document = document;
    x->n++;
    x->fn(x->ctx, &x->d);
}

/* differs() on two values written by put(out, value) (in the sticky
 * scope of qn_pack_doc_diff) */
#define DIFFERS_AS(x, field, put, a, b)                                        \
    do {                                                                       \
        qn_buf ta_ = QN_BUF_INIT, tb_ = QN_BUF_INIT;                           \
        put(&ta_, a);                                                          \
        put(&tb_, b);                                                          \
        if (ta_.failed || tb_.failed)                                          \
            (x)->nomem = 1;                                                    \
        differs(x, field, ta_.buf, tb_.buf);                                   \
        qn_buf_release(&ta_);                                                  \
        qn_buf_release(&tb_);                                                  \
    } while (0)

/* "grid 5x5, wrap x", and where the board has holes its cells as a state
 * of zeros ("000/0.0/000"), so two masks of the same size differ. */
static void put_board(qn_buf *out, const qn_pack_rule *pr)
{
    static const char *const wraps[] = {"none", "x", "y", "both"};
    const qn_layout *l = qn_rules_layout(pr->rules);
    uint8_t *zero;

    qn_buf_addf(out, "%s %dx%d", qn_layout_kind_name(pr->kind), pr->w, pr->h);
    if (pr->wrap)
        qn_buf_addf(out, ", wrap %s", wraps[pr->wrap & 3]);
    if (pr->ncells == pr->w * pr->h)
        return;
    if (!(zero = qn_calloc((size_t)pr->ncells, 1))) {
        qn_buf_fail(out);
        return;
    }
    qn_buf_addc(out, ' ');
    qn_state_format(out, l, zero, '/');
    free(zero);
}

/* "easy 1-7, hard 8-9", or "none". */
static void put_tiers(qn_buf *out, const qn_pack_rule *pr)
{
    for (size_t t = 0; t < pr->ntiers; t++)
        qn_buf_addf(out, "%s%s %d-%d", t ? ", " : "", pr->tier_name[t],
                    pr->tier_lo[t], pr->tier_hi[t]);
    if (!pr->ntiers)
        qn_buf_adds(out, "none");
}

static void diff_rule(differ *x, const qn_pack_rule *doc,
                      const qn_pack_rule *kept)
{
    x->d.puzzle = 0;
    x->d.id = 0;
    x->d.rule = doc->name;
    differs(x, "name", kept->name, doc->name);
    differs(x, "title", kept->title, doc->title);
    differs(x, "description", kept->description, doc->description);
    differs(x, "author", kept->author, doc->author);
    DIFFERS_AS(x, "board", put_board, kept, doc);
    DIFFERS_AS(x, "tiers", put_tiers, kept, doc);
}

static void put_u64(qn_buf *out, uint64_t v)
{
    qn_buf_addf(out, "%llu", (unsigned long long)v);
}

static void put_i64(qn_buf *out, int64_t v)
{
    qn_buf_addf(out, "%lld", (long long)v);
}

/* a puzzle's cells in the state text format of its own rule */
typedef struct cells {
    const qn_pack_doc *doc;
    const uint8_t *v;
    size_t rule;
} cells;

static void put_cells(qn_buf *out, cells c)
{
    qn_state_format(out, qn_rules_layout(c.doc->rules[c.rule].rules), c.v, '/');
}

static void diff_puzzle(differ *x, const qn_pack_doc *doc,
                        const qn_pack_puzzle *p, const qn_pack_doc *kept,
                        const qn_pack_puzzle *q)
{
    cells ps = {doc, p->state, p->rule}, qs = {kept, q->state, q->rule};
    cells pw = {doc, p->solution, p->rule}, qw = {kept, q->solution, q->rule};

    x->d.puzzle = p->position;
    x->d.id = p->id;
    x->d.rule = doc->rules[p->rule].name;
    DIFFERS_AS(x, "state", put_cells, qs, ps);
    DIFFERS_AS(x, "min_presses", put_u64, q->min_presses, p->min_presses);
    DIFFERS_AS(x, "optimal_solutions", put_u64, q->noptimal, p->noptimal);
    DIFFERS_AS(x, "solution", put_cells, qw, pw);
    differs(x, "grade", q->grade, p->grade);
    differs(x, "grader_version", q->grader, p->grader);
    differs(x, "seed", q->seed, p->seed);
    DIFFERS_AS(x, "index", put_i64, q->index, p->index);
    differs(x, "submission", q->submission, p->submission);
    differs(x, "source", q->source, p->source);
    differs(x, "meta", q->meta, p->meta);
}

int qn_pack_doc_diff(const qn_pack_doc *doc, const qn_pack_doc *kept,
                     qn_pack_diff_fn *fn, void *ctx, size_t *n_out, qn_err *err)
{
    differ x;
    size_t n = doc->npuzzles < kept->npuzzles ? doc->npuzzles : kept->npuzzles;

    memset(&x, 0, sizeof(x));
    x.fn = fn;
    x.ctx = ctx;
    /* rules by hash: a rule no puzzle uses is not in the pack read back */
    for (size_t i = 0; i < doc->nrules; i++)
        for (size_t j = 0; j < kept->nrules; j++)
            if (!strcmp(doc->rules[i].hash, kept->rules[j].hash))
                diff_rule(&x, &doc->rules[i], &kept->rules[j]);
    for (size_t i = 0; i < n; i++)
        diff_puzzle(&x, doc, &doc->puzzles[i], kept, &kept->puzzles[i]);
    if (n_out)
        *n_out = x.n;
    return x.nomem ? qn_err_nomem(err) : QN_OK;
}
