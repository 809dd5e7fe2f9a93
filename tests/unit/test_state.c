/*
 * test_state.c: the state text format (state.h) and the layouts it is read
 * against: round trips, separators and blanks, hex and masked boards, and
 * every parse error with its exact message and 1-based line:col.
 */
#include "rules/state.h"

#include <string.h>

#include "base/buf.h"
#include "rules/layout.h"
#include "t.h"

static qn_layout grid(int w, int h, const char *mask)
{
    qn_layout l;
    uint8_t act[64];
    int i, rc;

    for (i = 0; mask && i < w * h; i++)
        act[i] = mask[i] == '#';
    rc = qn_layout_init_grid(&l, w, h, 0, mask ? act : NULL, NULL);
    T_EQ(rc, QN_OK);
    return l;
}

/* Parse must fail with exactly this line:col and message. */
static void bad(const qn_layout *l, unsigned k, const char *text, size_t len,
                int line, int col, const char *msg)
{
    uint8_t cells[256];
    qn_err e = QN_ERR_INIT;
    int rc = qn_state_parse(cells, l, k, text, len, &e);

    if (rc != QN_ESYNTAX || e.line != line || e.col != col ||
        strcmp(e.msg, msg))
        T_FAILF("parse of \"%s\": got %d %d:%d '%s', want %d:%d '%s'", text, rc,
                e.line, e.col, e.msg, line, col, msg);
    else
        t_pass++;
}

static void bads(const qn_layout *l, unsigned k, const char *text, int line,
                 int col, const char *msg)
{
    bad(l, k, text, strlen(text), line, col, msg);
}

static void test_basic(void)
{
    qn_layout l = grid(3, 3, NULL);
    uint8_t c[9];
    static const uint8_t want[9] = {1, 0, 1, 0, 1, 0, 1, 1, 0};
    qn_buf b = QN_BUF_INIT;
    const char *spellings[] = {
        "101/010/110",         "101\n010\n110",           "101\n010\n110\n",
        "\n\n101/010/110//\n", " 1 0 1 \r\n\t010\r\n110", "101 / 010 / 110",
    };
    size_t i;

    for (i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
        memset(c, 9, sizeof(c));
        T_EQ(qn_state_parse(c, &l, 2, spellings[i], strlen(spellings[i]), NULL),
             QN_OK);
        T_CHECK(!memcmp(c, want, 9));
    }
    qn_state_format(&b, &l, want, '/');
    T_CHECK(!strcmp(b.buf, "101/010/110"));
    qn_buf_reset(&b);
    qn_state_format(&b, &l, want, '\n');
    T_CHECK(!strcmp(b.buf, "101\n010\n110"));
    qn_buf_release(&b);

    /* Base 36, case-insensitive on input, lowercase on output. */
    T_EQ(qn_state_parse(c, &l, 36, "9aZ/zA0/000", 11, NULL), QN_OK);
    T_EQ(c[0], 9);
    T_EQ(c[1], 10);
    T_EQ(c[2], 35);
    T_EQ(c[3], 35);
    T_EQ(c[4], 10);
    qn_state_format(&b, &l, c, '/');
    T_CHECK(!strcmp(b.buf, "9az/za0/000"));
    qn_buf_release(&b);

    /* Values past 35 in parentheses. */
    T_EQ(qn_state_parse(c, &l, 255, "(254)(36)z/000/00(7)", 20, NULL), QN_OK);
    T_EQ(c[0], 254);
    T_EQ(c[1], 36);
    T_EQ(c[2], 35);
    T_EQ(c[8], 7);
    qn_state_format(&b, &l, c, '/');
    T_CHECK(!strcmp(b.buf, "(254)(36)z/000/007"));
    qn_buf_release(&b);
    /* every cell at its widest: the bound qn_state_put is given holds */
    memset(c, 254, 9);
    qn_state_format(&b, &l, c, '/');
    T_EQ(b.len, 9 * 5 + 2);
    T_CHECK(b.len <= qn_state_format_max(&l));
    qn_buf_release(&b);
    /* leading zeros are just decimal */
    T_EQ(qn_state_parse(c, &l, 255, "(0000254)00/000/000", 19, NULL), QN_OK);
    T_EQ(c[0], 254);
    qn_layout_release(&l);
}

static void test_errors(void)
{
    qn_layout l = grid(3, 3, NULL);

    bads(&l, 2, "101/01/101", 1, 7,
         "row 1 has 2 characters, board rows "
         "have 3");
    bads(&l, 2, "101/0101/101", 1, 8,
         "row 1 has 4 characters, board rows "
         "have 3");
    bads(&l, 2, "101/010/10", 1, 11,
         "row 2 has 2 characters, board rows "
         "have 3");
    bads(&l, 2, "101/010", 1, 8, "state has 2 rows, board has 3");
    bads(&l, 2, "101\n010\n", 2, 4, "state has 2 rows, board has 3");
    bads(&l, 2, "101/010/101/111/000", 1, 13,
         "state has 5 rows, board "
         "has 3");
    bads(&l, 2, "1?1/010/101", 1, 2, "bad character '?' in state");
    bads(&l, 2, "1x1/010/101", 1, 2,
         "value 'x' (33) must be less than "
         "colours (2)");
    bads(&l, 2, "101\n0#0\n101", 2, 2, "bad character '#' in state");
    bads(&l, 2, "121/010/101", 1, 2,
         "value '2' must be less than colours "
         "(2)");
    bads(&l, 3, "101\n0a0\n101", 2, 2,
         "value 'a' (10) must be less than "
         "colours (3)");
    bads(&l, 3, "101/0A0/101", 1, 6,
         "value 'A' (10) must be less than "
         "colours (3)");
    bads(&l, 200, "101/0(200)0/101", 1, 6,
         "value (200) must be less than colours (200)");
    /* a value of any length is read as one, and reported where it is */
    bads(&l, 2, "101/0(99999999999999999999)0/101", 1, 6,
         "value (99999999999999999999) must be less than colours (2)");
    bads(&l, 255, "101/0(4294967297)0/101", 1, 6,
         "value (4294967297) must be less than colours (255)");
    bads(&l, 2, "101/0(1234567890123456789012345678901234567890)0/101", 1, 6,
         "value (123456789012345678901234567890123...) must be less than "
         "colours (2)");
    bads(&l, 200, "101/0(12/101", 1, 6,
         "a decimal value in '(' has no closing ')'");
    bads(&l, 200, "101/0()0/101", 1, 6,
         "'(' must be followed by a decimal value and ')'");
    bads(&l, 200, "101/0(x)0/101", 1, 6,
         "'(' must be followed by a decimal value and ')'");
    bads(&l, 2, "", 1, 1, "state is empty, board has 3 rows");
    bads(&l, 2, " \n / \n", 1, 1, "state is empty, board has 3 rows");
    bads(&l, 2, "101//010/101", 1, 5, "row 1 is empty");
    bads(&l, 2, "1.1/010/101", 1, 2,
         "'.' at row 0, col 1 but the board "
         "has a cell there");
    bad(&l, 2, "10\0001/010/101", 12, 1, 3, "bad byte 0x00 in state");
    bads(&l, 2, "10\xc3\xa9/010/101", 1, 3, "bad byte 0xc3 in state");
    qn_layout_release(&l);
}

static void test_masked(void)
{
    /* A 3 x 3 ring: the centre is a hole. */
    qn_layout l = grid(3, 3, "####.####");
    uint8_t c[8];
    qn_buf b = QN_BUF_INIT;

    T_EQ(l.ncells, 8);
    T_EQ(qn_layout_cell(&l, 1, 1), -1);
    T_EQ(qn_layout_cell(&l, 1, 2), 4);
    T_EQ(qn_state_parse(c, &l, 2, "111/1.0/001", 11, NULL), QN_OK);
    T_EQ(c[3], 1);
    T_EQ(c[4], 0);
    T_EQ(c[7], 1);
    qn_state_format(&b, &l, c, '/');
    T_CHECK(!strcmp(b.buf, "111/1.0/001"));
    qn_buf_release(&b);
    bads(&l, 2, "111/110/001", 1, 6,
         "'1' at row 1, col 1 but the board "
         "has a hole there (write '.')");
    bads(&l, 2, "111/1.0\n0.1", 2, 2,
         "'.' at row 2, col 1 but the board "
         "has a cell there");
    qn_layout_release(&l);
}

static void test_hex(void)
{
    qn_layout l;
    uint8_t c[19];
    qn_buf b = QN_BUF_INIT;
    int i, deg, n6 = 0;

    /* Hexagon of side 2: 7 cells in a 3 x 3 rectangle. */
    T_EQ(qn_layout_init_hexagon(&l, 2, NULL), QN_OK);
    T_EQ(l.ncells, 7);
    T_EQ(qn_state_parse(c, &l, 2, ".10\n101\n01.", 11, NULL), QN_OK);
    T_EQ(c[0], 1);
    T_EQ(c[3], 0);
    T_EQ(c[6], 1);
    qn_state_format(&b, &l, c, '/');
    T_CHECK(!strcmp(b.buf, ".10/101/01."));
    qn_buf_release(&b);
    bads(&l, 2, "110/101/01.", 1, 1,
         "'1' at row 0, col 0 but the board "
         "has a hole there (write '.')");
    /* The centre (cell 3) has six neighbours, all the other cells. */
    for (i = 0, deg = 0; i < 6; i++)
        deg += qn_layout_step(&l, 3, (int[]){1, -1, 0, 0, 1, -1}[i],
                              (int[]){0, 0, 1, -1, -1, 1}[i]) >= 0;
    T_EQ(deg, 6);
    qn_layout_release(&l);

    /* Odd-r rectangle 4 x 3: interior cells have six neighbours. */
    T_EQ(qn_layout_init_hex(&l, 4, 3, NULL, NULL), QN_OK);
    for (i = 0; i < l.ncells; i++) {
        int k;
        for (k = 0, deg = 0; k < 6; k++)
            deg += qn_layout_step(&l, i, (int[]){1, -1, 0, 0, 1, -1}[k],
                                  (int[]){0, 0, 1, -1, -1, 1}[k]) >= 0;
        n6 += deg == 6;
    }
    /* Row 1 is shifted right: its cells at columns 1 and 2 are interior
     * (column 0 lacks a west neighbour and column 3 one to the east). */
    T_EQ(n6, 2);
    /* South-east of (0, 0) is (1, 0); south-east of (1, 0) is (2, 1). */
    T_EQ(qn_layout_step(&l, 0, 0, 1), qn_layout_cell(&l, 1, 0));
    T_EQ(qn_layout_step(&l, qn_layout_cell(&l, 1, 0), 0, 1),
         qn_layout_cell(&l, 2, 1));
    T_EQ(qn_state_parse(c, &l, 2, "1000/0100/0010", 14, NULL), QN_OK);
    qn_layout_release(&l);

    /* Graph: one row of n cells. */
    T_EQ(qn_layout_init_graph(&l, 6, NULL), QN_OK);
    T_EQ(qn_state_parse(c, &l, 8, "012345", 6, NULL), QN_OK);
    T_EQ(c[5], 5);
    bads(&l, 8, "01234", 1, 6, "row 0 has 5 characters, board rows have 6");
    qn_layout_release(&l);
}

static void test_round_trip(void)
{
    uint64_t seed = 12345;
    int iter;

    for (iter = 0; iter < 500; iter++) {
        int w = 1 + (int)(t_rand(&seed) % 8), h = 1 + (int)(t_rand(&seed) % 8);
        unsigned k = 2 + (unsigned)(t_rand(&seed) % 254);
        uint8_t act[64], c[64], d[64];
        qn_layout l;
        qn_buf b = QN_BUF_INIT;
        int i;
        char sep = iter & 1 ? '/' : '\n';

        for (i = 0; i < w * h; i++)
            act[i] = t_rand(&seed) % 4 != 0;
        act[t_rand(&seed) % (uint64_t)(w * h)] = 1;
        if (qn_layout_init_grid(&l, w, h, 0, act, NULL) != QN_OK) {
            T_FAILF("layout %dx%d", w, h);
            continue;
        }
        for (i = 0; i < l.ncells; i++)
            c[i] = (uint8_t)(t_rand(&seed) % k);
        qn_state_format(&b, &l, c, sep);
        if (qn_state_parse(d, &l, k, b.buf, b.len, NULL) != QN_OK ||
            memcmp(c, d, (size_t)l.ncells))
            T_FAILF("round trip %dx%d k=%u: %s", w, h, k, b.buf);
        else
            t_pass++;
        qn_buf_release(&b);
        qn_layout_release(&l);
    }
}

static void test_layout_errors(void)
{
    qn_layout l;
    qn_err e = QN_ERR_INIT;
    uint8_t none[4] = {0, 0, 0, 0};

    T_EQ(qn_layout_init_grid(&l, 0, 5, 0, NULL, &e), QN_EINVAL);
    T_CHECK(!strcmp(e.msg, "board width must be 1..4096, got 0"));
    T_CHECK(l.index == NULL);
    T_EQ(qn_layout_init_grid(&l, 2000, 2000, 0, NULL, &e), QN_EINVAL);
    T_CHECK(!strcmp(e.msg, "board has 4000000 positions, the limit is "
                           "1048576"));
    T_EQ(qn_layout_init_grid(&l, 2, 2, 0, none, &e), QN_EINVAL);
    T_CHECK(!strcmp(e.msg, "board has no cells"));
    T_EQ(qn_layout_init_hexagon(&l, 0, &e), QN_EINVAL);
    T_EQ(qn_layout_init_graph(&l, 0, &e), QN_EINVAL);
    qn_layout_release(&l); /* safe on an empty layout */
    T_EQ(qn_layout_init_hexagon(&l, 3, NULL), QN_OK);
    T_EQ(l.ncells, 19);
    qn_layout_release(&l);
    /* Torus stepping wraps. */
    T_EQ(qn_layout_init_grid(&l, 5, 4, QN_WRAP_BOTH, NULL, NULL), QN_OK);
    T_EQ(qn_layout_step(&l, 0, -1, 0), 4);
    T_EQ(qn_layout_step(&l, 0, 0, -1), 15);
    qn_layout_release(&l);
    T_EQ(qn_layout_init_grid(&l, 5, 4, QN_WRAP_X, NULL, NULL), QN_OK);
    T_EQ(qn_layout_step(&l, 0, -1, 0), 4);
    T_EQ(qn_layout_step(&l, 0, 0, -1), -1);
    qn_layout_release(&l);
}

int main(void)
{
    test_basic();
    test_errors();
    test_masked();
    test_hex();
    test_round_trip();
    test_layout_errors();
    return t_done();
}
