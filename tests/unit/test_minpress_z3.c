/*
 * test_minpress_z3.c: the k = 3 walk on bit-sliced vectors (issue #35)
 * gives the least total, the number of optima and the lexicographically
 * smallest optimum that an independent recount finds over the explicitly
 * listed coset x0 + span(kernel), for systems of 1 to 200 cells (one to
 * four words, kernels of 3^1 to 3^6) and for systems full of ties.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"

static uint64_t seed = 35;

/*
 * n x n over Z/3 whose last d columns are random combinations of the
 * others (a kernel of dimension at least d); with `dup` set the added
 * columns copy one column each, so many coset elements tie.
 */
static uint8_t *system3(int n, int d, int dup)
{
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n - d; c++)
            a[(size_t)r * n + c] = (uint8_t)(t_rand(&seed) % 3);
    for (int c = n - d; c < n; c++)
        for (int j = 0; j < n - d; j++) {
            unsigned m =
                dup ? (j == c - (n - d)) : (unsigned)(t_rand(&seed) % 3);
            for (int r = 0; r < n && m; r++)
                a[(size_t)r * n + c] = (uint8_t)((a[(size_t)r * n + c] +
                                                  m * a[(size_t)r * n + j]) %
                                                 3);
        }
    return a;
}

/* Every element of x0 + span(gens), by an odometer over the digits. */
static void recount(const qn_system *sys, const uint8_t *x0, uint64_t *minw,
                    uint64_t *nopt, uint8_t *first)
{
    int n = qn_system_ncols(sys), d = (int)qn_system_kernel_ngens(sys);
    unsigned c[16] = {0};
    uint8_t *x = malloc((size_t)n);

    *minw = UINT64_MAX;
    *nopt = 0;
    for (;;) {
        uint64_t w = 0;
        int i;
        memcpy(x, x0, (size_t)n);
        for (i = 0; i < d; i++) {
            const uint8_t *g = qn_system_kernel_gen(sys, (size_t)i);
            for (int j = 0; j < n; j++)
                x[j] = (uint8_t)((x[j] + c[i] * g[j]) % 3);
        }
        for (int j = 0; j < n; j++)
            w += x[j];
        if (w < *minw) {
            *minw = w;
            *nopt = 1;
            memcpy(first, x, (size_t)n);
        } else if (w == *minw) {
            ++*nopt;
            if (memcmp(x, first, (size_t)n) < 0)
                memcpy(first, x, (size_t)n);
        }
        for (i = 0; i < d && ++c[i] == 3; i++)
            c[i] = 0;
        if (i == d)
            break;
    }
    free(x);
}

static void one(int n, int d, int dup)
{
    uint8_t *a = system3(n, d, dup), *s = malloc((size_t)n),
            *x0 = malloc((size_t)n), *x = malloc((size_t)n),
            *first = malloc((size_t)n), *e = calloc((size_t)n, 1);
    qn_system *sys;
    qn_minpress mp;
    uint64_t minw, nopt;

    T_EQ(qn_system_new(&sys, a, n, n, 3, NULL), QN_OK);
    T_CHECK(qn_system_kernel_ngens(sys) >= (size_t)d &&
            qn_system_kernel_ngens(sys) <= 8);
    /* a solvable state: A e for a random press vector e */
    for (int c = 0; c < n; c++)
        e[c] = (uint8_t)(t_rand(&seed) % 3);
    for (int r = 0; r < n; r++) {
        unsigned v = 0;
        for (int c = 0; c < n; c++)
            v += a[(size_t)r * n + c] * e[c];
        s[r] = (uint8_t)(v % 3);
    }
    T_EQ(qn_system_solve(sys, x0, s), QN_OK);
    recount(sys, x0, &minw, &nopt, first);
    T_EQ(qn_minpress_solve(sys, &mp, x, s, UINT64_MAX, NULL), QN_OK);
    T_EQ(mp.presses, minw);
    T_EQ(mp.noptimal, nopt);
    T_CHECK(memcmp(x, first, (size_t)n) == 0);
    qn_system_free(sys);
    free(a);
    free(s);
    free(x0);
    free(x);
    free(first);
    free(e);
}

int main(void)
{
    static const int sizes[] = {1, 5, 63, 64, 65, 130, 200};

    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int d = 1; d <= 6 && d < sizes[i]; d++)
            for (int rep = 0; rep < 3; rep++) {
                one(sizes[i], d, 0);
                one(sizes[i], d, 1);
            }
    return t_done();
}
