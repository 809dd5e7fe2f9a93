/*
 * hash.c: the libsodium BLAKE2b wrapper. Besides rng.c, this is the only
 * file that includes <sodium.h>.
 */
#include "base/hash.h"

#include <pthread.h>

#include <sodium.h>

_Static_assert(sizeof(crypto_generichash_state) <= sizeof(qn_hash),
               "qn_hash too small for crypto_generichash_state");
_Static_assert(_Alignof(crypto_generichash_state) <= 64,
               "qn_hash under-aligned for crypto_generichash_state");
_Static_assert(QN_SHA256_BYTES == crypto_hash_sha256_BYTES,
               "SHA-256 digest size");
_Static_assert(QN_HASH_BYTES >= crypto_generichash_BYTES_MIN &&
                   QN_HASH_BYTES <= crypto_generichash_BYTES_MAX,
               "digest size out of libsodium's range");

static pthread_once_t sodium_once = PTHREAD_ONCE_INIT;

/* sodium_init() is itself safe to call repeatedly; the once-guard only
 * saves the lock on every hash. */
static void start_sodium(void)
{
    if (sodium_init() < 0)
        return; /* see qn_hash_init */
}

/*
 * sodium_init() only picks the fastest BLAKE2b and SHA-256 code for this
 * CPU; should it fail, the portable code it starts with gives the same
 * digests, so hashing goes on (a library never aborts: issue #32).
 */
void qn_hash_init(qn_hash *h)
{
    pthread_once(&sodium_once, start_sodium);
    crypto_generichash_init((crypto_generichash_state *)(void *)h->opaque, NULL,
                            0, QN_HASH_BYTES);
}

void qn_hash_update(qn_hash *h, const void *data, size_t len)
{
    crypto_generichash_update((crypto_generichash_state *)(void *)h->opaque,
                              data, len);
}

void qn_hash_u32(qn_hash *h, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                          (unsigned char)(v >> 16), (unsigned char)(v >> 24)};

    qn_hash_update(h, b, sizeof(b));
}

void qn_hash_final(qn_hash *h, uint8_t out[QN_HASH_BYTES])
{
    crypto_generichash_final((crypto_generichash_state *)(void *)h->opaque, out,
                             QN_HASH_BYTES);
}

void qn_hash_hex(char hex_out[QN_HASH_HEX], const uint8_t digest[QN_HASH_BYTES])
{
    static const char hex[] = "0123456789abcdef";
    int i;

    for (i = 0; i < QN_HASH_BYTES; i++) {
        hex_out[2 * i] = hex[digest[i] >> 4];
        hex_out[2 * i + 1] = hex[digest[i] & 15];
    }
    hex_out[2 * QN_HASH_BYTES] = '\0';
}

void qn_hash_buf_hex(char hex_out[QN_HASH_HEX], const void *data, size_t len)
{
    qn_hash h;
    uint8_t d[QN_HASH_BYTES];

    qn_hash_init(&h);
    qn_hash_update(&h, data, len);
    qn_hash_final(&h, d);
    qn_hash_hex(hex_out, d);
}

void qn_hash_sha256(uint8_t out[QN_SHA256_BYTES], const void *data, size_t len)
{
    pthread_once(&sodium_once, start_sodium);
    crypto_hash_sha256(out, data, len);
}

uint64_t qn_hash_short(const uint8_t key[16], const void *data, size_t len)
{
    uint8_t out[crypto_shorthash_BYTES];
    uint64_t v = 0;

    crypto_shorthash(out, data, len, key);
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)out[i] << (8 * i);
    return v;
}
