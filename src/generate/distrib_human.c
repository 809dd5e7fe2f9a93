/*
 * distrib_human.c: which image elements are spot (human.h): the states
 * some optimal plan of which presses cells with pairwise disjoint
 * footprints. Rather than list every state's optimal plans, every plan
 * with disjoint footprints is listed once (a walk over the cells, each
 * pressed 1..k-1 times or not, a cell skipped when its footprint meets
 * one pressed before), located in the image, and marked when its press
 * count is the state's least (the distance table): a census of a human
 * level target so costs a walk over those plans, not a solve per state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "distrib_internal.h"

/* A walk may visit this many plans per image element (plus a floor):
 * past it the rule's footprints are too sparse for the walk to pay. */
#define PLANS_PER_STATE 4
#define PLANS_FLOOR ((uint64_t)1 << 16)

typedef struct walk {
    const qn_distrib *d;
    int n;
    unsigned k;
    const int *start, *cell; /* each column's footprint: cells
                                cell[start[j] .. start[j + 1]) */
    uint8_t *used;           /* cells in a pressed footprint */
    unsigned dig[MAXCOMP];   /* the plan's image digits */
    uint64_t word;           /* k = 2: the same as bits */
    uint64_t *bits;
    uint64_t plans, cap;
} walk;

static uint64_t walk_index(const walk *w)
{
    const qn_distrib *d = w->d;
    uint64_t idx = 0;

    if (d->k == 2)
        return w->word;
    for (size_t t = 0; t < d->ncomp; t++)
        idx += w->dig[t] * d->stride[t];
    return idx;
}

/* Press column j `times` more (its footprint's digits added). */
static void add_column(walk *w, int j, unsigned times)
{
    const qn_distrib *d = w->d;

    for (size_t t = 0; t < d->ncomp; t++) {
        unsigned c = d->col[(size_t)j * MAXCOMP + t];
        if (d->k == 2)
            w->word ^= (uint64_t)(c & 1) << t;
        else
            w->dig[t] = (w->dig[t] + times * c) % d->order[t];
    }
}

/* Plans pressing only cells from `from` on, beside what is pressed now
 * (`presses` in all); 0 once past the cap. */
static int visit(walk *w, int from, uint64_t presses)
{
    for (int j = from; j < w->n; j++) {
        int free_foot = w->start[j] < w->start[j + 1];
        for (int e = w->start[j]; e < w->start[j + 1] && free_foot; e++)
            free_foot = !w->used[w->cell[e]];
        if (!free_foot)
            continue;
        for (int e = w->start[j]; e < w->start[j + 1]; e++)
            w->used[w->cell[e]] = 1;
        for (unsigned t = 1; t < w->k; t++) {
            add_column(w, j, 1);
            uint64_t idx = walk_index(w);
            if (++w->plans > w->cap)
                return 0;
            if (dget(w->d, idx) == presses + t)
                w->bits[idx / 64] |= (uint64_t)1 << (idx % 64);
            if (!visit(w, j + 1, presses + t))
                return 0;
        }
        add_column(w, j, 1); /* k presses: back to none */
        for (int e = w->start[j]; e < w->start[j + 1]; e++)
            w->used[w->cell[e]] = 0;
    }
    return 1;
}

int qn_distrib__spots(const qn_distrib *d, const uint8_t *a, uint64_t *bits)
{
    int n = d->ncols;
    walk w;
    int ok;

    /* more optimal plans than the ladder lists leave a state's level
     * undecided (QN_HUMAN_MAX_PLANS): keep to kernels smaller than that,
     * where the walk and the ladder agree on every state */
    if (d->nrows != n ||
        (double)n * log2((double)d->k) - log2((double)d->total) > 10 ||
        d->k > 64)
        return 0;
    memset(&w, 0, sizeof(w));
    w.d = d;
    w.n = n;
    w.k = d->k;
    w.bits = bits;
    w.cap = PLANS_FLOOR + PLANS_PER_STATE * d->total;
    int *start = QN_ALLOCN((size_t)n + 1, int);
    int *cell = QN_ALLOCN((size_t)n * n + 1, int);
    w.used = QN_ALLOCN((size_t)n + 1, uint8_t);
    if (!start || !cell || !w.used) {
        free(start);
        free(cell);
        free(w.used);
        return QN_ENOMEM;
    }
    start[0] = 0;
    for (int j = 0; j < n; j++) {
        start[j + 1] = start[j];
        for (int i = 0; i < n; i++)
            if (a[(size_t)i * n + j])
                cell[start[j + 1]++] = i;
    }
    w.start = start;
    w.cell = cell;
    memset(bits, 0, sizeof(uint64_t) * (size_t)(d->total / 64 + 1));
    ok = visit(&w, 0, 0);
    free(start);
    free(cell);
    free(w.used);
    return ok;
}
