/*
 * export.c: the pack document (export.h): read from the store, written as
 * json, jsonl, csv, Flip IDs, svg or html (export_html.c), verified and
 * stored on import. The JSON reader is json_pack.c (the only jansson user
 * besides json_in.c).
 */
#include "quench/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "quench/canon.h"
#include "quench/flip_id.h"
#include "quench/solver.h"
#include "quench/jsonw.h"
#include "quench/mem.h"
#include "quench/state.h"
#include "quench/svg.h"

/* ---- formats ------------------------------------------------------------ */

static const char *const format_names[] = {
#define QN_X_(e, s) s,
    QN_EXPORT_FORMATS(QN_X_)
#undef QN_X_
};

const char *qn_export_format_name(qn_export_format f)
{
    if ((unsigned)f >= QN_EXPORT_NFORMATS)
        return "?";
    return format_names[f];
}

int qn_export_format_parse(qn_export_format *out, const char *name,
                           qn_err *err)
{
    for (int f = 0; f < QN_EXPORT_NFORMATS; f++)
        if (strcmp(name, format_names[f]) == 0) {
            *out = (qn_export_format)f;
            return QN_OK;
        }
    return qn_err_set(err, QN_ESYNTAX, 0, 0,
                      "unknown format '%s' (json, jsonl, csv, flip, svg, "
                      "html)",
                      name);
}

/* ---- the document ------------------------------------------------------- */

void qn_pack_rule_release(qn_pack_rule *pr)
{
    free(pr->hash);
    free(pr->name);
    free(pr->title);
    free(pr->description);
    free(pr->author);
    free(pr->row);
    free(pr->col);
    free(pr->matrix);
    free(pr->goal);
    for (size_t t = 0; t < pr->ntiers; t++)
        free(pr->tier_name[t]);
    free(pr->tier_name);
    free(pr->tier_lo);
    free(pr->tier_hi);
    qn_rules_free(pr->rules);
    memset(pr, 0, sizeof(*pr));
}

void qn_pack_doc_release(qn_pack_doc *doc)
{
    free(doc->name);
    free(doc->title);
    free(doc->description);
    free(doc->author);
    for (size_t i = 0; i < doc->nrules; i++)
        qn_pack_rule_release(&doc->rules[i]);
    free(doc->rules);
    for (size_t i = 0; i < doc->npuzzles; i++) {
        qn_pack_puzzle *p = &doc->puzzles[i];
        free(p->state);
        free(p->solution);
        free(p->grade);
        free(p->grader);
        free(p->seed);
    }
    free(doc->puzzles);
    memset(doc, 0, sizeof(*doc));
}

void qn_pack_rule_from_rules(qn_pack_rule *out, const qn_rules *r)
{
    const qn_layout *l = qn_rules_layout(r);
    int n = qn_rules_ncells(r);
    char hash[65];

    memset(out, 0, sizeof(*out));
    qn_rules_hash(r, hash);
    out->hash = qn_xstrdup(hash);
    out->name = qn_xstrdup(qn_rules_name(r));
    out->title = qn_xstrdup(qn_rules_title(r));
    out->description = qn_xstrdup(qn_rules_description(r));
    out->author = qn_xstrdup(qn_rules_author(r));
    out->colours = qn_rules_colours(r);
    out->kind = l->kind;
    out->w = l->w;
    out->h = l->h;
    out->wrap = l->wrap;
    out->side = l->side;
    out->ncells = n;
    out->row = QN_NEWN((size_t)n, int);
    out->col = QN_NEWN((size_t)n, int);
    for (int i = 0; i < n; i++)
        qn_layout_rc(l, i, &out->row[i], &out->col[i]);
    out->matrix = qn_xmemdup(qn_rules_matrix(r), (size_t)n * (size_t)n);
    out->goal = qn_xmemdup(qn_rules_goal(r), (size_t)n);
    out->ntiers = qn_rules_ntiers(r);
    if (out->ntiers) {
        out->tier_name = QN_NEWN(out->ntiers, char *);
        out->tier_lo = QN_NEWN(out->ntiers, int);
        out->tier_hi = QN_NEWN(out->ntiers, int);
        for (size_t t = 0; t < out->ntiers; t++) {
            out->tier_name[t] = qn_xstrdup(qn_rules_tier_name(r, t));
            out->tier_lo[t] = qn_rules_tier_lo(r, t);
            out->tier_hi[t] = qn_rules_tier_hi(r, t);
        }
    }
}

/* ---- rule YAML ---------------------------------------------------------- */

static const char *wrap_name(int wrap)
{
    switch (wrap) {
    case QN_WRAP_X: return "x";
    case QN_WRAP_Y: return "y";
    case QN_WRAP_BOTH: return "both";
    default: return "none";
    }
}

/*
 * The h rows of w positions as text: `cellfn` writes a cell, holes are
 * `hole`. Cell i sits at (row[i], col[i]); positions are checked to be in
 * range and strictly increasing by qn_pack_rule_compile's caller.
 */
static void put_rows(qn_buf *out, const qn_pack_rule *pr, const uint8_t *v,
                     char hole)
{
    int i = 0;

    for (int r = 0; r < pr->h; r++) {
        if (r > 0)
            qn_buf_addc(out, '/');
        for (int c = 0; c < pr->w; c++) {
            if (i < pr->ncells && pr->row[i] == r && pr->col[i] == c) {
                if (!v)
                    qn_buf_addc(out, '#');
                else if (v[i] < 36)
                    qn_buf_addc(out, "0123456789abcdefghijklmnopqrstuvwxyz"
                                     [v[i]]);
                else
                    qn_buf_addf(out, "(%u)", (unsigned)v[i]);
                i++;
            } else {
                qn_buf_addc(out, hole);
            }
        }
    }
}

static void put_str(qn_buf *out, const char *key, const char *s)
{
    if (!s || !*s)
        return;
    qn_buf_addf(out, "%s: ", key);
    qn_json_escape(out, s, strlen(s)); /* a JSON string is YAML too */
    qn_buf_addc(out, '\n');
}

void qn_pack_rule_yaml(qn_buf *out, const qn_pack_rule *pr)
{
    int n = pr->ncells, holes = pr->w * pr->h != n, any_goal = 0;

    qn_buf_adds(out, "# rebuilt by quench import from a quench-pack "
                     "document\nquench: 1\n");
    put_str(out, "name", pr->name);
    put_str(out, "title", pr->title);
    put_str(out, "description", pr->description);
    put_str(out, "author", pr->author);
    qn_buf_addf(out, "colours: %u\n", pr->colours);
    switch (pr->kind) {
    case QN_LAYOUT_GRID:
    case QN_LAYOUT_HEX:
        qn_buf_addf(out, "board: {%s: [%d, %d]",
                    pr->kind == QN_LAYOUT_GRID ? "grid" : "hex", pr->w, pr->h);
        if (pr->wrap)
            qn_buf_addf(out, ", wrap: %s", wrap_name(pr->wrap));
        if (holes) {
            qn_buf_adds(out, ", mask: \"");
            put_rows(out, pr, NULL, '.');
            qn_buf_addc(out, '"');
        }
        qn_buf_adds(out, "}\n");
        break;
    case QN_LAYOUT_HEXAGON:
        qn_buf_addf(out, "board: {hexagon: %d}\n", pr->side);
        break;
    case QN_LAYOUT_GRAPH:
        qn_buf_addf(out, "board: {graph: %d}\n", n);
        break;
    }
    qn_buf_adds(out, "effects:\n");
    for (int j = 0; j < n; j++) {
        int first = 1;
        qn_buf_addf(out, "  %d: [", j);
        for (int i = 0; i < n; i++) {
            unsigned a = pr->matrix[(size_t)i * (size_t)n + (size_t)j];
            if (!a)
                continue;
            qn_buf_addf(out, "%s[%d, %u]", first ? "" : ", ", i, a);
            first = 0;
        }
        qn_buf_adds(out, "]\n");
    }
    for (int i = 0; i < n; i++)
        any_goal |= pr->goal[i] != 0;
    if (any_goal) {
        qn_buf_adds(out, "goal: \"");
        put_rows(out, pr, pr->goal, '.');
        qn_buf_adds(out, "\"\n");
    }
    if (pr->ntiers) {
        qn_buf_adds(out, "grading:\n");
        for (size_t t = 0; t < pr->ntiers; t++) {
            qn_buf_adds(out, "  ");
            qn_json_escape(out, pr->tier_name[t], strlen(pr->tier_name[t]));
            qn_buf_addf(out, ": [%d, %d]\n", pr->tier_lo[t], pr->tier_hi[t]);
        }
    }
}

int qn_pack_rule_compile(qn_pack_rule *pr, qn_err *err)
{
    qn_buf yaml = QN_BUF_INIT;
    qn_rules *r = NULL;
    const qn_layout *l;
    char hash[65];
    long prev = -1;
    int rc = QN_OK;

    if (pr->w < 1 || pr->h < 1 || pr->w > QN_LAYOUT_MAX_SIDE ||
        pr->h > QN_LAYOUT_MAX_SIDE ||
        (long)pr->w * pr->h > QN_LAYOUT_MAX_POSITIONS)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "rule '%s': board size %d x %d is out of range",
                          pr->name, pr->w, pr->h);
    for (int i = 0; i < pr->ncells; i++) {
        long p = (long)pr->row[i] * pr->w + pr->col[i];
        if (pr->row[i] < 0 || pr->row[i] >= pr->h || pr->col[i] < 0 ||
            pr->col[i] >= pr->w || p <= prev)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "rule '%s': cell %d has row %d, col %d: "
                              "cells must be numbered in reading order "
                              "inside the board",
                              pr->name, i, pr->row[i], pr->col[i]);
        prev = p;
    }
    qn_pack_rule_yaml(&yaml, pr);
    rc = qn_rules_load_buf(&r, yaml.buf, yaml.len, "<rule>", err);
    if (rc != QN_OK) {
        char why[256];
        snprintf(why, sizeof(why), "%s", err ? err->msg : "");
        qn_err_set(err, QN_EINVAL, 0, 0, "rule '%s' does not load: %s",
                   pr->name, why);
        rc = QN_EINVAL;
        goto done;
    }
    qn_rules_hash(r, hash);
    l = qn_rules_layout(r);
    if (strcmp(hash, pr->hash) != 0) {
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "rule '%s': its effects and goal hash to %s, the "
                        "document says %s",
                        pr->name, hash, pr->hash);
        goto done;
    }
    if (l->kind != pr->kind || l->w != pr->w || l->h != pr->h ||
        l->wrap != pr->wrap || l->side != pr->side ||
        l->ncells != pr->ncells) {
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "rule '%s': the board does not match its cells",
                        pr->name);
        goto done;
    }
    qn_rules_free(pr->rules);
    pr->rules = r;
    r = NULL;
done:
    qn_rules_free(r);
    qn_buf_release(&yaml);
    if (err)
        qn_err_source(err, "");
    return rc;
}

/* ---- loading from the store --------------------------------------------- */

typedef struct load_row {
    int64_t rule_id;
    char *state, *witness, *grade, *grader, *seed;
    uint64_t min_presses, noptimal;
    int64_t index;
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
} load_ctx;

static char *dup_or_empty(const char *s)
{
    return qn_xstrdup(s ? s : "");
}

static int on_pack(void *vctx, const qn_store_pack *p)
{
    qn_pack_doc *doc = vctx;

    /* pack names are unique: a second row comes from a damaged index */
    if (doc->name)
        return 0;
    doc->name = dup_or_empty(p->name);
    doc->title = dup_or_empty(p->title);
    doc->description = dup_or_empty(p->description);
    doc->author = dup_or_empty(p->author);
    return 0;
}

static int on_row(void *vctx, const qn_store_row *row)
{
    load_ctx *x = vctx;
    load_row *lr;
    size_t i;

    if (x->nrows == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        x->rows = qn_xreallocarray(x->rows, x->cap, sizeof(*x->rows));
    }
    lr = &x->rows[x->nrows++];
    lr->rule_id = row->rule_id;
    lr->state = dup_or_empty(row->state);
    lr->witness = dup_or_empty(row->witness);
    lr->grade = dup_or_empty(row->grade);
    lr->grader = dup_or_empty(row->grader);
    lr->seed = dup_or_empty(row->seed);
    lr->min_presses = row->min_presses;
    lr->noptimal = row->noptimal;
    lr->index = row->stream_index < 0 ? -1 : row->stream_index;
    for (i = 0; i < x->nrules; i++)
        if (x->rule_ids[i] == row->rule_id)
            return 0;
    x->rule_ids = qn_xreallocarray(x->rule_ids, i + 1, sizeof(int64_t));
    x->yaml = qn_xreallocarray(x->yaml, i + 1, sizeof(char *));
    x->hash = qn_xreallocarray(x->hash, i + 1, sizeof(char *));
    x->rule_ids[i] = row->rule_id;
    x->yaml[i] = dup_or_empty(row->rule_yaml);
    x->hash[i] = dup_or_empty(row->rule_hash);
    x->nrules = i + 1;
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
    out->rules = QN_NEWN(x->nrules ? x->nrules : 1, qn_pack_rule);
    out->nrules = x->nrules; /* zeroed entries release cleanly */
    for (size_t i = 0; i < x->nrules; i++) {
        qn_rules *r = NULL;
        if (qn_rules_load_buf(&r, x->yaml[i], strlen(x->yaml[i]), "",
                              err) != QN_OK) {
            char why[320];
            snprintf(why, sizeof(why), "%d:%d: %s", err ? err->line : 0,
                     err ? err->col : 0, err ? err->msg : "");
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "stored rule %lld does not load: %s",
                              (long long)x->rule_ids[i], why);
        }
        qn_pack_rule_from_rules(&out->rules[i], r);
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
 * texts do not parse) was changed after it was stored.
 */
static int load_puzzle(qn_pack_puzzle *p, const qn_pack_rule *pr,
                       load_row *lr, qn_err *err)
{
    const qn_layout *l = qn_rules_layout(pr->rules);
    uint64_t sum = 0;
    int rc;

    p->state = QN_NEWN((size_t)pr->ncells, uint8_t);
    p->solution = QN_NEWN((size_t)pr->ncells, uint8_t);
    p->min_presses = lr->min_presses;
    p->noptimal = lr->noptimal;
    p->grade = lr->grade, lr->grade = NULL;
    p->grader = lr->grader, lr->grader = NULL;
    p->seed = lr->seed, lr->seed = NULL;
    p->index = lr->index;
    rc = qn_state_parse(p->state, l, pr->colours, lr->state,
                        strlen(lr->state), err);
    if (rc == QN_OK)
        rc = qn_state_parse(p->solution, l, pr->colours, lr->witness,
                            strlen(lr->witness), err);
    if (rc != QN_OK)
        return rc;
    for (int c = 0; c < pr->ncells; c++)
        sum += p->solution[c];
    if (sum != p->min_presses)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "its solution has %llu presses, min_presses is "
                          "%llu",
                          (unsigned long long)sum,
                          (unsigned long long)p->min_presses);
    return QN_OK;
}

static int load_puzzles(qn_pack_doc *out, const load_ctx *x,
                        const char *name, qn_err *err)
{
    out->puzzles = QN_NEWN(x->nrows ? x->nrows : 1, qn_pack_puzzle);
    for (size_t i = 0; i < x->nrows; i++) {
        load_row *lr = &x->rows[i];
        qn_pack_puzzle *p = &out->puzzles[i];
        size_t ri = 0;

        while (x->rule_ids[ri] != lr->rule_id)
            ri++;
        out->npuzzles = i + 1;
        p->id = (int64_t)i + 1;
        p->rule = ri;
        if (load_puzzle(p, &out->rules[ri], lr, err) != QN_OK) {
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

int qn_pack_doc_load(qn_pack_doc *out, qn_store *s, const char *name,
                     qn_err *err)
{
    load_ctx x;
    int64_t pack_id;
    int rc;

    memset(out, 0, sizeof(*out));
    memset(&x, 0, sizeof(x));
    x.doc = out;
    rc = qn_store_pack_find(s, name, &pack_id, err);
    if (rc == QN_OK)
        rc = qn_store_pack_list(s, name, on_pack, out, err);
    if (rc == QN_OK)
        rc = qn_store_pack_each(s, pack_id, on_row, &x, err);
    if (rc == QN_OK)
        rc = load_rules(out, &x, err);
    if (rc == QN_OK)
        rc = load_puzzles(out, &x, name, err);
    for (size_t i = 0; i < x.nrows; i++) {
        free(x.rows[i].state);
        free(x.rows[i].witness);
        free(x.rows[i].grade);
        free(x.rows[i].grader);
        free(x.rows[i].seed);
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

/* ---- writers ------------------------------------------------------------ */

static void json_cells(qn_jsonw *w, const uint8_t *v, int n)
{
    qn_jsonw_arr(w);
    for (int i = 0; i < n; i++)
        qn_jsonw_int(w, v[i]);
    qn_jsonw_end(w);
}

static void json_pack_meta(qn_jsonw *w, const qn_pack_doc *doc)
{
    qn_jsonw_key(w, "format"), qn_jsonw_str(w, QN_PACK_FORMAT);
    qn_jsonw_key(w, "format_version"), qn_jsonw_int(w, QN_PACK_FORMAT_VERSION);
    qn_jsonw_key(w, "pack");
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "name"), qn_jsonw_str(w, doc->name);
    qn_jsonw_key(w, "title"), qn_jsonw_str(w, doc->title);
    qn_jsonw_key(w, "description"), qn_jsonw_str(w, doc->description);
    qn_jsonw_key(w, "author"), qn_jsonw_str(w, doc->author);
    qn_jsonw_end(w);
}

static void json_rule(qn_jsonw *w, const qn_pack_rule *pr)
{
    int n = pr->ncells;

    qn_jsonw_obj(w);
    qn_jsonw_key(w, "hash"), qn_jsonw_str(w, pr->hash);
    qn_jsonw_key(w, "name"), qn_jsonw_str(w, pr->name);
    qn_jsonw_key(w, "title"), qn_jsonw_str(w, pr->title);
    qn_jsonw_key(w, "description"), qn_jsonw_str(w, pr->description);
    qn_jsonw_key(w, "author"), qn_jsonw_str(w, pr->author);
    qn_jsonw_key(w, "colours"), qn_jsonw_int(w, pr->colours);
    qn_jsonw_key(w, "board");
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "kind"), qn_jsonw_str(w, qn_layout_kind_name(pr->kind));
    qn_jsonw_key(w, "width"), qn_jsonw_int(w, pr->w);
    qn_jsonw_key(w, "height"), qn_jsonw_int(w, pr->h);
    qn_jsonw_key(w, "wrap"), qn_jsonw_str(w, wrap_name(pr->wrap));
    qn_jsonw_key(w, "side"), qn_jsonw_int(w, pr->side);
    qn_jsonw_end(w);
    qn_jsonw_key(w, "ncells"), qn_jsonw_int(w, n);
    qn_jsonw_key(w, "goal"), json_cells(w, pr->goal, n);
    qn_jsonw_key(w, "cells");
    qn_jsonw_arr(w);
    for (int j = 0; j < n; j++) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "index"), qn_jsonw_int(w, j);
        qn_jsonw_key(w, "row"), qn_jsonw_int(w, pr->row[j]);
        qn_jsonw_key(w, "col"), qn_jsonw_int(w, pr->col[j]);
        qn_jsonw_key(w, "effects");
        qn_jsonw_arr(w);
        for (int i = 0; i < n; i++) {
            unsigned a = pr->matrix[(size_t)i * (size_t)n + (size_t)j];
            if (!a)
                continue;
            qn_jsonw_obj(w);
            qn_jsonw_key(w, "cell"), qn_jsonw_int(w, i);
            qn_jsonw_key(w, "amount"), qn_jsonw_int(w, a);
            qn_jsonw_end(w);
        }
        qn_jsonw_end(w);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
    qn_jsonw_key(w, "tiers");
    qn_jsonw_arr(w);
    for (size_t t = 0; t < pr->ntiers; t++) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "name"), qn_jsonw_str(w, pr->tier_name[t]);
        qn_jsonw_key(w, "lo"), qn_jsonw_int(w, pr->tier_lo[t]);
        qn_jsonw_key(w, "hi"), qn_jsonw_int(w, pr->tier_hi[t]);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
    qn_jsonw_end(w);
}

static void json_puzzle_fields(qn_jsonw *w, const qn_pack_doc *doc,
                               const qn_pack_puzzle *p)
{
    const qn_pack_rule *pr = &doc->rules[p->rule];

    qn_jsonw_key(w, "id"), qn_jsonw_int(w, p->id);
    qn_jsonw_key(w, "rule"), qn_jsonw_str(w, pr->hash);
    qn_jsonw_key(w, "state"), json_cells(w, p->state, pr->ncells);
    qn_jsonw_key(w, "min_presses"), qn_jsonw_uint(w, p->min_presses);
    qn_jsonw_key(w, "optimal_solutions"), qn_jsonw_uint(w, p->noptimal);
    qn_jsonw_key(w, "solution"), json_cells(w, p->solution, pr->ncells);
    qn_jsonw_key(w, "grade"), qn_jsonw_str(w, p->grade);
    qn_jsonw_key(w, "grader_version"), qn_jsonw_str(w, p->grader);
    qn_jsonw_key(w, "seed"), qn_jsonw_str(w, p->seed);
    qn_jsonw_key(w, "index"), qn_jsonw_int(w, p->index);
}

static void write_json(qn_buf *out, const qn_pack_doc *doc)
{
    qn_jsonw w;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    json_pack_meta(&w, doc);
    qn_jsonw_key(&w, "rules");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->nrules; i++)
        json_rule(&w, &doc->rules[i]);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "puzzles");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->npuzzles; i++) {
        qn_jsonw_obj(&w);
        json_puzzle_fields(&w, doc, &doc->puzzles[i]);
        qn_jsonw_end(&w);
    }
    qn_jsonw_end(&w);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

/* jsonl: a header record (pack and rules), then one record per puzzle. */
static void write_jsonl(qn_buf *out, const qn_pack_doc *doc)
{
    qn_jsonw w;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "record"), qn_jsonw_str(&w, "pack");
    json_pack_meta(&w, doc);
    qn_jsonw_key(&w, "rules");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->nrules; i++)
        json_rule(&w, &doc->rules[i]);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "puzzle_count"), qn_jsonw_uint(&w, doc->npuzzles);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
    for (size_t i = 0; i < doc->npuzzles; i++) {
        qn_jsonw_init(&w, out);
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "record"), qn_jsonw_str(&w, "puzzle");
        json_puzzle_fields(&w, doc, &doc->puzzles[i]);
        qn_jsonw_end(&w);
        qn_buf_addc(out, '\n');
    }
}

/*
 * One RFC 4180 field: quoted when it holds a comma, quote, CR or LF. A
 * spreadsheet runs a cell that begins with = + - @ TAB or CR as a formula
 * (CSV injection): such a field gets a leading ' inside the quotes, as
 * OWASP recommends, so it shows as text. quench's own values (states,
 * solutions, tier names, hex seeds) never begin with one of them; a hand
 * edited or older database may hold anything.
 */
static void csv_field(qn_buf *out, const char *s)
{
    int formula = *s && strchr("=+-@\t\r", *s);

    if (!formula && !strpbrk(s, ",\"\r\n")) {
        qn_buf_adds(out, s);
        return;
    }
    qn_buf_addc(out, '"');
    if (formula)
        qn_buf_addc(out, '\'');
    for (; *s; s++) {
        if (*s == '"')
            qn_buf_addc(out, '"');
        qn_buf_addc(out, *s);
    }
    qn_buf_addc(out, '"');
}

static void write_csv(qn_buf *out, const qn_pack_doc *doc)
{
    qn_buf text = QN_BUF_INIT;

    qn_buf_adds(out, "id,state,min_presses,optimal_solutions,solution,"
                     "grade,seed\r\n");
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        const qn_layout *l = qn_rules_layout(doc->rules[p->rule].rules);

        qn_buf_addf(out, "%lld,", (long long)p->id);
        qn_buf_reset(&text);
        qn_state_format(&text, l, p->state, '/');
        csv_field(out, text.buf);
        qn_buf_addf(out, ",%llu,%llu,", (unsigned long long)p->min_presses,
                    (unsigned long long)p->noptimal);
        qn_buf_reset(&text);
        qn_state_format(&text, l, p->solution, '/');
        csv_field(out, text.buf);
        qn_buf_addc(out, ',');
        csv_field(out, p->grade);
        qn_buf_addc(out, ',');
        csv_field(out, p->seed);
        qn_buf_adds(out, "\r\n");
    }
    qn_buf_release(&text);
}

static int write_flip(qn_buf *out, const qn_pack_doc *doc, qn_err *err)
{
    for (size_t i = 0; i < doc->nrules; i++) {
        int rc = qn_flip_can_express(doc->rules[i].rules, err);
        if (rc != QN_OK)
            return rc;
    }
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        int rc = qn_flip_encode(out, doc->rules[p->rule].rules, p->state, err);
        if (rc != QN_OK)
            return rc;
        qn_buf_addc(out, '\n');
    }
    return QN_OK;
}

static int write_svg(qn_buf *out, const qn_pack_doc *doc, int64_t puzzle,
                     qn_err *err)
{
    qn_svg_opts o;
    const char *title = *doc->title ? doc->title : doc->name;

    memset(&o, 0, sizeof(o));
    if (puzzle > 0) {
        const qn_pack_puzzle *p;
        qn_buf t = QN_BUF_INIT;
        if ((uint64_t)puzzle > doc->npuzzles)
            return qn_err_set(err, QN_ENOTFOUND, 0, 0,
                              "pack '%s' has no puzzle %lld (it has %zu)",
                              doc->name, (long long)puzzle, doc->npuzzles);
        p = &doc->puzzles[puzzle - 1];
        qn_buf_addf(&t, "%s #%lld", title, (long long)puzzle);
        o.title = t.buf;
        qn_svg_board(out, doc->rules[p->rule].rules, p->state, &o);
        qn_buf_release(&t);
        return QN_OK;
    }
    if (doc->nrules > 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "a contact sheet needs one rule, pack '%s' has "
                          "%zu: export one puzzle with --puzzle",
                          doc->name, doc->nrules);
    {
        qn_svg_item *items = QN_NEWN(doc->npuzzles ? doc->npuzzles : 1,
                                     qn_svg_item);
        char (*ids)[24] = qn_xcalloc(doc->npuzzles ? doc->npuzzles : 1,
                                     sizeof(*ids));
        for (size_t i = 0; i < doc->npuzzles; i++) {
            const qn_pack_puzzle *p = &doc->puzzles[i];
            snprintf(ids[i], sizeof(ids[i]), "#%lld", (long long)p->id);
            items[i].id = ids[i];
            items[i].grade = *p->grade ? p->grade : NULL;
            items[i].par = p->min_presses;
            items[i].state = p->state;
        }
        o.title = title;
        if (doc->nrules == 1)
            qn_svg_sheet(out, doc->rules[0].rules, doc->npuzzles, items, &o);
        free(items);
        free(ids);
        if (doc->nrules == 0)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "pack '%s' is empty: no sheet to draw",
                              doc->name);
    }
    return QN_OK;
}

int qn_export_write(qn_buf *out, const qn_pack_doc *doc, qn_export_format f,
                    const qn_export_opts *o, qn_err *err)
{
    switch (f) {
    case QN_EXPORT_JSON: write_json(out, doc); return QN_OK;
    case QN_EXPORT_JSONL: write_jsonl(out, doc); return QN_OK;
    case QN_EXPORT_CSV: write_csv(out, doc); return QN_OK;
    case QN_EXPORT_FLIP: return write_flip(out, doc, err);
    case QN_EXPORT_SVG: return write_svg(out, doc, o ? o->puzzle : 0, err);
    case QN_EXPORT_HTML: {
        qn_buf json = QN_BUF_INIT;
        write_json(&json, doc);
        qn_export__html(out, doc, json.buf, json.len);
        qn_buf_release(&json);
        return QN_OK;
    }
    case QN_EXPORT_NFORMATS: break;
    }
    return qn_err_set(err, QN_ERR, 0, 0, "bad export format %d", (int)f);
}

/* ---- import ------------------------------------------------------------- */

int qn_pack_doc_verify(const qn_pack_doc *doc, qn_err *err)
{
    qn_solver **games = QN_NEWN(doc->nrules ? doc->nrules : 1, qn_solver *);
    qn_answer *answers = QN_NEWN(doc->nrules ? doc->nrules : 1, qn_answer);
    int rc = QN_OK;

    for (size_t i = 0; i < doc->nrules && rc == QN_OK; i++) {
        rc = qn_solver_new(&games[i], doc->rules[i].rules, err);
        if (rc == QN_OK)
            qn_answer_init(&answers[i], games[i]);
    }
    for (size_t i = 0; i < doc->npuzzles && rc == QN_OK; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        const qn_solver *g = games[p->rule];
        qn_answer *a = &answers[p->rule];
        int n = doc->rules[p->rule].ncells;
        uint64_t sum = 0;
        long long id = (long long)p->id;

        for (int c = 0; c < n; c++)
            sum += p->solution[c];
        qn_solver_answer(g, a, p->state);
        if (!a->solvable)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld: the state has no solution", id);
        else if (a->at_goal)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld: the state is already solved", id);
        else if (!qn_solver_replays(g, p->state, p->solution))
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld: the solution does not reach the "
                            "goal",
                            id);
        else if (!a->exact)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld: minimal presses cannot be proven "
                            "(kernel too large to walk)",
                            id);
        else if (a->mp.presses != p->min_presses)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld: min_presses is %llu, quench "
                            "computes %llu",
                            id, (unsigned long long)p->min_presses,
                            (unsigned long long)a->mp.presses);
        else if (sum != p->min_presses)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld: the solution has %llu presses, "
                            "min_presses is %llu",
                            id, (unsigned long long)sum,
                            (unsigned long long)p->min_presses);
        else if (a->mp.noptimal != p->noptimal)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld: optimal_solutions is %llu, quench "
                            "computes %llu",
                            id, (unsigned long long)p->noptimal,
                            (unsigned long long)a->mp.noptimal);
    }
    for (size_t i = 0; i < doc->nrules; i++)
        if (games[i]) {
            qn_answer_release(&answers[i]);
            qn_solver_free(games[i]);
        }
    free(answers);
    free(games);
    return rc;
}

static int import_in_batch(qn_store *s, const qn_pack_doc *doc,
                           const char *name, qn_err *err)
{
    int64_t *rule_ids = QN_NEWN(doc->nrules ? doc->nrules : 1, int64_t);
    qn_buf yaml = QN_BUF_INIT;
    uint8_t *canon = NULL, *key = NULL;
    int64_t pack_id;
    qn_store_pack pk;
    int rc = QN_OK;

    for (size_t i = 0; i < doc->nrules && rc == QN_OK; i++) {
        const qn_pack_rule *pr = &doc->rules[i];
        qn_store_rule sr;
        memset(&sr, 0, sizeof(sr));
        qn_buf_reset(&yaml);
        qn_pack_rule_yaml(&yaml, pr);
        sr.hash = pr->hash;
        sr.name = pr->name;
        sr.yaml = yaml.buf;
        sr.cells = pr->ncells;
        sr.colours = pr->colours;
        rc = qn_store_put_rule(s, &sr, &rule_ids[i], err);
    }
    if (rc != QN_OK)
        goto done;
    rc = qn_store_pack_find(s, name, &pack_id, err);
    if (rc == QN_OK) {
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "pack '%s' already exists (import under another "
                        "name with --pack)",
                        name);
        goto done;
    }
    if (rc != QN_ENOTFOUND)
        goto done;
    memset(&pk, 0, sizeof(pk));
    pk.name = name;
    pk.title = doc->title;
    pk.description = doc->description;
    pk.author = doc->author;
    rc = qn_store_pack_create(s, &pk, &pack_id, err);
    for (size_t i = 0; i < doc->npuzzles && rc == QN_OK; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        const qn_pack_rule *pr = &doc->rules[p->rule];
        qn_buf st = QN_BUF_INIT, wt = QN_BUF_INIT;
        const qn_layout *l = qn_rules_layout(pr->rules);
        qn_store_puzzle sp;
        int64_t id;
        int is_new = 0;

        canon = qn_xreallocarray(canon, (size_t)pr->ncells, 1);
        key = qn_xreallocarray(key,
                               qn_store_canon_size(pr->ncells, pr->colours),
                               1);
        qn_canon_form(pr->rules, canon, p->state);
        qn_state_format(&st, l, p->state, '/');
        qn_state_format(&wt, l, p->solution, '/');
        memset(&sp, 0, sizeof(sp));
        sp.rule_id = rule_ids[p->rule];
        sp.state = st.buf;
        sp.canon = key;
        sp.canon_len = qn_store_canon_pack(key, canon, pr->ncells,
                                           pr->colours);
        sp.min_presses = p->min_presses;
        sp.noptimal = p->noptimal;
        sp.witness = wt.buf;
        sp.grade = *p->grade ? p->grade : NULL;
        sp.grader = p->grader;
        sp.seed = *p->seed ? p->seed : NULL;
        sp.stream_index = p->index;
        sp.provenance = QN_STORE_IMPORT;
        rc = qn_store_put_puzzle(s, &sp, &id, &is_new, err);
        if (rc == QN_OK) {
            rc = qn_store_pack_add(s, pack_id, id, 0, err);
            if (rc == QN_EINVAL)
                rc = qn_err_set(err, QN_EINVAL, 0, 0,
                                "puzzle %lld: the same puzzle (up to "
                                "symmetry) is already in the pack",
                                (long long)p->id);
        }
        qn_buf_release(&st);
        qn_buf_release(&wt);
    }
done:
    free(canon);
    free(key);
    qn_buf_release(&yaml);
    free(rule_ids);
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
    /* the pack as an export will write it: stored rows win (export.h) */
    if (rc == QN_OK && fn)
        rc = qn_pack_doc_load(&kept, s, name, err);
    if (rc != QN_OK) {
        qn_store_rollback(s, NULL);
        return rc;
    }
    rc = qn_store_commit(s, err);
    if (rc == QN_OK && fn)
        qn_pack_doc_diff(doc, &kept, fn, ctx);
    qn_pack_doc_release(&kept);
    return rc;
}
