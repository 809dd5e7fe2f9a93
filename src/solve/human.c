/*
 * human.c: the technique ladder (human.h): a board's sides and their
 * chase orders, and the level of one state. The exact shares are in
 * human_share.c.
 */
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "human_internal.h"
#include "solve/plans.h"

static const char *const level_names[QN_HUMAN_NLEVELS] = {"spot", "chase",
                                                          "table", "global"};

const char *qn_human_level_name(int level)
{
    return level >= 0 && level < QN_HUMAN_NLEVELS ? level_names[level] : NULL;
}

int qn_human_level_parse(const char *name)
{
    for (int i = 0; i < QN_HUMAN_NLEVELS; i++)
        if (!strcmp(name, level_names[i]))
            return i;
    return -1;
}

/* One end of a range: a name or a digit 0..3 (len bytes of s); -1. */
static int level_end(const char *s, size_t len)
{
    if (len == 1 && s[0] >= '0' && s[0] < '0' + QN_HUMAN_NLEVELS)
        return s[0] - '0';
    for (int i = 0; i < QN_HUMAN_NLEVELS; i++)
        if (strlen(level_names[i]) == len && !strncmp(s, level_names[i], len))
            return i;
    return -1;
}

int qn_human_levels_parse(const char *s, unsigned *mask)
{
    const char *dots = strstr(s, "..");
    int lo, hi;

    if (!dots) {
        lo = hi = level_end(s, strlen(s));
    } else {
        lo = dots == s ? 0 : level_end(s, (size_t)(dots - s));
        hi = dots[2] ? level_end(dots + 2, strlen(dots + 2))
                     : QN_HUMAN_NLEVELS - 1;
    }
    if (lo < 0 || hi < 0 || (dots && dots == s && !dots[2]))
        return -1;
    if (lo > hi)
        return -2;
    *mask = 0;
    for (int l = lo; l <= hi; l++)
        *mask |= 1u << l;
    return 0;
}

/* A cell's place on one side's walk: the row (primary) and the place in
 * the row (secondary), both ascending. */
typedef struct walk_key {
    int primary, secondary, cell;
} walk_key;

static int cmp_key(const void *x, const void *y)
{
    const walk_key *a = x, *b = y;
    if (a->primary != b->primary)
        return a->primary < b->primary ? -1 : 1;
    if (a->secondary != b->secondary)
        return a->secondary < b->secondary ? -1 : 1;
    return 0;
}

/* Axial (q, r) of a cell of a hex board (odd-r rectangle or hexagon). */
static void axial(const qn_layout *l, int cell, int *q, int *r)
{
    int row, col;
    qn_layout_rc(l, cell, &row, &col);
    if (l->kind == QN_LAYOUT_HEXAGON) {
        *q = col - (l->side - 1);
        *r = row - (l->side - 1);
    } else {
        *q = col - (row - (row & 1)) / 2;
        *r = row;
    }
}

/* Side `which`'s primary and secondary coordinates of `cell`. */
static void side_coords(const qn_layout *l, int which, int cell, int *p, int *s)
{
    int u, v, sign = which & 1 ? -1 : 1;
    if (l->kind == QN_LAYOUT_GRID)
        qn_layout_rc(l, cell, &u, &v); /* u row, v column */
    else
        axial(l, cell, &v, &u); /* u r, v q */
    switch (which / 2) {
    case 0: /* rows */
        *p = sign * u, *s = v;
        break;
    case 1: /* columns (grid) or lines of constant q (hex) */
        *p = sign * v, *s = u;
        break;
    default: /* hex: lines of constant s = -q - r */
        *p = -sign * (u + v), *s = u;
        break;
    }
}

static const char *const grid_sides[] = {"top", "bottom", "left", "right"};
static const char *const hex_sides[] = {
    "top", "bottom", "lower-left", "upper-right", "lower-right", "upper-left"};

static unsigned inverse(unsigned a, unsigned k)
{
    for (unsigned t = 1; t < k; t++)
        if (a * t % k == 1)
            return t;
    return 0;
}

/* The earliest place in the walk of a cell that a press of j changes
 * (n when none is placed yet). */
static int earliest(const qn_human *h, const int *pos, int j)
{
    int e = h->n;
    for (int t = h->colstart[j]; t < h->colstart[j + 1]; t++)
        if (pos[h->colrow[t]] < e)
            e = pos[h->colrow[t]];
    return e;
}

/* Row `row` of the walk, cells keys[lo..hi) placed in order (or reversed):
 * 1 when each has exactly one pivot in the next row (rowof == row + 1): a
 * cell that changes it by a unit amount and no cell before it. */
static int place_row(qn_human *h, qn_human_side *s, const walk_key *keys,
                     int lo, int hi, int rev, const int *rowof, int *pos,
                     int row)
{
    int n = h->n;
    for (int i = lo; i < hi; i++) {
        int c = keys[rev ? lo + hi - 1 - i : i].cell;
        pos[c] = i;
        s->seq[i] = c;
    }
    for (int i = lo; i < hi; i++) {
        int c = s->seq[i], found = 0;
        for (int j = 0; j < n; j++) {
            unsigned v = h->a[(size_t)c * n + j];
            if (v && rowof[j] == row + 1 && inverse(v, h->k) &&
                earliest(h, pos, j) == i) {
                found++;
                s->pivot[i] = j;
                s->inv[i] = (uint8_t)inverse(v, h->k);
            }
        }
        if (found != 1)
            return 0;
    }
    return 1;
}

/*
 * The chase order of the side whose rows are keys' runs of one primary
 * (sorted): rows in order, each row's cells by ascending secondary, or
 * descending when ascending leaves a cell without exactly one pivot (the
 * rows of a hexagon's lower half). Fills s; 0 when no order works, -1
 * when memory ran out (s left empty).
 */
static int try_order(qn_human *h, qn_human_side *s, const walk_key *keys,
                     int *pos, int *rowof)
{
    int n = h->n, nrows = 0, ok = 1;
    int *rowstart = QN_ALLOCN((size_t)n + 1, int);

    s->seq = QN_ALLOCN((size_t)n + 1, int);
    s->pivot = QN_ALLOCN((size_t)n + 1, int);
    s->inv = QN_ALLOCN((size_t)n + 1, uint8_t);
    if (!rowstart || !s->seq || !s->pivot || !s->inv) {
        ok = -1;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (i == 0 || keys[i].primary != keys[i - 1].primary)
            rowstart[nrows++] = i;
        rowof[keys[i].cell] = nrows - 1;
        pos[keys[i].cell] = n;
    }
    rowstart[nrows] = n;
    ok = nrows >= 2;
    for (int row = 0; ok && row + 1 < nrows; row++) {
        int lo = rowstart[row], hi = rowstart[row + 1];
        ok = place_row(h, s, keys, lo, hi, 0, rowof, pos, row) ||
             place_row(h, s, keys, lo, hi, 1, rowof, pos, row);
    }
    if (ok) {
        s->nseq = rowstart[nrows - 1];
        s->nfirst = rowstart[1];
        s->nlast = n - rowstart[nrows - 1];
        s->first = QN_ALLOCN((size_t)s->nfirst + 1, int);
        s->last = QN_ALLOCN((size_t)s->nlast + 1, int);
        if (!s->first || !s->last) {
            ok = -1;
            goto done;
        }
        for (int i = 0; i < s->nfirst; i++)
            s->first[i] = s->seq[i];
        for (int i = 0; i < s->nlast; i++)
            s->last[i] = keys[rowstart[nrows - 1] + i].cell;
        s->nrows = nrows;
        s->rowstart = rowstart;
        rowstart = NULL;
    }
done:
    if (ok != 1) {
        free(s->seq), free(s->pivot), free(s->inv);
        free(s->first), free(s->last);
        s->seq = s->pivot = s->first = s->last = NULL, s->inv = NULL;
        s->nseq = s->nfirst = s->nlast = 0;
    }
    free(rowstart);
    return ok;
}

void qn_human__chase(const qn_human *h, const qn_human_side *s, uint8_t *need)
{
    unsigned k = h->k;
    if (k == 2) { /* the same without divisions: -1 = 1, and t = 1 */
        for (int i = 0; i < s->nseq; i++) {
            int j = s->pivot[i];
            if (!need[s->seq[i]])
                continue;
            for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++)
                need[h->colrow[e]] ^= 1;
        }
        return;
    }
    for (int i = 0; i < s->nseq; i++) {
        unsigned t = need[s->seq[i]] * s->inv[i] % k;
        int j = s->pivot[i];
        if (!t)
            continue;
        for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++) {
            int c = h->colrow[e];
            need[c] = (uint8_t)((need[c] + k * k - t * h->colval[e]) % k);
        }
    }
}

/* Side s's table: the residual each first-row press leaves after a chase. */
static int build_table(qn_human *h, qn_human_side *s, qn_err *err)
{
    int n = h->n, rc;
    uint8_t *need = qn_malloc((size_t)n);
    uint8_t *q = qn_malloc((size_t)s->nlast * (size_t)s->nfirst + 1);

    if (!need || !q) {
        free(need), free(q);
        return qn_err_nomem(err);
    }
    for (int f = 0; f < s->nfirst; f++) {
        int j = s->first[f];
        memset(need, 0, (size_t)n);
        for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++)
            need[h->colrow[e]] = h->colval[e];
        qn_human__chase(h, s, need);
        for (int l = 0; l < s->nlast; l++)
            q[(size_t)l * s->nfirst + f] = need[s->last[l]];
    }
    rc = qn_system_new(&s->table, q, s->nlast, s->nfirst, h->k, err);
    free(need);
    free(q);
    return rc;
}

/* Side s's rbits (human_internal.h), on boards small enough; QN_ENOMEM. */
static int build_rbits(qn_human *h, qn_human_side *s)
{
    int n = h->n;

    if (h->k != 2 || n > QN_HUMAN_RBITS_CELLS || s->nlast > 64)
        return QN_OK;
    uint8_t *need = qn_malloc((size_t)n);
    s->rbits = QN_ALLOCN((size_t)n, uint64_t);
    if (!need || !s->rbits) {
        free(need);
        free(s->rbits);
        s->rbits = NULL; /* the byte chase serves: no fast path */
        return QN_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        memset(need, 0, (size_t)n);
        need[i] = 1;
        qn_human__chase(h, s, need);
        for (int l = 0; l < s->nlast; l++)
            s->rbits[i] |= (uint64_t)need[s->last[l]] << l;
    }
    free(need);
    return QN_OK;
}

int qn_human_new(qn_human **out, const qn_solver *solver, qn_err *err)
{
    const qn_rules *r = qn_solver_rules(solver);
    const qn_layout *l = qn_rules_layout(r);
    qn_human *h = QN_ALLOC(qn_human);
    int n = qn_rules_ncells(r), rc = QN_OK;
    walk_key *keys = NULL;
    int *pos = NULL, *rowof = NULL;

    *out = NULL;
    if (!h)
        return qn_err_nomem(err);
    h->solver = solver, h->n = n, h->k = qn_rules_colours(r);
    h->a = qn_rules_matrix(r);
    if (!(h->colstart = QN_ALLOCN((size_t)n + 1, int)))
        goto nomem;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            h->colstart[j + 1] += h->a[(size_t)i * n + j] != 0;
    for (int j = 0; j < n; j++)
        h->colstart[j + 1] += h->colstart[j];
    h->colrow = QN_ALLOCN((size_t)h->colstart[n] + 1, int);
    h->colval = QN_ALLOCN((size_t)h->colstart[n] + 1, uint8_t);
    if (!h->colrow || !h->colval)
        goto nomem;
    for (int j = 0, e = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (h->a[(size_t)i * n + j]) {
                h->colrow[e] = i;
                h->colval[e++] = h->a[(size_t)i * n + j];
            }

    const char *const *names = NULL;
    if (l->kind == QN_LAYOUT_GRID)
        names = grid_sides, h->nsides = 4;
    else if (l->kind == QN_LAYOUT_HEX || l->kind == QN_LAYOUT_HEXAGON)
        names = hex_sides, h->nsides = 6;
    keys = QN_ALLOCN((size_t)n + 1, walk_key);
    pos = QN_ALLOCN((size_t)n + 1, int);
    rowof = QN_ALLOCN((size_t)n + 1, int);
    if (!keys || !pos || !rowof)
        goto nomem;
    for (size_t w = 0; w < h->nsides && rc == QN_OK; w++) {
        qn_human_side *s = &h->side[w];
        s->name = names[w];
        for (int i = 0; i < n; i++) {
            side_coords(l, (int)w, i, &keys[i].primary, &keys[i].secondary);
            keys[i].cell = i;
        }
        qsort(keys, (size_t)n, sizeof(*keys), cmp_key);
        s->chases = try_order(h, s, keys, pos, rowof);
        if (s->chases < 0) {
            s->chases = 0;
            rc = qn_err_nomem(err);
        } else if (s->chases)
            rc = build_table(h, s, err);
        if (rc == QN_OK && s->chases && build_rbits(h, s) != QN_OK)
            rc = qn_err_nomem(err);
    }
    free(keys), free(pos), free(rowof);
    if (rc != QN_OK) {
        qn_human_free(h);
        return rc;
    }
    *out = h;
    return QN_OK;
nomem:
    free(keys), free(pos), free(rowof);
    qn_human_free(h);
    return qn_err_nomem(err);
}

void qn_human_free(qn_human *h)
{
    if (!h)
        return;
    for (size_t w = 0; w < h->nsides; w++) {
        qn_human_side *s = &h->side[w];
        free(s->seq), free(s->pivot), free(s->inv);
        free(s->first), free(s->last), free(s->rowstart), free(s->rbits);
        qn_system_free(s->table);
    }
    free(h->colstart), free(h->colrow), free(h->colval);
    free(h);
}

size_t qn_human_nsides(const qn_human *h)
{
    return h->nsides;
}

const char *qn_human_side_name(const qn_human *h, size_t i)
{
    return i < h->nsides ? h->side[i].name : NULL;
}

int qn_human_side_chases(const qn_human *h, size_t i)
{
    return i < h->nsides && h->side[i].chases;
}

/* 1 when the presses of plan x have pairwise disjoint footprints. */
int qn_human__disjoint(const qn_human *h, const uint8_t *x, uint8_t *seen)
{
    memset(seen, 0, (size_t)h->n);
    for (int j = 0; j < h->n; j++) {
        if (!x[j])
            continue;
        for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++) {
            if (seen[h->colrow[e]])
                return 0;
            seen[h->colrow[e]] = 1;
        }
    }
    return 1;
}

static int spot(const qn_human *h, const uint8_t *state, int *yes, qn_err *err)
{
    qn_plans p = {0};
    int rc = qn_plans_find(&p, h->solver, state, QN_HUMAN_MAX_PLANS, 1, err);
    if (rc != QN_OK)
        return rc;
    if (p.matched > p.count) {
        qn_plans_release(&p);
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "the state has more than %d optimal plans: "
                          "its human level (spot or not) is not decided",
                          QN_HUMAN_MAX_PLANS);
    }
    uint8_t *seen = qn_malloc((size_t)h->n + 1);
    if (!seen) {
        qn_plans_release(&p);
        return qn_err_nomem(err);
    }
    *yes = 0;
    for (size_t i = 0; i < p.count && !*yes; i++)
        *yes = qn_human__disjoint(h, p.x + i * (size_t)p.n, seen);
    free(seen);
    qn_plans_release(&p);
    return QN_OK;
}

int qn_human_level(const qn_human *h, const uint8_t *state, int *level,
                   int *side, qn_err *err)
{
    int is_spot = 0, rc;

    rc = spot(h, state, &is_spot, err);
    if (rc != QN_OK)
        return rc;
    if (is_spot) {
        *level = QN_HUMAN_SPOT;
        if (side)
            *side = -1;
        return QN_OK;
    }
    return qn_human__rungs(h, state, level, side, err);
}

int qn_human_rung(const qn_human *h, const uint8_t *state, uint8_t *scratch)
{
    const uint8_t *goal = qn_rules_goal(qn_solver_rules(h->solver));
    int chases = 0;
    unsigned k = h->k;

    for (size_t w = 0; w < h->nsides; w++) {
        const qn_human_side *s = &h->side[w];
        int clear = 1;
        if (!s->chases)
            continue;
        chases = 1;
        if (s->rbits) {
            uint64_t acc = 0;
            for (int i = 0; i < h->n; i++)
                if (goal[i] != state[i])
                    acc ^= s->rbits[i];
            if (!acc)
                return QN_HUMAN_CHASE;
            continue;
        }
        for (int i = 0; i < h->n; i++)
            scratch[i] =
                (uint8_t)(goal[i] >= state[i] ? (unsigned)goal[i] - state[i]
                                              : goal[i] + k - state[i]);
        qn_human__chase(h, s, scratch);
        for (int i = 0; i < s->nlast && clear; i++)
            clear = scratch[s->last[i]] == 0;
        if (clear)
            return QN_HUMAN_CHASE;
    }
    return chases ? QN_HUMAN_TABLE : QN_HUMAN_GLOBAL;
}

int qn_human__rungs(const qn_human *h, const uint8_t *state, int *level,
                    int *side, qn_err *err)
{
    const uint8_t *goal = qn_rules_goal(qn_solver_rules(h->solver));
    int n = h->n, found = -1, lvl = QN_HUMAN_GLOBAL;
    unsigned k = h->k;

    uint8_t *need = qn_malloc((size_t)n * (h->nsides + 1) + 1);
    uint8_t *r = qn_malloc((size_t)n + 1);

    if (!need || !r) {
        free(need), free(r);
        return qn_err_nomem(err);
    }
    for (size_t w = 0; w < h->nsides && lvl == QN_HUMAN_GLOBAL; w++) {
        const qn_human_side *s = &h->side[w];
        uint8_t *v = need + w * (size_t)n;
        int clear = 1;
        if (!s->chases)
            continue;
        for (int i = 0; i < n; i++)
            v[i] = (uint8_t)((goal[i] + k - state[i]) % k);
        qn_human__chase(h, s, v);
        for (int i = 0; i < s->nlast; i++)
            clear &= v[s->last[i]] == 0;
        if (clear)
            lvl = QN_HUMAN_CHASE, found = (int)w;
    }
    for (size_t w = 0; w < h->nsides && lvl == QN_HUMAN_GLOBAL; w++) {
        const qn_human_side *s = &h->side[w];
        const uint8_t *v = need + w * (size_t)n;
        if (!s->chases)
            continue;
        /* the table's presses y must leave Q y = residual: Q y - res = 0 */
        for (int i = 0; i < s->nlast; i++)
            r[i] = (uint8_t)((k - v[s->last[i]]) % k);
        int ok = qn_system_is_solvable(s->table, r);
        if (ok == QN_ENOMEM) {
            free(need), free(r);
            return qn_err_nomem(err);
        }
        if (ok)
            lvl = QN_HUMAN_TABLE, found = (int)w;
    }
    free(need);
    free(r);
    *level = lvl;
    if (side)
        *side = found;
    return QN_OK;
}
