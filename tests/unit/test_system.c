/*
 * test_system.c: the engine against brute force. For every k in 2..12 and
 * random (mostly non-symmetric, often singular) systems small enough to
 * enumerate all k^n press vectors, every state's solvability, solution
 * count, minimal clicks, number of optimal solutions and lexicographically
 * smallest optimal plan must equal the enumeration; and the group
 * descriptions must satisfy their identities.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"

#define BRUTE_MAX (1 << 16) /* k^n and k^m are kept below this */

static uint64_t seed = 0x9e3779b97f4a7c15ULL;

typedef struct brute {
    uint32_t *count;  /* per state index: solutions */
    uint32_t *minsum; /* least clicks */
    uint32_t *nopt;   /* solutions attaining it */
    uint32_t *best;   /* index of the lexicographically first optimum */
} brute;

/* Index of a vector with v[0] as the most significant digit. */
static uint32_t index_of(const uint8_t *v, int n, unsigned k)
{
    uint32_t idx = 0;
    for (int i = 0; i < n; i++)
        idx = idx * k + v[i];
    return idx;
}

static void vector_of(uint8_t *v, uint32_t idx, int n, unsigned k)
{
    for (int i = n - 1; i >= 0; i--) {
        v[i] = (uint8_t)(idx % k);
        idx /= k;
    }
}

/*
 * Enumerate every x in increasing lexicographic order; s = -A x. The first
 * x reaching a state's minimum is its lexicographically smallest optimum.
 */
static void enumerate(brute *b, const uint8_t *a, int m, int n, unsigned k,
                      uint32_t nx, uint32_t ns)
{
    uint8_t x[16], s[16];

    for (uint32_t i = 0; i < ns; i++)
        b->minsum[i] = UINT32_MAX;
    for (uint32_t xi = 0; xi < nx; xi++) {
        uint32_t sum = 0, si;
        vector_of(x, xi, n, k);
        for (int j = 0; j < n; j++)
            sum += x[j];
        for (int r = 0; r < m; r++) {
            unsigned acc = 0;
            for (int c = 0; c < n; c++)
                acc += (unsigned)a[r * n + c] * x[c];
            s[r] = (uint8_t)((k - acc % k) % k);
        }
        si = index_of(s, m, k);
        b->count[si]++;
        if (sum < b->minsum[si]) {
            b->minsum[si] = sum;
            b->nopt[si] = 1;
            b->best[si] = xi;
        } else if (sum == b->minsum[si]) {
            b->nopt[si]++;
        }
    }
}

static uint32_t ipow(unsigned k, int n)
{
    uint32_t v = 1;
    while (n--)
        v *= k;
    return v;
}

/* Random matrices with structure: zero-divisor rows, repeats, sparsity. */
static void random_matrix(uint8_t *a, int m, int n, unsigned k)
{
    int kind = (int)(t_rand(&seed) % 4);

    for (int i = 0; i < m * n; i++) {
        unsigned v = (unsigned)(t_rand(&seed) % k);
        if (kind == 1 && t_rand(&seed) % 3)
            v = 0;
        a[i] = (uint8_t)v;
    }
    if (kind == 2 && m > 1) /* a repeated row */
        memcpy(a + (m - 1) * n, a, (size_t)n);
    if (kind == 3) { /* scale a row and a column by a divisor of k */
        unsigned d = 1;
        for (unsigned p = 2; p < k; p++)
            if (k % p == 0) {
                d = p;
                break;
            }
        for (int c = 0; c < n; c++)
            a[c] = (uint8_t)(a[c] * d % k);
        for (int r = 0; r < m; r++)
            a[r * n] = (uint8_t)(a[r * n] * d % k);
    }
}

/* ord(g) == o exactly: o g = 0 and (o/p) g != 0 for each prime p | o. */
static int has_order(const uint8_t *g, int n, unsigned k, unsigned o)
{
    for (int c = 0; c < n; c++)
        if ((g[c] * o) % k)
            return 0;
    for (unsigned p = 2; p <= o; p++) {
        int nz = 0;
        if (o % p)
            continue;
        for (int c = 0; c < n; c++)
            nz |= (g[c] * (o / p)) % k != 0;
        if (!nz)
            return 0;
    }
    return 1;
}

static void check_groups(const qn_system *sys, const uint8_t *a, int m, int n,
                         unsigned k, const brute *b, uint32_t ns)
{
    uint64_t ksize = 1, img = 0, csize = 1, v;
    size_t i;

    for (i = 0; i < qn_system_kernel_ngens(sys); i++) {
        const uint8_t *g = qn_system_kernel_gen(sys, i);
        unsigned o = qn_system_kernel_order(sys, i);
        uint8_t y[16];
        int zero = 1;

        T_CHECK(o > 1);
        if (i > 0)
            T_CHECK(o % qn_system_kernel_order(sys, i - 1) == 0);
        memset(y, 0, sizeof(y));
        qn_system_apply(sys, y, g, y);
        for (int r = 0; r < m; r++)
            zero &= y[r] == 0;
        T_CHECK(zero);
        T_CHECK(has_order(g, n, k, o));
        ksize *= o;
    }
    for (i = 0; i < qn_system_cokernel_ngens(sys); i++)
        csize *= qn_system_cokernel_order(sys, i);
    for (uint32_t si = 0; si < ns; si++)
        img += b->count[si] != 0;
    T_EQ(ksize, b->count[0]);
    T_EQ(img * ksize, ipow(k, n));
    T_EQ(img * csize, ipow(k, m));
    T_CHECK(qn_system_group_size_u64(sys, QN_KERNEL, &v) == 0 && v == ksize);
    T_CHECK(qn_system_group_size_u64(sys, QN_IMAGE, &v) == 0 && v == img);
    (void)a;
}

/* Conditions: all hold exactly on the image; the quotient map is onto. */
static void check_conditions(const qn_system *sys, int m, unsigned k,
                             const brute *b, uint32_t ns)
{
    size_t nc = qn_system_cokernel_ngens(sys);
    uint64_t csize = 1, hit = 0;
    uint8_t s[16];
    char *seen;

    for (size_t j = 0; j < nc; j++)
        csize *= qn_system_cokernel_order(sys, j);
    seen = calloc(csize + 1, 1);
    for (uint32_t si = 0; si < ns; si++) {
        uint64_t q = 0;
        vector_of(s, si, m, k);
        for (size_t j = 0; j < nc; j++) {
            const uint8_t *c = qn_system_condition(sys, j);
            unsigned d = qn_system_cokernel_order(sys, j), acc = 0;
            for (int r = 0; r < m; r++)
                acc = (acc + (unsigned)c[r] * s[r]) % d;
            q = q * d + acc;
        }
        if ((q == 0) != (b->count[si] != 0))
            T_FAILF("k=%u state %u: conditions disagree with brute force", k,
                    si);
        hit += !seen[q];
        seen[q] = 1;
    }
    T_EQ(hit, csize);
    free(seen);
}

static void check_states(const qn_system *sys, int m, int n, unsigned k,
                         const brute *b, uint32_t ns)
{
    uint8_t s[16], x[16], bx[16], y[16];
    long bad = 0;

    for (uint32_t si = 0; si < ns; si++) {
        qn_minpress mp;
        int solvable = b->count[si] != 0, rc;

        vector_of(s, si, m, k);
        if (qn_system_is_solvable(sys, s) != solvable)
            bad++;
        rc = qn_minpress_solve(sys, &mp, x, s, UINT64_MAX, NULL);
        if (!solvable) {
            bad += rc != QN_EUNSOLVABLE;
            continue;
        }
        vector_of(bx, b->best[si], n, k);
        qn_system_apply(sys, y, x, s);
        for (int r = 0; r < m; r++)
            bad += y[r] != 0;
        if (rc != QN_OK || mp.presses != b->minsum[si] ||
            mp.noptimal != b->nopt[si] || mp.nsolutions != b->count[si] ||
            !mp.exact || memcmp(x, bx, (size_t)n)) {
            if (bad < 5)
                T_FAILF("k=%u %dx%d state %u: got %llu/%llu/%llu, brute "
                        "%u/%u/%u",
                        k, m, n, si, (unsigned long long)mp.presses,
                        (unsigned long long)mp.noptimal,
                        (unsigned long long)mp.nsolutions, b->minsum[si],
                        b->nopt[si], b->count[si]);
            bad++;
        }
    }
    T_EQ(bad, 0);
}

static void one_system(unsigned k, int m, int n)
{
    uint32_t nx = ipow(k, n), ns = ipow(k, m);
    uint8_t a[256];
    brute b;
    qn_system *sys;
    qn_err err;

    random_matrix(a, m, n, k);
    b.count = calloc(ns, sizeof(uint32_t));
    b.minsum = calloc(ns, sizeof(uint32_t));
    b.nopt = calloc(ns, sizeof(uint32_t));
    b.best = calloc(ns, sizeof(uint32_t));
    enumerate(&b, a, m, n, k, nx, ns);
    T_EQ(qn_system_new(&sys, a, m, n, k, &err), QN_OK);
    if (sys) {
        check_groups(sys, a, m, n, k, &b, ns);
        check_conditions(sys, m, k, &b, ns);
        check_states(sys, m, n, k, &b, ns);
    }
    qn_system_free(sys);
    free(b.count);
    free(b.minsum);
    free(b.nopt);
    free(b.best);
}

static int max_dim(unsigned k)
{
    int n = 0;
    while (ipow(k, n + 1) <= BRUTE_MAX && n < 10)
        n++;
    return n;
}

static void test_brute_force(void)
{
    for (unsigned k = 2; k <= 12; k++) {
        int dmax = max_dim(k);
        for (int trial = 0; trial < 12; trial++) {
            int n = 1 + (int)(t_rand(&seed) % (unsigned)dmax);
            int m = 1 + (int)(t_rand(&seed) % (unsigned)dmax);
            if (trial == 0)
                m = n = dmax; /* square, the puzzle case */
            one_system(k, m, n);
        }
    }
}

static void test_errors(void)
{
    uint8_t a[4] = {1, 0, 0, 1}, bad[4] = {1, 0, 0, 3};
    qn_system *sys = (qn_system *)&sys;
    qn_err err;

    T_EQ(qn_system_new(&sys, a, 2, 2, 1, &err), QN_EINVAL);
    T_CHECK(sys == NULL);
    T_EQ(qn_system_new(&sys, a, 2, 2, 256, &err), QN_EINVAL);
    T_EQ(qn_system_new(&sys, bad, 2, 2, 3, &err), QN_EINVAL);
    T_CHECK(sys == NULL);
    T_EQ(qn_system_new(&sys, a, 0, 0, 5, &err), QN_OK);
    T_EQ(qn_system_kernel_ngens(sys), 0);
    qn_system_free(sys);
}

/* A kernel larger than the limit is reported, never walked or guessed. */
static void test_limit(void)
{
    uint8_t a[9 * 9] = {0}, s[9] = {1, 0, 0, 0, 0, 0, 0, 0, 1}, x[9];
    qn_system *sys;
    qn_minpress mp;
    qn_err err;

    a[0] = 1; /* one live column: kernel of 2^8 */
    a[8 * 9] = 1;
    T_EQ(qn_system_new(&sys, a, 9, 9, 2, &err), QN_OK);
    T_EQ(qn_minpress_solve(sys, &mp, x, s, 255, &err), QN_ELIMIT);
    T_EQ(mp.exact, 0);
    T_EQ(mp.nsolutions, 256);
    T_EQ(qn_minpress_solve(sys, &mp, x, s, 256, &err), QN_OK);
    T_EQ(mp.exact, 1);
    T_EQ(mp.presses, 1);
    T_EQ(mp.noptimal, 1);
    qn_system_free(sys);
}

int main(void)
{
    test_errors();
    test_limit();
    test_brute_force();
    return t_done();
}
