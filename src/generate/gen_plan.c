/*
 * gen_plan.c: the plan of a run, made before any candidate is drawn
 * (gen.h, qn_gen_plan): the checks no target may fail (gradable, a
 * range below the most presses any state needs, no more puzzles asked
 * than the rule or the target holds), the mode AUTO chooses, the
 * target's census with the exact distribution, the pilot that measures a
 * target's rarity without it, and the counts a spread covers (without
 * the distribution, gen_spread.c's pilot climbs find them).
 */
#include "gen_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "engine/minpress.h"
#include "generate/distrib.h"
#include "rules/canon.h"
#include "solve/human.h"

#define PILOT 20000       /* SAMPLE draws that estimate a target's rarity */
#define PILOT_LONG 200000 /* ... and when they hit it only a few times */
#define PILOT_SURE 10     /* hits past which the short pilot is enough */
#define CLIMB_RARITY 1e-4 /* rarer targets are climbed to, not sampled */

/*
 * Fraction of uniform samples on target, from a pilot run; with a 95 %
 * interval for the number of distinct puzzles into *info. -1 past the
 * budget, -2 out of memory.
 *
 * A target at the threshold is hit about twice in PILOT draws, so a far
 * rarer one is sometimes hit twice too: classic 9x9 35.. (about 3 in a
 * million) chose SAMPLE for one seed in several hundred and stopped
 * with 3 of 100 puzzles after 1.1 million draws. A pilot that hits
 * fewer than PILOT_SURE times goes on to PILOT_LONG draws, where such a
 * target would need 20 hits.
 */
static double pilot(genctx *c, qn_gen_target_info *info)
{
    scratch s;
    uint8_t *state = QN_ALLOCN((size_t)c->n + 1, uint8_t);
    uint64_t hits = 0, i, want = PILOT;
    int on = 0;
    /* a seed of its own, so the pilot never shares candidate streams */
    qn_gen_opts o = *c->o;
    genctx pc = *c;
    double f, z = 1.96, w, mid, half, per;

    o.seed.b[0] ^= 0x5a;
    pc.o = &o;
    if (!state || qn_gen__scratch_init(&s, c) != QN_OK) {
        free(state);
        return -2;
    }
    for (i = 0; i < want && !qn_gen__over_budget(c, s.grades); i++) {
        if ((on = qn_gen__graded(&pc, QN_GEN_SAMPLE, i, &s, state)) < 0)
            break;
        hits += (uint64_t)on;
        if (i + 1 == PILOT && hits >= PILOT * CLIMB_RARITY && hits < PILOT_SURE)
            want = PILOT_LONG;
    }
    info->plan_grades += s.grades;
    qn_gen__scratch_release(&s);
    free(state);
    if (on < 0)
        return -2;
    if (i < want)
        return -1;
    /* Wilson's interval for the fraction; nearly every state of a board
     * this large moves under every symmetry, so a puzzle is |G| states */
    f = (double)hits / (double)want;
    w = 1 + z * z / (double)want;
    mid = (f + z * z / (2.0 * (double)want)) / w;
    half = z *
           sqrt(f * (1 - f) / (double)want +
                z * z / (4.0 * (double)want * (double)want)) /
           w;
    per = exp2(qn_system_group_log2(qn_solver_system(c->solver), QN_IMAGE)) /
          (double)qn_rules_nsyms(qn_solver_rules(c->solver));
    info->distinct = f * per;
    info->distinct_lo = (mid - half > 0 ? mid - half : 0) * per;
    info->distinct_hi = (mid + half) * per;
    return f;
}

static int restricted(const qn_gen_opts *o)
{
    return o->lo > 1 || o->hi != UINT64_MAX || o->unique_optimum ||
           o->min_lit > 0 || o->max_lit > 0 || o->human_levels;
}

/* The options' target as a census target; with_levels 0 leaves the
 * human levels out (a census that cannot count them). */
static void opts_target(const genctx *c, qn_target *t, int with_levels)
{
    const qn_gen_opts *o = c->o;

    qn_target_init(t);
    t->lo = o->lo;
    t->hi = o->hi;
    t->min_lit = o->min_lit;
    t->max_lit = o->max_lit;
    t->unique_optimum = o->unique_optimum;
    if (with_levels) {
        t->human_levels = o->human_levels;
        t->human = c->hg;
    }
}

/* "60.." or "60..70", as --presses writes a range */
static void range_text(char *buf, size_t n, uint64_t lo, uint64_t hi)
{
    if (hi == UINT64_MAX)
        snprintf(buf, n, "%llu..", (unsigned long long)lo);
    else if (lo == hi)
        snprintf(buf, n, "%llu", (unsigned long long)lo);
    else
        snprintf(buf, n, "%llu..%llu", (unsigned long long)lo,
                 (unsigned long long)hi);
}

/* Checks that need no distribution: the run cannot be graded, or the
 * range cannot hold a puzzle (past the coset bound: the exact
 * distribution's own check says it more precisely). */
static int check_bounds(const genctx *c, qn_err *err)
{
    const qn_gen_opts *o = c->o;
    qn_err e = QN_ERR_INIT;
    char range[48];

    /* Every puzzle is graded exactly before it is emitted. Past the walk
     * limit no grade is exact, for any state: say so now, rather than
     * draw until max_draws and blame the target's rarity. */
    int rc = qn_solver_check_exact(c->solver, &e);
    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    if (rc != QN_OK)
        return qn_err_set(err, QN_EINVAL, 0, 0, "%s", e.msg);
    if (o->lo > o->hi)
        return qn_err_set(err, QN_EINVAL, 0, 0, "empty press range %llu..%llu",
                          (unsigned long long)o->lo, (unsigned long long)o->hi);
    if (!o->distrib && o->lo > c->maxp) {
        range_text(range, sizeof(range), o->lo, o->hi);
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "no solvable state needs %s presses on %s: none "
                          "needs more than %llu (the coset bound, "
                          "docs/GENERATE.md)",
                          range, qn_rules_name(qn_solver_rules(c->solver)),
                          (unsigned long long)c->maxp);
    }
    if (o->min_lit > c->n)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "--min-lit %d exceeds the board's %d %s", o->min_lit,
                          c->n, qn_plural((uint64_t)c->n, "cell", "cells"));
    if (o->max_lit > 0 && o->max_lit < o->min_lit)
        return qn_err_set(err, QN_EINVAL, 0, 0, "empty lit range %d..%d",
                          o->min_lit, o->max_lit);
    return QN_OK;
}

/* "only 1049 distinct puzzles need exactly 15 presses on classic-5x5;
 * asked for 2000" (the human levels said when the count holds them) */
static int too_few(const genctx *c, uint64_t have, qn_err *err)
{
    qn_target t;
    qn_buf what = QN_BUF_INIT;
    int rc;

    opts_target(c, &t, c->human_counted);
    qn_target_describe(&what, &t, have <= 1);
    if (c->o->human_levels && !c->human_counted)
        qn_buf_adds(&what, " (at any human level: the levels are not "
                           "counted on this rule, docs/GENERATE.md)");
    if (what.failed)
        rc = qn_err_nomem(err);
    else if (have == 0)
        rc = qn_err_set(err, QN_EINVAL, 0, 0, "no puzzle %s on %s", what.buf,
                        qn_rules_name(qn_solver_rules(c->solver)));
    else
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "only %llu distinct puzzle%s %s on %s; asked for "
                        "%llu",
                        (unsigned long long)have, have == 1 ? "" : "s",
                        what.buf, qn_rules_name(qn_solver_rules(c->solver)),
                        (unsigned long long)c->o->count);
    qn_buf_release(&what);
    return rc;
}

/*
 * Every target: no more puzzles asked than the rule holds in all. At
 * least (solvable states - 1) / symmetries (rounded up) exist, each
 * puzzle being at most |G| states; past that they are counted exactly
 * (qn_image_orbits: Burnside by linear algebra, cheap for a rule that
 * small). A restricted target holds at most as many: its own census, or
 * a pilot's estimate, says more.
 */
static int check_total(const genctx *c, qn_gen_target_info *info, qn_err *err)
{
    const qn_system *sys = qn_solver_system(c->solver);
    const qn_rules *r = qn_solver_rules(c->solver);
    uint64_t image, nsyms = qn_rules_nsyms(r), least, orbits;
    qn_err why = QN_ERR_INIT;

    if (qn_system_group_size_u64(sys, QN_IMAGE, &image) != QN_OK) {
        if (!restricted(c->o)) { /* 2^64 states or more: plenty */
            info->at_least_log2 =
                qn_system_group_log2(sys, QN_IMAGE) - log2((double)nsyms);
            info->at_least = exp2(info->at_least_log2);
        }
        return QN_OK;
    }
    least = (image - 1) / nsyms + ((image - 1) % nsyms != 0);
    if (!restricted(c->o)) {
        info->at_least = (double)least;
        info->at_least_log2 = log2((double)least);
    }
    if (c->o->count <= least)
        return QN_OK;
    if (qn_image_orbits(sys, r, &orbits, &why) != QN_OK)
        /* not countable: the run finds out */
        return why.code == QN_ENOMEM ? qn_err_nomem(err) : QN_OK;
    if (!restricted(c->o)) {
        info->exact = 1;
        info->distinct = info->distinct_lo = info->distinct_hi =
            (double)(orbits - 1);
        info->at_least = info->at_least_log2 = 0;
    }
    if (c->o->count <= orbits - 1)
        return QN_OK;
    if (!restricted(c->o))
        return too_few(c, orbits - 1, err);
    return qn_err_set(err, QN_EINVAL, 0, 0,
                      "only %llu distinct puzzles exist on %s in all; "
                      "asked for %llu",
                      (unsigned long long)(orbits - 1), qn_rules_name(r),
                      (unsigned long long)c->o->count);
}

/* With the exact distribution: the target's census, its exact size, and
 * the checks it allows before drawing. */
static int take_census(genctx *c, qn_gen_stats *st, qn_err *err)
{
    const qn_gen_opts *o = c->o;
    qn_gen_target_info *info = &st->target;
    qn_target t;
    uint64_t distinct = 0;
    size_t len = qn_distrib_len(o->distrib);
    int rc;

    opts_target(c, &t, 1);
    rc = qn_census_new(&c->census, o->distrib, qn_solver_system(c->solver),
                       qn_solver_rules(c->solver), &t, err);
    c->human_counted = rc == QN_OK && o->human_levels;
    if (rc == QN_ELIMIT && o->human_levels) {
        /* the levels not counted: the press range's census, filtered */
        qn_err_clear(err);
        opts_target(c, &t, 0);
        rc = qn_census_new(&c->census, o->distrib, qn_solver_system(c->solver),
                           qn_solver_rules(c->solver), &t, err);
    }
    if (rc != QN_OK)
        return rc;
    c->range_total = 0;
    for (size_t m = 0; m < len; m++) {
        c->range_total += qn_census_states(c->census, m);
        distinct += qn_census_distinct(c->census, m);
    }
    if (c->range_total == 0 && !o->unique_optimum && o->min_lit <= 0 &&
        o->max_lit <= 0 && !o->human_levels)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "no solvable state needs %llu..%llu presses "
                          "(the most any needs is %zu)",
                          (unsigned long long)o->lo, (unsigned long long)o->hi,
                          len - 1);
    if (info->hi > len - 1)
        info->hi = len - 1;
    if (o->human_levels && !c->human_counted) {
        /* the census holds the press range at every level: an upper
         * bound, drawn from and filtered (docs/GENERATE.md) */
        if (distinct < o->count)
            return too_few(c, distinct, err);
        return QN_OK;
    }
    info->exact = 1;
    info->at_least = info->at_least_log2 = 0;
    info->states = c->range_total;
    info->distinct = info->distinct_lo = info->distinct_hi = (double)distinct;
    st->rarity = (double)c->range_total / (double)qn_distrib_total(o->distrib);
    st->rarity_exact = 1;
    if (distinct < o->count)
        return too_few(c, distinct, err);
    return QN_OK;
}

/* SPREAD: the counts it spreads over and how many puzzles each has. */
static int plan_spread(genctx *c, qn_gen_stats *st, qn_err *err)
{
    qn_gen_target_info *info = &st->target;
    uint64_t hi = info->hi;
    int rc = QN_OK;

    if (!c->census) {
        rc = qn_gen__spread_counts(c, info, err);
    } else {
        c->values = QN_ALLOCN((size_t)(hi - c->lo + 1), uint64_t);
        c->avail = QN_ALLOCN((size_t)(hi - c->lo + 1), uint64_t);
        if (!c->values || !c->avail)
            return qn_err_nomem(err); /* freed with c */
        for (uint64_t m = c->lo; m <= hi; m++) {
            uint64_t have = qn_census_distinct(c->census, (size_t)m);
            if (have)
                qn_gen__add_value(c, m, have);
        }
    }
    if (rc != QN_OK)
        return rc;
    info->counts = c->nvalues;
    if (c->nvalues == 0)
        return too_few(c, 0, err);
    return QN_OK;
}

/*
 * A human level target: the ladder's grader (kept for the run), and the
 * levels no state of the rule can have refused: chase and table without
 * a side that has a chase order; global with one (a solvable state less
 * its chase from a side is a first-row pattern's residual: the table
 * always holds it); table when one chase clears every solvable state
 * (chase_share_any 1, exact).
 */
static int check_levels(genctx *c, qn_err *err)
{
    const char *name = qn_rules_name(qn_solver_rules(c->solver));
    unsigned want = c->o->human_levels, possible = 1u << QN_HUMAN_SPOT;
    const qn_human *h;
    qn_human_shares sh;
    qn_err why = QN_ERR_INIT;
    int chases = 0, rc;

    if (!want)
        return QN_OK;
    if (want >> QN_HUMAN_NLEVELS)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "human levels are 0 (spot) to 3 (global)");
    if (!c->hg && (rc = qn_human_grader_new(&c->hg, c->solver, &why)) != QN_OK)
        return qn_err_set(err, rc == QN_ENOMEM ? rc : QN_EINVAL, 0, 0,
                          "no human levels on %s: %s", name, why.msg);
    h = qn_human_grader_human(c->hg);
    for (size_t i = 0; i < qn_human_nsides(h); i++)
        chases |= qn_human_side_chases(h, i);
    if (!chases) {
        possible |= 1u << QN_HUMAN_GLOBAL;
    } else {
        possible |= 1u << QN_HUMAN_CHASE;
        if ((rc = qn_human_shares_compute(h, &sh, &why)) == QN_ENOMEM)
            return qn_err_set(err, rc, 0, 0, "%s", why.msg);
        if (rc != QN_OK || !sh.any.known || sh.any.num != sh.any.den)
            possible |= 1u << QN_HUMAN_TABLE;
    }
    if (want & possible)
        return QN_OK;
    if (!chases)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "no puzzle of %s is at human level chase or "
                          "table: no side of its board has a chase order, "
                          "so every puzzle is spot or global",
                          name);
    if (!(possible >> QN_HUMAN_TABLE & 1))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "no puzzle of %s is at human level table or "
                          "global: one chase clears every solvable state "
                          "(chase_share_any 1)",
                          name);
    return qn_err_set(err, QN_EINVAL, 0, 0,
                      "no puzzle of %s is at human level global: a side "
                      "of its board has a chase order, and a chase, a "
                      "pattern of its table and a second chase clear "
                      "every solvable state",
                      name);
}

/* Choose the mode (AUTO) and check the target is not empty. */
int qn_gen__plan(genctx *c, qn_gen_stats *st, qn_err *err)
{
    const qn_gen_opts *o = c->o;
    qn_gen_target_info *info = &st->target;
    int rc;

    c->lo = o->lo;
    c->hi = o->hi;
    info->lo = o->lo;
    info->hi = o->hi < c->maxp ? o->hi : c->maxp;
    info->max_presses = c->maxp;
    info->max_exact = c->maxp_exact;
    info->distinct = info->distinct_lo = info->distinct_hi = -1;
    if ((rc = check_bounds(c, err)) != QN_OK)
        return rc;
    if ((rc = check_levels(c, err)) != QN_OK)
        return rc;
    if (o->distrib && (rc = take_census(c, st, err)) != QN_OK)
        return rc;
    if (!o->distrib && (rc = check_total(c, info, err)) != QN_OK)
        return rc;
    c->mode = o->mode;
    if (c->mode == QN_GEN_AUTO) {
        if (!restricted(o))
            c->mode = QN_GEN_SAMPLE;
        else if (o->distrib)
            c->mode = QN_GEN_EXHAUSTIVE;
        else {
            double f = pilot(c, info);
            if (f == -2)
                return qn_err_nomem(err);
            if (f < 0)
                return qn_gen__budget_error(c, err);
            st->rarity = f;
            c->mode = f >= CLIMB_RARITY ? QN_GEN_SAMPLE
                      : o->lo == o->hi  ? QN_GEN_CLIMB
                                        : QN_GEN_SPREAD;
        }
    }
    if (c->mode == QN_GEN_EXHAUSTIVE && !o->distrib)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "exhaustive selection needs the exact "
                          "distribution");
    if (c->mode == QN_GEN_SPREAD && (rc = plan_spread(c, st, err)) != QN_OK)
        return rc;
    st->mode = info->mode = c->mode;
    return QN_OK;
}

void qn_gen__ctx_release(genctx *c)
{
    qn_census_free(c->census);
    qn_human_grader_free(c->hg);
    qn_canon_table_free(c->canon);
    c->canon = NULL;
    c->hg = NULL;
    free(c->values);
    free(c->avail);
    free(c->col_start);
    free(c->col_row);
    free(c->col_val);
    c->census = NULL;
    c->values = c->avail = NULL;
    c->col_start = c->col_row = NULL;
    c->col_val = NULL;
}

/*
 * The matrix's columns as lists of their non-zero entries, rows in
 * increasing order. Pressing a cell reads its column: a dense column of
 * a row-major matrix is n loads a row apart (a 22x22 board: 484 loads,
 * 484 bytes apart, for the 5 entries of a plus), which made pressing
 * most of a climb's cost on a rule with a trivial kernel (issue #35).
 * Left NULL past one entry in 8: the dense loop is then as good.
 */
static int columns_init(genctx *c)
{
    size_t n = (size_t)c->n, nnz = 0;

    for (size_t i = 0; i < n * n; i++)
        nnz += c->matrix[i] != 0;
    if (nnz > n * n / 8 || nnz >= UINT32_MAX)
        return QN_OK;
    c->col_start = QN_ALLOCN(n + 1, uint32_t);
    c->col_row = QN_ALLOCN(nnz + 1, uint32_t);
    c->col_val = QN_ALLOCN(nnz + 1, uint8_t);
    if (!c->col_start || !c->col_row || !c->col_val)
        return QN_ENOMEM; /* freed with c */
    memset(c->col_start, 0, (n + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n * n; i++) /* counts, then where each starts */
        c->col_start[i % n + 1] += c->matrix[i] != 0;
    for (size_t j = 0; j < n; j++)
        c->col_start[j + 1] += c->col_start[j];
    for (size_t i = 0; i < n; i++) { /* rows in order: a cursor a column */
        for (size_t j = 0; j < n; j++) {
            uint8_t a = c->matrix[i * n + j];
            if (a) {
                uint32_t at = c->col_start[j]++;
                c->col_row[at] = (uint32_t)i;
                c->col_val[at] = a;
            }
        }
    }
    for (size_t j = n; j > 0; j--) /* the cursors ended at the next start */
        c->col_start[j] = c->col_start[j - 1];
    c->col_start[0] = 0;
    return QN_OK;
}

int qn_gen__ctx_init(genctx *c, const qn_solver *solver, const qn_gen_opts *o)
{
    const qn_rules *r = qn_solver_rules(solver);
    char hex[65];

    memset(c, 0, sizeof(*c));
    c->solver = solver;
    c->o = o;
    c->n = qn_solver_ncells(solver);
    c->k = qn_solver_colours(solver);
    c->goal = qn_rules_goal(r);
    c->goal_zero = 1;
    for (int i = 0; i < c->n; i++)
        c->goal_zero &= c->goal[i] == 0;
    c->matrix = qn_rules_matrix(r);
    if (columns_init(c) != QN_OK ||
        qn_canon_table_new(&c->canon, r, NULL) != QN_OK)
        return QN_ENOMEM;
    if (o->distrib) {
        c->maxp = qn_distrib_len(o->distrib) - 1;
        c->maxp_exact = 1;
    } else {
        c->maxp = qn_minpress_bound(qn_solver_system(solver));
    }
    qn_rules_hash(r, hex);
    qn_puzzle_id_key_init(&c->id_key, hex);
    if (o->human_model)
        c->model = *o->human_model;
    else
        qn_human_model_default(&c->model);
    return QN_OK;
}
