/*
 * zk_smith.c: the Smith form of one prime-power part Z/p^e, by elimination
 * with full pivoting on pivots of least valuation (the factors and their
 * storage are described at struct part in zk_internal.h).
 */
#include "zk_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * Sparsity bounds kept during elimination, so that banded matrices (grid
 * boards) cost little more than their band: rend[r] bounds the columns of
 * row r's nonzeros (all at c < rend[r]) and cbot[c] the rows of column c's
 * (all at r < cbot[c]). They only ever grow, so they stay upper bounds.
 */
struct bounds {
    int *rend; /* m */
    int *cbot; /* n */
};

static inline int imax(int a, int b)
{
    return a > b ? a : b;
}

static void swap_rows(struct part *pt, struct bounds *bd, int a, int b)
{
    uint8_t *ra = pt->w + (size_t)a * pt->ld, *rb = pt->w + (size_t)b * pt->ld;
    int t = pt->prow[a], len = imax(bd->rend[a], bd->rend[b]);
    int bot = imax(a, b) + 1, c;

    if (a == b)
        return;
    for (c = 0; c < len; c++) {
        uint8_t x = ra[c];

        if (x | rb[c]) {
            ra[c] = rb[c];
            rb[c] = x;
            bd->cbot[c] = imax(bd->cbot[c], bot);
        }
    }
    pt->prow[a] = pt->prow[b];
    pt->prow[b] = t;
    t = bd->rend[a];
    bd->rend[a] = bd->rend[b];
    bd->rend[b] = t;
}

/* Swap columns a < b: every row, including the finished ones (V). */
static void swap_cols(struct part *pt, struct bounds *bd, int a, int b)
{
    uint8_t *w = pt->w;
    int t = pt->pcol[a], r, bot = imax(bd->cbot[a], bd->cbot[b]);

    if (a == b)
        return;
    for (r = 0; r < bot; r++) {
        uint8_t x = w[(size_t)r * pt->ld + a];

        w[(size_t)r * pt->ld + a] = w[(size_t)r * pt->ld + b];
        w[(size_t)r * pt->ld + b] = x;
        if (x)
            bd->rend[r] = imax(bd->rend[r], b + 1);
    }
    pt->pcol[a] = pt->pcol[b];
    pt->pcol[b] = t;
    t = bd->cbot[a];
    bd->cbot[a] = bd->cbot[b];
    bd->cbot[b] = t;
}

/*
 * Find a pivot of valuation vcur in the active block (rows i..m-1, columns
 * i..n-1); every entry there has valuation >= vcur. Prefer the diagonal,
 * then column i (a row swap only, which keeps banded matrices banded), then
 * any entry. Rows at or beyond *good_end are known to hold only entries of
 * valuation > vcur: row operations add multiples of the pivot row with
 * multipliers of valuation >= 1 to such rows, so they stay that way until
 * vcur grows. A full scan that meets such a row parks it there, so later
 * scans skip it instead of rereading it at every step. Zero entries have
 * valuation e > vcur, so the scans stop at the sparsity bounds.
 */
static bool find_pivot(struct part *pt, struct bounds *bd, int i, unsigned vcur,
                       const uint8_t *vtab, int *good_end, int *pr, int *pc)
{
    const uint8_t *w = pt->w;
    int r, c, end;

    if (i >= *good_end)
        return false;
    if (vtab[w[(size_t)i * pt->ld + i]] == vcur) {
        *pr = *pc = i;
        return true;
    }
    end = bd->cbot[i] < *good_end ? bd->cbot[i] : *good_end;
    for (r = i + 1; r < end; r++)
        if (vtab[w[(size_t)r * pt->ld + i]] == vcur) {
            *pr = r;
            *pc = i;
            return true;
        }
    for (r = i; r < *good_end;) {
        const uint8_t *row = w + (size_t)r * pt->ld;

        for (c = i + 1; c < bd->rend[r]; c++)
            if (vtab[row[c]] == vcur) {
                *pr = r;
                *pc = c;
                return true;
            }
        --*good_end;
        swap_rows(pt, bd, r, *good_end);
    }
    return false;
}

/*
 * The tables of Z/q for this part: red (x -> x mod q), vtab (residue ->
 * valuation, e for zero, 0xff beyond q), the row operation, dot product
 * and fastmod constant for this CPU, and pt->tab, the nibble product
 * tables for every multiplier f (zk_rowop.c). Returns the q x q table of
 * products mod q, which keeps divisions out of the per-row work; the
 * caller frees it. NULL: out of memory.
 */
static uint8_t *make_tables(struct part *pt, uint8_t vtab[256])
{
    const unsigned q = pt->q;
    uint8_t *tab, *mul;
    unsigned f, j;
    size_t x;

    for (x = 0; x < 256; x++)
        pt->red[x] = (uint8_t)(x % q);
    memset(vtab, 0xff, 256);
    vtab[0] = (uint8_t)pt->e;
    for (x = 1; x < q; x++) {
        unsigned v = 0, y = (unsigned)x;

        while (y % pt->p == 0) {
            y /= pt->p;
            v++;
        }
        vtab[x] = (uint8_t)v;
    }
    pt->rowop = qn_zk__pick_rowop(q);
    pt->dot = qn_zk__pick_dot();
    pt->magic = qn_zk__fastmod_magic(q);
    mul = QN_ALLOCN((size_t)q * q, uint8_t);
    tab = pt->tab = QN_ALLOCN((size_t)q * 32, uint8_t);
    if (!mul || !tab) {
        free(mul);
        return NULL; /* pt->tab is freed with pt */
    }
    for (f = 0; f < q; f++)
        for (j = 0; j < q; j++)
            mul[f * q + j] = (uint8_t)(f * j % q);
    for (f = 0; f < q; f++)
        for (j = 0; j < 16; j++) {
            tab[f * 32 + j] = (uint8_t)(f * j % q);
            tab[f * 32 + 16 + j] = (uint8_t)(f * 16 * j % q);
        }
    return mul;
}

/*
 * Copy a into pt->w reduced mod q, with identity permutations. Rows are
 * padded with at least 32 zero bytes, so a row operation can round its
 * length up to whole vectors: the padding and the columns beyond the pivot
 * row's last nonzero only ever get 0 subtracted.
 */
static int load(struct part *pt, const qn_zmat *a)
{
    const int m = a->nrows, n = a->ncols;
    const unsigned q = pt->q;
    size_t x;
    int i;

    pt->ld = ((size_t)n + 63) & ~(size_t)31;
    pt->w = QN_ALLOCN((size_t)m * pt->ld, uint8_t);
    pt->prow = QN_ALLOCN((size_t)m, int);
    pt->pcol = QN_ALLOCN((size_t)n, int);
    if (!pt->w || !pt->prow || !pt->pcol)
        return QN_ENOMEM; /* freed with pt */
    for (i = 0; i < m; i++) {
        uint8_t *row = pt->w + (size_t)i * pt->ld;
        const uint8_t *src = a->e + (size_t)i * n;
        unsigned big = 0;

        /*
         * Entries are residues mod k by contract, so for q == k a copy
         * does; should one be out of range anyway, reduce it rather than
         * index the tables out of bounds.
         */
        if (q == a->k) {
            memcpy(row, src, (size_t)n);
            for (x = 0; x < (size_t)n; x++)
                big |= src[x] >= q;
        }
        if (q != a->k || big)
            for (x = 0; x < (size_t)n; x++)
                row[x] = pt->red[src[x]];
    }
    for (i = 0; i < m; i++)
        pt->prow[i] = i;
    for (i = 0; i < n; i++)
        pt->pcol[i] = i;
    return QN_OK;
}

/*
 * Exact bounds to start with, read eight bytes at a time (the padding
 * makes the last read safe). Rows are read from the bottom, so a column
 * is settled by its first nonzero and a dense matrix stops after a row
 * or two.
 */
static int init_bounds(const struct part *pt, struct bounds *bd, int m, int n)
{
    int nunset = n, i, c;

    bd->rend = QN_ALLOCN((size_t)m + 1, int);
    bd->cbot = QN_ALLOCN((size_t)n + 1, int);
    if (!bd->rend || !bd->cbot)
        return QN_ENOMEM; /* the caller frees both */
    for (i = m - 1; i >= 0; i--) {
        const uint8_t *row = pt->w + (size_t)i * pt->ld;

        for (c = 0; c < n && nunset > 0; c += 8) {
            uint64_t word;
            int b;

            memcpy(&word, row + c, sizeof(word));
            if (word)
                for (b = c; b < c + 8 && b < n; b++)
                    if (row[b] && !bd->cbot[b]) {
                        bd->cbot[b] = i + 1;
                        nunset--;
                    }
        }
        for (c = (n + 7) & ~7; c > 0; c -= 8) {
            uint64_t word;

            memcpy(&word, row + c - 8, sizeof(word));
            if (word)
                break;
        }
        while (c > 0 && !row[c - 1])
            c--;
        bd->rend[i] = c;
    }
    return QN_OK;
}

/*
 * The elimination proper, pivot by pivot while the active block is
 * nonzero; returns the rank. Fills in val and uinv, and leaves d_i, -L
 * and -V in w as struct part describes.
 */
static int eliminate(struct part *pt, struct bounds *bd, int m, int mn,
                     const uint8_t *vtab, const uint8_t *mul)
{
    const unsigned q = pt->q;
    rowop_fn *const rowop = pt->rowop;
    const uint8_t *const tab = pt->tab;
    unsigned vcur = 0;
    int i, r, c, good_end = m;

    for (i = 0; i < mn; i++) {
        uint8_t *piv, *row;
        unsigned d, v, pv, ui;
        size_t len;
        int pr = 0, pc = 0, hi, last;

        while (!find_pivot(pt, bd, i, vcur, vtab, &good_end, &pr, &pc)) {
            if (++vcur >= pt->e)
                return i; /* the active block is zero */
            good_end = m;
        }
        swap_rows(pt, bd, i, pr);
        swap_cols(pt, bd, i, pc);
        piv = pt->w + (size_t)i * pt->ld;
        d = piv[i];
        v = vtab[d];
        pv = pt->ppow[v];
        ui = qn_zk__inv_mod(d / pv, q);
        /* Row operations need only reach the pivot row's last nonzero. */
        for (hi = bd->rend[i]; hi > i + 1 && !piv[hi - 1]; hi--)
            ;
        len = ((size_t)(hi - i - 1) + 31) & ~(size_t)31;
        last = i;
        for (r = i + 1; r < bd->cbot[i]; r++) {
            unsigned l;

            row = pt->w + (size_t)r * pt->ld;
            if (!row[i])
                continue;
            /* row[i] is a multiple of d: l d == row[i] (mod q). */
            l = mul[(v ? row[i] / pv : row[i]) * q + ui];
            row[i] = (uint8_t)(l ? q - l : 0);
            rowop(row + i + 1, piv + i + 1, len, tab + (size_t)l * 32, q);
            bd->rend[r] = imax(bd->rend[r], hi);
            last = r;
        }
        /*
         * The pivot row becomes -V (V[i][c] d_i == T[i][c], nonzero where
         * T is), and the row operations have spread its nonzeros down to
         * row `last`.
         */
        for (c = i + 1; c < hi; c++)
            if (piv[c]) {
                unsigned t = mul[(v ? piv[c] / pv : piv[c]) * q + ui];

                piv[c] = (uint8_t)(q - t);
                if (bd->cbot[c] <= last)
                    bd->cbot[c] = last + 1;
            }
        pt->val[i] = (uint8_t)v;
        pt->uinv[i] = (uint8_t)ui;
    }
    return i;
}

/*
 * Where the substitutions in qn_zfact_solve can start and stop: on a
 * grid board L and V keep the band, and skipping the zeros outside it
 * turns the solve from quadratic into (cells x band).
 */
static int band_limits(struct part *pt, int m)
{
    const int rk = pt->rank;
    int r, c;

    pt->lbeg = QN_ALLOCN((size_t)m + 1, int);
    pt->vend = QN_ALLOCN((size_t)rk + 1, int);
    if (!pt->lbeg || !pt->vend)
        return QN_ENOMEM; /* freed with pt */
    for (r = 0; r < m; r++) {
        const uint8_t *row = pt->w + (size_t)r * pt->ld;
        int lim = r < rk ? r : rk;
        uint64_t word = 0;

        /* Both scans skip zeros eight bytes at a time. */
        for (c = 0; c + 8 <= lim; c += 8) {
            memcpy(&word, row + c, sizeof(word));
            if (word)
                break;
        }
        while (c < lim && !row[c])
            c++;
        pt->lbeg[r] = c;
        if (r < rk) {
            for (c = rk; c - 8 >= r + 1; c -= 8) {
                memcpy(&word, row + c - 8, sizeof(word));
                if (word)
                    break;
            }
            while (c > r + 1 && !row[c - 1])
                c--;
            pt->vend[r] = c;
        }
    }
    return QN_OK;
}

int qn_zk__factor_part(struct part *pt, const qn_zmat *a)
{
    const int m = a->nrows, n = a->ncols, mn = m < n ? m : n;
    uint8_t vtab[256], *mul;
    struct bounds bd = {0};
    int rc = QN_ENOMEM;

    if (!(mul = make_tables(pt, vtab)) || load(pt, a) != QN_OK)
        goto done;
    pt->val = QN_ALLOCN((size_t)mn, uint8_t);
    pt->uinv = QN_ALLOCN((size_t)mn, uint8_t);
    if (!pt->val || !pt->uinv || init_bounds(pt, &bd, m, n) != QN_OK)
        goto done;
    pt->rank = eliminate(pt, &bd, m, mn, vtab, mul);
    rc = band_limits(pt, m);
done:
    free(bd.rend);
    free(bd.cbot);
    free(mul);
    return rc;
}
