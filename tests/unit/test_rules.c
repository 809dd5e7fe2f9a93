/*
 * test_rules.c: the rule model and its YAML front end. Shipped rule sets
 * are checked against matrices built here from the games' own rules (not
 * from quench's stencil code), equivalent spellings must agree, symmetry
 * groups are checked by brute force, and every file in tests/rules/bad/
 * must fail with exactly the diagnostic in its .expect file.
 */
#include "rules/rules.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "rules/layout.h"
#include "t.h"
#include "trules.h"

#define MAXN 128

/* Compare a rule set's matrix with want[i * n + j]; report the first
 * difference. */
static void same_matrix(const qn_rules *r, const uint8_t *want, int n,
                        const char *what)
{
    const uint8_t *a = qn_rules_matrix(r);
    int i, j;

    if (qn_rules_ncells(r) != n) {
        T_FAILF("%s: %d cells, want %d", what, qn_rules_ncells(r), n);
        return;
    }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            if (a[i * n + j] != want[i * n + j]) {
                T_FAILF("%s: pressing %d adds %d to %d, want %d", what, j,
                        a[i * n + j], i, want[i * n + j]);
                return;
            }
    t_pass++;
}

/* Independent matrices: the neighbourhood as a distance predicate. */
enum shape { PLUS, SIGMA, MOORE, TORUS_PLUS };

static void grid_matrix(uint8_t *a, int w, int h, enum shape s)
{
    int n = w * h, i, j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            int dr = abs(i / w - j / w), dc = abs(i % w - j % w), hit;
            if (s == TORUS_PLUS) {
                dr = dr < h - dr ? dr : h - dr;
                dc = dc < w - dc ? dc : w - dc;
            }
            switch (s) {
            case PLUS:
            case TORUS_PLUS:
                hit = dr + dc <= 1;
                break;
            case SIGMA:
                hit = dr + dc == 1;
                break;
            default:
                hit = dr <= 1 && dc <= 1;
                break;
            }
            a[i * n + j] = (uint8_t)hit;
        }
    }
}

/* Columns from 1-based press sets, as the games' descriptions give them. */
static void sets_matrix(uint8_t *a, int n, const int sets[][8])
{
    int j, t;

    memset(a, 0, (size_t)n * n);
    for (j = 0; j < n; j++)
        for (t = 0; sets[j][t]; t++)
            a[(sets[j][t] - 1) * n + j] = 1;
}

/* Rank over GF(2) by plain elimination, for invertibility facts. */
static int gf2_rank(const uint8_t *m, int n)
{
    uint8_t a[MAXN * MAXN];
    int rank = 0, c, r, i, k;

    memcpy(a, m, (size_t)n * n);
    for (c = 0; c < n && rank < n; c++) {
        for (r = rank; r < n && !(a[r * n + c] & 1); r++)
            ;
        if (r == n)
            continue;
        for (k = 0; k < n; k++) {
            uint8_t t = a[r * n + k];
            a[r * n + k] = a[rank * n + k];
            a[rank * n + k] = t;
        }
        for (i = 0; i < n; i++)
            if (i != rank && (a[i * n + c] & 1))
                for (k = 0; k < n; k++)
                    a[i * n + k] ^= a[rank * n + k] & 1;
        rank++;
    }
    return rank;
}

static void test_shipped(void)
{
    struct {
        const char *file;
        int n;
        unsigned k;
    } facts[] = {
        {"rules/classic-5x5.yaml", 25, 2},
        {"rules/classic-3x3.yaml", 9, 2},
        {"rules/whack-a-mole-4x4.yaml", 16, 2},
        {"rules/quatrainment.yaml", 16, 2},
        {"rules/merlin.yaml", 9, 2},
        {"rules/ring6-mod8.yaml", 6, 8},
        {"rules/lights-out-2000.yaml", 25, 3},
        {"rules/torus-5x5.yaml", 25, 2},
        {"rules/hexagon-3.yaml", 19, 2},
        {"rules/moore-6x6.yaml", 36, 2},
        {"rules/sigma-5x5.yaml", 25, 2},
        {"rules/cross-7x7.yaml", 33, 2},
        {"rules/four-colour-10x10.yaml", 100, 4},
        {"rules/classic-7x7.yaml", 49, 2},
        {"rules/classic-9x9.yaml", 81, 2},
    };
    size_t i, nfiles = 0;
    DIR *d = opendir("rules");
    struct dirent *de;
    char path[512];

    /* Every file in rules/ loads, and every one is in the table above. */
    T_CHECK(d != NULL);
    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        qn_rules *r;
        int known = 0;
        if (len < 6 || strcmp(de->d_name + len - 5, ".yaml"))
            continue;
        nfiles++;
        snprintf(path, sizeof(path), "rules/%s", de->d_name);
        for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
            known |= !strcmp(facts[i].file, path);
        if (!known)
            T_FAILF("%s: no facts checked for this file", path);
        if ((r = load(path)) != NULL) {
            T_CHECK(strlen(qn_rules_title(r)) > 0);
            qn_rules_free(r);
        }
    }
    if (d)
        closedir(d);
    T_EQ(nfiles, sizeof(facts) / sizeof(facts[0]));
    for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
        qn_rules *r = load(facts[i].file);
        if (!r)
            continue;
        T_EQ(qn_rules_ncells(r), facts[i].n);
        T_EQ(qn_rules_colours(r), facts[i].k);
        qn_rules_free(r);
    }
}

static void test_plus_family(void)
{
    static uint8_t want[MAXN * MAXN];
    struct {
        const char *file;
        int w, h;
        enum shape s;
        int symmetric;
    } t[] = {
        {"rules/classic-5x5.yaml", 5, 5, PLUS, 1},
        {"rules/classic-3x3.yaml", 3, 3, PLUS, 1},
        {"rules/whack-a-mole-4x4.yaml", 4, 4, PLUS, 1},
        {"rules/lights-out-2000.yaml", 5, 5, PLUS, 1},
        {"rules/four-colour-10x10.yaml", 10, 10, PLUS, 1},
        {"rules/sigma-5x5.yaml", 5, 5, SIGMA, 1},
        {"rules/moore-6x6.yaml", 6, 6, MOORE, 1},
        {"rules/torus-5x5.yaml", 5, 5, TORUS_PLUS, 1},
        {"rules/classic-7x7.yaml", 7, 7, PLUS, 1},
        {"rules/classic-9x9.yaml", 9, 9, PLUS, 1},
    };
    size_t i;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        qn_rules *r = load(t[i].file);
        if (!r)
            continue;
        grid_matrix(want, t[i].w, t[i].h, t[i].s);
        same_matrix(r, want, t[i].w * t[i].h, t[i].file);
        T_EQ(qn_rules_is_symmetric(r), t[i].symmetric);
        qn_rules_free(r);
    }

    /* Golden GF(2) facts (STYLE.md section 9): 3x3 invertible, 4x4 rank
     * 12, 5x5 rank 23. */
    grid_matrix(want, 3, 3, PLUS);
    T_EQ(gf2_rank(want, 9), 9);
    grid_matrix(want, 4, 4, PLUS);
    T_EQ(gf2_rank(want, 16), 12);
    grid_matrix(want, 5, 5, PLUS);
    T_EQ(gf2_rank(want, 25), 23);

    /* The torus really wraps: corner 0 touches 4, 20, 1 and 5. */
    {
        qn_rules *r = load("rules/torus-5x5.yaml");
        if (r) {
            const uint8_t *a = qn_rules_matrix(r);
            T_EQ(a[4 * 25 + 0], 1);
            T_EQ(a[20 * 25 + 0], 1);
            T_EQ(a[24 * 25 + 0], 0);
            qn_rules_free(r);
        }
    }
}

static void test_merlin_quatrainment(void)
{
    /* Merlin's Magic Square, 1-based: a corner toggles its 2x2 block, an
     * edge its border row, the centre its plus. */
    static const int merlin[9][8] = {
        {1, 2, 4, 5}, {1, 2, 3},    {2, 3, 5, 6}, {1, 4, 7},    {2, 4, 5, 6, 8},
        {3, 6, 9},    {4, 5, 7, 8}, {7, 8, 9},    {5, 6, 8, 9},
    };
    /* Quatrainment (seed 004), 1-based. */
    static const int quat[16][8] = {
        {1, 2, 3, 5, 6, 9},      {1, 3, 6},           {2, 4, 7},
        {2, 3, 4, 7, 8, 12},     {1, 6, 9},           {2, 5, 6, 7, 10},
        {3, 6, 7, 8, 11},        {4, 7, 12},          {5, 10, 13},
        {6, 9, 10, 11, 14},      {7, 10, 11, 12, 15}, {8, 11, 16},
        {5, 9, 10, 13, 14, 15},  {10, 13, 15},        {11, 14, 16},
        {8, 11, 12, 14, 15, 16},
    };
    static uint8_t want[MAXN * MAXN];
    qn_rules *r;

    sets_matrix(want, 9, merlin);
    if ((r = load("rules/merlin.yaml")) != NULL) {
        same_matrix(r, want, 9, "merlin");
        T_EQ(qn_rules_is_symmetric(r), 0);
        qn_rules_free(r);
    }
    sets_matrix(want, 16, quat);
    T_EQ(gf2_rank(want, 16), 16); /* invertible, as the report proves */
    if ((r = load("rules/quatrainment.yaml")) != NULL) {
        same_matrix(r, want, 16, "quatrainment");
        T_EQ(qn_rules_is_symmetric(r), 0);
        T_EQ(gf2_rank(qn_rules_matrix(r), 16), 16);
        qn_rules_free(r);
    }
    if ((r = load("tests/rules/ok/goal-nonzero.yaml")) != NULL) {
        static const uint8_t goal[16] = {1, 0, 0, 1, 0, 1, 1, 0,
                                         0, 1, 1, 0, 1, 0, 0, 1};
        same_matrix(r, want, 16, "quatrainment with a goal");
        T_CHECK(!memcmp(qn_rules_goal(r), goal, 16));
        qn_rules_free(r);
    }
}

/*
 * The documented orientation of class stencils, pinned with one-sided
 * stencils (the games above are left-right symmetric, so they cannot tell
 * a reflection from a rotation): corners mirror, the left edge is the top
 * edge reflected in the main diagonal (dx, dy) -> (dy, dx), the right edge
 * (dx, dy) -> (-dy, dx), the bottom edge (dx, dy) -> (dx, -dy).
 */
static void test_class_orientation(void)
{
    static const int sets[9][8] = {
        /* 0-based cell + 1 */
        {1, 2}, {2, 3}, {3, 2}, {4, 7}, {5, 6, 4, 8, 2},
        {6, 9}, {7, 8}, {8, 9}, {9, 8},
    };
    static uint8_t want[MAXN * MAXN];
    qn_rules *r = load_text("quench: 1\nname: one-sided\n"
                            "board: {grid: [3, 3]}\n"
                            "press:\n  corner: [[0, 0], [1, 0]]\n"
                            "  edge: [[0, 0], [1, 0]]\n"
                            "  interior: plus\n");

    sets_matrix(want, 9, sets);
    if (r)
        same_matrix(r, want, 9, "class orientation");
    qn_rules_free(r);
}

/*
 * An empty offset list with self: true is a press that changes only its
 * own cell (RULES.md: a list is taken as written, self: true adds [0, 0]):
 * the identity matrix, times the amount.
 */
static void test_self_only(void)
{
    static uint8_t want[MAXN * MAXN];
    qn_rules *r = load_text("quench: 1\nname: self-only\ncolours: 3\n"
                            "board: {grid: [2, 2]}\n"
                            "press: {stencil: [], self: true, amount: 2}\n");

    memset(want, 0, sizeof(want));
    for (int i = 0; i < 4; i++)
        want[i * 4 + i] = 2;
    if (r)
        same_matrix(r, want, 4, "self only");
    qn_rules_free(r);
}

static void test_ring_hex_mask(void)
{
    static uint8_t want[MAXN * MAXN];
    qn_rules *r;
    int i, j;

    /* Ring of 6: pressing j advances j-1, j, j+1 (mod 6) by one. */
    for (i = 0; i < 6; i++)
        for (j = 0; j < 6; j++)
            want[i * 6 + j] = (uint8_t)((i - j + 7) % 6 <= 2);
    if ((r = load("rules/ring6-mod8.yaml")) != NULL) {
        same_matrix(r, want, 6, "ring6");
        T_EQ(qn_rules_colours(r), 8);
        T_EQ(qn_rules_layout(r)->kind, QN_LAYOUT_GRAPH);
        qn_rules_free(r);
    }
    if ((r = load("tests/rules/ok/ring6-brief.yaml")) != NULL) {
        same_matrix(r, want, 6, "ring6 as in the issue");
        qn_rules_free(r);
    }

    /* Hexagon of side 3: 7 cells with 6 neighbours (the inner hexagon),
     * 6 corners with 3, 6 edge middles with 4; symmetric. */
    if ((r = load("rules/hexagon-3.yaml")) != NULL) {
        const uint8_t *a = qn_rules_matrix(r);
        int count[8] = {0};
        for (j = 0; j < 19; j++) {
            int w = 0;
            for (i = 0; i < 19; i++)
                w += a[i * 19 + j];
            if (w >= 1 && w <= 7)
                count[w]++;
        }
        T_EQ(count[7], 7);
        T_EQ(count[4], 6);
        T_EQ(count[5], 6);
        T_EQ(qn_rules_is_symmetric(r), 1);
        qn_rules_free(r);
    }

    /* The cross: 2x2 corner holes of a 7x7 grid; plus rule on the rest. */
    if ((r = load("rules/cross-7x7.yaml")) != NULL) {
        const qn_layout *l = qn_rules_layout(r);
        int holes = 0, ok = 1, n = qn_rules_ncells(r);
        const uint8_t *a = qn_rules_matrix(r);
        T_EQ(l->w, 7);
        T_EQ(l->h, 7);
        for (i = 0; i < 7; i++)
            for (j = 0; j < 7; j++) {
                int hole = (i < 2 || i > 4) && (j < 2 || j > 4);
                holes += qn_layout_cell(l, i, j) < 0;
                ok &= (qn_layout_cell(l, i, j) < 0) == hole;
            }
        T_EQ(holes, 16);
        T_CHECK(ok);
        /* Cell 0 is (0, 2): it touches itself, (0, 3) and (1, 2) only. */
        for (i = 0, j = 0; i < n; i++)
            j += a[i * n + 0];
        T_EQ(j, 3);
        T_EQ(a[qn_layout_cell(l, 0, 3) * n + 0], 1);
        T_EQ(a[qn_layout_cell(l, 1, 2) * n + 0], 1);
        qn_rules_free(r);
    }
}

/* The 5x5 plus family written as explicit effects, generated here. */
static char *plus_as_effects(int w, int h, const char *name)
{
    static uint8_t a[MAXN * MAXN];
    qn_buf b = QN_BUF_INIT;
    int n = w * h, i, j;

    grid_matrix(a, w, h, PLUS);
    qn_buf_addf(&b,
                "quench: 1\nname: %s\nboard: {grid: [%d, %d]}\n"
                "effects:\n",
                name, w, h);
    for (j = n - 1; j >= 0; j--) { /* any order will do */
        qn_buf_addf(&b, "  %d: [", j);
        for (i = 0; i < n; i++)
            if (a[i * n + j])
                qn_buf_addf(&b, "[%d, 1], ", i);
        b.len -= 2;
        qn_buf_adds(&b, "]\n");
    }
    return qn_buf_detach(&b, NULL);
}

static void test_equivalence(void)
{
    char h1[65], h2[65];
    qn_rules *base = load("rules/classic-5x5.yaml"), *r;
    char *text = plus_as_effects(5, 5, "explicit");
    static const char *const spellings[] = {
        "tests/rules/ok/grid-flow.yaml",
        "tests/rules/ok/grid-block-reordered.yaml",
    };
    size_t i;
    static const char *const different[] = {
        "rules/sigma-5x5.yaml",     "rules/lights-out-2000.yaml",
        "rules/torus-5x5.yaml",     "rules/classic-3x3.yaml",
        "tests/rules/ok/crlf.yaml", "rules/moore-6x6.yaml",
    };

    if (!base)
        return;
    qn_rules_hash(base, h1);
    T_EQ(strlen(h1), 64);
    T_EQ(strspn(h1, "0123456789abcdef"), 64);
    if ((r = load_text(text)) != NULL) {
        same_matrix(r, qn_rules_matrix(base), 25, "explicit effects");
        qn_rules_hash(r, h2);
        T_CHECK(!strcmp(h1, h2));
        qn_rules_free(r);
    }
    free(text);
    for (i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
        if ((r = load(spellings[i])) == NULL)
            continue;
        same_matrix(r, qn_rules_matrix(base), 25, spellings[i]);
        qn_rules_hash(r, h2);
        if (strcmp(h1, h2))
            T_FAILF("%s: hash %s, want %s", spellings[i], h2, h1);
        qn_rules_free(r);
    }
    /* Explicit zero goal, stencil as offsets, class stencils all plus. */
    {
        static const char *const texts[] = {
            "quench: 1\nname: a\nboard: {grid: [5, 5]}\n"
            "press: {stencil: [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]}\n"
            "goal: 00000/00000/00000/00000/00000\n",
            "{quench: 1, name: b, board: {grid: 5}, press: {corner: plus, "
            "edge: plus, interior: plus}}",
            "name: c\nquench: 1\npress:\n  stencil: plus\n  amount: 1\n"
            "board:\n  grid: [5, 5]\n  mask: [\"#####\", \"#####\", "
            "\"#####\", \"#####\", \"#####\"]\ncolours: 2\n",
        };
        for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
            if ((r = load_text(texts[i])) == NULL)
                continue;
            qn_rules_hash(r, h2);
            if (strcmp(h1, h2))
                T_FAILF("spelling %zu: hash differs", i);
            else
                t_pass++;
            qn_rules_free(r);
        }
    }
    for (i = 0; i < sizeof(different) / sizeof(different[0]); i++) {
        if ((r = load(different[i])) == NULL)
            continue;
        qn_rules_hash(r, h2);
        if (!strcmp(h1, h2))
            T_FAILF("%s hashes like classic-5x5", different[i]);
        else
            t_pass++;
        qn_rules_free(r);
    }
    /* The documented serialisation, recomputed here: tag with its NUL,
     * n and k as 4-byte little-endian, the matrix, the goal. */
    {
        static const uint8_t nk[8] = {25, 0, 0, 0, 2, 0, 0, 0};
        static const uint8_t zero[25];
        qn_hash h;
        uint8_t d[QN_HASH_BYTES];
        char hex[QN_HASH_HEX];
        qn_hash_init(&h);
        qn_hash_update(&h, "quench-rules-1", 15);
        qn_hash_update(&h, nk, 8);
        qn_hash_update(&h, qn_rules_matrix(base), 625);
        qn_hash_update(&h, zero, 25);
        qn_hash_final(&h, d);
        qn_hash_hex(hex, d);
        T_CHECK(!strcmp(hex, h1));
        /* BLAKE2b-256 of "abc" (RFC 7693 test vector family). */
        qn_hash_buf_hex(hex, "abc", 3);
        T_CHECK(!strcmp(hex, "bddd813c634239723171ef3fee98579b"
                             "94964e3bb1cb3e427262c8c068d52319"));
    }
    qn_rules_free(base);
}

/* The 8 symmetries of an s x s square as maps on (r, c). */
static void square_sym(int t, int s, int r, int c, int *ro, int *co)
{
    int i;

    if (t >= 4) {
        c = s - 1 - c;
        t -= 4;
    }
    for (i = 0; i < t; i++) {
        int nr = c, nc = s - 1 - r;
        r = nr;
        c = nc;
    }
    *ro = r;
    *co = c;
}

/* Every reported symmetry must be a permutation and an automorphism of
 * A and the goal. */
static int syms_valid(const qn_rules *r)
{
    int n = qn_rules_ncells(r), i, j;
    const uint8_t *a = qn_rules_matrix(r), *g = qn_rules_goal(r);
    size_t s;
    char *seen = malloc((size_t)n);

    for (i = 0; i < n; i++)
        if (qn_rules_sym(r, 0)[i] != i)
            return free(seen), 0;
    for (s = 0; s < qn_rules_nsyms(r); s++) {
        const int *p = qn_rules_sym(r, s);
        memset(seen, 0, (size_t)n);
        for (i = 0; i < n; i++) {
            if (seen[p[i]]++)
                return free(seen), 0;
        }
        for (i = 0; i < n; i++) {
            if (g[p[i]] != g[i])
                return 0;
            for (j = 0; j < n; j++)
                if (a[p[i] * n + p[j]] != a[i * n + j])
                    return free(seen), 0;
        }
    }
    free(seen);
    return 1;
}

/* How many of the n! permutations of cells preserve A (n <= 8). */
static int brute_automorphisms(const uint8_t *a, int n)
{
    int p[8], c[8] = {0}, k = 0, autos = 0, x, y;

    for (x = 0; x < n; x++)
        p[x] = x;
    for (;;) { /* Heap's algorithm, checking each permutation */
        int ok = 1;
        for (x = 0; x < n; x++)
            for (y = 0; y < n; y++)
                ok &= a[p[x] * n + p[y]] == a[x * n + y];
        autos += ok;
        while (k < n && c[k] >= k) {
            c[k] = 0;
            k++;
        }
        if (k == n)
            return autos;
        x = k % 2 ? c[k] : 0;
        y = p[x];
        p[x] = p[k];
        p[k] = y;
        c[k]++;
        k = 0;
    }
}

static void test_symmetry(void)
{
    struct {
        const char *src;
        size_t order;
    } t[] = {
        {"rules/classic-5x5.yaml", 8},
        {"rules/torus-5x5.yaml", 200},
        {"rules/hexagon-3.yaml", 12},
        {"rules/ring6-mod8.yaml", 12},               /* the hexagon's D6 */
        {"tests/rules/ok/graph-bare-cells.yaml", 2}, /* a path: reversal */
        {"rules/merlin.yaml", 8},
        {"rules/cross-7x7.yaml", 8},
        {"tests/rules/ok/cylinder.yaml", 24}, /* C2 x C2 x 6 rotations */
        {"tests/rules/ok/masked-hole.yaml", 4},
    };
    size_t i;
    qn_rules *r;
    int tr, n, ro, co, x, y, count = 0;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        if ((r = load(t[i].src)) == NULL)
            continue;
        if (qn_rules_nsyms(r) != t[i].order)
            T_FAILF("%s: %zu symmetries, want %zu (%s)", t[i].src,
                    qn_rules_nsyms(r), t[i].order, qn_rules_symmetry_name(r));
        T_CHECK(syms_valid(r));
        qn_rules_free(r);
    }
    if ((r = load("rules/classic-5x5.yaml")) != NULL) {
        T_CHECK(!strcmp(qn_rules_symmetry_name(r), "D4 (order 8)"));
        qn_rules_free(r);
    }
    /* Graph boards: count automorphisms of the ring by brute force over
     * all 720 permutations of its 6 cells. */
    if ((r = load("rules/ring6-mod8.yaml")) != NULL) {
        int autos = brute_automorphisms(qn_rules_matrix(r), 6);
        T_EQ(autos, 12);
        T_EQ(qn_rules_nsyms(r), (size_t)autos);
        T_CHECK(!strcmp(qn_rules_symmetry_name(r), "D6 (order 12)"));
        qn_rules_free(r);
    }
    /* A graph with no symmetry: 0 -> 1 -> 2 with different self terms. */
    if ((r = load_text("quench: 1\nname: lopsided\ncolours: 3\n"
                       "board: {graph: 3}\neffects:\n  0: [[0, 1], [1, 1]]\n"
                       "  1: [[1, 2], [2, 1]]\n  2: [[2, 1]]\n")) != NULL) {
        T_EQ(qn_rules_nsyms(r), 1);
        T_CHECK(!strcmp(qn_rules_symmetry_name(r), "trivial"));
        qn_rules_free(r);
    }
    /* A 1 x 5 torus with left-right neighbours is a 5-cycle, whose
     * automorphisms are D5. Rotations by 90 degrees fold the row onto one
     * cell and must not be offered (found by fuzzing). */
    if ((r = load_text("quench: 1\nname: cycle\ncolours: 5\n"
                       "board: {grid: [1, 5], wrap: both}\n"
                       "press: {stencil: [[0, -1], [0, 0], [0, 1]]}\n")) !=
        NULL) {
        T_CHECK(syms_valid(r));
        T_EQ(qn_rules_nsyms(r),
             (size_t)brute_automorphisms(qn_rules_matrix(r), 5));
        qn_rules_free(r);
    }
    /* A 4 x 5 grid: only the 4 symmetries of a rectangle. */
    if ((r = load_text("quench: 1\nname: rect\nboard: {grid: [4, 5]}\n"
                       "press: {stencil: plus}\n")) != NULL) {
        T_EQ(qn_rules_nsyms(r), 4);
        T_CHECK(syms_valid(r));
        T_CHECK(!strcmp(qn_rules_symmetry_name(r), "C2 x C2 (order 4)"));
        qn_rules_free(r);
    }
    /* Quatrainment: count by brute force which of the 8 square symmetries
     * preserve its matrix, and compare. */
    if ((r = load("rules/quatrainment.yaml")) != NULL) {
        const uint8_t *a = qn_rules_matrix(r);
        n = 16;
        for (tr = 0; tr < 8; tr++) {
            int ok = 1, p[16];
            for (x = 0; x < n; x++) {
                square_sym(tr, 4, x / 4, x % 4, &ro, &co);
                p[x] = ro * 4 + co;
            }
            for (x = 0; x < n; x++)
                for (y = 0; y < n; y++)
                    ok &= a[p[x] * n + p[y]] == a[x * n + y];
            count += ok;
        }
        T_EQ(qn_rules_nsyms(r), (size_t)count);
        T_CHECK(syms_valid(r));
        qn_rules_free(r);
    }
    /* A rule that breaks a symmetry: a stencil pointing right only. */
    if ((r = load_text("quench: 1\nname: right\nboard: {grid: [4, 4]}\n"
                       "press: {stencil: [[0, 0], [1, 0]]}\n")) != NULL) {
        /* Only the top-bottom mirror keeps "to the right". */
        T_EQ(qn_rules_nsyms(r), 2);
        T_CHECK(syms_valid(r));
        qn_rules_free(r);
    }
}

/* Files in a directory with a suffix, sorted. */
static size_t list_dir(const char *dir, const char *suffix, char ***out)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **v = NULL;
    size_t n = 0, i, j, ls = strlen(suffix);

    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= ls || strcmp(de->d_name + len - ls, suffix))
            continue;
        v = realloc(v, (n + 1) * sizeof(*v));
        v[n] = malloc(strlen(dir) + len + 2);
        sprintf(v[n++], "%s/%s", dir, de->d_name);
    }
    if (d)
        closedir(d);
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
            char *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    *out = v;
    return n;
}

static void test_ok_corpus(void)
{
    char **files;
    size_t n = list_dir("tests/rules/ok", ".yaml", &files), i;

    T_CHECK(n >= 15);
    for (i = 0; i < n; i++) {
        qn_rules *r = load(files[i]);
        qn_rules_free(r);
        free(files[i]);
    }
    free(files);
}

/* YAML-level failures: everything else in bad/ is semantic. */
static int is_syntax_case(const char *path)
{
    static const char *const syn[] = {
        "malformed-yaml",
        "tab-indent",
        "anchor",
        "alias",
        "alias-bomb",
        "tag",
        "two-documents",
        "duplicate-key",
        "deep-nesting",
        "utf16",
        "nul-byte",
        "invalid-utf8",
        "duplicate-effects-key-many",
        "control-char",
        "key-is-sequence",
        "nul-escape",
    };
    const char *base = strrchr(path, '/') + 1;
    size_t i, len = strlen(base) - 5;

    for (i = 0; i < sizeof(syn) / sizeof(syn[0]); i++)
        if (strlen(syn[i]) == len && !strncmp(base, syn[i], len))
            return 1;
    return 0;
}

static void test_bad_corpus(void)
{
    char **files, want[512], got[600], exp[512];
    size_t n = list_dir("tests/rules/bad", ".yaml", &files), i;

    T_CHECK(n >= 50);
    for (i = 0; i < n; i++) {
        qn_rules *r = (qn_rules *)&r; /* must come back NULL */
        qn_grid_rule grid;
        qn_err e = QN_ERR_INIT;
        FILE *f;
        int rc;
        size_t len;

        snprintf(exp, sizeof(exp), "%.*s.expect", (int)(strlen(files[i]) - 5),
                 files[i]);
        want[0] = '\0';
        if ((f = fopen(exp, "r")) != NULL) {
            if (!fgets(want, sizeof(want), f))
                want[0] = '\0';
            fclose(f);
        }
        len = strlen(want);
        if (len && want[len - 1] == '\n')
            want[len - 1] = '\0';
        if (!want[0]) {
            T_FAILF("%s: missing or empty .expect", files[i]);
            continue;
        }
        /* the loader users get: dense model or big grid, whichever fits */
        rc = qn_rules_load_sized(&r, &grid, files[i], 0, 0, &e);
        if (e.line > 0) /* as the CLI says it */
            snprintf(got, sizeof(got), "%s:%d:%d: %s", e.source, e.line, e.col,
                     e.msg);
        else
            snprintf(got, sizeof(got), "%s: %s", e.source, e.msg);
        if (rc == QN_OK || r != NULL || grid.offsets)
            T_FAILF("%s: loaded, want '%s'", files[i], want);
        else if (strcmp(got, want))
            T_FAILF("%s:\n  got  '%s'\n  want '%s'", files[i], got, want);
        else if (rc != (is_syntax_case(files[i]) ? QN_ESYNTAX : QN_EINVAL))
            T_FAILF("%s: code %d", files[i], rc);
        else
            t_pass++;
        qn_rules_free(r == (qn_rules *)&r ? NULL : r);
        free(files[i]);
    }
    free(files);
}

static void test_limits(void)
{
    size_t big = QN_RULES_MAX_FILE + 1, i;
    char *text = malloc(big);
    qn_rules *r = NULL;
    qn_err e = QN_ERR_INIT;
    int rc;

    /* A file over the size limit (comments, otherwise valid). */
    memcpy(text, "quench: 1\n", 10);
    for (i = 10; i < big; i++)
        text[i] = (i % 64 == 63) ? '\n' : (i % 64 == 10 ? '#' : 'x');
    rc = qn_rules_load_buf(&r, text, big, "big.yaml", &e);
    T_EQ(rc, QN_ESYNTAX);
    T_CHECK(r == NULL);
    T_CHECK(!strcmp(e.msg, "file is larger than 1048576 bytes (the limit)"));
    T_CHECK(!strcmp(e.source, "big.yaml"));
    T_EQ(e.line, 0); /* the whole file: no line of it is shown */

    /* Deep nesting, generated: 1000 levels of [[[[...]]]]. */
    {
        qn_buf b = QN_BUF_INIT;
        qn_buf_adds(&b, "quench: 1\nname: deep\nboard: ");
        for (i = 0; i < 1000; i++)
            qn_buf_addc(&b, '[');
        for (i = 0; i < 1000; i++)
            qn_buf_addc(&b, ']');
        rc = qn_rules_load_buf(&r, b.buf, b.len, "deep", &e);
        T_EQ(rc, QN_ESYNTAX);
        T_CHECK(!strcmp(e.msg, "nesting deeper than 32 levels"));
        T_EQ(e.line, 3);
        T_EQ(e.col, 8 + 31);
        qn_buf_release(&b);
    }

    /* Too many events: a flat list of 300000 numbers would fit the size
     * limit only barely, so use a long effects-like sequence of ints. */
    {
        qn_buf b = QN_BUF_INIT;
        qn_buf_adds(&b, "quench: 1\nname: many\ngoal: [");
        for (i = 0; i < (1 << 18); i++)
            qn_buf_adds(&b, "0,");
        qn_buf_adds(&b, "0]\n");
        rc = qn_rules_load_buf(&r, b.buf, b.len, "many", &e);
        T_EQ(rc, QN_ESYNTAX);
        T_CHECK(!strcmp(e.msg, "more than 262144 YAML events (the limit)"));
        qn_buf_release(&b);
    }

    /* Missing file; empty buffer. */
    rc = qn_rules_load_file(&r, "tests/rules/no-such-file.yaml", &e);
    T_EQ(rc, QN_ENOTFOUND);
    T_CHECK(r == NULL);
    T_CHECK(!strcmp(e.source, "tests/rules/no-such-file.yaml"));
    rc = qn_rules_load_buf(&r, "", 0, "<stdin>", &e);
    T_EQ(rc, QN_EINVAL);
    T_CHECK(!strcmp(e.source, "<stdin>"));

    /* The biggest dense board loads. */
    if ((r = load("tests/rules/ok/big-grid.yaml")) != NULL) {
        T_EQ(qn_rules_ncells(r), 4096);
        T_CHECK(strstr(qn_rules_symmetry_name(r), "not enumerated") != NULL);
        qn_rules_free(r);
    }
    free(text);
}

/* The model on plain structs, no YAML. */
static void test_spec(void)
{
    qn_rules_spec s;
    qn_rules *r = NULL;
    qn_err e = QN_ERR_INIT;
    static uint8_t want[MAXN * MAXN];
    int rc;

    qn_rules_spec_init(&s);
    s.has_version = 1;
    s.version = 1;
    s.name = strdup("spec");
    s.has_board = s.has_grid = 1;
    s.w = 3;
    s.h = 2;
    s.has_press = 1;
    s.stencil.kind = QN_STENCIL_PLUS;
    rc = qn_rules_build(&r, &s, "spec", &e);
    T_EQ(rc, QN_OK);
    grid_matrix(want, 3, 2, PLUS);
    if (r)
        same_matrix(r, want, 6, "spec");
    qn_rules_free(r);

    /* A semantic error keeps the mark it was given. */
    s.has_colours = 1;
    s.colours = 300;
    s.colours_mark.line = 7;
    s.colours_mark.col = 3;
    r = (qn_rules *)&s;
    rc = qn_rules_build(&r, &s, "spec.yaml", &e);
    T_EQ(rc, QN_EINVAL);
    T_CHECK(r == NULL);
    T_EQ(e.line, 7);
    T_EQ(e.col, 3);
    T_CHECK(!strcmp(e.msg, "colours must be 2..255, got 300"));
    T_CHECK(!strcmp(e.source, "spec.yaml"));

    /* Tiers come back in file order. */
    s.colours = 2;
    s.ntiers = 2;
    s.tiers = calloc(2, sizeof(*s.tiers));
    s.tiers[0].name = strdup("easy");
    s.tiers[0].lo = 1;
    s.tiers[0].hi = 2;
    s.tiers[1].name = strdup("hard");
    s.tiers[1].lo = 3;
    s.tiers[1].hi = 6;
    rc = qn_rules_build(&r, &s, "spec", &e);
    T_EQ(rc, QN_OK);
    if (r) {
        T_EQ(qn_rules_ntiers(r), 2);
        T_CHECK(!strcmp(qn_rules_tier_name(r, 1), "hard"));
        T_EQ(qn_rules_tier_lo(r, 1), 3);
        T_EQ(qn_rules_tier_hi(r, 1), 6);
        T_CHECK(!strcmp(qn_rules_name(r), "spec"));
        T_CHECK(!strcmp(qn_rules_author(r), ""));
    }
    qn_rules_free(r);
    qn_rules_spec_release(&s);
}

/*
 * The plus press of a w x h grid (itself and its four neighbours, none
 * across an edge), from the game's own rule, as a rule file with every
 * cell's effects explicit on `board`.
 */
static void plus_effects(qn_buf *b, int w, int h, const char *board)
{
    qn_buf_addf(b, "quench: 1\nname: p\nboard: %s\neffects:\n", board);
    for (int j = 0; j < w * h; j++) {
        int r = j / w, c = j % w;
        qn_buf_addf(b, "  %d: [%d", j, j);
        if (c > 0)
            qn_buf_addf(b, ", %d", j - 1);
        if (c < w - 1)
            qn_buf_addf(b, ", %d", j + 1);
        if (r > 0)
            qn_buf_addf(b, ", %d", j - w);
        if (r < h - 1)
            qn_buf_addf(b, ", %d", j + w);
        qn_buf_adds(b, "]\n");
    }
}

static void generates(const char *board, int w, int h, int want)
{
    qn_buf b = QN_BUF_INIT;
    qn_rules *r;

    plus_effects(&b, w, h, board);
    if ((r = load_text(b.buf)) != NULL) {
        if (qn_rules_board_generates(r) != want)
            T_FAILF("plus %dx%d on %s: generated %d, want %d", w, h, board,
                    !want, want);
        else
            t_pass++;
    }
    qn_rules_free(r);
    qn_buf_release(&b);
}

/* qn_rules_board_generates: whether some press section on a rule's board
 * gives its matrix (what import asks of a document's board). */
static void test_board_generates(void)
{
    char **files;
    size_t n = list_dir("rules", ".yaml", &files), i, m;
    qn_buf b = QN_BUF_INIT;
    qn_rules *r;

    /* every shipped rule: one stencil, per-class (merlin, quatrainment),
     * hex, hexagon, mask, torus, graph */
    for (i = 0; i < n; i++) {
        if ((r = load(files[i])) != NULL)
            T_CHECK(qn_rules_board_generates(r) == 1);
        qn_rules_free(r);
        free(files[i]);
    }
    free(files);
    /* the ok corpus: all but the one whose effects override a cell */
    m = list_dir("tests/rules/ok", ".yaml", &files);
    for (i = 0; i < m; i++) {
        int want = !strstr(files[i], "/doc-complete.yaml");
        if ((r = load(files[i])) != NULL && qn_rules_board_generates(r) != want)
            T_FAILF("%s: generated %d, want %d", files[i], !want, want);
        qn_rules_free(r);
        free(files[i]);
    }
    free(files);
    /* classic Lights Out written out cell by cell is its grid's, a
     * graph's, and not a torus's, a cylinder's or a hex board's */
    generates("{grid: [5, 5]}", 5, 5, 1);
    generates("{grid: [4, 3]}", 4, 3, 1);
    generates("{graph: 25}", 5, 5, 1);
    generates("{grid: [5, 5], wrap: both}", 5, 5, 0);
    generates("{grid: [5, 5], wrap: x}", 5, 5, 0);
    generates("{grid: [5, 5], wrap: y}", 5, 5, 0);
    generates("{hex: [5, 5]}", 5, 5, 0);
    /* the centre's press without its lower neighbour: no stencil, nor
     * one per class (the other interior cells keep theirs), gives it: an
     * 'effects' override on top of plus (on 3x3 the centre would be the
     * only interior cell, and its class's stencil anything) */
    plus_effects(&b, 5, 5, "{grid: [5, 5]}");
    {
        char *at = strstr(b.buf, "  12: [12, 11, 13, 7, 17]\n");
        T_CHECK(at != NULL);
        if (at) {
            memcpy(at, "  12: [12, 11, 13, 7]    \n", 26);
            if ((r = load_text(b.buf)) != NULL)
                T_CHECK(qn_rules_board_generates(r) == 0);
            qn_rules_free(r);
        }
    }
    qn_buf_release(&b);
    /* rowcol on a 600-cell row: 1198 offsets, past a list's 1024 */
    r = load_text("quench: 1\nname: rc\nboard: {grid: [600, 1]}\n"
                  "press: {stencil: rowcol}\n");
    T_CHECK(r && qn_rules_board_generates(r) == 1);
    qn_rules_free(r);
    /* a torus's plus is also a plain grid's stencil [+-1, +-4] (so a
     * board does not pin a rule's symmetries: RULES.md, the hash) */
    r = load_text("quench: 1\nname: t\nboard: {grid: [5, 5], wrap: both}\n"
                  "press: {stencil: plus}\n");
    if (r) {
        qn_buf yaml = QN_BUF_INIT;
        const uint8_t *a = qn_rules_matrix(r);
        qn_rules *p;
        qn_buf_adds(&yaml, "quench: 1\nname: t\nboard: {grid: [5, 5]}\n"
                           "effects:\n");
        for (int j = 0; j < 25; j++) {
            qn_buf_addf(&yaml, "  %d: [", j);
            for (int c = 0, first = 1; c < 25; c++)
                if (a[c * 25 + j])
                    qn_buf_addf(&yaml, "%s%d", first ? "" : ", ", c), first = 0;
            qn_buf_adds(&yaml, "]\n");
        }
        p = load_text(yaml.buf);
        T_CHECK(p && qn_rules_board_generates(p) == 1);
        qn_rules_free(p);
        qn_buf_release(&yaml);
    }
    qn_rules_free(r);
}

int main(void)
{
    test_shipped();
    test_plus_family();
    test_merlin_quatrainment();
    test_class_orientation();
    test_self_only();
    test_ring_hex_mask();
    test_equivalence();
    test_symmetry();
    test_ok_corpus();
    test_bad_corpus();
    test_limits();
    test_spec();
    test_board_generates();
    return t_done();
}
