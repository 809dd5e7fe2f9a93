/*
 * puzzle_id.h: the one name of a puzzle. A puzzle's id is derived from its
 * content alone: the rule's content hash (qn_rules_hash) and the puzzle's
 * canonical form under the rule's symmetries (qn_canon_form). The same
 * puzzle has the same id on every machine, in every database and in every
 * export; two spellings of one rule, or two symmetric images of one
 * state, share it.
 *
 * The id is 64 bits, written as 16 lowercase hex digits: SipHash-2-4
 * (hash.h, qn_hash_short) of the canonical cells, one byte each, keyed by
 * the first 16 bytes of BLAKE2b-256 of the rule's 64 hex digits. Two
 * puzzles sharing an id is a birthday event (about 1 in 2^33 for a
 * million puzzles); the store keeps both and a lookup that meets two
 * names them (store.h, qn_store_puzzle_resolve). Nothing is allocated.
 */
#ifndef QN_PUZZLE_ID_H
#define QN_PUZZLE_ID_H

#include <stddef.h>
#include <stdint.h>

#define QN_PUZZLE_ID_HEX 17       /* 16 hex digits + NUL */
#define QN_PUZZLE_ID_MIN_PREFIX 4 /* the shortest prefix accepted */

/* The per-rule key, from the rule's 64 lowercase hex digits. */
typedef struct qn_puzzle_id_key {
    uint8_t k[16];
} qn_puzzle_id_key;

void qn_puzzle_id_key_init(qn_puzzle_id_key *key, const char rule_hash[64]);

/* The id of the puzzle whose canonical cells are canon[0..n). */
uint64_t qn_puzzle_id(const qn_puzzle_id_key *key, const uint8_t *canon, int n);

/* The same id of a two-colour canonical form held as a number: cell j
 * is bit n - 1 - j of form (qn_canon_bits_table's), 1 <= n <= 64. */
uint64_t qn_puzzle_id_bits(const qn_puzzle_id_key *key, uint64_t form, int n);

/* 16 lowercase hex digits and a NUL. */
void qn_puzzle_id_hex(char out[QN_PUZZLE_ID_HEX], uint64_t id);

/*
 * A prefix of an id as the range of ids it names: [*lo, *hi]. The prefix
 * is QN_PUZZLE_ID_MIN_PREFIX..16 hex digits (either case). Returns 0, or
 * -1 when s is not such a prefix.
 */
int qn_puzzle_id_prefix(const char *s, uint64_t *lo, uint64_t *hi);

#endif
