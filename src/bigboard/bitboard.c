/*
 * bitboard.c: boards of bits (see bitboard.h): packing, counting, the
 * 64 x 64 block transpose and the stencil replay.
 */
#include "bigboard/bitboard.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

int qn_bitboard_init(qn_bitboard *b, int w, int h)
{
    size_t stride = ((size_t)w + 63) / 64;

    memset(b, 0, sizeof(*b));
    if (!(b->bits = QN_ALLOCN(stride * (size_t)h + 1, uint64_t)))
        return QN_ENOMEM;
    b->w = w;
    b->h = h;
    b->stride = stride;
    return QN_OK;
}

void qn_bitboard_release(qn_bitboard *b)
{
    free(b->bits);
    memset(b, 0, sizeof(*b));
}

uint64_t qn_bitboard_tail_mask(const qn_bitboard *b)
{
    int r = b->w & 63;

    return r ? ((uint64_t)1 << r) - 1 : ~(uint64_t)0;
}

void qn_bitboard_fill(qn_bitboard *b, int v)
{
    uint64_t tail = qn_bitboard_tail_mask(b);

    memset(b->bits, v & 1 ? 0xff : 0, b->stride * (size_t)b->h * 8);
    if (v & 1)
        for (int y = 0; y < b->h; y++)
            qn_bitboard_row(b, y)[b->stride - 1] = tail;
}

uint64_t qn_bitboard_count(const qn_bitboard *b)
{
    uint64_t n = 0, total = b->stride * (size_t)b->h;

    for (uint64_t i = 0; i < total; i++)
        n += (uint64_t)__builtin_popcountll(b->bits[i]);
    return n;
}

int qn_bitboard_is_zero(const qn_bitboard *b)
{
    uint64_t any = 0, total = b->stride * (size_t)b->h;

    for (uint64_t i = 0; i < total; i++)
        any |= b->bits[i];
    return any == 0;
}

int qn_bitboard_equal(const qn_bitboard *a, const qn_bitboard *b)
{
    return a->w == b->w && a->h == b->h &&
           memcmp(a->bits, b->bits, a->stride * (size_t)a->h * 8) == 0;
}

void qn_bitboard_from_cells(qn_bitboard *b, const uint8_t *cells)
{
    for (int y = 0; y < b->h; y++) {
        uint64_t *row = qn_bitboard_row(b, y);
        const uint8_t *c = cells + (size_t)y * b->w;
        memset(row, 0, b->stride * 8);
        for (int x = 0; x < b->w; x++)
            row[x >> 6] |= (uint64_t)(c[x] & 1) << (x & 63);
    }
}

void qn_bitboard_to_cells(const qn_bitboard *b, uint8_t *cells)
{
    for (int y = 0; y < b->h; y++) {
        const uint64_t *row = qn_bitboard_row(b, y);
        uint8_t *c = cells + (size_t)y * b->w;
        for (int x = 0; x < b->w; x++)
            c[x] = (uint8_t)((row[x >> 6] >> (x & 63)) & 1);
    }
}

/*
 * Transpose a 64 x 64 bit block in place (a[r] bit c -> a[c] bit r): swap
 * the off-diagonal 32 x 32 blocks, then the 16 x 16 blocks inside each,
 * down to single bits (Hacker's Delight 7-3, for bit 0 = column 0).
 */
void qn_bits_transpose64(uint64_t a[64])
{
    uint64_t m = 0x00000000ffffffffULL;

    for (int j = 32; j; j >>= 1, m ^= m << j)
        for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k] ^= t << j;
            a[k | j] ^= t;
        }
}

void qn_bitboard_transpose(qn_bitboard *dst, const qn_bitboard *src)
{
    uint64_t blk[64];

    for (size_t by = 0; by < dst->stride; by++)       /* src rows / 64 */
        for (size_t bx = 0; bx < src->stride; bx++) { /* src cols / 64 */
            for (int i = 0; i < 64; i++) {
                size_t y = by * 64 + (size_t)i;
                blk[i] =
                    y < (size_t)src->h ? qn_bitboard_row(src, (int)y)[bx] : 0;
            }
            qn_bits_transpose64(blk);
            for (int i = 0; i < 64; i++) {
                size_t x = bx * 64 + (size_t)i;
                if (x < (size_t)src->w)
                    qn_bitboard_row(dst, (int)x)[by] = blk[i];
            }
        }
}

void qn_bits_xor_shifted(uint64_t *dst, const uint64_t *src, size_t nw, long dx)
{
    size_t q = (size_t)(dx < 0 ? -dx : dx) / 64;
    unsigned r = (unsigned)((dx < 0 ? -dx : dx) % 64);

    if (q >= nw)
        return;
    if (dx >= 0) {
        for (size_t j = nw; j-- > q;) {
            uint64_t v = src[j - q] << r;
            if (r && j > q)
                v |= src[j - q - 1] >> (64 - r);
            dst[j] ^= v;
        }
    } else {
        for (size_t j = 0; j + q < nw; j++) {
            uint64_t v = src[j + q] >> r;
            if (r && j + q + 1 < nw)
                v |= src[j + q + 1] << (64 - r);
            dst[j] ^= v;
        }
    }
}

void qn_bitboard_apply(qn_bitboard *r, const qn_bitboard *x,
                       const qn_bitboard *s, const int (*offsets)[3], size_t n)
{
    uint64_t tail = qn_bitboard_tail_mask(r);

    for (int y = 0; y < r->h; y++) {
        uint64_t *ry = qn_bitboard_row(r, y);
        if (ry != qn_bitboard_row(s, y))
            memcpy(ry, qn_bitboard_row(s, y), r->stride * 8);
        for (size_t o = 0; o < n; o++) {
            int sy = y - offsets[o][1];
            if (!(offsets[o][2] & 1) || sy < 0 || sy >= r->h)
                continue;
            qn_bits_xor_shifted(ry, qn_bitboard_row(x, sy), r->stride,
                                offsets[o][0]);
        }
        ry[r->stride - 1] &= tail;
    }
}
