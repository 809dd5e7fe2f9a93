/*
 * test_recipe.c: campaign recipes (recipe.h, docs/CAMPAIGNS.md). The
 * shipped example loads with the values it spells out; every way a recipe
 * can be wrong gives its exact FILE:LINE:COL message (positions counted by
 * hand from the texts here) and leaves nothing loaded; rules paths are
 * taken from the recipe's folder; section seeds and the text hash match
 * values computed by Python's hashlib from the documented definitions.
 */
#include "rules/recipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "rules/rules.h"
#include "store/store.h"
#include "t.h"

/* A recipe's pack name is a pack name: the same byte limit. */
_Static_assert(QN_RECIPE_MAX_NAME == QN_STORE_PACK_NAME_MAX,
               "recipe and store agree on pack names");

#define SEED_2026                                                              \
    "0000000000000000000000000000000000000000000000000000000000002026"

static qn_recipe *load_text(const char *text, const char *path)
{
    qn_recipe *r = NULL;
    qn_err e = QN_ERR_INIT;

    if (qn_recipe_load_buf(&r, text, strlen(text), path, &e) != QN_OK)
        T_FAILF("%s: %s:%d:%d: %s", text, e.source, e.line, e.col, e.msg);
    return r;
}

/* The recipe of `len` bytes must fail with code and "t.yaml:" + want. */
static void bad_len(const char *text, size_t len, int code, const char *want)
{
    qn_recipe *r = (qn_recipe *)&r; /* must come back NULL */
    qn_err e = QN_ERR_INIT;
    char got[600], exp[400];
    int rc = qn_recipe_load_buf(&r, text, len, "t.yaml", &e);

    snprintf(got, sizeof(got), "%s:%d:%d: %s", e.source, e.line, e.col, e.msg);
    snprintf(exp, sizeof(exp), "t.yaml:%s", want);
    if (rc == QN_OK) {
        T_FAILF("loaded, want '%s'", exp);
        qn_recipe_free(r);
    } else if (r != NULL) {
        T_FAILF("'%s': *out not NULL", exp);
    } else if (strcmp(got, exp)) {
        T_FAILF("\n  got  '%s'\n  want '%s'", got, exp);
    } else if (rc != code) {
        T_FAILF("'%s': code %d, want %d", exp, rc, code);
    } else {
        t_pass++;
    }
}

static void bad(const char *text, int code, const char *want)
{
    bad_len(text, strlen(text), code, want);
}

static void test_example(void)
{
    qn_recipe *r = NULL;
    qn_rules *rules = NULL;
    qn_err e = QN_ERR_INIT;
    const qn_recipe_section *s;
    int rc = qn_recipe_load(&r, "rules/campaigns/starter.yaml", &e);

    T_EQ(rc, QN_OK);
    if (!r) {
        T_FAILF("%s:%d:%d: %s", e.source, e.line, e.col, e.msg);
        return;
    }
    T_CHECK(!strcmp(r->source, "rules/campaigns/starter.yaml"));
    T_CHECK(!strcmp(r->pack, "starter-campaign"));
    T_CHECK(!strcmp(r->title, "Starter campaign"));
    T_CHECK(!strcmp(r->description,
                    "Sixty puzzles, easy to hard: classic Lights Out on 5x5 "
                    "and 7x7 boards,\nthen three colours.\n"));
    T_CHECK(!strcmp(r->author, "quench"));
    T_CHECK(!strcmp(r->seed_hex, SEED_2026));
    T_EQ(r->variety, 3);
    T_EQ(r->nsections, 3);
    T_EQ(r->total, 60);
    if (r->nsections != 3)
        goto done;

    s = &r->sections[0];
    T_CHECK(!strcmp(s->name, "first-steps"));
    T_CHECK(!strcmp(s->rules, "../classic-5x5.yaml"));
    T_CHECK(!strcmp(s->rules_path, "rules/campaigns/../classic-5x5.yaml"));
    T_EQ(s->ntiers, 3);
    T_EQ(s->count, 0);
    T_EQ(s->total, 25);
    if (s->ntiers == 3) {
        T_CHECK(!strcmp(s->tiers[0].name, "easy"));
        T_CHECK(!strcmp(s->tiers[1].name, "medium"));
        T_CHECK(!strcmp(s->tiers[2].name, "hard"));
        T_EQ(s->tiers[0].count, 10);
        T_EQ(s->tiers[1].count, 10);
        T_EQ(s->tiers[2].count, 5);
    }
    /* the resolved path opens, and the rule grades by those tiers */
    if (qn_rules_load_file(&rules, s->rules_path, &e) == QN_OK) {
        T_EQ(qn_rules_ntiers(rules), 3);
        for (size_t i = 0; i < 3 && i < s->ntiers; i++)
            T_CHECK(!strcmp(qn_rules_tier_name(rules, i), s->tiers[i].name));
        qn_rules_free(rules);
    } else {
        T_FAILF("%s: %s", s->rules_path, e.msg);
    }

    s = &r->sections[1];
    T_CHECK(!strcmp(s->name, "seven-by-seven"));
    T_CHECK(!strcmp(s->rules_path, "rules/campaigns/../classic-7x7.yaml"));
    T_EQ(s->ntiers, 0);
    T_EQ(s->count, 20);
    T_EQ(s->presses.lo, 8);
    T_EQ(s->presses.hi, 14);
    T_EQ(s->distribution, QN_RECIPE_SPREAD);
    T_CHECK(s->distribution_mark.line > 0); /* written, not defaulted */
    T_EQ(s->unique_optimum, 0);
    T_EQ(s->lit.lo, 1);
    T_CHECK(s->lit.hi == UINT64_MAX);
    T_EQ(s->lit.mark.line, 0);

    s = &r->sections[2];
    T_CHECK(!strcmp(s->name, "three-colours"));
    T_CHECK(!strcmp(s->rules_path, "rules/campaigns/../lights-out-2000.yaml"));
    T_EQ(s->count, 15);
    T_EQ(s->unique_optimum, 1);
    T_EQ(s->lit.lo, 5);
    T_EQ(s->lit.hi, 20);
    T_EQ(s->presses.lo, 1);
    T_CHECK(s->presses.hi == UINT64_MAX);
    if (qn_rules_load_file(&rules, s->rules_path, &e) == QN_OK) {
        T_EQ(qn_rules_colours(rules), 3);
        qn_rules_free(rules);
    } else {
        T_FAILF("%s: %s", s->rules_path, e.msg);
    }
done:
    qn_recipe_free(r);
}

/* The documented defaults and every range spelling. */
static void test_values(void)
{
    static const struct {
        const char *range;
        uint64_t lo, hi;
    } ranges[] = {
        {"8..14", 8, 14}, {"8..", 8, UINT64_MAX},
        {"..5", 1, 5},    {"7", 7, 7},
        {"'3..4'", 3, 4}, {"..", 1, UINT64_MAX},
        {"0..2", 0, 2},   {"1000000000", 1000000000, 1000000000},
    };
    char text[256];
    qn_recipe *r;

    r = load_text("pack: p\nseed: 0x2026\nsections:\n"
                  "  - {name: a, rules: r.yaml, count: 1}\n",
                  "x.yaml");
    if (r) {
        const qn_recipe_section *s = &r->sections[0];
        T_CHECK(!strcmp(r->seed_hex, SEED_2026));
        T_CHECK(r->title == NULL && r->description == NULL &&
                r->author == NULL);
        T_EQ(r->variety, 0);
        T_EQ(r->variety_mark.line, 0);
        T_EQ(s->distribution, QN_RECIPE_SPREAD);
        T_EQ(s->distribution_mark.line, 0);
        T_EQ(s->unique_optimum, 0);
        T_EQ(s->presses.lo, 1);
        T_CHECK(s->presses.hi == UINT64_MAX);
        T_EQ(s->presses.mark.line, 0);
        T_CHECK(s->tiers == NULL);
        T_EQ(r->total, 1);
        T_EQ(r->mark.line, 1);
        T_EQ(s->mark.line, 4);
        T_EQ(s->count_mark.line, 4);
        T_EQ(s->count_mark.col, 37);
    }
    qn_recipe_free(r);

    for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
        snprintf(text, sizeof(text),
                 "pack: p\nseed: '002026'\nsections:\n  - name: a\n"
                 "    rules: r.yaml\n    count: 2\n    presses: %s\n"
                 "    lit: %s\n    distribution: uniform\n",
                 ranges[i].range, ranges[i].range);
        if ((r = load_text(text, "x.yaml")) == NULL)
            continue;
        T_CHECK(!strcmp(r->seed_hex, SEED_2026));
        T_EQ(r->sections[0].presses.lo, ranges[i].lo);
        T_CHECK(r->sections[0].presses.hi == ranges[i].hi);
        T_EQ(r->sections[0].lit.lo, ranges[i].lo);
        T_CHECK(r->sections[0].lit.hi == ranges[i].hi);
        T_EQ(r->sections[0].presses.mark.line, 7);
        T_EQ(r->sections[0].presses.mark.col, 14);
        T_EQ(r->sections[0].distribution, QN_RECIPE_UNIFORM);
        qn_recipe_free(r);
    }

    /* unique-optimum and lit go with tiers too; a BOM is skipped */
    r = load_text("\xef\xbb\xbfpack: p\nseed: 1\nvariety: 4096\nsections:\n"
                  "  - name: a\n    rules: r.yaml\n    tiers: {hard: 2}\n"
                  "    unique-optimum: true\n    lit: 3..\n",
                  "x.yaml");
    if (r) {
        T_EQ(r->variety, 4096);
        T_EQ(r->sections[0].unique_optimum, 1);
        T_EQ(r->sections[0].lit.lo, 3);
        T_EQ(r->sections[0].tiers_mark.line, 7);
        T_EQ(r->sections[0].tiers_mark.col, 12);
        T_EQ(r->sections[0].tiers[0].mark.col, 13);
        T_EQ(r->len, 3 + strlen("pack: p\nseed: 1\nvariety: 4096\nsections:\n"
                                "  - name: a\n    rules: r.yaml\n    tiers: "
                                "{hard: 2}\n    unique-optimum: true\n    "
                                "lit: 3..\n"));
    }
    qn_recipe_free(r);
}

static void test_paths(void)
{
    static const struct {
        const char *path, *rules, *want, *source;
    } cases[] = {
        {"a/b/r.yaml", "../x.yaml", "a/b/../x.yaml", "a/b/r.yaml"},
        {"a/b/r.yaml", "x.yaml", "a/b/x.yaml", "a/b/r.yaml"},
        {"a/b/r.yaml", "/abs/x.yaml", "/abs/x.yaml", "a/b/r.yaml"},
        {"/r.yaml", "x.yaml", "/x.yaml", "/r.yaml"},
        {"r.yaml", "../x.yaml", "../x.yaml", "r.yaml"},
        {"-", "d/x.yaml", "d/x.yaml", "<stdin>"},
        {NULL, "x.yaml", "x.yaml", ""},
        /* a rule file named "-", not stdin */
        {NULL, "-", "./-", ""},
        {"-", "-", "./-", "<stdin>"},
        {"a/r.yaml", "-", "a/-", "a/r.yaml"},
    };
    char text[256];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        qn_recipe *r;
        snprintf(text, sizeof(text),
                 "pack: p\nseed: 1\nsections:\n"
                 "  - {name: a, rules: '%s', count: 1}\n"
                 "  - {name: b, rules: '%s', count: 1}\n",
                 cases[i].rules, cases[i].rules);
        if ((r = load_text(text, cases[i].path)) == NULL)
            continue;
        for (size_t j = 0; j < 2; j++) {
            if (strcmp(r->sections[j].rules_path, cases[i].want))
                T_FAILF("%s + %s: got '%s', want '%s'",
                        cases[i].path ? cases[i].path : "NULL", cases[i].rules,
                        r->sections[j].rules_path, cases[i].want);
            else
                t_pass++;
            T_CHECK(!strcmp(r->sections[j].rules, cases[i].rules));
        }
        T_CHECK(!strcmp(r->source, cases[i].source));
        qn_recipe_free(r);
    }
}

/*
 * The section seeds and the text hash against Python's hashlib:
 *   blake2b(b"quench-recipe-section-1\0" + seed32 + le32(len(name)) + name
 *           + le32(len(tier)) + tier, digest_size=32)
 *   blake2b(text, digest_size=32)
 * with seed32 = 30 zero bytes + 20 26 (the seed 2026).
 */
static void test_seeds(void)
{
    static const char text[] = "pack: p\nseed: 2026\nsections:\n"
                               "  - name: a\n    rules: r.yaml\n"
                               "    tiers: {easy: 1, hard: 2}\n"
                               "  - name: b\n    rules: r.yaml\n"
                               "    count: 3\n";
    /* the same sections swapped, the pack renamed, the text spelled
     * otherwise: each section keeps its stream */
    static const char other[] = "pack: q\nseed: '0x02026'\nsections:\n"
                                "  - {name: b, rules: s.yaml, count: 9}\n"
                                "  - {name: a, rules: r.yaml, "
                                "tiers: {hard: 2, easy: 1}}\n";
    static const char *const want_a =
        "8267ce9cb39569ce1d322ecec2574d7a96cf162426726d70a1b4368657000ec7";
    static const char *const want_b =
        "b97ad4be93faa829daf9e4729640e86d6f1c202d57ac1b0d7f862435a3d56204";
    static const char *const want_a_easy =
        "33334c7e47923f37632e7c1b4b0a6e1f5b81b17661bd5900c25b8af14b417a59";
    static const char *const want_a_hard =
        "fbebf15029aac74d86c1cc3b4de162cc4b9bf6220e761c1470e5152d484ca0f7";
    static const char *const want_hash =
        "2f3f3e14b16854ef20176398e92b060a781b8e67ea42d1564236114c6745a8fd";
    qn_recipe *r = load_text(text, "s.yaml"), *o = load_text(other, "o.yaml");
    qn_seed s;
    char hex[65];

    if (!r || !o)
        goto done;
    T_EQ(r->len, sizeof(text) - 1);
    T_CHECK(!strcmp(r->text, text));
    T_CHECK(!strcmp(r->hash, want_hash));
    T_CHECK(strcmp(o->hash, want_hash) != 0);

    qn_recipe_section_seed(r, 0, NULL, &s);
    qn_seed_format(&s, hex);
    T_CHECK(!strcmp(hex, want_a));
    qn_recipe_section_seed(r, 1, NULL, &s);
    qn_seed_format(&s, hex);
    T_CHECK(!strcmp(hex, want_b));
    qn_recipe_section_seed(r, 0, "easy", &s);
    qn_seed_format(&s, hex);
    T_CHECK(!strcmp(hex, want_a_easy));
    qn_recipe_section_seed(r, 0, "hard", &s);
    qn_seed_format(&s, hex);
    T_CHECK(!strcmp(hex, want_a_hard));

    qn_recipe_section_seed(o, 1, NULL, &s);
    qn_seed_format(&s, hex);
    T_CHECK(!strcmp(hex, want_a));
    qn_recipe_section_seed(o, 0, NULL, &s);
    qn_seed_format(&s, hex);
    T_CHECK(!strcmp(hex, want_b));
    qn_recipe_section_seed(o, 1, "hard", &s);
    qn_seed_format(&s, hex);
    T_CHECK(!strcmp(hex, want_a_hard));
done:
    qn_recipe_free(r);
    qn_recipe_free(o);
}

#define HEAD "pack: p\nseed: 1\nsections:\n"
#define SEC "  - name: a\n    rules: r.yaml\n"

static void test_errors(void)
{
    /* what the recipe must have */
    bad("seed: 1\nsections:\n  - {name: a, rules: r, count: 1}\n", QN_EINVAL,
        "1:1: missing 'pack' (the pack name)");
    bad("pack: p\nsections:\n  - {name: a, rules: r, count: 1}\n", QN_EINVAL,
        "1:1: missing 'seed' (1 to 64 hex digits)");
    bad("pack: p\nseed: 1\n", QN_EINVAL,
        "1:1: missing 'sections' (a list of 1 to 256)");
    bad(HEAD "  - rules: r\n    count: 1\n", QN_EINVAL,
        "4:5: section 1 has no 'name'");
    bad(HEAD "  - name: a\n    count: 1\n", QN_EINVAL,
        "4:5: section 'a' has no 'rules' (a rule file)");
    bad(HEAD SEC, QN_EINVAL,
        "4:5: section 'a' needs 'tiers' (a count per tier) or 'count'");
    bad("pack: p\nseed: 1\nsections: []\n", QN_EINVAL,
        "3:11: sections is empty: a recipe needs at least one section");

    /* how the keys combine */
    bad(HEAD SEC "    tiers: {easy: 1}\n    count: 2\n", QN_EINVAL,
        "7:5: section 'a' has both 'tiers' and 'count': give one");
    bad(HEAD SEC "    count: 2\n    tiers: {easy: 1}\n", QN_EINVAL,
        "7:5: section 'a' has both 'tiers' and 'count': give one");
    bad(HEAD SEC "    tiers: {easy: 1}\n    presses: 1..3\n", QN_EINVAL,
        "7:5: section 'a': 'presses' goes with 'count', not 'tiers' (a tier "
        "is a press range already)");
    bad(HEAD SEC "    distribution: uniform\n    tiers: {easy: 1}\n", QN_EINVAL,
        "6:5: section 'a': 'distribution' goes with 'count', not 'tiers' (a "
        "tier is a press range already)");
    bad(HEAD "  - {name: a, rules: r, count: 1}\n"
             "  - {name: a, rules: r, count: 1}\n",
        QN_EINVAL, "5:12: section name 'a' is used twice (first on line 4)");

    /* unknown keys */
    bad("pack: p\nsead: 1\n", QN_EINVAL,
        "2:1: unknown key 'sead' (did you mean 'seed'?)");
    bad("name: p\n", QN_EINVAL,
        "1:1: unknown key 'name' (did you mean "
        "'pack'?)");
    bad("pack: p\nzzzzzz: [1, [2]]\n", QN_EINVAL,
        "2:1: unknown key 'zzzzzz' (expected one of: pack, title, "
        "description, author, seed, variety, sections)");
    bad(HEAD SEC "    cuont: 1\n", QN_EINVAL,
        "6:5: unknown section key 'cuont' (did you mean 'count'?)");
    bad(HEAD SEC "    levels: {easy: 1}\n", QN_EINVAL,
        "6:5: unknown section key 'levels' (did you mean 'tiers'?)");
    bad(HEAD SEC "    count: 1\n    distribution: unifrom\n", QN_EINVAL,
        "7:19: unknown distribution 'unifrom' (did you mean 'uniform'?)");

    /* types and values */
    bad("pack: [a]\n", QN_EINVAL,
        "1:7: pack name must be a string, got a "
        "sequence");
    bad("pack: -x\n", QN_EINVAL,
        "1:7: pack name '-x' begins with '-' (it would read as an option)");
    bad("pack: p\ntitle: \"a\\eb\"\nseed: 1\nsections: "
        "[{name: a, rules: r, count: 1}]\n",
        QN_EINVAL, "2:8: title holds a control character (U+001B) at byte 2");
    bad("pack: p\nseed: "
        "00000000000000000000000000000000000000000000000000000000000000001\n",
        QN_EINVAL, "2:7: seed must be 1 to 64 hex digits, got 65");
    bad("pack: p\nseed: {a: 1}\n", QN_EINVAL,
        "2:7: seed must be a string, got a mapping");
    bad("pack: p\nvariety: 4097\n", QN_EINVAL,
        "2:10: variety must be 0..4096, got 4097");
    bad("pack: p\nvariety: -1\n", QN_EINVAL,
        "2:10: variety must be 0..4096, got -1");
    bad("pack: p\nseed: 1\nsections: {a: 1}\n", QN_EINVAL,
        "3:11: sections must be a sequence, got a mapping");
    bad(HEAD "  - a\n", QN_EINVAL,
        "4:5: section 1 must be a mapping, got a "
        "string");
    bad(HEAD "  - name: \"a \"\n", QN_EINVAL,
        "4:11: section name 'a ' ends with a space");
    bad(HEAD "  - name: a\n    rules: ''\n    count: 1\n", QN_EINVAL,
        "5:12: rules must name a rule file, got ''");
    bad(HEAD SEC "    tiers: [easy]\n", QN_EINVAL,
        "6:12: tiers must be a mapping, got a sequence");
    bad(HEAD SEC "    tiers: {}\n", QN_EINVAL,
        "6:12: tiers is empty: give a count per tier, e.g. {easy: 10}");
    bad(HEAD SEC "    tiers: {Easy: 1}\n", QN_EINVAL,
        "6:13: tier name 'Easy' must be a slug: lowercase letters, digits, "
        "'-' and '_'");
    bad(HEAD SEC "    tiers: {easy: 0}\n", QN_EINVAL,
        "6:19: tier 'easy' must be 1..1000000, got 0");
    bad(HEAD SEC "    tiers: {a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, "
                 "i: 1, j: 1, k: 1, l: 1, m: 1, n: 1, o: 1, p: 1, q: 1}\n",
        QN_EINVAL,
        "6:12: tiers has 17 names, the limit is 16 (the most a rule file "
        "grades)");
    bad(HEAD SEC "    count: \"10\"\n", QN_EINVAL,
        "6:12: count must be an integer, got the string '10'");
    bad(HEAD SEC "    count: 0\n", QN_EINVAL,
        "6:12: count must be "
        "1..1000000, got 0");
    bad(HEAD SEC "    count: 1000001\n", QN_EINVAL,
        "6:12: count must be 1..1000000, got 1000001");
    bad(HEAD SEC "    count: 1\n    unique-optimum: yes\n", QN_EINVAL,
        "7:21: unique-optimum must be true or false, got 'yes'");
    bad(HEAD SEC "    count: 1\n    presses: 8-14\n", QN_EINVAL,
        "7:14: presses must be a range A..B, A.., ..B or N of numbers up to "
        "1000000000, got '8-14'");
    bad(HEAD SEC "    count: 1\n    presses: [8, 14]\n", QN_EINVAL,
        "7:14: presses must be a range A..B, A.., ..B or N, got a sequence");
    bad(HEAD SEC "    count: 1\n    presses: 14..8\n", QN_EINVAL,
        "7:14: presses 14..8 is empty: A..B needs 1 <= B and A <= B");
    bad(HEAD SEC "    count: 1\n    presses: 0\n", QN_EINVAL,
        "7:14: presses 0 is empty: A..B needs 1 <= B and A <= B");
    bad(HEAD SEC "    count: 1\n    lit: 5..x\n", QN_EINVAL,
        "7:10: lit must be a range A..B, A.., ..B or N of numbers up to "
        "1000000000, got '5..x'");
    bad(HEAD SEC "    count: 1\n    lit: 1000000001\n", QN_EINVAL,
        "7:10: lit must be a range A..B, A.., ..B or N of numbers up to "
        "1000000000, got '1000000001'");

    /* the file as a whole */
    bad("", QN_EINVAL,
        "1:1: file is empty: expected a recipe mapping with "
        "'pack', 'seed' and 'sections'");
    bad("# nothing\n", QN_EINVAL,
        "1:1: file is empty: expected a recipe mapping with 'pack', 'seed' "
        "and 'sections'");
    bad("hello\n", QN_EINVAL, "1:1: a recipe must be a mapping, got a string");
    bad("pack: p\npack: q\n", QN_ESYNTAX,
        "2:1: duplicate key 'pack' (first on line 1)");
    bad("pack: &x p\n", QN_ESYNTAX, "1:7: anchors are not supported ('&x')");
    bad("pack: p\n\tseed: 1\n", QN_ESYNTAX,
        "2:1: tab character in indentation (use spaces)");
    bad_len("\xff\xfep\0a\0", 6, QN_ESYNTAX,
            "0:0: file is UTF-16; recipes must be UTF-8");
}

/* The limits: sections, puzzles, and the file limits of rule files. */
static void test_limits(void)
{
    qn_buf b = QN_BUF_INIT;
    qn_recipe *r;
    size_t i;

    /* 256 sections load, 257 do not */
    qn_buf_adds(&b, HEAD);
    for (i = 0; i < 256; i++)
        qn_buf_addf(&b, "  - {name: s%zu, rules: r, count: 1}\n", i);
    if ((r = load_text(b.buf, "x.yaml")) != NULL) {
        T_EQ(r->nsections, 256);
        T_EQ(r->total, 256);
    }
    qn_recipe_free(r);
    qn_buf_adds(&b, "  - {name: last, rules: r, count: 1}\n");
    bad(b.buf, QN_EINVAL, "4:3: a recipe has 257 sections, the limit is 256");
    qn_buf_release(&b);

    /* 10^6 puzzles load, one more does not (at the count that passes) */
    r = load_text(HEAD "  - {name: a, rules: r, count: 600000}\n"
                       "  - {name: b, rules: r, tiers: {x: 1, y: 399999}}\n",
                  "x.yaml");
    if (r)
        T_EQ(r->total, 1000000);
    qn_recipe_free(r);
    bad(HEAD "  - {name: a, rules: r, count: 600000}\n"
             "  - {name: b, rules: r, count: 400001}\n",
        QN_EINVAL,
        "5:32: section 'b' brings the recipe to 1000001 puzzles, the limit "
        "is 1000000");
    bad(HEAD "  - {name: a, rules: r, count: 600000}\n"
             "  - {name: b, rules: r, tiers: {x: 1, y: 400000}}\n",
        QN_EINVAL,
        "5:32: section 'b' brings the recipe to 1000001 puzzles, the limit "
        "is 1000000");

    /* nesting and events, as for rule files */
    qn_buf_adds(&b, "pack: p\nseed: 1\nsections: ");
    for (i = 0; i < 100; i++)
        qn_buf_addc(&b, '[');
    for (i = 0; i < 100; i++)
        qn_buf_addc(&b, ']');
    bad(b.buf, QN_ESYNTAX, "3:42: nesting deeper than 32 levels");
    qn_buf_release(&b);
    qn_buf_adds(&b, "pack: p\nseed: 1\nsections: [");
    for (i = 0; i < (1 << 18); i++)
        qn_buf_adds(&b, "0,");
    qn_buf_adds(&b, "0]\n");
    /* 9 events come before the first 0 (stream, document, mapping, 5
     * scalars, sequence): the 262136th 0, at column 12 + 2 * 262135,
     * is one too many */
    bad(b.buf, QN_ESYNTAX,
        "3:524282: more than 262144 YAML events (the "
        "limit)");
    qn_buf_release(&b);
}

/* Files: over 1 MiB (a buffer, a file, an endless device), missing. */
static void test_files(void)
{
    static const char head[] = HEAD "  - {name: a, rules: r, count: 1}\n";
    size_t big = QN_RULES_MAX_FILE + 1, i, n = sizeof(head) - 1;
    char *text = malloc(big), dir[] = "/tmp/test_recipe.XXXXXX", path[64],
         want[64];
    qn_recipe *r = (qn_recipe *)&r;
    qn_err e = QN_ERR_INIT;
    FILE *f;
    int rc;

    /* an otherwise valid recipe padded with lines of comment */
    memcpy(text, head, n);
    for (i = n; i < big; i++)
        text[i] = (i - n) % 64 == 63 ? '\n' : (i - n) % 64 == 0 ? '#' : 'x';
    bad_len(text, big, QN_ESYNTAX,
            "0:0: file is larger than 1048576 bytes (the limit)");

    if (!mkdtemp(dir)) {
        T_FAILF("mkdtemp: cannot make %s", dir);
        free(text);
        return;
    }
    snprintf(path, sizeof(path), "%s/big.yaml", dir);
    if ((f = fopen(path, "wb")) != NULL) {
        fwrite(text, 1, big, f);
        fclose(f);
    }
    rc = qn_recipe_load(&r, path, &e);
    T_EQ(rc, QN_ESYNTAX);
    T_CHECK(r == NULL);
    T_CHECK(!strcmp(e.source, path));
    T_CHECK(!strcmp(e.msg, "file is larger than 1048576 bytes (the limit)"));

    /* the same file one byte shorter: 1 MiB is allowed */
    if ((f = fopen(path, "wb")) != NULL) {
        fwrite(text, 1, big - 1, f);
        fclose(f);
    }
    rc = qn_recipe_load(&r, path, &e);
    T_EQ(rc, QN_OK);
    snprintf(want, sizeof(want), "%s/r", dir);
    if (r) {
        T_EQ(r->len, QN_RULES_MAX_FILE);
        T_CHECK(!strcmp(r->sections[0].rules_path, want));
    }
    qn_recipe_free(r);
    unlink(path);
    rmdir(dir);

    /* a recipe is a regular file: a device is never read (file.h) */
    r = (qn_recipe *)&r;
    rc = qn_recipe_load(&r, "/dev/zero", &e);
    T_EQ(rc, QN_ENOTFOUND);
    T_CHECK(r == NULL);
    T_CHECK(!strcmp(e.source, "/dev/zero"));

    r = (qn_recipe *)&r;
    rc = qn_recipe_load(&r, "rules/campaigns/no-such-recipe.yaml", &e);
    T_EQ(rc, QN_ENOTFOUND);
    T_CHECK(r == NULL);
    T_CHECK(!strcmp(e.source, "rules/campaigns/no-such-recipe.yaml"));
    free(text);
}

int main(void)
{
    test_example();
    test_values();
    test_paths();
    test_seeds();
    test_errors();
    test_limits();
    test_files();
    return t_done();
}
