/* tier: full (a million records through a pipe and generated monsters: 9 s of
 * CPU) */
/*
 * test_submit.c: the submission reader. A corpus of small inputs in
 * tests/submit/ with their exact per-record verdicts, round trips through
 * every format, generated monsters (lines over the limit, binary junk, a
 * million records through a pipe) and the single-state parser.
 *
 * Run from the project root. QN_SUBMIT_BLESS=1 rewrites the .expect files
 * from the current output (review the diff before committing it).
 */
#define _GNU_SOURCE /* fopencookie: an endless input that counts its bytes */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "base/buf.h"
#include "base/err.h"
#include "rules/layout.h"
#include "rules/state.h"
#include "t.h"
#include "tendless.h"
#include "validate/submit.h"

#define CORPUS "tests/submit"

static qn_submit_format format_named(const char *s)
{
    if (strcmp(s, "text") == 0)
        return QN_SUBMIT_TEXT;
    if (strcmp(s, "jsonl") == 0)
        return QN_SUBMIT_JSONL;
    if (strcmp(s, "csv") == 0)
        return QN_SUBMIT_CSV;
    if (strcmp(s, "json") == 0)
        return QN_SUBMIT_JSON;
    return QN_SUBMIT_AUTO;
}

/* Board from "W H K [MASK]" (MASK: w*h of 0/1, row-major). */
static int board_from(qn_layout *l, unsigned *k, const char *spec)
{
    int w = 5, h = 5;
    unsigned kk = 2;
    char mask[1024] = "";
    uint8_t active[1024];
    int n = sscanf(spec, "%d %d %u %1023s", &w, &h, &kk, mask), i;

    *k = kk;
    if (n == 4) {
        for (i = 0; i < w * h; i++)
            active[i] = (uint8_t)(mask[i] == '1');
        return qn_layout_init_grid(l, w, h, 0, active, NULL);
    }
    return qn_layout_init_grid(l, w, h, 0, NULL, NULL);
}

/* Every record of a reader, one line each, into out; the end/fatal too. */
static void describe(qn_buf *out, FILE *in, const qn_layout *l, unsigned k,
                     qn_submit_format fmt, const char *detect_line,
                     const char *rule)
{
    qn_submit_reader *r = NULL;
    const qn_submission *rec;
    qn_err err = QN_ERR_INIT;
    int rc;

    if (qn_submit_open(&r, in, "case", l, k, fmt, &err) != QN_OK) {
        qn_buf_addf(out, "open failed %d:%d: %s\n", err.line, err.col, err.msg);
        return;
    }
    if (detect_line)
        qn_buf_addf(out, "detect %s\n",
                    qn_submit_format_name(qn_submit_detected(r)));
    if (rule)
        qn_submit_expect_rule(r, rule);
    while ((rc = qn_submit_next(r, &rec, &err)) == 1) {
        qn_buf_addf(out, "rec %s @%d:%d ", rec->id, rec->line, rec->col);
        if (rec->ok) {
            qn_buf_adds(out, "ok ");
            qn_state_format(out, l, rec->cells, '/');
            if (rec->has_solution) {
                qn_buf_adds(out, " sol=");
                qn_state_format(out, l, rec->solution, '/');
            }
            if (rec->has_min)
                qn_buf_addf(out, " min=%llu",
                            (unsigned long long)rec->min_presses);
            if (rec->meta) {
                qn_buf_adds(out, " meta=");
                qn_buf_add(out, rec->meta, rec->meta_len);
            }
        } else {
            qn_buf_addf(out, "%d:%d: %s", rec->err.line, rec->err.col,
                        rec->err.msg);
        }
        if (rec->note)
            qn_buf_addf(out, " note=%s", rec->note);
        qn_buf_addc(out, '\n');
    }
    if (qn_submit_skipped(r))
        qn_buf_addf(out, "skipped %llu\n",
                    (unsigned long long)qn_submit_skipped(r));
    if (rc == 0)
        qn_buf_adds(out, "end\n");
    else
        qn_buf_addf(out, "fatal %d:%d: %s\n", err.line, err.col, err.msg);
    /* After the end, the same answer again. */
    if (qn_submit_next(r, &rec, &err) != rc)
        qn_buf_adds(out, "second call differs\n");
    qn_submit_close(r);
}

static char *slurp(const char *path, size_t *n_out)
{
    FILE *f = fopen(path, "rb");
    qn_buf b = QN_BUF_INIT;
    char tmp[4096];
    size_t n;

    if (!f)
        return NULL;
    while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
        qn_buf_add(&b, tmp, n);
    fclose(f);
    return qn_buf_detach(&b, n_out);
}

/*
 * One corpus case: NAME.expect starts with optional directives
 * ("board W H K [MASK]", "format F", "detect" to print the detected
 * format, "rule HASH" for qn_submit_expect_rule), then the exact lines
 * describe() must produce for NAME.in.
 */
static void run_case(const char *dir, const char *name, int bless, int *ncases)
{
    char path[1024], spec[1100] = "5 5 2";
    char *expect, *line, *save = NULL;
    qn_buf want = QN_BUF_INIT, got = QN_BUF_INIT, head = QN_BUF_INIT;
    qn_submit_format fmt = QN_SUBMIT_AUTO;
    const char *detect_line = NULL;
    char rule[80] = "";
    qn_layout l = {0};
    unsigned k = 2;
    size_t n;
    FILE *in;

    snprintf(path, sizeof(path), "%s/%s.expect", dir, name);
    expect = slurp(path, &n);
    if (!expect) {
        T_FAILF("%s: cannot read", path);
        return;
    }
    for (line = strtok_r(expect, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "board ", 6) == 0) {
            snprintf(spec, sizeof(spec), "%s", line + 6);
            qn_buf_addf(&head, "%s\n", line);
        } else if (strncmp(line, "format ", 7) == 0) {
            fmt = format_named(line + 7);
            qn_buf_addf(&head, "%s\n", line);
        } else if (strcmp(line, "detect") == 0) {
            detect_line = line;
            qn_buf_addf(&head, "%s\n", line);
        } else if (strncmp(line, "rule ", 5) == 0) {
            snprintf(rule, sizeof(rule), "%s", line + 5);
            qn_buf_addf(&head, "%s\n", line);
        } else {
            qn_buf_addf(&want, "%s\n", line);
        }
    }
    if (board_from(&l, &k, spec) != QN_OK) {
        T_FAILF("%s: bad board '%s'", name, spec);
        goto done;
    }
    snprintf(path, sizeof(path), "%s/%s.in", dir, name);
    in = fopen(path, "rb");
    if (!in) {
        T_FAILF("%s: cannot open", path);
        goto done;
    }
    describe(&got, in, &l, k, fmt, detect_line, rule[0] ? rule : NULL);
    fclose(in);
    (*ncases)++;
    if (bless) {
        FILE *o;
        snprintf(path, sizeof(path), "%s/%s.expect", dir, name);
        o = fopen(path, "wb");
        if (o) {
            fputs(head.buf, o);
            fputs(got.buf, o);
            fclose(o);
        }
    }
    if (strcmp(want.buf, got.buf) == 0) {
        t_pass++;
    } else {
        T_FAILF("case %s:\n--- expected\n%s--- got\n%s", name, want.buf,
                got.buf);
    }
done:
    qn_layout_release(&l);
    qn_buf_release(&want);
    qn_buf_release(&got);
    qn_buf_release(&head);
    free(expect);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_corpus(void)
{
    DIR *d = opendir(CORPUS);
    struct dirent *e;
    char *names[512];
    size_t n = 0, i;
    int ncases = 0, bless = getenv("QN_SUBMIT_BLESS") != NULL;

    if (!d) {
        T_FAILF("cannot open %s (run from the project root)", CORPUS);
        return;
    }
    while ((e = readdir(d)) && n < 512) {
        size_t len = strlen(e->d_name);
        if (len > 7 && strcmp(e->d_name + len - 7, ".expect") == 0)
            names[n++] = strndup(e->d_name, len - 7);
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), cmp_str);
    for (i = 0; i < n; i++) {
        run_case(CORPUS, names[i], bless, &ncases);
        free(names[i]);
    }
    T_CHECK(ncases >= 40);
    printf("corpus: %d cases\n", ncases);
}

/* ---- round trips -------------------------------------------------------- */

typedef struct sample {
    uint8_t cells[64], sol[64];
    int has_sol, has_min;
    uint64_t min;
    char id[32];
} sample;

static void add_cells_json(qn_buf *b, const uint8_t *v, int n)
{
    int i;

    qn_buf_addc(b, '[');
    for (i = 0; i < n; i++)
        qn_buf_addf(b, "%s%u", i ? ", " : "", v[i]);
    qn_buf_addc(b, ']');
}

/* Write samples in `fmt` (variant picks string or array forms). */
static void write_samples(qn_buf *b, const qn_layout *l, const sample *s,
                          int ns, qn_submit_format fmt, int variant)
{
    int i;

    if (fmt == QN_SUBMIT_CSV)
        qn_buf_adds(b, variant ? "min_presses,\"solution\",state,id\r\n"
                               : "id,state,solution,min_presses\n");
    if (fmt == QN_SUBMIT_JSON)
        qn_buf_adds(b, "[\n");
    for (i = 0; i < ns; i++) {
        if (fmt == QN_SUBMIT_TEXT) {
            qn_state_format(b, l, s[i].cells, '/');
            qn_buf_adds(b, variant ? "\r\n" : "\n");
        } else if (fmt == QN_SUBMIT_CSV) {
            qn_buf csol = QN_BUF_INIT;
            if (s[i].has_sol)
                qn_state_format(&csol, l, s[i].sol, '/');
            if (variant) {
                if (s[i].has_min)
                    qn_buf_addf(b, "%llu", (unsigned long long)s[i].min);
                qn_buf_addf(b, ",\"%s\",\"", csol.buf);
                qn_state_format(b, l, s[i].cells, '\n');
                /* the id has a quote and a comma in it */
                qn_buf_addf(b, "\",\"%s \"\"q\"\", x\"\r\n", s[i].id);
            } else {
                qn_buf_addf(b, "%s,", s[i].id);
                qn_state_format(b, l, s[i].cells, '/');
                qn_buf_addf(b, ",%s,", csol.buf);
                if (s[i].has_min)
                    qn_buf_addf(b, "%llu", (unsigned long long)s[i].min);
                qn_buf_addc(b, '\n');
            }
            qn_buf_release(&csol);
        } else {
            if (fmt == QN_SUBMIT_JSON && i > 0)
                qn_buf_adds(b, ",\n");
            qn_buf_addf(b, "{\"id\": \"%s\", \"state\": ", s[i].id);
            if (variant) {
                add_cells_json(b, s[i].cells, l->ncells);
            } else {
                qn_buf_addc(b, '"');
                qn_state_format(b, l, s[i].cells, '/');
                qn_buf_addc(b, '"');
            }
            if (s[i].has_sol) {
                qn_buf_adds(b, ", \"solution\": ");
                if (variant) {
                    int c;
                    qn_buf_addc(b, '"');
                    for (c = 0; c < l->ncells; c++)
                        qn_buf_addc(b, "0123456789abcdefghijklmnopqrstuvwxyz"
                                           [s[i].sol[c]]);
                    qn_buf_addc(b, '"');
                } else {
                    add_cells_json(b, s[i].sol, l->ncells);
                }
            }
            if (s[i].has_min)
                qn_buf_addf(b, ", \"min_presses\": %llu",
                            (unsigned long long)s[i].min);
            qn_buf_adds(b, "}");
            if (fmt == QN_SUBMIT_JSONL)
                qn_buf_adds(b, variant ? "\r\n" : "\n");
        }
    }
    if (fmt == QN_SUBMIT_JSON)
        qn_buf_adds(b, "\n]\n");
}

static FILE *mem_input(const char *data, size_t n)
{
    FILE *f = tmpfile();

    if (!f)
        return NULL;
    if (n)
        fwrite(data, 1, n, f);
    rewind(f);
    return f;
}

static void test_round_trips(void)
{
    static const qn_submit_format fmts[] = {QN_SUBMIT_TEXT, QN_SUBMIT_JSONL,
                                            QN_SUBMIT_CSV, QN_SUBMIT_JSON};
    /* 4 x 3 with a hole in the middle of row 1; k = 3 and k = 36. */
    static const uint8_t active[12] = {1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1};
    static const unsigned ks[] = {3, 36};
    uint64_t seed = 42;
    size_t fi, ki;
    int variant;

    for (ki = 0; ki < 2; ki++) {
        qn_layout l = {0};
        unsigned k = ks[ki];
        sample s[20];
        int i, c;
        T_EQ(qn_layout_init_grid(&l, 4, 3, 0, active, NULL), QN_OK);
        for (i = 0; i < 20; i++) {
            for (c = 0; c < l.ncells; c++) {
                s[i].cells[c] = (uint8_t)(t_rand(&seed) % k);
                s[i].sol[c] = (uint8_t)(t_rand(&seed) % k);
            }
            s[i].has_sol = (int)(t_rand(&seed) % 2);
            s[i].has_min = (int)(t_rand(&seed) % 2);
            s[i].min =
                i == 3 ? UINT64_C(9223372036854775807) : t_rand(&seed) % 1000;
            snprintf(s[i].id, sizeof(s[i].id), "p%d", i);
        }
        for (fi = 0; fi < 4; fi++) {
            for (variant = 0; variant < 2; variant++) {
                qn_buf b = QN_BUF_INIT;
                qn_submit_reader *r = NULL;
                const qn_submission *rec;
                qn_err err = QN_ERR_INIT;
                FILE *in;
                int n = 0, bad = 0, rc;
                qn_submit_format f = fmts[fi];
                write_samples(&b, &l, s, 20, f, variant);
                in = mem_input(b.buf, b.len);
                T_EQ(qn_submit_open(&r, in, "rt", &l, k,
                                    variant ? f : QN_SUBMIT_AUTO, &err),
                     QN_OK);
                T_EQ(qn_submit_detected(r), f);
                while ((rc = qn_submit_next(r, &rec, &err)) == 1) {
                    const sample *x = &s[n < 20 ? n : 19];
                    if (!rec->ok) {
                        if (bad++ < 3)
                            T_FAILF("%s/%d k=%u record %d: %d:%d: %s",
                                    qn_submit_format_name(f), variant, k, n + 1,
                                    rec->err.line, rec->err.col, rec->err.msg);
                    } else if (memcmp(rec->cells, x->cells, (size_t)l.ncells) !=
                                   0 ||
                               rec->seq != (uint64_t)n + 1) {
                        bad++;
                        T_FAILF("%s/%d: record %d cells differ",
                                qn_submit_format_name(f), variant, n + 1);
                    } else if (f != QN_SUBMIT_TEXT &&
                               (rec->has_solution != x->has_sol ||
                                rec->has_min != x->has_min ||
                                (x->has_min && rec->min_presses != x->min) ||
                                (x->has_sol && memcmp(rec->solution, x->sol,
                                                      (size_t)l.ncells) != 0) ||
                                strncmp(rec->id, x->id, strlen(x->id)) != 0)) {
                        bad++;
                        T_FAILF("%s/%d: record %d extras differ (id %s)",
                                qn_submit_format_name(f), variant, n + 1,
                                rec->id);
                    }
                    n++;
                }
                T_EQ(rc, 0);
                T_EQ(n, 20);
                T_EQ(bad, 0);
                qn_submit_close(r);
                fclose(in);
                qn_buf_release(&b);
            }
        }
        /* The whole-document single state, and qn_submit_parse_state. */
        {
            qn_buf b = QN_BUF_INIT;
            qn_submit_reader *r = NULL;
            const qn_submission *rec;
            qn_err err = QN_ERR_INIT;
            uint8_t cells[64];
            FILE *in;
            add_cells_json(&b, s[0].cells, l.ncells);
            in = mem_input(b.buf, b.len);
            T_EQ(qn_submit_open(&r, in, "rt", &l, k, QN_SUBMIT_AUTO, &err),
                 QN_OK);
            T_EQ(qn_submit_detected(r), QN_SUBMIT_JSON);
            T_EQ(qn_submit_next(r, &rec, &err), 1);
            T_CHECK(rec->ok &&
                    memcmp(rec->cells, s[0].cells, (size_t)l.ncells) == 0);
            T_EQ(qn_submit_next(r, &rec, &err), 0);
            qn_submit_close(r);
            fclose(in);
            memset(cells, 0xff, sizeof(cells));
            T_EQ(qn_submit_parse_state(cells, &l, k, b.buf, b.len, &err),
                 QN_OK);
            T_CHECK(memcmp(cells, s[0].cells, (size_t)l.ncells) == 0);
            qn_buf_reset(&b);
            qn_state_format(&b, &l, s[1].cells, '\n');
            memset(cells, 0xff, sizeof(cells));
            T_EQ(qn_submit_parse_state(cells, &l, k, b.buf, b.len, &err),
                 QN_OK);
            T_CHECK(memcmp(cells, s[1].cells, (size_t)l.ncells) == 0);
            qn_buf_release(&b);
        }
        qn_layout_release(&l);
    }
}

static long count_records(FILE *in, const qn_layout *l, unsigned k,
                          qn_submit_format fmt, long *nbad, int *rc_out,
                          qn_buf *first_errors);

/*
 * Many multi-line records (CSV cells with newlines, pretty-printed JSON),
 * so records straddle the reader's block boundaries.
 */
static void test_boundaries(void)
{
    static const qn_submit_format fmts[] = {QN_SUBMIT_JSONL, QN_SUBMIT_CSV,
                                            QN_SUBMIT_JSON};
    qn_layout l = {0};
    uint64_t seed = 9;
    sample s[7];
    size_t fi;
    int i, c;

    qn_layout_init_grid(&l, 7, 5, 0, NULL, NULL);
    for (i = 0; i < 7; i++) {
        for (c = 0; c < l.ncells; c++) {
            s[i].cells[c] = (uint8_t)(t_rand(&seed) % 5);
            s[i].sol[c] = (uint8_t)(t_rand(&seed) % 5);
        }
        s[i].has_sol = s[i].has_min = 1;
        s[i].min = (uint64_t)i;
        snprintf(s[i].id, sizeof(s[i].id), "b%d", i);
    }
    for (fi = 0; fi < 3; fi++) {
        qn_buf one = QN_BUF_INIT, b = QN_BUF_INIT, errs = QN_BUF_INIT;
        const char *body;
        long n, nbad, copies = 20000;
        int rc;
        FILE *in;
        write_samples(&one, &l, s, 7, fmts[fi], 1);
        body = one.buf;
        if (fmts[fi] == QN_SUBMIT_CSV) {
            body = strchr(one.buf, '\n') + 1;
            qn_buf_add(&b, one.buf, (size_t)(body - one.buf));
        }
        if (fmts[fi] == QN_SUBMIT_JSON) {
            /* "[\n" + records + "\n]\n": repeat the records only */
            size_t len = strlen(one.buf) - 4;
            qn_buf_adds(&b, "[");
            for (i = 0; i < copies; i++) {
                qn_buf_add(&b, one.buf + 1, len);
                qn_buf_adds(&b, i + 1 < copies ? "," : "]");
            }
        } else {
            for (i = 0; i < copies; i++)
                qn_buf_adds(&b, body);
        }
        in = mem_input(b.buf, b.len);
        n = count_records(in, &l, 5, fmts[fi], &nbad, &rc, &errs);
        fclose(in);
        if (n != 7 * copies || nbad != 0 || rc != 0)
            T_FAILF("boundaries %s: %ld records, %ld bad, rc %d\n%s",
                    qn_submit_format_name(fmts[fi]), n, nbad, rc, errs.buf);
        else
            t_pass++;
        qn_buf_release(&one);
        qn_buf_release(&b);
        qn_buf_release(&errs);
    }
    qn_layout_release(&l);
}

/* ---- single states from the command line -------------------------------- */

static void expect_parse(const qn_layout *l, unsigned k, const char *text,
                         int code, int line, int col, const char *msg)
{
    uint8_t cells[64];
    qn_err err = QN_ERR_INIT;
    int rc = qn_submit_parse_state(cells, l, k, text, strlen(text), &err);

    if (rc != code || (code != QN_OK && (err.line != line || err.col != col ||
                                         strcmp(err.msg, msg) != 0)))
        T_FAILF("parse_state(%s): got %d %d:%d: %s; want %d %d:%d: %s", text,
                rc, err.line, err.col, err.msg, code, line, col, msg);
    else
        t_pass++;
}

static void test_parse_state(void)
{
    qn_layout l = {0};

    qn_layout_init_grid(&l, 3, 2, 0, NULL, NULL);
    expect_parse(&l, 2, "101/010", QN_OK, 0, 0, "");
    expect_parse(&l, 2, " [1,0,1,0,1,0] ", QN_OK, 0, 0, "");
    expect_parse(&l, 2, "101\n010\n", QN_OK, 0, 0, "");
    expect_parse(&l, 2, "[1,0,1,0,1]", QN_ESYNTAX, 1, 11,
                 "expected 6 cells, got 5");
    expect_parse(&l, 2, "[1,0,1,0,1,0,1]", QN_ESYNTAX, 1, 14,
                 "expected 6 cells, got 7");
    expect_parse(&l, 2, "[1,0,2,0,1,0]", QN_ESYNTAX, 1, 6,
                 "state value 2 at index 2 must be 0..1");
    expect_parse(&l, 2, "[1,0,-1,0,1,0]", QN_ESYNTAX, 1, 6,
                 "state value -1 at index 2 must be 0..1");
    expect_parse(&l, 2, "[1,0,\"1\",0,1,0]", QN_ESYNTAX, 1, 6,
                 "state value at index 2 must be an integer, got a string");
    expect_parse(&l, 2, "[1,0,1,0,1,0", QN_ESYNTAX, 1, 13,
                 "invalid JSON: ']' expected near end of file");
    expect_parse(&l, 2, "[1,0,1 0,1,0]", QN_ESYNTAX, 1, 8,
                 "invalid JSON: ']' expected near '0'");
    expect_parse(&l, 2, "[[[[[[[[[1]]]]]]]]]", QN_ELIMIT, 1, 9,
                 "JSON nested deeper than 8 levels");
    expect_parse(&l, 2, "[1,0,1,0,1,0]x", QN_ESYNTAX, 1, 14,
                 "invalid JSON: end of file expected near 'x'");
    expect_parse(&l, 2, "[1,0,\xff]", QN_ESYNTAX, 1, 6, "invalid UTF-8");
    expect_parse(&l, 2, "1*1/010", QN_ESYNTAX, 1, 2,
                 "bad character '*' in state");
    expect_parse(&l, 2, "1x1/010", QN_ESYNTAX, 1, 2,
                 "value 'x' (33) must be less than colours (2)");
    qn_layout_release(&l);
}

/* ---- metadata and quench-pack documents --------------------------------- */

static void add_repeat(qn_buf *b, char c, size_t n);

/* The one record of `data`: its metadata into meta (or "-" when it has
 * none, "!" when malformed). Returns the record count. */
static long one_meta(const char *data, size_t n, const qn_layout *l,
                     qn_submit_format fmt, qn_buf *meta)
{
    qn_submit_reader *r = NULL;
    const qn_submission *rec;
    qn_err err = QN_ERR_INIT;
    FILE *in = mem_input(data, n);
    long count = 0;

    qn_buf_reset(meta);
    if (qn_submit_open(&r, in, "m", l, 2, fmt, &err) == QN_OK) {
        while (qn_submit_next(r, &rec, &err) == 1) {
            if (count++ > 0)
                continue;
            if (!rec->ok)
                qn_buf_addf(meta, "!%s", rec->err.msg);
            else if (rec->meta && strlen(rec->meta) == rec->meta_len)
                qn_buf_add(meta, rec->meta, rec->meta_len);
            else
                qn_buf_adds(meta, "-");
        }
    }
    qn_submit_close(r);
    fclose(in);
    return count;
}

/*
 * Fields quench does not read are metadata, up to the limits of the input:
 * QN_SUBMIT_MAX_COLUMNS CSV columns, a record of QN_SUBMIT_MAX_LINE bytes
 * (so no other cap on the metadata).
 */
static void test_metadata(void)
{
    qn_layout l = {0};
    qn_buf in = QN_BUF_INIT, want = QN_BUF_INIT, got = QN_BUF_INIT;
    const char *state = "10101/01010/10101/01010/10101";
    size_t big;
    int i;

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);
    /* the most columns a header may have: state and 1023 others */
    qn_buf_adds(&in, "state");
    for (i = 0; i + 1 < QN_SUBMIT_MAX_COLUMNS; i++)
        qn_buf_addf(&in, ",c%d", i);
    qn_buf_addf(&in, "\n%s", state);
    qn_buf_adds(&want, "{");
    for (i = 0; i + 1 < QN_SUBMIT_MAX_COLUMNS; i++) {
        qn_buf_addf(&in, ",v%d", i);
        qn_buf_addf(&want, "%s\"c%d\":\"v%d\"", i ? "," : "", i, i);
    }
    qn_buf_adds(&in, "\n");
    qn_buf_adds(&want, "}");
    T_CHECK(one_meta(in.buf, in.len, &l, QN_SUBMIT_CSV, &got) == 1);
    T_CHECK(strcmp(got.buf, want.buf) == 0);

    /* a JSONL record of exactly the line limit, nearly all metadata */
    qn_buf_reset(&in);
    qn_buf_addf(&in, "{\"state\":\"%s\",\"blob\":\"", state);
    big = (size_t)QN_SUBMIT_MAX_LINE - in.len - 2;
    add_repeat(&in, 'x', big);
    qn_buf_adds(&in, "\"}");
    T_CHECK(in.len == (size_t)QN_SUBMIT_MAX_LINE);
    qn_buf_adds(&in, "\n");
    qn_buf_reset(&want);
    qn_buf_adds(&want, "{\"blob\":\"");
    add_repeat(&want, 'x', big);
    qn_buf_adds(&want, "\"}");
    T_CHECK(one_meta(in.buf, in.len, &l, QN_SUBMIT_JSONL, &got) == 1);
    T_CHECK(got.len == want.len && strcmp(got.buf, want.buf) == 0);

    qn_buf_release(&in);
    qn_buf_release(&want);
    qn_buf_release(&got);
    qn_layout_release(&l);
}

/*
 * A quench-pack document is streamed like an array: members of any size
 * before the puzzles ("rules" here is over the 1 MiB element limit and the
 * 2 MiB read buffer) are skipped unread, and every puzzle, across block
 * boundaries, is one record.
 */
static void test_pack_document(void)
{
    qn_layout l = {0};
    qn_buf b = QN_BUF_INIT, errs = QN_BUF_INIT;
    long n, nbad, npuzzles = 50000, i;
    int rc;
    FILE *in;

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);
    qn_buf_adds(&b, "{\"format\":\"quench-pack\",\"format_version\":1,"
                    "\"rules\":[{\"name\":\"");
    add_repeat(&b, 'r', (size_t)5 << 20);
    qn_buf_adds(&b, "\",\"cells\":[[[[[[[[[[[[1]]]]]]]]]]]]}],\"puzzles\":[");
    for (i = 0; i < npuzzles; i++)
        qn_buf_addf(&b,
                    "%s{\"id\":%ld,\"state\":[1,0,1,0,1,0,1,0,1,0,1,0,"
                    "1,0,1,0,1,0,1,0,1,0,1,0,%ld]}",
                    i ? "," : "", i + 1, i % 2);
    qn_buf_adds(&b, "],\"pack\":{\"name\":\"p\"}}\n");
    in = mem_input(b.buf, b.len);
    n = count_records(in, &l, 2, QN_SUBMIT_AUTO, &nbad, &rc, &errs);
    fclose(in);
    if (n != npuzzles || nbad != 0 || rc != 0)
        T_FAILF("pack document: %ld records, %ld bad, rc %d\n%s", n, nbad, rc,
                errs.buf);
    else
        t_pass++;
    qn_buf_release(&b);
    qn_buf_release(&errs);
    qn_layout_release(&l);
}

/* ---- monsters ----------------------------------------------------------- */

/* Read everything; return the record count, and the malformed ones. */
static long count_records(FILE *in, const qn_layout *l, unsigned k,
                          qn_submit_format fmt, long *nbad, int *rc_out,
                          qn_buf *first_errors)
{
    qn_submit_reader *r = NULL;
    const qn_submission *rec;
    qn_err err = QN_ERR_INIT;
    long n = 0;
    int rc;

    *nbad = 0;
    if (qn_submit_open(&r, in, "m", l, k, fmt, &err) != QN_OK)
        return -1;
    while ((rc = qn_submit_next(r, &rec, &err)) == 1) {
        n++;
        if (rec->seq != (uint64_t)n)
            T_FAILF("seq %llu at record %ld", (unsigned long long)rec->seq, n);
        if (!rec->ok) {
            if (first_errors && *nbad < 4)
                qn_buf_addf(first_errors, "%s@%d:%d %d:%d: %s\n", rec->id,
                            rec->line, rec->col, rec->err.line, rec->err.col,
                            rec->err.msg);
            (*nbad)++;
            if (rec->err.line < 1 || rec->err.col < 1 || !rec->err.msg[0])
                T_FAILF("unlocated error at record %ld", n);
        }
    }
    if (rc < 0 && first_errors)
        qn_buf_addf(first_errors, "fatal %d:%d: %s\n", err.line, err.col,
                    err.msg);
    *rc_out = rc;
    qn_submit_close(r);
    return n;
}

static void add_repeat(qn_buf *b, char c, size_t n)
{
    if (qn_buf_grow(b, n))
        return;
    memset(b->buf + b->len, c, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

static void test_huge(void)
{
    qn_layout l = {0};
    size_t max = QN_SUBMIT_MAX_LINE;
    const char *st = "10101/01010/10101/01010/10101";
    qn_buf b = QN_BUF_INIT, errs = QN_BUF_INIT;
    long n, nbad;
    int rc;
    FILE *in;

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);

    /* TEXT: ok, 3 MiB of junk, a line of exactly the limit, one over
     * (with CRLF: the CR does not count), ok. */
    qn_buf_addf(&b, "%s\n", st);
    add_repeat(&b, 'x', 3 * max);
    qn_buf_addc(&b, '\n');
    add_repeat(&b, ' ', max - strlen(st));
    qn_buf_addf(&b, "%s\r\n", st);
    add_repeat(&b, ' ', max + 1 - strlen(st));
    qn_buf_addf(&b, "%s\r\n%s", st, st);
    in = mem_input(b.buf, b.len);
    n = count_records(in, &l, 2, QN_SUBMIT_AUTO, &nbad, &rc, &errs);
    fclose(in);
    T_EQ(n, 5);
    T_EQ(nbad, 2);
    T_EQ(rc, 0);
    T_CHECK(strcmp(errs.buf,
                   "2@2:1 2:1: line longer than 1048576 bytes\n"
                   "4@4:1 4:1: line longer than 1048576 bytes\n") == 0);
    if (strcmp(errs.buf, "2@2:1 2:1: line longer than 1048576 bytes\n"
                         "4@4:1 4:1: line longer than 1048576 bytes\n"))
        fprintf(stderr, "%s", errs.buf);

    /* JSONL: the same shape with a string value 2 MiB long. */
    qn_buf_reset(&b);
    qn_buf_reset(&errs);
    qn_buf_addf(&b, "{\"state\":\"%s\"}\n{\"id\":\"", st);
    add_repeat(&b, 'y', 2 * max);
    qn_buf_addf(&b, "\",\"state\":\"%s\"}\n{\"state\":\"%s\"}\n", st, st);
    in = mem_input(b.buf, b.len);
    n = count_records(in, &l, 2, QN_SUBMIT_AUTO, &nbad, &rc, &errs);
    fclose(in);
    T_EQ(n, 3);
    T_EQ(nbad, 1);
    T_EQ(rc, 0);
    T_CHECK(strcmp(errs.buf, "2@2:1 2:1: line longer than 1048576 bytes\n") ==
            0);

    /* CSV: a quoted field that never closes swallows lines up to the
     * limit, then reading resumes. */
    qn_buf_reset(&b);
    qn_buf_reset(&errs);
    qn_buf_addf(&b, "id,state\na,%s\nb,\"", st);
    for (n = 0; n < 40000; n++)
        qn_buf_adds(&b, "junk junk junk junk junk junk\n");
    qn_buf_addf(&b, "c,%s\n", st);
    in = mem_input(b.buf, b.len);
    n = count_records(in, &l, 2, QN_SUBMIT_AUTO, &nbad, &rc, &errs);
    fclose(in);
    T_CHECK(n >= 3);
    T_EQ(rc, 0);
    T_CHECK(strncmp(errs.buf, "3@3:1 3:1: CSV record longer than", 33) == 0);

    /* JSON document: an element over the limit, spread over many lines. */
    qn_buf_reset(&b);
    qn_buf_reset(&errs);
    qn_buf_addf(&b, "[{\"state\":\"%s\"},\n {\"id\":\"", st);
    add_repeat(&b, 'z', max);
    qn_buf_addf(&b, "\",\n\"state\":\"%s\"},\n {\"state\":\"%s\"}]\n", st, st);
    in = mem_input(b.buf, b.len);
    n = count_records(in, &l, 2, QN_SUBMIT_AUTO, &nbad, &rc, &errs);
    fclose(in);
    T_EQ(n, 3);
    T_EQ(nbad, 1);
    T_EQ(rc, 0);
    T_CHECK(strcmp(errs.buf,
                   "2@2:2 2:2: JSON element longer than 1048576 bytes\n") == 0);

    qn_buf_release(&b);
    qn_buf_release(&errs);
    qn_layout_release(&l);
}

/* Lines of `data` that a TEXT / JSONL reader must turn into records. */
static long expected_lines(const char *data, size_t n, int jsonl)
{
    long count = 0;
    size_t i = 0;

    while (i < n) {
        const char *nl = memchr(data + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - data) : n, j = i;
        while (j < e && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r'))
            j++;
        if (j < e && (jsonl || data[j] != '#'))
            count++;
        i = e + 1;
    }
    return count;
}

static void test_junk(void)
{
    qn_layout l = {0};
    uint64_t seed = 7;
    static const qn_submit_format fmts[] = {QN_SUBMIT_TEXT, QN_SUBMIT_JSONL,
                                            QN_SUBMIT_CSV, QN_SUBMIT_JSON,
                                            QN_SUBMIT_AUTO};
    int round, fi;

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);
    for (round = 0; round < 12; round++) {
        size_t n = round < 6 ? 300000 : 2000, i;
        char *data = malloc(n);
        for (i = 0; i < n; i++) {
            uint64_t x = t_rand(&seed);
            /* mostly junk; later rounds are mostly plausible characters */
            if (round % 3 == 1)
                data[i] = "01/{}[]\",:\n \\x\r"[x % 16];
            else if (round % 3 == 2)
                data[i] = x % 97 == 0 ? '\n' : (char)(x >> 8);
            else
                data[i] = (char)(x >> 8);
        }
        for (fi = 0; fi < 5; fi++) {
            long nbad, got;
            int rc;
            FILE *in = mem_input(data, n);
            got = count_records(in, &l, 2, fmts[fi], &nbad, &rc, NULL);
            fclose(in);
            if (fmts[fi] == QN_SUBMIT_TEXT || fmts[fi] == QN_SUBMIT_JSONL) {
                long want =
                    expected_lines(data, n, fmts[fi] == QN_SUBMIT_JSONL);
                if (got != want || rc != 0)
                    T_FAILF("junk round %d %s: %ld records, want %ld, rc %d",
                            round, qn_submit_format_name(fmts[fi]), got, want,
                            rc);
                else
                    t_pass++;
            } else {
                T_CHECK(got >= 0);
            }
        }
        free(data);
    }
    qn_layout_release(&l);
}

static long maxrss_kb(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/*
 * A million classic 5x5 lines: through a pipe (popen), every one read,
 * memory flat. The records/s figure is informational only.
 */
static void test_million(void)
{
    qn_layout l = {0};
    qn_submit_reader *r = NULL;
    const qn_submission *rec;
    qn_err err = QN_ERR_INIT;
    long n = 0, nbad = 0, rss0, rss1;
    struct timespec t0, t1;
    double secs;
    uint64_t sum = 0;
    int rc, c;
    FILE *p;

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);
    /* warm the allocator with one reader first, so the rss baseline counts
     * the fixed buffers */
    p = popen("yes 10101/01010/10101/01010/1010x | head -n 1000", "r");
    if (p) {
        count_records(p, &l, 2, QN_SUBMIT_TEXT, &nbad, &rc, NULL);
        T_EQ(nbad, 1000);
        pclose(p);
    }
    nbad = 0;
    rss0 = maxrss_kb();
    p = popen("yes 10101/01010/10101/01010/10101 | head -n 1000000", "r");
    if (!p) {
        T_FAILF("popen failed");
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    T_EQ(qn_submit_open(&r, p, "<pipe>", &l, 2, QN_SUBMIT_AUTO, &err), QN_OK);
    while ((rc = qn_submit_next(r, &rec, &err)) == 1) {
        n++;
        if (!rec->ok)
            nbad++;
        else
            for (c = 0; c < 25; c++)
                sum += rec->cells[c];
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    qn_submit_close(r);
    pclose(p);
    rss1 = maxrss_kb();
    T_EQ(rc, 0);
    T_EQ(n, 1000000);
    T_EQ(nbad, 0);
    T_EQ(sum, 13 * (uint64_t)1000000);
    T_CHECK(rss1 - rss0 < 8 * 1024); /* a few MiB at most */
    secs = (double)(t1.tv_sec - t0.tv_sec) +
           (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("million: %ld text records through a pipe in %.3f s "
           "(%.0f records/s incl. the writer), max rss +%ld KiB\n",
           n, secs, (double)n / secs, rss1 - rss0);
    qn_layout_release(&l);
}

/* Parse speed of each format from an in-memory file (informational). */
static void bench_formats(void)
{
    static const qn_submit_format fmts[] = {QN_SUBMIT_TEXT, QN_SUBMIT_JSONL,
                                            QN_SUBMIT_CSV, QN_SUBMIT_JSON};
    qn_layout l = {0};
    sample s[1];
    size_t fi;
    long want = getenv("QN_SUBMIT_BENCH") ? 1000000 : 100000;

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);
    memset(s, 0, sizeof(s));
    strcpy(s[0].id, "abc");
    s[0].cells[3] = s[0].cells[7] = 1;
    for (fi = 0; fi < 4; fi++) {
        qn_buf b = QN_BUF_INIT, one = QN_BUF_INIT;
        struct timespec t0, t1;
        long i, n, nbad;
        int rc;
        FILE *in;
        write_samples(&one, &l, s, 1, fmts[fi], 0);
        if (fmts[fi] == QN_SUBMIT_CSV) {
            const char *body = strchr(one.buf, '\n') + 1;
            qn_buf_adds(&b, "id,state,solution,min_presses\n");
            for (i = 0; i < want; i++)
                qn_buf_adds(&b, body);
        } else if (fmts[fi] == QN_SUBMIT_JSON) {
            qn_buf_adds(&b, "[");
            for (i = 0; i < want; i++)
                qn_buf_addf(&b,
                            "%s{\"id\":\"abc\",\"state\":"
                            "\"00010/00100/00000/00000/00000\"}",
                            i ? "," : "");
            qn_buf_adds(&b, "]\n");
        } else {
            for (i = 0; i < want; i++)
                qn_buf_add(&b, one.buf, one.len);
        }
        in = mem_input(b.buf, b.len);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        n = count_records(in, &l, 2, fmts[fi], &nbad, &rc, NULL);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        fclose(in);
        T_EQ(n, want);
        T_EQ(nbad, 0);
        printf("bench %-5s: %ld records, %.0f records/s\n",
               qn_submit_format_name(fmts[fi]), n,
               (double)n / ((double)(t1.tv_sec - t0.tv_sec) +
                            (double)(t1.tv_nsec - t0.tv_nsec) / 1e9));
        qn_buf_release(&b);
        qn_buf_release(&one);
    }
    qn_layout_release(&l);
}

/*
 * Inputs that never end (issue #17): /dev/zero read as text, a JSON string
 * that never closes, endless blank lines. The over-long record comes out
 * as soon as its limit is passed, having read at most a buffer past it;
 * then, QN_SUBMIT_MAX_GAP bytes without a record later, the input fails
 * as a whole with QN_ELIMIT. Never does the reader run to the cap.
 */
static void test_endless(void)
{
    static const struct {
        const char *prefix;
        char fill;
        qn_submit_format fmt;
        int nrecs;    /* records before the fatal error */
        int bad_last; /* the last of them is the over-long one */
        const char *why;
    } cases[] = {
        {"10101/01010/10101/01010/10101\n", '\0', QN_SUBMIT_AUTO, 2, 1,
         "line 2 has no end within"},
        {"10101/01010/10101/01010/10101\n", 'y', QN_SUBMIT_TEXT, 2, 1,
         "line 2 has no end within"},
        {"{\"state\":\"", 'y', QN_SUBMIT_JSONL, 1, 1,
         "line 1 has no end within"},
        {"state\n", '1', QN_SUBMIT_CSV, 1, 1, "line 2 has no end within"},
        {"[{\"state\":\"10101/01010/10101/01010/10101\"},{\"id\":\"", ' ',
         QN_SUBMIT_AUTO, 2, 1, "JSON element at 1:44 has no end within"},
        {"[0,", ' ', QN_SUBMIT_JSON, 0, 0, "no submission within"},
        {"[", '\0', QN_SUBMIT_JSON, 0, 0, "no submission within"},
        {"# comments for ever\n", '\n', QN_SUBMIT_TEXT, 0, 0,
         "no submission within"},
    };
    const uint64_t slack = 4 * (uint64_t)QN_SUBMIT_MAX_LINE;
    qn_layout l = {0};

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        t_endless e = {cases[i].prefix, 0, cases[i].fill, 0,
                       4 * (uint64_t)QN_SUBMIT_MAX_GAP};
        qn_submit_reader *r = NULL;
        const qn_submission *rec;
        qn_err err = QN_ERR_INIT;
        FILE *f = t_endless_open(&e);
        int rc, n = 0;

        T_EQ(qn_submit_open(&r, f, "zero", &l, 2, cases[i].fmt, &err), QN_OK);
        while ((rc = qn_submit_next(r, &rec, &err)) == 1) {
            n++;
            if (n == cases[i].nrecs && cases[i].bad_last) {
                T_CHECK(!rec->ok && rec->err.code == QN_ELIMIT);
                if (e.served > e.plen + (uint64_t)QN_SUBMIT_MAX_LINE + slack)
                    T_FAILF("case %zu: the over-long record came after "
                            "%llu bytes",
                            i, (unsigned long long)e.served);
            }
        }
        T_EQ(n, cases[i].nrecs);
        T_EQ(rc, QN_ELIMIT);
        T_EQ(err.code, QN_ELIMIT);
        if (!strstr(err.msg, cases[i].why))
            T_FAILF("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].why);
        T_CHECK(strcmp(err.source, "zero") == 0);
        /* the gap was counted from the last record, not from the start */
        T_CHECK(e.served >= (uint64_t)QN_SUBMIT_MAX_GAP);
        T_CHECK(e.served <= e.plen + (uint64_t)QN_SUBMIT_MAX_LINE +
                                (uint64_t)QN_SUBMIT_MAX_GAP + slack);
        /* and it stays failed */
        T_EQ(qn_submit_next(r, &rec, &err), QN_ELIMIT);
        qn_submit_close(r);
        fclose(f);
    }
    qn_layout_release(&l);
}

/* A stream that cannot be read is a whole-input error, never a record. */
static void test_io_error(void)
{
    qn_layout l = {0};
    qn_submit_reader *r = NULL;
    qn_err err = QN_ERR_INIT;
    FILE *f = fopen("/dev/null", "w");

    qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL);
    if (!f) {
        T_FAILF("cannot open /dev/null");
        return;
    }
    T_EQ(qn_submit_open(&r, f, "wo", &l, 2, QN_SUBMIT_TEXT, &err), QN_EIO);
    T_CHECK(r == NULL);
    T_EQ(err.code, QN_EIO);
    T_CHECK(strncmp(err.msg, "read error: ", 12) == 0);
    T_CHECK(strcmp(err.source, "wo") == 0);
    fclose(f);
    qn_layout_release(&l);
}

int main(void)
{
    test_io_error();
    test_parse_state();
    test_corpus();
    test_round_trips();
    test_boundaries();
    test_metadata();
    test_pack_document();
    test_huge();
    test_endless();
    test_junk();
    test_million();
    bench_formats();
    return t_done();
}
