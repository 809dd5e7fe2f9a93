/*
 * canon.c: canonical forms under a rule's symmetry group, and the exact
 * seen-set (open addressing over an arena of packed states).
 */
#include "quench/canon.h"

#include <stdlib.h>
#include <string.h>

#include "quench/mem.h"

/*
 * The image of s under symmetry g is t[j] = s[q[j]] with q the inverse
 * permutation, so images can be compared with the best so far cell by
 * cell and abandoned at the first larger cell, which is where almost all
 * of them lose.
 */
size_t qn_canon_form(const qn_rules *r, uint8_t *out, const uint8_t *s)
{
    int n = qn_rules_ncells(r);
    size_t nsyms = qn_rules_nsyms(r), best = 0;

    memcpy(out, s, (size_t)n);
    for (size_t g = 1; g < nsyms; g++) {
        const int *q = qn_rules_sym_inverse(r, g);
        int j = 0;
        while (j < n && s[q[j]] == out[j])
            j++;
        if (j == n || s[q[j]] > out[j])
            continue;
        for (; j < n; j++)
            out[j] = s[q[j]];
        best = g;
    }
    return best;
}

int qn_canon_distance(const qn_rules *r, const uint8_t *a, const uint8_t *b,
                      int limit)
{
    int n = qn_rules_ncells(r), best = limit;
    size_t nsyms = qn_rules_nsyms(r);

    for (size_t g = 0; g < nsyms && best > 0; g++) {
        const int *q = qn_rules_sym_inverse(r, g);
        int d = 0;
        /* a against b moved by g: cell j of the image is b[q[j]] */
        for (int j = 0; j < n && d < best; j++)
            d += a[j] != b[q[j]];
        if (d < best)
            best = d;
    }
    return best;
}

struct qn_seen {
    int n;
    int bits;        /* bits per packed cell */
    size_t bytes;    /* bytes per packed state */
    uint8_t *arena;  /* count * bytes */
    uint64_t *pay;   /* count payloads */
    size_t count, cap;
    uint32_t *slot;  /* nslot entries: 0 = empty, else index + 1 */
    size_t nslot;    /* a power of two, at least twice count */
    uint8_t *key;    /* scratch: the key being looked up */
};

qn_seen *qn_seen_new(int n, unsigned k)
{
    qn_seen *set = QN_NEW(qn_seen);

    set->n = n;
    set->bits = 1;
    while ((1u << set->bits) < k)
        set->bits++;
    set->bytes = ((size_t)n * set->bits + 7) / 8;
    if (!set->bytes)
        set->bytes = 1;
    set->nslot = 1024;
    set->slot = QN_NEWN(set->nslot, uint32_t);
    set->key = QN_NEWN(set->bytes, uint8_t);
    return set;
}

void qn_seen_free(qn_seen *set)
{
    if (!set)
        return;
    free(set->arena);
    free(set->pay);
    free(set->slot);
    free(set->key);
    free(set);
}

size_t qn_seen_count(const qn_seen *set)
{
    return set->count;
}

static void pack(const qn_seen *set, uint8_t *out, const uint8_t *s)
{
    size_t bit = 0;

    memset(out, 0, set->bytes);
    if (set->bits == 1) { /* the common k = 2 case, a bit a cell */
        for (int i = 0; i < set->n; i++)
            out[i >> 3] |= (uint8_t)((s[i] & 1) << (i & 7));
        return;
    }
    for (int i = 0; i < set->n; i++, bit += (size_t)set->bits)
        for (int b = 0; b < set->bits; b++)
            if (s[i] >> b & 1)
                out[(bit + b) / 8] |= (uint8_t)(1u << ((bit + b) % 8));
}

/* FNV-1a folded through a 64-bit finaliser: fast and well spread. */
static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static void grow(qn_seen *set)
{
    size_t nslot = set->nslot * 2;
    uint32_t *slot = QN_NEWN(nslot, uint32_t);

    for (size_t i = 0; i < set->count; i++) {
        size_t h = hash_bytes(set->arena + i * set->bytes, set->bytes) &
                   (nslot - 1);
        while (slot[h])
            h = (h + 1) & (nslot - 1);
        slot[h] = (uint32_t)(i + 1);
    }
    free(set->slot);
    set->slot = slot;
    set->nslot = nslot;
}

/* Find the slot of a packed key: taken (a match) or the empty one. */
static size_t probe(const qn_seen *set, const uint8_t *key, uint64_t hash,
                    int *found)
{
    size_t h = hash & (set->nslot - 1);

    for (; set->slot[h]; h = (h + 1) & (set->nslot - 1)) {
        size_t i = set->slot[h] - 1;
        if (!memcmp(set->arena + i * set->bytes, key, set->bytes)) {
            *found = 1;
            return h;
        }
    }
    *found = 0;
    return h;
}

size_t qn_seen_key_size(const qn_seen *set)
{
    return set->bytes;
}

void qn_seen_prepare(const qn_seen *set, uint8_t *key, uint64_t *hash,
                     const uint8_t *canon)
{
    pack(set, key, canon);
    *hash = hash_bytes(key, set->bytes);
}

int qn_seen_find_prepared(const qn_seen *set, const uint8_t *key,
                          uint64_t hash, uint64_t *first)
{
    int found;
    size_t h = probe(set, key, hash, &found);

    if (found && first)
        *first = set->pay[set->slot[h] - 1];
    return found;
}

int qn_seen_find(qn_seen *set, const uint8_t *canon, uint64_t *first)
{
    pack(set, set->key, canon);
    return qn_seen_find_prepared(set, set->key,
                                 hash_bytes(set->key, set->bytes), first);
}

int qn_seen_add(qn_seen *set, const uint8_t *canon, uint64_t payload,
                uint64_t *first)
{
    pack(set, set->key, canon);
    return qn_seen_add_prepared(set, set->key,
                                hash_bytes(set->key, set->bytes), payload,
                                first);
}

int qn_seen_add_prepared(qn_seen *set, const uint8_t *key, uint64_t hash,
                         uint64_t payload, uint64_t *first)
{
    int found;
    size_t h = probe(set, key, hash, &found);

    if (found) {
        if (first)
            *first = set->pay[set->slot[h] - 1];
        return 0;
    }
    if (set->count == set->cap) {
        set->cap = set->cap ? set->cap * 2 : 1024;
        set->arena = qn_xreallocarray(set->arena, set->cap, set->bytes);
        set->pay = QN_RENEW(set->pay, set->cap, uint64_t);
    }
    memcpy(set->arena + set->count * set->bytes, key, set->bytes);
    set->pay[set->count] = payload;
    set->slot[h] = (uint32_t)(++set->count);
    if (set->count * 2 > set->nslot)
        grow(set);
    return 1;
}
