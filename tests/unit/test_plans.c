/*
 * test_plans.c: solutions listed by press count (plans.h) against brute
 * force: every press vector of a small board is tried on the rule's
 * published stencil (the plus: a press toggles the cell and its four
 * neighbours), so the expected lists owe nothing to the solver. Classic
 * 3x3 is invertible over GF(2) (one solution per state), classic 4x4 has
 * a kernel of 2^4 (16 solutions per solvable state; OEIS A159257, the rank
 * deficiency of n x n Lights Out, is 0 at n = 3 and 4 at n = 4).
 */
#include "solve/plans.h"

#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "solve/solver.h"
#include "t.h"
#include "trules.h"

#define MAXN 16

/* The plus stencil pressed by the bits of p on a w x w board, from s. */
static void apply_plus(uint8_t *out, const uint8_t *s, int w, unsigned p)
{
    memcpy(out, s, (size_t)(w * w));
    for (int j = 0; j < w * w; j++) {
        int r = j / w, c = j % w;
        if (!(p >> j & 1))
            continue;
        out[j] ^= 1;
        if (r > 0)
            out[j - w] ^= 1;
        if (r < w - 1)
            out[j + w] ^= 1;
        if (c > 0)
            out[j - 1] ^= 1;
        if (c < w - 1)
            out[j + 1] ^= 1;
    }
}

/* Every press vector solving s (to all off), ordered as plans.h orders:
 * by popcount, then lexicographically by per-cell counts. */
static int brute(unsigned *sol, const uint8_t *s, int w)
{
    uint8_t t[MAXN];
    int n = 0, cells = w * w;

    for (unsigned p = 0; p < (1u << cells); p++) {
        int zero = 1;
        apply_plus(t, s, w, p);
        for (int i = 0; i < cells; i++)
            zero &= t[i] == 0;
        if (zero)
            sol[n++] = p;
    }
    /* insertion sort: popcount, then cell 0 first (bit 0 high first) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            unsigned a = sol[j - 1], b = sol[j], ra = 0, rb = 0;
            int pa = __builtin_popcount(a), pb = __builtin_popcount(b);
            for (int c = 0; c < cells; c++) { /* reverse: cell 0 most sig. */
                ra |= (a >> c & 1u) << (cells - 1 - c);
                rb |= (b >> c & 1u) << (cells - 1 - c);
            }
            if (pa < pb || (pa == pb && ra <= rb))
                break;
            sol[j - 1] = b, sol[j] = a;
        }
    return n;
}

static unsigned as_bits(const uint8_t *x, int n)
{
    unsigned p = 0;

    for (int i = 0; i < n; i++)
        p |= (unsigned)(x[i] & 1) << i;
    return p;
}

static void check_board(const char *rules_text, int w, uint64_t seed,
                        int nstates)
{
    qn_rules *r = load_text(rules_text);
    qn_solver *solver = NULL;
    qn_err e = QN_ERR_INIT;
    unsigned sol[1 << MAXN];
    uint8_t s[MAXN];
    int n = w * w;

    if (!r || qn_solver_new(&solver, r, &e) != QN_OK) {
        T_FAILF("solver: %s", e.msg);
        qn_rules_free(r);
        return;
    }
    for (int k = 0; k < nstates; k++) {
        qn_plans all, opt, few;
        uint8_t zero[MAXN] = {0};
        int want, lo = 0, rc;
        /* odd rounds: a solvable state (presses on the goal); even: any */
        for (int i = 0; i < n; i++)
            s[i] = (uint8_t)(t_rand(&seed) & 1);
        if (k & 1)
            apply_plus(s, zero, w, (unsigned)t_rand(&seed) & ((1u << n) - 1));
        want = brute(sol, s, w);
        rc = qn_plans_find(&all, solver, s, QN_PLANS_MAX, 0, NULL);
        if (!want) {
            T_EQ(rc, QN_EUNSOLVABLE);
            T_EQ(all.count, 0);
            qn_plans_release(&all);
            continue;
        }
        T_EQ(rc, QN_OK);
        T_EQ(all.complete, 1);
        T_EQ(all.count, want);
        T_EQ(all.matched, want);
        for (int i = 0; i < want && i < (int)all.count; i++) {
            T_EQ(as_bits(all.x + i * n, n), sol[i]);
            T_EQ(all.presses[i], __builtin_popcount(sol[i]));
        }
        /* the optimal ones: the brute-force minimum, every one of them */
        while (lo < want &&
               __builtin_popcount(sol[lo]) == __builtin_popcount(sol[0]))
            lo++;
        T_EQ(qn_plans_find(&opt, solver, s, QN_PLANS_MAX, 1, NULL), QN_OK);
        T_EQ(opt.count, lo);
        T_EQ(opt.matched, lo);
        for (int i = 0; i < lo && i < (int)opt.count; i++)
            T_EQ(as_bits(opt.x + i * n, n), sol[i]);
        /* a limit keeps the cheapest and counts the rest */
        T_EQ(qn_plans_find(&few, solver, s, 3, 0, NULL), QN_OK);
        T_EQ(few.count, want < 3 ? want : 3);
        T_EQ(few.matched, want);
        for (int i = 0; i < (int)few.count; i++)
            T_EQ(as_bits(few.x + i * n, n), sol[i]);
        qn_plans_release(&all);
        qn_plans_release(&opt);
        qn_plans_release(&few);
    }
    qn_solver_free(solver);
    qn_rules_free(r);
}

static void test_limits(void)
{
    qn_rules *r = load_text("quench: 1\nname: c4\ncolours: 2\n"
                            "board: {grid: [4, 4]}\npress: {stencil: plus}\n");
    qn_solver *solver = NULL;
    qn_err e = QN_ERR_INIT;
    qn_plans p;
    uint8_t s[16] = {0};

    if (!r || qn_solver_new(&solver, r, &e) != QN_OK) {
        qn_rules_free(r);
        return;
    }
    T_EQ(qn_plans_find(&p, solver, s, 0, 0, &e), QN_EINVAL);
    T_EQ(p.x == NULL, 1);
    T_EQ(qn_plans_find(&p, solver, s, QN_PLANS_MAX + 1, 0, &e), QN_EINVAL);
    /* past the walk limit: no optimum to list; --all lists what it met */
    qn_solver_set_walk_limit(solver, 8);
    T_EQ(qn_plans_find(&p, solver, s, 10, 1, &e), QN_ELIMIT);
    T_EQ(p.count, 0);
    T_EQ(qn_plans_find(&p, solver, s, 10, 0, &e), QN_OK);
    T_EQ(p.complete, 0);
    T_EQ(p.count, 10);
    for (size_t i = 1; i < p.count; i++)
        T_CHECK(p.presses[i - 1] <= p.presses[i]);
    qn_plans_release(&p);
    qn_solver_free(solver);
    qn_rules_free(r);
}

int main(void)
{
    check_board("quench: 1\nname: c3\ncolours: 2\nboard: {grid: [3, 3]}\n"
                "press: {stencil: plus}\n",
                3, 3, 40);
    check_board("quench: 1\nname: c4\ncolours: 2\nboard: {grid: [4, 4]}\n"
                "press: {stencil: plus}\n",
                4, 4, 24);
    test_limits();
    return t_done();
}
