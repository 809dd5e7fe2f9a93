/*
 * store_slots.c: the level slots of a pack's members (docs/STORE.md,
 * "Level slots"): a build's membership matched to the slots of the one it
 * replaces by section and rank, a puzzle replaced in its slot, a member
 * put in with the slot a document gives, and a merged build's slots made
 * its positions again.
 */
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "store_internal.h"

/* A member's key in a build: its section and its rank in it (1, 2, ...),
 * and the slot it had. */
typedef struct slot_key {
    const char *section;
    int64_t rank, slot;
} slot_key;

static int cmp_key(const void *a, const void *b)
{
    const slot_key *x = a, *y = b;
    int c = strcmp(x->section, y->section);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* keys[i] for v[0..n): rank within its section; NULL when out of
 * memory. */
static slot_key *rank_members(const qn_store_member *v, size_t n)
{
    slot_key *k = QN_ALLOCN(n + 1, slot_key);

    for (size_t i = 0; k && i < n; i++) {
        k[i].section = v[i].section ? v[i].section : "";
        k[i].rank = 1;
        k[i].slot = v[i].slot;
        for (size_t j = i; j-- > 0;)
            if (!strcmp(k[j].section, k[i].section)) {
                k[i].rank = k[j].rank + 1;
                break;
            }
    }
    return k;
}

/* Whether two memberships are the same puzzles, slots and sections. */
static int same_members(const qn_store_member *a, const qn_store_member *b,
                        size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].puzzle != b[i].puzzle || a[i].slot != b[i].slot ||
            strcmp(a[i].section ? a[i].section : "",
                   b[i].section ? b[i].section : ""))
            return 0;
    return 1;
}

int qn_store_pack_set_sections(qn_store *s, int64_t pack_id, const int64_t *ids,
                               const char *const *sections, size_t n, int bump,
                               int *changed_out, qn_err *err)
{
    qn_store_member *old = NULL, *w;
    slot_key *ok = NULL, *nk = NULL;
    size_t nold = 0;
    int rc, changed = 0, sectioned = 0;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__pack_exists(s, pack_id, err)) == QN_OK)
        rc = qn_store__pack_members(s, pack_id, &old, &nold, err);
    if (rc != QN_OK)
        return qn_store__tx_end(s, rc, err);
    w = QN_ALLOCN(n + 1, qn_store_member);
    for (size_t i = 0; w && i < n; i++) {
        w[i].puzzle = ids[i];
        w[i].section = (char *)(sections && sections[i] ? sections[i] : "");
    }
    if (!w || !(ok = rank_members(old, nold)) || !(nk = rank_members(w, n))) {
        rc = qn_err_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nold; i++)
        sectioned |= *ok[i].section != 0;
    qsort(ok, nold, sizeof(*ok), cmp_key);
    /* the k-th member of a section keeps the slot of the k-th before it
     * (a re-rolled level); a pack built before sections were kept
     * matches by position */
    for (size_t i = 0; i < n; i++) {
        slot_key key = sectioned ? nk[i] : (slot_key){"", (int64_t)i + 1, 0};
        const slot_key *o =
            nold ? bsearch(&key, ok, nold, sizeof(*ok), cmp_key) : NULL;
        w[i].slot = o ? o->slot : 0;
    }
    changed = nold != n || !same_members(old, w, n);
    if (changed)
        rc = qn_store__members_write(s, pack_id, w, n, bump, err);
done:
    free(nk);
    free(ok);
    free(w);
    qn_store__members_free(old, nold);
    rc = qn_store__tx_end(s, rc, err);
    if (rc == QN_OK && changed_out)
        *changed_out = changed;
    return rc;
}

int qn_store_pack_replace(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                          int64_t by_id, qn_err *err)
{
    qn_store_member *v = NULL;
    size_t n = 0, at;
    int rc;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__pack_exists(s, pack_id, err)) == QN_OK)
        rc = qn_store__pack_members(s, pack_id, &v, &n, err);
    for (at = 0; rc == QN_OK && at < n && v[at].puzzle != puzzle_id; at++)
        ;
    if (rc == QN_OK && at == n)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0,
                        "puzzle %lld is not in the pack", (long long)puzzle_id);
    for (size_t i = 0; rc == QN_OK && i < n; i++)
        if (v[i].puzzle == by_id && by_id != puzzle_id)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld is already in the pack (position "
                            "%zu)",
                            (long long)by_id, i + 1);
    /* the same puzzle in its own slot changes nothing */
    if (rc == QN_OK && by_id != puzzle_id) {
        v[at].puzzle = by_id;
        rc = qn_store__members_write(s, pack_id, v, n, 1, err);
    }
    qn_store__members_free(v, n);
    return qn_store__tx_end(s, rc, err);
}

int qn_store_pack_fill_slot(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                            int64_t slot, const char *section, qn_err *err)
{
    int rc;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__pack_exists(s, pack_id, err)) == QN_OK)
        rc = qn_store__append_member(s, pack_id, puzzle_id, slot, section, 0,
                                     err);
    return qn_store__tx_end(s, rc, err);
}

int qn_store__pack_renumber(qn_store *s, int64_t pack_id, qn_err *err)
{
    static const char *const sql[] = {
        /* through the negatives: (pack, slot) stays unique at each row */
        "UPDATE pack_puzzles SET slot = -position WHERE pack_id = ?1",
        "UPDATE pack_puzzles SET slot = -slot WHERE pack_id = ?1",
        ("UPDATE packs SET next_slot = 1 + (SELECT count(*) FROM"
         " pack_puzzles WHERE pack_id = ?1) WHERE id = ?1"),
    };
    int rc = QN_OK;

    for (size_t i = 0; rc == QN_OK && i < sizeof(sql) / sizeof(*sql); i++) {
        qn_store__stmt q;
        qn_store__sql(&q, s, sql[i], err);
        qn_store__bind_i64(&q, 1, pack_id);
        qn_store__run(&q);
        rc = qn_store__end(&q);
    }
    return rc;
}
