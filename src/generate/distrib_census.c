/*
 * distrib_census.c: a target's census over the exact distribution: how
 * many solvable states and how many distinct puzzles (up to the board's
 * symmetries) it holds at each press count, and the i-th of its states,
 * so that a generator selects such targets exactly and knows their size
 * before drawing (distrib.h).
 */
#include "generate/distrib.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "distrib_internal.h"
#include "solve/human_score.h"

/* Enumerating the states a symmetry fixes costs k^cycles solves: past
 * this the census refuses (no rule within QN_DISTRIB_MAX_STATES that
 * quench can grade comes near it). */
#define FIXED_MAX ((uint64_t)1 << 26)

struct qn_census {
    const qn_distrib *d; /* borrowed */
    qn_target t;
    uint64_t *states;   /* d->len: target states needing m presses */
    uint64_t *distinct; /* d->len: their orbits under the symmetries */
    uint64_t *bits;     /* membership of every image element, or NULL when
                           the target is a press range (then all count) */
    uint32_t *cum;      /* with bits: d->len * (nblocks + 1) directory */
};

/* Does the target restrict more than the press count? */
static int beyond_presses(const qn_target *t)
{
    return t->unique_optimum || t->min_lit > 0 || t->max_lit > 0 ||
           t->human_levels;
}

static int in_target(const qn_target *t, unsigned m, int lit, int unique)
{
    return m >= 1 && m >= t->lo && m <= t->hi && lit >= t->min_lit &&
           (t->max_lit <= 0 || lit <= t->max_lit) &&
           (!t->unique_optimum || unique);
}

/* What scan needs to place a state on the human ladder. */
typedef struct ladder {
    const uint8_t *goal;
    const uint64_t *spot; /* qn_distrib__spots's bits, or NULL: grade
                             each state (qn_human_grade_state) */
    const qn_human *h;
    uint8_t *off, *state; /* ncells bytes of scratch */
} ladder;

/* Is image element idx, whose offset from the goal is -v (v64 packed for
 * k = 2, else v8), at one of the target's human levels? -1: out of memory. */
static int human_member(const qn_census *c, ladder *lad, uint64_t idx,
                        const uint64_t *v64, const uint8_t *v8)
{
    const qn_distrib *d = c->d;
    unsigned want = c->t.human_levels;
    qn_human_grade gr;

    if (lad->spot && (lad->spot[idx / 64] >> (idx % 64) & 1))
        return want & 1;
    if (lad->spot && !(want & ~1u))
        return 0; /* spot alone asked: no rung above it is */
    if (!lad->spot)
        qn_distrib__decode(d, idx, lad->off);
    for (int i = 0; i < d->nrows; i++) {
        unsigned o = lad->spot ? d->k == 2
                                     ? (unsigned)(v64[i / 64] >> (i % 64)) & 1
                                     : (d->k - v8[i]) % d->k
                               : lad->off[i];
        lad->state[i] = (uint8_t)((lad->goal[i] + o) % d->k);
    }
    if (!lad->spot) {
        int rc = qn_human_grade_state(c->t.human, lad->state, &gr, NULL);
        if (rc == QN_ENOMEM)
            return -1;
        if (rc != QN_OK)
            return 0; /* not decided: no level, not a member */
        return want >> gr.level & 1;
    }
    return want >> qn_human_rung(lad->h, lad->state, lad->off) & 1;
}

/* ------------------------------------------------------------------ */
/* Every image element once, in index order, with its lit cells.      */

static int lit_gf2(const uint64_t *v, int nw)
{
    int lit = 0;

    for (int w = 0; w < nw; w++)
        lit += __builtin_popcountll(v[w]);
    return lit;
}

static int lit_zk(const uint8_t *v, int n)
{
    int lit = 0;

    for (int i = 0; i < n; i++)
        lit += v[i] != 0;
    return lit;
}

/* Index idx -> idx + 1 adds h_t for each digit t that moves (t = 0 and
 * every carry); o_t h_t = 0, so a digit that wraps is right too. */
static void step_zk(const qn_distrib *d, unsigned *dig, uint8_t *v)
{
    for (size_t t = 0; t < d->ncomp; t++) {
        const uint8_t *h = d->h + t * (size_t)d->nrows;
        for (int r = 0; r < d->nrows; r++)
            v[r] = (uint8_t)((v[r] + h[r]) % d->k);
        if (++dig[t] < d->order[t])
            return;
        dig[t] = 0;
    }
}

static void step_gf2(const qn_distrib *d, uint64_t idx, uint64_t *v)
{
    for (size_t t = 0; t < d->ncomp; t++) {
        for (int w = 0; w < d->nw; w++)
            v[w] ^= d->hbits[t * d->nw + w];
        if (!((idx >> t) & 1))
            return; /* bit t went 0 -> 1: no carry */
    }
}

/* Mark the members and count them per press count. */
static int scan(qn_census *c, const uint8_t *uq, ladder *lad)
{
    const qn_distrib *d = c->d;
    uint64_t *v64 = QN_ALLOCN((size_t)d->nw + 1, uint64_t);
    uint8_t *v8 = QN_ALLOCN((size_t)d->nrows + 1, uint8_t);
    unsigned dig[MAXCOMP] = {0};
    uint64_t idx;

    if (!v64 || !v8) {
        free(v64);
        free(v8);
        return QN_ENOMEM;
    }

    for (idx = 0; idx < d->total; idx++) {
        unsigned m = dget(d, idx);
        int lit = d->k == 2 ? lit_gf2(v64, d->nw) : lit_zk(v8, d->nrows);
        int in = in_target(&c->t, m, lit, uq && uq[idx] != QN_DISTRIB__MANY);
        if (in && c->t.human_levels)
            in = human_member(c, lad, idx, v64, v8);
        if (in < 0)
            break; /* out of memory */
        if (in) {
            c->bits[idx / 64] |= (uint64_t)1 << (idx % 64);
            c->states[m]++;
        }
        if (d->k == 2)
            step_gf2(d, idx, v64);
        else
            step_zk(d, dig, v8);
    }
    free(v64);
    free(v8);
    return idx < d->total ? QN_ENOMEM : QN_OK;
}

/* The directory for qn_distrib__find over the members. */
static int directory(qn_census *c)
{
    const qn_distrib *d = c->d;
    size_t nb1 = d->nblocks + 1;

    if (!(c->cum = QN_ALLOCN(d->len * nb1, uint32_t)))
        return QN_ENOMEM;
    for (size_t b = 0; b < d->nblocks; b++) {
        uint64_t lo = (uint64_t)b << d->bshift;
        uint64_t hi = lo + ((uint64_t)1 << d->bshift);

        for (size_t m = 0; m < d->len; m++)
            c->cum[m * nb1 + b + 1] = c->cum[m * nb1 + b];
        if (hi > d->total)
            hi = d->total;
        for (uint64_t i = lo; i < hi; i++)
            if ((c->bits[i / 64] >> (i % 64)) & 1)
                c->cum[dget(d, i) * nb1 + b + 1]++;
    }
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* Distinct puzzles: Burnside's lemma.                                */

/*
 * The symmetries preserve the matrix and the goal, so they preserve
 * every state's press count, lit cells and optimal plans: the target's
 * states at press count m form a union of orbits, and by Burnside the
 * orbits number (1 / |G|) sum over g of the states g fixes. The identity
 * fixes all of them; another g fixes exactly the offsets constant on its
 * cycles, at most k^cycles of them, which are enumerated and located in
 * the image by solving (a state's index is the sum of its plan's columns'
 * digit vectors).
 */
typedef struct fixer {
    const qn_census *c;
    const qn_system *sys;
    uint8_t *s, *x;
    uint32_t *word; /* k = 2: each column's digits as bits */
} fixer;

static uint64_t index_of(const fixer *f, const uint8_t *x)
{
    const qn_distrib *d = f->c->d;
    unsigned dig[MAXCOMP] = {0};
    uint64_t idx = 0;

    if (f->word) {
        for (int j = 0; j < d->ncols; j++)
            if (x[j])
                idx ^= f->word[j];
        return idx;
    }
    for (int j = 0; j < d->ncols; j++)
        for (size_t t = 0; t < d->ncomp && x[j]; t++)
            dig[t] =
                (dig[t] + x[j] * d->col[(size_t)j * MAXCOMP + t]) % d->order[t];
    for (size_t t = 0; t < d->ncomp; t++)
        idx += dig[t] * d->stride[t];
    return idx;
}

/* Is the solvable offset s (its plan in f->x) a member? Its press count
 * to *m. */
static int fixed_member(const fixer *f, unsigned *m)
{
    const qn_census *c = f->c;
    /* the plan solves A x + s = 0: s = -(A x), whose index we need */
    uint64_t idx = index_of(f, f->x);

    *m = dget(c->d, idx);
    if (c->bits)
        return (c->bits[idx / 64] >> (idx % 64)) & 1;
    return in_target(&c->t, *m, 0, 1);
}

/* Add the members fixed by permutation p to fix[]. QN_ELIMIT when there
 * are too many states to try. */
static int count_fixed(fixer *f, const int *p, uint64_t *fix, qn_err *err)
{
    const qn_distrib *d = f->c->d;
    int n = d->nrows, ncyc;
    int *cyc = QN_ALLOCN((size_t)n + 1, int); /* cell -> its cycle */
    unsigned *val;
    uint64_t total = 1;

    if (!cyc)
        return qn_err_nomem(err);
    ncyc = qn_distrib__cycles(p, n, cyc);
    for (int i = 0; i < ncyc && total <= FIXED_MAX; i++)
        total *= d->k;
    if (total > FIXED_MAX) {
        free(cyc);
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "a symmetry fixes up to %u^%d states, too many "
                          "to count distinct puzzles exactly",
                          d->k, ncyc);
    }
    if (!(val = QN_ALLOCN((size_t)ncyc + 1, unsigned))) {
        free(cyc);
        return qn_err_nomem(err);
    }
    memset(f->s, 0, (size_t)d->nrows + 1);
    for (uint64_t e = 0; e < total; e++) {
        unsigned m;
        int t = 0, rc = qn_system_solve(f->sys, f->x, f->s);
        if (rc == QN_ENOMEM) {
            free(val);
            free(cyc);
            return qn_err_nomem(err);
        }
        if (rc == QN_OK && fixed_member(f, &m))
            fix[m]++;
        /* next assignment of values to cycles (mixed radix) */
        while (t < ncyc && ++val[t] == d->k)
            val[t++] = 0;
        for (int i = 0; i < n; i++) /* cycles 0..t changed */
            if (cyc[i] <= t)
                f->s[i] = (uint8_t)val[cyc[i]];
    }
    free(val);
    free(cyc);
    return QN_OK;
}

static int count_distinct(qn_census *c, const qn_system *sys, const qn_rules *r,
                          qn_err *err)
{
    const qn_distrib *d = c->d;
    size_t nsyms = qn_rules_nsyms(r);
    uint64_t *fix = QN_ALLOCN(d->len, uint64_t);
    fixer f;
    int rc = QN_OK;

    memset(&f, 0, sizeof(f));
    f.c = c;
    f.sys = sys;
    f.s = QN_ALLOCN((size_t)d->nrows + 1, uint8_t);
    f.x = QN_ALLOCN((size_t)d->ncols + 1, uint8_t);
    if (d->k == 2 && !(f.word = QN_ALLOCN((size_t)d->ncols + 1, uint32_t)))
        rc = qn_err_nomem(err);
    if (!fix || !f.s || !f.x)
        rc = qn_err_nomem(err);
    if (rc == QN_OK && f.word) {
        for (int j = 0; j < d->ncols; j++)
            for (size_t t = 0; t < d->ncomp; t++)
                f.word[j] |= (uint32_t)d->col[(size_t)j * MAXCOMP + t] << t;
    }
    if (rc == QN_OK) /* the identity */
        memcpy(fix, c->states, d->len * sizeof(*fix));
    for (size_t g = 1; g < nsyms && rc == QN_OK; g++)
        rc = count_fixed(&f, qn_rules_sym(r, g), fix, err);
    for (size_t m = 0; m < d->len && rc == QN_OK; m++) {
        assert(fix[m] % nsyms == 0);
        c->distinct[m] = fix[m] / nsyms;
    }
    free(f.word);
    free(f.s);
    free(f.x);
    free(fix);
    return rc;
}

/* ------------------------------------------------------------------ */

int qn_census_new(qn_census **out, const qn_distrib *d, const qn_system *sys,
                  const qn_rules *r, const qn_target *t, qn_err *err)
{
    qn_census *c;
    uint8_t *uq = NULL;
    uint64_t *spot = NULL;
    ladder lad = {0};
    int rc = QN_OK;

    assert(out && d && sys && r && t);
    assert(qn_rules_ncells(r) == d->nrows && qn_system_ncols(sys) == d->ncols);
    *out = NULL;
    if (!(c = QN_ALLOC(qn_census)))
        return qn_err_nomem(err);
    c->d = d;
    c->t = *t;
    c->states = QN_ALLOCN(d->len, uint64_t);
    c->distinct = QN_ALLOCN(d->len, uint64_t);
    if (!c->states || !c->distinct)
        rc = qn_err_nomem(err);
    if (rc == QN_OK && t->human_levels && t->human) {
        int listed = 0;
        if (!(spot = QN_ALLOCN((size_t)(d->total / 64) + 1, uint64_t)) ||
            (listed = qn_distrib__spots(d, qn_rules_matrix(r), spot)) < 0)
            rc = qn_err_nomem(err);
        else if (!listed) {
            free(spot); /* each state graded instead */
            spot = NULL;
        }
    }
    if (rc == QN_OK && t->human_levels &&
        (!t->human || (!spot && d->total > QN_CENSUS_HUMAN_MAX)))
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "the human levels of %llu solvable states are not "
                        "counted: the footprints' plans are too many to "
                        "list, and states are graded one by one up to "
                        "%llu",
                        (unsigned long long)d->total,
                        (unsigned long long)QN_CENSUS_HUMAN_MAX);
    lad.goal = qn_rules_goal(r);
    lad.spot = spot;
    lad.h = t->human ? qn_human_grader_human(t->human) : NULL;
    lad.off = QN_ALLOCN((size_t)d->nrows + 1, uint8_t);
    lad.state = QN_ALLOCN((size_t)d->nrows + 1, uint8_t);
    if (rc == QN_OK && (!lad.off || !lad.state))
        rc = qn_err_nomem(err);
    if (rc == QN_OK && t->unique_optimum) {
        if (!(uq = QN_ALLOCN((size_t)d->total, uint8_t)))
            rc = qn_err_nomem(err);
        else
            rc = qn_distrib__unique(d, uq, err);
    }
    if (rc == QN_OK && beyond_presses(t)) {
        if (!(c->bits = QN_ALLOCN((size_t)(d->total / 64) + 1, uint64_t)) ||
            scan(c, uq, &lad) != QN_OK || directory(c) != QN_OK)
            rc = qn_err_nomem(err);
    } else if (rc == QN_OK) {
        for (size_t m = 1; m < d->len; m++)
            if (in_target(t, (unsigned)m, 0, 1))
                c->states[m] = d->count[m];
    }
    if (rc == QN_OK)
        rc = count_distinct(c, sys, r, err);
    free(uq);
    free(spot);
    free(lad.off);
    free(lad.state);
    if (rc != QN_OK) {
        qn_census_free(c);
        return rc;
    }
    *out = c;
    return QN_OK;
}

void qn_census_free(qn_census *c)
{
    if (!c)
        return;
    free(c->states);
    free(c->distinct);
    free(c->bits);
    free(c->cum);
    free(c);
}

size_t qn_census_len(const qn_census *c)
{
    return c->d->len;
}

uint64_t qn_census_states(const qn_census *c, size_t m)
{
    return m < c->d->len ? c->states[m] : 0;
}

uint64_t qn_census_distinct(const qn_census *c, size_t m)
{
    return m < c->d->len ? c->distinct[m] : 0;
}

uint64_t qn_census_nth(const qn_census *c, size_t m, uint64_t i, uint8_t *d_out)
{
    const qn_distrib *d = c->d;
    uint64_t idx;

    assert(m < d->len && i < c->states[m]);
    if (!c->bits)
        return qn_distrib_nth(d, m, i, d_out);
    idx = qn_distrib__find(d, c->cum + m * (d->nblocks + 1), c->bits, m, i);
    qn_distrib__decode(d, idx, d_out);
    return idx;
}
