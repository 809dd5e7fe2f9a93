/*
 * test_zk.c: the Z/k factorisation against brute force on small systems,
 * published Lights Out facts, and identities on larger random systems.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "engine/zk.h"
#include "t.h"

/* Failures inside a case are tallied in case_bad; the first five print. */
static int case_bad;
#define CASE_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            if (case_bad++ < 5)                                                \
                T_FAILF(__VA_ARGS__);                                          \
        }                                                                      \
    } while (0)

static unsigned gcdu(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/*
 * A value below b from the high half of t_rand: nearly uniform, and safe
 * even with generators whose low bits follow a short linear recurrence
 * (such bits make "random" matrices mod 2^e far from full rank).
 */
static unsigned rnd_below(uint64_t *rng, unsigned b)
{
    return (unsigned)((t_rand(rng) >> 32) % b);
}

/* y = A x mod k, computed here and not by the library. */
static void mulv(unsigned *y, const qn_zmat *a, const uint8_t *x)
{
    int r, c;

    for (r = 0; r < a->nrows; r++) {
        unsigned long acc = 0;

        for (c = 0; c < a->ncols; c++)
            acc += (unsigned long)qn_zmat_get(a, r, c) * x[c];
        y[r] = (unsigned)(acc % a->k);
    }
}

static bool is_zero_u(const unsigned *v, int n)
{
    int i;

    for (i = 0; i < n; i++)
        if (v[i])
            return false;
    return true;
}

/* Additive order of a vector in (Z/k)^n: lcm of k / gcd(v_i, k). */
static unsigned vec_order(const uint8_t *v, int n, unsigned k)
{
    unsigned o = 1;
    int i;

    for (i = 0; i < n; i++) {
        unsigned oi = k / gcdu(v[i], k);
        o = o / gcdu(o, oi) * oi;
    }
    return o;
}

/*
 * A random matrix of one of several shapes: uniform; a product of two thin
 * random matrices (rank-deficient); entries scaled by a divisor of k (so
 * composite k gets non-unit pivots); sparse; repeated rows; banded.
 */
static void mat_rand(qn_zmat *a, uint64_t *rng, int kind)
{
    const unsigned k = a->k;
    int r, c, m = a->nrows, n = a->ncols;

    if (kind == 1 && m && n) {
        int t = (int)rnd_below(rng, 3) + 1, i;
        unsigned *b = calloc((size_t)m * t + 1, sizeof(*b));
        unsigned *d = calloc((size_t)t * n + 1, sizeof(*d));

        for (i = 0; i < m * t; i++)
            b[i] = rnd_below(rng, k);
        for (i = 0; i < t * n; i++)
            d[i] = rnd_below(rng, k);
        for (r = 0; r < m; r++)
            for (c = 0; c < n; c++) {
                unsigned acc = 0;
                for (i = 0; i < t; i++)
                    acc += b[r * t + i] * d[i * n + c];
                qn_zmat_set(a, r, c, acc);
            }
        free(b);
        free(d);
        return;
    }
    for (r = 0; r < m; r++)
        for (c = 0; c < n; c++) {
            unsigned v = rnd_below(rng, k);
            if (kind == 2) {
                unsigned dv;
                do
                    dv = rnd_below(rng, k) + 1;
                while (k % dv);
                v *= dv;
            } else if (kind == 3 && rnd_below(rng, 4)) {
                v = 0;
            } else if (kind == 5 && (r - c > 2 || c - r > 2)) {
                v = 0; /* banded, like a grid board */
            }
            qn_zmat_set(a, r, c, v);
        }
    if (kind == 4 && m > 1)
        for (r = 1; r < m; r += 2)
            memcpy(a->e + (size_t)r * n, a->e + (size_t)(r - 1) * n, (size_t)n);
}

/* Facts every factorisation must satisfy, whatever the size. */
static void check_structure(const qn_zfact *f, const qn_zmat *a)
{
    const unsigned k = a->k;
    const int m = a->nrows, n = a->ncols, mn = m < n ? m : n;
    unsigned *y = calloc((size_t)m + 1, sizeof(*y));
    const unsigned *inv = qn_zfact_invariants(f), *cord;
    size_t i, nk = qn_zfact_kernel_ngens(f), nc = qn_zfact_cokernel_ngens(f);
    int pexp_ker[256] = {0}, pexp_img[256] = {0}, pexp_cok[256] = {0};
    unsigned p, x;
    int c;

    CASE_CHECK(qn_zfact_nrows(f) == m && qn_zfact_ncols(f) == n &&
                   qn_zfact_modulus(f) == k,
               "shape");
    for (i = 0; i < nk; i++) {
        const uint8_t *g = qn_zfact_kernel_gen(f, i);
        unsigned o = qn_zfact_kernel_order(f, i);
        bool inrange = true;

        for (c = 0; c < n; c++)
            inrange &= g[c] < k;
        CASE_CHECK(inrange, "kernel gen %zu entries out of range", i);
        mulv(y, a, g);
        CASE_CHECK(is_zero_u(y, m), "A g_%zu != 0", i);
        CASE_CHECK(o > 1 && k % o == 0, "kernel order %u", o);
        CASE_CHECK(vec_order(g, n, k) == o, "g_%zu order %u, claimed %u", i,
                   vec_order(g, n, k), o);
        if (i + 1 < nk)
            CASE_CHECK(qn_zfact_kernel_order(f, i + 1) % o == 0,
                       "kernel orders not a divisibility chain");
    }
    CASE_CHECK(qn_zfact_ninvariants(f) == (size_t)mn, "ninvariants");
    for (i = 0; i < (size_t)mn; i++) {
        CASE_CHECK(inv[i] >= 1 && k % inv[i] == 0, "invariant %u", inv[i]);
        if (i + 1 < (size_t)mn)
            CASE_CHECK(inv[i + 1] % inv[i] == 0, "invariants not a chain");
    }
    cord = qn_zfact_cokernel_orders(f);
    for (i = 0; i < nc; i++) {
        const uint8_t *cj = qn_zfact_condition(f, i);
        bool inrange = true;
        int col, r;

        CASE_CHECK(cord[i] > 1 && k % cord[i] == 0, "cokernel order");
        if (i + 1 < nc)
            CASE_CHECK(cord[i + 1] % cord[i] == 0, "cokernel not a chain");
        for (r = 0; r < m; r++)
            inrange &= cj[r] < cord[i];
        CASE_CHECK(inrange, "condition %zu entries out of range", i);
        /* Every column of A lies in the image. */
        for (col = 0; col < n; col++) {
            unsigned long acc = 0;
            for (r = 0; r < m; r++)
                acc += (unsigned long)cj[r] * qn_zmat_get(a, r, col);
            CASE_CHECK(acc % cord[i] == 0, "condition %zu fails on column %d",
                       i, col);
        }
    }
    /*
     * |kernel| |image| = k^n and |image| |cokernel| = k^m, compared as
     * prime exponents; |image| = prod k / d_i from the Smith diagonal.
     */
    for (i = 0; i < nk; i++)
        for (x = qn_zfact_kernel_order(f, i), p = 2; x > 1; p++)
            while (x % p == 0) {
                x /= p;
                pexp_ker[p]++;
            }
    for (i = 0; i < nc; i++)
        for (x = cord[i], p = 2; x > 1; p++)
            while (x % p == 0) {
                x /= p;
                pexp_cok[p]++;
            }
    for (i = 0; i < (size_t)mn; i++)
        for (x = k / inv[i], p = 2; x > 1; p++)
            while (x % p == 0) {
                x /= p;
                pexp_img[p]++;
            }
    for (x = k, p = 2; x > 1; p++) {
        int e = 0;
        while (x % p == 0) {
            x /= p;
            e++;
        }
        CASE_CHECK(pexp_ker[p] + pexp_img[p] == e * n,
                   "|kernel| |image| != k^n at p=%u", p);
        CASE_CHECK(pexp_cok[p] + pexp_img[p] == e * m,
                   "|image| |cokernel| != k^m at p=%u", p);
    }
    free(y);
}

/* Increment a base-b counter of len digits; false when it wraps. */
static bool next_vec(uint8_t *v, int len, unsigned b)
{
    int i;

    for (i = 0; i < len; i++) {
        if (++v[i] < b)
            return true;
        v[i] = 0;
    }
    return false;
}

static size_t vec_index(const uint8_t *v, int len, unsigned b)
{
    size_t idx = 0;
    int i;

    for (i = len - 1; i >= 0; i--)
        idx = idx * b + v[i];
    return idx;
}

/* Everything against exhaustive enumeration; k^n and k^m must be small. */
static void brute_case(const qn_zmat *a, const char *what)
{
    const unsigned k = a->k;
    const int m = a->nrows, n = a->ncols;
    size_t nx = 1, ns = 1, nimg = 0, nker = 0, kprod = 1, cprod = 1;
    uint8_t *img, *x, *s, *xs;
    unsigned *y = calloc((size_t)m + 1, sizeof(*y));
    qn_zfact *f = NULL;
    qn_err err = QN_ERR_INIT;
    size_t nk, nc, j;
    int c, r;

    case_bad = 0;
    for (c = 0; c < n; c++)
        nx *= k;
    for (r = 0; r < m; r++)
        ns *= k;
    if (qn_zfact_new(&f, a, &err) != QN_OK || !f) {
        T_FAILF("%s: factorisation failed", what);
        free(y);
        return;
    }
    check_structure(f, a);
    img = calloc(ns, 1);
    x = calloc((size_t)n + 1, 1);
    s = calloc((size_t)m + 1, 1);
    xs = calloc((size_t)n + 1, 1);
    /* Enumerate all press vectors: kernel size and the image. */
    do {
        mulv(y, a, x);
        for (r = 0; r < m; r++)
            s[r] = (uint8_t)y[r];
        if (is_zero_u(y, m))
            nker++;
        if (!img[vec_index(s, m, k)]) {
            img[vec_index(s, m, k)] = 1;
            nimg++;
        }
    } while (next_vec(x, n, k));

    nk = qn_zfact_kernel_ngens(f);
    for (j = 0; j < nk; j++)
        kprod *= qn_zfact_kernel_order(f, j);
    CASE_CHECK(kprod == nker, "%s: kernel %zu, generators give %zu", what, nker,
               kprod);
    /* c -> sum c_i g_i is injective: all combinations distinct. */
    if (kprod == nker) {
        uint8_t *cc = calloc(nk + 1, 1), *mark = calloc(nx, 1);
        unsigned *ords = calloc(nk + 1, sizeof(*ords));
        size_t dup = 0;

        for (j = 0; j < nk; j++)
            ords[j] = qn_zfact_kernel_order(f, j);
        for (;;) {
            for (c = 0; c < n; c++) {
                unsigned acc = 0;
                for (j = 0; j < nk; j++)
                    acc += cc[j] * qn_zfact_kernel_gen(f, j)[c];
                x[c] = (uint8_t)(acc % k);
            }
            if (mark[vec_index(x, n, k)]++)
                dup++;
            for (j = 0; j < nk; j++) {
                if (++cc[j] < ords[j])
                    break;
                cc[j] = 0;
            }
            if (j == nk)
                break;
        }
        CASE_CHECK(dup == 0, "%s: %zu repeated kernel combinations", what, dup);
        free(cc);
        free(mark);
        free(ords);
    }

    /* Every right-hand side: solvability, solutions, conditions. */
    nc = qn_zfact_cokernel_ngens(f);
    for (j = 0; j < nc; j++)
        cprod *= qn_zfact_cokernel_orders(f)[j];
    CASE_CHECK(cprod * nimg == ns, "%s: |coker| %zu |image| %zu k^m %zu", what,
               cprod, nimg, ns);
    {
        size_t *hit = calloc(cprod + 1, sizeof(*hit));
        unsigned *coord = calloc(nc + 1, sizeof(*coord));
        size_t nhit = 0, nfibre = 0;

        memset(s, 0, (size_t)m);
        do {
            size_t si = vec_index(s, m, k), ci = 0;
            bool in = img[si], solv = qn_zfact_is_solvable(f, s) != 0;
            int rc;

            CASE_CHECK(in == solv, "%s: is_solvable wrong at s #%zu", what, si);
            memset(xs, 0xA5, (size_t)n);
            memset(x, 0xA5, (size_t)n);
            rc = qn_zfact_solve(f, x, s);
            if (in) {
                CASE_CHECK(rc == QN_OK, "%s: solve failed on solvable", what);
                mulv(y, a, x);
                for (r = 0; r < m; r++)
                    CASE_CHECK(y[r] == s[r], "%s: A x != s", what);
            } else {
                CASE_CHECK(rc == QN_EUNSOLVABLE, "%s: solve rc %d", what, rc);
                CASE_CHECK(!n || !memcmp(x, xs, (size_t)n),
                           "%s: x touched on failure", what);
            }
            qn_zfact_quotient(f, coord, s);
            for (j = nc; j-- > 0;) {
                const uint8_t *cj = qn_zfact_condition(f, j);
                unsigned d = qn_zfact_cokernel_orders(f)[j];
                unsigned long acc = 0;

                for (r = 0; r < m; r++)
                    acc += (unsigned long)cj[r] * s[r];
                CASE_CHECK(coord[j] == acc % d, "%s: qn_zfact_quotient", what);
                ci = ci * d + acc % d;
            }
            CASE_CHECK((ci == 0) == in, "%s: conditions disagree with image",
                       what);
            if (ci < cprod && !hit[ci]++)
                nhit++;
        } while (next_vec(s, m, k));
        /*
         * The quotient map is a homomorphism whose kernel is the image (the
         * check above), so it is an isomorphism iff it is onto.
         */
        CASE_CHECK(nhit == cprod, "%s: conditions hit %zu of %zu", what, nhit,
                   cprod);
        /* Fibres of a homomorphism are cosets of its kernel: all |image|. */
        for (j = 0; j < cprod; j++)
            nfibre += hit[j] == nimg;
        CASE_CHECK(nfibre == cprod, "%s: %zu of %zu fibres of size |image|",
                   what, nfibre, cprod);
        free(hit);
        free(coord);
    }
    if (case_bad)
        T_FAILF("%s: %d failures", what, case_bad);
    else
        t_pass++;
    free(img);
    free(x);
    free(s);
    free(xs);
    free(y);
    qn_zfact_free(f);
}

static void test_brute(void)
{
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    unsigned k;
    const size_t limit = 21000;

    for (k = 2; k <= 12; k++) {
        int maxd = 0, trial;
        size_t p = 1;

        while (p * k <= limit) {
            p *= k;
            maxd++;
        }
        for (trial = 0; trial < 80; trial++) {
            int m = (int)rnd_below(&rng, (unsigned)maxd + 1);
            int n = (int)rnd_below(&rng, (unsigned)maxd + 1);
            int kind = trial % 6;
            qn_zmat a;
            char what[64];

            if (trial == 0)
                m = n = maxd;
            qn_zmat_init(&a, m, n, k);
            mat_rand(&a, &rng, kind);
            snprintf(what, sizeof(what), "brute k=%u %dx%d kind %d trial %d", k,
                     m, n, kind, trial);
            brute_case(&a, what);
            qn_zmat_release(&a);
        }
    }
}

/* Classic plus board: a press adds 1 to the cell and its orthogonal
 * neighbours, no wrap. Cells row-major, w columns. */
static void plus_board(qn_zmat *a, int w, int h, unsigned k)
{
    int r, c, d;
    static const int dr[5] = {0, 1, -1, 0, 0}, dc[5] = {0, 0, 0, 1, -1};

    qn_zmat_init(a, w * h, w * h, k);
    for (r = 0; r < h; r++)
        for (c = 0; c < w; c++)
            for (d = 0; d < 5; d++) {
                int rr = r + dr[d], cc = c + dc[d];
                if (rr >= 0 && rr < h && cc >= 0 && cc < w)
                    qn_zmat_set(a, rr * w + cc, r * w + c, 1);
            }
}

static size_t kernel_size(const qn_zfact *f)
{
    size_t i, s = 1;

    for (i = 0; i < qn_zfact_kernel_ngens(f); i++)
        s *= qn_zfact_kernel_order(f, i);
    return s;
}

static void test_plus(void)
{
    static const struct {
        int w, h;
        unsigned k;
        size_t ker;
    } cases[] = {
        {4, 4, 8, 256}, {5, 5, 3, 27}, {5, 5, 8, 64},
        {4, 4, 2, 16},  {5, 5, 2, 4},  {3, 3, 2, 1},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        qn_zmat a;
        qn_zfact *f;

        plus_board(&a, cases[i].w, cases[i].h, cases[i].k);
        T_EQ(qn_zfact_new(&f, &a, NULL), QN_OK);
        case_bad = 0;
        check_structure(f, &a);
        T_EQ(case_bad, 0);
        T_EQ(kernel_size(f), cases[i].ker);
        if (cases[i].w == 4 && cases[i].k == 8) {
            /* (Z/8)^2 x (Z/2)^2, ascending. */
            T_EQ(qn_zfact_kernel_ngens(f), 4);
            T_EQ(qn_zfact_kernel_order(f, 0), 2);
            T_EQ(qn_zfact_kernel_order(f, 1), 2);
            T_EQ(qn_zfact_kernel_order(f, 2), 8);
            T_EQ(qn_zfact_kernel_order(f, 3), 8);
        }
        qn_zfact_free(f);
        qn_zmat_release(&a);
    }

    /* 5x5 mod 2: the generators are published quiet patterns. */
    {
        static const char *quiet[3] = {
            "10101"
            "10101"
            "00000"
            "10101"
            "10101",
            "11011"
            "00000"
            "11011"
            "00000"
            "11011",
            "01110"
            "10101"
            "11011"
            "10101"
            "01110",
        };
        qn_zmat a;
        qn_zfact *f;
        size_t g;
        int j, q;

        plus_board(&a, 5, 5, 2);
        qn_zfact_new(&f, &a, NULL);
        T_EQ(qn_zfact_kernel_ngens(f), 2);
        for (g = 0; g < qn_zfact_kernel_ngens(f); g++) {
            int found = 0;

            for (q = 0; q < 3; q++) {
                bool same = true;
                for (j = 0; j < 25; j++)
                    same &= qn_zfact_kernel_gen(f, g)[j] == quiet[q][j] - '0';
                found += same;
            }
            T_EQ(found, 1);
        }
        T_CHECK(qn_zfact_kernel_ngens(f) < 2 ||
                memcmp(qn_zfact_kernel_gen(f, 0), qn_zfact_kernel_gen(f, 1),
                       25) != 0);
        qn_zfact_free(f);
        qn_zmat_release(&a);
    }

    /* Project Euler 707: solvable states F(1,2) = 2, F(3,3) = 512,
     * F(4,4) = 4096, i.e. 2^cells / |cokernel|. */
    {
        static const int pe[3][3] = {{1, 2, 2}, {3, 3, 512}, {4, 4, 4096}};
        int j;

        for (j = 0; j < 3; j++) {
            qn_zmat a;
            qn_zfact *f;
            size_t g, coker = 1;

            plus_board(&a, pe[j][0], pe[j][1], 2);
            qn_zfact_new(&f, &a, NULL);
            for (g = 0; g < qn_zfact_cokernel_ngens(f); g++)
                coker *= qn_zfact_cokernel_orders(f)[g];
            T_EQ((1u << (pe[j][0] * pe[j][1])) / coker, pe[j][2]);
            qn_zfact_free(f);
            qn_zmat_release(&a);
        }
    }

    /* 4x4 mod 2: the published example state and its two solutions. */
    {
        static const uint8_t s0[16] = {0, 1, 0, 0, 1, 1, 1, 0,
                                       0, 0, 0, 1, 1, 1, 0, 1};
        uint8_t x[16], y[16];
        qn_zmat a;
        qn_zfact *f;
        int j;

        plus_board(&a, 4, 4, 2);
        qn_zfact_new(&f, &a, NULL);
        T_CHECK(qn_zfact_is_solvable(f, s0));
        T_EQ(qn_zfact_solve(f, x, s0), QN_OK);
        qn_zmat_mul_vec(y, &a, x);
        T_CHECK(!memcmp(y, s0, 16));
        /* x = cells {6, 14, 16} (1-based) also solves it. */
        memset(x, 0, 16);
        x[5] = x[13] = x[15] = 1;
        qn_zmat_mul_vec(y, &a, x);
        T_CHECK(!memcmp(y, s0, 16));
        for (j = 0; j < 16; j++)
            y[j] = s0[j] ^ (j == 0);
        T_CHECK(!qn_zfact_is_solvable(f, y)); /* one cell flipped */
        qn_zfact_free(f);
        qn_zmat_release(&a);
    }
}

/*
 * GF(2) nullity of the n x n plus board, from the published table (OEIS
 * A159257, copied into tests/golden/ from shared/conformance). Run from the
 * project root, as tests/run.sh does.
 */
static void test_nullity_table(void)
{
    const char *path = "tests/golden/plus_square_nullity.tsv";
    FILE *fp;
    int n, nul, nread = 0;
    char line[256];

    fp = fopen(path, "r");
    if (!fp) {
        T_FAILF("cannot open %s (run from the project root)", path);
        return;
    }
    while (fgets(line, sizeof(line), fp)) {
        qn_zmat a;
        qn_zfact *f;
        size_t i;
        bool all2 = true;

        if (sscanf(line, "%d %d", &n, &nul) != 2 || n > 32)
            continue;
        plus_board(&a, n, n, 2);
        qn_zfact_new(&f, &a, NULL);
        for (i = 0; i < qn_zfact_kernel_ngens(f); i++)
            all2 &= qn_zfact_kernel_order(f, i) == 2;
        T_CHECK(all2);
        if (qn_zfact_kernel_ngens(f) != (size_t)nul)
            T_FAILF("plus %dx%d mod 2: nullity %zu, published %d", n, n,
                    qn_zfact_kernel_ngens(f), nul);
        else
            t_pass++;
        qn_zfact_free(f);
        qn_zmat_release(&a);
        nread++;
    }
    fclose(fp);
    T_EQ(nread, 32);
}

/* Six cells in a ring mod 8: a press advances itself and both neighbours. */
static void test_ring(void)
{
    static const uint8_t p1[6] = {1, 7, 0, 1, 7, 0}, p2[6] = {0, 1, 7, 0, 1, 7};
    uint8_t s[6] = {0}, x[6];
    uint8_t *inspan = calloc(262144, 1);
    qn_zmat a;
    qn_zfact *f;
    size_t nsolv = 0, bad = 0, i;
    unsigned c1, c2;
    int j;

    qn_zmat_init(&a, 6, 6, 8);
    for (j = 0; j < 6; j++) {
        qn_zmat_set(&a, j, j, 1);
        qn_zmat_set(&a, (j + 1) % 6, j, 1);
        qn_zmat_set(&a, (j + 5) % 6, j, 1);
    }
    T_EQ(qn_zfact_new(&f, &a, NULL), QN_OK);
    T_EQ(kernel_size(f), 64);
    T_EQ(qn_zfact_kernel_ngens(f), 2);
    T_EQ(qn_zfact_kernel_order(f, 0), 8);
    T_EQ(qn_zfact_kernel_order(f, 1), 8);
    /* The published generators span 64 vectors; ours lie in that span. */
    for (c1 = 0; c1 < 8; c1++)
        for (c2 = 0; c2 < 8; c2++) {
            for (j = 0; j < 6; j++)
                x[j] = (uint8_t)((c1 * p1[j] + c2 * p2[j]) % 8);
            inspan[vec_index(x, 6, 8)] = 1;
        }
    for (i = 0; i < qn_zfact_kernel_ngens(f); i++)
        T_CHECK(inspan[vec_index(qn_zfact_kernel_gen(f, i), 6, 8)]);
    do {
        bool cond = (s[0] + 8 * 8 - s[1] + s[3] - s[4]) % 8 == 0 &&
                    (s[1] + 8 * 8 - s[2] + s[4] - s[5]) % 8 == 0;
        bool solv = qn_zfact_is_solvable(f, s) != 0;

        nsolv += solv;
        bad += cond != solv;
    } while (next_vec(s, 6, 8));
    T_EQ(nsolv, 4096);
    T_EQ(bad, 0);
    free(inspan);
    qn_zfact_free(f);
    qn_zmat_release(&a);
}

/* Quatrainment (not symmetric) is invertible over GF(2). */
static void test_quatrainment(void)
{
    static const int corner[4][6] = {{1, 2, 3, 5, 6, 9},
                                     {2, 3, 4, 7, 8, 12},
                                     {5, 9, 10, 13, 14, 15},
                                     {8, 11, 12, 14, 15, 16}};
    static const int corners[4] = {1, 4, 13, 16};
    qn_zmat a;
    qn_zfact *f;
    uint8_t s[16] = {0}, x[16], y[16];
    int j, r, c, d;
    size_t nsolv = 0, nok = 0;
    bool sym = true;

    qn_zmat_init(&a, 16, 16, 2);
    for (j = 0; j < 4; j++)
        for (d = 0; d < 6; d++)
            qn_zmat_set(&a, corner[j][d] - 1, corners[j] - 1, 1);
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++) {
            bool edge = r == 0 || r == 3 || c == 0 || c == 3;
            bool isc = (r == 0 || r == 3) && (c == 0 || c == 3);
            static const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};

            if (isc)
                continue;
            if (!edge)
                qn_zmat_set(&a, r * 4 + c, r * 4 + c, 1);
            for (d = 0; d < 4; d++) {
                int rr = r + dr[d], cc = c + dc[d];
                if (rr >= 0 && rr < 4 && cc >= 0 && cc < 4)
                    qn_zmat_set(&a, rr * 4 + cc, r * 4 + c, 1);
            }
        }
    for (r = 0; r < 16; r++)
        for (c = 0; c < 16; c++)
            sym &= qn_zmat_get(&a, r, c) == qn_zmat_get(&a, c, r);
    T_CHECK(!sym);
    T_EQ(qn_zfact_new(&f, &a, NULL), QN_OK);
    T_EQ(qn_zfact_kernel_ngens(f), 0);
    T_EQ(qn_zfact_cokernel_ngens(f), 0);
    do {
        if (qn_zfact_solve(f, x, s) == QN_OK) {
            nsolv++;
            qn_zmat_mul_vec(y, &a, x);
            nok += !memcmp(y, s, 16);
        }
    } while (next_vec(s, 16, 2));
    T_EQ(nsolv, 65536);
    T_EQ(nok, 65536);
    qn_zfact_free(f);
    qn_zmat_release(&a);
}

/* Identities on larger random systems, which run the vector code paths. */
static void big_case(int m, int n, unsigned k, int kind, uint64_t *rng)
{
    qn_zmat a;
    qn_zfact *f;
    uint8_t *x0 = calloc((size_t)n + 1, 1), *x = calloc((size_t)n + 1, 1);
    uint8_t *s = calloc((size_t)m + 1, 1);
    unsigned *y = calloc((size_t)m + 1, sizeof(*y)), *coord, *coord2;
    int trial, r, c;

    qn_zmat_init(&a, m, n, k);
    mat_rand(&a, rng, kind);
    if (qn_zfact_new(&f, &a, NULL) != QN_OK) {
        T_FAILF("big %dx%d mod %u: factorisation failed", m, n, k);
        goto done;
    }
    coord = calloc(qn_zfact_cokernel_ngens(f) + 1, sizeof(*coord));
    coord2 = calloc(qn_zfact_cokernel_ngens(f) + 1, sizeof(*coord2));
    case_bad = 0;
    check_structure(f, &a);
    for (trial = 0; trial < 20; trial++) {
        size_t j;
        bool sat = true;

        /* s = A x0 is solvable and the returned x solves it. */
        for (c = 0; c < n; c++)
            x0[c] = (uint8_t)rnd_below(rng, k);
        mulv(y, &a, x0);
        for (r = 0; r < m; r++)
            s[r] = (uint8_t)y[r];
        CASE_CHECK(qn_zfact_solve(f, x, s) == QN_OK, "image not solvable");
        mulv(y, &a, x);
        for (r = 0; r < m; r++)
            CASE_CHECK(y[r] == s[r], "A x != s");
        /* A random s: solvable iff the conditions hold. */
        for (r = 0; r < m; r++)
            s[r] = (uint8_t)rnd_below(rng, k);
        for (j = 0; j < qn_zfact_cokernel_ngens(f); j++) {
            const uint8_t *cj = qn_zfact_condition(f, j);
            unsigned long acc = 0;
            for (r = 0; r < m; r++)
                acc += (unsigned long)cj[r] * s[r];
            sat &= acc % qn_zfact_cokernel_orders(f)[j] == 0;
            coord[j] = (unsigned)(acc % qn_zfact_cokernel_orders(f)[j]);
        }
        qn_zfact_quotient(f, coord2, s);
        CASE_CHECK(!qn_zfact_cokernel_ngens(f) ||
                       !memcmp(coord, coord2,
                               qn_zfact_cokernel_ngens(f) * sizeof(*coord)),
                   "qn_zfact_quotient disagrees with the conditions");
        if (qn_zfact_solve(f, x, s) == QN_OK) {
            CASE_CHECK(sat, "solvable but a condition fails");
            mulv(y, &a, x);
            for (r = 0; r < m; r++)
                CASE_CHECK(y[r] == s[r], "A x != s (random s)");
        } else {
            CASE_CHECK(!sat, "unsolvable but the conditions hold");
        }
    }
    if (case_bad)
        T_FAILF("big %dx%d mod %u kind %d: %d failures", m, n, k, kind,
                case_bad);
    else
        t_pass++;
    free(coord);
    free(coord2);
    qn_zfact_free(f);
done:
    qn_zmat_release(&a);
    free(x0);
    free(x);
    free(s);
    free(y);
}

/*
 * Rank over a prime field by plain Gaussian elimination, written
 * independently of the library, to cross-check the kernel size.
 */
static int rank_mod_p(const qn_zmat *a)
{
    const unsigned p = a->k;
    int m = a->nrows, n = a->ncols, rank = 0, c, r, rr;
    unsigned *w = malloc(((size_t)m * n + 1) * sizeof(*w));

    for (r = 0; r < m; r++)
        for (c = 0; c < n; c++)
            w[r * n + c] = qn_zmat_get(a, r, c);
    for (c = 0; c < n && rank < m; c++) {
        unsigned inv = 1;
        for (r = rank; r < m && !w[r * n + c]; r++)
            ;
        if (r == m)
            continue;
        for (rr = 0; rr < n; rr++) {
            unsigned t = w[r * n + rr];
            w[r * n + rr] = w[rank * n + rr];
            w[rank * n + rr] = t;
        }
        while (w[rank * n + c] * inv % p != 1)
            inv++;
        for (r = rank + 1; r < m; r++) {
            unsigned fct = w[r * n + c] * inv % p;
            for (rr = c; rr < n; rr++)
                w[r * n + rr] =
                    (w[r * n + rr] + (p - fct) * w[rank * n + rr]) % p;
        }
        rank++;
    }
    free(w);
    return rank;
}

static void test_big(void)
{
    static const struct {
        int m, n;
        unsigned k;
    } cases[] = {
        {60, 60, 8},   {100, 80, 12},  {50, 50, 255}, {80, 100, 210},
        {120, 120, 7}, {90, 130, 128}, {70, 70, 243}, {65, 65, 250},
        {130, 70, 2},  {100, 100, 17}, {64, 96, 64},  {33, 97, 251},
        {6, 1400, 5}, /* m + 3n beyond qn_zfact_solve's stack scratch */
        {1200, 5, 6},  {0, 300, 10},   {300, 0, 10},
    };
    uint64_t rng = 12345;
    size_t i;
    unsigned k;
    int kind;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        for (kind = 0; kind < 6; kind++)
            big_case(cases[i].m, cases[i].n, cases[i].k, kind, &rng);
    /* Every modulus once, so every table and reduction path runs. */
    for (k = 2; k <= 255; k++)
        big_case(40 + (int)(k % 7), 37 + (int)(k % 5), k, (int)(k % 6), &rng);

    /* Prime k: kernel and cokernel counts against an independent rank. */
    for (k = 2; k < 40; k++) {
        qn_zmat a;
        qn_zfact *f;
        int rk, m = 70 + (int)(k % 9), n = 66 + (int)(k % 11);

        if (k != 2 && k != 3 && k != 5 && k != 7 && k != 11 && k != 13 &&
            k != 31 && k != 37)
            continue;
        qn_zmat_init(&a, m, n, k);
        mat_rand(&a, &rng, k % 2 ? 1 : 4);
        rk = rank_mod_p(&a);
        qn_zfact_new(&f, &a, NULL);
        T_EQ(qn_zfact_kernel_ngens(f), n - rk);
        T_EQ(qn_zfact_cokernel_ngens(f), m - rk);
        qn_zfact_free(f);
        qn_zmat_release(&a);
    }
}

static void test_errors(void)
{
    qn_zmat a;
    qn_zfact *f = (qn_zfact *)&a;
    qn_err err = QN_ERR_INIT;

    qn_zmat_init(&a, 2, 2, 2);
    a.k = 1;
    T_EQ(qn_zfact_new(&f, &a, &err), QN_EINVAL);
    T_CHECK(f == NULL);
    T_EQ(err.code, QN_EINVAL);
    a.k = 256;
    f = (qn_zfact *)&a;
    T_EQ(qn_zfact_new(&f, &a, NULL), QN_EINVAL);
    T_CHECK(f == NULL);
    qn_zfact_free(NULL);
    qn_zmat_release(&a);
}

/* Entries beyond k-1 break the qn_zmat contract; they are read mod k. */
static void test_unreduced(void)
{
    static const unsigned ks[2] = {6, 8}; /* two parts; one (q == k) */
    uint64_t rng = 77;
    int t;

    for (t = 0; t < 2; t++) {
        const unsigned k = ks[t];
        qn_zmat a, b;
        qn_zfact *fa, *fb;
        size_t i;

        qn_zmat_init(&a, 30, 30, k);
        qn_zmat_init(&b, 30, 30, k);
        for (i = 0; i < 900; i++) {
            b.e[i] = (uint8_t)rnd_below(&rng, k);
            a.e[i] = (uint8_t)(b.e[i] + k * rnd_below(&rng, 256 / k));
        }
        qn_zfact_new(&fa, &a, NULL);
        qn_zfact_new(&fb, &b, NULL);
        T_EQ(qn_zfact_kernel_ngens(fa), qn_zfact_kernel_ngens(fb));
        T_EQ(qn_zfact_cokernel_ngens(fa), qn_zfact_cokernel_ngens(fb));
        case_bad = 0;
        check_structure(fa, &b);
        T_EQ(case_bad, 0);
        qn_zfact_free(fa);
        qn_zfact_free(fb);
        qn_zmat_release(&a);
        qn_zmat_release(&b);
    }
}

int main(void)
{
    test_errors();
    test_unreduced();
    test_brute();
    test_plus();
    test_nullity_table();
    test_ring();
    test_quatrainment();
    test_big();
    return t_done();
}
