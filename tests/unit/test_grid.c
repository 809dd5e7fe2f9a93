/*
 * test_grid.c: the big-board front (grid.h) against dense elimination
 * (qn_system + qn_minpress) on small boards, whichever method it picks:
 * the polynomial method over GF(2) and GF(p) and light chasing must give
 * the same verdict, minimal presses and optimal count for random states,
 * k = 2..9, and plans that replay.
 */
#include <stdlib.h>
#include <string.h>

#include "bigboard/grid.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"
#include "tstencil.h"

static uint64_t seed = 9;

static const int plus[5][3] = {
    {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
static const int moore[9][3] = {{-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
                                {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},
                                {-1, 1, 1},  {0, 1, 1},  {1, 1, 1}};
static const int knight[8][3] = {{1, 2, 1},   {2, 1, 1},  {-1, 2, 1},
                                 {-2, 1, 1},  {1, -2, 1}, {2, -1, 1},
                                 {-1, -2, 1}, {-2, -1, 1}};

static void to_state(qn_grid_state *g, const uint8_t *c)
{
    if (g->k == 2)
        qn_bitboard_from_cells(&g->bits, c);
    else
        memcpy(g->cells, c, (size_t)g->w * g->h);
}

/* One board, eight random states (every other one solvable). */
static void compare(int w, int h, unsigned k, const int (*off)[3], int n,
                    long *bad, long *cases)
{
    int cells = w * h;
    uint8_t *a = t_stencil_dense(w, h, k, off, n);
    uint8_t *s = malloc((size_t)cells), *x = malloc((size_t)cells);
    qn_grid_rule r = {(char *)"t", w, h, k, (int(*)[3])off, (size_t)n};
    qn_system *sys = NULL;
    qn_grid *g = NULL;

    if (qn_system_new(&sys, a, cells, cells, k, NULL) ||
        qn_grid_new(&g, &r, NULL)) {
        T_FAILF("%dx%d mod %u refused", w, h, k);
        (*bad)++;
        goto done;
    }
    for (int it = 0; it < 8; it++) {
        qn_grid_state gs, gx;
        qn_grid_answer ans;
        qn_minpress mp;
        int rd, rg;
        for (int i = 0; i < cells; i++)
            s[i] = (uint8_t)(t_rand(&seed) % k);
        if (it & 1) { /* solvable for sure */
            for (int i = 0; i < cells; i++)
                x[i] = (uint8_t)(t_rand(&seed) % k);
            t_stencil_apply(s, x, NULL, w, h, k, off, n);
        }
        qn_grid_state_init(&gs, w, h, k);
        qn_grid_state_init(&gx, w, h, k);
        to_state(&gs, s);
        rd = qn_minpress_solve(sys, &mp, x, s, 1 << 20, NULL);
        rg = qn_grid_min_presses(g, &gx, &ans, &gs, NULL);
        (*cases)++;
        if (rd == QN_ELIMIT) { /* past both walk limits: a checked bound */
            if (rg != QN_OK || ans.exact || ans.lower_bound > ans.presses ||
                qn_grid_state_sum(&gx) != ans.presses ||
                !qn_grid_replays(&r, &gx, &gs)) {
                T_FAILF("%dx%d mod %u: big kernel answer inconsistent", w, h,
                        k);
                (*bad)++;
            }
        } else if (rd != rg ||
                   (rd == QN_OK && (!ans.exact || ans.presses != mp.presses ||
                                    ans.noptimal != mp.noptimal ||
                                    qn_grid_state_sum(&gx) != mp.presses ||
                                    !qn_grid_replays(&r, &gx, &gs)))) {
            T_FAILF("%dx%d mod %u (%s): dense %d %llu/%llu, grid %d %llu/%llu",
                    w, h, k, qn_grid_method(g), rd,
                    (unsigned long long)mp.presses,
                    (unsigned long long)mp.noptimal, rg,
                    (unsigned long long)ans.presses,
                    (unsigned long long)ans.noptimal);
            (*bad)++;
        }
        qn_grid_state_release(&gs);
        qn_grid_state_release(&gx);
    }
done:
    qn_grid_free(g);
    qn_system_free(sys);
    free(a);
    free(s);
    free(x);
}

int main(void)
{
    long bad = 0, cases = 0;

    for (unsigned k = 2; k <= 9; k++)
        for (int w = 1; w <= 6; w++)
            for (int h = 1; h <= 6; h++) {
                compare(w, h, k, plus, 5, &bad, &cases);
                compare(w, h, k, moore, 9, &bad, &cases);
                if (w >= 3 && h >= 3)
                    compare(w, h, k, knight, 8, &bad, &cases);
            }
    T_EQ(bad, 0);
    T_CHECK(cases > 4000);
    /* which method each family gets */
    {
        qn_grid_rule r = {(char *)"t", 9, 7, 5, (int(*)[3])plus, 5};
        qn_grid *g = NULL;
        T_EQ(qn_grid_new(&g, &r, NULL), QN_OK);
        T_CHECK(g &&
                !strcmp(qn_grid_method(g), "polynomial method over GF(p)"));
        qn_grid_free(g);
        r.k = 2;
        T_EQ(qn_grid_new(&g, &r, NULL), QN_OK);
        T_CHECK(g &&
                !strcmp(qn_grid_method(g), "polynomial method over GF(2)"));
        qn_grid_free(g);
        r.k = 6;
        T_EQ(qn_grid_new(&g, &r, NULL), QN_OK);
        T_CHECK(g && !strcmp(qn_grid_method(g), "light chasing"));
        qn_grid_free(g);
    }
    /* no method: both refusals are given, the chase's first */
    {
        static const int self_only[1][3] = {{0, 0, 1}};
        qn_grid_rule r = {(char *)"t", 9, 7, 2, (int(*)[3])self_only, 1};
        qn_grid *g = NULL;
        qn_err err = QN_ERR_INIT;
        T_EQ(qn_grid_new(&g, &r, &err), QN_EINVAL);
        T_CHECK(!strncmp(err.msg, "stencil not chaseable: ", 23));
        T_CHECK(strstr(err.msg, "; and not a plus stencil") != NULL);
    }
    return t_done();
}
