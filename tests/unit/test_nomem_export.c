/* tier: full (every allocation of each export call, a child process each:
 * minutes) */
/*
 * test_nomem_export.c: the export layer never exits the process (issue
 * #32 section 2, docs/RELIABILITY.md "Out of memory: export"). A small
 * pack (three puzzles of classic 5x5, put with qn_pack_put) is read
 * (qn_pack_doc_load), written in every format (qn_export_write: json,
 * jsonl, csv, flip, svg and png, sheet and one puzzle, html; the dir
 * export's index and level files), read back from its JSON
 * (qn_pack_doc_parse_json), verified, imported into a new store, and one
 * puzzle put again (qn_pack_put); validate's JSON input (json_in.c) reads
 * records, a state and an integer. Each call runs failing its n-th
 * allocation (tfail.h, jansson's counted too) for every n until a run
 * meets no failure. Each run must return QN_OK with what a run with the
 * C library's allocator gives, or QN_ENOMEM with "out of memory" (a
 * JSON read never says the input is malformed), and leave its objects
 * valid: released cleanly, and the same call made again with memory to
 * spare gives the reference. Leaks show under ASan (checked in each run).
 *
 * Each run is a child process: layers other helpers convert (the store,
 * the engine, generate) may still end the process on out of memory
 * ("quench: out of memory", 71). Such runs are counted apart and printed
 * ("exits in other layers"), never taken for a pass of this layer's
 * code: every check of a run that returned is made.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "export/export.h"
#include "quench.h"
#include "t.h"
#include "tfail.h"
#include "validate/submit_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LEAKS() __lsan_do_recoverable_leak_check()
#else
#define LEAKS() 0
#endif

#define MAX_POINTS 100000L
#define RULES "rules/classic-5x5.yaml"

static char dir[64];           /* scratch folder for stores */
static volatile int *returned; /* shared: the call in the child ended */
static qn_rules *rules;
static qn_solver *solver;
static qn_store *store; /* the pack "p" */
static qn_pack_doc doc; /* it, loaded with memory to spare */
static uint8_t states[3][25];

/* ------------------------------------------------------------------ */
/* The sweep */

/* One call under test: run makes it (its result kept in the case),
 * same says whether the result is the reference, done releases it. */
typedef struct scase {
    const char *what;
    void (*prep)(struct scase *c); /* before each run (may be NULL) */
    int (*run)(struct scase *c, qn_err *err);
    int (*same)(struct scase *c);
    void (*done)(struct scase *c);
    qn_export_format f; /* the export cases */
    int64_t puzzle;
    qn_buf out, ref;
    qn_pack_doc d;
    int ref_rc;  /* what the reference run returned */
    int strict;  /* a JSON read: a failed allocation is QN_ENOMEM, never
                    a result (nor "malformed") */
    qn_store *s; /* the store cases' own */
    uint64_t uid;
    int is_new;
} scase;

static int nomem_ok(const scase *c, long n, int rc, const qn_err *err)
{
    if (rc == QN_ENOMEM && err->code == QN_ENOMEM &&
        strstr(err->msg, "out of memory"))
        return 1;
    T_FAILF("%s, allocation %ld failing: rc %d, code %d, '%s'", c->what, n, rc,
            err->code, err->msg);
    return 0;
}

/* A library exit in the child (qn_mem_oom: a layer not converted yet)
 * ends it as 71 before any leak check; nothing else may exit. */
static void child_exit_hook(void)
{
    if (!*returned)
        _exit(71);
}

/* Child: the run failing allocation n. Exit 0: a failure point handled;
 * 2: no failure met (the sweep ends); 1: a check failed. */

static void child(scase *c, long n)
{
    qn_err err = QN_ERR_INIT;
    int quiet = open("/dev/null", O_WRONLY), saved = dup(2), rc;
    long made;

    t_pass = t_fail = 0; /* the child's own verdict */
    atexit(child_exit_hook);
    if (c->prep)
        c->prep(c);
    dup2(quiet, 2); /* the exits' "quench: out of memory" */
    t_fail_after(n);
    rc = c->run(c, &err);
    made = t_counted();
    t_fail_after(-1);
    *returned = 1;
    dup2(saved, 2);
    if (made < n) {
        T_EQ(rc, c->ref_rc);
        T_CHECK(rc != QN_OK || c->same(c));
    } else if (!c->strict && (rc == QN_OK || rc == c->ref_rc)) {
        T_CHECK(rc != QN_OK || c->same(c)); /* a failure it did without */
    } else {
        nomem_ok(c, n, rc, &err);
    }
    c->done(c);
    if (made >= n) { /* the same call again, with memory: the reference */
        /* A call that failed stored nothing, so it runs again where it
         * ran (an import that left its pack would find the name taken).
         * One that did without the failed allocation (the rules'
         * key table is only a shortcut: rules_tree.c) stored what it
         * stores: again into a new store. */
        if (rc == QN_OK && c->prep)
            c->prep(c);
        qn_err_clear(&err);
        int again = c->run(c, &err);
        if (again != c->ref_rc)
            T_FAILF("%s, allocation %ld failing, run again: %s", c->what, n,
                    err.msg);
        T_CHECK(c->ref_rc != QN_OK || c->same(c));
        c->done(c);
    }
    if (LEAKS())
        T_FAILF("%s, allocation %ld failing: leaks", c->what, n);
    fflush(stdout);
    _exit(t_fail ? 1 : made < n ? 2 : 0);
}

static void sweep(scase *c)
{
    long n, points = 0, handled = 0, exits = 0, wrong = 0;
    qn_err err = QN_ERR_INIT;

    if (c->prep)
        c->prep(c);
    c->ref_rc = c->run(c, &err); /* the reference: libc's allocator */
    if (c->ref_rc == QN_OK)
        T_CHECK(c->same(c));
    c->done(c);
    /* T_CASE=WHAT T_POINT=N: that run alone, in this process (to debug) */
    if (getenv("T_CASE") && !strcmp(getenv("T_CASE"), c->what) &&
        getenv("T_POINT"))
        child(c, atol(getenv("T_POINT")));
    for (n = 1; n < MAX_POINTS; n++) {
        pid_t pid;
        int st;

        *returned = 0;
        fflush(stdout);
        fflush(stderr);
        if ((pid = fork()) == 0)
            child(c, n);
        if (pid < 0 || waitpid(pid, &st, 0) != pid) {
            T_FAILF("%s: fork", c->what);
            return;
        }
        if (WIFEXITED(st) && WEXITSTATUS(st) == 2)
            break;
        points++;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            handled++;
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 71 && !*returned) {
            exits++;
        } else {
            wrong++;
            T_FAILF("%s, allocation %ld failing: status %d%s", c->what, n,
                    WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st),
                    *returned ? "" : " (the call never returned)");
        }
    }
    T_CHECK(n < MAX_POINTS);
    T_CHECK(points >= 1);
    T_EQ(wrong, 0);
    printf("%s: %ld failure points: %ld handled, %ld exits in other layers, "
           "%ld wrong",
           c->what, points, handled, exits, wrong);
    printf("\n");
}

/* ------------------------------------------------------------------ */
/* The export layer's calls */

static void release_doc(scase *c)
{
    qn_pack_doc_release(&c->d);
}

static void release_out(scase *c)
{
    qn_buf_release(&c->out);
}

static int same_out(scase *c)
{
    return !c->out.failed && c->out.len == c->ref.len &&
           !memcmp(c->out.buf, c->ref.buf, c->ref.len);
}

/* A document is what its json export writes. */
static int same_doc(scase *c)
{
    qn_buf b = QN_BUF_INIT;
    int same =
        qn_export_write(&b, &c->d, QN_EXPORT_JSON, NULL, NULL) == QN_OK &&
        b.len == c->ref.len && !memcmp(b.buf, c->ref.buf, b.len);

    qn_buf_release(&b);
    return same;
}

static int run_write(scase *c, qn_err *err)
{
    qn_export_opts o = {c->puzzle};

    return qn_export_write(&c->out, &doc, c->f, &o, err);
}

static int run_dir_index(scase *c, qn_err *err)
{
    return qn_export_dir_index(&c->out, &doc, err);
}

static int run_dir_level(scase *c, qn_err *err)
{
    return qn_export_dir_level(&c->out, &doc, 1, err);
}

static int run_load(scase *c, qn_err *err)
{
    return qn_pack_doc_load(&c->d, store, "p", err);
}

static int run_parse(scase *c, qn_err *err)
{
    return qn_pack_doc_parse_json(&c->d, c->ref.buf, c->ref.len, "p.json", err);
}

static int run_verify(scase *c, qn_err *err)
{
    (void)c;
    return qn_pack_doc_verify(&doc, err);
}

static int always(scase *c)
{
    (void)c;
    return 1;
}

static void nothing(scase *c)
{
    (void)c;
}

/* The store cases: a fresh store of their own (made with memory to
 * spare), so a child's writes stay its own. */
static void prep_store(scase *c)
{
    static int seq;
    char path[128];
    qn_err err = QN_ERR_INIT;

    qn_store_close(c->s);
    c->s = NULL;
    snprintf(path, sizeof(path), "%s/s%d-%ld.db", dir, ++seq, (long)getpid());
    if (qn_store_open(&c->s, path, QN_STORE_CREATE, &err) != QN_OK)
        T_FAILF("store %s: %s", path, err.msg);
}

static void count_kept(void *ctx, const qn_pack_diff *d)
{
    (void)d;
    ++*(int *)ctx;
}

/* The pack imported under its own name: a failed run stored nothing
 * (the run again would find the name taken), a whole one exports as the
 * document does (export.h). */
static int run_import(scase *c, qn_err *err)
{
    int kept = 0;

    return qn_pack_import(c->s, &doc, NULL, count_kept, &kept, err);
}

static int same_import(scase *c)
{
    int same = qn_pack_doc_load(&c->d, c->s, "p", NULL) == QN_OK && same_doc(c);

    qn_pack_doc_release(&c->d);
    return same;
}

/* One puzzle put into a new store and pack. */
static int run_put(scase *c, qn_err *err)
{
    c->uid = 0;
    c->is_new = 0;
    return qn_pack_put(c->s, solver, states[0], "p", &c->uid, &c->is_new, err);
}

static int same_put(scase *c)
{
    return c->uid == doc.puzzles[0].id && c->is_new == 1;
}

static void test_export_layer(void)
{
    static const struct {
        qn_export_format f;
        int64_t puzzle;
        const char *what;
    } formats[] = {
        {QN_EXPORT_JSON, 0, "export json"},
        {QN_EXPORT_JSONL, 0, "export jsonl"},
        {QN_EXPORT_CSV, 0, "export csv"},
        {QN_EXPORT_FLIP, 0, "export flip"},
        {QN_EXPORT_SVG, 0, "export svg sheet"},
        {QN_EXPORT_SVG, 2, "export svg puzzle 2"},
        {QN_EXPORT_PNG, 0, "export png sheet"},
        {QN_EXPORT_PNG, 3, "export png puzzle 3"},
        {QN_EXPORT_HTML, 0, "export html"},
    };
    scase c;
    qn_buf json = QN_BUF_INIT;

    T_EQ(qn_export_write(&json, &doc, QN_EXPORT_JSON, NULL, NULL), QN_OK);
    for (size_t i = 0; i < sizeof(formats) / sizeof(*formats); i++) {
        memset(&c, 0, sizeof(c));
        c.what = formats[i].what;
        c.f = formats[i].f;
        c.puzzle = formats[i].puzzle;
        T_EQ(qn_export_write(&c.ref, &doc, c.f, &(qn_export_opts){c.puzzle},
                             NULL),
             QN_OK);
        c.run = run_write, c.same = same_out, c.done = release_out;
        sweep(&c);
        qn_buf_release(&c.ref);
    }

    memset(&c, 0, sizeof(c));
    c.what = "export dir index.json";
    T_EQ(qn_export_dir_index(&c.ref, &doc, NULL), QN_OK);
    c.run = run_dir_index, c.same = same_out, c.done = release_out;
    sweep(&c);
    qn_buf_release(&c.ref);

    memset(&c, 0, sizeof(c));
    c.what = "export dir level 2";
    T_EQ(qn_export_dir_level(&c.ref, &doc, 1, NULL), QN_OK);
    c.run = run_dir_level, c.same = same_out, c.done = release_out;
    sweep(&c);
    qn_buf_release(&c.ref);

    memset(&c, 0, sizeof(c));
    c.ref = json;
    c.what = "pack load";
    c.run = run_load, c.same = same_doc, c.done = release_doc;
    sweep(&c);
    c.what = "pack JSON import (parse)";
    c.run = run_parse; /* may do without an allocation: never "malformed" */
    sweep(&c);
    c.what = "pack verify";
    c.run = run_verify, c.same = always, c.done = nothing;
    sweep(&c);
    c.what = "pack import";
    c.prep = prep_store, c.run = run_import, c.same = same_import;
    sweep(&c);
    c.what = "pack put";
    c.run = run_put, c.same = same_put;
    sweep(&c);
    qn_store_close(c.s);
    qn_buf_release(&json);
}

/* ------------------------------------------------------------------ */
/* validate's JSON input (json_in.c) */

static const char *const records[] = {
    /* escaped keys (decoded by jansson), a long string member kept as
     * metadata, a state as a string and a solution as an array */
    ("{\"id\": \"sub-\\u0031\", \"st\\u0061te\": "
     "\"10001/00000/00000/00000/00000\", \"notes\": \"a long note that "
     "makes jansson grow its string buffer a few times over and over\", "
     "\"extra\": {\"a\": [1, 2, {\"b\": null}]}}"),
    ("{\"id\": 7, \"state\": [1,1,0,0,0, 1,0,0,0,0, 0,0,0,0,0, 0,0,0,0,0, "
     "0,0,0,0,0], \"min_presses\": 1, \"type\": \"puzzle\"}"),
    /* malformed: still malformed (QN_ESYNTAX), or out of memory */
    "{\"id\": \"bad\", \"state\": \"10001/00000/00000/00000/00000\",}",
};

typedef struct jcase {
    scase c; /* first */
    const char *text;
    qn_submit__rec rec;
    uint8_t cells[25], solution[25];
    uint8_t ref_cells[25];
    char ref_id[QN_SUBMIT_MAX_ID + 1], ref_meta[512];
} jcase;

static int run_record(scase *c, qn_err *err)
{
    jcase *j = (jcase *)c;

    memset(j->cells, 0, sizeof(j->cells));
    j->rec.l = qn_rules_layout(rules);
    j->rec.k = qn_rules_colours(rules);
    j->rec.cells = j->cells;
    j->rec.solution = j->solution;
    return qn_submit__json_record(&j->rec, j->text, strlen(j->text), 1, 1, err);
}

static int same_record(scase *c)
{
    jcase *j = (jcase *)c;

    return !memcmp(j->cells, j->ref_cells, 25) && j->rec.has_id &&
           !strcmp(j->rec.id, j->ref_id) &&
           !strcmp(j->rec.meta.buf, j->ref_meta);
}

static void keep_meta(scase *c)
{
    (void)c; /* rec.meta is reset by each call and released at the end */
}

static void test_json_in(void)
{
    for (size_t i = 0; i < sizeof(records) / sizeof(*records); i++) {
        jcase j;
        qn_err err = QN_ERR_INIT;
        int rc;

        memset(&j, 0, sizeof(j));
        j.text = records[i];
        qn_buf_init(&j.rec.meta);
        rc = run_record(&j.c, &err);
        memcpy(j.ref_cells, j.cells, 25);
        snprintf(j.ref_id, sizeof(j.ref_id), "%s", j.rec.id);
        snprintf(j.ref_meta, sizeof(j.ref_meta), "%s", j.rec.meta.buf);
        T_EQ(rc, i < 2 ? QN_OK : QN_ESYNTAX);
        j.c.what = i == 0   ? "validate JSON record (escapes, metadata)"
                   : i == 1 ? "validate JSON record (arrays)"
                            : "validate JSON record (malformed)";
        j.c.run = run_record, j.c.same = same_record, j.c.done = keep_meta;
        j.c.strict = 1;
        sweep(&j.c);
        qn_buf_release(&j.rec.meta);
    }
    /* what validate's and solve's state readers parse: a JSON array */
    {
        static const char text[] = "[1,0,0,0,1, 0,0,0,0,0, 0,0,0,0,0, "
                                   "0,0,0,0,0, 0,0,0,0,0]";
        uint8_t cells[25];
        long long v;
        int is_int;
        long n;

        for (n = 1; n < MAX_POINTS; n++) {
            qn_err err = QN_ERR_INIT;
            long made;
            int rc;

            t_fail_after(n);
            rc = qn_submit_parse_state(cells, qn_rules_layout(rules), 2, text,
                                       strlen(text), &err);
            made = t_counted();
            t_fail_after(-1);
            if (made < n) {
                T_EQ(rc, QN_OK);
                T_CHECK(cells[0] == 1 && cells[4] == 1 && cells[5] == 0);
                break;
            }
            if (rc != QN_OK)
                nomem_ok(&(scase){.what = "JSON state"}, n, rc, &err);
        }
        T_CHECK(n > 1);
        for (n = 1; n < MAX_POINTS; n++) {
            qn_err err = QN_ERR_INIT;
            long made;
            int rc;

            t_fail_after(n);
            rc = qn_submit__json_int(&v, &is_int, "12345", 5, 1, 1, &err);
            made = t_counted();
            t_fail_after(-1);
            if (made < n) {
                T_EQ(rc, QN_OK);
                T_CHECK(v == 12345 && is_int);
                break;
            }
            if (rc != QN_OK)
                nomem_ok(&(scase){.what = "JSON integer"}, n, rc, &err);
        }
        T_CHECK(n > 1);
    }
}

/* ------------------------------------------------------------------ */

/* The pack: three puzzles of classic 5x5, each a few presses from the
 * goal (so solvable), put as a program would. */
static int setup(void)
{
    static const int presses[3][3] = {{0, 6, 12}, {24, 18, -1}, {7, -1, -1}};
    char path[128];
    qn_err err = QN_ERR_INIT;

    snprintf(dir, sizeof(dir), "/tmp/quench-nomem-export.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof(path), "%s/pack.db", dir);
    if (qn_rules_load_file(&rules, RULES, &err) != QN_OK ||
        qn_solver_new(&solver, rules, &err) != QN_OK ||
        qn_store_open(&store, path, QN_STORE_CREATE, &err) != QN_OK)
        return -1;
    for (int i = 0; i < 3; i++) {
        for (int p = 0; p < 3 && presses[i][p] >= 0; p++)
            qn_solver_press(solver, states[i], presses[i][p]);
        if (qn_pack_put(store, solver, states[i], "p", NULL, NULL, &err) !=
            QN_OK)
            return -1;
    }
    return qn_pack_doc_load(&doc, store, "p", &err) == QN_OK ? 0 : -1;
}

int main(void)
{
    t_alloc_hook();
    returned = mmap(NULL, sizeof(*returned), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (returned == MAP_FAILED || setup() != 0) {
        T_FAILF("setup failed");
        return t_done();
    }
    test_export_layer();
    test_json_in();
    qn_pack_doc_release(&doc);
    qn_store_close(store);
    qn_solver_free(solver);
    qn_rules_free(rules);
    t_rmtree(dir);
    return t_done();
}
