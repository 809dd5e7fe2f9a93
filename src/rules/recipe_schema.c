/*
 * recipe_schema.c: the tree of a recipe (rules_tree.h) read against the
 * recipe schema into a qn_recipe (docs/CAMPAIGNS.md): the keys of the top
 * mapping and of each section, their values, and how they combine. Rules
 * paths are left as written; recipe.c resolves them.
 */
#include "rules_tree.h"

#include <stdio.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "rules/recipe.h"
#include "rules_internal.h"

typedef qn_rules_node node;
typedef qn_recipe_section section;

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

enum top { PACK, TITLE, DESCRIPTION, AUTHOR, SEED, VARIETY, SECTIONS };
static const char *const top_keys[] = {
    "pack", "title", "description", "author", "seed", "variety", "sections"};

enum sec {
    NAME,
    RULES,
    TIERS,
    COUNT,
    PRESSES,
    DISTRIBUTION,
    UNIQUE,
    LIT,
    HUMAN
};
static const char *const section_keys[] = {
    "name",         "rules",          "tiers", "count",      "presses",
    "distribution", "unique-optimum", "lit",   "human-level"};

static const char *const dists[] = {"spread", "uniform"};

/* ------------------------------------------------------------------ */
/* Values */

/* An integer in lo..hi. */
static int get_count(const node *v, const char *what, long lo, long hi,
                     uint64_t *out, qn_err *err)
{
    long x;
    int rc = qn_rules__get_int(v, what, &x, err);

    if (rc != QN_OK)
        return rc;
    if (x < lo || x > hi)
        return qn_rules__fail(err, v->mark, "%s must be %ld..%ld, got %ld",
                              what, lo, hi, x);
    *out = (uint64_t)x;
    return QN_OK;
}

/* Decimal digits s[0..n) into *out: 0 when malformed or too large. */
static int bound(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;

    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v > QN_RECIPE_MAX_BOUND)
            return 0;
    }
    *out = v;
    return 1;
}

/*
 * A..B, A.., ..B or N, as generate's --presses: an absent A is 1, an
 * absent B unbounded; empty (A > B, or B = 0: a puzzle needs a press and
 * a lit cell) is an error.
 */
static int get_range(const node *v, const char *what, qn_recipe_range *r,
                     qn_err *err)
{
    const char *s = v->val, *dots;
    size_t la, lb;
    int ok;

    if (v->type != N_SCALAR)
        return qn_rules__fail(err, v->mark,
                              "%s must be a range A..B, A.., ..B or N, "
                              "got %s",
                              what, qn_rules__node_kind(v));
    r->mark = v->mark;
    r->lo = 1;
    r->hi = UINT64_MAX;
    if ((dots = strstr(s, "..")) == NULL) {
        ok = bound(s, v->len, &r->lo) && (r->hi = r->lo, 1);
    } else {
        la = (size_t)(dots - s);
        lb = v->len - la - 2;
        ok = (la == 0 || bound(s, la, &r->lo)) &&
             (lb == 0 || bound(dots + 2, lb, &r->hi));
    }
    if (!ok)
        return qn_rules__fail(err, v->mark,
                              "%s must be a range A..B, A.., ..B or N of "
                              "numbers up to %d, got '%.40s'",
                              what, QN_RECIPE_MAX_BOUND, s);
    if (r->lo > r->hi || r->hi == 0)
        return qn_rules__fail(err, v->mark,
                              "%s %s is empty: A..B needs 1 <= B and A <= B",
                              what, s);
    return QN_OK;
}

/* A pack or section name: the store's pack-name rules (text.h). */
static int get_name(const node *v, const char *what, char **out, qn_err *err)
{
    char label[32 + QN_RECIPE_MAX_NAME];
    qn_err why = QN_ERR_INIT;
    int rc;

    if ((rc = qn_rules__get_str(v, what, out, err)) != QN_OK)
        return rc;
    if (v->len <= QN_RECIPE_MAX_NAME)
        snprintf(label, sizeof(label), "%s '%s'", what, *out);
    else
        snprintf(label, sizeof(label), "%s", what);
    if (qn_text_check(*out, QN_RECIPE_MAX_NAME, QN_TEXT_NAME, label, &why))
        return qn_rules__fail(err, v->mark, "%s", why.msg);
    return QN_OK;
}

static int get_seed(qn_recipe *r, const node *v, qn_err *err)
{
    qn_err why = QN_ERR_INIT;
    int rc;

    if ((rc = qn_rules__want(v, N_SCALAR, "seed", err)) != QN_OK)
        return rc;
    /* 2026 is the hex seed 0x2026, as `--seed 2026` is */
    if (qn_seed_parse(&r->seed, v->val, &why) != QN_OK)
        return qn_rules__fail(err, v->mark, "%s", why.msg);
    qn_seed_format(&r->seed, r->seed_hex);
    r->seed_mark = v->mark;
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* Sections */

static int do_tiers(section *sec, const node *n, qn_err *err)
{
    size_t i, nt = n->nkids / 2;
    char what[32 + QN_RULES_MAX_NAME];
    int rc;

    if ((rc = qn_rules__want(n, N_MAP, "tiers", err)) != QN_OK)
        return rc;
    sec->tiers_mark = n->mark;
    if (nt == 0)
        return qn_rules__fail(err, n->mark,
                              "tiers is empty: give a count per tier, "
                              "e.g. {easy: 10}");
    if (nt > QN_RULES_MAX_TIERS)
        return qn_rules__fail(err, n->mark,
                              "tiers has %zu names, the limit is %d (the "
                              "most a rule file grades)",
                              nt, QN_RULES_MAX_TIERS);
    if (!(sec->tiers = QN_ALLOCN(nt, qn_recipe_tier)))
        return qn_err_nomem(err);
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        qn_recipe_tier *t = &sec->tiers[sec->ntiers++];
        if (!(t->name = qn_strndup(k->val, k->len)))
            return qn_err_nomem(err);
        t->mark = k->mark;
        if (!qn_rules__is_slug(t->name, QN_RULES_MAX_NAME))
            return qn_rules__fail(err, k->mark,
                                  "tier name '%.64s' must be a slug: "
                                  "lowercase letters, digits, '-' and '_'",
                                  t->name);
        snprintf(what, sizeof(what), "tier '%s'", t->name);
        if ((rc = get_count(v, what, 1, QN_RECIPE_MAX_PUZZLES, &t->count,
                            err)) != QN_OK)
            return rc;
        sec->total += t->count;
    }
    return QN_OK;
}

/* The value of section key `which`, read into sec. */
static int section_value(section *sec, int which, const node *v, qn_err *err)
{
    int d = 0, rc;

    switch (which) {
    case NAME:
        sec->name_mark = v->mark;
        return get_name(v, "section name", &sec->name, err);
    case RULES:
        sec->rules_mark = v->mark;
        return qn_rules__get_str(v, "rules", &sec->rules, err);
    case TIERS:
        return do_tiers(sec, v, err);
    case COUNT:
        sec->count_mark = v->mark;
        rc = get_count(v, "count", 1, QN_RECIPE_MAX_PUZZLES, &sec->count, err);
        sec->total = sec->count;
        return rc;
    case PRESSES:
        return get_range(v, "presses", &sec->presses, err);
    case DISTRIBUTION:
        sec->distribution_mark = v->mark;
        if ((rc = qn_rules__want(v, N_SCALAR, "distribution", err)) ||
            (rc = qn_rules__lookup(v, "distribution", dists, NKEYS(dists), &d,
                                   err)))
            return rc;
        sec->distribution = d ? QN_RECIPE_UNIFORM : QN_RECIPE_SPREAD;
        return QN_OK;
    case UNIQUE:
        sec->unique_optimum_mark = v->mark;
        return qn_rules__get_bool(v, "unique-optimum", &sec->unique_optimum,
                                  err);
    case LIT:
        return get_range(v, "lit", &sec->lit, err);
    case HUMAN: /* its levels are the builder's to read (human.h) */
        sec->human_level_mark = v->mark;
        return qn_rules__get_str(v, "human-level", &sec->human_level, err);
    }
    return QN_OK;
}

/* A rules path: a file name we can print and store. */
static int check_rules(const section *sec, qn_err *err)
{
    qn_err why = QN_ERR_INIT;

    if (!*sec->rules)
        return qn_rules__fail(err, sec->rules_mark,
                              "rules must name a rule file, got ''");
    if (qn_text_check(sec->rules, QN_RECIPE_MAX_PATH, 0, "rules path", &why))
        return qn_rules__fail(err, sec->rules_mark, "%s", why.msg);
    return QN_OK;
}

/* Of two keys of one mapping, the one written second. */
static const node *later(const node *a, const node *b)
{
    if (a->mark.line != b->mark.line)
        return a->mark.line > b->mark.line ? a : b;
    return a->mark.col > b->mark.col ? a : b;
}

/* How the keys of a section combine; keys[] holds each given key. */
static int check_section(const section *sec, size_t i, const node *keys[],
                         qn_err *err)
{
    const char *name = sec->name;

    if (!keys[NAME])
        return qn_rules__fail(err, sec->mark, "section %zu has no 'name'",
                              i + 1);
    if (!keys[RULES])
        return qn_rules__fail(
            err, sec->mark, "section '%s' has no 'rules' (a rule file)", name);
    if (keys[TIERS] && keys[COUNT])
        return qn_rules__fail(err, later(keys[TIERS], keys[COUNT])->mark,
                              "section '%s' has both 'tiers' and 'count': "
                              "give one",
                              name);
    if (!keys[TIERS] && !keys[COUNT])
        return qn_rules__fail(err, sec->mark,
                              "section '%s' needs 'tiers' (a count per "
                              "tier) or 'count'",
                              name);
    for (int k = PRESSES; k <= DISTRIBUTION; k++)
        if (keys[TIERS] && keys[k])
            return qn_rules__fail(err, keys[k]->mark,
                                  "section '%s': '%s' goes with 'count', "
                                  "not 'tiers' (a tier is a press range "
                                  "already)",
                                  name, section_keys[k]);
    return check_rules(sec, err);
}

static int do_section(section *sec, size_t i, const node *n, qn_err *err)
{
    const node *keys[NKEYS(section_keys)] = {NULL};
    int which = 0, rc;

    sec->mark = n->mark;
    sec->presses.lo = sec->lit.lo = 1; /* absent: any */
    sec->presses.hi = sec->lit.hi = UINT64_MAX;
    if (n->type != N_MAP)
        return qn_rules__fail(err, n->mark,
                              "section %zu must be a mapping, got %s", i + 1,
                              qn_rules__node_kind(n));
    for (size_t j = 0; j < n->nkids; j += 2) {
        const node *k = n->kids[j], *v = n->kids[j + 1];
        if ((rc = qn_rules__lookup(k, "section key", section_keys,
                                   NKEYS(section_keys), &which, err)) ||
            (rc = section_value(sec, which, v, err)))
            return rc;
        keys[which] = k;
    }
    return check_section(sec, i, keys, err);
}

static int do_sections(qn_recipe *r, const node *n, qn_err *err)
{
    int rc;

    if ((rc = qn_rules__want(n, N_SEQ, "sections", err)) != QN_OK)
        return rc;
    r->sections_mark = n->mark;
    if (n->nkids == 0)
        return qn_rules__fail(err, n->mark,
                              "sections is empty: a recipe needs at least "
                              "one section");
    if (n->nkids > QN_RECIPE_MAX_SECTIONS)
        return qn_rules__fail(err, n->mark,
                              "a recipe has %zu sections, the limit is %d",
                              n->nkids, QN_RECIPE_MAX_SECTIONS);
    if (!(r->sections = QN_ALLOCN(n->nkids, section)))
        return qn_err_nomem(err);
    for (size_t i = 0; i < n->nkids; i++) {
        section *sec = &r->sections[r->nsections++];
        if ((rc = do_section(sec, i, n->kids[i], err)) != QN_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(r->sections[j].name, sec->name))
                return qn_rules__fail(err, sec->name_mark,
                                      "section name '%s' is used twice "
                                      "(first on line %d)",
                                      sec->name, r->sections[j].name_mark.line);
        r->total += sec->total;
        if (r->total > QN_RECIPE_MAX_PUZZLES)
            return qn_rules__fail(
                err, sec->ntiers ? sec->tiers_mark : sec->count_mark,
                "section '%s' brings the recipe to %llu "
                "puzzles, the limit is %d",
                sec->name, (unsigned long long)r->total, QN_RECIPE_MAX_PUZZLES);
    }
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* The top mapping */

static int top_value(qn_recipe *r, int which, const node *v, qn_err *err)
{
    switch (which) {
    case PACK:
        r->pack_mark = v->mark;
        return get_name(v, "pack name", &r->pack, err);
    case TITLE:
        r->title_mark = v->mark;
        return qn_rules__get_str(v, "title", &r->title, err);
    case DESCRIPTION:
        r->description_mark = v->mark;
        return qn_rules__get_str(v, "description", &r->description, err);
    case AUTHOR:
        r->author_mark = v->mark;
        return qn_rules__get_str(v, "author", &r->author, err);
    case SEED:
        return get_seed(r, v, err);
    case VARIETY:
        r->variety_mark = v->mark;
        return get_count(v, "variety", 0, QN_RULES_MAX_CELLS, &r->variety, err);
    case SECTIONS:
        return do_sections(r, v, err);
    }
    return QN_OK;
}

int qn_rules__recipe_top_key(const node *k, qn_err *err)
{
    int which;

    return qn_rules__lookup(k, "key", top_keys, NKEYS(top_keys), &which, err);
}

/* What the whole recipe needs, once every key is read. */
static int check_top(const qn_recipe *r, qn_err *err)
{
    const char *const texts[3] = {r->title, r->description, r->author};
    const qn_mark marks[3] = {r->title_mark, r->description_mark,
                              r->author_mark};

    if (!r->pack)
        return qn_rules__fail(err, r->mark, "missing 'pack' (the pack name)");
    if (!r->seed_mark.line)
        return qn_rules__fail(err, r->mark,
                              "missing 'seed' (1 to 64 hex digits)");
    if (!r->sections)
        return qn_rules__fail(err, r->mark,
                              "missing 'sections' (a list of 1 to %d)",
                              QN_RECIPE_MAX_SECTIONS);
    return qn_rules__check_texts(texts, marks, err);
}

int qn_rules__recipe_from_tree(qn_recipe *r, const node *n, qn_err *err)
{
    int which = 0, rc;

    if (n->type != N_MAP)
        return qn_rules__fail(err, n->mark,
                              "a recipe must be a mapping, got %s",
                              qn_rules__node_kind(n));
    r->mark = n->mark;
    for (size_t i = 0; i < n->nkids; i += 2)
        if ((rc = qn_rules__lookup(n->kids[i], "key", top_keys, NKEYS(top_keys),
                                   &which, err)) ||
            (rc = top_value(r, which, n->kids[i + 1], err)))
            return rc;
    return check_top(r, err);
}
