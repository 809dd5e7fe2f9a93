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

void qn_puzzle_id_hex(char out[QN_PUZZLE_ID_HEX], uint64_t id)
{
    static const char hex[] = "0123456789abcdef";

    for (int i = 15; i >= 0; i--, id >>= 4)
        out[i] = hex[id & 15];
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
