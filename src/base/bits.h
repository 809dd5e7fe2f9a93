/*
 * bits.h: the low bits of byte-per-cell states gathered into words and
 * spread back, for two-colour boards (canonical forms, syndromes,
 * solutions).
 */
#ifndef QN_BITS_H
#define QN_BITS_H

#include <stdint.h>
#include <string.h>

/* Bit i of the result is the low bit of s[i], for cells 0 .. n - 1 (n <=
 * 64); the other bits are 0. */
static inline uint64_t qn_bits_low(const uint8_t *s, int n)
{
    uint64_t m = 0;
    int i = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* 8 cells at once: byte i of w is cell i's low bit, and the product
     * gathers bit 0 of byte i into bit 56 + i (the partial products sit
     * on distinct bits, so nothing carries into the top byte) */
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, sizeof(w));
        w &= UINT64_C(0x0101010101010101);
        m |= (w * UINT64_C(0x0102040810204080)) >> 56 << i;
    }
#endif
    for (; i < n; i++)
        m |= (uint64_t)(s[i] & 1) << i;
    return m;
}

/* The inverse: byte i of s is bit i of m, for cells 0 .. n - 1 (n <=
 * 64); no byte past s[n - 1] is written. */
static inline void qn_bits_spread(uint8_t *s, uint64_t m, int n)
{
    int i = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* 8 cells at once: the product puts bit j (j < 7) of b at bits j +
     * 7 t for t = 0..7, so at bit 8 j of byte j, on distinct bits
     * (nothing carries); bit 7 goes to byte 7 by a shift */
    for (; i + 8 <= n; i += 8) {
        uint64_t b = m >> i & 0xff, w;
        w = ((b & 0x7f) * UINT64_C(0x0002040810204081) &
             UINT64_C(0x0101010101010101)) |
            (b >> 7) << 56;
        memcpy(s + i, &w, sizeof(w));
    }
#endif
    for (; i < n; i++)
        s[i] = (uint8_t)(m >> i & 1);
}

/* out[j] = bit 63 - j of top, j < n (0 <= n <= 64): a word whose high bit
 * is cell 0, as cells. */
static inline void qn_bits_put_top(uint8_t *out, uint64_t top, int n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint8_t tmp[64];

    /* 8 cells a product: byte t of the word is bit 7 - t of b (the
     * partial products' bits meet no carry at bits 8t) */
    for (int j = 0; j < n; j += 8) {
        uint64_t b = top >> (56 - j) & 0xff;
        uint64_t w = (b * UINT64_C(0x8040201008040201)) >> 7 &
                     UINT64_C(0x0101010101010101);
        memcpy(tmp + j, &w, sizeof(w));
    }
    memcpy(out, tmp, (size_t)n);
#else
    for (int j = 0; j < n; j++)
        out[j] = (uint8_t)(top >> (63 - j) & 1);
#endif
}

#endif
