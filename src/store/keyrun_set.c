/*
 * keyrun_set.c: the in-memory set of a rule's puzzle ids (keyrun.h), the
 * writer's uniqueness check: open addressing with linear probing, a slot
 * an 8-byte key (0: free) and the rows in a parallel array read only on
 * a hit, id 0 in a list of its own.
 */
#include "store/keyrun.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "quench/common.h"

#define MIN_BITS 10 /* the first table: 1,024 slots, 16 KiB */
#define ZERO_MIN 4  /* the first list of id 0's rows */
#define PREFETCH 8  /* add_run: pairs prefetched ahead */

struct qn_kr_set {
    uint64_t *key;   /* 2^bits slots; 0: free */
    int64_t *row;    /* each slot's row, read only on a hit */
    unsigned bits;   /* 0: no table yet */
    size_t used;     /* slots holding a key: at most 0.7 * 2^bits */
    int64_t *zrow;   /* the rows of id 0 */
    size_t zn, zcap; /* their count and room */
    qn_kr_pair *tmp; /* add_run's decoded run */
    size_t tcap;     /* its room, pairs */
};

/*
 * The slot of a key: the top bits of the key times 2^64 / phi (Fibonacci
 * hashing). Puzzle ids are uniform hashes already and their top bits
 * would do; the multiply (one cycle of throughput) keeps the set fast on
 * ids that are not (a test's consecutive keys, a damaged hash).
 */
static size_t slot_of(uint64_t key, unsigned bits)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

qn_kr_set *qn_kr_set_new(void)
{
    return QN_ALLOC(qn_kr_set);
}

void qn_kr_set_free(qn_kr_set *s)
{
    if (!s)
        return;
    free(s->key);
    free(s->row);
    free(s->zrow);
    free(s->tmp);
    free(s);
}

void qn_kr_set_clear(qn_kr_set *s)
{
    if (s->key)
        memset(s->key, 0, sizeof(*s->key) << s->bits);
    s->used = 0;
    s->zn = 0;
}

size_t qn_kr_set_count(const qn_kr_set *s)
{
    return s->used + s->zn;
}

/* the slots of want keys at load <= 0.7: the table's bits, 0 if the
 * table could not be addressed */
static unsigned bits_for(size_t want)
{
    unsigned bits = MIN_BITS;

    if (want > SIZE_MAX / 10)
        return 0;
    while (want * 10 > (size_t)7 << bits)
        if (++bits >= sizeof(size_t) * 8 - 4)
            return 0;
    return bits;
}

/* room for `more` keys in slots: the table rebuilt larger if need be,
 * or QN_ENOMEM with the set as it was */
static int room(qn_kr_set *s, size_t more)
{
    unsigned bits;
    uint64_t *nk;
    int64_t *nr;
    size_t mask;

    if (s->bits && more <= ((size_t)7 << s->bits) / 10 - s->used)
        return QN_OK; /* the common case: an add into a roomy table */
    if (more > SIZE_MAX - s->used || !(bits = bits_for(s->used + more)))
        return QN_ENOMEM;
    if (bits <= s->bits)
        return QN_OK;
    nk = QN_ALLOCN((size_t)1 << bits, uint64_t);
    nr = QN_REALLOCN(NULL, (size_t)1 << bits, int64_t);
    if (!nk || !nr) {
        free(nk);
        free(nr);
        return QN_ENOMEM;
    }
    qn_mem_advise_huge(nk, sizeof(*nk) << bits);
    qn_mem_advise_huge(nr, sizeof(*nr) << bits); /* its slots are written
                                                    at random too */
    mask = ((size_t)1 << bits) - 1;
    for (size_t i = 0, m = s->key ? (size_t)1 << s->bits : 0; i < m; i++) {
        size_t j;
        if (!s->key[i])
            continue;
        for (j = slot_of(s->key[i], bits); nk[j]; j = (j + 1) & mask)
            ;
        nk[j] = s->key[i];
        nr[j] = s->row[i];
    }
    free(s->key);
    free(s->row);
    s->key = nk;
    s->row = nr;
    s->bits = bits;
    return QN_OK;
}

/* room for `more` rows of id 0 */
static int zero_room(qn_kr_set *s, size_t more)
{
    size_t cap = s->zcap ? s->zcap : ZERO_MIN;
    int64_t *z;

    if (more > SIZE_MAX / 2 - s->zn)
        return QN_ENOMEM;
    while (cap < s->zn + more)
        cap *= 2;
    if (cap == s->zcap)
        return QN_OK;
    if (!(z = QN_REALLOCN(s->zrow, cap, int64_t)))
        return QN_ENOMEM;
    s->zrow = z;
    s->zcap = cap;
    return QN_OK;
}

int qn_kr_set_reserve(qn_kr_set *s, size_t more)
{
    return room(s, more);
}

void qn_kr_set_prefetch(const qn_kr_set *s, uint64_t key)
{
    size_t i;

    if (!s->bits)
        return;
    i = slot_of(key, s->bits);
    __builtin_prefetch(&s->key[i]);
    /* the row's slot too, for writing: a new key's add stores its row
     * there (a second cache miss a row in a set of millions) */
    __builtin_prefetch(&s->row[i], 1);
}

int qn_kr_set_next(const qn_kr_set *s, uint64_t key, size_t *cursor,
                   int64_t *row)
{
    size_t mask, i, t;

    if (!key) {
        if (*cursor >= s->zn)
            return 0;
        *row = s->zrow[(*cursor)++];
        return 1;
    }
    if (!s->bits)
        return 0;
    /* the cursor counts the probe's steps from the key's slot; the load
     * bound leaves a free slot, which ends the probe */
    mask = ((size_t)1 << s->bits) - 1;
    for (t = *cursor, i = (slot_of(key, s->bits) + t) & mask; s->key[i];
         t++, i = (i + 1) & mask)
        if (s->key[i] == key) {
            *row = s->row[i];
            *cursor = t + 1;
            return 1;
        }
    *cursor = t;
    return 0;
}

/* (key, row) into the table, which has room */
static void put(qn_kr_set *s, uint64_t key, int64_t row)
{
    size_t mask = ((size_t)1 << s->bits) - 1, i = slot_of(key, s->bits);

    while (s->key[i])
        i = (i + 1) & mask;
    s->key[i] = key;
    s->row[i] = row;
    s->used++;
}

int qn_kr_set_add(qn_kr_set *s, uint64_t key, int64_t row)
{
    if (!key) {
        if (zero_room(s, 1) != QN_OK)
            return QN_ENOMEM;
        s->zrow[s->zn++] = row;
        return QN_OK;
    }
    if (room(s, 1) != QN_OK)
        return QN_ENOMEM;
    put(s, key, row);
    return QN_OK;
}

/*
 * The run is decoded whole (into the set's scratch array, kept for the
 * next run) and only then added, after the room for all of it is made:
 * a damaged run or a failed allocation leaves the set's pairs as they
 * were. The slots are prefetched a few pairs ahead: each add is a cache
 * miss in a large table, and the misses then overlap.
 */
int qn_kr_set_add_run(qn_kr_set *s, const uint8_t *b, size_t len)
{
    qn_kr_info info;
    size_t zeros = 0, n;
    int rc;

    if ((rc = qn_kr_info_get(b, len, &info)) != QN_OK)
        return rc;
    n = info.n;
    if (n > s->tcap) {
        qn_kr_pair *t = QN_REALLOCN(s->tmp, n, qn_kr_pair);
        if (!t)
            return QN_ENOMEM;
        s->tmp = t;
        s->tcap = n;
    }
    if ((rc = qn_kr_decode(b, len, s->tmp)) != QN_OK)
        return rc;
    while (zeros < n && !s->tmp[zeros].key)
        zeros++;
    if ((zeros && zero_room(s, zeros) != QN_OK) || room(s, n - zeros) != QN_OK)
        return QN_ENOMEM;
    for (size_t i = 0; i < zeros; i++)
        s->zrow[s->zn++] = s->tmp[i].row;
    for (size_t i = zeros; i < n; i++) {
        if (i + PREFETCH < n)
            __builtin_prefetch(
                &s->key[slot_of(s->tmp[i + PREFETCH].key, s->bits)]);
        put(s, s->tmp[i].key, s->tmp[i].row);
    }
    return QN_OK;
}
