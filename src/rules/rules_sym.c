/*
 * rules_sym.c: the symmetry group of a compiled rule: the permutations of
 * the cells that preserve the press matrix and the goal, and its name.
 */
#include "rules_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * Graph boards have no geometry to propose candidates, so small ones get a
 * backtracking search for all automorphisms: cells are mapped in order,
 * each choice checked against every earlier one (A[p(i)][p(j)] = A[i][j]
 * both ways, same diagonal, same goal, same in/out degree). The identity
 * is found first. Bounded in cells, group size and steps; past a bound the
 * group is left as the identity and the name says which bound stopped it
 * (a complete graph of 7 cells has few cells but 7! = 5040 symmetries).
 */
#define GRAPH_SYM_MAX_CELLS 64
#define GRAPH_SYM_MAX_GROUP 1024
#define GRAPH_SYM_MAX_STEPS 2000000L

typedef struct gsearch {
    const uint8_t *a, *goal;
    int n;
    int *p, *din, *dout;
    uint8_t *used;
    int *out; /* found permutations, nout * n */
    size_t nout;
    long steps;
    int gave_up; /* 0, or the bound that stopped the search: GAVE_UP_* */
} gsearch;

enum { GAVE_UP_CELLS = 1, GAVE_UP_GROUP, GAVE_UP_STEPS };

static void gs_rec(gsearch *g, int i)
{
    int n = g->n, v, j;

    if (i == n) {
        if (g->nout == GRAPH_SYM_MAX_GROUP) {
            g->gave_up = GAVE_UP_GROUP;
            return;
        }
        memcpy(g->out + g->nout++ * (size_t)n, g->p, (size_t)n * sizeof(int));
        return;
    }
    for (v = 0; v < n && !g->gave_up; v++) {
        if (g->used[v])
            continue;
        if (++g->steps > GRAPH_SYM_MAX_STEPS) {
            g->gave_up = GAVE_UP_STEPS;
            return;
        }
        if (g->goal[v] != g->goal[i] || g->din[v] != g->din[i] ||
            g->dout[v] != g->dout[i] ||
            g->a[(size_t)v * n + v] != g->a[(size_t)i * n + i])
            continue;
        for (j = 0; j < i; j++)
            if (g->a[(size_t)v * n + g->p[j]] != g->a[(size_t)i * n + j] ||
                g->a[(size_t)g->p[j] * n + v] != g->a[(size_t)j * n + i])
                break;
        if (j < i)
            continue;
        g->p[i] = v;
        g->used[v] = 1;
        gs_rec(g, i + 1);
        g->used[v] = 0;
    }
}

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Order of a permutation: the lcm of its cycle lengths; 0 when out of
 * memory. */
static size_t perm_order(const int *p, int n)
{
    size_t ord = 1, len;
    int i, j;
    uint8_t *seen = QN_ALLOCN((size_t)n, uint8_t);

    if (!seen)
        return 0;

    for (i = 0; i < n; i++) {
        if (seen[i])
            continue;
        for (len = 0, j = i; !seen[j]; j = p[j], len++)
            seen[j] = 1;
        ord = ord / gcd(ord, len) * len;
    }
    free(seen);
    return ord;
}

/* Name an abstract permutation group: cyclic, elementary abelian 2-group,
 * dihedral, or just its order. QN_OK or QN_ENOMEM. */
static int name_group(char *out, size_t size, const int *g, size_t m, int n)
{
    size_t i, maxo = 1, maxi = 0, ninv = 0, o, k;
    int *pw, *nx, x;

    if (m == 1) {
        snprintf(out, size, "trivial");
        return QN_OK;
    }
    for (i = 1; i < m; i++) {
        if (!(o = perm_order(g + i * (size_t)n, n)))
            return QN_ENOMEM;
        ninv += o == 2;
        if (o > maxo) {
            maxo = o;
            maxi = i;
        }
    }
    if (maxo == m) {
        snprintf(out, size, "C%zu (order %zu)", m, m);
        return QN_OK;
    }
    if (ninv == m - 1) {
        for (k = 0, o = m; o > 1; o /= 2)
            k++;
        if (m == 4)
            snprintf(out, size, "C2 x C2 (order 4)");
        else
            snprintf(out, size, "C2^%zu (order %zu)", k, m);
        return QN_OK;
    }
    if (2 * maxo == m && maxo >= 3 && ninv >= maxo) {
        /* Dihedral iff everything outside the rotations <r> is an
         * involution; there are exactly maxo such elements. */
        size_t outside = 0, inv_out = 0;
        uint8_t *inr = QN_ALLOCN(m, uint8_t);
        pw = QN_ALLOCN((size_t)n, int);
        nx = QN_ALLOCN((size_t)n, int);
        if (!inr || !pw || !nx)
            goto nomem;
        for (x = 0; x < n; x++)
            pw[x] = x;
        for (k = 0; k < maxo; k++) {
            for (i = 0; i < m; i++)
                if (!memcmp(g + i * (size_t)n, pw, (size_t)n * sizeof(int)))
                    inr[i] = 1;
            for (x = 0; x < n; x++)
                nx[x] = g[maxi * (size_t)n + pw[x]];
            memcpy(pw, nx, (size_t)n * sizeof(int));
        }
        for (i = 0; i < m; i++)
            if (!inr[i]) {
                outside++;
                if (!(o = perm_order(g + i * (size_t)n, n)))
                    goto nomem;
                inv_out += o == 2;
            }
        free(inr);
        free(pw);
        free(nx);
        if (outside == maxo && inv_out == outside) {
            snprintf(out, size, "D%zu (order %zu)", maxo, m);
            return QN_OK;
        }
        goto order;
    nomem:
        free(inr);
        free(pw);
        free(nx);
        return QN_ENOMEM;
    }
order:
    snprintf(out, size, "order %zu", m);
    return QN_OK;
}

static int graph_syms(qn_rules_group *out, const uint8_t *a,
                      const uint8_t *goal, int n)
{
    int i, j;
    gsearch g;

    memset(&g, 0, sizeof(g));
    g.a = a;
    g.goal = goal;
    g.n = n;
    if (n > GRAPH_SYM_MAX_CELLS) {
        g.gave_up = GAVE_UP_CELLS;
    } else {
        g.p = QN_ALLOCN((size_t)n, int);
        g.din = QN_ALLOCN((size_t)n, int);
        g.dout = QN_ALLOCN((size_t)n, int);
        g.used = QN_ALLOCN((size_t)n, uint8_t);
        g.out = QN_ALLOCN((size_t)GRAPH_SYM_MAX_GROUP * n, int);
        if (!g.p || !g.din || !g.dout || !g.used || !g.out) {
            free(g.p);
            free(g.din);
            free(g.dout);
            free(g.used);
            free(g.out);
            return QN_ENOMEM;
        }
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                if (a[(size_t)i * n + j]) {
                    g.dout[j]++;
                    g.din[i]++;
                }
        gs_rec(&g, 0);
        free(g.p);
        free(g.din);
        free(g.dout);
        free(g.used);
    }
    if (g.gave_up) {
        free(g.out);
        if (!(out->syms = QN_ALLOCN((size_t)n, int)))
            return QN_ENOMEM;
        for (i = 0; i < n; i++)
            out->syms[i] = i;
        out->nsyms = 1;
        if (g.gave_up == GAVE_UP_CELLS)
            snprintf(out->name, sizeof(out->name),
                     "not searched (graph of %d cells, more than %d)", n,
                     GRAPH_SYM_MAX_CELLS);
        else if (g.gave_up == GAVE_UP_GROUP)
            snprintf(out->name, sizeof(out->name),
                     "not searched to the end (more than %d symmetries)",
                     GRAPH_SYM_MAX_GROUP);
        else
            snprintf(out->name, sizeof(out->name),
                     "not searched to the end (more than %ld steps)",
                     GRAPH_SYM_MAX_STEPS);
        return QN_OK;
    }
    /* shrink to fit; where even that fails, the block is big enough */
    if (!(out->syms = QN_REALLOCN(g.out, g.nout * (size_t)n, int)))
        out->syms = g.out;
    out->nsyms = g.nout;
    if (name_group(out->name, sizeof(out->name), out->syms, out->nsyms, n)) {
        free(out->syms);
        out->syms = NULL;
        out->nsyms = 0;
        return QN_ENOMEM;
    }
    return QN_OK;
}

/* A by columns, sparse: the rows of column j's nonzero entries are
 * rows[colstart[j] .. colstart[j + 1]). Both malloc'd. QN_OK or
 * QN_ENOMEM. */
static int column_index(int **colstart_out, int **rows_out, const uint8_t *a,
                        int n)
{
    int *colstart = QN_ALLOCN((size_t)n + 1, int), *rows, i, j;
    size_t nnz = 0;

    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            nnz += a[(size_t)i * n + j] != 0;
    if (!colstart || !(rows = QN_ALLOCN(nnz ? nnz : 1, int))) {
        free(colstart);
        return QN_ENOMEM;
    }
    nnz = 0;
    for (j = 0; j < n; j++) {
        colstart[j] = (int)nnz;
        for (i = 0; i < n; i++)
            if (a[(size_t)i * n + j])
                rows[nnz++] = i;
    }
    colstart[n] = (int)nnz;
    *colstart_out = colstart;
    *rows_out = rows;
    return QN_OK;
}

/* Whether p keeps the goal and A: A[p(i)][p(j)] == A[i][j] for the nonzero
 * entries of each column j, which with equal column counts is all of A. */
static int preserves(const int *p, const uint8_t *a, const uint8_t *goal,
                     const int *colstart, const int *rows, int n)
{
    int i, j;
    size_t q;

    for (j = 0; j < n; j++) {
        int pj = p[j];
        if (goal[pj] != goal[j] ||
            colstart[pj + 1] - colstart[pj] != colstart[j + 1] - colstart[j])
            return 0;
        for (q = (size_t)colstart[j]; q < (size_t)colstart[j + 1]; q++) {
            i = rows[q];
            if (a[(size_t)p[i] * n + pj] != a[(size_t)i * n + j])
                return 0;
        }
    }
    return 1;
}

/* Name the group from the point transforms of its nsyms elements (see
 * qn_layout_symmetries: the first npoint / 2 are rotations, 0 with a
 * translation), e.g. "D4 (order 8)" or "C2 with 9 translations (order
 * 18)". */
static void name_point_group(char *out, size_t size, const int *point,
                             size_t nsyms, int npoint, int trunc)
{
    int has_point[12] = {0}, nrot = 0, nmir = 0, i;
    size_t ntrans = 0, c;
    char group[48];

    for (c = 0; c < nsyms; c++) {
        if (point[c] == 0)
            ntrans++;
        has_point[point[c]] = 1;
    }
    for (i = 0; i < npoint; i++) {
        if (!has_point[i])
            continue;
        if (i < npoint / 2)
            nrot++;
        else
            nmir++;
    }
    if (nrot == 1 && nmir == 0)
        snprintf(group, sizeof(group), "trivial");
    else if (nmir == 0)
        snprintf(group, sizeof(group), "C%d", nrot);
    else if (nrot == 1)
        snprintf(group, sizeof(group), "mirror C2");
    else if (nrot == 2)
        snprintf(group, sizeof(group), "C2 x C2");
    else
        snprintf(group, sizeof(group), "D%d", nrot);
    if (nsyms == 1)
        snprintf(out, size, "trivial");
    else if (ntrans > 1 && nrot == 1 && nmir == 0)
        snprintf(out, size, "%zu translations (order %zu)", ntrans, nsyms);
    else if (ntrans > 1)
        snprintf(out, size, "%s with %zu translations (order %zu)", group,
                 ntrans, nsyms);
    else
        snprintf(out, size, "%s (order %zu)", group, nsyms);
    if (trunc) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "; translations not enumerated");
    }
}

/*
 * Symmetries: the layout proposes the shape's symmetries; keep those that
 * preserve A and the goal. The test walks the nonzero entries of each
 * column (A is sparse for every stencil), so a candidate costs O(nnz).
 */
int qn_rules__find_group(qn_rules_group *out, const qn_layout *l,
                         const uint8_t *a, const uint8_t *goal)
{
    int n = l->ncells, *cand, *point, trunc, *colstart, *rows;
    size_t ncand, c, nkeep = 0, budget = ((size_t)1 << 22) / (size_t)n;

    if (l->kind == QN_LAYOUT_GRAPH)
        return graph_syms(out, a, goal, n);
    if (qn_layout_symmetries(l, budget < 8 ? 8 : budget, &cand, &point, &ncand,
                             &trunc) != QN_OK)
        return QN_ENOMEM;
    if (column_index(&colstart, &rows, a, n) != QN_OK) {
        free(cand);
        free(point);
        return QN_ENOMEM;
    }
    for (c = 0; c < ncand; c++) {
        const int *p = cand + c * (size_t)n;
        if (!preserves(p, a, goal, colstart, rows, n))
            continue;
        if (nkeep != c)
            memcpy(cand + nkeep * (size_t)n, p, (size_t)n * sizeof(int));
        point[nkeep++] = point[c];
    }
    out->syms = cand;
    out->nsyms = nkeep;
    name_point_group(out->name, sizeof(out->name), point, nkeep,
                     l->kind == QN_LAYOUT_GRID ? 8 : 12, trunc);
    free(point);
    free(colstart);
    free(rows);
    return QN_OK;
}
