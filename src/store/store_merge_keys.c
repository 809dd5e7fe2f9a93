/*
 * store_merge_keys.c: db merge's one pass over an input (attached as src)
 * before its copy: each row's canonical form and puzzle id computed from
 * its state (never read from the input's columns), its conflicts found by
 * probing OUT's id set of the rule (store_unique.c), and the plan the
 * copy follows (store_merge_copy.c): which rows go in, at which of OUT's
 * row ids, and which meet a puzzle OUT holds already.
 *
 * The input's rows that the pass keeps are added to the same set with the
 * row ids the copy will give them (OUT's largest + 1, + 2, ... in the
 * copy's order), so one probe finds a puzzle in OUT and one the input
 * held earlier (a damaged or hand-made input may hold a puzzle twice: the
 * winner rule then applies between the two, as the unique key made it).
 * A hit is a duplicate only when the canonical forms agree: the stored
 * state of the row hit is canonicalized again (hits are rare: duplicates
 * and ids shared by two puzzles).
 *
 * The pass reads the input by row on its own only when the copy is
 * sorted. By row it is folded into the copy (qn_store__merge_fold): the
 * copy's INSERT ... SELECT calls quench_merge_keep() a row, which plans
 * the row as the pass would and keeps it (1) or leaves it to the meeting
 * that follows (0), so each row is read once (a second read was a fifth
 * of a merge's CPU). A kept row takes the row id the plan gave it, as
 * the rows an INSERT ... SELECT inserts take consecutive ids.
 */
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "keyrun.h"
#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "store_internal.h"

/* An input rule as the pass needs it, loaded at its first row. */
typedef struct mrule {
    int64_t src, main; /* ids; main 0: not in OUT (the copy drops its rows) */
    char hash[65];
    int n;
    unsigned k;
    size_t size; /* qn_store_canon_size(n, k) */
    qn_rules *rules;
    qn_canon_table *table;
    int by_bits; /* two colours by table: the form and id from bits */
    qn_puzzle_id_key key;
    qn_kr_set *set; /* OUT's ids of rule main (store_unique.c's) */
} mrule;

/* A row read and its id computed, its probe not yet made: the probes
 * trail the reads by AHEAD rows, so that each one's slot of the set
 * (a cache miss a row in a set of millions) was prefetched meanwhile. */
#define AHEAD 16
typedef struct staged {
    int64_t src;
    size_t rule; /* in pass.rules (which may move as rules load) */
    uint64_t uid;
} staged;

/* A row as the pass takes it: from its own SELECT or from the copy's
 * call of quench_merge_keep (the same columns, in the same order). */
typedef struct row_in {
    int64_t src, rule_id;
    qn_store__okey key;
    const void *state;
    size_t len;
} row_in;

typedef struct pass {
    qn_store *s;
    const char *in; /* the input's path, for its errors */
    qn_store__mplan *plan;
    mrule *rules;
    size_t nrules, cap;
    size_t cur;             /* the rule of the row before, in rules */
    int fed;                /* a row went to the order check */
    int64_t prev_rule;      /* that row's rule (the input's id) */
    qn_store__order *order; /* by row: the stream order's check */
    int fold;               /* rows come from the copy: probed at once */
    uint64_t *ids;          /* fold: the runs' id of row ids_lo + i */
    int64_t ids_lo;
    size_t ids_n;
    int64_t seen; /* fold: the last row called for (0: none yet) */
    int rc;       /* fold: the first failure (err says why) */
    qn_err *err;
    int64_t *kept; /* the kept rows' input ids, in the copy's order */
    size_t kcap;
    uint8_t *cells, *form, *mine, *theirs; /* scratch: n, n, size, size */
    size_t scratch_n;
    sqlite3_stmt *rule_q, *out_state, *src_state;
    staged ring[AHEAD]; /* ring[head .. head + nstaged), mod AHEAD */
    size_t head, nstaged;
} pass;

/* The rows, in the copy's order (the sorted one: store_merge_copy.c's). */
static const char by_row_sql[] =
    "SELECT p.id, p.rule_id, p.seed, p.stream_index, p.run_id, p.state"
    " FROM src.puzzles p NOT INDEXED ORDER BY p.id";
static const char sorted_sql[] =
    "SELECT p.id, p.rule_id, p.seed, p.stream_index, p.run_id, p.state"
    " FROM src.puzzles p NOT INDEXED"
    " JOIN temp.merge_rules mr ON mr.src = p.rule_id"
    " LEFT JOIN temp.merge_runs mru ON mru.src = p.run_id"
    " ORDER BY " QN_STORE__BY_STREAM;
static const char rule_sql[] =
    "SELECT r.hash, r.cells, r.colours, r.yaml, mr.main FROM src.rules r"
    " JOIN temp.merge_rules mr ON mr.src = r.id WHERE r.id = ?";

/* A row of the input whose state is not one of its rule's. */
static int bad_state(const pass *ps, int64_t src, qn_err *err)
{
    qn_err_source(err, ps->in);
    return qn_err_set(err, QN_EDB, 0, 0,
                      "puzzle at row %lld: its state does not fit its rule "
                      "set: the database is damaged",
                      (long long)src);
}

static int scratch(pass *ps, const mrule *r, qn_err *err)
{
    size_t need = (size_t)r->n > r->size ? (size_t)r->n : r->size;
    uint8_t *v;

    if (need <= ps->scratch_n)
        return QN_OK;
    if (!(v = QN_REALLOCN(ps->cells, 4 * need + 4, uint8_t)))
        return qn_err_nomem(err);
    ps->cells = v;
    ps->form = v + need + 1;
    ps->mine = ps->form + need + 1;
    ps->theirs = ps->mine + need + 1;
    ps->scratch_n = need;
    return QN_OK;
}

/* The input's rows as its key runs count them (rule_id's; 0: all), at
 * most HINT_MAX: what to make room for. */
#define HINT_MAX ((size_t)1 << 22)
static int src_count(pass *ps, int64_t rule_id, size_t *n, qn_err *err)
{
    long long c = 0;
    char sql[128];
    int rc;

    snprintf(sql, sizeof(sql),
             "SELECT coalesce(sum(count), 0) FROM src.key_runs"
             " WHERE %lld IN (0, rule_id)",
             (long long)rule_id);
    rc = qn_store__int(ps->s, sql, &c, err);
    *n = c <= 0 ? 0 : (uint64_t)c > HINT_MAX ? HINT_MAX : (size_t)c;
    return rc;
}

/* The rows of rule `hash` in the inputs merged after this one, added to
 * *n (at most HINT_MAX): a hint, so an input that does not open or read
 * adds nothing (its own merge says why). */
static void later_count(const pass *ps, const char *hash, size_t *n)
{
    static const char sql[] =
        "SELECT coalesce(sum(k.count), 0) FROM key_runs k JOIN rules r"
        " ON r.id = k.rule_id WHERE r.hash = ?";

    for (int i = 0; i < ps->s->merge_nlater && *n < HINT_MAX; i++) {
        sqlite3 *db = NULL;
        sqlite3_stmt *st = NULL;
        sqlite3_int64 c;

        if (sqlite3_open_v2(ps->s->merge_later[i], &db, SQLITE_OPEN_READONLY,
                            NULL) == SQLITE_OK &&
            sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
            sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW &&
            (c = sqlite3_column_int64(st, 0)) > 0)
            *n = (uint64_t)c >= HINT_MAX - *n ? HINT_MAX : *n + (size_t)c;
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
}

/* The rule's text loaded and checked against its row: the forms and ids
 * of its puzzles depend on it. */
static int rule_text(pass *ps, mrule *r, const char *yaml, size_t len,
                     qn_err *err)
{
    qn_err why = QN_ERR_INIT;
    char hash[65];
    size_t n;
    int rc = qn_rules_load_buf(&r->rules, yaml, len, "rules", &why);

    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    if (rc != QN_OK) {
        qn_err_source(err, ps->in);
        return qn_err_set(err, QN_EDB, 0, 0,
                          "rule set %lld does not load (%s): the database "
                          "is damaged",
                          (long long)r->src, why.msg);
    }
    qn_rules_hash(r->rules, hash);
    if (strcmp(hash, r->hash) || qn_rules_ncells(r->rules) != r->n ||
        qn_rules_colours(r->rules) != r->k) {
        qn_err_source(err, ps->in);
        return qn_err_set(err, QN_EDB, 0, 0,
                          "rule set %lld: its text is not the rule set of "
                          "its hash, cells and colours: the database is "
                          "damaged",
                          (long long)r->src);
    }
    if ((rc = qn_canon_table_new(&r->table, r->rules, err)) != QN_OK)
        return rc;
    qn_puzzle_id_key_init(&r->key, r->hash);
    r->by_bits = r->table && r->k == 2 && r->n <= 64;
    if (!r->main)
        return QN_OK;
    if ((rc = qn_store__unique_set(ps->s, r->main, &r->set, err)) != QN_OK)
        return rc;
    /* room for the rule's rows, this input's and the later ones' (their
     * runs' counts: a hint, bounded, as inputs are not trusted): the set
     * then grows at most once in the whole merge */
    if ((rc = src_count(ps, r->src, &n, err)) != QN_OK)
        return rc;
    later_count(ps, r->hash, &n);
    return qn_kr_set_reserve(r->set, n) == QN_OK ? QN_OK : qn_err_nomem(err);
}

/* Input rule src_id into ps->rules (*out); main 0 when OUT has none. */
static int load_rule(pass *ps, int64_t src_id, mrule **out, qn_err *err)
{
    mrule *r;
    int rc;

    for (size_t i = 0; i < ps->nrules; i++)
        if (ps->rules[i].src == src_id) {
            *out = &ps->rules[i];
            return QN_OK;
        }
    if (ps->nrules == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 4;
        mrule *v = QN_REALLOCN(ps->rules, cap, mrule);
        if (!v)
            return qn_err_nomem(err);
        ps->rules = v;
        ps->cap = cap;
    }
    r = &ps->rules[ps->nrules++];
    memset(r, 0, sizeof(*r));
    r->src = src_id;
    *out = r;
    sqlite3_reset(ps->rule_q);
    sqlite3_bind_int64(ps->rule_q, 1, src_id);
    if ((rc = sqlite3_step(ps->rule_q)) != SQLITE_ROW)
        return rc == SQLITE_DONE ? QN_OK : qn_store__fail(ps->s, rc, err);
    snprintf(r->hash, sizeof(r->hash), "%s", qn_store__col_str(ps->rule_q, 0));
    r->n = sqlite3_column_int(ps->rule_q, 1);
    r->k = (unsigned)sqlite3_column_int(ps->rule_q, 2);
    r->main = sqlite3_column_int64(ps->rule_q, 4);
    if (!qn_store__rule_sizes_ok(qn_store__col_str(ps->rule_q, 0), r->n,
                                 r->k)) {
        qn_err_source(err, ps->in);
        return qn_err_set(err, QN_EDB, 0, 0,
                          "rule set %lld is damaged (hash, cells or "
                          "colours)",
                          (long long)src_id);
    }
    r->size = qn_store_canon_size(r->n, r->k);
    if ((rc = scratch(ps, r, err)) != QN_OK)
        return rc;
    return rule_text(ps, r, qn_store__col_str(ps->rule_q, 3),
                     (size_t)sqlite3_column_bytes(ps->rule_q, 3), err);
}

/* The canonical form of a packed state (r->size bytes) into ps->form;
 * 0 when it is not a state of r (its size, or a value >= k). */
static int form_of(pass *ps, const mrule *r, const void *b, size_t len)
{
    if (!b || len != r->size)
        return 0;
    qn_store_canon_unpack(ps->cells, b, r->n, r->k);
    if (r->k & (r->k - 1)) /* packed values can pass k */
        for (int i = 0; i < r->n; i++)
            if (ps->cells[i] >= r->k)
                return 0;
    qn_canon_form_table(r->table, r->rules, ps->form, ps->cells);
    return 1;
}

/* The id of a packed state of r (r->by_bits), as form_of and
 * qn_puzzle_id make it, without the cells: the packed bytes are the
 * state's bits (cell i in bit i), padding ignored as the unpack does.
 * 0 when it is not a state of r (its size). */
static int id_of_bits(const mrule *r, const void *b, size_t len, uint64_t *uid)
{
    const uint8_t *p = b;
    uint64_t m = 0;

    if (!b || len != r->size)
        return 0;
    for (size_t i = 0; i < len; i++)
        m |= (uint64_t)p[i] << (8 * i);
    *uid = qn_puzzle_id_bits(&r->key, qn_canon_bits_table(r->table, m), r->n);
    return 1;
}

/* 1 when the row `row` (OUT's, or an input row the copy will put there)
 * holds the puzzle whose packed form is ps->mine. */
static int same_puzzle(pass *ps, const mrule *r, int64_t row, int *same,
                       qn_err *err)
{
    int64_t last = ps->plan->last;
    sqlite3_stmt *q = row > last ? ps->src_state : ps->out_state;
    int rc;

    *same = 0;
    if (row > last && (uint64_t)(row - last - 1) >= ps->plan->nkept)
        return QN_OK; /* OUT's runs name a row past its last: no row */
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, row > last ? ps->kept[row - last - 1] : row);
    if ((rc = sqlite3_step(q)) != SQLITE_ROW)
        return rc == SQLITE_DONE ? QN_OK : qn_store__fail(ps->s, rc, err);
    if (!form_of(ps, r, sqlite3_column_blob(q, 0),
                 (size_t)sqlite3_column_bytes(q, 0))) {
        if (row > last)
            return bad_state(ps, ps->kept[row - last - 1], err);
        qn_err_source(err, ps->s->path);
        return qn_err_set(err, QN_EDB, 0, 0, "puzzle %lld is damaged",
                          (long long)row);
    }
    qn_store_canon_pack(ps->theirs, ps->form, r->n, r->k);
    *same = !memcmp(ps->theirs, ps->mine, r->size);
    return QN_OK;
}

/* Room for one more row in the plan and in ps->kept (a plan read
 * before keeps its rows' room). */
static int room(pass *ps, qn_err *err)
{
    qn_store__mplan *p = ps->plan;

    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 4096;
        qn_store__mrow *v = QN_REALLOCN(p->v, cap, qn_store__mrow);
        if (!v)
            return qn_err_nomem(err);
        p->v = v;
        p->cap = cap;
    }
    if (p->nkept == ps->kcap) {
        size_t cap = p->cap > ps->kcap ? p->cap : 2 * ps->kcap;
        int64_t *k = QN_REALLOCN(ps->kept, cap, int64_t);
        if (!k)
            return qn_err_nomem(err);
        ps->kept = k;
        ps->kcap = cap;
    }
    return QN_OK;
}

/* The packed canonical form of input row src into ps->mine (a hit
 * needs it; read again, as hits are rare). */
static int mine_of(pass *ps, const mrule *r, int64_t src, qn_err *err)
{
    sqlite3_stmt *q = ps->src_state;
    int rc;

    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, src);
    if ((rc = sqlite3_step(q)) != SQLITE_ROW)
        return rc == SQLITE_DONE ? bad_state(ps, src, err)
                                 : qn_store__fail(ps->s, rc, err);
    if (!form_of(ps, r, sqlite3_column_blob(q, 0),
                 (size_t)sqlite3_column_bytes(q, 0)))
        return bad_state(ps, src, err);
    qn_store_canon_pack(ps->mine, ps->form, r->n, r->k);
    return QN_OK;
}

/* Staged row g probed: kept, or met. */
static int probe_row(pass *ps, const staged *g, qn_err *err)
{
    qn_store__mplan *p = ps->plan;
    mrule *r = &ps->rules[g->rule];
    qn_store__mrow *m;
    size_t cursor = 0;
    int64_t row;
    int rc, packed = 0;

    if ((rc = room(ps, err)) != QN_OK)
        return rc;
    m = &p->v[p->n];
    m->src = g->src;
    m->rule = r->main;
    m->uid = g->uid;
    m->met = 0;
    /* room for the add below first: a probe's cursor dies with a growth */
    if (qn_kr_set_reserve(r->set, 1) != QN_OK)
        return qn_err_nomem(err);
    while (qn_kr_set_next(r->set, m->uid, &cursor, &row)) {
        int same;
        if (!packed && (rc = mine_of(ps, r, m->src, err)) != QN_OK)
            return rc;
        packed = 1;
        if ((rc = same_puzzle(ps, r, row, &same, err)) != QN_OK)
            return rc;
        if (same) {
            m->main = row;
            m->met = 1;
            p->nmet++;
            break;
        }
    }
    if (!m->met) {
        m->main = p->last + 1 + (int64_t)p->nkept;
        ps->kept[p->nkept++] = m->src;
        /* reserved: cannot fail; the set is OUT's as the copy leaves it */
        qn_store__unique_noted(ps->s, r->main, m->uid, m->main);
    }
    p->digest += qn_store__pair_digest(m->uid, m->src);
    if (!p->n || m->src < p->min_id)
        p->min_id = m->src;
    if (!p->n || m->src > p->max_id)
        p->max_id = m->src;
    p->n++;
    return QN_OK;
}

/* The oldest staged row probed. */
static int probe_oldest(pass *ps, qn_err *err)
{
    int rc = probe_row(ps, &ps->ring[ps->head], err);

    ps->head = (ps->head + 1) % AHEAD;
    ps->nstaged--;
    return rc;
}

/* Row x's id from its state (its rule ps->rules[ri]): staged, its slot
 * prefetched, the oldest probed when AHEAD wait; folded, probed at once
 * (the slot of the row AHEAD rows on prefetched, its id the runs'):
 * *keep 1 when the copy inserts it. */
static int plan_row(pass *ps, size_t ri, const row_in *x, int *keep,
                    qn_err *err)
{
    const mrule *r = &ps->rules[ri];
    staged *g, now;
    uint64_t ahead;
    int rc;

    if (!ps->fold && ps->nstaged == AHEAD &&
        (rc = probe_oldest(ps, err)) != QN_OK)
        return rc;
    g = ps->fold ? &now : &ps->ring[(ps->head + ps->nstaged) % AHEAD];
    g->src = x->src;
    g->rule = ri;
    if (r->by_bits) {
        if (!id_of_bits(r, x->state, x->len, &g->uid))
            return bad_state(ps, g->src, err);
    } else {
        if (!form_of(ps, r, x->state, x->len))
            return bad_state(ps, g->src, err);
        g->uid = qn_puzzle_id(&r->key, ps->form, r->n);
    }
    if (!ps->fold) {
        qn_kr_set_prefetch(r->set, g->uid);
        ps->nstaged++;
        return QN_OK;
    }
    if ((uint64_t)(x->src - ps->ids_lo) + AHEAD < ps->ids_n &&
        (ahead = ps->ids[x->src - ps->ids_lo + AHEAD]) != 0)
        qn_kr_set_prefetch(r->set, ahead);
    if ((rc = probe_row(ps, g, err)) != QN_OK)
        return rc;
    *keep = !ps->plan->v[ps->plan->n - 1].met;
    return QN_OK;
}

/* Row x through the pass: its rule loaded, its stream order checked (by
 * row), its plan made. *keep: the copy inserts it (0 for a row whose rule
 * OUT lacks: the copy's join drops it; and, folded, for every row from
 * the first out of stream order on: the caller copies it sorted). */
static int take_row(pass *ps, const row_in *x, int *keep, qn_err *err)
{
    mrule *r = NULL;
    int rc;

    *keep = 0;
    if (ps->fold && ps->order && !qn_store__order_in(ps->order))
        return QN_OK;
    if (ps->cur >= ps->nrules || ps->rules[ps->cur].src != x->rule_id) {
        if ((rc = load_rule(ps, x->rule_id, &r, err)) != QN_OK)
            return rc;
        ps->cur = (size_t)(r - ps->rules);
    }
    r = &ps->rules[ps->cur];
    if (!r->main) /* the copy's join drops it too */
        return QN_OK;
    if (ps->order &&
        (rc = qn_store__order_row(ps->order, r->hash,
                                  ps->fed && x->rule_id == ps->prev_rule,
                                  &x->key, err)) != QN_OK)
        return rc;
    if (ps->fold && !qn_store__order_in(ps->order))
        return QN_OK;
    ps->fed = 1;
    ps->prev_rule = x->rule_id;
    return plan_row(ps, ps->cur, x, keep, err);
}

/* Room for the rows the input's runs count, before the first. */
static int presize(pass *ps, qn_err *err)
{
    qn_store__mplan *p = ps->plan;
    size_t n;
    int rc = src_count(ps, 0, &n, err);

    if (rc != QN_OK || ++n <= p->cap)
        return rc;
    qn_store__mrow *v = QN_REALLOCN(p->v, n, qn_store__mrow);
    if (!v)
        return qn_err_nomem(err);
    p->v = v;
    p->cap = n;
    return QN_OK;
}

static void row_of_stmt(row_in *x, sqlite3_stmt *st)
{
    x->src = sqlite3_column_int64(st, 0);
    x->rule_id = sqlite3_column_int64(st, 1);
    x->key.seed = qn_store__col_text(st, 2);
    x->key.has_index = sqlite3_column_type(st, 3) != SQLITE_NULL;
    x->key.index = sqlite3_column_int64(st, 3);
    x->key.has_run = sqlite3_column_type(st, 4) != SQLITE_NULL;
    x->key.run = sqlite3_column_int64(st, 4);
    x->state = sqlite3_column_blob(st, 5);
    x->len = (size_t)sqlite3_column_bytes(st, 5);
}

static int run_pass(pass *ps, int sorted, qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc, step = SQLITE_DONE, keep;

    rc = qn_store__prep(ps->s, &st, sorted ? sorted_sql : by_row_sql, err);
    while (rc == QN_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        row_in x;
        row_of_stmt(&x, st);
        rc = take_row(ps, &x, &keep, err);
    }
    if (rc == QN_OK && step != SQLITE_DONE)
        rc = qn_store__fail(ps->s, step, err);
    while (rc == QN_OK && ps->nstaged)
        rc = probe_oldest(ps, err);
    ps->plan->in_order = sorted || qn_store__order_in(ps->order);
    sqlite3_finalize(st);
    return rc;
}

/* The pass over the input set up: the plan empty, its statements ready,
 * room for the rows the runs count, and (by row) the order's check. */
static int pass_open(pass *ps, qn_store *s, const char *in_path, int sorted,
                     int64_t last, qn_store__mplan *p, qn_err *err)
{
    int rc;

    memset(ps, 0, sizeof(*ps));
    ps->s = s;
    ps->in = in_path;
    ps->plan = p;
    ps->cur = SIZE_MAX;
    ps->err = err;
    p->n = p->nkept = p->nmet = 0;
    p->last = last;
    p->min_id = p->max_id = 0;
    p->digest = 0;
    p->runs_ok = 0;
    p->sorted = sorted;
    rc = qn_store__prep(s, &ps->rule_q, rule_sql, err);
    if (rc == QN_OK)
        rc = qn_store__prep(s, &ps->out_state,
                            "SELECT state FROM main.puzzles WHERE id = ?", err);
    if (rc == QN_OK)
        rc = qn_store__prep(s, &ps->src_state,
                            "SELECT state FROM src.puzzles WHERE id = ?", err);
    if (rc == QN_OK)
        rc = presize(ps, err);
    if (rc == QN_OK && !sorted)
        rc = qn_store__order_new(&ps->order, s, err);
    return rc;
}

static void pass_close(pass *ps)
{
    qn_store__order_free(ps->order);
    sqlite3_finalize(ps->rule_q);
    sqlite3_finalize(ps->out_state);
    sqlite3_finalize(ps->src_state);
    for (size_t i = 0; i < ps->nrules; i++) {
        qn_canon_table_free(ps->rules[i].table);
        qn_rules_free(ps->rules[i].rules);
    }
    free(ps->rules);
    free(ps->kept);
    free(ps->cells);
    free(ps->ids);
}

int qn_store__merge_plan(qn_store *s, const char *in_path, int sorted,
                         int64_t last, qn_store__mplan *p, qn_err *err)
{
    pass ps;
    int rc = pass_open(&ps, s, in_path, sorted, last, p, err);

    if (rc == QN_OK)
        rc = run_pass(&ps, sorted, err);
    pass_close(&ps);
    return rc;
}

/* quench_merge_keep(id, rule_id, seed, stream_index, run_id, state): the
 * row planned (take_row), 1 when the copy inserts it. A failure is kept
 * in the pass and ends the copy's statement. */
static void keep_fn(sqlite3_context *cx, int argc, sqlite3_value **v)
{
    pass *ps = sqlite3_user_data(cx);
    row_in x;
    int keep = 0;

    (void)argc;
    if (ps->rc == QN_OK) {
        x.src = sqlite3_value_int64(v[0]);
        x.rule_id = sqlite3_value_int64(v[1]);
        x.key.seed = (const char *)sqlite3_value_text(v[2]);
        x.key.has_index = sqlite3_value_type(v[3]) != SQLITE_NULL;
        x.key.index = sqlite3_value_int64(v[3]);
        x.key.has_run = sqlite3_value_type(v[4]) != SQLITE_NULL;
        x.key.run = sqlite3_value_int64(v[4]);
        x.state = sqlite3_value_blob(v[5]);
        x.len = (size_t)sqlite3_value_bytes(v[5]);
        if (!x.key.seed && sqlite3_value_type(v[2]) != SQLITE_NULL)
            ps->rc = qn_err_nomem(ps->err); /* the text's copy */
        else if (ps->seen && x.src <= ps->seen) {
            /* the plan gives kept rows ids in the order of the calls,
             * which must be the copy's: by row, each once. A scan by
             * row that goes back is a damaged table (the merge's
             * failure then says what quick_check finds there) */
            qn_err_source(ps->err, ps->in);
            ps->rc = qn_err_set(ps->err, QN_EDB, 0, 0,
                                "puzzle at row %lld read after row %lld: "
                                "the database is damaged",
                                (long long)x.src, (long long)ps->seen);
        } else
            ps->rc = take_row(ps, &x, &keep, ps->err);
        ps->seen = x.src;
    }
    if (ps->rc != QN_OK)
        sqlite3_result_error(cx, "db merge: a row failed its checks", -1);
    else
        sqlite3_result_int(cx, keep);
}

#define KEEP_ARGS 6

/* The copy's statement sql run with quench_merge_keep bound to ps. */
static int fold_copy(pass *ps, const char *sql, int64_t *copied, qn_err *err)
{
    sqlite3 *db = ps->s->db;
    sqlite3_stmt *st = NULL;
    int rc, step;

    rc = sqlite3_create_function_v2(db, "quench_merge_keep", KEEP_ARGS,
                                    SQLITE_UTF8, ps, keep_fn, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return qn_store__fail(ps->s, rc, err);
    rc = qn_store__prep(ps->s, &st, sql, err);
    if (rc == QN_OK) {
        step = sqlite3_step(st);
        if (ps->rc != QN_OK)
            rc = ps->rc;
        else if (step != SQLITE_DONE)
            rc = qn_store__fail(ps->s, step, err);
        else
            *copied += sqlite3_changes64(db);
    }
    sqlite3_finalize(st);
    /* no function left behind that points at the pass */
    sqlite3_create_function_v2(db, "quench_merge_keep", KEEP_ARGS, SQLITE_UTF8,
                               NULL, NULL, NULL, NULL, NULL);
    return rc;
}

int qn_store__merge_fold(qn_store *s, const char *in_path, const char *sql,
                         int64_t last, qn_store__mplan *p, int64_t *copied,
                         qn_err *err)
{
    pass ps;
    int rc = pass_open(&ps, s, in_path, 0, last, p, err);

    ps.fold = 1;
    if (rc == QN_OK)
        rc = qn_store__runs_src_ids(s, p, &ps.ids, &ps.ids_lo, &ps.ids_n, err);
    if (rc == QN_OK)
        rc = fold_copy(&ps, sql, copied, err);
    if (rc == QN_OK)
        p->in_order = qn_store__order_in(ps.order);
    pass_close(&ps);
    if (rc != QN_OK || p->in_order)
        return rc;
    /* Out of stream order: the rows copied before that was found go
     * again (their ids are free again: none has a larger one), and the
     * caller copies the input sorted. A statement's rollback cannot do
     * it: an OUT built aside past its first input has no journal. */
    {
        char sql_del[96];
        snprintf(sql_del, sizeof(sql_del),
                 "DELETE FROM main.puzzles WHERE id > %lld", (long long)last);
        *copied = 0;
        return qn_store__exec(s, sql_del, err);
    }
}

void qn_store__mplan_release(qn_store__mplan *p)
{
    free(p->v);
    memset(p, 0, sizeof(*p));
}
