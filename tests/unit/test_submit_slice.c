/*
 * test_submit_slice.c: a TEXT or JSON Lines input cut into slices
 * (qn_submit_take_slice) and read back by a reader of slices gives every
 * record, error and fatal end exactly as one reader alone does: random
 * mixes of states, comments, blank lines, CRLF, bad bytes, long and
 * over-long lines, a last line without LF, gaps of comments at and past
 * the limit, JSON records with ids, notes, other fields, escapes and
 * quench's own header and pack records, for slice sizes from one byte up
 * and record limits from one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "rules/layout.h"
#include "rules/state.h"
#include "t.h"
#include "validate/submit.h"

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static FILE *input(const qn_buf *b)
{
    FILE *f = tmpfile();

    if (f && b->len)
        fwrite(b->buf, 1, b->len, f);
    if (f)
        rewind(f);
    return f;
}

static void describe(qn_buf *out, const qn_layout *l, const qn_submission *s)
{
    qn_buf_addf(out, "%llu %s %d @%d:%d ", (unsigned long long)s->seq, s->id,
                s->has_id, s->line, s->col);
    if (s->ok) {
        qn_state_format(out, l, s->cells, '/');
        if (s->meta)
            qn_buf_addf(out, " meta=%.*s", (int)s->meta_len, s->meta);
        if (s->has_min)
            qn_buf_addf(out, " min=%llu", (unsigned long long)s->min_presses);
        if (s->has_solution)
            qn_state_format(out, l, s->solution, '/');
    } else {
        qn_buf_addf(out, "%d %s:%d:%d: %s", (int)s->err.code, s->err.source,
                    s->err.line, s->err.col, s->err.msg);
    }
    if (s->note)
        qn_buf_addf(out, " note=%s", s->note);
    qn_buf_addc(out, '\n');
}

static void describe_end(qn_buf *out, qn_submit_reader *r, int rc,
                         const qn_err *err)
{
    if (rc < 0)
        qn_buf_addf(out, "fatal %d %d:%d: %s\n", rc, err->line, err->col,
                    err->msg);
    else
        qn_buf_addf(out, "end %d\n", rc);
    qn_buf_addf(out, "skipped %llu\n",
                (unsigned long long)qn_submit_skipped(r));
}

/* Every record as one reader reads it. */
static qn_submit_format fmt = QN_SUBMIT_TEXT; /* of the inputs made */

static void read_whole(qn_buf *out, const qn_buf *in, const qn_layout *l)
{
    FILE *f = input(in);
    qn_submit_reader *r = NULL;
    const qn_submission *s;
    qn_err err = QN_ERR_INIT;
    int rc;

    T_EQ(qn_submit_open(&r, f, "in", l, 2, fmt, &err), QN_OK);
    while ((rc = qn_submit_next(r, &s, &err)) == 1)
        describe(out, l, s);
    describe_end(out, r, rc, &err);
    qn_submit_close(r);
    fclose(f);
}

/*
 * The same input as slices of `want` bytes and at most max records,
 * each read by the reader of slices from a copy (as another thread
 * would), and the records between them by qn_submit_next. *nslices
 * counts the slices.
 */
static void read_sliced(qn_buf *out, const qn_buf *in, const qn_layout *l,
                        size_t want, int max, long *nslices)
{
    FILE *f = input(in);
    qn_submit_reader *r = NULL, *sr = NULL;
    const qn_submission *s;
    qn_submit_slice sl;
    qn_err err = QN_ERR_INIT;
    int rc = 1;

    T_EQ(qn_submit_open(&r, f, "in", l, 2, fmt, &err), QN_OK);
    T_EQ(qn_submit_open_slices(&sr, r), QN_OK);
    while (rc == 1) {
        if (qn_submit_take_slice(r, want, max, &sl)) {
            char *copy = malloc(sl.n + 1);
            uint64_t got = 0;
            memcpy(copy, sl.p, sl.n);
            if (sl.n > want || sl.records < 1 || sl.records > (uint64_t)max)
                T_FAILF("slice of %zu bytes, %llu records (want %zu, max %d)",
                        sl.n, (unsigned long long)sl.records, want, max);
            qn_submit_read_slice(sr, copy, sl.n, sl.line, sl.seq);
            while (qn_submit_next(sr, &s, &err) == 1) {
                describe(out, l, s);
                got++;
            }
            T_EQ(got, sl.records);
            free(copy);
            (*nslices)++;
            continue;
        }
        if ((rc = qn_submit_next(r, &s, &err)) == 1)
            describe(out, l, s);
    }
    describe_end(out, r, rc, &err);
    qn_submit_close(sr);
    qn_submit_close(r);
    fclose(f);
}

static void add_repeat(qn_buf *b, char c, size_t n)
{
    size_t at = b->len;

    if (qn_buf_grow(b, n))
        return;
    memset(b->buf + at, c, n);
    b->len = at + n;
}

/* One random line of a submission file, its end included (or not). */
static void add_line(qn_buf *b, uint64_t *seed, int last)
{
    static const char *odd[] = {
        "# a comment", "  # indented", "",         "   ", "\t\r", "xyz",
        "0/0/0",       "22222/00000",  "\xff\xfe", "#",   "\r"};
    uint64_t v = rnd(seed);
    int kind = (int)(v % 16);

    if (kind < 9) {
        for (int c = 0; c < 25; c++) {
            if (c && c % 5 == 0)
                qn_buf_addc(b, '/');
            qn_buf_addc(b, (char)('0' + (int)(v >> (8 + c) & 1)));
        }
    } else if (kind < 14) {
        qn_buf_adds(b, odd[(v >> 8) % (sizeof(odd) / sizeof(odd[0]))]);
    } else if (kind < 15) {
        qn_buf_add(b,
                   "01\0"
                   "10",
                   5); /* a NUL byte */
    } else {
        add_repeat(b, (v >> 8) & 1 ? '#' : '0', (size_t)(v >> 16) % 3000);
    }
    if (!last || (v >> 40) % 2)
        qn_buf_adds(b, (v >> 41) % 4 ? "\n" : "\r\n");
}

static const size_t wants[] = {1, 7, 30, 300, 4096, 1 << 15};
static const int maxes[] = {1, 3, 187, 1024};

/* Read in whole and as slices of wants[w0..w1) and maxes[m0..m1). */
static void compare_some(const char *what, const qn_buf *in, const qn_layout *l,
                         size_t w0, size_t w1, size_t m0, size_t m1)
{
    qn_buf whole = QN_BUF_INIT;
    long nslices = 0;

    read_whole(&whole, in, l);
    for (size_t w = w0; w < w1; w++)
        for (size_t m = m0; m < m1; m++) {
            qn_buf got = QN_BUF_INIT;
            read_sliced(&got, in, l, wants[w], maxes[m], &nslices);
            int same = !got.failed && got.len == whole.len &&
                       memcmp(got.buf, whole.buf, got.len) == 0;
            T_CHECK(same);
            if (!same)
                fprintf(stderr,
                        "%s: slices of %zu bytes, %d records: the "
                        "records differ\n",
                        what, wants[w], maxes[m]);
            qn_buf_release(&got);
        }
    /* the slices were taken, not all left to qn_submit_next */
    T_CHECK(in->len < 64 || w1 - w0 == 1 || nslices > 0);
    qn_buf_release(&whole);
}

static void compare(const char *what, const qn_buf *in, const qn_layout *l)
{
    compare_some(what, in, l, 0, sizeof(wants) / sizeof(wants[0]), 0,
                 sizeof(maxes) / sizeof(maxes[0]));
}

static void test_random(const qn_layout *l)
{
    uint64_t seed = 35;

    for (int t = 0; t < 40; t++) {
        qn_buf in = QN_BUF_INIT;
        int lines = (int)(rnd(&seed) % 400);
        char what[32];
        for (int i = 0; i < lines; i++)
            add_line(&in, &seed, i == lines - 1);
        snprintf(what, sizeof(what), "random input %d", t);
        compare(what, &in, l);
        qn_buf_release(&in);
    }
}

/* One random JSON Lines line: records of every kind, quench's own
 * header, summary and pack records, escapes, blank and broken lines. */
static void add_json_line(qn_buf *b, uint64_t *seed, int last)
{
    static const char *odd[] = {
        "{\"type\":\"header\",\"rules\":\"x\"}",
        "{\"type\":\"summary\",\"n\":3}",
        "{\"record\":\"pack\",\"name\":\"p\"}",
        "{\"typ\\u0065\":\"header\"}",
        "{\"type\":\"other\",\"state\":\"0\"}",
        "",
        "   \t",
        "{\"state\"",
        "[1,2]",
        "{\"id\":\"q\"}",
        "{\"id\": 17, \"state\": 5}",
        "not json at all",
        "{\"id\":\"a\\\"b\",\"state\":\"00000/00000/00000/00000/00001\"}",
        "{\"state\":\"00000/00000/00000/00000/00011\",\"rule_hash\":\"00\"}",
    };
    uint64_t v = rnd(seed);
    int kind = (int)(v % 8);
    char st[32];

    for (int c = 0, i = 0; c < 25; c++) {
        if (c && c % 5 == 0)
            st[i++] = '/';
        st[i++] = (char)('0' + (int)(v >> (8 + c) & 1));
        st[i] = '\0';
    }
    if (kind < 3)
        qn_buf_addf(b, "{\"id\":\"r%llu\",\"state\":\"%s\"}",
                    (unsigned long long)(v >> 40), st);
    else if (kind < 4)
        qn_buf_addf(b,
                    "{\"state\":\"%s\",\"author\":{\"n\":%d},"
                    "\"min_presses\":%d,\"Solution\":1}",
                    st, (int)(v >> 50) % 9, (int)(v >> 54) % 20);
    else if (kind < 5)
        qn_buf_addf(b, "{\"type\":\"puzzle\",\"state\":\"%s\"}", st);
    else
        qn_buf_adds(b, odd[(v >> 8) % (sizeof(odd) / sizeof(odd[0]))]);
    if (!last || (v >> 40) % 2)
        qn_buf_adds(b, (v >> 41) % 4 ? "\n" : "\r\n");
}

static void test_jsonl(const qn_layout *l)
{
    uint64_t seed = 36;

    fmt = QN_SUBMIT_JSONL;
    for (int t = 0; t < 30; t++) {
        qn_buf in = QN_BUF_INIT;
        int lines = 1 + (int)(rnd(&seed) % 300);
        char what[32];
        for (int i = 0; i < lines; i++)
            add_json_line(&in, &seed, i == lines - 1);
        snprintf(what, sizeof(what), "random JSON Lines %d", t);
        compare(what, &in, l);
        qn_buf_release(&in);
    }
    fmt = QN_SUBMIT_TEXT;
}

static void test_edges(const qn_layout *l)
{
    static const char *cases[] = {
        "",
        "00000/00000/00000/00000/00001",
        "00000/00000/00000/00000/00001\n",
        "# only a comment",
        "\n\n\n",
        "00000/00000/00000/00000/00001\r\n# c\r\n\r\n10000/00000/00000/"
        "00000/00000",
        "10000/00000/00000/00000/00000\n# trailing comment",
    };
    qn_buf in = QN_BUF_INIT;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        qn_buf_reset(&in);
        qn_buf_adds(&in, cases[i]);
        compare(cases[i], &in, l);
    }
    /* a line over the limit among states: it is one malformed record */
    qn_buf_reset(&in);
    qn_buf_adds(&in, "10000/00000/00000/00000/00000\n");
    add_repeat(&in, '0', (size_t)QN_SUBMIT_MAX_LINE + 7);
    qn_buf_adds(&in, "\n01000/00000/00000/00000/00000\n");
    compare("over-long line", &in, l);
    qn_buf_release(&in);
}

/* Comments without a record for about QN_SUBMIT_MAX_GAP bytes, just
 * under it and past it: the input ends (or not) at the same line. */
static void test_gap(const qn_layout *l)
{
    static const long slack[] = {-4096, 3L << 20};
    qn_buf in = QN_BUF_INIT;

    for (size_t i = 0; i < 2; i++) {
        size_t body = (size_t)((long)QN_SUBMIT_MAX_GAP + slack[i]), done = 0;
        qn_buf_reset(&in);
        qn_buf_adds(&in, "10000/00000/00000/00000/00000\n");
        while (done < body) {
            qn_buf_adds(&in, "#");
            add_repeat(&in, '-', 1022);
            qn_buf_addc(&in, '\n');
            done += 1024;
        }
        qn_buf_adds(&in, "01000/00000/00000/00000/00000\n");
        T_CHECK(!in.failed);
        if (i == 1) { /* the limit is met: past it, the input ends */
            qn_buf whole = QN_BUF_INIT;
            read_whole(&whole, &in, l);
            T_CHECK(whole.len && strstr(whole.buf, "\nfatal ") != NULL);
            qn_buf_release(&whole);
        }
        /* 64 MiB a reading: the largest slices and one small */
        compare_some(slack[i] < 0 ? "a gap under the limit" : "a gap past it",
                     &in, l, 3, 6, 2, 3);
    }
    qn_buf_release(&in);
}

int main(void)
{
    qn_layout l;

    if (qn_layout_init_grid(&l, 5, 5, 0, NULL, NULL) != QN_OK) {
        fprintf(stderr, "layout failed\n");
        return 1;
    }
    test_edges(&l);
    test_random(&l);
    test_gap(&l);
    test_jsonl(&l);
    qn_layout_release(&l);
    return t_done();
}
