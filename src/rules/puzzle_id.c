/*
 * puzzle_id.c: content-derived puzzle ids (puzzle_id.h). The generator,
 * the validator, the importer and the store's migration compute them, so
 * they live beside the rule hash they are keyed by.
 */
#include "rules/puzzle_id.h"
#include "base/text.h"

#include <string.h>

#include "base/hash.h"

void qn_puzzle_id_key_init(qn_puzzle_id_key *key, const char rule_hash[64])
{
    uint8_t digest[QN_HASH_BYTES];
    qn_hash h;

    qn_hash_init(&h);
    qn_hash_update(&h, rule_hash, 64);
    qn_hash_final(&h, digest);
    memcpy(key->k, digest, sizeof(key->k));
}

uint64_t qn_puzzle_id(const qn_puzzle_id_key *key, const uint8_t *canon, int n)
{
    return qn_hash_short(key->k, canon, (size_t)n);
}

/* Cells 8w..8w + 7 of the form top (cell 0 in bit 63) into out[0..8),
 * one a byte: byte j tests bit 7 - j of the top byte's w-th byte. */
static void cells8(uint8_t *out, uint64_t top, int w)
{
    uint64_t b = top >> (56 - 8 * w) & 0xff;
    uint64_t x =
        (b * UINT64_C(0x0101010101010101)) & UINT64_C(0x0102040810204080);

    x = ((x + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7) &
        UINT64_C(0x0101010101010101);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, &x, sizeof(x)); /* byte j is cell j */
#else
    for (int j = 0; j < 8; j++)
        out[j] = (uint8_t)(x >> (8 * j));
#endif
}

uint64_t qn_puzzle_id_bits(const qn_puzzle_id_key *key, uint64_t form, int n)
{
    uint8_t cells[64];
    uint64_t top = form << (64 - n);

    for (int w = 0; 8 * w < n; w++)
        cells8(cells + 8 * w, top, w);
    return qn_puzzle_id(key, cells, n);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 hex digits of x, first digit in the low byte. */
static uint64_t hex8(uint32_t x)
{
    uint64_t v = x, big;

    /* nibble i to byte i, then byte i to byte 7 - i */
    v = (v | v << 16) & UINT64_C(0x0000ffff0000ffff);
    v = (v | v << 8) & UINT64_C(0x00ff00ff00ff00ff);
    v = (v | v << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    v = __builtin_bswap64(v);
    /* a byte over 9 gets 6 + its value to 16 and up: 'a' - '0' - 10 more */
    big =
        (v + UINT64_C(0x0606060606060606)) >> 4 & UINT64_C(0x0101010101010101);
    return v + UINT64_C(0x3030303030303030) + big * ('a' - '0' - 10);
}
#endif

void qn_puzzle_id_hex(char out[QN_PUZZLE_ID_HEX], uint64_t id)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t hi = hex8((uint32_t)(id >> 32)), lo = hex8((uint32_t)id);

    memcpy(out, &hi, 8);
    memcpy(out + 8, &lo, 8);
#else
    static const char hex[] = "0123456789abcdef";

    for (int i = 15; i >= 0; i--, id >>= 4)
        out[i] = hex[id & 15];
#endif
    out[16] = '\0';
}

int qn_puzzle_id_prefix(const char *s, uint64_t *lo, uint64_t *hi)
{
    size_t len = strlen(s);
    uint64_t v = 0;

    if (len < QN_PUZZLE_ID_MIN_PREFIX || len > 16)
        return -1;
    for (size_t i = 0; i < len; i++) {
        int d = qn_hex_digit(s[i]);
        if (d < 0)
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    /* the unnamed low digits run from all zeros to all ones */
    *lo = len == 16 ? v : v << (4 * (16 - len));
    *hi = len == 16 ? v : *lo | ((UINT64_C(1) << (4 * (16 - len))) - 1);
    return 0;
}
