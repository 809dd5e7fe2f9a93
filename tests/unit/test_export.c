/*
 * test_export.c: the pack document (export.h): every shipped rule rebuilds
 * from its per-cell effects to the same hash; documents write, parse and
 * write again byte-identically; strict parsing and verification reject
 * what they must, with outputs left empty.
 */
#include "quench/export.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quench/game.h"
#include "quench/mem.h"
#include "t.h"
#include "trules.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rebuild every shipped rule from its effects: same hash and board. */
static void test_rebuild_all(void)
{
    DIR *d = opendir("rules");
    struct dirent *de;
    char *names[256];
    size_t n = 0;

    T_CHECK(d != NULL);
    if (!d)
        return;
    while ((de = readdir(d)) != NULL && n < 256) {
        size_t len = strlen(de->d_name);
        if (len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0)
            names[n++] = qn_xstrdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), cmp_str);
    T_CHECK(n >= 10);
    for (size_t i = 0; i < n; i++) {
        char path[512], hash[65];
        qn_rules *r;
        qn_pack_rule pr;
        qn_err e = QN_ERR_INIT;

        snprintf(path, sizeof(path), "rules/%s", names[i]);
        free(names[i]);
        r = load(path);
        if (!r)
            continue;
        if (qn_rules_ncells(r) > 1024) { /* keep the test quick */
            qn_rules_free(r);
            continue;
        }
        qn_pack_rule_from_rules(&pr, r);
        T_CHECK(pr.rules == NULL);
        if (qn_pack_rule_compile(&pr, &e) != QN_OK) {
            T_FAILF("%s: %s", path, e.msg);
        } else {
            qn_rules_hash(pr.rules, hash);
            qn_rules_hash(r, hash);
            T_CHECK(strcmp(hash, pr.hash) == 0);
            qn_rules_hash(pr.rules, hash);
            T_CHECK(strcmp(hash, pr.hash) == 0);
            T_EQ(qn_rules_ntiers(pr.rules), qn_rules_ntiers(r));
            T_CHECK(strcmp(qn_rules_name(pr.rules), qn_rules_name(r)) == 0);
            T_CHECK(strcmp(qn_rules_title(pr.rules), qn_rules_title(r)) == 0);
            T_EQ(qn_rules_layout(pr.rules)->kind, qn_rules_layout(r)->kind);
            T_EQ(qn_rules_layout(pr.rules)->wrap, qn_rules_layout(r)->wrap);
        }
        /* a changed effect no longer matches the hash */
        pr.matrix[1] = (uint8_t)((pr.matrix[1] + 1) % pr.colours);
        T_EQ(qn_pack_rule_compile(&pr, &e), QN_EINVAL);
        qn_pack_rule_release(&pr);
        qn_rules_free(r);
    }
}

/* A one-rule document with npuz puzzles from seeded random presses. */
/* A seed as quench writes it (qn_seed_format: 64 lowercase hex digits). */
#define SEED_FF                                                             \
    "00000000000000000000000000000000000000000000000000000000000000ff"

static void make_doc(qn_pack_doc *doc, const char *path, size_t npuz)
{
    qn_rules *r = load(path);
    qn_game *g = NULL;
    qn_answer a;
    uint64_t seed = 7;
    int n;

    memset(doc, 0, sizeof(*doc));
    doc->name = qn_xstrdup("unit");
    doc->title = qn_xstrdup("Unit \"test\" pack");
    doc->description = qn_xstrdup("line one\nline two, with a comma");
    doc->author = qn_xstrdup("");
    if (!r)
        return;
    T_EQ(qn_game_new(&g, r, NULL), QN_OK);
    qn_answer_init(&a, g);
    n = qn_rules_ncells(r);
    doc->rules = QN_NEWN(1, qn_pack_rule);
    doc->nrules = 1;
    qn_pack_rule_from_rules(&doc->rules[0], r);
    doc->rules[0].rules = r;
    doc->puzzles = QN_NEWN(npuz, qn_pack_puzzle);
    while (doc->npuzzles < npuz) {
        qn_pack_puzzle *p = &doc->puzzles[doc->npuzzles];
        uint8_t *s = QN_NEWN((size_t)n, uint8_t);
        const uint8_t *goal = qn_rules_goal(r), *m = qn_rules_matrix(r);
        unsigned k = qn_rules_colours(r);
        for (int i = 0; i < n; i++)
            s[i] = goal[i];
        for (int j = 0; j < n; j++) {
            unsigned x = (unsigned)(t_rand(&seed) % k);
            for (int i = 0; i < n; i++) /* s = goal - A x */
                s[i] = (uint8_t)((s[i] + (k - (m[i * n + j] * x) % k)) % k);
        }
        qn_game_answer(g, &a, s);
        if (a.at_goal || !a.exact) {
            free(s);
            continue;
        }
        p->id = (int64_t)doc->npuzzles + 1;
        p->state = s;
        p->solution = qn_xmemdup(a.plan, (size_t)n);
        p->min_presses = a.mp.presses;
        p->noptimal = a.mp.noptimal;
        p->grade = qn_xstrdup(doc->npuzzles % 2 ? "hard" : "");
        p->grader = qn_xstrdup("1");
        p->seed = qn_xstrdup(doc->npuzzles % 2 ? SEED_FF : "");
        p->index = doc->npuzzles % 2 ? (int64_t)doc->npuzzles : -1;
        doc->npuzzles++;
    }
    qn_answer_release(&a);
    qn_game_free(g);
}

static void test_roundtrip(const char *path)
{
    qn_pack_doc doc, back;
    qn_buf a = QN_BUF_INIT, b = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;

    make_doc(&doc, path, 6);
    T_EQ(qn_pack_doc_verify(&doc, &e), QN_OK);
    T_EQ(qn_export_write(&a, &doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    if (qn_pack_doc_parse_json(&back, a.buf, a.len, "a.json", &e) != QN_OK) {
        T_FAILF("%s: %s", path, e.msg);
    } else {
        T_EQ(back.npuzzles, 6);
        T_EQ(qn_pack_doc_verify(&back, &e), QN_OK);
        T_EQ(qn_export_write(&b, &back, QN_EXPORT_JSON, NULL, &e), QN_OK);
        T_CHECK(a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0);
        qn_pack_doc_release(&back);
    }
    /* tampering: a witness, then min presses */
    doc.puzzles[2].solution[0] =
        (uint8_t)((doc.puzzles[2].solution[0] + 1) % doc.rules[0].colours);
    T_EQ(qn_pack_doc_verify(&doc, &e), QN_EINVAL);
    T_CHECK(strncmp(e.msg, "puzzle 3: ", 10) == 0);
    qn_buf_reset(&b);
    qn_export_write(&b, &doc, QN_EXPORT_CSV, NULL, &e);
    T_CHECK(strncmp(b.buf, "id,state,min_presses,optimal_solutions,solution,"
                           "grade,seed\r\n", 59) == 0);
    T_CHECK(strstr(b.buf, ",hard," SEED_FF "\r\n") != NULL);
    qn_buf_release(&a);
    qn_buf_release(&b);
    qn_pack_doc_release(&doc);
    qn_pack_doc_release(&doc); /* safe twice */
}

static void parse_fails(const char *text, int code, int line, int col,
                        const char *msg)
{
    qn_pack_doc doc;
    qn_err e = QN_ERR_INIT;

    memset(&doc, 0xff, sizeof(doc));
    T_EQ(qn_pack_doc_parse_json(&doc, text, strlen(text), "t.json", &e), code);
    T_CHECK(doc.rules == NULL && doc.puzzles == NULL && doc.name == NULL);
    if (line) {
        T_EQ(e.line, line);
        T_EQ(e.col, col);
    }
    if (!strstr(e.msg, msg))
        T_FAILF("'%s' lacks '%s'", e.msg, msg);
    T_CHECK(strcmp(e.source, "t.json") == 0);
}

static void test_parse_errors(void)
{
    parse_fails("{\"format\": 1,\n \"x\": }", QN_ESYNTAX, 2, 7, "invalid JSON");
    parse_fails("{\"a\": 1, \"a\": 2}", QN_ESYNTAX, 0, 0, "duplicate");
    parse_fails("[[[[[[[[[[1]]]]]]]]]]", QN_ELIMIT, 1, 9, "nested deeper");
    parse_fails("[]", QN_EINVAL, 0, 0, "must be a JSON object");
    parse_fails("{\"format\": \"quench-pack\", \"format_version\": 2}",
                QN_EINVAL, 0, 0, "'format_version' is 2");
    parse_fails("{\"format\": \"other\"}", QN_EINVAL, 0, 0, "expected");
    parse_fails("{\"format\": \"quench-pack\", \"format_version\": 1.0}",
                QN_EINVAL, 0, 0, "must be an integer");
    parse_fails("{\"extra\": 1}", QN_EINVAL, 0, 0, "unknown key 'extra'");
}

static void set(char **field, const char *v)
{
    free(*field);
    *field = qn_xstrdup(v);
}

/* doc, written and parsed back: QN_OK, or QN_EINVAL with `want`. */
static void reparse(const qn_pack_doc *doc, const char *want,
                    const char *what)
{
    qn_buf a = QN_BUF_INIT;
    qn_pack_doc back;
    qn_err e = QN_ERR_INIT;

    T_EQ(qn_export_write(&a, doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    if (qn_pack_doc_parse_json(&back, a.buf, a.len, "u.json", &e) ==
        QN_OK) {
        if (want)
            T_FAILF("%s: accepted, want '%s'", what, want);
        qn_pack_doc_release(&back);
    } else if (!want) {
        T_FAILF("%s: refused: %s", what, e.msg);
    } else {
        T_EQ(e.code, QN_EINVAL);
        if (!strstr(e.msg, want))
            T_FAILF("%s: '%s' lacks '%s'", what, e.msg, want);
    }
    qn_buf_release(&a);
}

/*
 * An imported grade, grader version and seed are what quench writes: a
 * tier of the rule (the default names easy..master of distrib.h when it
 * has none), a decimal number, 64 lowercase hex digits (qn_seed_format);
 * anything else, such as a spreadsheet formula, is refused.
 */
static void test_import_fields(void)
{
    static const char *const grades[] = {
        "=cmd|' /C calc'!A0", "+1", "-1", "@SUM(A1)", "\teasy", "\reasy",
        "Easy", "easy ", "expert" /* a default name, not a 5x5 tier */};
    static const char *const seeds[] = {
        "=1+1", "@A1", "0x" SEED_FF, SEED_FF "0", SEED_FF + 1,
        "00000000000000000000000000000000000000000000000000000000000000FF"};
    static const char *const graders[] = {"-1", "=1", "01", "1.0",
                                          "1234567890", " 1"};
    qn_pack_doc doc;

    make_doc(&doc, "rules/classic-5x5.yaml", 3);
    reparse(&doc, NULL, "as made");
    for (size_t i = 0; i < sizeof(grades) / sizeof(*grades); i++) {
        set(&doc.puzzles[1].grade, grades[i]);
        reparse(&doc, "puzzle 2: 'grade'", grades[i]);
    }
    set(&doc.puzzles[1].grade, "medium"); /* a 5x5 tier */
    reparse(&doc, NULL, "medium");
    for (size_t i = 0; i < sizeof(seeds) / sizeof(*seeds); i++) {
        set(&doc.puzzles[1].seed, seeds[i]);
        reparse(&doc, "puzzle 2: 'seed'", seeds[i]);
    }
    set(&doc.puzzles[1].seed, "");
    for (size_t i = 0; i < sizeof(graders) / sizeof(*graders); i++) {
        set(&doc.puzzles[1].grader, graders[i]);
        reparse(&doc, "puzzle 2: 'grader_version'", graders[i]);
    }
    set(&doc.puzzles[1].grader, "");
    reparse(&doc, NULL, "no grader");
    qn_pack_doc_release(&doc);

    make_doc(&doc, "rules/cross-7x7.yaml", 2); /* no tiers */
    set(&doc.puzzles[1].grade, "master");
    reparse(&doc, NULL, "master");
    set(&doc.puzzles[1].grade, "=1");
    reparse(&doc, "is not a default tier name", "=1");
    qn_pack_doc_release(&doc);
}

/* The pack's name and texts pass qn_store_pack_check (test_text.c has
 * the table): a document's like any other. */
static void test_import_pack_texts(void)
{
    char big[4098];
    qn_pack_doc doc;

    make_doc(&doc, "rules/classic-5x5.yaml", 1);
    set(&doc.name, "evil\033[31mred\nline");
    reparse(&doc, "pack name 'evil\033[31mred\nline' holds a control "
                  "character (U+001B) at byte 5", "ESC in the name");
    set(&doc.name, "-rf");
    reparse(&doc, "begins with '-'", "option-like name");
    set(&doc.name, "unit");
    set(&doc.title, "two\nlines");
    reparse(&doc, "pack 'unit': title holds a control character (U+000A)",
            "newline in the title");
    set(&doc.title, "");
    set(&doc.author, "\xe2\x80\xae"); /* U+202E RIGHT-TO-LEFT OVERRIDE */
    reparse(&doc, "author holds a bidirectional formatting character",
            "RLO in the author");
    memset(big, 'x', 4096);
    big[4096] = '\0';
    set(&doc.author, big);
    reparse(&doc, NULL, "4096-byte author");
    qn_pack_doc_release(&doc);
}

/* OWASP's CSV injection rule: a cell beginning with = + - @ TAB or CR is
 * prefixed with ' and quoted (RFC 4180 doubles the quotes inside). */
static void test_csv_formulas(void)
{
    static const char *const in[] = {"=cmd|' /C calc'!A0", "+1", "-2",
                                     "@SUM(A1)", "\tx", "\rx", "a=b",
                                     "say \"hi\"", "=\"q\""};
    static const char *const out[] = {
        ",\"'=cmd|' /C calc'!A0\",", ",\"'+1\",", ",\"'-2\",",
        ",\"'@SUM(A1)\",", ",\"'\tx\",", ",\"'\rx\",", ",a=b,",
        ",\"say \"\"hi\"\"\",", ",\"'=\"\"q\"\"\","};
    qn_pack_doc doc;
    qn_buf b = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;

    make_doc(&doc, "rules/classic-5x5.yaml", 1);
    set(&doc.puzzles[0].seed, "");
    for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++) {
        qn_buf_reset(&b);
        set(&doc.puzzles[0].grade, in[i]); /* a hand-edited database */
        T_EQ(qn_export_write(&b, &doc, QN_EXPORT_CSV, NULL, &e), QN_OK);
        if (!strstr(b.buf, out[i]))
            T_FAILF("csv of '%s': %s", in[i], b.buf);
    }
    qn_buf_release(&b);
    qn_pack_doc_release(&doc);
}

typedef struct seen {
    char what[8][96];
    size_t n;
} seen;

static void on_diff(void *ctx, const qn_pack_diff *d)
{
    seen *x = ctx;

    if (x->n < 8)
        snprintf(x->what[x->n], sizeof(x->what[0]), "%lld %s %s|%s",
                 (long long)d->puzzle, d->field, d->stored, d->document);
    x->n++;
}

/* Every field where the pack read back differs is named, rules first,
 * with the kept value and the document's. */
static void test_diff(void)
{
    qn_pack_doc doc, kept;
    qn_buf a = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;
    seen x;

    make_doc(&doc, "rules/classic-5x5.yaml", 3);
    T_EQ(qn_export_write(&a, &doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    T_EQ(qn_pack_doc_parse_json(&kept, a.buf, a.len, "k", &e), QN_OK);
    memset(&x, 0, sizeof(x));
    T_EQ(qn_pack_doc_diff(&doc, &kept, on_diff, &x), 0);
    set(&kept.rules[0].title, "Kept");
    set(&kept.puzzles[1].grade, "easy");
    set(&kept.puzzles[1].seed, "");
    kept.puzzles[2].index = 9;
    T_EQ(qn_pack_doc_diff(&doc, &kept, on_diff, &x), 4);
    T_EQ(x.n, 4);
    T_CHECK(!strcmp(x.what[0], "0 title Kept|Lights Out (5x5)"));
    T_CHECK(!strcmp(x.what[1], "2 grade easy|hard"));
    T_CHECK(!strcmp(x.what[2], "2 seed |" SEED_FF));
    T_CHECK(!strcmp(x.what[3], "3 index 9|-1"));
    qn_pack_doc_release(&kept);
    qn_pack_doc_release(&doc);
    qn_buf_release(&a);
}

static void test_formats(void)
{
    qn_export_format f;
    qn_err e = QN_ERR_INIT;

    for (int i = 0; i < QN_EXPORT_NFORMATS; i++) {
        T_EQ(qn_export_format_parse(&f, qn_export_format_name(
                                            (qn_export_format)i), &e),
             QN_OK);
        T_EQ(f, i);
    }
    T_EQ(qn_export_format_parse(&f, "xml", &e), QN_ESYNTAX);
}

int main(void)
{
    test_formats();
    test_rebuild_all();
    test_roundtrip("rules/classic-5x5.yaml");
    test_roundtrip("rules/hexagon-3.yaml");
    test_roundtrip("rules/ring6-mod8.yaml");
    test_roundtrip("rules/cross-7x7.yaml");
    test_parse_errors();
    test_import_fields();
    test_import_pack_texts();
    test_csv_formulas();
    test_diff();
    return t_done();
}
