/*
 * test_svg.c: the SVG writers. Every document is checked with xmllint
 * (missing xmllint is a failure, not a skip), then structurally: one cell
 * element per active cell, no holes drawn as cells, a glyph for every value
 * present, hex neighbours one cell width apart, one label per sheet item,
 * and hostile text escaped.
 */
#include "export/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "rules/layout.h"
#include "rules/rules.h"
#include "t.h"
#include "trules.h"

#define MAXC 4096

/* Run xmllint --noout on the document; 1 when it is well-formed. */
static int well_formed(const qn_buf *b, const char *what)
{
    char path[] = "/tmp/qn_svg_XXXXXX", cmd[128];
    FILE *f;
    int fd, st, ok;

    if (system("command -v xmllint >/dev/null 2>&1") != 0) {
        T_FAILF("%s: xmllint not found (install libxml2-utils)", what);
        return 0;
    }
    if ((fd = mkstemp(path)) < 0 || !(f = fdopen(fd, "w"))) {
        T_FAILF("%s: cannot create a temp file", what);
        return 0;
    }
    fwrite(b->buf, 1, b->len, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "xmllint --noout --nonet %s", path);
    st = system(cmd);
    ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!ok)
        T_FAILF("%s: xmllint rejects the document (kept in %s)", what, path);
    else
        unlink(path);
    t_pass += ok;
    return ok;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0, len = strlen(needle);

    while ((hay = strstr(hay, needle)) != NULL)
        n++, hay += len;
    return n;
}

/* Every value present has a definition, with its base-36 glyph if > 0. */
static void check_glyphs(const qn_buf *b, const uint8_t *st, int n,
                         const char *what)
{
    static const char d[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    int seen[256] = {0}, i, bad = 0;
    char want[64];

    for (i = 0; i < n; i++)
        seen[st[i]] = 1;
    for (i = 0; i < 256; i++) {
        const char *def;
        if (!seen[i])
            continue;
        snprintf(want, sizeof want, "<g id=\"v%d\">", i);
        if (!(def = strstr(b->buf, want))) {
            T_FAILF("%s: no definition for value %d", what, i);
            bad = 1;
            continue;
        }
        if (i == 0)
            continue;
        if (i < 36)
            snprintf(want, sizeof want, ">%c</text></g>", d[i]);
        else
            snprintf(want, sizeof want, ">%c%c</text></g>", d[i / 36],
                     d[i % 36]);
        if (strncmp(strstr(def, "</g>") - strlen(want) + 4, want,
                    strlen(want)) != 0) {
            T_FAILF("%s: value %d lacks glyph %s", what, i, want);
            bad = 1;
        }
    }
    t_pass += !bad;
}

/*
 * Parse the centres of the class="cell" elements, in emission (= cell)
 * order. Returns how many were found.
 */
static int centres(const qn_buf *b, double *x, double *y, int max)
{
    const char *p = b->buf;
    int n = 0;

    while ((p = strstr(p, "class=\"cell\"")) != NULL) {
        const char *px = strstr(p, " x=\""), *py = strstr(p, " y=\"");
        if (!px || !py || n >= max)
            break;
        x[n] = strtod(px + 4, NULL);
        y[n] = strtod(py + 4, NULL);
        n++;
        p++;
    }
    return n;
}

/* Every <use> centre (cells and holes) lies inside width x height, at
 * least a few pixels from the edge: nothing is clipped. */
static void inside(const qn_buf *b, const char *what)
{
    const char *p = b->buf;
    double w = strtod(strstr(p, " width=\"") + 8, NULL);
    double h = strtod(strstr(p, " height=\"") + 9, NULL);
    int bad = 0;

    while ((p = strstr(p, "<use ")) != NULL) {
        const char *px = strstr(p, " x=\""), *py = strstr(p, " y=\"");
        double x = strtod(px + 4, NULL), y = strtod(py + 4, NULL);
        if ((x < 4 || y < 4 || x > w - 4 || y > h - 4) && !bad++)
            T_FAILF("%s: centre (%g, %g) outside %gx%g", what, x, y, w, h);
        p++;
    }
    t_pass += !bad;
}

static void fill_random(uint8_t *st, int n, unsigned k, uint64_t seed)
{
    int i;

    for (i = 0; i < n; i++)
        st[i] = (uint8_t)(t_rand(&seed) % k);
}

/* Board picture of a shipped rule set with a random state. */
static void board_case(const char *path, int flags, uint64_t seed)
{
    static uint8_t st[MAXC];
    qn_svg_opts o = {0};
    qn_buf b = QN_BUF_INIT;
    qn_rules *r = load(path);
    const qn_layout *l;
    int n;

    if (!r)
        return;
    l = qn_rules_layout(r);
    n = qn_rules_ncells(r);
    fill_random(st, n, qn_rules_colours(r), seed);
    st[0] = 0; /* "off" always present */
    st[n - 1] = (uint8_t)(qn_rules_colours(r) - 1);
    o.flags = flags;
    o.title = qn_rules_title(r);
    qn_svg_board(&b, r, st, &o);
    well_formed(&b, path);
    T_EQ(count(b.buf, "class=\"cell\""), n);
    /* Holes: only grids and hex rectangles, only when asked. */
    T_EQ(count(b.buf, "class=\"hole\""),
         (flags & QN_SVG_HOLES) &&
                 (l->kind == QN_LAYOUT_GRID || l->kind == QN_LAYOUT_HEX)
             ? l->w * l->h - n
             : 0);
    inside(&b, path);
    T_CHECK(strstr(b.buf, "viewBox=\"0 0 ") != NULL);
    T_CHECK(strstr(b.buf, "xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
    check_glyphs(&b, st, n, path);
    qn_buf_release(&b);
    qn_rules_free(r);
}

static void test_boards(void)
{
    board_case("rules/classic-5x5.yaml", 0, 1);
    board_case("rules/four-colour-10x10.yaml", 0, 2);
    board_case("rules/hexagon-3.yaml", 0, 3);
    board_case("rules/hexagon-3.yaml", QN_SVG_HOLES, 3);
    board_case("rules/cross-7x7.yaml", 0, 4);
    board_case("rules/cross-7x7.yaml", QN_SVG_HOLES, 4);
    board_case("rules/ring6-mod8.yaml", 0, 5);
    board_case("rules/ring6-mod8.yaml", QN_SVG_EDGES, 5);
    board_case("rules/lights-out-2000.yaml", 0, 6);
}

static void text_case(const char *yaml, int flags, const char *what)
{
    static uint8_t st[MAXC];
    qn_svg_opts o = {0};
    qn_buf b = QN_BUF_INIT;
    qn_rules *r = load_text(yaml);
    const qn_layout *l;
    int n;

    if (!r)
        return;
    l = qn_rules_layout(r);
    n = qn_rules_ncells(r);
    fill_random(st, n, qn_rules_colours(r), 11);
    o.flags = flags;
    o.title = "a rather long title that must fit the picture";
    qn_svg_board(&b, r, st, &o);
    well_formed(&b, what);
    T_EQ(count(b.buf, "class=\"cell\""), n);
    T_EQ(count(b.buf, "class=\"hole\""),
         flags & QN_SVG_HOLES ? l->w * l->h - n : 0);
    T_CHECK(strtod(strstr(b.buf, " width=\"") + 8, NULL) >= 10.0 * 45);
    inside(&b, what);
    qn_buf_release(&b);
    qn_rules_free(r);
}

static void test_masks(void)
{
    static const char grid[] =
        "quench: 1\nname: m\ncolours: 3\n"
        "board:\n  grid: [4, 4]\n  mask: |\n    ....\n    .##.\n"
        "    .#..\n    ....\npress: {stencil: plus}\n";
    static const char hex[] =
        "quench: 1\nname: h\ncolours: 2\n"
        "board:\n  hex: [4, 3]\n  mask: |\n    .##.\n    ###.\n"
        "    ..#.\npress: {stencil: hex}\n";

    text_case(grid, 0, "masked grid");
    text_case(grid, QN_SVG_HOLES, "masked grid, holes drawn");
    text_case(hex, 0, "masked hex");
    text_case(hex, QN_SVG_HOLES, "masked hex, holes drawn");
}

/* k = 255: two-digit glyphs and the sequential palette. */
static void test_many_colours(void)
{
    static uint8_t st[64];
    qn_buf b = QN_BUF_INIT;
    qn_rules *r = load_text("quench: 1\nname: big\ncolours: 255\n"
                            "board: {grid: [8, 8]}\n"
                            "press: {stencil: plus}\n");
    int i;

    if (!r)
        return;
    for (i = 0; i < 64; i++)
        st[i] = (uint8_t)(i * 4 + (i == 63 ? 2 : 0)); /* 0..254 */
    qn_svg_board(&b, r, st, NULL);
    well_formed(&b, "k=255");
    T_EQ(count(b.buf, "class=\"cell\""), 64);
    check_glyphs(&b, st, 64, "k=255");
    T_CHECK(strstr(b.buf, ">72</text>") != NULL); /* 254 = 7*36 + 2 */
    qn_buf_release(&b);
    qn_rules_free(r);
}

/* Neighbouring hex centres are exactly one cell width apart. */
static void hex_case(qn_rules *r, const char *what)
{
    static const int nb[6][2] = {{1, 0},  {-1, 0}, {0, 1},
                                 {0, -1}, {1, -1}, {-1, 1}};
    static double x[MAXC], y[MAXC];
    static uint8_t st[MAXC];
    qn_svg_opts o = {0};
    qn_buf b = QN_BUF_INIT;
    const qn_layout *l = qn_rules_layout(r);
    int n = qn_rules_ncells(r), i, j, pairs = 0, bad = 0;

    o.cell_px = 30;
    fill_random(st, n, qn_rules_colours(r), 9);
    qn_svg_board(&b, r, st, &o);
    well_formed(&b, what);
    T_EQ(centres(&b, x, y, MAXC), n);
    for (i = 0; i < n; i++)
        for (j = 0; j < 6; j++) {
            int c = qn_layout_step(l, i, nb[j][0], nb[j][1]);
            double d;
            if (c < 0)
                continue;
            d = hypot(x[c] - x[i], y[c] - y[i]);
            pairs++;
            if (fabs(d - 30) > 0.02 && !bad++)
                T_FAILF("%s: cells %d and %d are %.3f apart", what, i, c, d);
        }
    /* ... and non-neighbours are farther (no overlapping hexes). */
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if (hypot(x[j] - x[i], y[j] - y[i]) < 29.9 && !bad++)
                T_FAILF("%s: cells %d and %d overlap", what, i, j);
    T_CHECK(pairs > 0);
    t_pass += !bad;
    qn_buf_release(&b);
}

static void test_hex_geometry(void)
{
    qn_rules *r;

    if ((r = load("rules/hexagon-3.yaml")) != NULL) {
        hex_case(r, "hexagon-3");
        qn_rules_free(r);
    }
    r = load_text("quench: 1\nname: hexrect\ncolours: 3\n"
                  "board: {hex: [5, 4]}\npress: {stencil: hex}\n");
    if (r) {
        T_EQ(qn_rules_layout(r)->kind, QN_LAYOUT_HEX);
        hex_case(r, "hex 5x4");
        qn_rules_free(r);
    }
    /* Squares: right and down neighbours one cell apart too. */
    if ((r = load("rules/classic-5x5.yaml")) != NULL) {
        static double x[25], y[25];
        uint8_t st[25] = {0};
        qn_svg_opts o = {0};
        qn_buf b = QN_BUF_INIT;

        o.cell_px = 20;
        qn_svg_board(&b, r, st, &o);
        T_EQ(centres(&b, x, y, 25), 25);
        T_CHECK(fabs(x[1] - x[0] - 20) < 0.01 && fabs(y[1] - y[0]) < 0.01);
        T_CHECK(fabs(y[5] - y[0] - 20) < 0.01 && fabs(x[5] - x[0]) < 0.01);
        qn_buf_release(&b);
        qn_rules_free(r);
    }
}

static void test_plan(void)
{
    uint8_t st[25] = {0}, plan[25] = {0};
    qn_svg_opts o = {0};
    qn_buf b = QN_BUF_INIT;
    qn_rules *r = load("rules/classic-5x5.yaml");

    if (!r)
        return;
    st[3] = st[7] = 1;
    plan[0] = 1, plan[12] = 1, plan[24] = 3;
    o.plan = plan;
    o.title = "hint";
    qn_svg_board(&b, r, st, &o);
    well_formed(&b, "plan overlay");
    T_EQ(count(b.buf, "class=\"press\""), 3);
    T_CHECK(strstr(b.buf, ">3</text>") != NULL);
    T_EQ(count(b.buf, "class=\"cell\""), 25);
    qn_buf_reset(&b);
    o.plan = NULL;
    qn_svg_board(&b, r, st, &o);
    T_EQ(count(b.buf, "class=\"press\""), 0);
    qn_buf_release(&b);
    qn_rules_free(r);
}

static void test_sheet(void)
{
    enum { N = 200 };
    static uint8_t st[N][25];
    static char ids[N][32];
    static qn_svg_item it[N];
    qn_svg_opts o = {0};
    qn_buf b = QN_BUF_INIT;
    qn_rules *r = load("rules/classic-5x5.yaml");
    int i, missing = 0;

    if (!r)
        return;
    for (i = 0; i < N; i++) {
        fill_random(st[i], 25, 2, 100 + (uint64_t)i);
        snprintf(ids[i], sizeof ids[i], "p%04d", i);
        it[i].id = ids[i];
        it[i].grade = i % 3 ? "easy" : "hard";
        it[i].par = (uint64_t)i % 16;
        it[i].state = st[i];
    }
    it[7].par = QN_SVG_PAR_UNKNOWN;
    it[8].grade = NULL;
    o.columns = 12;
    o.title = "pack <classic> & more";
    qn_svg_sheet(&b, r, N, it, &o);
    well_formed(&b, "200-puzzle sheet");
    T_EQ(count(b.buf, "class=\"label\""), N);
    T_EQ(count(b.buf, "class=\"meta\""), N);
    T_EQ(count(b.buf, "class=\"thumb\""), N);
    T_EQ(count(b.buf, "<use "), N * 25);
    for (i = 0; i < N; i++) {
        char want[96];
        snprintf(want, sizeof want, " font-weight=\"bold\">%.31s</text>",
                 ids[i]);
        if (!strstr(b.buf, want) && !missing++)
            T_FAILF("sheet: no label for %s", ids[i]);
    }
    t_pass += !missing;
    T_CHECK(strstr(b.buf, ">hard, par 15</text>") != NULL);
    T_CHECK(strstr(b.buf, ">easy, par ?</text>") != NULL);
    T_CHECK(strstr(b.buf, ">par 8</text>") != NULL);
    /* Compact: under 1.5 kB per 25-cell thumbnail. */
    T_CHECK(b.len < (size_t)N * 1500);
    qn_buf_release(&b);

    /* Empty sheet, hex and masked sheets with holes. */
    qn_svg_sheet(&b, r, 0, NULL, NULL);
    well_formed(&b, "empty sheet");
    qn_buf_release(&b);
    qn_rules_free(r);
    if ((r = load("rules/cross-7x7.yaml")) != NULL) {
        static uint8_t cs[3][33];
        qn_svg_item ci[3];
        for (i = 0; i < 3; i++) {
            fill_random(cs[i], 33, 2, 7 + (uint64_t)i);
            ci[i].id = "x", ci[i].grade = "g", ci[i].par = 1;
            ci[i].state = cs[i];
        }
        o.flags = QN_SVG_HOLES;
        qn_svg_sheet(&b, r, 3, ci, &o);
        well_formed(&b, "cross sheet");
        T_EQ(count(b.buf, "<use xlink:href"), 3 * 33);
        T_EQ(count(b.buf, "class=\"hole\""), 3 * 16);
        qn_buf_release(&b);
        qn_rules_free(r);
    }
    if ((r = load("rules/hexagon-3.yaml")) != NULL) {
        static uint8_t hs[19];
        qn_svg_item hi = {"hex", NULL, 4, hs};
        fill_random(hs, 19, 2, 5);
        qn_svg_sheet(&b, r, 1, &hi, NULL);
        well_formed(&b, "hexagon sheet");
        T_EQ(count(b.buf, "class=\"label\""), 1);
        qn_buf_release(&b);
        qn_rules_free(r);
    }
}

static void test_escaping(void)
{
    /* <, &, quotes, non-ASCII, then invalid UTF-8: a stray continuation
     * byte, an overlong '<', a surrogate, a truncated sequence, a control
     * character and U+FFFF. */
    static const char hostile[] =
        "<b>&amp;\"x' \xC3\xA9\xE2\x82\xAC\xF0\x9F\x92\xA1 "
        "\x80 \xC0\xBC \xED\xA0\x80 \x01 \xEF\xBF\xBF ]]> \xE2\x82";
    uint8_t st[25] = {0};
    qn_svg_item it = {hostile, hostile, 3, st};
    qn_svg_opts o = {0};
    qn_buf b = QN_BUF_INIT;
    qn_rules *r = load("rules/classic-5x5.yaml");

    qn_svg_escape(&b, "a<b>&\"'");
    T_CHECK(strcmp(b.buf, "a&lt;b&gt;&amp;&quot;&apos;") == 0);
    qn_buf_reset(&b);
    qn_svg_escape(&b, "\xC3\xA9\xC0\xBC\xE2\x82");
    T_CHECK(strcmp(b.buf, "\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                          "\xEF\xBF\xBD") == 0);
    qn_buf_reset(&b);
    qn_svg_escape(&b, NULL);
    T_EQ(b.len, 0);
    if (!r) {
        qn_buf_release(&b);
        return;
    }
    o.title = hostile;
    qn_svg_board(&b, r, st, &o);
    well_formed(&b, "hostile title");
    T_CHECK(strstr(b.buf, "<b>") == NULL);
    T_CHECK(strstr(b.buf, "&lt;b&gt;&amp;amp;&quot;x&apos;") != NULL);
    T_CHECK(strstr(b.buf, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x92\xA1") != NULL);
    qn_buf_reset(&b);
    qn_svg_sheet(&b, r, 1, &it, &o);
    well_formed(&b, "hostile sheet");
    T_EQ(count(b.buf, "class=\"label\""), 1);
    qn_buf_reset(&b);
    {
        uint64_t pc[3] = {1, 2, 3};
        qn_svg_hist h = {pc, 3, NULL, 0, 0, hostile, NULL, NULL, NULL};
        qn_svg_histogram(&b, &h);
        well_formed(&b, "hostile histogram");
    }
    qn_buf_release(&b);
    qn_rules_free(r);
}

static void test_histogram(void)
{
    uint64_t pack[10] = {0, 0, 3, 10, 25, 40, 15, 5, 2, 0};
    uint64_t dist[16] = {1,       25,      300,     2300,    12650,   53130,
                         177100,  480700,  1081575, 2042975, 3268760, 4457400,
                         5200300, 5200300, 4457400, 3268760};
    uint64_t big[200];
    qn_buf b = QN_BUF_INIT;
    const char *xaxis;
    int i;

    qn_svg_hist h = {pack, 10,   dist, 16, 0, "classic 5x5 pack",
                     NULL, NULL, NULL};
    qn_svg_histogram(&b, &h);
    well_formed(&b, "histogram with distribution");
    T_EQ(count(b.buf, "class=\"bar\""), 7); /* non-zero bins */
    T_EQ(count(b.buf, "class=\"dist\""), 1);
    T_CHECK(strstr(b.buf, "share (%)") != NULL);
    T_CHECK(strstr(b.buf, "minimal presses") != NULL);
    T_CHECK(strstr(b.buf, "all solvable states") != NULL);
    T_CHECK(strstr(b.buf, "pack (100 puzzles)") != NULL);
    T_CHECK(strstr(b.buf, "url(#hatch)") != NULL);
    qn_buf_reset(&b);

    h = (qn_svg_hist){pack, 10, NULL, 0, 0, NULL, NULL, NULL, NULL};
    qn_svg_histogram(&b, &h);
    well_formed(&b, "histogram without distribution");
    T_EQ(count(b.buf, "class=\"bar\""), 7);
    T_EQ(count(b.buf, "class=\"dist\""), 0);
    T_CHECK(strstr(b.buf, "all solvable states") == NULL);
    /* without an exact distribution the x axis starts at the pack's
     * first press count (2), not at an empty 0 */
    xaxis = strstr(b.buf, "class=\"xaxis\"");
    T_CHECK(xaxis && strstr(xaxis, ">0</text>") == NULL);
    T_CHECK(xaxis && strstr(xaxis, ">2</text>") != NULL);
    qn_buf_reset(&b);

    /* a sample is named as one */
    h = (qn_svg_hist){pack, 10, pack, 10, 100, NULL, NULL, NULL, NULL};
    qn_svg_histogram(&b, &h);
    well_formed(&b, "histogram against a sample");
    T_CHECK(strstr(b.buf, "a sample of 100 solvable states (not exact)") !=
            NULL);
    T_CHECK(strstr(b.buf, "all solvable states") == NULL);
    qn_buf_reset(&b);

    h = (qn_svg_hist){NULL, 0, NULL, 0, 0, "", NULL, NULL, NULL};
    qn_svg_histogram(&b, &h);
    well_formed(&b, "empty histogram");
    T_CHECK(strstr(b.buf, "no data") != NULL);
    qn_buf_reset(&b);

    for (i = 0; i < 200; i++)
        big[i] = (uint64_t)(i * (200 - i));
    h = (qn_svg_hist){big, 200, big, 200, 0, "wide", NULL, NULL, NULL};
    qn_svg_histogram(&b, &h);
    well_formed(&b, "200-bin histogram");
    T_EQ(count(b.buf, "class=\"bar\""), 199);
    qn_buf_release(&b);
}

int main(void)
{
    test_boards();
    test_masks();
    test_many_colours();
    test_hex_geometry();
    test_plan();
    test_sheet();
    test_escaping();
    test_histogram();
    return t_done();
}
