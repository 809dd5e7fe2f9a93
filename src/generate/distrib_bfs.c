/*
 * distrib_bfs.c: the minimal press count of every solvable state, by a
 * breadth-first search over the image in its coordinates (distrib_coords.c)
 * or, for k = 2 with a small kernel, a sweep over the kernel instead.
 */
#include "distrib_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#define PART_MAX 256 /* entries in one BFS lookup table part */

/*
 * k = 2 with a small kernel: the solutions of A x = v are x = (x_p, z) with
 * any z on the free columns and x_p = y ^ c_z on the pivot columns, where y
 * is v's coordinate word and c_z the XOR of the free columns' words. So
 * dist(y) = min over z of popcount(y ^ c_z) + popcount(z): a sequential
 * sweep of pure ALU work, 2^nfree popcounts per state, no table lookups.
 */
static int sweep_gf2(qn_distrib *d, const coords *c, uint64_t *count)
{
    int nc = c->ncols, r = (int)c->ncomp, nfree = nc - r;
    size_t nz = (size_t)1 << nfree;
    uint32_t *cz = QN_ALLOCN(nz, uint32_t);
    uint8_t *wz = QN_ALLOCN(nz, uint8_t);
    int f = 0;

    if (!cz || !wz) {
        free(cz);
        free(wz);
        return QN_ENOMEM;
    }

    for (int j = 0, p = 0; j < nc; j++) {
        uint32_t word = 0;

        if (p < r && c->pivots[p] == j) {
            p++;
            continue;
        }
        for (int t = 0; t < r; t++)
            word |= (uint32_t)c->col[(size_t)j * MAXCOMP + t] << t;
        /* Gray-free fill: entries with bit f set copy those without. */
        for (size_t z = 0; z < ((size_t)1 << f); z++) {
            cz[z | ((size_t)1 << f)] = cz[z] ^ word;
            wz[z | ((size_t)1 << f)] = (uint8_t)(wz[z] + 1);
        }
        f++;
    }
    assert(f == nfree);
    for (uint64_t y = 0; y < d->total; y++) {
        unsigned best = 255;

        for (size_t z = 0; z < nz; z++) {
            unsigned v =
                (unsigned)__builtin_popcount((uint32_t)y ^ cz[z]) + wz[z];
            best = v < best ? v : best;
        }
        d->d8[y] = (uint8_t)best;
        count[best]++;
    }
    free(cz);
    free(wz);
    return QN_OK;
}

/*
 * Breadth-first search from 0 with the distinct non-zero press digit
 * vectors as moves. For k = 2 a move is an XOR of the index; otherwise the
 * components are grouped into parts of at most PART_MAX indices, and a
 * move is one table lookup per part (tables precomputed per move and
 * part, values already multiplied by the part's stride). Each level is
 * kept as a list while it is small (at most total / 32 entries, so the
 * lists take 1/4 byte per state) and found by scanning the table
 * otherwise, which happens for at most 32 levels.
 */
typedef struct bfs {
    qn_distrib *d;
    size_t nmoves;
    uint32_t *word; /* k = 2: nmoves XOR masks */
    size_t nparts;
    uint32_t pstride[MAXCOMP]; /* total <= 2^26: indices fit 32 bits */
    uint32_t psize[MAXCOMP];
    uint32_t *tab[MAXCOMP]; /* nmoves * psize[p] each */
    uint32_t *next;
    size_t nnext, cap;
    int overflow;
    uint64_t found;
} bfs;

static inline void expand(bfs *b, uint32_t u, unsigned m1)
{
    qn_distrib *d = b->d;
    unsigned inf = d->wide ? 0xFFFF : 0xFF;
    const uint32_t *base[MAXCOMP];

    if (!b->word)
        for (size_t p = 0; p < b->nparts; p++)
            base[p] = b->tab[p] + (u / b->pstride[p]) % b->psize[p];
    for (size_t j = 0; j < b->nmoves; j++) {
        uint32_t v = 0;

        if (b->word) {
            v = u ^ b->word[j];
        } else {
            for (size_t p = 0; p < b->nparts; p++)
                v += base[p][j * b->psize[p]];
        }
        if (dget(d, v) != inf)
            continue;
        dset(d, v, m1);
        b->found++;
        if (b->nnext < b->cap)
            b->next[b->nnext++] = (uint32_t)v;
        else
            b->overflow = 1;
    }
}

static int cmp32(const void *x, const void *y)
{
    return memcmp(x, y, MAXCOMP);
}

/* Sort the ncols digit vectors in mv and keep the distinct non-zero ones
 * at its front: repeats and quiet presses add nothing. Returns how many. */
static size_t distinct_moves(uint8_t *mv, int ncols)
{
    static const uint8_t zero[MAXCOMP];
    size_t nm = 0;

    qsort(mv, (size_t)ncols, MAXCOMP, cmp32);
    for (int j = 0; j < ncols; j++) {
        const uint8_t *row = mv + (size_t)j * MAXCOMP;
        if (!memcmp(row, zero, MAXCOMP) ||
            (nm && !memcmp(row, mv + (nm - 1) * MAXCOMP, MAXCOMP)))
            continue;
        memmove(mv + nm * MAXCOMP, row, MAXCOMP);
        nm++;
    }
    return nm;
}

/* k = 2: each move as the XOR mask of its digit bits. */
static int move_words(bfs *b, const uint8_t *mv)
{
    size_t nm = b->nmoves;

    if (!(b->word = QN_ALLOCN(nm + 1, uint32_t)))
        return QN_ENOMEM;
    for (size_t j = 0; j < nm; j++)
        for (size_t t = 0; t < b->d->ncomp; t++)
            b->word[j] |= (uint32_t)mv[j * MAXCOMP + t] << t;
    return QN_OK;
}

/* k > 2: each move as one lookup table per part of the components. */
static int move_tables(bfs *b, const uint8_t *mv)
{
    const qn_distrib *d = b->d;
    size_t nm = b->nmoves, t0 = 0;

    while (t0 < d->ncomp) {
        size_t t1 = t0, p = b->nparts++;
        uint64_t size = 1;

        while (t1 < d->ncomp && (t1 == t0 || size * d->order[t1] <= PART_MAX))
            size *= d->order[t1++];
        b->pstride[p] = (uint32_t)d->stride[t0];
        b->psize[p] = (uint32_t)size;
        if (!(b->tab[p] = QN_ALLOCN(nm * size + 1, uint32_t)))
            return QN_ENOMEM; /* the caller frees the parts made */
        for (size_t j = 0; j < nm; j++)
            for (uint64_t v = 0; v < size; v++) {
                uint64_t x = v, out = 0;
                for (size_t t = t0; t < t1; t++) {
                    unsigned o = d->order[t];
                    unsigned dig = (unsigned)(x % o);
                    x /= o;
                    dig = (dig + mv[j * MAXCOMP + t]) % o;
                    out += dig * d->stride[t];
                }
                b->tab[p][j * size + v] = (uint32_t)out;
            }
        t0 = t1;
    }
    return QN_OK;
}

/* The search itself, level by level from 0, with the moves set up. */
static int bfs_levels(bfs *b, uint64_t *count, size_t bound)
{
    qn_distrib *d = b->d;
    uint32_t *cur;
    size_t ncur = 1;
    int scan = 0;

    b->cap = (size_t)(d->total / 32) + 16;
    cur = QN_ALLOCN(b->cap, uint32_t);
    b->next = QN_ALLOCN(b->cap, uint32_t);
    if (!cur || !b->next) {
        free(cur);
        free(b->next);
        return QN_ENOMEM;
    }
    memset(d->wide ? (void *)d->d16 : (void *)d->d8, 0xFF,
           (size_t)d->total * (d->wide ? 2 : 1));
    dset(d, 0, 0);
    count[0] = 1;
    cur[0] = 0;
    for (unsigned m = 0;; m++) {
        uint32_t *tmp;

        assert(m + 1 <= bound);
        b->nnext = 0, b->overflow = 0, b->found = 0;
        if (!scan) {
            for (size_t i = 0; i < ncur; i++)
                expand(b, cur[i], m + 1);
        } else {
            for (uint32_t u = 0; u < (uint32_t)d->total; u++)
                if (dget(d, u) == m)
                    expand(b, u, m + 1);
        }
        if (!b->found)
            break;
        count[m + 1] = b->found;
        tmp = cur, cur = b->next, b->next = tmp;
        ncur = b->nnext;
        scan = b->overflow;
    }
    free(cur);
    free(b->next);
    return QN_OK;
}

static int run_bfs(qn_distrib *d, const coords *c, uint64_t *count,
                   size_t bound)
{
    bfs b;
    uint8_t *mv = qn_memdup(c->col, (size_t)c->ncols * MAXCOMP + 1);
    int rc;

    if (!mv)
        return QN_ENOMEM;
    memset(&b, 0, sizeof(b));
    b.d = d;
    b.nmoves = distinct_moves(mv, c->ncols);
    rc = d->k == 2 ? move_words(&b, mv) : move_tables(&b, mv);
    free(mv);
    if (rc == QN_OK)
        rc = bfs_levels(&b, count, bound);
    free(b.word);
    for (size_t p = 0; p < b.nparts; p++)
        free(b.tab[p]);
    return rc;
}

int qn_distrib__distances(qn_distrib *d, const coords *c, uint64_t *count,
                          size_t bound)
{
    int nfree = c->ncols - (int)c->ncomp;

    /* The sweep spends 2^nfree popcounts on a state, the search up to
     * ncols probes of the distance table, most of them cache misses. */
    if (c->k == 2 && nfree <= 20 &&
        ((uint64_t)1 << nfree) <= 8 * (uint64_t)c->ncols)
        return sweep_gf2(d, c, count);
    return run_bfs(d, c, count, bound);
}
