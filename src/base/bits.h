/*
 * bits.h: the low bits of byte-per-cell states gathered into words, for
 * two-colour boards (canonical forms, syndromes).
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

#endif
