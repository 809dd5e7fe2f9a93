/*
 * rules_read.c: typed reads of the YAML tree (rules_tree.h) that every
 * schema built on it shares (rule files in rules_schema.c, recipes in
 * recipe_schema.c): wanted node types, integers, booleans, strings, and a
 * known word out of a list, with "did you mean" when it is not one.
 */
#include "rules_tree.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "rules_internal.h"

typedef qn_rules_node node;

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), i, j, prev[65], cur[65];

    if (la > 64 || lb > 64)
        return 99;
    for (j = 0; j <= lb; j++)
        prev[j] = j;
    for (i = 1; i <= la; i++) {
        cur[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            cur[j] = d;
        }
        memcpy(prev, cur, (lb + 1) * sizeof(size_t));
    }
    return prev[lb];
}

/*
 * Words people reach for, and the key quench uses instead. One table for
 * every schema: a synonym is offered only where its key is valid, so a
 * word may appear twice ("levels" is 'grading' in a rule file, 'tiers' in
 * a recipe's section).
 */
static const char *const synonyms[][2] = {
    /* rule files */
    {"toggles", "effects"},
    {"toggle", "effects"},
    {"effect", "effects"},
    {"colors", "colours"},
    {"color", "colours"},
    {"colour", "colours"},
    {"modulus", "colours"},
    {"k", "colours"},
    {"states", "colours"},
    {"version", "quench"},
    {"schema", "quench"},
    {"target", "goal"},
    {"solved", "goal"},
    {"tiers", "grading"},
    {"levels", "grading"},
    {"difficulty", "grading"},
    {"neighbourhood", "press"},
    {"neighborhood", "press"},
    {"topology", "board"},
    {"size", "grid"},
    {"holes", "mask"},
    {"torus", "wrap"},
    {"pattern", "stencil"},
    {"shape", "stencil"},
    {"neighbours", "stencil"},
    {"neighbors", "stencil"},
    {"centre", "interior"},
    {"center", "interior"},
    {"corners", "corner"},
    {"edges", "edge"},
    {"hexes", "hex"},
    {"nodes", "graph"},
    /* recipes */
    {"name", "pack"},
    {"random-seed", "seed"},
    {"distance", "variety"},
    {"min-distance", "variety"},
    {"levels", "tiers"},
    {"grading", "tiers"},
    {"difficulty", "tiers"},
    {"quotas", "tiers"},
    {"quota", "tiers"},
    {"puzzles", "count"},
    {"number", "count"},
    {"n", "count"},
    {"rule", "rules"},
    {"rule-file", "rules"},
    {"file", "rules"},
    {"range", "presses"},
    {"moves", "presses"},
    {"unique", "unique-optimum"},
    {"min-lit", "lit"},
    {"lights", "lit"},
    {"sampling", "distribution"},
};

int qn_rules__unknown(const node *k, const char *what, const char *const *valid,
                      size_t nvalid, qn_err *err)
{
    size_t i, best = 0, bestd = 99, d;
    char list[200] = "";

    for (i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++) {
        if (strcmp(k->val, synonyms[i][0]))
            continue;
        for (d = 0; d < nvalid; d++)
            if (!strcmp(valid[d], synonyms[i][1]))
                return qn_rules__fail(err, k->mark,
                                      "unknown %s '%.60s' (did you mean "
                                      "'%s'?)",
                                      what, k->val, valid[d]);
    }
    for (i = 0; i < nvalid; i++) {
        d = edit_distance(k->val, valid[i]);
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    if (bestd <= (strlen(k->val) + 1) / 2 && bestd <= 3)
        return qn_rules__fail(err, k->mark,
                              "unknown %s '%.60s' (did you mean '%s'?)", what,
                              k->val, valid[best]);
    for (i = 0; i < nvalid; i++) {
        strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
        strncat(list, valid[i], sizeof(list) - strlen(list) - 1);
    }
    return qn_rules__fail(err, k->mark,
                          "unknown %s '%.60s' (expected one of: %s)", what,
                          k->val, list);
}

int qn_rules__lookup(const node *k, const char *what, const char *const *valid,
                     size_t nvalid, int *out, qn_err *err)
{
    size_t i;

    for (i = 0; i < nvalid; i++) {
        if (!strcmp(k->val, valid[i])) {
            *out = (int)i;
            return QN_OK;
        }
    }
    return qn_rules__unknown(k, what, valid, nvalid, err);
}

int qn_rules__want(const node *n, enum qn_rules_ntype t, const char *what,
                   qn_err *err)
{
    static const char *const names[] = {"a string", "a sequence", "a mapping"};

    if (n->type == t)
        return QN_OK;
    return qn_rules__fail(err, n->mark, "%s must be %s, got %s", what, names[t],
                          qn_rules__node_kind(n));
}

int qn_rules__get_int(const node *n, const char *what, long *out, qn_err *err)
{
    const char *s;
    long v = 0;
    int neg = 0;

    if (n->type != N_SCALAR)
        return qn_rules__fail(err, n->mark, "%s must be an integer, got %s",
                              what, qn_rules__node_kind(n));
    s = n->val;
    if (!n->plain)
        return qn_rules__fail(err, n->mark,
                              "%s must be an integer, got the string "
                              "'%.40s'",
                              what, s);
    if (*s == '-') {
        neg = 1;
        s++;
    }
    if (!*s)
        return qn_rules__fail(
            err, n->mark, "%s must be an integer, got '%.40s'", what, n->val);
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return qn_rules__fail(err, n->mark,
                                  "%s must be an integer, got '%.40s'", what,
                                  n->val);
        v = v * 10 + (*s - '0');
        if (v > 1000000000L)
            return qn_rules__fail(err, n->mark, "%s is too large: %.40s", what,
                                  n->val);
    }
    *out = neg ? -v : v;
    return QN_OK;
}

int qn_rules__get_bool(const node *n, const char *what, int *out, qn_err *err)
{
    if (n->type == N_SCALAR && n->plain && !strcmp(n->val, "true")) {
        *out = 1;
        return QN_OK;
    }
    if (n->type == N_SCALAR && n->plain && !strcmp(n->val, "false")) {
        *out = 0;
        return QN_OK;
    }
    if (n->type != N_SCALAR)
        return qn_rules__fail(err, n->mark, "%s must be true or false, got %s",
                              what, qn_rules__node_kind(n));
    return qn_rules__fail(err, n->mark, "%s must be true or false, got '%.40s'",
                          what, n->val);
}

int qn_rules__get_str(const node *n, const char *what, char **out, qn_err *err)
{
    int rc = qn_rules__want(n, N_SCALAR, what, err);

    if (rc == QN_OK) {
        char *s = qn_strndup(n->val, n->len);
        if (!s)
            return qn_err_nomem(err);
        free(*out);
        *out = s;
    }
    return rc;
}
