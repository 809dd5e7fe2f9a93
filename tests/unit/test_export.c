/*
 * test_export.c: the pack document (export.h): every shipped rule rebuilds
 * from its per-cell effects to the same hash; documents write, parse and
 * write again byte-identically; strict parsing and verification reject
 * what they must, with outputs left empty; loading a pack from a damaged
 * database fails cleanly.
 */
#include "export/export.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "rules/state.h"
#include "solve/solver.h"
#include "t.h"

/* The test's own allocations: memory to spare, or the test stops. */
static void *t_must(void *p)
{
    if (!p) {
        fputs("test_export: out of memory\n", stderr);
        exit(2);
    }
    return p;
}
#define t_xmalloc(n) t_must(qn_malloc(n))
#define t_xreallocarray(p, n, size) t_must(qn_reallocarray((p), (n), (size)))
#define t_xstrdup(s) ((char *)t_must(qn_strdup(s)))
#define t_xmemdup(p, n) t_must(qn_memdup((p), (n)))
#define T_NEWN(n, type) ((type *)t_must(qn_calloc((n), sizeof(type))))
#include "trules.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
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
    b = t_xmalloc((size_t)*len + 1);
    if (fread(b, 1, (size_t)*len, f) != (size_t)*len)
        *len = 0;
    fclose(f);
    return b;
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
            names[n++] = t_xstrdup(de->d_name);
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
        T_EQ(qn_pack_rule_from_rules(&pr, r, NULL), QN_OK);
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
#define SEED_FF                                                                \
    "00000000000000000000000000000000000000000000000000000000000000ff"

/* The id of state under r, as the generator computes it (puzzle_id.h):
 * the rule's hash keys SipHash of the canonical cells. */
static uint64_t id_of(const qn_rules *r, const uint8_t *state)
{
    int n = qn_rules_ncells(r);
    uint8_t *canon = T_NEWN((size_t)n, uint8_t);
    char hash[65];
    qn_puzzle_id_key key;
    uint64_t id;

    qn_rules_hash(r, hash);
    qn_canon_form(r, canon, state);
    qn_puzzle_id_key_init(&key, hash);
    id = qn_puzzle_id(&key, canon, n);
    free(canon);
    return id;
}

static void make_doc(qn_pack_doc *doc, const char *path, size_t npuz)
{
    qn_rules *r = load(path);
    qn_solver *solver = NULL;
    qn_answer a;
    uint64_t seed = 7;
    int n;

    memset(doc, 0, sizeof(*doc));
    doc->name = t_xstrdup("unit");
    doc->title = t_xstrdup("Unit \"test\" pack");
    doc->description = t_xstrdup("line one\nline two, with a comma");
    doc->author = t_xstrdup("");
    doc->version = (int64_t)npuz + 1; /* created at 1, a change per add */
    if (!r)
        return;
    T_EQ(qn_solver_new(&solver, r, NULL), QN_OK);
    qn_answer_init(&a, solver, NULL);
    n = qn_rules_ncells(r);
    doc->rules = T_NEWN(1, qn_pack_rule);
    doc->nrules = 1;
    T_EQ(qn_pack_rule_from_rules(&doc->rules[0], r, NULL), QN_OK);
    doc->rules[0].rules = r;
    doc->puzzles = T_NEWN(npuz, qn_pack_puzzle);
    while (doc->npuzzles < npuz) {
        qn_pack_puzzle *p = &doc->puzzles[doc->npuzzles];
        uint8_t *s = T_NEWN((size_t)n, uint8_t);
        const uint8_t *goal = qn_rules_goal(r), *m = qn_rules_matrix(r);
        unsigned k = qn_rules_colours(r);
        for (int i = 0; i < n; i++)
            s[i] = goal[i];
        for (int j = 0; j < n; j++) {
            unsigned x = (unsigned)(t_rand(&seed) % k);
            for (int i = 0; i < n; i++) /* s = goal - A x */
                s[i] = (uint8_t)((s[i] + (k - (m[i * n + j] * x) % k)) % k);
        }
        qn_solver_answer(solver, &a, s);
        if (a.at_goal || !a.exact) {
            free(s);
            continue;
        }
        p->position = (int64_t)doc->npuzzles + 1;
        p->id = id_of(r, s);
        p->state = s;
        p->solution = t_xmemdup(a.plan, (size_t)n);
        p->min_presses = a.mp.presses;
        p->noptimal = a.mp.noptimal;
        p->grade = t_xstrdup(doc->npuzzles % 2 ? "hard" : "");
        p->grader = t_xstrdup("1");
        p->seed = t_xstrdup(doc->npuzzles % 2 ? SEED_FF : "");
        p->index = doc->npuzzles % 2 ? (int64_t)doc->npuzzles : -1;
        p->submission = t_xstrdup(doc->npuzzles == 1 ? "ann-7" : "");
        p->source = t_xstrdup(doc->npuzzles == 1 ? "subs/ann.jsonl:3" : "");
        p->meta = t_xstrdup(doc->npuzzles == 1
                                ? "{\"player\": \"ann\", \"time\": 12.5, "
                                  "\"note\": \"</script>\"}"
                                : "");
        doc->npuzzles++;
    }
    qn_answer_release(&a);
    qn_solver_free(solver);
}

/* The 16 hex digits of puzzle i's id, as a game keys its saves. */
static const char *hex_of(const qn_pack_doc *doc, size_t i, char *out)
{
    qn_puzzle_id_hex(out, doc->puzzles[i].id);
    return out;
}

/*
 * Written and parsed back, a document keeps every puzzle's id, position
 * and provenance and the pack's version, and writes the same bytes
 * again; the csv and jsonl carry the same ids and positions.
 */
static void test_roundtrip(const char *path)
{
    qn_pack_doc doc, back;
    qn_buf a = QN_BUF_INIT, b = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;
    char hex[QN_PUZZLE_ID_HEX], want[128];

    make_doc(&doc, path, 6);
    T_EQ(qn_pack_doc_verify(&doc, &e), QN_OK);
    T_EQ(qn_export_write(&a, &doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    T_CHECK(strstr(a.buf, "\"format_version\":2,") != NULL);
    T_CHECK(strstr(a.buf, ",\"version\":7}") != NULL);
    if (qn_pack_doc_parse_json(&back, a.buf, a.len, "a.json", &e) != QN_OK) {
        T_FAILF("%s: %s", path, e.msg);
    } else {
        T_EQ(back.npuzzles, 6);
        T_EQ(back.version, 7);
        for (size_t i = 0; i < back.npuzzles; i++) {
            T_CHECK(back.puzzles[i].id == doc.puzzles[i].id);
            T_EQ(back.puzzles[i].position, (int64_t)i + 1);
            T_CHECK(
                !strcmp(back.puzzles[i].submission, doc.puzzles[i].submission));
            T_CHECK(!strcmp(back.puzzles[i].source, doc.puzzles[i].source));
            T_CHECK(!strcmp(back.puzzles[i].meta, doc.puzzles[i].meta));
        }
        T_EQ(qn_pack_doc_verify(&back, &e), QN_OK);
        T_EQ(qn_export_write(&b, &back, QN_EXPORT_JSON, NULL, &e), QN_OK);
        T_CHECK(a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0);
        qn_pack_doc_release(&back);
    }
    /* the meta text is a JSON string: its '<' is escaped like any other */
    T_CHECK(strstr(a.buf, "\"meta\":\"{\\\"player\\\": \\\"ann\\\", "
                          "\\\"time\\\": 12.5, \\\"note\\\": "
                          "\\\"\\u003c/script>\\\"}\"") != NULL);
    snprintf(want, sizeof(want),
             "{\"record\":\"puzzle\",\"id\":\"%s\","
             "\"position\":2,",
             hex_of(&doc, 1, hex));
    qn_buf_reset(&b);
    T_EQ(qn_export_write(&b, &doc, QN_EXPORT_JSONL, NULL, &e), QN_OK);
    T_CHECK(strstr(b.buf, want) != NULL);
    qn_buf_reset(&b);
    T_EQ(qn_export_write(&b, &doc, QN_EXPORT_CSV, NULL, &e), QN_OK);
    T_CHECK(strncmp(b.buf,
                    "id,position,state,min_presses,optimal_solutions,"
                    "solution,grade,seed,pack_version,submission,"
                    "source,meta\r\n",
                    102) == 0);
    snprintf(want, sizeof(want), "\r\n%s,2,", hex_of(&doc, 1, hex));
    T_CHECK(strstr(b.buf, want) != NULL);
    T_CHECK(strstr(b.buf, ",hard," SEED_FF ",7,ann-7,subs/ann.jsonl:3,"
                          "\"{\"\"player\"\": \"\"ann\"\", ") != NULL);
    snprintf(want, sizeof(want), "\r\n%s,3,", hex_of(&doc, 2, hex));
    T_CHECK(strstr(b.buf, want) != NULL);
    /* tampering: a witness; the message names the puzzle both ways */
    doc.puzzles[2].solution[0] =
        (uint8_t)((doc.puzzles[2].solution[0] + 1) % doc.rules[0].colours);
    T_EQ(qn_pack_doc_verify(&doc, &e), QN_EINVAL);
    snprintf(want, sizeof(want),
             "puzzle 3 (id %s): the solution does not "
             "reach the goal",
             hex);
    if (strcmp(e.msg, want))
        T_FAILF("'%s', want '%s'", e.msg, want);
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
    parse_fails("{\"format\": \"quench-pack\", \"format_version\": 3}",
                QN_EINVAL, 0, 0, "'format_version' is 3, must be 1..2");
    parse_fails("{\"format\": \"other\"}", QN_EINVAL, 0, 0, "expected");
    parse_fails("{\"format\": \"quench-pack\", \"format_version\": 1.0}",
                QN_EINVAL, 0, 0, "must be an integer");
    parse_fails("{\"extra\": 1}", QN_EINVAL, 0, 0, "unknown key 'extra'");
    /* the document is read in pieces (json_pack.c): the skeleton's own
     * errors and jansson's inside a piece at their places in the whole
     * text (1-based, columns counted by hand) */
    parse_fails("{\"format\": 1 \"x\": 2}", QN_ESYNTAX, 1, 14,
                "',' or '}' expected");
    parse_fails("{\"format\" 1}", QN_ESYNTAX, 1, 11, "':' expected");
    parse_fails("{} x", QN_ESYNTAX, 1, 4, "end of file expected");
    parse_fails("{\"pack\": [1, 2", QN_ESYNTAX, 1, 15, "not closed");
    parse_fails("{\"pack\": \"open", QN_ESYNTAX, 1, 15, "not closed");
    parse_fails("{\"pack\": {\"a\":\n  tru}}", QN_ESYNTAX, 2, 5,
                "invalid token near 'tru'");
    parse_fails("{\"x\": [1,\n2,, 3]}", QN_ESYNTAX, 2, 3, "unexpected token");
    /* a key is decoded before it is compared: this is "format" twice */
    parse_fails("{\"\\u0066ormat\": \"x\", \"format\": \"y\"}", QN_ESYNTAX, 1,
                22, "duplicate object key");
    /* a member past QN_PACK_MAX_VALUES is refused before it is parsed */
    {
        size_t n = 300000, len;
        char *big = t_xmalloc(2 * n + 16);
        len = (size_t)sprintf(big, "{\"pack\": [");
        for (size_t i = 0; i < n; i++)
            big[len++] = '0', big[len++] = ',';
        memcpy(big + len - 1, "]}", 3);
        parse_fails(big, QN_ELIMIT, 1, 10,
                    "a member with more than 262144 JSON values");
        free(big);
    }
}

static void set(char **field, const char *v)
{
    free(*field);
    *field = t_xstrdup(v);
}

/* doc, written and parsed back: QN_OK, or QN_EINVAL with `want`. */
static void reparse(const qn_pack_doc *doc, const char *want, const char *what)
{
    qn_buf a = QN_BUF_INIT;
    qn_pack_doc back;
    qn_err e = QN_ERR_INIT;

    T_EQ(qn_export_write(&a, doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    if (qn_pack_doc_parse_json(&back, a.buf, a.len, "u.json", &e) == QN_OK) {
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
        "=cmd|' /C calc'!A0",
        "+1",
        "-1",
        "@SUM(A1)",
        "\teasy",
        "\reasy",
        "Easy",
        "easy ",
        "expert" /* a default name, not a 5x5 tier */};
    static const char *const seeds[] = {
        "=1+1",
        "@A1",
        "0x" SEED_FF,
        SEED_FF "0",
        &SEED_FF[1], /* 63 digits */
        "00000000000000000000000000000000000000000000000000000000000000FF"};
    static const char *const graders[] = {"-1",  "=1",         "01",
                                          "1.0", "1234567890", " 1"};
    qn_pack_doc doc;

    make_doc(&doc, "rules/classic-5x5.yaml", 3);
    reparse(&doc, NULL, "as made");
    for (size_t i = 0; i < sizeof(grades) / sizeof(*grades); i++) {
        set(&doc.puzzles[1].grade, grades[i]);
        reparse(&doc, "): 'grade'", grades[i]);
    }
    set(&doc.puzzles[1].grade, "medium"); /* a 5x5 tier */
    reparse(&doc, NULL, "medium");
    for (size_t i = 0; i < sizeof(seeds) / sizeof(*seeds); i++) {
        set(&doc.puzzles[1].seed, seeds[i]);
        reparse(&doc, "): 'seed'", seeds[i]);
    }
    set(&doc.puzzles[1].seed, "");
    for (size_t i = 0; i < sizeof(graders) / sizeof(*graders); i++) {
        set(&doc.puzzles[1].grader, graders[i]);
        reparse(&doc, "): 'grader_version'", graders[i]);
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
    reparse(&doc,
            "pack name 'evil\033[31mred\nline' holds a control "
            "character (U+001B) at byte 5",
            "ESC in the name");
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
 * prefixed with ' and quoted (RFC 4180 doubles the quotes inside). A text
 * from outside has its TAB and CR escaped first (text.h): "\tx" is then
 * the three characters \tx, no formula. */
static void test_csv_formulas(void)
{
    static const char *const in[] = {
        "=cmd|' /C calc'!A0", "+1",    "-2", "@SUM(A1)", "\tx", "\rx", "a=b",
        "say \"hi\"",         "=\"q\""};
    static const char *const out[] = {",\"'=cmd|' /C calc'!A0\",",
                                      ",\"'+1\",",
                                      ",\"'-2\",",
                                      ",\"'@SUM(A1)\",",
                                      ",\\tx,",
                                      ",\\rx,",
                                      ",a=b,",
                                      ",\"say \"\"hi\"\"\",",
                                      ",\"'=\"\"q\"\"\","};
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
    size_t n = 9;

    make_doc(&doc, "rules/classic-5x5.yaml", 3);
    T_EQ(qn_export_write(&a, &doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    T_EQ(qn_pack_doc_parse_json(&kept, a.buf, a.len, "k", &e), QN_OK);
    memset(&x, 0, sizeof(x));
    T_EQ(qn_pack_doc_diff(&doc, &kept, on_diff, &x, &n, &e), QN_OK);
    T_EQ(n, 0);
    set(&kept.rules[0].title, "Kept");
    set(&kept.puzzles[1].grade, "easy");
    set(&kept.puzzles[1].seed, "");
    set(&kept.puzzles[1].submission, ""); /* stored before, by generate */
    kept.puzzles[2].index = 9;
    T_EQ(qn_pack_doc_diff(&doc, &kept, on_diff, &x, &n, &e), QN_OK);
    T_EQ(n, 5);
    T_EQ(x.n, 5);
    T_CHECK(!strcmp(x.what[0], "0 title Kept|Lights Out (5x5)"));
    T_CHECK(!strcmp(x.what[1], "2 grade easy|hard"));
    T_CHECK(!strcmp(x.what[2], "2 seed |" SEED_FF));
    T_CHECK(!strcmp(x.what[3], "2 submission |ann-7"));
    T_CHECK(!strcmp(x.what[4], "3 index 9|-1"));
    qn_pack_doc_release(&kept);
    qn_pack_doc_release(&doc);
    qn_buf_release(&a);
}

/* b's text with the first `from` replaced by `to`, malloc'd */
static char *replaced(const qn_buf *b, const char *from, const char *to)
{
    const char *at = strstr(b->buf, from);
    qn_buf t = QN_BUF_INIT;

    T_CHECK(at != NULL);
    if (!at)
        return t_xstrdup(b->buf);
    qn_buf_add(&t, b->buf, (size_t)(at - b->buf));
    qn_buf_adds(&t, to);
    qn_buf_adds(&t, at + strlen(from));
    return qn_buf_detach(&t, NULL);
}

static void parse_text_fails(const char *text, const char *want)
{
    qn_pack_doc doc;
    qn_err e = QN_ERR_INIT;

    if (qn_pack_doc_parse_json(&doc, text, strlen(text), "v.json", &e) ==
        QN_OK) {
        T_FAILF("accepted, want '%s'", want);
        qn_pack_doc_release(&doc);
    } else if (e.code != QN_EINVAL || !strstr(e.msg, want)) {
        T_FAILF("'%s' (code %d) lacks '%s'", e.msg, e.code, want);
    }
}

/*
 * A format 2 document names its puzzles by id: an id that is not the id
 * of the puzzle's rule and state (a game's save keyed on it would find
 * another puzzle) is refused naming the puzzle by position and the
 * document's id, as are a position out of order, an id that is not 16
 * lowercase hex digits, a meta that is not a JSON object's text and a
 * version no pack of that size can have.
 */
static void test_parse_ids(void)
{
    qn_pack_doc doc;
    qn_buf a = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;
    char hex[QN_PUZZLE_ID_HEX], from[64], to[64], want[160], *t;

    make_doc(&doc, "rules/classic-5x5.yaml", 3);
    T_EQ(qn_export_write(&a, &doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    hex_of(&doc, 1, hex);
    snprintf(from, sizeof(from), "\"id\":\"%s\"", hex);
    snprintf(to, sizeof(to), "\"id\":\"%s\"", "0123456789abcdef");
    t = replaced(&a, from, to);
    snprintf(want, sizeof(want),
             "puzzle 2 (id 0123456789abcdef): 'id' is "
             "0123456789abcdef, its rule and state give %s",
             hex);
    parse_text_fails(t, want);
    free(t);
    snprintf(to, sizeof(to), "\"id\":\"%.15sA\"", hex);
    t = replaced(&a, from, to);
    parse_text_fails(t, "puzzle 2: 'id' must be 16 lowercase hex digits");
    free(t);
    snprintf(from, sizeof(from), "\"id\":\"%s\",\"position\":2", hex);
    snprintf(to, sizeof(to), "\"id\":\"%s\",\"position\":3", hex);
    t = replaced(&a, from, to);
    snprintf(want, sizeof(want), "puzzle 2 (id %s): 'position' is 3", hex);
    parse_text_fails(t, want);
    free(t);
    t = replaced(&a, ",\"version\":4}", ",\"version\":0}");
    parse_text_fails(t, "pack: 'version' is 0, must be 1..");
    free(t);
    t = replaced(&a, ",\"meta\":\"\",", ",\"meta\":\"[]\",");
    parse_text_fails(t, "(id ");
    parse_text_fails(t, "): 'meta' must be \"\" or the text of a JSON object");
    free(t);
    set(&doc.puzzles[0].meta, "{\"a\": 1, \"a\": 2}"); /* duplicate key */
    reparse(&doc, "'meta' must be", "duplicate key in meta");
    set(&doc.puzzles[0].meta, "{\"a\": 1} x");
    reparse(&doc, "'meta' must be", "trailing text in meta");
    set(&doc.puzzles[0].meta, "{}");
    reparse(&doc, NULL, "empty meta object");
    qn_pack_doc_release(&doc);
    qn_buf_release(&a);
}

/*
 * A format 1 document (as quench wrote before ids: the fuzz corpus's,
 * from generate classic-3x3 -n 3 --seed 1) still reads: its puzzles get
 * the ids of their rule and state, positions from their order, no
 * provenance, and the version an import gives the pack.
 */
static void test_parse_v1(void)
{
    long len;
    unsigned char *text = slurp("fuzz/corpus/import/classic-3x3.json", &len);
    qn_rules *r = load("rules/classic-3x3.yaml");
    qn_pack_doc doc;
    qn_err e = QN_ERR_INIT;

    T_CHECK(text != NULL && len > 0 && r != NULL);
    if (!text || !r ||
        qn_pack_doc_parse_json(&doc, (const char *)text, (size_t)len, "v1.json",
                               &e) != QN_OK) {
        T_FAILF("v1 document: %s", e.msg);
    } else {
        T_CHECK(strstr((const char *)text, "\"format_version\":1,") != NULL);
        T_EQ(doc.npuzzles, 3);
        T_EQ(doc.version, 1); /* no version: a new pack, at 1 */
        for (size_t i = 0; i < doc.npuzzles; i++) {
            T_CHECK(doc.puzzles[i].id == id_of(r, doc.puzzles[i].state));
            T_EQ(doc.puzzles[i].position, (int64_t)i + 1);
            T_CHECK(!*doc.puzzles[i].submission && !*doc.puzzles[i].source &&
                    !*doc.puzzles[i].meta);
        }
        T_EQ(qn_pack_doc_verify(&doc, &e), QN_OK);
        qn_pack_doc_release(&doc);
    }
    free(text);
    qn_rules_free(r);
}

/*
 * Doc a with b's rule and puzzles after its own: a pack of two rules
 * (b's puzzles at positions a.npuzzles + 1, ...). b is left empty.
 */
static void append_doc(qn_pack_doc *a, qn_pack_doc *b)
{
    size_t n = a->npuzzles;

    a->rules = t_xreallocarray(a->rules, a->nrules + 1, sizeof(*a->rules));
    a->rules[a->nrules] = b->rules[0];
    a->puzzles =
        t_xreallocarray(a->puzzles, n + b->npuzzles, sizeof(*a->puzzles));
    for (size_t i = 0; i < b->npuzzles; i++) {
        a->puzzles[n + i] = b->puzzles[i];
        a->puzzles[n + i].rule = a->nrules;
        a->puzzles[n + i].position = (int64_t)(n + i) + 1;
    }
    a->nrules++;
    a->npuzzles += b->npuzzles;
    a->version += (int64_t)b->npuzzles;
    free(b->rules);
    free(b->puzzles);
    b->rules = NULL, b->puzzles = NULL;
    b->nrules = b->npuzzles = 0;
    qn_pack_doc_release(b);
}

/*
 * Exports that cannot hold a puzzle say which one blocks them: Flip
 * (two colours only) and a contact sheet (one rule only) name the first
 * puzzle of the rule they cannot draw, by position and id.
 */
static void test_blocked(void)
{
    qn_pack_doc doc, ring;
    qn_buf b = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;
    char hex[QN_PUZZLE_ID_HEX], want[200];

    make_doc(&doc, "rules/classic-5x5.yaml", 3);
    T_EQ(qn_export_write(&b, &doc, QN_EXPORT_FLIP, NULL, &e), QN_OK);
    make_doc(&ring, "rules/ring6-mod8.yaml", 2);
    append_doc(&doc, &ring);
    T_EQ(qn_pack_doc_verify(&doc, &e), QN_OK);
    hex_of(&doc, 3, hex);
    qn_buf_reset(&b);
    T_EQ(qn_export_write(&b, &doc, QN_EXPORT_FLIP, NULL, &e), QN_EINVAL);
    snprintf(want, sizeof(want),
             "puzzle 4 (id %s): flip has two colours, "
             "this rule has 8",
             hex);
    if (strcmp(e.msg, want))
        T_FAILF("'%s', want '%s'", e.msg, want);
    qn_buf_reset(&b);
    T_EQ(qn_export_write(&b, &doc, QN_EXPORT_SVG, NULL, &e), QN_EINVAL);
    snprintf(want, sizeof(want),
             "a contact sheet needs one rule: puzzle 4 "
             "(id %s) has rule 'ring6', puzzle 1 has 'classic-5x5'",
             hex);
    if (!strstr(e.msg, want))
        T_FAILF("'%s' lacks '%s'", e.msg, want);
    qn_buf_release(&b);
    qn_pack_doc_release(&doc);
}

static void test_formats(void)
{
    qn_export_format f;
    qn_err e = QN_ERR_INIT;

    for (int i = 0; i < QN_EXPORT_NFORMATS; i++) {
        T_EQ(qn_export_format_parse(
                 &f, qn_export_format_name((qn_export_format)i), &e),
             QN_OK);
        T_EQ(f, i);
    }
    T_EQ(qn_export_format_parse(&f, "xml", &e), QN_ESYNTAX);
}

/* Where puzzle p's table row shows in the file's bytes b: its packed
 * state, then its min_presses and optimal (a byte each of the record's
 * body, or none for 0 and 1) and its witness, side by side in the row's
 * record (docs/STORE.md); -1 when not found. Read from the database itself, by
 * the puzzle's position in the only pack. */
static long row_offset(const char *path, const unsigned char *b, long len,
                       size_t p)
{
    unsigned char state[64], wit[64];
    size_t ns = 0, nw = 0;
    long at = -1;
    sqlite3 *db;
    sqlite3_stmt *st = NULL;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT state, witness FROM puzzles WHERE id ="
                            " (SELECT puzzle_id FROM pack_puzzles"
                            " WHERE position = ?)",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)p + 1);
    if (sqlite3_step(st) == SQLITE_ROW) {
        ns = (size_t)sqlite3_column_bytes(st, 0);
        nw = (size_t)sqlite3_column_bytes(st, 1);
        if (ns <= sizeof(state) && nw <= sizeof(wit)) {
            memcpy(state, sqlite3_column_blob(st, 0), ns);
            memcpy(wit, sqlite3_column_blob(st, 1), nw);
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    T_CHECK(ns > 0 && ns <= sizeof(state) && nw > 0 && nw <= sizeof(wit));
    if (!ns || ns > sizeof(state) || !nw || nw > sizeof(wit))
        return -1;
    for (long i = 0; at < 0 && i + (long)(ns + nw) <= len; i++)
        for (long gap = 0; gap <= 2 && at < 0; gap++)
            if (i + (long)(ns + nw) + gap <= len && !memcmp(b + i, state, ns) &&
                !memcmp(b + i + (long)ns + gap, wit, nw))
                at = i;
    return at;
}

static int doc_is_empty(const qn_pack_doc *d)
{
    return !d->name && !d->rules && !d->nrules && !d->puzzles && !d->npuzzles;
}

/* A pack of 300 puzzles stored at path (the caller's tmp directory). */
static void store_pack(const char *path, qn_pack_doc *doc)
{
    qn_store *s = NULL;
    qn_err e = QN_ERR_INIT;

    make_doc(doc, "rules/classic-5x5.yaml", 300);
    for (size_t i = 0; i < doc->npuzzles; i++)
        doc->puzzles[i].slot = (int64_t)(300 - i); /* kept by the import */
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
 * first rows (found by the last puzzle's packed state and witness) is
 * scribbled over:
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
    first = row_offset(path, b, len, 0);
    last = row_offset(path, b, len, doc.npuzzles - 1);
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

/*
 * A puzzle's id comes from its rule and state: since migration 0009 no
 * row keeps one. Every loaded id is the independent computation here
 * (id_of: the canonical form and the keyed hash).
 */
static void test_load_ids_from_states(const char *dir)
{
    char path[512];
    qn_pack_doc doc, back;
    qn_err e = QN_ERR_INIT;
    qn_rules *r = load("rules/classic-5x5.yaml");

    snprintf(path, sizeof(path), "%s/ids.db", dir);
    store_pack(path, &doc);
    T_EQ(load_big(path, &back, &e), QN_OK);
    T_EQ(back.npuzzles, doc.npuzzles);
    if (r && back.npuzzles == doc.npuzzles) {
        int bad = 0;
        for (size_t i = 0; i < back.npuzzles; i++)
            bad += back.puzzles[i].id != id_of(r, back.puzzles[i].state) ||
                   back.puzzles[i].id != doc.puzzles[i].id;
        T_EQ(bad, 0);
    }
    qn_pack_doc_release(&back);
    qn_pack_doc_release(&doc);
    qn_rules_free(r);
}

/*
 * Through a database and back: a document imported into a fresh database
 * exports byte-identically, so the pack keeps the document's version and
 * every puzzle its id, position and provenance (submission, source and
 * meta, which the store holds as validate --into wrote them).
 */
static void test_store_roundtrip(const char *dir)
{
    char path[512];
    qn_pack_doc doc, back;
    qn_buf a = QN_BUF_INIT, b = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;

    snprintf(path, sizeof(path), "%s/rt.db", dir);
    store_pack(path, &doc);
    T_EQ(qn_export_write(&a, &doc, QN_EXPORT_JSON, NULL, &e), QN_OK);
    T_EQ(load_big(path, &back, &e), QN_OK);
    T_EQ(back.version, 301);
    T_CHECK(!strcmp(back.puzzles[1].submission, "ann-7") &&
            !strcmp(back.puzzles[1].source, "subs/ann.jsonl:3") &&
            !strcmp(back.puzzles[1].meta, doc.puzzles[1].meta));
    T_CHECK(back.puzzles[299].id == doc.puzzles[299].id);
    set(&back.name, "unit"); /* the document's name; the store's is "big" */
    /* the document had no human grades (#33): the import graded every
     * puzzle; without them it is the document again */
    for (size_t i = 0; i < back.npuzzles; i++) {
        T_CHECK(back.puzzles[i].human_model > 0 &&
                back.puzzles[i].human_level >= 0);
        back.puzzles[i].human_model = 0;
    }
    T_EQ(qn_export_write(&b, &back, QN_EXPORT_JSON, NULL, &e), QN_OK);
    T_CHECK(a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0);
    qn_pack_doc_release(&back);
    qn_pack_doc_release(&doc);
    qn_buf_release(&a);
    qn_buf_release(&b);
}

static void test_load_damaged(void)
{
    char dir[] = "/tmp/qn_export_XXXXXX";

    if (!mkdtemp(dir)) {
        T_FAILF("mkdtemp failed");
        return;
    }
    test_load_damaged_page(dir);
    test_load_damaged_row(dir);
    test_load_damaged_rule(dir);
    test_load_ids_from_states(dir);
    test_store_roundtrip(dir);
    t_rmtree(dir);
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
    test_parse_ids();
    test_parse_v1();
    test_blocked();
    test_load_damaged();
    return t_done();
}
