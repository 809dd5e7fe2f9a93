/*
 * test_flip.c: Simon Tatham's Flip game IDs. Known answers are derived by
 * hand from Flip's format (see the comment at the top of src/export/flip_id.c),
 * every shipped rule Flip can express round-trips with random states,
 * refusals carry their exact reason, and the decoder survives truncation,
 * junk and random mutations.
 */
#include "export/flip_id.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "rules/rules.h"
#include "t.h"
#include "trules.h"

/* Encode `state` under `r` and compare with `want` byte for byte. */
static void check_encode(const qn_rules *r, const uint8_t *state,
                         const char *want)
{
    qn_buf b = QN_BUF_INIT;
    qn_err e = QN_ERR_INIT;

    if (qn_flip_encode(&b, r, state, &e) != QN_OK)
        T_FAILF("encode failed: %s", e.msg);
    else if (strcmp(b.buf, want) != 0)
        T_FAILF("encoded '%s', want '%s'", b.buf, want);
    else
        t_pass++;
    qn_buf_release(&b);
}

/* Decode `id` and compare with w x h, quench-orientation matrix `a` (n*n)
 * and grid `g` (n). */
static void check_decode(const char *id, int w, int h, const uint8_t *a,
                         const uint8_t *g)
{
    qn_err e = QN_ERR_INIT;
    uint8_t *m = NULL, *s = NULL;
    int dw, dh;
    size_t n = (size_t)w * (size_t)h;

    if (qn_flip_decode(id, &dw, &dh, &m, &s, &e) != QN_OK) {
        T_FAILF("decode '%.60s' failed: %d:%d: %s", id, e.line, e.col, e.msg);
        return;
    }
    T_EQ(dw, w);
    T_EQ(dh, h);
    if (dw == w && dh == h) {
        T_CHECK(memcmp(m, a, n * n) == 0);
        T_CHECK(memcmp(s, g, n) == 0);
    }
    free(m);
    free(s);
}

/*
 * (a) Hand-derived IDs. Cells are row-major; Flip's matrix row is the
 * pressed cell, bits four to a hex digit, first bit most significant.
 *
 * 2x2, plus stencil (press toggles itself and its orthogonal neighbours),
 * cells 0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1):
 *   press 0 -> 0,1,2 = 1110 = e     press 1 -> 0,1,3 = 1101 = d
 *   press 2 -> 0,2,3 = 1011 = b     press 3 -> 1,2,3 = 0111 = 7
 *   one light at cell 0: 1000 = 8   =>  "2x2:edb7,8"
 * 3x1, plus: press 0 -> 110, press 1 -> 111, press 2 -> 011; the 9 bits
 * 110111011 padded with 000 are 1101 1101 1000 = "dd8"; a light at cell
 * 2 is 001 + 0 = "2"  =>  "3x1:dd8,2".
 * 2x1, a one-way stencil [[0,0],[1,0]] (a press toggles itself and the
 * cell to its right): press 0 -> 11, press 1 -> 01 = 1101 = "d"; lights
 * on both cells = 11 + 00 = "c"  =>  "2x1:d,c". Written the other way
 * round (row = affected cell) it would read "b": this pins the
 * orientation.
 */
static void test_known_answers(void)
{
    static const uint8_t s2x2[4] = {1, 0, 0, 0};
    static const uint8_t a2x2[16] = {1, 1, 1, 0, 1, 1, 0, 1,
                                     1, 0, 1, 1, 0, 1, 1, 1};
    static const uint8_t s3x1[3] = {0, 0, 1};
    static const uint8_t a3x1[9] = {1, 1, 0, 1, 1, 1, 0, 1, 1};
    static const uint8_t s2x1[2] = {1, 1};
    /* quench orientation: A[i*n+j] = pressing j toggles i */
    static const uint8_t a2x1[4] = {1, 0, 1, 1};
    qn_rules *r;

    r = load_text("quench: 1\nname: p2\ncolours: 2\n"
                  "board: {grid: [2, 2]}\npress: {stencil: plus}\n");
    if (r) {
        check_encode(r, s2x2, "2x2:edb7,8");
        qn_rules_free(r);
    }
    check_decode("2x2:edb7,8", 2, 2, a2x2, s2x2);
    check_decode("2x2:EDB7,8", 2, 2, a2x2, s2x2); /* Flip accepts A-F */
    check_decode("2:edb7,8", 2, 2, a2x2, s2x2);   /* lone W means W x W */
    check_decode("2x2c:edb7,8", 2, 2, a2x2, s2x2);

    r = load_text("quench: 1\nname: p3\ncolours: 2\n"
                  "board: {grid: [3, 1]}\npress: {stencil: plus}\n");
    if (r) {
        check_encode(r, s3x1, "3x1:dd8,2");
        qn_rules_free(r);
    }
    check_decode("3x1:dd8,2", 3, 1, a3x1, s3x1);

    r = load_text("quench: 1\nname: oneway\ncolours: 2\n"
                  "board: {grid: [2, 1]}\n"
                  "press: {stencil: [[0, 0], [1, 0]]}\n");
    if (r) {
        T_CHECK(memcmp(qn_rules_matrix(r), a2x1, 4) == 0);
        check_encode(r, s2x1, "2x1:d,c");
        qn_rules_free(r);
    }
    check_decode("2x1:d,c", 2, 1, a2x1, s2x1);
    check_decode("2x1r:d,c", 2, 1, a2x1, s2x1);
}

/*
 * (c) Flip's CROSSES generator sets matrix[i*wh+j] = 1 iff
 * |jx-ix| + |jy-iy| <= 1. For 3x3 its nine rows are
 *   110100000 111010000 011001000 100110100 010111010
 *   001011001 000100110 000010111 000001011
 * which, 81 bits padded to 84, read d074191345d1644c17058 (checked by
 * hand for the first digits: 1101 0000 0111 0100 0001 1001 = d07419,
 * and all of it by an independent Python transcription of the rule).
 * classic-3x3 must encode to exactly this matrix; the 5x5 string is the
 * same rule for classic-5x5 (Flip's default 5x5c).
 */
static void test_crosses(void)
{
    static const uint8_t one[9] = {0, 0, 0, 0, 1, 0, 0, 0, 0};
    static const uint8_t zero25[25] = {0};
    static const char *const cross5 =
        "5x5:c400007100001c4000071000018400043100011c400047100011c4000461"
        "00010c400047100011c4000471000118400043100011c400047100011c40004"
        "6100010c000047000011c0000470000118,0000000";
    uint8_t *m = NULL, *g = NULL;
    qn_err e = QN_ERR_INIT;
    qn_rules *r;
    int w, h;

    r = load("rules/classic-3x3.yaml");
    if (r) {
        check_encode(r, one, "3x3:d074191345d1644c17058,080");
        T_EQ(qn_flip_diagram_complete(r), 1);
        if (qn_flip_decode("3x3:d074191345d1644c17058,080", &w, &h, &m, &g,
                           &e) == QN_OK) {
            T_CHECK(memcmp(m, qn_rules_matrix(r), 81) == 0);
            T_CHECK(memcmp(g, one, 9) == 0);
        } else {
            T_FAILF("decode: %s", e.msg);
        }
        free(m);
        free(g);
        qn_rules_free(r);
    }
    r = load("rules/classic-5x5.yaml");
    if (r) {
        check_encode(r, zero25, cross5);
        qn_rules_free(r);
    }
}

/*
 * Every shipped rule Flip can express round-trips: encode, decode, and
 * get back the rule's matrix and the state, for random states.
 */
static void test_round_trip(void)
{
    static const char *const ok[] = {
        "rules/classic-3x3.yaml",      "rules/classic-5x5.yaml",
        "rules/classic-7x7.yaml",      "rules/classic-9x9.yaml",
        "rules/whack-a-mole-4x4.yaml", "rules/torus-5x5.yaml",
        "rules/quatrainment.yaml",     "rules/merlin.yaml",
        "rules/moore-6x6.yaml",        "rules/sigma-5x5.yaml",
    };
    uint64_t seed = 7;
    size_t f;

    for (f = 0; f < sizeof ok / sizeof ok[0]; f++) {
        qn_rules *r = load(ok[f]);
        const qn_layout *l;
        qn_err e = QN_ERR_INIT;
        uint8_t st[81];
        int n, t, i;

        if (!r)
            continue;
        l = qn_rules_layout(r);
        n = qn_rules_ncells(r);
        T_EQ(qn_flip_can_express(r, &e), QN_OK);
        for (t = 0; t < 20 && n <= 81; t++) {
            qn_buf b = QN_BUF_INIT;
            uint8_t *m = NULL, *g = NULL;
            int w = 0, h = 0;

            for (i = 0; i < n; i++)
                st[i] = (uint8_t)(t_rand(&seed) & 1);
            if (qn_flip_encode(&b, r, st, &e) != QN_OK) {
                T_FAILF("%s: encode: %s", ok[f], e.msg);
            } else if (qn_flip_decode(b.buf, &w, &h, &m, &g, &e) != QN_OK) {
                T_FAILF("%s: decode '%s': %d: %s", ok[f], b.buf, e.col, e.msg);
            } else if (w != l->w || h != l->h ||
                       memcmp(m, qn_rules_matrix(r), (size_t)n * n) != 0 ||
                       memcmp(g, st, (size_t)n) != 0) {
                T_FAILF("%s: round trip differs for '%s'", ok[f], b.buf);
            } else {
                t_pass++;
            }
            free(m);
            free(g);
            qn_buf_release(&b);
        }
        qn_rules_free(r);
    }

    /* The matrix travels whole, so the torus plays exactly in Flip, but
     * its wrapped effects sit 4 columns away and Flip's tile diagram
     * clips them. */
    {
        qn_rules *r = load("rules/torus-5x5.yaml");

        if (r) {
            T_EQ(qn_flip_diagram_complete(r), 0);
            qn_rules_free(r);
        }
    }
}

/* A refusal: exact code and message, and `out` left unchanged. */
static void check_refused(qn_rules *r, const char *want)
{
    qn_err e = QN_ERR_INIT;
    qn_buf b = QN_BUF_INIT;
    uint8_t st[4096] = {0};

    if (!r)
        return;
    T_EQ(qn_flip_can_express(r, &e), QN_EINVAL);
    if (strcmp(e.msg, want) != 0)
        T_FAILF("message '%s', want '%s'", e.msg, want);
    else
        t_pass++;
    qn_buf_adds(&b, "keep");
    T_EQ(qn_flip_encode(&b, r, st, &e), QN_EINVAL);
    T_CHECK(strcmp(b.buf, "keep") == 0);
    qn_buf_release(&b);
    qn_rules_free(r);
}

static void test_refusals(void)
{
    qn_rules *r;
    qn_err e = QN_ERR_INIT;
    qn_buf b = QN_BUF_INIT;
    uint8_t bad[9] = {0, 0, 2, 0, 0, 0, 0, 0, 0};

    check_refused(load("rules/ring6-mod8.yaml"),
                  "flip has two colours, this rule has 8");
    check_refused(load("rules/lights-out-2000.yaml"),
                  "flip has two colours, this rule has 3");
    check_refused(load("rules/four-colour-10x10.yaml"),
                  "flip has two colours, this rule has 4");
    check_refused(load("rules/hexagon-3.yaml"),
                  "flip needs a rectangular grid board, this rule is on a "
                  "hexagon board");
    check_refused(load("rules/cross-7x7.yaml"),
                  "flip needs every grid position to be a cell, this 7x7 "
                  "board has 16 holes");
    check_refused(load_text("quench: 1\nname: hx\ncolours: 2\n"
                            "board: {hex: [3, 3]}\npress: {stencil: hex}\n"),
                  "flip needs a rectangular grid board, this rule is on a "
                  "hex board");
    check_refused(load_text("quench: 1\nname: g2\ncolours: 2\n"
                            "board: {grid: [2, 2]}\npress: {stencil: plus}\n"
                            "goal: 10/00\n"),
                  "flip's solved state is all lights off, this rule's goal "
                  "is not all zero (cell 0)");

    /* A state value that is not a bit. */
    r = load("rules/classic-3x3.yaml");
    if (r) {
        T_EQ(qn_flip_encode(&b, r, bad, &e), QN_EINVAL);
        T_CHECK(strcmp(e.msg, "state value 2 at cell 2 is not 0 or 1") == 0);
        T_EQ(b.len, 0);
        qn_rules_free(r);
    }
    qn_buf_release(&b);
}

/* A decode failure: exact code and column, outputs left 0/NULL. */
static void check_bad(const char *id, int code, int col)
{
    qn_err e = QN_ERR_INIT;
    uint8_t *m = (uint8_t *)"x", *g = (uint8_t *)"x";
    int w = 9, h = 9, rc;

    rc = qn_flip_decode(id, &w, &h, &m, &g, &e);
    if (rc != code || (col && e.col != col))
        T_FAILF("'%.40s': got %d at col %d (%s), want %d at col %d", id, rc,
                e.col, e.msg, code, col);
    else
        t_pass++;
    T_CHECK(m == NULL && g == NULL && w == 0 && h == 0);
}

static void test_decode_errors(void)
{
    qn_err e = QN_ERR_INIT;

    check_bad("", QN_ESYNTAX, 1);
    check_bad("x2:0,0", QN_ESYNTAX, 1);
    check_bad("2x:edb7,8", QN_ESYNTAX, 3);
    check_bad("2x2", QN_ESYNTAX, 4);
    check_bad("2x2;edb7,8", QN_ESYNTAX, 4);
    check_bad("2x2q:edb7,8", QN_ESYNTAX, 4);
    check_bad("-2x2:edb7,8", QN_ESYNTAX, 1);
    check_bad("0x2:,0", QN_EINVAL, 1);
    check_bad("2x0:,", QN_EINVAL, 1);
    check_bad("2x2:", QN_ESYNTAX, 5);        /* matrix missing */
    check_bad("2x2:edb", QN_ESYNTAX, 8);     /* truncated matrix */
    check_bad("2x2:edb7", QN_ESYNTAX, 9);    /* no comma */
    check_bad("2x2:edb7,", QN_ESYNTAX, 10);  /* grid missing */
    check_bad("2x2:edb78,8", QN_ESYNTAX, 9); /* matrix too long */
    check_bad("2x2:edg7,8", QN_ESYNTAX, 7);  /* bad hex */
    check_bad("2x2:edb7,8 ", QN_ESYNTAX, 11);
    check_bad("2x2:edb7,88", QN_ESYNTAX, 11);
    check_bad("2x2:edb7,8,", QN_ESYNTAX, 11);
    check_bad("2x2:edb7;8", QN_ESYNTAX, 9);
    check_bad("3x1:dd9,2", QN_ESYNTAX, 7); /* matrix padding bit set */
    check_bad("3x1:dd8,3", QN_ESYNTAX, 9); /* grid padding bit set */
    check_bad("3x1:dd8,1", QN_ESYNTAX, 9);
    check_bad("65x64:0,0", QN_ELIMIT, 1);   /* 4160 cells > 4096 */
    check_bad("46341x1:0,0", QN_EINVAL, 1); /* past Flip's own limit */
    check_bad("99999999999999999999x99999999999999999999:0,0", QN_EINVAL, 1);
    check_bad("2147483647x2147483647:0,0", QN_EINVAL, 1);

    /* The largest board quench holds, 64x64 = QN_RULES_MAX_CELLS cells:
     * 4096^2 / 4 matrix digits; one cell more is QN_ELIMIT. */
    {
        size_t mlen = 4096u * 4096u / 4, glen = 4096 / 4;
        char *big = malloc(6 + mlen + 1 + glen + 1);
        uint8_t *m = NULL, *g = NULL;
        int w = 0, h = 0;

        memcpy(big, "64x64:", 6);
        memset(big + 6, '0', mlen);
        big[6 + mlen] = ',';
        memset(big + 7 + mlen, '0', glen);
        big[7 + mlen + glen] = '\0';
        big[6 + mlen - 1] = '1'; /* press 4095 toggles cell 4095 */
        T_EQ(qn_flip_decode(big, &w, &h, &m, &g, &e), QN_OK);
        T_CHECK(w == 64 && h == 64 && m && m[4096u * 4096u - 1] == 1 &&
                m[0] == 0 && g && g[4095] == 0);
        free(m);
        free(g);
        free(big);
    }

    /* The message names the part, as Flip's validate_desc does. */
    {
        uint8_t *m, *g;
        int w, h;

        qn_flip_decode("2x2:edb,8", &w, &h, &m, &g, &e);
        T_CHECK(strcmp(e.msg, "matrix description is wrong length: "
                              "expected 4 hex digits, got 3") == 0);
        T_EQ(e.line, 1);
        qn_flip_decode("2x2:edb7,8x", &w, &h, &m, &g, &e);
        T_CHECK(strcmp(e.msg, "unexpected data after grid description") == 0);
    }

    /* Every prefix of a valid ID but the whole is a clean error. */
    {
        const char *id = "3x3:d074191345d1644c17058,080";
        char buf[64];
        size_t i, len = strlen(id);
        int nok = 0;

        for (i = 0; i < len; i++) {
            uint8_t *m = NULL, *g = NULL;
            int w, h;

            memcpy(buf, id, i);
            buf[i] = '\0';
            if (qn_flip_decode(buf, &w, &h, &m, &g, &e) == QN_OK)
                nok++;
            free(m);
            free(g);
        }
        T_EQ(nok, 0);
    }
}

/*
 * Random mutations of valid IDs (replace, insert, delete, truncate) must
 * decode or fail cleanly; whatever decodes must re-encode to a decodable
 * ID of the same board. Run under ASan/UBSan by `make VARIANT=san`.
 */
static void test_fuzz(void)
{
    static const char *const seeds[] = {
        "2x2:edb7,8", "3x1:dd8,2", "2x1:d,c", "3x3:d074191345d1644c17058,080",
        "1x1:8,0",    "1:0,8",
    };
    static const char alphabet[] = "0123456789abcdefABCDEFxcr:,-+ \n\x7f\xff";
    uint64_t seed = 12345;
    int it, ok = 0, bad = 0;

    for (it = 0; it < 100000; it++) {
        char buf[128];
        const char *s = seeds[t_rand(&seed) % (sizeof seeds / sizeof *seeds)];
        size_t len = strlen(s), nm, k;
        uint8_t *m = NULL, *g = NULL;
        qn_err e = QN_ERR_INIT;
        int w, h, rc;

        memcpy(buf, s, len + 1);
        nm = 1 + t_rand(&seed) % 4;
        for (k = 0; k < nm; k++) {
            unsigned op = (unsigned)(t_rand(&seed) % 4);
            size_t at = len ? t_rand(&seed) % (len + 1) : 0;
            char c = alphabet[t_rand(&seed) % (sizeof alphabet - 1)];

            if (op == 0 && at < len) {
                buf[at] = c;
            } else if (op == 1 && len + 1 < sizeof buf) {
                memmove(buf + at + 1, buf + at, len - at + 1);
                buf[at] = c;
                len++;
            } else if (op == 2 && at < len) {
                memmove(buf + at, buf + at + 1, len - at);
                len--;
            } else {
                buf[at] = '\0';
                len = at;
            }
        }
        rc = qn_flip_decode(buf, &w, &h, &m, &g, &e);
        if (rc == QN_OK) {
            ok++;
            if (!m || !g || w < 1 || h < 1 || w * h > 64)
                T_FAILF("'%s' decoded to %dx%d", buf, w, h);
        } else {
            bad++;
            if ((rc != QN_ESYNTAX && rc != QN_EINVAL && rc != QN_ELIMIT) || m ||
                g || e.col < 1 || e.msg[0] == '\0')
                T_FAILF("'%s': code %d col %d", buf, rc, e.col);
        }
        free(m);
        free(g);
    }
    T_CHECK(ok > 0 && bad > 0);
}

int main(void)
{
    test_known_answers();
    test_crosses();
    test_round_trip();
    test_refusals();
    test_decode_errors();
    test_fuzz();
    return t_done();
}
