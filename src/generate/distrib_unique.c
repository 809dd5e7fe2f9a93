/*
 * distrib_unique.c: which solvable states have exactly one optimal plan,
 * for every state of the image at once, from the distance table alone
 * (for unique-optimum targets counted and selected exactly: census).
 */
#include "distrib_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * Let v be an image element at distance m >= 1 and J the columns j whose
 * predecessor u_j = v - a_j is at distance m - 1. Every optimal plan x of
 * v with x_j >= 1 gives the optimal plan x - e_j of u_j, and every
 * optimal plan x' of such a u_j gives the optimal plan x' + e_j of v (x'_j
 * < k - 1, else x' with x'_j cleared would reach v in m - k presses). So
 * J is the union of the supports of v's optimal plans, and:
 *
 *   v has one optimal plan  <=>  every u_j (j in J) has one, and for every
 *   j in J other than j0 = min J the plan of u_j has lowest column j0.
 *
 * (=>) the plan of u_j is x - e_j, which keeps j0. (<=) if v had two
 * plans x != y, a column in both would give u_j two plans, so their
 * supports are disjoint; say j0 is in x's; for i in y's, the plan y - e_i
 * of u_i avoids j0. So one byte per state (the lowest column of its plan)
 * decides it, level by level from the goal.
 */

/* k = 2: the index of u_j is v's XOR the column's digit bits. */
static void xor_words(const qn_distrib *d, uint32_t *word)
{
    for (int j = 0; j < d->ncols; j++) {
        word[j] = 0;
        for (size_t t = 0; t < d->ncomp; t++)
            word[j] |= (uint32_t)d->col[(size_t)j * MAXCOMP + t] << t;
    }
}

/* k > 2: the index of v - a_j from v's digits. */
static uint64_t pred_zk(const qn_distrib *d, const unsigned *dig, int j)
{
    uint64_t u = 0;

    for (size_t t = 0; t < d->ncomp; t++) {
        unsigned o = d->order[t];
        unsigned c = d->col[(size_t)j * MAXCOMP + t] % o;
        u += (uint64_t)((dig[t] + o - c) % o) * d->stride[t];
    }
    return u;
}

/* The byte for v at distance m, its predecessors' bytes known. */
static uint8_t judge(const qn_distrib *d, const uint8_t *out,
                     const uint32_t *word, uint64_t v, unsigned m)
{
    unsigned dig[MAXCOMP];
    int j0 = -1;

    if (!word)
        for (size_t t = 0; t < d->ncomp; t++)
            dig[t] = (unsigned)((v / d->stride[t]) % d->order[t]);
    for (int j = 0; j < d->ncols; j++) {
        uint64_t u = word ? (v ^ word[j]) : pred_zk(d, dig, j);
        if (dget(d, u) + 1 != m)
            continue;
        if (out[u] == QN_DISTRIB__MANY)
            return QN_DISTRIB__MANY;
        if (j0 < 0)
            j0 = j;
        else if (out[u] != j0)
            return QN_DISTRIB__MANY;
    }
    return (uint8_t)j0;
}

int qn_distrib__unique(const qn_distrib *d, uint8_t *out, qn_err *err)
{
    uint32_t *word = NULL;

    if (d->ncols >= QN_DISTRIB__GOAL)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "unique optima are counted exactly for at most "
                          "%d presses, this rule has %d",
                          QN_DISTRIB__GOAL - 1, d->ncols);
    if (d->k == 2) {
        if (!(word = QN_ALLOCN((size_t)d->ncols + 1, uint32_t)))
            return qn_err_nomem(err);
        xor_words(d, word);
    }
    out[0] = QN_DISTRIB__GOAL;
    for (unsigned m = 1; m < d->len; m++)
        for (uint64_t v = 0; v < d->total; v++)
            if (dget(d, v) == m)
                out[v] = judge(d, out, word, v, m);
    free(word);
    return QN_OK;
}
