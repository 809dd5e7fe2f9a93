/*
 * keyrun.h: key runs (issue #35 section 1, docs/STORE-KEYRUNS.md): a
 * sorted run of (puzzle id, row id) pairs Rice-coded into one checksummed
 * blob, read whole or looked up by key range, and the in-memory set of a
 * rule's ids that holds the puzzles' uniqueness. Pure code: no SQLite, no
 * I/O. Internal to src/store (and its tests and fuzz target).
 *
 * Codes: QN_OK, QN_ENOMEM, QN_EDB (a damaged run: the caller names it),
 * QN_EINVAL (a caller's error). No qn_err: there is no place to report.
 * Threads: the codec functions keep no state (any thread); one qn_kr_set
 * is used by one thread at a time (its const functions by several).
 */
#ifndef QN_STORE_KEYRUN_H
#define QN_STORE_KEYRUN_H

#include <stddef.h>
#include <stdint.h>

typedef struct qn_kr_pair {
    uint64_t key; /* the puzzle id (any value, 0 and UINT64_MAX too) */
    int64_t row;  /* its row id, >= 1 in a run */
} qn_kr_pair;

#define QN_KR_MAX 65536  /* pairs in one run at most */
#define QN_KR_VERSION 1  /* the run format's version byte */
#define QN_KR_HEADER 48  /* bytes of a run's header */
#define QN_KR_SAMPLE 128 /* keys between two samples */

/* Sort a[0..n) by (key, row) ascending (LSD radix, stable). QN_OK, or
 * QN_ENOMEM (a scratch array of n pairs; a unchanged). */
int qn_kr_sort(qn_kr_pair *a, size_t n);

/* One run of a[0..n), sorted by (key, row) strictly (no pair twice),
 * 1 <= n <= QN_KR_MAX, every row >= 1: *out malloc'd (the caller frees
 * it), *len bytes. QN_EINVAL if a is unsorted, n or a row out of range;
 * QN_ENOMEM. On failure *out is NULL and *len 0. Equal inputs give equal
 * bytes (the format is canonical: docs/STORE-KEYRUNS.md). */
int qn_kr_encode(const qn_kr_pair *a, size_t n, uint8_t **out, size_t *len);

/* The header's facts without decoding. */
typedef struct qn_kr_info {
    size_t n;               /* pairs, 1..QN_KR_MAX */
    uint64_t first, last;   /* the smallest and largest key */
    int64_t row_lo, row_hi; /* the smallest and largest row, >= 1 */
} qn_kr_info;

/* The header of run b (len bytes). QN_EDB if it is impossible for len:
 * every field is checked against len and the limits (not the checksum,
 * not the coded keys: qn_kr_decode checks those). */
int qn_kr_info_get(const uint8_t *b, size_t len, qn_kr_info *out);

/* Every pair of run b (len bytes) into out[0..info.n), in order. QN_EDB
 * for ANY damage: a bad header, a checksum mismatch, a read that would
 * pass the blob's end, pairs not strictly sorted by (key, row), a row
 * outside [row_lo, row_hi], a sample that is not its key's, trailing
 * bytes or bits. Never reads outside b[0..len); out's contents are
 * unspecified on failure. A run it accepts is the encoding of its pairs
 * (qn_kr_encode gives back the same bytes). */
int qn_kr_decode(const uint8_t *b, size_t len, qn_kr_pair *out);

/* Run b (len bytes, its header checked: QN_EDB; decode it first to
 * check the rest) with every row moved by delta, into *out (malloc'd,
 * len bytes): the bytes qn_kr_encode gives the moved pairs, as rows are
 * stored as offsets from the smallest (only the header's row range and
 * the checksum change). QN_EINVAL when a row would leave 1..INT64_MAX,
 * QN_ENOMEM; *out NULL on failure. */
int qn_kr_shift(const uint8_t *b, size_t len, int64_t delta, uint8_t **out);

/* Reads len bytes of a run at offset off into buf (the store: one
 * sqlite3_blob_read): QN_OK or an error code, which the lookup passes
 * up. Never asked for bytes outside [0, len) of the run. */
typedef int qn_kr_read_fn(void *ctx, size_t off, void *buf, size_t n);

/* Every pair of a run of len bytes with lo <= key <= hi into
 * out[0..min(max, *nfound)), in order; *nfound is the true count. Reads
 * the header, a binary search of the samples, then at most one sample
 * interval decoded at each end of the range beside the pairs it writes.
 * QN_EINVAL: lo > hi, nfound NULL, or out NULL with max > 0. QN_EDB: the
 * header or a read of the codes is out of bounds (the whole-run checksum
 * is not checked: that is qn_kr_decode's). A read_fn error is returned
 * as it is. *nfound is 0 on failure. */
int qn_kr_find(qn_kr_read_fn *read, void *ctx, size_t len, uint64_t lo,
               uint64_t hi, qn_kr_pair *out, size_t max, size_t *nfound);

/*
 * The set of a rule's ids: open addressing on the mixed id's top bits,
 * keys probed in one array, rows in a parallel one read only on a hit,
 * id 0 in a list of its own (0 marks a free slot). A key may be stored
 * with several rows (two puzzles sharing an id are both kept). Load at
 * most 0.7; grows by doubling.
 */
typedef struct qn_kr_set qn_kr_set;

qn_kr_set *qn_kr_set_new(void);             /* empty; NULL: no memory */
void qn_kr_set_free(qn_kr_set *s);          /* NULL does nothing */
void qn_kr_set_clear(qn_kr_set *s);         /* empty, keeps its memory */
size_t qn_kr_set_count(const qn_kr_set *s); /* pairs stored */
/* Room for `more` pairs beyond the count without growing: QN_ENOMEM
 * (the set unchanged). */
int qn_kr_set_reserve(qn_kr_set *s, size_t more);
/* Bring key's first slot, and its row's for an add, into the cache ahead
 * of a probe (a hint). */
void qn_kr_set_prefetch(const qn_kr_set *s, uint64_t key);
/* The rows stored under key, one a call: start with *cursor = 0; returns
 * 1 with *row, then 0 when there are no more. An add, reserve or clear
 * between two calls makes the cursor meaningless. */
int qn_kr_set_next(const qn_kr_set *s, uint64_t key, size_t *cursor,
                   int64_t *row);
/* Store (key, row), also when the key is there already: QN_ENOMEM (the
 * set unchanged). */
int qn_kr_set_add(qn_kr_set *s, uint64_t key, int64_t row);
/* Every pair of run b (len bytes) into the set, decoded and checked as
 * qn_kr_decode does: QN_EDB, QN_ENOMEM. On any failure the set's pairs
 * are unchanged (the run is decoded whole before the first add). */
int qn_kr_set_add_run(qn_kr_set *s, const uint8_t *b, size_t len);

#endif
