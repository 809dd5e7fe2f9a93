/* fuzz_diff: differential test of qn_system / qn_minpress against brute
 * force. The bytes give a tiny system (1..5 rows, 1..6 unknowns, k 2..6,
 * k^unknowns <= 1024), its matrix and a state; every answer is checked
 * against a walk over all k^n press vectors. (fuzz_gen is the other
 * differential target: validate(generate(seed)).) */
#include <string.h>

#include "engine/minpress.h"
#include "engine/system.h"
#include "fuzz.h"

#define MAXR 5
#define MAXC 6

struct each_ctx {
    const uint8_t *a, *s;
    int nr, nc;
    unsigned k;
    uint64_t n;
};

static int is_solution(const uint8_t *a, int nr, int nc, unsigned k,
                       const uint8_t *x, const uint8_t *s)
{
    for (int i = 0; i < nr; i++) {
        unsigned v = s[i];
        for (int j = 0; j < nc; j++)
            v += (unsigned)a[i * nc + j] * x[j];
        if (v % k)
            return 0;
    }
    return 1;
}

static int count_each(void *vctx, const uint8_t *x)
{
    struct each_ctx *c = vctx;
    FUZZ_ASSERT(is_solution(c->a, c->nr, c->nc, c->k, x, c->s));
    c->n++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > FUZZ_MAX_INPUT)
        return 0;
    size_t pos = 0;
#define NEXT() (pos < size ? data[pos++] : 0)
    unsigned k = 2 + NEXT() % 5;
    uint8_t dims = NEXT();
    int nr = 1 + dims % MAXR, nc = 1 + (dims / MAXR) % MAXC;
    uint64_t total = 1;
    for (int j = 0; j < nc; j++)
        total *= k;
    while (total > 1024) { /* the walk's cost bounds the exec rate */
        nc--;
        total /= k;
    }
    uint8_t a[MAXR * MAXC], s[MAXR], x[MAXC], best[MAXC], y[MAXR];
    for (int i = 0; i < nr * nc; i++)
        a[i] = NEXT() % k;
    for (int i = 0; i < nr; i++)
        s[i] = NEXT() % k;
#undef NEXT

    qn_system *sys = NULL;
    qn_err err = QN_ERR_INIT;
    FUZZ_ASSERT(qn_system_new(&sys, a, nr, nc, k, &err) == QN_OK);
    FUZZ_ASSERT(qn_system_nrows(sys) == nr && qn_system_ncols(sys) == nc);
    FUZZ_ASSERT(qn_system_modulus(sys) == k);
    FUZZ_ASSERT(memcmp(qn_system_matrix(sys), a, (size_t)(nr * nc)) == 0);

    /* brute force: solutions of A x + s = 0, their least cost, how many
     * attain it, the lexicographically smallest optimum (x[0] first), the
     * kernel size and the image size */
    uint64_t nsol = 0, nker = 0, nopt = 0, bestcost = UINT64_MAX;
    static uint8_t seen[4096]; /* images as base-k numbers (k^nr <= 7776) */
    static uint8_t seen_big[7776];
    uint64_t kr = 1;
    for (int i = 0; i < nr; i++)
        kr *= k;
    memset(seen_big, 0, sizeof seen_big);
    (void)seen;
    uint64_t nimage = 0;
    memset(x, 0, sizeof x);
    uint8_t zero[MAXR] = {0};
    for (uint64_t t = 0; t < total; t++) {
        uint64_t v = t;
        for (int j = nc - 1; j >= 0; j--) { /* x[0] most significant */
            x[j] = (uint8_t)(v % k);
            v /= k;
        }
        uint64_t code = 0;
        for (int i = 0; i < nr; i++) {
            unsigned acc = 0;
            for (int j = 0; j < nc; j++)
                acc += (unsigned)a[i * nc + j] * x[j];
            code = code * k + acc % k;
        }
        if (!seen_big[code]) {
            seen_big[code] = 1;
            nimage++;
        }
        if (is_solution(a, nr, nc, k, x, zero))
            nker++;
        if (is_solution(a, nr, nc, k, x, s)) {
            nsol++;
            uint64_t cost = 0;
            for (int j = 0; j < nc; j++)
                cost += x[j];
            if (cost < bestcost) { /* t ascends: first optimum is lex-min */
                bestcost = cost;
                nopt = 1;
                memcpy(best, x, (size_t)nc);
            } else if (cost == bestcost) {
                nopt++;
            }
        }
    }
    FUZZ_ASSERT(kr <= sizeof seen_big);

    int solvable = nsol > 0;
    FUZZ_ASSERT(qn_system_is_solvable(sys, s) == solvable);
    memset(x, 0xAA, sizeof x);
    int rc = qn_system_solve(sys, x, s);
    if (solvable) {
        FUZZ_ASSERT(rc == QN_OK);
        FUZZ_ASSERT(is_solution(a, nr, nc, k, x, s));
        qn_system_apply(sys, y, x, s);
        for (int i = 0; i < nr; i++)
            FUZZ_ASSERT(y[i] == 0);
    } else {
        FUZZ_ASSERT(rc == QN_EUNSOLVABLE);
    }

    /* groups */
    uint64_t gk = 0, gi = 0, gc = 0;
    FUZZ_ASSERT(qn_system_group_size_u64(sys, QN_KERNEL, &gk) == QN_OK);
    FUZZ_ASSERT(qn_system_group_size_u64(sys, QN_IMAGE, &gi) == QN_OK);
    FUZZ_ASSERT(qn_system_group_size_u64(sys, QN_COKERNEL, &gc) == QN_OK);
    FUZZ_ASSERT(gk == nker);
    FUZZ_ASSERT(gi == nimage);
    FUZZ_ASSERT(gc * nimage == kr);
    uint64_t prod = 1;
    for (size_t g = 0; g < qn_system_kernel_ngens(sys); g++) {
        const uint8_t *gen = qn_system_kernel_gen(sys, g);
        unsigned o = qn_system_kernel_order(sys, g);
        FUZZ_ASSERT(o > 1);
        FUZZ_ASSERT(is_solution(a, nr, nc, k, gen, zero));
        for (int j = 0; j < nc; j++)
            FUZZ_ASSERT((gen[j] * o) % k == 0);
        prod *= o;
    }
    FUZZ_ASSERT(prod == nker);
    prod = 1;
    for (size_t j = 0; j < qn_system_cokernel_ngens(sys); j++)
        prod *= qn_system_cokernel_order(sys, j);
    FUZZ_ASSERT(prod == gc);

    /* minimal presses */
    qn_minpress mp;
    memset(x, 0xAA, sizeof x);
    rc = qn_minpress_solve(sys, &mp, x, s, QN_MINPRESS_DEFAULT_LIMIT, &err);
    if (!solvable) {
        FUZZ_ASSERT(rc == QN_EUNSOLVABLE);
    } else {
        FUZZ_ASSERT(rc == QN_OK);
        FUZZ_ASSERT(mp.exact == 1);
        FUZZ_ASSERT(mp.nsolutions == nsol);
        FUZZ_ASSERT(mp.presses == bestcost);
        FUZZ_ASSERT(mp.noptimal == nopt);
        FUZZ_ASSERT(is_solution(a, nr, nc, k, x, s));
        FUZZ_ASSERT(memcmp(x, best, (size_t)nc) == 0);
    }
    struct each_ctx c = {a, s, nr, nc, k, 0};
    int64_t nv = qn_minpress_each(sys, s, UINT64_MAX, count_each, &c);
    if (!solvable) {
        FUZZ_ASSERT(nv == QN_EUNSOLVABLE);
    } else {
        FUZZ_ASSERT(nv >= 0 && (uint64_t)nv == nsol && c.n == nsol);
    }
    qn_system_free(sys);
    return 0;
}
