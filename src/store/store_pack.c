/*
 * store_pack.c: packs, ordered lists of puzzles: created, listed,
 * renamed, deleted, and their membership edited. Pack order is kept
 * dense by rewriting a pack's membership inside one transaction; packs
 * are small next to the puzzle table, and a rewrite cannot leave gaps or
 * collisions behind. Appending, the common edit, skips the rewrite.
 */
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "store_internal.h"

/* QN_OK when sql ("SELECT 1 FROM t WHERE id = ?") finds id, else
 * QN_ENOTFOUND naming it as a what ("pack", "puzzle"). */
static int row_exists(qn_store *s, const char *sql, const char *what,
                      int64_t id, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, sql, err);
    qn_store__bind_i64(&q, 1, id);
    if (!qn_store__row(&q) && q.rc == QN_OK)
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no %s with id %lld", what,
                          (long long)id);
    return qn_store__end(&q);
}

int qn_store__pack_exists(qn_store *s, int64_t pack_id, qn_err *err)
{
    return row_exists(s, "SELECT 1 FROM packs WHERE id = ?", "pack", pack_id,
                      err);
}

int qn_store_pack_find(qn_store *s, const char *name, int64_t *id_out,
                       qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, "SELECT id FROM packs WHERE name = ?", err);
    qn_store__bind_str(&q, 1, name);
    if (qn_store__row(&q))
        *id_out = sqlite3_column_int64(q.st, 0);
    else if (q.rc == QN_OK)
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no pack named '%s'", name);
    return qn_store__end(&q);
}

/*
 * QN_OK when no pack but `self` (0: none) is named `name`; QN_EINVAL when
 * another is; any other error of the lookup (out of memory, I/O) as it
 * is, never taken for "no such pack".
 */
static int name_free(qn_store *s, const char *name, int64_t self, qn_err *err)
{
    int64_t other = 0;
    qn_err e = QN_ERR_INIT;
    int rc = qn_store_pack_find(s, name, &other, &e);

    if (rc == QN_ENOTFOUND || (rc == QN_OK && other == self))
        return QN_OK;
    if (rc == QN_OK)
        return qn_err_set(err, QN_EINVAL, 0, 0, "pack '%s' already exists",
                          name);
    if (err)
        *err = e;
    return rc;
}

int qn_store_pack_create(qn_store *s, const qn_store_pack *p, int64_t *id_out,
                         qn_err *err)
{
    qn_store__stmt q;
    int64_t id = 0;
    int rc;

    if ((rc = qn_store_pack_check(p, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    rc = name_free(s, p->name, 0, err);
    if (rc == QN_OK) {
        qn_store__sql(&q, s,
                      "INSERT INTO packs (name, title, description, author,"
                      " version, build) VALUES (?, ?, ?, ?, ?, ?)",
                      err);
        qn_store__bind_str(&q, 1, p->name);
        qn_store__bind_str(&q, 2, p->title ? p->title : "");
        qn_store__bind_str(&q, 3, p->description ? p->description : "");
        qn_store__bind_str(&q, 4, p->author ? p->author : "");
        qn_store__bind_i64(&q, 5, p->version > 1 ? p->version : 1);
        qn_store__bind_str(&q, 6, p->build ? p->build : "");
        qn_store__run(&q);
        id = sqlite3_last_insert_rowid(s->db);
        rc = qn_store__end(&q);
    }
    rc = qn_store__tx_end(s, rc, err);
    if (rc == QN_OK)
        *id_out = id;
    return rc;
}

int qn_store_pack_list(qn_store *s, const char *name, qn_store_pack_fn *fn,
                       void *ctx, qn_err *err)
{
    qn_store__stmt q;
    int rc = 0, n = 0;

    qn_store__sql(
        &q, s,
        "SELECT id, name, title, description, author, version,"
        " (SELECT count(*) FROM pack_puzzles WHERE pack_id = id),"
        " created, modified, build, (SELECT group_concat(name, ', ')"
        " FROM (SELECT DISTINCT r.name FROM pack_puzzles pp"
        " JOIN puzzles z ON z.id = pp.puzzle_id JOIN rules r"
        " ON r.id = z.rule_id WHERE pp.pack_id = packs.id ORDER BY r.name)),"
        " coalesce(recipe_hash, ''), recipe IS NOT NULL FROM packs"
        " WHERE ?1 IS NULL OR name = ?1 ORDER BY name",
        err);
    qn_store__bind_str(&q, 1, name);
    while (qn_store__row(&q)) {
        sqlite3_stmt *st = q.st;
        qn_store_pack p;
        p.id = sqlite3_column_int64(st, 0);
        p.name = qn_store__col_str(st, 1);
        p.title = qn_store__col_str(st, 2);
        p.description = qn_store__col_str(st, 3);
        p.author = qn_store__col_str(st, 4);
        p.version = sqlite3_column_int64(st, 5);
        p.count = sqlite3_column_int64(st, 6);
        p.created = qn_store__col_str(st, 7);
        p.modified = qn_store__col_str(st, 8);
        p.build = qn_store__col_str(st, 9);
        p.rules = qn_store__col_str(st, 10);
        p.recipe_hash = qn_store__col_str(st, 11);
        p.from_recipe = sqlite3_column_int(st, 12);
        n++;
        if ((rc = fn(ctx, &p)) != 0)
            break;
    }
    if (q.rc == QN_OK && rc == 0 && name && n == 0)
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no pack named '%s'", name);
    qn_store__end(&q);
    return rc ? rc : q.rc;
}

int qn_store__pack_ids(qn_store *s, const char *sql, int64_t pack_id,
                       int64_t **out, size_t *n, qn_err *err)
{
    qn_store__stmt q;
    size_t cap = 16, len = 0;
    int64_t *v;

    *out = NULL;
    *n = 0;
    if (qn_store__sql(&q, s, sql, err) != QN_OK)
        return q.rc;
    qn_store__bind_i64(&q, 1, pack_id);
    if (!(v = QN_ALLOCN(cap, int64_t)))
        q.rc = qn_err_nomem(err);
    while (qn_store__row(&q)) {
        if (len == cap) {
            int64_t *more = QN_REALLOCN(v, cap * 2, int64_t);
            if (!more) {
                q.rc = qn_err_nomem(err);
                break;
            }
            v = more;
            cap *= 2;
        }
        v[len++] = sqlite3_column_int64(q.st, 0);
    }
    if (qn_store__end(&q) != QN_OK) {
        free(v);
    } else {
        *out = v;
        *n = len;
    }
    return q.rc;
}

/* The pack's members in position order, malloc'd (free it). */
static int members(qn_store *s, int64_t pack_id, int64_t **out, size_t *n,
                   qn_err *err)
{
    return qn_store__pack_ids(s,
                              "SELECT puzzle_id FROM pack_puzzles"
                              " WHERE pack_id = ? ORDER BY position",
                              pack_id, out, n, err);
}

int qn_store__bump_version(qn_store *s, int64_t pack_id, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "UPDATE packs SET version = version + 1, modified ="
                  " strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),"
                  " recipe_hash = NULL WHERE id = ?",
                  err);
    qn_store__bind_i64(&q, 1, pack_id);
    qn_store__run(&q);
    return qn_store__end(&q);
}

int qn_store__pack_members(qn_store *s, int64_t pack_id, qn_store_member **out,
                           size_t *n, qn_err *err)
{
    qn_store__stmt q;
    size_t cap = 16, len = 0;
    qn_store_member *v;

    *out = NULL;
    *n = 0;
    if (qn_store__sql(&q, s,
                      "SELECT puzzle_id, slot, section FROM pack_puzzles"
                      " WHERE pack_id = ? ORDER BY position",
                      err) != QN_OK)
        return q.rc;
    qn_store__bind_i64(&q, 1, pack_id);
    if (!(v = QN_ALLOCN(cap, qn_store_member)))
        q.rc = qn_err_nomem(err);
    while (qn_store__row(&q)) {
        if (len == cap) {
            qn_store_member *more = QN_REALLOCN(v, cap * 2, qn_store_member);
            if (!more) {
                q.rc = qn_err_nomem(err);
                break;
            }
            v = more;
            cap *= 2;
        }
        if (!(v[len].section = qn_strdup(qn_store__col_str(q.st, 2)))) {
            q.rc = qn_err_nomem(err);
            break;
        }
        v[len].puzzle = sqlite3_column_int64(q.st, 0);
        v[len].slot = sqlite3_column_int64(q.st, 1);
        len++;
    }
    if (qn_store__end(&q) != QN_OK) {
        qn_store__members_free(v, len);
    } else {
        *out = v;
        *n = len;
    }
    return q.rc;
}

void qn_store__members_free(qn_store_member *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i].section);
    free(v);
}

int qn_store__members_write(qn_store *s, int64_t pack_id,
                            const qn_store_member *v, size_t n, int bump,
                            qn_err *err)
{
    qn_store__stmt q;
    int rc;

    qn_store__sql(&q, s, "DELETE FROM pack_puzzles WHERE pack_id = ?", err);
    qn_store__bind_i64(&q, 1, pack_id);
    qn_store__run(&q);
    if ((rc = qn_store__end(&q)) != QN_OK)
        return rc;
    /* slot 0: the pack's next (the trigger of migration 0005) */
    qn_store__sql(&q, s,
                  "INSERT INTO pack_puzzles (pack_id, puzzle_id, position,"
                  " slot, section) VALUES (?, ?, ?, ?, ?)",
                  err);
    for (size_t i = 0; q.rc == QN_OK && i < n; i++) {
        qn_store__bind_i64(&q, 1, pack_id);
        qn_store__bind_i64(&q, 2, v[i].puzzle);
        qn_store__bind_i64(&q, 3, (int64_t)i + 1);
        qn_store__bind_i64(&q, 4, v[i].slot);
        qn_store__bind_str(&q, 5, v[i].section ? v[i].section : "");
        qn_store__run(&q);
    }
    rc = qn_store__end(&q);
    return rc == QN_OK && bump ? qn_store__bump_version(s, pack_id, err) : rc;
}

static int cmp_member_puzzle(const void *a, const void *b)
{
    int64_t x = ((const qn_store_member *)a)->puzzle,
            y = ((const qn_store_member *)b)->puzzle;
    return (x > y) - (x < y);
}

/* The membership v[0..n) in that order; each puzzle that was a member
 * keeps its slot and section (a move, a sort), a new one is born. */
int qn_store__pack_write(qn_store *s, int64_t pack_id, const int64_t *v,
                         size_t n, int bump, qn_err *err)
{
    qn_store_member *old = NULL, *w;
    size_t nold = 0;
    int rc = qn_store__pack_members(s, pack_id, &old, &nold, err);

    if (rc != QN_OK)
        return rc;
    qsort(old, nold, sizeof(*old), cmp_member_puzzle);
    if (!(w = QN_ALLOCN(n + 1, qn_store_member))) {
        qn_store__members_free(old, nold);
        return qn_err_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        qn_store_member key = {.puzzle = v[i]};
        const qn_store_member *o =
            nold ? bsearch(&key, old, nold, sizeof(*old), cmp_member_puzzle)
                 : NULL;
        w[i].puzzle = v[i];
        w[i].slot = o ? o->slot : 0;
        w[i].section = o ? o->section : NULL;
    }
    rc = qn_store__members_write(s, pack_id, w, n, bump, err);
    free(w);
    qn_store__members_free(old, nold);
    return rc;
}

/*
 * Append one puzzle (the pack's common edit: generate --pack, pack add)
 * without reading the membership, so n appends cost O(n log n), not
 * O(n^2), in `slot` (0: born) and `section`. Part of the caller's
 * transaction.
 */
int qn_store__append_member(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                            int64_t slot, const char *section, int bump,
                            qn_err *err)
{
    qn_store__stmt q;
    int rc;

    qn_store__sql(&q, s,
                  "SELECT position FROM pack_puzzles"
                  " WHERE pack_id = ? AND puzzle_id = ?",
                  err);
    qn_store__bind_i64(&q, 1, pack_id);
    qn_store__bind_i64(&q, 2, puzzle_id);
    if (qn_store__row(&q))
        q.rc = qn_err_set(err, QN_EINVAL, 0, 0,
                          "puzzle %lld is already in the pack (position %lld)",
                          (long long)puzzle_id,
                          (long long)sqlite3_column_int64(q.st, 0));
    if ((rc = qn_store__end(&q)) != QN_OK)
        return rc;
    qn_store__sql(&q, s,
                  "INSERT INTO pack_puzzles (pack_id, puzzle_id, position,"
                  " slot, section) SELECT ?1, ?2, coalesce(max(position), 0)"
                  " + 1, ?3, ?4 FROM pack_puzzles WHERE pack_id = ?1",
                  err);
    qn_store__bind_i64(&q, 1, pack_id);
    qn_store__bind_i64(&q, 2, puzzle_id);
    qn_store__bind_i64(&q, 3, slot);
    qn_store__bind_str(&q, 4, section ? section : "");
    qn_store__run(&q);
    rc = qn_store__end(&q);
    return rc == QN_OK && bump ? qn_store__bump_version(s, pack_id, err) : rc;
}

static int append_member(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                         int bump, qn_err *err)
{
    return qn_store__append_member(s, pack_id, puzzle_id, 0, "", bump, err);
}

static size_t find_member(const int64_t *v, size_t n, int64_t puzzle_id)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == puzzle_id)
            return i;
    return n;
}

static int puzzle_exists(qn_store *s, int64_t puzzle_id, qn_err *err)
{
    return row_exists(s, "SELECT 1 FROM puzzles WHERE id = ?", "puzzle",
                      puzzle_id, err);
}

enum pack_op { OP_ADD, OP_REMOVE, OP_MOVE, OP_SORT, OP_SORT_HUMAN };

/* Put id at index at of v, which has room for n + 1 entries. */
static void insert_at(int64_t *v, size_t n, size_t at, int64_t id)
{
    memmove(v + at + 1, v + at, (n - at) * sizeof(*v));
    v[at] = id;
}

/* Add puzzle_id (not found: at == *n) at position (0: the end). */
static int add_member(int64_t **v, size_t *n, size_t at, int64_t puzzle_id,
                      int64_t position, qn_err *err)
{
    if (at < *n)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "puzzle %lld is already in the pack (position "
                          "%zu)",
                          (long long)puzzle_id, at + 1);
    if (position == 0)
        position = (int64_t)*n + 1;
    if (position < 1 || position > (int64_t)*n + 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "position %lld is outside 1..%zu",
                          (long long)position, *n + 1);
    int64_t *more = QN_REALLOCN(*v, *n + 1, int64_t);
    if (!more)
        return qn_err_nomem(err);
    *v = more;
    insert_at(*v, (*n)++, (size_t)(position - 1), puzzle_id);
    return QN_OK;
}

/* Take out the member at index at; for OP_MOVE put it back at
 * position. */
static int take_member(enum pack_op op, int64_t *v, size_t *n, size_t at,
                       int64_t puzzle_id, int64_t position, qn_err *err)
{
    if (at == *n)
        return qn_err_set(err, QN_ENOTFOUND, 0, 0,
                          "puzzle %lld is not in the pack",
                          (long long)puzzle_id);
    if (op == OP_MOVE && (position < 1 || position > (int64_t)*n))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "position %lld is outside 1..%zu",
                          (long long)position, *n);
    memmove(v + at, v + at + 1, (*n - at - 1) * sizeof(*v));
    (*n)--;
    if (op == OP_MOVE)
        insert_at(v, (*n)++, (size_t)(position - 1), puzzle_id);
    return QN_OK;
}

/* The n members of the pack in v, reordered by minimum presses (OP_SORT)
 * or by human level then human score, the ungraded last (OP_SORT_HUMAN);
 * ties keep their order (a stable sort: never the database's row ids, so
 * a sharded run merged sorts exactly as the single run). */
static int sort_members(qn_store *s, enum pack_op op, int64_t pack_id,
                        int64_t *v, size_t n, qn_err *err)
{
    qn_store__stmt q;
    size_t i = 0;

    qn_store__sql(&q, s,
                  op == OP_SORT_HUMAN
                      ? "SELECT p.id FROM pack_puzzles pp JOIN puzzles p"
                        " ON p.id = pp.puzzle_id WHERE pp.pack_id = ?"
                        " ORDER BY p.human_level IS NULL, p.human_level,"
                        " p.human_score IS NULL, p.human_score, pp.position"
                      : "SELECT p.id FROM pack_puzzles pp JOIN puzzles p"
                        " ON p.id = pp.puzzle_id WHERE pp.pack_id = ?"
                        " ORDER BY p.min_presses, pp.position",
                  err);
    qn_store__bind_i64(&q, 1, pack_id);
    while (qn_store__row(&q) && i < n)
        v[i++] = sqlite3_column_int64(q.st, 0);
    return qn_store__end(&q);
}

/* One membership edit in its own transaction: read, edit, rewrite. */
static int pack_edit(qn_store *s, enum pack_op op, int64_t pack_id,
                     int64_t puzzle_id, int64_t position, qn_err *err)
{
    int64_t *v = NULL, *old = NULL;
    size_t n = 0, old_n, at;
    int rc;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__pack_exists(s, pack_id, err)) != QN_OK ||
        (op < OP_SORT && (rc = puzzle_exists(s, puzzle_id, err)) != QN_OK))
        goto done;
    if (op == OP_ADD && position == 0) {
        rc = append_member(s, pack_id, puzzle_id, 1, err);
        goto done;
    }
    if ((rc = members(s, pack_id, &v, &n, err)) != QN_OK)
        goto done;
    if (!(old = QN_ALLOCN(n + 1, int64_t))) {
        rc = qn_err_nomem(err);
        goto done;
    }
    memcpy(old, v, n * sizeof(*v));
    old_n = n;
    at = op >= OP_SORT ? n : find_member(v, n, puzzle_id);
    if (op == OP_ADD)
        rc = add_member(&v, &n, at, puzzle_id, position, err);
    else if (op >= OP_SORT)
        rc = sort_members(s, op, pack_id, v, n, err);
    else
        rc = take_member(op, v, &n, at, puzzle_id, position, err);
    /* an edit that leaves the order as it was (a sorted pack sorted, a
     * move to where it is) writes nothing and keeps the version */
    if (rc == QN_OK && (n != old_n || memcmp(v, old, n * sizeof(*v))))
        rc = qn_store__pack_write(s, pack_id, v, n, 1, err);
done:
    free(old);
    free(v);
    return qn_store__tx_end(s, rc, err);
}

int qn_store_pack_add(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                      int64_t position, qn_err *err)
{
    return pack_edit(s, OP_ADD, pack_id, puzzle_id, position, err);
}

/* 1 when the pack was built by `build` (a non-empty run family). */
static int built_by(qn_store *s, int64_t pack_id, const char *build, int *yes,
                    qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, "SELECT build FROM packs WHERE id = ?", err);
    qn_store__bind_i64(&q, 1, pack_id);
    if (qn_store__row(&q))
        *yes = *build && !strcmp(qn_store__col_str(q.st, 0), build);
    else if (q.rc == QN_OK)
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no pack with id %lld",
                          (long long)pack_id);
    return qn_store__end(&q);
}

int qn_store_pack_append_build(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                               const char *build, qn_err *err)
{
    int own = 0, rc;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = built_by(s, pack_id, build ? build : "", &own, err)) == QN_OK &&
        (rc = puzzle_exists(s, puzzle_id, err)) == QN_OK)
        rc = append_member(s, pack_id, puzzle_id, !own, err);
    return qn_store__tx_end(s, rc, err);
}

int qn_store_pack_set(qn_store *s, int64_t pack_id, const int64_t *ids,
                      size_t n, int *changed_out, qn_err *err)
{
    int64_t *v = NULL;
    size_t had = 0;
    int rc, changed = 0;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__pack_exists(s, pack_id, err)) == QN_OK)
        rc = members(s, pack_id, &v, &had, err);
    /* the same members in the same order: nothing written, same version */
    changed =
        rc == QN_OK && (had != n || (n && memcmp(v, ids, n * sizeof(*ids))));
    if (changed)
        rc = qn_store__pack_write(s, pack_id, ids, n, 1, err);
    free(v);
    rc = qn_store__tx_end(s, rc, err);
    if (rc == QN_OK && changed_out)
        *changed_out = changed;
    return rc;
}

int qn_store_pack_recipe(qn_store *s, int64_t pack_id, const char *text,
                         const char *hash, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "UPDATE packs SET recipe = ?, recipe_hash = ? WHERE id = ?",
                  err);
    qn_store__bind_str(&q, 1, text);
    qn_store__bind_str(&q, 2, hash);
    qn_store__bind_i64(&q, 3, pack_id);
    if (qn_store__run(&q) == QN_OK && sqlite3_changes(s->db) != 1)
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no pack with id %lld",
                          (long long)pack_id);
    return qn_store__end(&q);
}

int qn_store_pack_fill(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                       qn_err *err)
{
    int rc;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__pack_exists(s, pack_id, err)) == QN_OK &&
        (rc = puzzle_exists(s, puzzle_id, err)) == QN_OK)
        rc = append_member(s, pack_id, puzzle_id, 0, err);
    return qn_store__tx_end(s, rc, err);
}

int qn_store_pack_remove(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                         qn_err *err)
{
    return pack_edit(s, OP_REMOVE, pack_id, puzzle_id, 0, err);
}

int qn_store_pack_move(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                       int64_t position, qn_err *err)
{
    return pack_edit(s, OP_MOVE, pack_id, puzzle_id, position, err);
}

int qn_store_pack_sort(qn_store *s, int64_t pack_id, qn_err *err)
{
    return pack_edit(s, OP_SORT, pack_id, 0, 0, err);
}

int qn_store_pack_sort_human(qn_store *s, int64_t pack_id, qn_err *err)
{
    return pack_edit(s, OP_SORT_HUMAN, pack_id, 0, 0, err);
}

int qn_store_pack_rename(qn_store *s, int64_t pack_id, const char *name,
                         qn_err *err)
{
    qn_store__stmt q;
    int rc;

    if ((rc = qn_store_pack_check_name(name, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    rc = qn_store__pack_exists(s, pack_id, err);
    if (rc == QN_OK)
        rc = name_free(s, name, pack_id, err);
    /* the same name again changes nothing, so the version stays */
    if (rc == QN_OK) {
        qn_store__sql(&q, s,
                      "UPDATE packs SET name = ?1, version = version + 1,"
                      " modified = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                      " WHERE id = ?2 AND name IS NOT ?1",
                      err);
        qn_store__bind_str(&q, 1, name);
        qn_store__bind_i64(&q, 2, pack_id);
        qn_store__run(&q);
        rc = qn_store__end(&q);
    }
    return qn_store__tx_end(s, rc, err);
}

int qn_store_pack_delete(qn_store *s, int64_t pack_id, qn_err *err)
{
    qn_store__stmt q;
    int rc;

    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    rc = qn_store__pack_exists(s, pack_id, err);
    if (rc == QN_OK) {
        qn_store__sql(&q, s, "DELETE FROM packs WHERE id = ?", err);
        qn_store__bind_i64(&q, 1, pack_id);
        qn_store__run(&q);
        rc = qn_store__end(&q);
    }
    return qn_store__tx_end(s, rc, err);
}
