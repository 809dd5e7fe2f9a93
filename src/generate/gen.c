/*
 * gen.c: the generator (see gen.h for the contract): the options, the plan
 * of a run (mode, target checks, the pilot that measures a target's
 * rarity) and the entry points; candidates are made in gen_candidate.c and
 * run in blocks by gen_run.c.
 */
#include "quench/gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "quench/distrib.h"
#include "quench/mem.h"
#include "quench/text.h"

#define PILOT 20000       /* SAMPLE draws that estimate a target's rarity */
#define CLIMB_RARITY 1e-4 /* rarer targets are climbed to, not sampled */
#define TOP_CLIMBS 1024   /* pilot climbs per count past an open spread */

const char *qn_gen_mode_name(qn_gen_mode m)
{
    static const char *const names[] = {"auto", "sample", "exhaustive",
                                        "climb", "spread"};
    return (unsigned)m < 5 ? names[m] : "?";
}

void qn_gen_opts_init(qn_gen_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->count = 1;
    o->lo = 1;
    o->hi = UINT64_MAX;
    o->jobs = 1;
    o->mode = QN_GEN_AUTO;
}

/* A candidate as qn_gen__candidate makes it, always graded (pilot,
 * sampling, regeneration: no shards). */
static int candidate(const genctx *c, qn_gen_mode mode, uint64_t index,
                     scratch *s, uint8_t *state)
{
    int graded;

    return qn_gen__candidate(c, mode, index, s, state, &graded);
}

/* Fraction of uniform samples on target, from a pilot run; with a 95 %
 * interval for the number of distinct puzzles into *info. */
static double pilot(const genctx *c, qn_gen_target_info *info)
{
    scratch s;
    uint8_t *state = QN_NEWN((size_t)c->n + 1, uint8_t);
    uint64_t hits = 0;
    /* a seed of its own, so the pilot never shares candidate streams */
    qn_gen_opts o = *c->o;
    genctx pc = *c;
    double f, z = 1.96, w, mid, half, per;

    o.seed.b[0] ^= 0x5a;
    pc.o = &o;
    qn_gen__scratch_init(&s, c);
    for (uint64_t i = 0; i < PILOT; i++)
        hits += (uint64_t)candidate(&pc, QN_GEN_SAMPLE, i, &s, state);
    qn_gen__scratch_release(&s);
    free(state);
    /* Wilson's interval for the fraction; nearly every state of a board
     * this large moves under every symmetry, so a puzzle is |G| states */
    f = (double)hits / PILOT;
    w = 1 + z * z / PILOT;
    mid = (f + z * z / (2.0 * PILOT)) / w;
    half = z * sqrt(f * (1 - f) / PILOT + z * z / (4.0 * PILOT * PILOT)) / w;
    per = exp2(qn_system_group_log2(qn_solver_system(c->g), QN_IMAGE)) /
          (double)qn_rules_nsyms(qn_solver_rules(c->g));
    info->distinct = f * per;
    info->distinct_lo = (mid - half > 0 ? mid - half : 0) * per;
    info->distinct_hi = (mid + half) * per;
    return f;
}

static int restricted(const qn_gen_opts *o)
{
    return o->lo > 1 || o->hi != UINT64_MAX || o->unique_optimum ||
           o->min_lit > 0 || o->max_lit > 0;
}

/* The options' target as a census target. */
static void opts_target(const qn_gen_opts *o, qn_target *t)
{
    qn_target_init(t);
    t->lo = o->lo;
    t->hi = o->hi;
    t->min_lit = o->min_lit;
    t->max_lit = o->max_lit;
    t->unique_optimum = o->unique_optimum;
}

/* Checks that need no distribution: the run cannot be graded, or the
 * range cannot hold a puzzle. */
static int check_bounds(const genctx *c, qn_err *err)
{
    const qn_gen_opts *o = c->o;
    uint64_t maxp = (uint64_t)c->n * (c->k - 1);
    qn_err e = QN_ERR_INIT;

    /* Every puzzle is graded exactly before it is emitted. Past the walk
     * limit no grade is exact, for any state: say so now, rather than
     * draw until max_draws and blame the target's rarity. */
    if (qn_solver_check_exact(c->g, &e) != QN_OK)
        return qn_err_set(err, QN_EINVAL, 0, 0, "%s", e.msg);
    if (o->lo > o->hi)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "empty press range %llu..%llu",
                          (unsigned long long)o->lo,
                          (unsigned long long)o->hi);
    if (o->lo > maxp)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "no state needs %llu %s: %d %s allow at most %llu",
                          (unsigned long long)o->lo,
                          qn_plural(o->lo, "press", "presses"), c->n,
                          qn_plural((uint64_t)c->n, "cell", "cells"),
                          (unsigned long long)maxp);
    if (o->min_lit > c->n)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "--min-lit %d exceeds the board's %d %s",
                          o->min_lit, c->n,
                          qn_plural((uint64_t)c->n, "cell", "cells"));
    if (o->max_lit > 0 && o->max_lit < o->min_lit)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "empty lit range %d..%d", o->min_lit, o->max_lit);
    return QN_OK;
}

/* "only 1049 distinct puzzles need exactly 15 presses on classic-5x5;
 * asked for 2000" */
static int too_few(const genctx *c, uint64_t have, qn_err *err)
{
    qn_target t;
    qn_buf what = QN_BUF_INIT;
    int rc;

    opts_target(c->o, &t);
    qn_target_describe(&what, &t, have <= 1);
    if (have == 0)
        rc = qn_err_set(err, QN_EINVAL, 0, 0, "no puzzle %s on %s",
                        what.buf, qn_rules_name(qn_solver_rules(c->g)));
    else
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "only %llu distinct puzzle%s %s on %s; asked for "
                        "%llu",
                        (unsigned long long)have, have == 1 ? "" : "s",
                        what.buf, qn_rules_name(qn_solver_rules(c->g)),
                        (unsigned long long)c->o->count);
    qn_buf_release(&what);
    return rc;
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

    opts_target(o, &t);
    rc = qn_census_new(&c->census, o->distrib, qn_solver_system(c->g),
                       qn_solver_rules(c->g), &t, err);
    if (rc != QN_OK)
        return rc;
    c->range_total = 0;
    for (size_t m = 0; m < len; m++) {
        c->range_total += qn_census_states(c->census, m);
        distinct += qn_census_distinct(c->census, m);
    }
    if (c->range_total == 0 && !o->unique_optimum && o->min_lit <= 0 &&
        o->max_lit <= 0)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "no solvable state needs %llu..%llu presses "
                          "(the most any needs is %zu)",
                          (unsigned long long)o->lo,
                          (unsigned long long)o->hi, len - 1);
    info->exact = 1;
    info->states = c->range_total;
    info->distinct = info->distinct_lo = info->distinct_hi = (double)distinct;
    if (info->hi > len - 1)
        info->hi = len - 1;
    st->rarity = (double)c->range_total / (double)qn_distrib_total(o->distrib);
    st->rarity_exact = 1;
    if (distinct < o->count)
        return too_few(c, distinct, err);
    return QN_OK;
}

/*
 * An open spread on a rule without the exact distribution ends where the
 * climbs stop arriving: counting up from lo, the last count that at least
 * one of TOP_CLIMBS climbs aimed at it reaches (a pilot with a seed of its
 * own, so the end is a function of the run's seed and options).
 */
static uint64_t pilot_top(const genctx *c)
{
    uint64_t maxp = (uint64_t)c->n * (c->k - 1), top = c->lo;
    qn_gen_opts o = *c->o;
    uint8_t *state = QN_NEWN((size_t)c->n + 1, uint8_t);
    scratch s;
    int arrived = 1;

    o.seed.b[2] ^= 0x3c;
    qn_gen__scratch_init(&s, c);
    for (uint64_t v = c->lo + 1; v <= maxp && arrived; v++) {
        arrived = 0;
        for (uint64_t i = 0; i < TOP_CLIMBS && !arrived; i++) {
            qn_rng rng;
            qn_rng_init(&rng, &o.seed, (v - c->lo) * TOP_CLIMBS + i);
            if (!qn_gen__climb(c, &rng, &s, state, v, v, v))
                continue;
            qn_solver_answer(c->g, &s.ans, state);
            arrived = s.ans.exact && s.ans.mp.presses == v;
        }
        if (arrived)
            top = v;
    }
    qn_gen__scratch_release(&s);
    free(state);
    return top;
}

/* SPREAD: the counts it spreads over and how many puzzles each has. */
static int plan_spread(genctx *c, qn_gen_stats *st, qn_err *err)
{
    qn_gen_target_info *info = &st->target;
    uint64_t lo = c->lo, hi = c->hi, maxp = (uint64_t)c->n * (c->k - 1);

    if (c->census) {
        hi = info->hi;
    } else if (hi == UINT64_MAX) {
        hi = pilot_top(c);
        info->hi_estimated = 1;
    }
    if (hi > maxp)
        hi = maxp;
    info->hi = hi;
    c->values = QN_NEWN((size_t)(hi - lo + 1), uint64_t);
    c->avail = QN_NEWN((size_t)(hi - lo + 1), uint64_t);
    for (uint64_t m = lo; m <= hi; m++) {
        uint64_t have =
            c->census ? qn_census_distinct(c->census, (size_t)m) : UINT64_MAX;
        if (have == 0)
            continue;
        c->values[c->nvalues] = m;
        c->avail[c->nvalues++] = have;
    }
    if (c->nvalues == 0)
        return too_few(c, 0, err);
    return QN_OK;
}

/* Choose the mode (AUTO) and check the target is not empty. */
static int plan_run(genctx *c, qn_gen_stats *st, qn_err *err)
{
    const qn_gen_opts *o = c->o;
    qn_gen_target_info *info = &st->target;
    int rc;

    c->lo = o->lo;
    c->hi = o->hi;
    info->lo = o->lo;
    info->hi = o->hi;
    info->distinct = info->distinct_lo = info->distinct_hi = -1;
    if ((rc = check_bounds(c, err)) != QN_OK)
        return rc;
    if (o->distrib && (rc = take_census(c, st, err)) != QN_OK)
        return rc;
    c->mode = o->mode;
    if (c->mode == QN_GEN_AUTO) {
        if (!restricted(o))
            c->mode = QN_GEN_SAMPLE;
        else if (o->distrib)
            c->mode = QN_GEN_EXHAUSTIVE;
        else {
            double f = pilot(c, info);
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

static void ctx_release(genctx *c)
{
    qn_census_free(c->census);
    free(c->values);
    free(c->avail);
}

static void ctx_init(genctx *c, const qn_solver *g, const qn_gen_opts *o)
{
    const qn_rules *r = qn_solver_rules(g);
    char hex[65];

    memset(c, 0, sizeof(*c));
    c->g = g;
    c->o = o;
    c->n = qn_solver_ncells(g);
    c->k = qn_solver_colours(g);
    c->goal = qn_rules_goal(r);
    c->matrix = qn_rules_matrix(r);

    qn_rules_hash(r, hex);
    qn_puzzle_id_key_init(&c->id_key, hex);
}

int qn_gen_plan(const qn_solver *g, const qn_gen_opts *o,
                qn_gen_target_info *info, qn_err *err)
{
    genctx c;
    qn_gen_stats st;
    int rc;

    memset(&st, 0, sizeof(st));
    ctx_init(&c, g, o);
    rc = plan_run(&c, &st, err);
    *info = st.target;
    ctx_release(&c);
    return rc;
}

int qn_gen_run(const qn_solver *g, const qn_gen_opts *o, const qn_gen_hooks *h,
               qn_gen_stats *st, qn_err *err)
{
    genctx c;
    int rc;

    memset(st, 0, sizeof(*st));
    st->rarity = -1;
    ctx_init(&c, g, o);
    if ((rc = plan_run(&c, st, err)) != QN_OK || o->count == 0) {
        ctx_release(&c);
        return rc;
    }
    rc = qn_gen__run(&c, h, st);
    ctx_release(&c);
    if (rc == 1)
        return QN_OK;
    if (rc == 2)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "found %llu of %llu %s in %llu %s: the target is "
                          "too rare or has too few distinct puzzles",
                          (unsigned long long)st->emitted,
                          (unsigned long long)o->count,
                          qn_plural(o->count, "puzzle", "puzzles"),
                          (unsigned long long)st->draws,
                          qn_plural(st->draws, "draw", "draws"));
    return qn_err_set(err, QN_ERR, 0, 0, "stopped after %llu %s",
                      (unsigned long long)st->emitted,
                      qn_plural(st->emitted, "puzzle", "puzzles"));
}

int qn_gen_candidate(const qn_solver *g, const qn_gen_opts *o, uint64_t index,
                     uint8_t *state, uint64_t *presses)
{
    genctx c;
    qn_gen_stats st;
    scratch s;
    int ok = 0;

    memset(&st, 0, sizeof(st));
    ctx_init(&c, g, o);
    if (plan_run(&c, &st, NULL) == QN_OK) {
        qn_gen__scratch_init(&s, &c);
        ok = candidate(&c, c.mode, index, &s, state);
        *presses = s.ans.mp.presses;
        qn_gen__scratch_release(&s);
    }
    ctx_release(&c);
    return ok;
}

size_t qn_gen_sample_presses(const qn_solver *g, const qn_seed *seed,
                             uint64_t *out, size_t n)
{
    qn_gen_opts o;
    genctx c;
    scratch s;
    uint8_t *state;
    size_t got = 0;

    qn_gen_opts_init(&o);
    o.seed = *seed;
    o.seed.b[1] ^= 0xa5; /* a stream of its own, apart from the run's */
    ctx_init(&c, g, &o);
    c.mode = QN_GEN_SAMPLE;
    qn_gen__scratch_init(&s, &c);
    state = QN_NEWN((size_t)c.n + 1, uint8_t);
    for (size_t i = 0; i < n; i++) {
        qn_rng rng;
        qn_rng_init(&rng, &o.seed, i);
        if (!qn_gen__sample(&c, &rng, &s, state))
            continue;
        qn_solver_answer(g, &s.ans, state);
        if (s.ans.exact)
            out[got++] = s.ans.mp.presses;
    }
    free(state);
    qn_gen__scratch_release(&s);
    return got;
}

void qn_gen_rule_seed(const qn_solver *g, qn_seed *out)
{
    char hex[65];

    qn_rules_hash(qn_solver_rules(g), hex);
    qn_seed_parse(out, hex, NULL); /* 64 hex digits: always a seed */
}

const char *qn_gen_tiers(const qn_solver *g, const qn_distrib *d,
                         qn_tiers *out)
{
    uint64_t *p;
    size_t got;
    qn_seed seed;

    if (qn_tiers_from_rules(out, qn_solver_rules(g)))
        return "rule";
    if (d) {
        qn_tiers_from_distrib(out, d);
        return "distribution";
    }
    p = QN_NEWN(QN_GEN_TIER_SAMPLE, uint64_t);
    qn_gen_rule_seed(g, &seed);
    got = qn_gen_sample_presses(g, &seed, p, QN_GEN_TIER_SAMPLE);
    qn_tiers_from_samples(out, p, got,
                          (uint64_t)qn_solver_ncells(g) *
                              (qn_solver_colours(g) - 1));
    free(p);
    return "sample";
}
