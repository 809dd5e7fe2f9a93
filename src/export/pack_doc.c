/*
 * pack_doc.c: the pack document's parts (export.h): releasing a document,
 * a rule's part built from a rule set, and the way back, a rule rebuilt as
 * YAML and compiled, so an imported rule is checked against its hash.
 */
#include "export/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/mem.h"
#include "engine/system.h"
#include "export_internal.h"

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
    for (size_t t = 0; pr->tier_name && t < pr->ntiers; t++)
        free(pr->tier_name[t]);
    free(pr->tier_name);
    free(pr->tier_lo);
    free(pr->tier_hi);
    free(pr->kernel_order);
    free(pr->kernel);
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
        free(p->submission);
        free(p->source);
        free(p->meta);
        free(p->section);
    }
    free(doc->puzzles);
    memset(doc, 0, sizeof(*doc));
}

int qn_pack_rule_from_rules(qn_pack_rule *out, const qn_rules *r, qn_err *err)
{
    const qn_layout *l = qn_rules_layout(r);
    int n = qn_rules_ncells(r), rc;
    char hash[65];

    memset(out, 0, sizeof(*out));
    qn_rules_hash(r, hash);
    out->colours = qn_rules_colours(r);
    out->kind = l->kind;
    out->w = l->w;
    out->h = l->h;
    out->wrap = l->wrap;
    out->side = l->side;
    out->ncells = n;
    if (!(out->hash = qn_strdup(hash)) ||
        !(out->name = qn_strdup(qn_rules_name(r))) ||
        !(out->title = qn_strdup(qn_rules_title(r))) ||
        !(out->description = qn_strdup(qn_rules_description(r))) ||
        !(out->author = qn_strdup(qn_rules_author(r))) ||
        !(out->row = QN_ALLOCN((size_t)n, int)) ||
        !(out->col = QN_ALLOCN((size_t)n, int)) ||
        !(out->matrix = qn_memdup(qn_rules_matrix(r), (size_t)n * (size_t)n)) ||
        !(out->goal = qn_memdup(qn_rules_goal(r), (size_t)n)))
        goto nomem;
    for (int i = 0; i < n; i++)
        qn_layout_rc(l, i, &out->row[i], &out->col[i]);
    if (qn_rules_ntiers(r)) {
        size_t nt = qn_rules_ntiers(r);
        if (!(out->tier_name = QN_ALLOCN(nt, char *)) ||
            !(out->tier_lo = QN_ALLOCN(nt, int)) ||
            !(out->tier_hi = QN_ALLOCN(nt, int)))
            goto nomem;
        out->ntiers = nt;
        for (size_t t = 0; t < nt; t++) {
            if (!(out->tier_name[t] = qn_strdup(qn_rules_tier_name(r, t))))
                goto nomem;
            out->tier_lo[t] = qn_rules_tier_lo(r, t);
            out->tier_hi[t] = qn_rules_tier_hi(r, t);
        }
    }
    if ((rc = qn_pack_rule_kernel(out, err)) != QN_OK) {
        qn_pack_rule_release(out);
        return rc;
    }
    return QN_OK;
nomem:
    qn_pack_rule_release(out);
    return qn_err_nomem(err);
}

/*
 * The play kit (export.h): the press matrix's kernel as qn_system gives
 * it, generators of orders o_0 | o_1 | ..., the same for the same matrix
 * on every machine. A matrix qn_system cannot factorise, or a kernel of
 * more than QN_PACK_MAX_KERNEL generators, leaves it unknown; running out
 * of memory is QN_ENOMEM (the kernel stays unknown, pr valid).
 */
int qn_pack_rule_kernel(qn_pack_rule *pr, qn_err *err)
{
    qn_system *sys = NULL;
    size_t n = (size_t)pr->ncells, g;
    unsigned *order;
    uint8_t *kernel;
    int rc;

    if (pr->kernel_known || !pr->matrix || n == 0)
        return QN_OK;
    rc = qn_system_new(&sys, pr->matrix, pr->ncells, pr->ncells, pr->colours,
                       NULL);
    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    if (rc != QN_OK)
        return QN_OK;
    g = qn_system_kernel_ngens(sys);
    if (g <= QN_PACK_MAX_KERNEL) {
        order = QN_ALLOCN(g ? g : 1, unsigned);
        kernel = QN_ALLOCN(g ? g * n : 1, uint8_t);
        if (!order || !kernel) {
            free(order);
            free(kernel);
            qn_system_free(sys);
            return qn_err_nomem(err);
        }
        for (size_t i = 0; i < g; i++) {
            order[i] = qn_system_kernel_order(sys, i);
            memcpy(kernel + i * n, qn_system_kernel_gen(sys, i), n);
        }
        pr->nkernel = g;
        pr->kernel_order = order;
        pr->kernel = kernel;
        pr->kernel_known = 1;
    }
    qn_system_free(sys);
    return QN_OK;
}

/* ---- rule YAML ---------------------------------------------------------- */

/* QN_WRAP_* as rule YAML and the JSON document both spell it. */
const char *qn_export__wrap_name(int wrap)
{
    switch (wrap) {
    case QN_WRAP_X:
        return "x";
    case QN_WRAP_Y:
        return "y";
    case QN_WRAP_BOTH:
        return "both";
    default:
        return "none";
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
                    qn_buf_addc(out,
                                "0123456789abcdefghijklmnopqrstuvwxyz"[v[i]]);
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
            qn_buf_addf(out, ", wrap: %s", qn_export__wrap_name(pr->wrap));
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

/* "grid 5x5, wrap both", "hex 4x3", "hexagon of side 3": a board. */
static void board_name(char *out, size_t size, const qn_layout *l)
{
    if (l->kind == QN_LAYOUT_HEXAGON)
        snprintf(out, size, "hexagon of side %d", l->side);
    else
        snprintf(out, size, "%s %dx%d%s%s", qn_layout_kind_name(l->kind), l->w,
                 l->h, l->wrap ? ", wrap " : "",
                 l->wrap ? qn_export__wrap_name(l->wrap) : "");
}

/*
 * The rule hash covers the effects and the goal, not the board (RULES.md,
 * "The content hash"), and a database keeps the first rule row of a hash:
 * a document that called classic 5x5 a torus was stored, and every later
 * honest `generate --db` of it exported "as a torus". Nothing in a
 * document but its effects vouches for its board, so the board must be
 * one whose press section gives exactly those effects. QN_OK, or
 * QN_EINVAL with "its board (...) does not generate its effects" and
 * `then` after it.
 */
static int check_board(const qn_rules *r, const char *who, const char *then,
                       qn_err *err)
{
    char board[64];
    int gen = qn_rules_board_generates(r);

    if (gen < 0)
        return qn_err_nomem(err);
    if (gen)
        return QN_OK;
    board_name(board, sizeof(board), qn_rules_layout(r));
    return qn_err_set(err, QN_EINVAL, 0, 0,
                      "%s: its board (%s) does not generate its effects "
                      "(no press stencil on it gives exactly them)%s",
                      who, board, then);
}

int qn_pack_rule_stored_board(const qn_rules *r, const char *who, qn_err *err)
{
    qn_pack_rule pr;
    qn_buf yaml = QN_BUF_INIT;
    size_t len;
    const char *text = qn_rules_text(r, &len);
    int rebuilt, rc;

    if ((rc = qn_pack_rule_from_rules(&pr, r, err)) != QN_OK)
        return rc;
    qn_pack_rule_yaml(&yaml, &pr);
    rc = qn_buf_check(&yaml, err);
    rebuilt = text && len == yaml.len && !memcmp(text, yaml.buf, len);
    qn_buf_release(&yaml);
    qn_pack_rule_release(&pr);
    if (rc != QN_OK)
        return rc;
    if (!rebuilt)
        return QN_OK;
    return check_board(r, who,
                       ": an import stored it before boards were checked, "
                       "and exports of its puzzles describe that board",
                       err);
}

int qn_pack_rule_compile(qn_pack_rule *pr, qn_err *err)
{
    qn_buf yaml = QN_BUF_INIT;
    qn_rules *r = NULL;
    const qn_layout *l;
    char hash[65], who[96];
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
    if ((rc = qn_buf_check(&yaml, err)) != QN_OK)
        goto done;
    rc = qn_rules_load_buf(&r, yaml.buf, yaml.len, "<rule>", err);
    if (rc == QN_ENOMEM) /* not the document's fault */
        goto done;
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
        l->wrap != pr->wrap || l->side != pr->side || l->ncells != pr->ncells) {
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "rule '%s': the board does not match its cells",
                        pr->name);
        goto done;
    }
    snprintf(who, sizeof(who), "rule '%s'", pr->name);
    if ((rc = check_board(r, who,
                          "; a board no stencil explains is a graph "
                          "(\"kind\": \"graph\")",
                          err)) != QN_OK)
        goto done;
    qn_rules_free(pr->rules);
    pr->rules = r;
    r = NULL;
    rc = qn_pack_rule_kernel(pr, err);
done:
    qn_rules_free(r);
    qn_buf_release(&yaml);
    if (err)
        qn_err_source(err, "");
    return rc;
}
