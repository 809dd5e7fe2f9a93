/*
 * rng.h: reproducible randomness on libsodium.
 *
 * A batch seed (1 to 64 hex digits, i.e. up to 256 bits) determines
 * everything. Puzzle i of a batch draws from its own stream, keyed by
 * K_i = ChaCha20(key = batch seed, nonce = i), a pseudorandom function of
 * (seed, i); so any puzzle can be regenerated alone and the output does
 * not depend on how work is split between threads. The stream fills
 * 64-byte blocks with randombytes_buf_deterministic: block 0 under the
 * seed K_i, block j > 0 under ChaCha20(key = K_i, nonce = j). A puzzle of
 * up to 512 two-colour cells thus costs two ChaCha20 blocks, which is
 * several times cheaper than one BLAKE2b call: generation derives a stream
 * per puzzle, a million times a second. A stream that reads past block 0
 * (a climb, a large board) gets blocks 1.. QN_RNG_AHEAD at a time, each
 * the same bytes as alone.
 */
#ifndef QN_RNG_H
#define QN_RNG_H

#include "quench/common.h"

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* Blocks a refill past block 0 draws at once (ChaCha20 lanes). */
#define QN_RNG_AHEAD 8
typedef struct qn_rng {
    uint8_t key[QN_SEED_BYTES];     /* stream key */
    uint64_t block;                 /* next block number */
    uint8_t buf[64 * QN_RNG_AHEAD]; /* blocks drawn, in stream order */
    int pos, end;                   /* bytes of buf used, and drawn */
} qn_rng;

/* Call once from main before anything else here (sodium_init). */
int qn_rng_global_init(qn_err *err);

/*
 * Parse 1..64 hex digits (an optional 0x prefix; case-insensitive) into a
 * seed. Leading zeros do not change the seed. QN_ESYNTAX otherwise.
 */
int qn_seed_parse(qn_seed *out, const char *hex, qn_err *err);
/* A fresh seed from the operating system's generator. */
void qn_seed_random(qn_seed *out);
/* The canonical spelling: 64 lowercase hex digits. */
void qn_seed_format(const qn_seed *seed, char hex_out[65]);

/* Stream number `index` of the batch seeded by `seed`. */
void qn_rng_init(qn_rng *rng, const qn_seed *seed, uint64_t index);
/*
 * Streams first .. first + count - 1 (count <= QN_RNG_BATCH) at once: the
 * same streams as qn_rng_init gives, each with its first block already
 * drawn. The key derivations and first blocks of the batch are computed
 * side by side in one pass of a ChaCha20 written for it (lanes of a
 * vector), instead of two libsodium calls a stream (issue #35).
 */
#define QN_RNG_BATCH 8
void qn_rng_init_batch(qn_rng *rngs, int count, const qn_seed *seed,
                       uint64_t first);
void qn_rng_bytes(qn_rng *rng, void *out, size_t n);
uint64_t qn_rng_u64(qn_rng *rng);
/* Uniform in 0..n-1 without modulo bias (rejection); n >= 1. */
uint64_t qn_rng_below(qn_rng *rng, uint64_t n);

/*
 * Fill out[0..n) with independent uniform values in 0..k-1 (2 <= k <=
 * 256). When k is a power of two each value takes log2(k) bits of the
 * stream (low bits of little-endian 64-bit words first); otherwise one
 * byte per value is drawn and rejected when it is at or above the largest
 * multiple of k below 257, so there is no modulo bias either way.
 */
void qn_rng_cells(qn_rng *rng, uint8_t *out, int n, unsigned k);

#endif
