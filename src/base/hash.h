/*
 * hash.h: BLAKE2b-256 (libsodium's crypto_generichash), incremental, for
 * content hashes of rule sets and puzzles. The state lives in caller
 * storage; nothing is allocated.
 */
#ifndef QN_HASH_H
#define QN_HASH_H

#include <stddef.h>
#include <stdint.h>

#define QN_HASH_BYTES 32 /* digest size */
#define QN_HASH_HEX 65   /* lowercase hex digest + NUL */

/* Opaque state, big enough and aligned for crypto_generichash_state
 * (checked at compile time in hash.c). Copying it forks the hash. */
typedef struct qn_hash {
    _Alignas(64) unsigned char opaque[512];
} qn_hash;

/* Start an unkeyed 32-byte hash. Initialises libsodium on first use
 * (thread-safe); aborts if libsodium cannot start. */
void qn_hash_init(qn_hash *h);
void qn_hash_update(qn_hash *h, const void *data, size_t len);
/* Feed v as 4 bytes, little-endian (portable framing of integers). */
void qn_hash_u32(qn_hash *h, uint32_t v);
/* Finish into out; `h` must be re-initialised before reuse. */
void qn_hash_final(qn_hash *h, uint8_t out[QN_HASH_BYTES]);
/* Lowercase hex of a digest, NUL-terminated. */
void qn_hash_hex(char hex_out[QN_HASH_HEX],
                 const uint8_t digest[QN_HASH_BYTES]);
/* One-shot: hex digest of `len` bytes. */
void qn_hash_buf_hex(char hex_out[QN_HASH_HEX], const void *data, size_t len);

/*
 * SHA-256 of `len` bytes (libsodium's crypto_hash_sha256), for digests a
 * standard names, such as a Content-Security-Policy script hash.
 */
#define QN_SHA256_BYTES 32
void qn_hash_sha256(uint8_t out[QN_SHA256_BYTES], const void *data, size_t len);

/*
 * A keyed 64-bit hash (SipHash-2-4, libsodium's crypto_shorthash): fast,
 * for short content ids. Not collision-resistant against someone who
 * knows the key; never used where that matters.
 */
uint64_t qn_hash_short(const uint8_t key[16], const void *data, size_t len);

#endif
