/*
 * canon.c: canonical forms under a rule's symmetry group, and the exact
 * seen-set (open addressing over an arena of packed states).
 */
#include "rules/canon.h"

#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/mem.h"

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

#define TABLE_MAX_CELLS 64
#define TABLE_MAX_SYMS 16
/* Cells a table entry covers. 4: 16 entries a chunk, 7 KB for classic
 * 5x5's 8 symmetries, which stays in the L1 cache; 8-cell chunks (64 KB)
 * missed it, and their loads were most of validate's canonical forms. */
#define CHUNK 4
#define CHUNK_VALS (1 << CHUNK)
#define LANES 4 /* images made side by side (rows padded to a multiple) */

/* Read by every worker for every state: kept off other data's cache
 * lines (a neighbour on the heap written meanwhile would evict it). */
struct qn_canon_table {
    char apart0[64];
    int n, nchunks; /* cells; bytes of a packed state */
    size_t nsyms;
    /* where the group has the half turn (cell i to n - 1 - i, e.g. a
     * square or rectangular grid's 180 degree rotation), g's image
     * composed with it is g's reversed, so only one of each such pair
     * is looked up: the looked-up ones are rep[0..nrep) (nrep rounded up
     * to LANES, the rest empty), and symmetry g's image is image
     * from[g] >> 1 of those, reversed when from[g] is odd */
    int nrep, nlane;
    unsigned char from[TABLE_MAX_SYMS];
    uint64_t *t; /* [chunk][value][lane]: the image bits of those cells
                    under each looked-up symmetry */
    char apart1[64];
};

/* x's low n bits in reverse order (1 <= n <= 64) */
static uint64_t reverse_bits(uint64_t x, int n)
{
    x = __builtin_bswap64(x);
    x = (x >> 4 & UINT64_C(0x0f0f0f0f0f0f0f0f)) |
        (x & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4;
    x = (x >> 2 & UINT64_C(0x3333333333333333)) |
        (x & UINT64_C(0x3333333333333333)) << 2;
    x = (x >> 1 & UINT64_C(0x5555555555555555)) |
        (x & UINT64_C(0x5555555555555555)) << 1;
    return x >> (64 - n);
}

/* The looked-up symmetries and how each symmetry's image comes from
 * them; rep[] gets the looked-up ones' numbers. */
static void pair_halves(const qn_rules *r, qn_canon_table *t, int *rep)
{
    int n = t->n, i;

    t->nrep = 0;
    for (size_t g = 0; g < t->nsyms; g++) {
        int x;
        const int *tg = qn_rules_sym(r, g);
        for (x = 0; x < t->nrep; x++) {
            const int *th = qn_rules_sym(r, (size_t)rep[x]);
            for (i = 0; i < n && tg[i] == n - 1 - th[i]; i++)
                ;
            if (i == n)
                break;
        }
        if (x < t->nrep) { /* g is rep[x] turned half way */
            t->from[g] = (unsigned char)(2 * x + 1);
            continue;
        }
        rep[t->nrep] = (int)g;
        t->from[g] = (unsigned char)(2 * t->nrep++);
    }
    t->nlane = (t->nrep + LANES - 1) / LANES * LANES;
}

int qn_canon_table_new(qn_canon_table **out, const qn_rules *r, qn_err *err)
{
    int n = qn_rules_ncells(r), rep[TABLE_MAX_SYMS];
    size_t nsyms = qn_rules_nsyms(r);
    qn_canon_table *t;

    *out = NULL;
    if (qn_rules_colours(r) != 2 || n > TABLE_MAX_CELLS || nsyms < 2 ||
        nsyms > TABLE_MAX_SYMS)
        return QN_OK;
    if (!(t = QN_ALLOC(qn_canon_table)))
        return qn_err_nomem(err);
    t->n = n;
    t->nchunks = (n + CHUNK - 1) / CHUNK;
    t->nsyms = nsyms;
    pair_halves(r, t, rep);
    t->t =
        QN_ALLOCN((size_t)t->nchunks * CHUNK_VALS * (size_t)t->nlane, uint64_t);
    if (!t->t) {
        free(t);
        return qn_err_nomem(err);
    }
    for (int x = 0; x < t->nrep; x++) {
        /* cell i goes to j = sym(i) in the image t[j] = s[q[j]] */
        const int *to = qn_rules_sym(r, (size_t)rep[x]);
        for (int c = 0; c < t->nchunks; c++)
            for (int v = 0; v < CHUNK_VALS; v++) {
                uint64_t *e =
                    t->t + ((size_t)c * CHUNK_VALS + (size_t)v) * t->nlane;
                for (int b = 0; b < CHUNK && c * CHUNK + b < n; b++)
                    if (v >> b & 1)
                        e[x] |= UINT64_C(1) << (n - 1 - to[c * CHUNK + b]);
            }
    }
    *out = t;
    return QN_OK;
}

void qn_canon_table_free(qn_canon_table *t)
{
    if (!t)
        return;
    free(t->t);
    free(t);
}

/* out[j] = bit n - 1 - j of v, j < n (1 <= n <= 64) */
static void put_bits(uint8_t *out, uint64_t v, int n)
{
    qn_bits_put_top(out, v << (64 - n), n);
}

/* The smallest image of the state whose cell i is bit i of m, as a
 * number whose bit n - 1 is cell 0; *sym its symmetry (a tie keeps the
 * first, as qn_canon_form does). */
static uint64_t table_min(const qn_canon_table *t, uint64_t m, size_t *sym)
{
    uint64_t min = 0, img[TABLE_MAX_SYMS]; /* [0, nlane) written */
    size_t best = 0;
    const uint64_t *e;

    /* the looked-up images, LANES at a time a chunk */
    for (int x = 0; x < t->nlane; x += LANES) {
        uint64_t acc[LANES] = {0}, mm = m;
        e = t->t + x;
        for (int c = 0; c < t->nchunks; c++, mm >>= CHUNK) {
            const uint64_t *row = e + (size_t)c * CHUNK_VALS * t->nlane +
                                  (size_t)(mm & (CHUNK_VALS - 1)) * t->nlane;
            for (int l = 0; l < LANES; l++)
                acc[l] |= row[l];
        }
        memcpy(img + x, acc, sizeof(acc));
    }
    /* the smallest number is the lexicographically smallest image */
    if (t->n <= 64 - 4) {
        /* the symmetry's number in the low 4 bits: one minimum, no
         * unpredictable branch, and a tie goes to the smaller number */
        uint64_t k = UINT64_MAX;
        for (size_t g = 0; g < t->nsyms; g++) {
            uint64_t v = img[t->from[g] >> 1];
            if (t->from[g] & 1)
                v = reverse_bits(v, t->n);
            v = v << 4 | g;
            k = v < k ? v : k;
        }
        *sym = (size_t)(k & 15);
        return k >> 4;
    }
    for (size_t g = 0; g < t->nsyms; g++) {
        uint64_t v = img[t->from[g] >> 1];
        if (t->from[g] & 1)
            v = reverse_bits(v, t->n);
        if (g == 0 || v < min)
            min = v, best = g;
    }
    *sym = best;
    return min;
}

size_t qn_canon_form_table(const qn_canon_table *t, const qn_rules *r,
                           uint8_t *out, const uint8_t *s)
{
    size_t sym;

    if (!t)
        return qn_canon_form(r, out, s);
    put_bits(out, table_min(t, qn_bits_low(s, t->n), &sym), t->n);
    return sym;
}

uint64_t qn_canon_bits_table(const qn_canon_table *t, uint64_t m)
{
    size_t sym;

    /* bits from n up need no mask: the table's entries give cells past
     * the last nothing */
    return table_min(t, m, &sym);
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

/*
 * Worker threads read n, bits and bytes (qn_seen_prepare) while one
 * thread inserts; the 64-byte gaps keep the fields it writes off the
 * cache lines they read (and off any neighbour on the heap), or every
 * insert would pull the line from under them.
 */
struct qn_seen {
    char apart0[64];
    int n;
    int bits;     /* bits per packed cell */
    size_t bytes; /* bytes per packed state */
    char apart1[64];
    uint8_t *arena; /* count * bytes */
    uint64_t *pay;  /* count payloads */
    size_t count, cap;
    uint64_t *slot; /* nslot entries: 0 = empty, else the key's hash's
                       high 32 bits over index + 1 (the low 32 bits) */
    size_t nslot;   /* a power of two, at least twice count */
    uint8_t *key;   /* scratch: the key being looked up */
    char apart2[64];
};

qn_seen *qn_seen_new(int n, unsigned k, qn_err *err)
{
    qn_seen *set = QN_ALLOC(qn_seen);

    if (!set) {
        qn_err_nomem(err);
        return NULL;
    }
    set->n = n;
    set->bits = 1;
    while ((1u << set->bits) < k)
        set->bits++;
    set->bytes = ((size_t)n * set->bits + 7) / 8;
    if (!set->bytes)
        set->bytes = 1;
    set->nslot = 1024;
    set->slot = QN_ALLOCN(set->nslot, uint64_t);
    set->key = QN_ALLOCN(set->bytes, uint8_t);
    if (!set->slot || !set->key) {
        qn_seen_free(set);
        qn_err_nomem(err);
        return NULL;
    }
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

    if (set->bits == 1) { /* the common k = 2 case, a bit a cell: 64
                             cells gathered in a word, stored a byte at a
                             time (the same bytes on any machine) */
        for (int i = 0; i < set->n; i += 64) {
            int m = set->n - i < 64 ? set->n - i : 64;
            uint64_t w = qn_bits_low(s + i, m);
            for (int b = 0; b < (m + 7) / 8; b++)
                out[i / 8 + b] = (uint8_t)(w >> (8 * b));
        }
        return;
    }
    memset(out, 0, set->bytes);
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

/* A slot for entry i (0-based) whose key hashes to hash. The hash's high
 * half rides along, so a probe reads the arena (a cache miss, as a rule)
 * only for a key that very likely matches. */
static uint64_t slot_of(uint64_t hash, size_t i)
{
    return (hash >> 32 << 32) | (uint64_t)(i + 1);
}

static size_t slot_index(uint64_t slot)
{
    return (size_t)(uint32_t)slot - 1;
}

/* The slot table at nslot entries (a power of two, more than twice
 * count). QN_OK, or QN_ENOMEM with the set as it was. */
static int rehash(qn_seen *set, size_t nslot)
{
    uint64_t *slot = QN_ALLOCN(nslot, uint64_t);

    if (!slot)
        return QN_ENOMEM;

    /* a million states take 16 MB of slots, each probe at a random one:
     * huge pages spare the TLB miss a probe (or its prefetch) would pay */
    qn_mem_advise_huge(slot, nslot * sizeof(*slot));
    for (size_t i = 0; i < set->count; i++) {
        uint64_t hash = hash_bytes(set->arena + i * set->bytes, set->bytes);
        size_t h = hash & (nslot - 1);
        while (slot[h])
            h = (h + 1) & (nslot - 1);
        slot[h] = slot_of(hash, i);
    }
    free(set->slot);
    set->slot = slot;
    set->nslot = nslot;
    return QN_OK;
}

static int grow(qn_seen *set)
{
    return rehash(set, set->nslot * 2);
}

/* Room for cap entries: the arena and payloads at cap. */
static int room(qn_seen *set, size_t cap)
{
    uint8_t *arena = qn_reallocarray(set->arena, cap, set->bytes);
    uint64_t *pay;

    if (!arena)
        return QN_ENOMEM;
    set->arena = arena; /* bigger, the same contents: still valid */
    if (!(pay = QN_REALLOCN(set->pay, cap, uint64_t)))
        return QN_ENOMEM;
    set->pay = pay;
    set->cap = cap;
    return QN_OK;
}

int qn_seen_reserve(qn_seen *set, size_t count)
{
    size_t nslot = set->nslot;

    if (count > QN_SEEN_RESERVE_MAX)
        count = QN_SEEN_RESERVE_MAX;
    while (nslot < 2 * count)
        nslot *= 2;
    if (count > set->cap && room(set, count) != QN_OK)
        return QN_ENOMEM;
    return nslot > set->nslot ? rehash(set, nslot) : QN_OK;
}

/* Find the slot of a packed key: taken (a match) or the empty one. */
static size_t probe(const qn_seen *set, const uint8_t *key, uint64_t hash,
                    int *found)
{
    size_t h = hash & (set->nslot - 1);
    uint64_t tag = hash >> 32;

    for (; set->slot[h]; h = (h + 1) & (set->nslot - 1)) {
        uint64_t s = set->slot[h];
        if (s >> 32 == tag &&
            !memcmp(set->arena + slot_index(s) * set->bytes, key, set->bytes)) {
            *found = 1;
            return h;
        }
    }
    *found = 0;
    return h;
}

void qn_seen_prefetch(const qn_seen *set, uint64_t hash)
{
#if defined(__GNUC__)
    __builtin_prefetch(&set->slot[hash & (set->nslot - 1)]);
#else
    (void)set, (void)hash;
#endif
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

int qn_seen_find_prepared(const qn_seen *set, const uint8_t *key, uint64_t hash,
                          uint64_t *first)
{
    int found;
    size_t h = probe(set, key, hash, &found);

    if (found && first)
        *first = set->pay[slot_index(set->slot[h])];
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
    return qn_seen_add_prepared(set, set->key, hash_bytes(set->key, set->bytes),
                                payload, first);
}

int qn_seen_add_prepared(qn_seen *set, const uint8_t *key, uint64_t hash,
                         uint64_t payload, uint64_t *first)
{
    int found;
    size_t h = probe(set, key, hash, &found);

    if (found) {
        if (first)
            *first = set->pay[slot_index(set->slot[h])];
        return 0;
    }
    if (set->count == set->cap &&
        room(set, set->cap ? set->cap * 2 : 1024) != QN_OK)
        return QN_ENOMEM;
    /* Room first, so that a failure leaves the set as it was: the slot
     * table grows at the insert that would fill half of it, and the new
     * entry goes in last, the layout of growing just after the insert. */
    if ((set->count + 1) * 2 > set->nslot) {
        if (grow(set) != QN_OK)
            return QN_ENOMEM;
        h = probe(set, key, hash, &found);
    }
    memcpy(set->arena + set->count * set->bytes, key, set->bytes);
    set->pay[set->count] = payload;
    set->slot[h] = slot_of(hash, set->count++);
    return 1;
}
