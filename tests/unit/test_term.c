/*
 * test_term.c: boards drawn for a terminal (term.h). The expected pictures
 * come from the rule files and the geometry of docs/RULES.md (odd-r hex
 * rows, a hexagon's rows 3-4-5-4-3), the colour decision from no-color.org
 * and clig.dev, never from quench's own output.
 */
#include "export/term.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "rules/rules.h"
#include "t.h"
#include "trules.h"

static int count(const char *s, const char *what)
{
    int n = 0;

    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* Line i (0-based) of s into line[], without its newline. */
static void nth_line(char *line, size_t cap, const char *s, int i)
{
    const char *p = s, *e;

    while (i-- > 0 && (p = strchr(p, '\n')))
        p++;
    line[0] = '\0';
    if (!p)
        return;
    e = strchr(p, '\n');
    if (!e)
        e = p + strlen(p);
    if ((size_t)(e - p) >= cap)
        return;
    memcpy(line, p, (size_t)(e - p));
    line[e - p] = '\0';
}

static void test_when(void)
{
    qn_term_when w = QN_TERM_NEVER;

    T_EQ(qn_term_parse_when("auto", &w), 0);
    T_EQ(w, QN_TERM_AUTO);
    T_EQ(qn_term_parse_when("always", &w), 0);
    T_EQ(w, QN_TERM_ALWAYS);
    T_EQ(qn_term_parse_when("never", &w), 0);
    T_EQ(w, QN_TERM_NEVER);
    T_EQ(qn_term_parse_when("yes", &w), -1);
    T_EQ(qn_term_parse_when("", &w), -1);
    /* auto: a terminal that can show colour, unless NO_COLOR is set */
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 1, "xterm-256color", NULL), 1);
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 0, "xterm-256color", NULL), 0);
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 1, "dumb", NULL), 0);
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 1, NULL, NULL), 0);
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 1, "", NULL), 0);
    /* no-color.org: present and not empty, whatever its value */
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 1, "xterm", "1"), 0);
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 1, "xterm", "0"), 0);
    T_EQ(qn_term_use_colour(QN_TERM_AUTO, 1, "xterm", ""), 1);
    /* a flag overrides the environment */
    T_EQ(qn_term_use_colour(QN_TERM_ALWAYS, 0, NULL, "1"), 1);
    T_EQ(qn_term_use_colour(QN_TERM_NEVER, 1, "xterm", NULL), 0);
}

static void test_grid(void)
{
    qn_rules *r = load("rules/classic-3x3.yaml");
    qn_buf b = QN_BUF_INIT;
    uint8_t st[9] = {1, 0, 1, 0, 1, 0, 1, 0, 1};
    char line[256];

    if (!r)
        return;
    qn_term_board(&b, r, st, 0);
    T_CHECK(!strcmp(b.buf, "1 0 1\n0 1 0\n1 0 1\n"));
    qn_buf_reset(&b);
    qn_term_legend(&b, r, st, 0);
    T_EQ(b.len, 0); /* plain drawings need no legend */
    qn_buf_reset(&b);
    qn_term_caption(&b, r);
    T_CHECK(!strcmp(b.buf, "classic-3x3: 3x3 grid, 2 colours\n"));
    qn_buf_reset(&b);

    /* colour: five lit cells on yellow with a glyph, four off on grey */
    qn_term_board(&b, r, st, 1);
    T_EQ(count(b.buf, "\033[43;30m 1\033[0m"), 5);
    T_EQ(count(b.buf, "\033[100;97m  \033[0m"), 4);
    T_EQ(count(b.buf, "\n"), 3);
    T_EQ(count(b.buf, "\033[0m\n"), 3); /* every line ends reset */
    nth_line(line, sizeof line, b.buf, 1);
    T_CHECK(!strcmp(line, "\033[100;97m  \033[0m\033[43;30m 1\033[0m"
                          "\033[100;97m  \033[0m"));
    qn_buf_reset(&b);
    qn_term_legend(&b, r, st, 1);
    T_CHECK(!strcmp(b.buf, "legend:  \033[100;97m  \033[0m 0  "
                           "\033[43;30m 1\033[0m 1\n"));
    qn_buf_release(&b);
    qn_rules_free(r);
}

static void test_wrap_and_holes(void)
{
    qn_rules *t = load("rules/torus-5x5.yaml");
    qn_rules *c = load_text("quench: 1\nname: cyl\ncolours: 2\n"
                            "board: {grid: [4, 2], wrap: x}\n"
                            "press: {stencil: plus}\n");
    qn_rules *m = load("tests/rules/ok/masked-hole.yaml");
    qn_buf b = QN_BUF_INIT;
    uint8_t st[25] = {0};

    if (t) {
        qn_term_caption(&b, t);
        T_CHECK(strstr(b.buf, "wraps both ways (a torus)") != NULL);
        qn_buf_reset(&b);
    }
    if (c) {
        qn_term_caption(&b, c);
        T_CHECK(strstr(b.buf, "4x2 grid, wraps left-right") != NULL);
        qn_buf_reset(&b);
    }
    if (m) { /* a 3x3 ring around one hole */
        qn_term_board(&b, m, st, 0);
        T_CHECK(!strcmp(b.buf, "0 0 0\n0 . 0\n0 0 0\n"));
        qn_buf_reset(&b);
        qn_term_caption(&b, m);
        T_CHECK(strstr(b.buf, "8 cells ('.' a hole)") != NULL);
    }
    qn_buf_release(&b);
    qn_rules_free(t);
    qn_rules_free(c);
    qn_rules_free(m);
}

/* Leading blanks of line i. */
static int indent(const char *s, int i)
{
    char line[256];

    nth_line(line, sizeof line, s, i);
    return (int)strspn(line, " ");
}

static void test_hex(void)
{
    qn_rules *h = load_text("quench: 1\nname: hx\ncolours: 2\n"
                            "board: {hex: [4, 4]}\npress: {stencil: hex}\n");
    qn_rules *x = load("rules/hexagon-3.yaml");
    qn_buf b = QN_BUF_INIT;
    uint8_t st[19];
    char line[256];
    int len[5] = {3, 4, 5, 4, 3};

    memset(st, 1, sizeof st);
    if (h) { /* odd-r: rows 1 and 3 half a cell (one character) right */
        qn_term_board(&b, h, st, 0);
        for (int r = 0; r < 4; r++)
            T_EQ(indent(b.buf, r), r & 1);
        qn_buf_reset(&b);
        qn_term_board(&b, h, st, 1); /* colour: a cell is 2 columns */
        for (int r = 0; r < 4; r++)
            T_EQ(indent(b.buf, r), r & 1);
        qn_buf_reset(&b);
    }
    if (x) { /* side 3: rows of 3, 4, 5, 4, 3 cells, a hexagon */
        qn_term_board(&b, x, st, 0);
        for (int r = 0; r < 5; r++) {
            nth_line(line, sizeof line, b.buf, r);
            T_EQ(count(line, "1"), len[r]);
            T_EQ(indent(b.buf, r), r < 2 ? 2 - r : r - 2);
        }
        T_EQ(count(b.buf, "."), 0); /* outside the hexagon is not drawn */
    }
    qn_buf_release(&b);
    qn_rules_free(h);
    qn_rules_free(x);
}

static void test_graph(void)
{
    qn_rules *r = load("rules/ring6-mod8.yaml");
    qn_rules *a = load_text("quench: 1\nname: two\ncolours: 5\n"
                            "board: {graph: 2}\n"
                            "effects: {0: [[0, 1], [1, 3]], 1: [[1, 2]]}\n");
    qn_buf b = QN_BUF_INIT;
    uint8_t st[6] = {0, 1, 2, 3, 4, 5};
    char line[256];

    if (r) { /* the ring's effects: cell 0 moves 5, 0 and 1 */
        qn_term_board(&b, r, st, 0);
        T_EQ(count(b.buf, "\n"), 7); /* a header and six cells */
        nth_line(line, sizeof line, b.buf, 1);
        T_CHECK(!strcmp(line, "   0      0  0, 1, 5"));
        nth_line(line, sizeof line, b.buf, 6);
        T_CHECK(!strcmp(line, "   5      5  0, 4, 5"));
        qn_buf_reset(&b);
        qn_term_caption(&b, r);
        T_CHECK(!strcmp(b.buf, "ring6: graph of 6 cells, 8 colours\n"));
        qn_buf_reset(&b);
        /* k = 8: the legend lists every colour, present or not */
        qn_term_legend(&b, r, st, 1);
        T_EQ(count(b.buf, "\033["), 16);
        T_CHECK(strstr(b.buf, "\033[47;30m 7\033[0m 7") != NULL);
        qn_buf_reset(&b);
    }
    if (a) { /* amounts other than 1 are written */
        qn_term_board(&b, a, st, 0);
        nth_line(line, sizeof line, b.buf, 1);
        T_CHECK(!strcmp(line, "   0      0  0, 1 (+3)"));
        nth_line(line, sizeof line, b.buf, 2);
        T_CHECK(!strcmp(line, "   1      1  1 (+2)"));
    }
    qn_buf_release(&b);
    qn_rules_free(r);
    qn_rules_free(a);
}

static void test_many_colours(void)
{
    qn_rules *r = load_text("quench: 1\nname: k40\ncolours: 40\n"
                            "board: {grid: [3, 1]}\n"
                            "press: {stencil: plus}\n");
    qn_buf b = QN_BUF_INIT;
    uint8_t st[3] = {39, 0, 10};

    if (!r)
        return;
    /* plain: fields of two characters, base 36 (39 = "13", 10 = "a") */
    qn_term_board(&b, r, st, 0);
    T_CHECK(!strcmp(b.buf, "13   0   a\n"));
    qn_buf_reset(&b);
    /* colour beyond the palette: 256-colour backgrounds, glyphs kept */
    qn_term_board(&b, r, st, 1);
    T_EQ(count(b.buf, "\033[48;5;"), 2);
    T_CHECK(strstr(b.buf, "m13\033[0m") != NULL);
    T_CHECK(strstr(b.buf, "m a\033[0m") != NULL);
    qn_buf_reset(&b);
    /* the legend lists the values present only, increasing */
    qn_term_legend(&b, r, st, 1);
    T_EQ(count(b.buf, "\033[0m "), 3);
    T_CHECK(strstr(b.buf, "\033[0m 0  ") < strstr(b.buf, "\033[0m 10  "));
    T_CHECK(strstr(b.buf, "\033[0m 39\n") != NULL);
    qn_buf_release(&b);
    qn_rules_free(r);
}

int main(void)
{
    test_when();
    test_grid();
    test_wrap_and_holes();
    test_hex();
    test_graph();
    test_many_colours();
    return t_done();
}
