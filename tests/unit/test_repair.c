/*
 * test_repair.c: minimal repairs against brute force. For small random
 * systems and every state: the number of cells changed equals the least
 * Hamming distance to a solvable state (found by listing every state), the
 * repaired state is solvable, the change depends only on the state's class
 * (a fixed translation per coset), and so repairing every state hits each
 * solvable state equally often (uniform projection). On boards past 64
 * cells (classic 9x9, two words of cells for the two-colour classes):
 * the class against its definition, the digits c_j . s mod 2 of
 * system.h's conditions, and the repair against solvability.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/repair.h"
#include "engine/system.h"
#include "t.h"
#include "tboards.h"

static uint64_t seed = 7;

static uint32_t ipow(unsigned k, int n)
{
    uint32_t v = 1;
    while (n--)
        v *= k;
    return v;
}

static void vec(uint8_t *v, uint32_t idx, int n, unsigned k)
{
    for (int i = 0; i < n; i++, idx /= k)
        v[i] = (uint8_t)(idx % k);
}

static void check_system(const uint8_t *a, int n, unsigned k)
{
    uint32_t ns = ipow(k, n);
    uint8_t *solv = calloc(ns, 1), s[16], t[16], d0[16];
    uint32_t *hits = calloc(ns, sizeof(uint32_t));
    uint64_t *cls_delta = NULL;
    qn_system *sys;
    qn_repair *rep;
    int cells[17];
    uint8_t vals[17];
    long bad = 0;

    T_EQ(qn_system_new(&sys, a, n, n, k, NULL), QN_OK);
    T_EQ(qn_repair_new(&rep, sys, NULL), QN_OK);
    for (uint32_t i = 0; i < ns; i++) {
        vec(s, i, n, k);
        solv[i] = (uint8_t)qn_system_is_solvable(sys, s);
    }
    cls_delta = calloc(ns, sizeof(uint64_t));
    for (uint32_t i = 0; i < ns; i++) {
        int best = n + 1, got;
        uint64_t q, delta = 0;

        vec(s, i, n, k);
        for (uint32_t j = 0; j < ns; j++) { /* nearest solvable state */
            int dist = 0;
            if (!solv[j])
                continue;
            vec(t, j, n, k);
            for (int c = 0; c < n; c++)
                dist += s[c] != t[c];
            if (dist < best)
                best = dist;
        }
        got = qn_repair_find(rep, s, cells, vals);
        bad += got != best;
        memcpy(t, s, (size_t)n);
        for (int c = 0; c < got; c++)
            t[cells[c]] = vals[c];
        bad += !qn_system_is_solvable(sys, t);
        /* the translation t - s, per class */
        for (int c = 0; c < n; c++) {
            d0[c] = (uint8_t)((t[c] + k - s[c]) % k);
            delta = delta * k + d0[c];
        }
        q = qn_repair_class(rep, s);
        if (cls_delta[q] == 0)
            cls_delta[q] = delta + 1;
        else
            bad += cls_delta[q] != delta + 1;
        {
            uint32_t ti = 0;
            for (int c = n - 1; c >= 0; c--)
                ti = ti * k + t[c];
            hits[ti]++;
        }
    }
    T_EQ(bad, 0);
    {
        uint32_t want = 0, nonuniform = 0;
        for (uint32_t j = 0; j < ns; j++)
            if (solv[j]) {
                if (!want)
                    want = hits[j];
                nonuniform += hits[j] != want;
            } else {
                nonuniform += hits[j] != 0;
            }
        T_EQ(nonuniform, 0);
    }
    qn_repair_free(rep);
    qn_system_free(sys);
    free(solv);
    free(hits);
    free(cls_delta);
}

/* A two-colour board of n > 64 cells: random states, and A x for random
 * presses x (solvable by construction). */
static void check_big(const uint8_t *a, int n)
{
    qn_system *sys;
    qn_repair *rep;
    uint8_t s[128], t[128];
    int cells[129];
    uint8_t vals[129];
    long bad = 0, zero = 0;

    T_CHECK(n > 0 && n <= 128); /* the buffers' size */
    if (n <= 0 || n > 128)
        return;
    T_EQ(qn_system_new(&sys, a, n, n, 2, NULL), QN_OK);
    T_EQ(qn_repair_new(&rep, sys, NULL), QN_OK);
    T_CHECK(qn_system_cokernel_ngens(sys) > 0);
    for (int trial = 0; trial < 400; trial++) {
        uint64_t want = 0;
        int got;
        for (int i = 0; i < n; i++)
            s[i] = (uint8_t)(t_rand(&seed) & 1);
        if (trial % 2) { /* A x for random presses x: solvable */
            memcpy(t, s, (size_t)n);
            for (int i = 0; i < n; i++) {
                unsigned v = 0;
                for (int j = 0; j < n; j++)
                    v += (unsigned)a[i * n + j] * t[j];
                s[i] = (uint8_t)(v % 2);
            }
        }
        for (size_t j = 0; j < qn_system_cokernel_ngens(sys); j++) {
            const uint8_t *c = qn_system_condition(sys, j);
            unsigned acc = 0;
            for (int i = 0; i < n; i++)
                acc += (unsigned)c[i] * s[i];
            want += (uint64_t)(acc % 2) << j; /* place value 2^j */
        }
        bad += qn_repair_class(rep, s) != want;
        bad += (want == 0) != qn_system_is_solvable(sys, s);
        zero += want == 0;
        got = qn_repair_find(rep, s, cells, vals);
        memcpy(t, s, (size_t)n);
        for (int c = 0; c < got; c++)
            t[cells[c]] = vals[c];
        bad += !qn_system_is_solvable(sys, t);
        bad += (got == 0) != (want == 0);
    }
    T_EQ(bad, 0);
    T_CHECK(zero >= 200 && zero < 400); /* both kinds were met */
    qn_repair_free(rep);
    qn_system_free(sys);
}

int main(void)
{
    uint8_t a[64];
    uint8_t *plus;

    for (unsigned k = 2; k <= 6; k++)
        for (int trial = 0; trial < 6; trial++) {
            int n = k <= 3 ? 5 : 4;
            for (int i = 0; i < n * n; i++)
                a[i] = (uint8_t)(t_rand(&seed) % 3 ? 0 : t_rand(&seed) % k);
            check_system(a, n, k);
        }
    plus = t_plus(2, 3, 1); /* a 2x3 plus board, singular over GF(2)? */
    check_system(plus, 6, 2);
    free(plus);
    plus = t_ring(6);
    for (int i = 0; i < 36; i++)
        plus[i] = (uint8_t)(plus[i] * 2); /* ring with amount 2, mod 4 */
    check_system(plus, 6, 4);
    free(plus);
    plus = t_plus(9, 9, 1); /* classic 9x9: 81 cells, 2^8 classes */
    check_big(plus, 81);
    free(plus);
    return t_done();
}
