/*
 * gen.c: the generator (see gen.h for the contract): the options, the plan
 * of a run (mode, target checks, the pilot that measures a target's
 * rarity) and the entry points; candidates are made in gen_candidate.c and
 * run in blocks by gen_run.c.
 */
#include "quench/gen.h"

#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "quench/distrib.h"
#include "quench/mem.h"

#define PILOT 20000       /* SAMPLE draws that estimate a target's rarity */
#define CLIMB_RARITY 1e-4 /* rarer targets are climbed to, not sampled */

const char *qn_gen_mode_name(qn_gen_mode m)
{
    static const char *const names[] = {"auto", "sample", "exhaustive",
                                        "climb"};
    return (unsigned)m < 4 ? names[m] : "?";
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

/* Fraction of uniform samples on target, from a pilot run. */
static double pilot(const genctx *c)
{
    scratch s;
    uint8_t *state = QN_NEWN((size_t)c->n + 1, uint8_t);
    uint64_t hits = 0;
    /* a seed of its own, so the pilot never shares candidate streams */
    qn_gen_opts o = *c->o;
    genctx pc = *c;

    o.seed.b[0] ^= 0x5a;
    pc.o = &o;
    qn_gen__scratch_init(&s, c);
    for (uint64_t i = 0; i < PILOT; i++)
        hits += (uint64_t)candidate(&pc, QN_GEN_SAMPLE, i, &s, state);
    qn_gen__scratch_release(&s);
    free(state);
    return (double)hits / PILOT;
}

static int restricted(const qn_gen_opts *o)
{
    return o->lo > 1 || o->hi != UINT64_MAX || o->unique_optimum ||
           o->min_lit > 0;
}

/* Choose the mode and check the target is not empty. */
static int plan_run(genctx *c, qn_gen_stats *st, qn_err *err)
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
                          "no state needs %llu presses: %d cells allow at "
                          "most %llu",
                          (unsigned long long)o->lo, c->n,
                          (unsigned long long)maxp);
    if (o->min_lit > c->n)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "--min-lit %d exceeds the %d cells", o->min_lit,
                          c->n);
    if (o->distrib) {
        uint64_t total = qn_distrib_total(o->distrib);
        c->range_total = 0;
        for (size_t m = (size_t)o->lo;
             m < qn_distrib_len(o->distrib) && m <= o->hi; m++)
            c->range_total += qn_distrib_count(o->distrib, m);
        if (c->range_total == 0)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "no solvable state needs %llu..%llu presses "
                              "(the most any needs is %zu)",
                              (unsigned long long)o->lo,
                              (unsigned long long)o->hi,
                              qn_distrib_len(o->distrib) - 1);
        st->rarity = (double)c->range_total / (double)total;
        st->rarity_exact = 1;
    }
    c->mode = o->mode;
    if (c->mode == QN_GEN_AUTO) {
        if (!restricted(o))
            c->mode = QN_GEN_SAMPLE;
        else if (o->distrib && (o->lo > 1 || o->hi != UINT64_MAX))
            c->mode = QN_GEN_EXHAUSTIVE;
        else {
            double f = pilot(c);
            if (!st->rarity_exact)
                st->rarity = f;
            c->mode = f >= CLIMB_RARITY ? QN_GEN_SAMPLE : QN_GEN_CLIMB;
        }
    }
    if (c->mode == QN_GEN_EXHAUSTIVE && !o->distrib)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "exhaustive selection needs the exact "
                          "distribution");
    st->mode = c->mode;
    return QN_OK;
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

int qn_gen_run(const qn_solver *g, const qn_gen_opts *o, const qn_gen_hooks *h,
               qn_gen_stats *st, qn_err *err)
{
    genctx c;
    int rc;

    memset(st, 0, sizeof(*st));
    st->rarity = -1;
    ctx_init(&c, g, o);
    if ((rc = plan_run(&c, st, err)) != QN_OK)
        return rc;
    if (o->count == 0)
        return QN_OK;
    rc = qn_gen__run(&c, h, st);
    if (rc == 1)
        return QN_OK;
    if (rc == 2)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "found %llu of %llu puzzles in %llu draws: the "
                          "target is too rare or has too few distinct "
                          "puzzles",
                          (unsigned long long)st->emitted,
                          (unsigned long long)o->count,
                          (unsigned long long)st->draws);
    return qn_err_set(err, QN_ERR, 0, 0, "stopped after %llu puzzles",
                      (unsigned long long)st->emitted);
}

int qn_gen_candidate(const qn_solver *g, const qn_gen_opts *o, uint64_t index,
                     uint8_t *state, uint64_t *presses)
{
    genctx c;
    qn_gen_stats st;
    scratch s;
    int ok;

    memset(&st, 0, sizeof(st));
    ctx_init(&c, g, o);
    if (plan_run(&c, &st, NULL) != QN_OK)
        return 0;
    qn_gen__scratch_init(&s, &c);
    ok = candidate(&c, c.mode, index, &s, state);
    *presses = s.ans.mp.presses;
    qn_gen__scratch_release(&s);
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
