/*
 * canon.h: puzzles up to the board's symmetries, and an exact set of them.
 *
 * Two states are the same puzzle when a symmetry of the rule (a cell
 * permutation preserving the press matrix and the goal, see rules.h) maps
 * one onto the other. The canonical form is the lexicographically smallest
 * image of a state under the group. qn_seen stores canonical forms exactly
 * (packed ceil(log2 k) bits a cell), so "duplicate" never comes from a hash
 * collision; memory per distinct puzzle is its packed size and 8 bytes,
 * plus 16 to 32 bytes of table.
 */
#ifndef QN_CANON_H
#define QN_CANON_H

#include <stddef.h>
#include <stdint.h>

#include "rules/rules.h"

/*
 * Write the canonical form of s (n = qn_rules_ncells cells) to out (n
 * bytes; out and s must not overlap) and return the index of the symmetry
 * that produced it (0 = identity when s is already canonical).
 */
size_t qn_canon_form(const qn_rules *r, uint8_t *out, const uint8_t *s);

/*
 * qn_canon_form by table for the common boards: two colours, at most 64
 * cells and 16 symmetries. Each symmetry's image of a state, read as a
 * number whose high bit is cell 0, is the OR of one table entry per 4
 * cells, so the smallest image is the smallest number, found without
 * the unpredictable cell-by-cell branches. qn_canon_table_new sets *out
 * NULL for any other rule (qn_canon_form_table then is qn_canon_form) and
 * returns QN_OK, or QN_ENOMEM (*out NULL, err filled); r is borrowed and
 * must outlive the table, which threads may share.
 */
typedef struct qn_canon_table qn_canon_table;

int qn_canon_table_new(qn_canon_table **out, const qn_rules *r, qn_err *err);
void qn_canon_table_free(qn_canon_table *t); /* NULL-safe */
/* qn_canon_form of r, the same out and result; t from r or NULL. */
size_t qn_canon_form_table(const qn_canon_table *t, const qn_rules *r,
                           uint8_t *out, const uint8_t *s);
/* The same form as a number, from the state as one: cell i of the state
 * is bit i of m (bits from n up ignored), cell j of the form is bit
 * n - 1 - j of the result. t must not be NULL: a caller holding bits
 * (a packed two-colour state) skips the cells both ways. */
uint64_t qn_canon_bits_table(const qn_canon_table *t, uint64_t m);

/*
 * How far apart two puzzles are up to the board's symmetries: the least
 * number of cells in which a differs from an image of b under the rule's
 * group (0 for the same puzzle). Symmetric in a and b, and the same for
 * any images of them. Counting stops at limit: the result is
 * min(distance, limit), so checking "at least D apart" costs little.
 */
int qn_canon_distance(const qn_rules *r, const uint8_t *a, const uint8_t *b,
                      int limit);

typedef struct qn_seen qn_seen;

/* A set for states of n cells with values < k; NULL (err filled) when
 * out of memory. */
qn_seen *qn_seen_new(int n, unsigned k, qn_err *err);
void qn_seen_free(qn_seen *set); /* NULL-safe */
size_t qn_seen_count(const qn_seen *set);

/*
 * Make room for count entries (at most QN_SEEN_RESERVE_MAX) before they
 * come, so that a set known to grow large is not rehashed on the way (a
 * million states: 11 doublings, each a pass of random writes over the
 * slots). Only a hint: QN_OK, or QN_ENOMEM with the set as it was and
 * still usable. Results do not depend on it.
 */
#define QN_SEEN_RESERVE_MAX ((size_t)1 << 22)
int qn_seen_reserve(qn_seen *set, size_t count);

/*
 * Insert the (already canonical) state with a payload (e.g. the submission
 * number). Returns 1 when it was new; 0 when it was there already, and
 * then *first (if not NULL) receives the payload stored with it first;
 * QN_ENOMEM (negative) when the set could not grow: the state is not in
 * it, and the set is as it was.
 */
int qn_seen_add(qn_seen *set, const uint8_t *canon, uint64_t payload,
                uint64_t *first);

/*
 * Split work for threads: qn_seen_prepare packs a canonical state into
 * key (qn_seen_key_size bytes) and hashes it, touching nothing shared, so
 * workers can do it; qn_seen_add_prepared then only probes the table.
 * Same results as qn_seen_add.
 */
size_t qn_seen_key_size(const qn_seen *set);
void qn_seen_prepare(const qn_seen *set, uint8_t *key, uint64_t *hash,
                     const uint8_t *canon);
int qn_seen_add_prepared(qn_seen *set, const uint8_t *key, uint64_t hash,
                         uint64_t payload, uint64_t *first);

/* 1 if the canonical state is in the set (its payload to *first). */
int qn_seen_find(qn_seen *set, const uint8_t *canon, uint64_t *first);

/* A hint: a lookup of this hash comes soon (start loading its slot). */
void qn_seen_prefetch(const qn_seen *set, uint64_t hash);

/* qn_seen_find for a key from qn_seen_prepare. */
int qn_seen_find_prepared(const qn_seen *set, const uint8_t *key, uint64_t hash,
                          uint64_t *first);

#endif
