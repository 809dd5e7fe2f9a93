/*
 * coset_walk.c: the exact coset walk of coset_walk.h.
 */
#include "bigboard/coset_walk.h"

#include <string.h>

typedef struct walk {
    size_t n, ng;
    unsigned k;
    const uint8_t *g; /* ng patterns of n cells */
    const unsigned *order;
    uint8_t *x, *best;
    uint64_t sum, bestw, nopt;
} walk;

static void consider(walk *wk)
{
    int cmp = wk->sum != wk->bestw ? (wk->sum < wk->bestw ? -1 : 1)
                                   : memcmp(wk->x, wk->best, wk->n);

    if (wk->sum == wk->bestw)
        wk->nopt++;
    else if (wk->sum < wk->bestw)
        wk->nopt = 1;
    if (cmp < 0) {
        wk->bestw = wk->sum;
        memcpy(wk->best, wk->x, wk->n);
    }
}

static void walk_level(walk *wk, size_t j)
{
    if (j == wk->ng) {
        consider(wk);
        return;
    }
    const uint8_t *g = wk->g + j * wk->n;
    for (unsigned a = 0; a < wk->order[j]; a++) {
        walk_level(wk, j + 1);
        uint64_t sum = 0;
        for (size_t i = 0; i < wk->n; i++) {
            unsigned v = wk->x[i] + g[i];
            wk->x[i] = (uint8_t)(v >= wk->k ? v - wk->k : v);
            sum += wk->x[i];
        }
        wk->sum = sum;
    }
}

void qn_coset_walk(uint8_t *best_out, uint64_t *presses, uint64_t *noptimal,
                   uint8_t *x, const uint8_t *gens, const unsigned *orders,
                   size_t ngens, size_t n, unsigned k)
{
    walk wk = {0};

    wk.n = n;
    wk.ng = ngens;
    wk.k = k;
    wk.g = gens;
    wk.order = orders;
    wk.x = x;
    wk.best = best_out;
    wk.bestw = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        wk.sum += x[i];
    walk_level(&wk, 0);
    *presses = wk.bestw;
    *noptimal = wk.nopt;
}
