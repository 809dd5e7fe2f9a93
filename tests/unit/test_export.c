/*
 * test_export.c: the pack document (export.h): every shipped rule rebuilds
 * from its per-cell effects to the same hash; documents write, parse and
 * write again byte-identically; strict parsing and verification reject
 * what they must, with outputs left empty; loading a pack from a damaged
 * database fails cleanly.
 */
#include "quench/export.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "quench/solver.h"
#include "quench/mem.h"
#include "quench/state.h"
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
    qn_solver *g = NULL;
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
    T_EQ(qn_solver_new(&g, r, NULL), QN_OK);
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
        qn_solver_answer(g, &a, s);
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
    qn_solver_free(g);
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

/* The whole file at path, malloc'd; *len its size. */
static unsigned char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b;

    *len = 0;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    rewind(f);
    b = qn_xmalloc((size_t)*len + 1);
    if (fread(b, 1, (size_t)*len, f) != (size_t)*len)
        *len = 0;
    fclose(f);
    return b;
}

/* The file offset of the stored text of puzzle p's state, or -1. */
static long state_offset(const unsigned char *b, long len,
                         const qn_pack_doc *doc, size_t p)
{
    qn_buf t = QN_BUF_INIT;
    long at = -1;

    qn_state_format(&t, qn_rules_layout(doc->rules[0].rules),
                    doc->puzzles[p].state, '/');
    for (long i = 0; at < 0 && i + (long)t.len <= len; i++)
        if (memcmp(b + i, t.buf, t.len) == 0)
            at = i;
    qn_buf_release(&t);
    return at;
}

static int doc_is_empty(const qn_pack_doc *d)
{
    return !d->name && !d->rules && !d->nrules && !d->puzzles &&
           !d->npuzzles;
}

/* A pack of 300 puzzles stored at path (the caller's tmp directory). */
static void store_pack(const char *path, qn_pack_doc *doc)
{
    qn_store *s = NULL;
    qn_err e = QN_ERR_INIT;

    make_doc(doc, "rules/classic-5x5.yaml", 300);
    T_EQ(qn_store_open(&s, path, QN_STORE_CREATE, &e), QN_OK);
    if (s && qn_pack_import(s, doc, "big", NULL, NULL, &e) != QN_OK)
        T_FAILF("import: %s", e.msg);
    qn_store_close(s); /* checkpoints the WAL into the file */
}

/* Load pack "big" from path: the code; *out is released before return. */
static int load_big(const char *path, qn_pack_doc *out, qn_err *e)
{
    qn_store *s = NULL;
    int rc = qn_store_open(&s, path, 0, e);

    memset(out, 0xff, sizeof(*out));
    if (rc == QN_OK)
        rc = qn_pack_doc_load(out, s, "big", e);
    qn_store_close(s);
    return rc;
}

/* Run sql on the database at path. */
static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    T_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/*
 * A page of the puzzles table that the pack walk reaches only after its
 * first rows (found by the last puzzle's state text) is scribbled over:
 * the walk fails part-way with an SQLite error. The document must come
 * back empty (before the fix its rule count outran its NULL rule array,
 * and releasing it crashed: issue #17).
 */
static void test_load_damaged_page(const char *dir)
{
    char path[512];
    qn_pack_doc doc, back;
    qn_err e = QN_ERR_INIT;
    unsigned char *b;
    long len, first, last;
    FILE *f;

    snprintf(path, sizeof(path), "%s/page.db", dir);
    store_pack(path, &doc);
    b = slurp(path, &len);
    first = state_offset(b, len, &doc, 0);
    last = state_offset(b, len, &doc, doc.npuzzles - 1);
    free(b);
    T_CHECK(first > 0 && last > 0);
    /* the first rows are read from another page than the damaged one */
    T_CHECK(first / 4096 != last / 4096);
    f = fopen(path, "r+b");
    T_CHECK(f != NULL);
    if (f && last > 0) {
        fseek(f, last / 4096 * 4096, SEEK_SET);
        for (int i = 0; i < 4096; i++)
            fputc(0xa5, f);
        fclose(f);
    }
    T_EQ(load_big(path, &back, &e), QN_EDB);
    T_CHECK(doc_is_empty(&back));
    T_CHECK(strstr(e.msg, "malformed") != NULL);
    qn_pack_doc_release(&back); /* safe on what a failed load leaves */
    qn_pack_doc_release(&doc);
}

/*
 * A stored puzzle whose min_presses no longer matches its solution (a
 * minimal plan's press counts sum to the minimum) does not load: pack
 * show --svg sized a histogram by it (2^62 bins).
 */
static void test_load_damaged_row(const char *dir)
{
    char path[512];
    qn_pack_doc doc, back;
    qn_err e = QN_ERR_INIT;

    snprintf(path, sizeof(path), "%s/row.db", dir);
    store_pack(path, &doc);
    qn_pack_doc_release(&doc);
    raw_exec(path, "UPDATE puzzles SET min_presses = 4611686018427387904"
                   " WHERE id = (SELECT puzzle_id FROM pack_puzzles"
                   " WHERE position = 7)");
    T_EQ(load_big(path, &back, &e), QN_EINVAL);
    T_CHECK(doc_is_empty(&back));
    if (!strstr(e.msg, "stored puzzle 7 of pack 'big'") ||
        !strstr(e.msg, "min_presses is 4611686018427387904"))
        T_FAILF("message: %s", e.msg);
    T_CHECK(strcmp(e.source, path) == 0);
}

/*
 * Stored rule text that no longer hashes to the rule's stored hash does
 * not load (it was exported as another rule: the rule with 3 colours),
 * nor does text that no longer parses; both name the database.
 */
static void test_load_damaged_rule(const char *dir)
{
    char path[512], want[200];
    qn_pack_doc doc, back;
    qn_err e = QN_ERR_INIT;

    snprintf(path, sizeof(path), "%s/rule.db", dir);
    store_pack(path, &doc);
    snprintf(want, sizeof(want), "the database says %s", doc.rules[0].hash);
    qn_pack_doc_release(&doc);
    raw_exec(path, "UPDATE rules SET yaml = replace(yaml, 'colours: 2',"
                   " 'colours: 3')");
    T_EQ(load_big(path, &back, &e), QN_EINVAL);
    T_CHECK(doc_is_empty(&back));
    if (!strstr(e.msg, "stored rule 1 (") || !strstr(e.msg, want))
        T_FAILF("message: %s", e.msg);
    T_CHECK(strcmp(e.source, path) == 0);
    raw_exec(path, "UPDATE rules SET yaml = replace(yaml, 'colours: 3',"
                   " 'colours: three')");
    T_EQ(load_big(path, &back, &e), QN_EINVAL);
    T_CHECK(doc_is_empty(&back));
    if (!strstr(e.msg, "stored rule 1 does not load: "))
        T_FAILF("message: %s", e.msg);
    T_CHECK(strcmp(e.source, path) == 0);
}

static void test_load_damaged(void)
{
    char dir[] = "/tmp/qn_export_XXXXXX", cmd[600];

    if (!mkdtemp(dir)) {
        T_FAILF("mkdtemp failed");
        return;
    }
    test_load_damaged_page(dir);
    test_load_damaged_row(dir);
    test_load_damaged_rule(dir);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
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
    test_load_damaged();
    return t_done();
}
