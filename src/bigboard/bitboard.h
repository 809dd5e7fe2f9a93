/*
 * bitboard.h: a w x h board of bits, 64 cells to a word, for the GF(2)
 * solvers of boards with millions of cells (a 10000 x 10000 board is
 * 12.5 MB here, 100 MB as one byte per cell).
 *
 * Layout: row y is `stride` words starting at bits + y * stride; cell
 * (x, y) is bit x % 64 of word x / 64 of its row. Bits past column w - 1
 * in a row's last word ("pad bits") are always zero: every function here
 * keeps them so and may rely on it.
 */
#ifndef QN_BITBOARD_H
#define QN_BITBOARD_H

#include <stddef.h>
#include <stdint.h>

typedef struct qn_bitboard {
    int w, h;
    size_t stride;  /* words per row, (w + 63) / 64 */
    uint64_t *bits; /* h * stride words, owned */
} qn_bitboard;

/* A zeroed w x h board (w, h >= 1): QN_OK, or QN_ENOMEM with *b zeroed
 * (releasable). */
int qn_bitboard_init(qn_bitboard *b, int w, int h);
/* Free the words and zero *b; safe on a zeroed or released board. */
void qn_bitboard_release(qn_bitboard *b);

static inline uint64_t *qn_bitboard_row(const qn_bitboard *b, int y)
{
    return b->bits + (size_t)y * b->stride;
}

static inline int qn_bitboard_get(const qn_bitboard *b, int x, int y)
{
    return (int)(qn_bitboard_row(b, y)[x >> 6] >> (x & 63)) & 1;
}

static inline void qn_bitboard_put(qn_bitboard *b, int x, int y, int v)
{
    uint64_t *w = &qn_bitboard_row(b, y)[x >> 6], m = (uint64_t)1 << (x & 63);

    *w = v ? *w | m : *w & ~m;
}

/* The mask of the valid bits of a row's last word. */
uint64_t qn_bitboard_tail_mask(const qn_bitboard *b);

/* Every cell to v & 1. */
void qn_bitboard_fill(qn_bitboard *b, int v);
/* The number of 1 cells. */
uint64_t qn_bitboard_count(const qn_bitboard *b);
/* 1 when every cell is 0. */
int qn_bitboard_is_zero(const qn_bitboard *b);
/* 1 when a and b have the same size and cells. */
int qn_bitboard_equal(const qn_bitboard *a, const qn_bitboard *b);

/* Between one byte per cell (w * h, row-major, values taken & 1) and bits;
 * the board is already initialised to the right size. */
void qn_bitboard_from_cells(qn_bitboard *b, const uint8_t *cells);
void qn_bitboard_to_cells(const qn_bitboard *b, uint8_t *cells);

/* dst (initialised h x w, i.e. src's sides swapped) = src transposed:
 * dst cell (y, x) = src cell (x, y). 64 x 64 blocks, O(w h / 64) words. */
void qn_bitboard_transpose(qn_bitboard *dst, const qn_bitboard *src);

/*
 * The replay: r = s + A x over GF(2), where A is the stencil
 * offsets[0..n) ({dx, dy, amount}: pressing (x, y) adds amount to
 * (x + dx, y + dy) when that is on the board; only amount & 1 counts) on
 * the board's grid without wrap. r, x and s are the same size; r must not
 * alias x (it may alias s). |dx| must be below w + 64. Straight from the
 * definition, one shifted row XOR per offset and row: independent of any
 * solver, so it checks them.
 */
void qn_bitboard_apply(qn_bitboard *r, const qn_bitboard *x,
                       const qn_bitboard *s, const int (*offsets)[3], size_t n);

/* Transpose a 64 x 64 bit block in place: bit c of a[r] goes to bit r of
 * a[c]. */
void qn_bits_transpose64(uint64_t a[64]);

/* dst[0..nw) ^= src shifted by dx cells (cell i of src lands on cell
 * i + dx; cells pushed past either end are dropped); the caller masks the
 * tail. nw words each. */
void qn_bits_xor_shifted(uint64_t *dst, const uint64_t *src, size_t nw,
                         long dx);

#endif
