/*
 * test_answer.c: qn_solver_answer against brute force on every state of
 * two-colour boards small enough to list: every press pattern x is
 * pressed (the XOR of its columns), which gives each state's solvability
 * and least press count without the solver. The answer tells unsolvable
 * states by their class before solving (issue #35), so: solvable exactly
 * for the states some x reaches, the least presses and the number of
 * optimal plans those of the listing, a plan that replays, and for an
 * unsolvable state the class qn_solver_answer_class gives equal to
 * qn_solver_class's and a repair that makes it solvable.
 */
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "solve/solver.h"
#include "t.h"
#include "trules.h"

static void every_state(const char *name, const char *spec)
{
    qn_rules *r = load_text(spec);
    qn_solver *solver = NULL;
    qn_answer a;
    qn_err e = QN_ERR_INIT;
    uint32_t ns, bad = 0, unsolvable = 0, ties = 0;
    uint8_t *least, *cells;
    uint32_t *count, *col;

    if (!r)
        return;
    int n = qn_rules_ncells(r);
    const uint8_t *m = qn_rules_matrix(r), *goal = qn_rules_goal(r);
    T_CHECK(n <= 20);
    ns = UINT32_C(1) << n;
    least = malloc(ns), count = calloc(ns, sizeof(*count));
    col = calloc((size_t)n, sizeof(*col)), cells = malloc((size_t)n + 1);
    memset(least, 0xff, ns);
    for (int j = 0; j < n; j++) /* column j: what pressing cell j flips */
        for (int i = 0; i < n; i++)
            col[j] |= (uint32_t)(m[i * n + j] & 1) << i;
    for (uint32_t x = 0, s = 0; x < ns; x++) {
        /* x in Gray code order: s = A x, one column a step */
        uint32_t g = x ^ x >> 1;
        int w = __builtin_popcount(g);
        if (x)
            s ^= col[__builtin_ctz(x)];
        if (w < least[s])
            least[s] = (uint8_t)w, count[s] = 0;
        count[s] += w == least[s];
    }
    T_CHECK(qn_solver_new(&solver, r, &e) == QN_OK);
    T_CHECK(qn_answer_init(&a, solver, &e) == QN_OK);
    for (uint32_t d = 0; d < ns; d++) {
        /* the state whose difference from the goal is d */
        uint64_t cls = UINT64_MAX;
        for (int i = 0; i < n; i++)
            cells[i] = (uint8_t)((d >> i & 1) ^ goal[i]);
        qn_solver_answer_class(solver, &a, cells, &cls);
        if (least[d] == 0xff) {
            unsolvable++;
            bad += a.solvable || a.exact;
            bad += cls != qn_solver_class(solver, cells) || cls == 0;
            bad += !a.repair_known;
            for (int c = 0; c < a.nrepair; c++)
                cells[a.repair_cell[c]] = a.repair_value[c];
            qn_solver_answer(solver, &a, cells);
            bad += !a.solvable;
            continue;
        }
        ties += count[d] > 1;
        bad += !a.solvable || !a.exact || a.mp.presses != least[d] ||
               a.mp.noptimal != count[d] || a.at_goal != (d == 0) ||
               !qn_solver_replays(solver, cells, a.plan);
    }
    if (bad)
        T_FAILF("%s: %u of %u states answered against the listing", name, bad,
                ns);
    T_EQ(bad, 0);
    T_CHECK(unsolvable > 0 && unsolvable < ns); /* both kinds were met */
    T_CHECK(ties > 0);                          /* and several optima */
    qn_answer_release(&a);
    qn_solver_free(solver);
    qn_rules_free(r);
    free(least), free(count), free(col), free(cells);
}

int main(void)
{
    every_state("classic 4x4", "quench: 1\nname: c4\ncolours: 2\n"
                               "board: {grid: [4, 4]}\n"
                               "press: {stencil: plus, self: true}\n");
    every_state("5x3 with a goal",
                "quench: 1\nname: g53\ncolours: 2\nboard: {grid: [5, 3]}\n"
                "press: {stencil: plus, self: true}\n"
                "goal: \"10101/01011/11100\"\n");
    every_state("3x5 torus", "quench: 1\nname: t35\ncolours: 2\n"
                             "board: {grid: [3, 5], wrap: both}\n"
                             "press: {stencil: plus, self: true}\n");
    return t_done();
}
