/*
 * test_conformance.c: published facts (tests/golden/, copied from
 * shared/conformance with their sources) through the whole engine: the
 * plus-board nullities (OEIS A159257), the exact 4x4 and 5x5 minimal-press
 * distributions (OEIS A079873, corrected), the all-on minima (A075464), and
 * the corrected claims of the seed documents.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gf2.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"
#include "tboards.h"

/* Read a two-column TSV with a header line into v[key] = value. */
static int read_tsv(const char *name, long *v, int nmax)
{
    char path[512], line[256];
    FILE *f;
    int n = 0;

    snprintf(path, sizeof(path), "tests/golden/%s", name);
    f = fopen(path, "r");
    if (!f) {
        T_FAILF("cannot open %s", path);
        return 0;
    }
    while (fgets(line, sizeof(line), f)) {
        long key, val;
        if (sscanf(line, "%ld %ld", &key, &val) == 2 && key >= 0 &&
            key < nmax) {
            v[key] = val;
            n++;
        }
    }
    fclose(f);
    return n;
}

static qn_system *plus_system(int w, int h, unsigned k)
{
    uint8_t *a = t_plus(w, h, 1);
    qn_system *sys = NULL;
    qn_err err;

    T_EQ(qn_system_new(&sys, a, w * h, w * h, k, &err), QN_OK);
    free(a);
    return sys;
}

static long kernel_size(const qn_system *sys)
{
    uint64_t v = 0;
    T_EQ(qn_system_group_size_u64(sys, QN_KERNEL, &v), QN_OK);
    return (long)v;
}

/*
 * Nullity through light chasing: with the first row's presses as unknowns,
 * each later row's presses are forced (press below every lit cell), and
 * the kernel corresponds one to one with the first rows that leave the last
 * row dark. So the n x n board's nullity is that of the n x n "last row"
 * map, which the GF(2) engine ranks even for n = 130.
 */
static int chase_nullity(int n)
{
    int words = qn_gf2_words(n), rank;
    /* p[r][c]: press at (r, c) as a linear form in the first-row unknowns */
    uint64_t *p = calloc((size_t)(n + 1) * n * words, sizeof(uint64_t));
    qn_gf2mat m;

#define P(r, c) (p + ((size_t)(r)*n + (c)) * words)
    for (int c = 0; c < n; c++)
        P(0, c)[c / 64] |= (uint64_t)1 << (c % 64);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            /* light at (r, c) after rows 0..r pressed, r+1 not yet */
            uint64_t *dst = P(r + 1, c);
            for (int w = 0; w < words; w++) {
                uint64_t v = P(r, c)[w];
                if (c > 0)
                    v ^= P(r, c - 1)[w];
                if (c + 1 < n)
                    v ^= P(r, c + 1)[w];
                if (r > 0)
                    v ^= P(r - 1, c)[w];
                dst[w] = v;
            }
        }
    qn_gf2mat_init(&m, n, n);
    for (int c = 0; c < n; c++)
        memcpy(qn_gf2mat_row(&m, c), P(n, c), (size_t)words * 8);
#undef P
    rank = qn_gf2mat_rank(&m);
    qn_gf2mat_release(&m);
    free(p);
    return n - rank;
}

static void test_nullity(void)
{
    long want[131];
    int dense_max = 24;

    memset(want, -1, sizeof(want));
    T_EQ(read_tsv("plus_square_nullity.tsv", want, 131), 130);
    for (int n = 1; n <= 130; n++) {
        int got = chase_nullity(n);
        if (got != want[n])
            T_FAILF("n=%d: chased nullity %d, A159257 says %ld", n, got,
                    want[n]);
        else
            t_pass++;
    }
    /* The dense path on the full n^2 x n^2 matrices, as far as is quick. */
    for (int n = 1; n <= dense_max; n++) {
        qn_system *sys = plus_system(n, n, 2);
        long ks = kernel_size(sys);
        T_EQ(ks, 1L << want[n]);
        qn_system_free(sys);
    }
}

/*
 * Every solvable state, once: over GF(2) the image is spanned by the
 * pivot columns, so walking y over GF(2)^rank in Gray order and adding the
 * matching column to s visits each solvable state exactly once.
 */
static void distribution(int n, const char *golden, int maxm)
{
    qn_system *sys = plus_system(n, n, 2);
    int cells = n * n;
    qn_gf2mat a;
    int *piv = calloc((size_t)cells, sizeof(int)), rank;
    long want[64], *got = calloc(64, sizeof(long));
    uint8_t s[64] = {0}, x[64];
    uint8_t *mat = t_plus(n, n, 1);
    long bad = 0;

    memset(want, 0, sizeof(want));
    read_tsv(golden, want, 64);
    qn_gf2mat_init(&a, cells, cells);
    for (int r = 0; r < cells; r++)
        for (int c = 0; c < cells; c++)
            qn_gf2mat_set(&a, r, c, mat[r * cells + c]);
    rank = qn_gf2mat_rref(&a, piv);
    for (uint64_t t = 0; t < ((uint64_t)1 << rank); t++) {
        qn_minpress mp;
        if (t) {
            int col = piv[__builtin_ctzll(t)];
            for (int r = 0; r < cells; r++)
                s[r] ^= mat[r * cells + col];
        }
        if (qn_minpress_solve(sys, &mp, x, s, 1 << 20, NULL) != QN_OK) {
            bad++;
            continue;
        }
        if (mp.presses < 64)
            got[mp.presses]++;
    }
    T_EQ(bad, 0);
    for (int m = 0; m <= maxm; m++)
        if (got[m] != want[m])
            T_FAILF("%dx%d: %ld states need %d presses, golden says %ld", n, n,
                    got[m], m, want[m]);
        else
            t_pass++;
    qn_gf2mat_release(&a);
    qn_system_free(sys);
    free(mat);
    free(piv);
    free(got);
}

static void parse_cells(uint8_t *v, int n, const char *text)
{
    int i = 0;
    memset(v, 0, (size_t)n);
    for (; *text && i < n; text++)
        if (*text == '0' || *text == '1')
            v[i++] = (uint8_t)(*text - '0');
}

/* Seed 000: the 4x4 whack-a-mole example and its corrected rank. */
static void test_seed_000(void)
{
    qn_system *sys = plus_system(4, 4, 2);
    uint8_t s[16], x[16], y[16], other[16] = {0};
    static const int plan[] = {6, 14, 16}, alt[] = {3, 4, 9, 10, 12};
    qn_minpress mp;

    T_EQ(kernel_size(sys), 16); /* rank 12 over GF(2), not 14 */
    parse_cells(s, 16, "0100/1110/0001/1101");
    T_EQ(qn_minpress_solve(sys, &mp, x, s, 1 << 20, NULL), QN_OK);
    T_EQ(mp.presses, 3);
    T_EQ(mp.noptimal, 1);
    for (int i = 0; i < 3; i++)
        T_EQ(x[plan[i] - 1], 1);
    for (int i = 0; i < 5; i++)
        other[alt[i] - 1] = 1;
    qn_system_apply(sys, y, other, s);
    for (int i = 0; i < 16; i++)
        T_EQ(y[i], 0);
    qn_system_free(sys);
}

/* Seed 002: the 5x5 quiet patterns span the kernel. */
static void test_seed_002(void)
{
    static const char *quiet[3] = {"10101/10101/00000/10101/10101",
                                   "11011/00000/11011/00000/11011",
                                   "01110/10101/11011/10101/01110"};
    qn_system *sys = plus_system(5, 5, 2);
    uint8_t q[25], y[25], zero[25] = {0};

    T_EQ(kernel_size(sys), 4);
    T_CHECK(qn_system_is_symmetric(sys));
    for (int i = 0; i < 3; i++) {
        parse_cells(q, 25, quiet[i]);
        qn_system_apply(sys, y, q, zero);
        T_CHECK(memcmp(y, zero, 25) == 0);
    }
    qn_system_free(sys);
}

/* Seed 003 (corrected): the ring of 6 with 8 colours. */
static void test_seed_003(void)
{
    uint8_t *a = t_ring(6), s[6], x[6];
    static const uint8_t g1[6] = {1, 7, 0, 1, 7, 0}, g2[6] = {0, 1, 7, 0, 1, 7};
    qn_system *sys;
    uint64_t v, nsolv = 0, agree = 0;
    uint8_t y[6], z[6] = {0};

    T_EQ(qn_system_new(&sys, a, 6, 6, 8, NULL), QN_OK);
    T_EQ(kernel_size(sys), 64);
    T_CHECK(qn_system_group_size_u64(sys, QN_IMAGE, &v) == 0 && v == 4096);
    qn_system_apply(sys, y, g1, z);
    T_CHECK(memcmp(y, z, 6) == 0);
    qn_system_apply(sys, y, g2, z);
    T_CHECK(memcmp(y, z, 6) == 0);
    for (uint32_t i = 0; i < (1u << 18); i++) {
        int cond, solv;
        for (int c = 0; c < 6; c++)
            s[c] = (uint8_t)((i >> (3 * c)) & 7);
        cond = (s[0] - s[1] + s[3] - s[4] + 64) % 8 == 0 &&
               (s[1] - s[2] + s[4] - s[5] + 64) % 8 == 0;
        solv = qn_system_solve(sys, x, s) == QN_OK;
        nsolv += solv;
        agree += cond == solv;
    }
    T_EQ(nsolv, 4096);
    T_EQ(agree, 1u << 18);
    qn_system_free(sys);
    free(a);
}

/* Composite moduli: kernels as groups, not powers of k. */
static void test_composite(void)
{
    qn_system *sys = plus_system(4, 4, 8);
    static const unsigned inv[4] = {2, 2, 8, 8};

    T_EQ(kernel_size(sys), 256);
    T_EQ(qn_system_kernel_ngens(sys), 4);
    for (size_t i = 0; i < 4 && i < qn_system_kernel_ngens(sys); i++)
        T_EQ(qn_system_kernel_order(sys, i), inv[i]);
    qn_system_free(sys);
    sys = plus_system(5, 5, 3);
    T_EQ(kernel_size(sys), 27);
    qn_system_free(sys);
    sys = plus_system(5, 5, 8);
    T_EQ(kernel_size(sys), 64);
    qn_system_free(sys);
}

/* Seed 004: Quatrainment is invertible over GF(2) and not symmetric. */
static void test_quatrainment(void)
{
    uint8_t *a = t_quatrainment();
    qn_system *sys;

    T_EQ(qn_system_new(&sys, a, 16, 16, 2, NULL), QN_OK);
    T_EQ(kernel_size(sys), 1);
    T_CHECK(!qn_system_is_symmetric(sys));
    qn_system_free(sys);
    free(a);
}

/* OEIS A075464: fewest presses that turn off the all-on n x n board. */
static void test_all_on(void)
{
    static const long want[21] = {0,  1,   4,   5,   4,   15,  28,
                                  33, 40,  25,  44,  55,  72,  105,
                                  56, 117, 104, 147, 188, 141, 224};
    for (int n = 1; n <= 20; n++) {
        qn_system *sys = plus_system(n, n, 2);
        uint8_t *s = malloc((size_t)n * n), *x = malloc((size_t)n * n);
        qn_minpress mp;

        memset(s, 1, (size_t)n * n);
        T_EQ(qn_minpress_solve(sys, &mp, x, s, 1 << 20, NULL), QN_OK);
        if ((long)mp.presses != want[n])
            T_FAILF("all-on %dx%d: %llu presses, A075464 says %ld", n, n,
                    (unsigned long long)mp.presses, want[n]);
        else
            t_pass++;
        qn_system_free(sys);
        free(s);
        free(x);
    }
}

/* Project Euler 707: solvable states F(w, h) of small rectangles. */
static void test_rectangles(void)
{
    static const int wh[3][3] = {{1, 2, 2}, {3, 3, 512}, {4, 4, 4096}};
    for (int i = 0; i < 3; i++) {
        qn_system *sys = plus_system(wh[i][0], wh[i][1], 2);
        uint64_t v = 0;
        qn_system_group_size_u64(sys, QN_IMAGE, &v);
        T_EQ(v, wh[i][2]);
        qn_system_free(sys);
    }
}

int main(void)
{
    test_nullity();
    test_seed_000();
    test_seed_002();
    test_seed_003();
    test_composite();
    test_quatrainment();
    test_all_on();
    test_rectangles();
    distribution(4, "plus_4x4_min_presses.tsv", 16);
    distribution(5, "plus_5x5_min_presses.tsv", 25);
    return t_done();
}
