/*
 * json_rule.c: one rule object of a quench-pack JSON document (the
 * "rules" array) read into a qn_pack_rule: board, cells and their
 * effects, tiers and the play kit's kernel generators, each checked
 * against the rule it describes.
 */
#include "json_get.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "rules/rules.h"

static const char *const rule_keys[] = {
    "hash",   "name", "title", "description", "author", "colours", "board",
    "ncells", "goal", "cells", "tiers",       "kernel", NULL};
static const char *const kernel_keys[] = {"order", "presses", NULL};
static const char *const board_keys[] = {"kind", "width", "height",
                                         "wrap", "side",  NULL};
static const char *const cell_keys[] = {"index", "row", "col", "effects", NULL};
static const char *const effect_keys[] = {"cell", "amount", NULL};
static const char *const tier_keys[] = {"name", "lo", "hi", NULL};

static int parse_board(qn_pack_rule *pr, json_t *jr, qn_err *err,
                       const qn_export__where *at)
{
    static const char *const kinds[] = {"grid", "hex", "hexagon", "graph"};
    static const char *const wraps[] = {"none", "x", "y", "both"};
    json_t *b =
        qn_export__jmember(jr, "board", JSON_OBJECT, "an object", err, at);
    char *s = NULL;
    long long x;
    int rc, i;

    if (!b)
        return QN_EINVAL;
    if ((rc = qn_export__jkeys(b, board_keys, err, at)) != QN_OK)
        return rc;
    if ((rc = qn_export__jstr(b, "kind", &s, err, at)) != QN_OK)
        return rc;
    for (i = 0; i < 4 && strcmp(s, kinds[i]) != 0; i++)
        ;
    if (i == 4) {
        rc = qn_export__jbad(err, at,
                             "board kind '%s' is not grid, hex, hexagon or "
                             "graph",
                             s);
        free(s);
        return rc;
    }
    pr->kind = (qn_layout_kind)i;
    if ((rc = qn_export__jstr(b, "wrap", &s, err, at)) != QN_OK) {
        free(s);
        return rc;
    }
    for (i = 0; i < 4 && strcmp(s, wraps[i]) != 0; i++)
        ;
    if (i == 4) {
        rc = qn_export__jbad(err, at, "wrap '%s' is not none, x, y or both", s);
        free(s);
        return rc;
    }
    free(s);
    pr->wrap = i; /* QN_WRAP_* in the same order */
    if ((rc = qn_export__jint(b, "width", 1, QN_LAYOUT_MAX_SIDE, &x, err, at)))
        return rc;
    pr->w = (int)x;
    if ((rc = qn_export__jint(b, "height", 1, QN_LAYOUT_MAX_SIDE, &x, err, at)))
        return rc;
    pr->h = (int)x;
    if ((rc =
             qn_export__jint(b, "side", 0, QN_LAYOUT_MAX_HEXAGON, &x, err, at)))
        return rc;
    pr->side = (int)x;
    return QN_OK;
}

/* Cell j of pr: its position and its effects, column j of the matrix. */
static int parse_cell(qn_pack_rule *pr, json_t *c, size_t j, qn_err *err,
                      const qn_export__where *at)
{
    int n = pr->ncells, rc;
    unsigned k = pr->colours;
    json_t *effects, *e;
    long long x;
    size_t ei;
    qn_export__where cat;

    snprintf(cat.what, sizeof(cat.what), "%.16scell %zu: ", at->what, j);
    if (!json_is_object(c))
        return qn_export__jbad(err, at, "cell %zu must be an object", j);
    if ((rc = qn_export__jkeys(c, cell_keys, err, &cat)))
        return rc;
    if ((rc = qn_export__jint(c, "index", (long long)j, (long long)j, &x, err,
                              &cat)))
        return rc;
    if ((rc = qn_export__jint(c, "row", 0, QN_LAYOUT_MAX_SIDE, &x, err, &cat)))
        return rc;
    pr->row[j] = (int)x;
    if ((rc = qn_export__jint(c, "col", 0, QN_LAYOUT_MAX_SIDE, &x, err, &cat)))
        return rc;
    pr->col[j] = (int)x;
    effects = qn_export__jmember(c, "effects", JSON_ARRAY,
                                 "an array of objects", err, &cat);
    if (!effects)
        return QN_EINVAL;
    json_array_foreach(effects, ei, e)
    {
        long long cell, amount;
        uint8_t *m;
        if (!json_is_object(e))
            return qn_export__jbad(err, &cat, "effect %zu must be an object",
                                   ei);
        if ((rc = qn_export__jkeys(e, effect_keys, err, &cat)) ||
            (rc = qn_export__jint(e, "cell", 0, n - 1, &cell, err, &cat)) ||
            (rc = qn_export__jint(e, "amount", 1, k - 1, &amount, err, &cat)))
            return rc;
        m = &pr->matrix[(size_t)cell * (size_t)n + j];
        if (*m)
            return qn_export__jbad(err, &cat,
                                   "cell %lld is listed twice in "
                                   "'effects'",
                                   cell);
        *m = (uint8_t)amount;
    }
    return QN_OK;
}

/* The rule's grading tiers: names and press ranges. */
static int parse_tiers(qn_pack_rule *pr, json_t *jr, qn_err *err,
                       const qn_export__where *at)
{
    json_t *tiers, *t;
    long long x;
    size_t ti, nt;
    int rc;

    tiers = qn_export__jmember(jr, "tiers", JSON_ARRAY, "an array of objects",
                               err, at);
    if (!tiers)
        return QN_EINVAL;
    if (json_array_size(tiers) > QN_RULES_MAX_TIERS)
        return qn_export__jbad(err, at, "more than %d tiers",
                               QN_RULES_MAX_TIERS);
    nt = json_array_size(tiers);
    if (!(pr->tier_name = QN_ALLOCN(nt ? nt : 1, char *)) ||
        !(pr->tier_lo = QN_ALLOCN(nt ? nt : 1, int)) ||
        !(pr->tier_hi = QN_ALLOCN(nt ? nt : 1, int)))
        return qn_err_nomem(err);
    pr->ntiers = nt;
    json_array_foreach(tiers, ti, t)
    {
        if (!json_is_object(t))
            return qn_export__jbad(err, at, "tier %zu must be an object", ti);
        if ((rc = qn_export__jkeys(t, tier_keys, err, at)) ||
            (rc = qn_export__jstr(t, "name", &pr->tier_name[ti], err, at)) ||
            (rc = qn_export__jint(t, "lo", 0, 1 << 20, &x, err, at)))
            return rc;
        pr->tier_lo[ti] = (int)x;
        if ((rc = qn_export__jint(t, "hi", 0, 1 << 20, &x, err, at)))
            return rc;
        pr->tier_hi[ti] = (int)x;
    }
    return QN_OK;
}

/*
 * Generator g of a document's kernel (the play kit): of order o (which
 * divides k: o presses of each of its cells add up to 0 mod k) and
 * quiet (A g = 0: pressing it changes no cell).
 */
static int check_kernel_gen(const qn_pack_rule *pr, const uint8_t *g,
                            unsigned o, qn_err *err, const qn_export__where *at)
{
    int n = pr->ncells;
    unsigned k = pr->colours;

    if (k % o)
        return qn_export__jbad(err, at, "'order' %u does not divide colours %u",
                               o, k);
    for (int j = 0; j < n; j++)
        if (g[j] * o % k)
            return qn_export__jbad(err, at,
                                   "'presses' value %d is %u, not of order %u "
                                   "mod %u",
                                   j, g[j], o, k);
    for (int i = 0; i < n; i++) {
        unsigned sum = 0;
        for (int j = 0; j < n; j++)
            sum = (sum + pr->matrix[(size_t)i * (size_t)n + (size_t)j] * g[j]) %
                  k;
        if (sum)
            return qn_export__jbad(err, at,
                                   "not quiet: pressing it changes cell %d", i);
    }
    return QN_OK;
}

/*
 * The document's kernel, when it has one, is what a game walks for its
 * hints: each generator must be quiet and of its order, and the orders
 * the kernel's invariant factors, as quench computes them (pr's own
 * kernel, which is what an export writes back).
 */
static int parse_kernel(const qn_pack_rule *pr, json_t *jr, qn_err *err,
                        const qn_export__where *at)
{
    json_t *list = json_object_get(jr, "kernel"), *e;
    uint8_t *g;
    size_t i;
    int rc = QN_OK;

    if (!list)
        return QN_OK; /* an older export: no play kit */
    if (!json_is_array(list))
        return qn_export__jbad(err, at, "'kernel' must be an array of objects");
    if (json_array_size(list) > QN_PACK_MAX_KERNEL)
        return qn_export__jbad(err, at, "'kernel' has more than %d generators",
                               QN_PACK_MAX_KERNEL);
    if (!pr->kernel_known || json_array_size(list) != pr->nkernel)
        return qn_export__jbad(
            err, at,
            "'kernel' has %zu %s, the rule's kernel has "
            "%zu",
            json_array_size(list),
            qn_plural(json_array_size(list), "generator", "generators"),
            pr->kernel_known ? pr->nkernel : (size_t)0);
    if (!(g = QN_ALLOCN((size_t)pr->ncells, uint8_t)))
        return qn_err_nomem(err);
    json_array_foreach(list, i, e)
    {
        qn_export__where gat;
        long long o;
        snprintf(gat.what, sizeof(gat.what), "%.32skernel %zu: ", at->what, i);
        if (!json_is_object(e))
            rc = qn_export__jbad(err, at, "kernel %zu must be an object", i);
        else if (!(rc = qn_export__jkeys(e, kernel_keys, err, &gat)) &&
                 !(rc = qn_export__jint(e, "order", 2, pr->colours, &o, err,
                                        &gat)) &&
                 !(rc = qn_export__jcells(e, "presses", pr->ncells, pr->colours,
                                          g, err, &gat)) &&
                 !(rc = check_kernel_gen(pr, g, (unsigned)o, err, &gat)) &&
                 (unsigned)o != pr->kernel_order[i])
            rc = qn_export__jbad(err, &gat,
                                 "'order' is %lld, the rule's kernel has "
                                 "%u there",
                                 o, pr->kernel_order[i]);
        if (rc)
            break;
    }
    free(g);
    return rc;
}

/*
 * One rule object: its texts, board, cells (with their effects) and
 * tiers, then compiled, so a rule that does not hash as it says is an
 * error here.
 */
int qn_export__json_rule(qn_pack_rule *pr, json_t *jr, qn_err *err,
                         const qn_export__where *at)
{
    json_t *cells, *c;
    long long x;
    size_t j;
    int n, rc;
    unsigned k;

    if (!json_is_object(jr))
        return qn_export__jbad(err, at, "a rule must be an object");
    if ((rc = qn_export__jkeys(jr, rule_keys, err, at)) != QN_OK)
        return rc;
    if ((rc = qn_export__jstr(jr, "hash", &pr->hash, err, at)) ||
        (rc = qn_export__jstr(jr, "name", &pr->name, err, at)) ||
        (rc = qn_export__jstr(jr, "title", &pr->title, err, at)) ||
        (rc = qn_export__jstr(jr, "description", &pr->description, err, at)) ||
        (rc = qn_export__jstr(jr, "author", &pr->author, err, at)))
        return rc;
    if (!qn_export__is_hash(pr->hash))
        return qn_export__jbad(err, at,
                               "'hash' must be 64 lowercase hex digits");
    if ((rc = qn_export__jint(jr, "colours", 2, 255, &x, err, at)))
        return rc;
    k = pr->colours = (unsigned)x;
    if ((rc = parse_board(pr, jr, err, at)))
        return rc;
    if ((rc =
             qn_export__jint(jr, "ncells", 1, QN_RULES_MAX_CELLS, &x, err, at)))
        return rc;
    n = (int)x;
    pr->ncells = n;
    if (!(pr->row = QN_ALLOCN((size_t)n, int)) ||
        !(pr->col = QN_ALLOCN((size_t)n, int)) ||
        !(pr->goal = QN_ALLOCN((size_t)n, uint8_t)) ||
        !(pr->matrix = qn_calloc((size_t)n * (size_t)n, 1)))
        return qn_err_nomem(err);
    if ((rc = qn_export__jcells(jr, "goal", n, k, pr->goal, err, at)))
        return rc;
    cells = qn_export__jmember(jr, "cells", JSON_ARRAY, "an array of objects",
                               err, at);
    if (!cells)
        return QN_EINVAL;
    if (json_array_size(cells) != (size_t)n)
        return qn_export__jbad(err, at,
                               "'cells' has %zu entries, 'ncells' is %d",
                               json_array_size(cells), n);
    json_array_foreach(cells, j,
                       c) if ((rc = parse_cell(pr, c, j, err, at))) return rc;
    if ((rc = parse_tiers(pr, jr, err, at)))
        return rc;
    if ((rc = qn_pack_rule_compile(pr, err)))
        return rc;
    return parse_kernel(pr, jr, err, at);
}
