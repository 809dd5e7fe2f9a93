/*
 * test_gen.c: the generator. Same seed, same puzzles, for any number of
 * threads; every puzzle solvable, exactly graded, on target and distinct
 * up to symmetry; SAMPLE uniform over the solvable states (chi-square
 * against the exact uniform distribution); EXHAUSTIVE and CLIMB reach
 * targets; empty targets refused at once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/minpress.h"
#include "generate/distrib.h"
#include "generate/gen.h"
#include "rules/canon.h"
#include "t.h"

typedef struct sink {
    int n;
    uint64_t count;
    uint8_t *states; /* count * n */
    uint64_t *index, *presses;
} sink;

static int collect(void *ctx, const qn_gen_puzzle *p)
{
    sink *s = ctx;

    s->states = realloc(s->states, (s->count + 1) * (size_t)s->n);
    s->index = realloc(s->index, (s->count + 1) * sizeof(uint64_t));
    s->presses = realloc(s->presses, (s->count + 1) * sizeof(uint64_t));
    memcpy(s->states + s->count * (size_t)s->n, p->state, (size_t)s->n);
    s->index[s->count] = p->index;
    s->presses[s->count] = p->presses;
    s->count++;
    return 0;
}

static void sink_free(sink *s)
{
    free(s->states);
    free(s->index);
    free(s->presses);
}

static qn_solver *load(const char *path, qn_rules **r)
{
    qn_solver *solver = NULL;
    qn_err err;

    if (qn_rules_load_file(r, path, &err) != QN_OK ||
        qn_solver_new(&solver, *r, &err) != QN_OK)
        T_FAILF("%s: %s", path, err.msg);
    return solver;
}

static int run(const qn_solver *solver, const qn_gen_opts *o, sink *s)
{
    qn_gen_hooks h = {NULL, collect, NULL, s, NULL};
    qn_gen_stats st;
    qn_err err;

    memset(s, 0, sizeof(*s));
    s->n = qn_solver_ncells(solver);
    return qn_gen_run(solver, o, &h, &st, &err);
}

/* Every emitted puzzle: solvable, graded exactly, on target, distinct. */
static void check_puzzles(const qn_solver *solver, const qn_rules *r,
                          const sink *s, uint64_t lo, uint64_t hi)
{
    int n = qn_solver_ncells(solver);
    qn_seen *seen = qn_seen_new(n, qn_solver_colours(solver), NULL);
    uint8_t *canon = malloc((size_t)n), *d = malloc((size_t)n);
    uint8_t *x = malloc((size_t)n);
    const uint8_t *goal = qn_rules_goal(r);
    long bad = 0;

    for (uint64_t i = 0; i < s->count; i++) {
        const uint8_t *st = s->states + i * (size_t)n;
        qn_minpress mp;
        for (int c = 0; c < n; c++)
            d[c] = (uint8_t)((st[c] + qn_solver_colours(solver) - goal[c]) %
                             qn_solver_colours(solver));
        if (qn_minpress_solve(qn_solver_system(solver), &mp, x, d, UINT64_MAX,
                              NULL) != QN_OK ||
            mp.presses != s->presses[i] || mp.presses < lo || mp.presses > hi)
            bad++;
        qn_canon_form(r, canon, st);
        if (!qn_seen_add(seen, canon, i, NULL))
            bad++;
    }
    T_EQ(bad, 0);
    qn_seen_free(seen);
    free(canon);
    free(d);
    free(x);
}

static void test_reproducible(void)
{
    qn_rules *r;
    qn_solver *solver = load("rules/classic-5x5.yaml", &r);
    qn_gen_opts o;
    sink a, b, c;

    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "c0ffee", NULL);
    o.count = 3000;
    o.max_draws = 1000000;
    T_EQ(run(solver, &o, &a), QN_OK);
    o.jobs = 2;
    T_EQ(run(solver, &o, &b), QN_OK);
    o.jobs = 3;
    T_EQ(run(solver, &o, &c), QN_OK);
    T_EQ(a.count, 3000);
    {
        sink d; /* and in the caller's thread */
        o.jobs = 0;
        T_EQ(run(solver, &o, &d), QN_OK);
        T_EQ(d.count, 3000);
        T_CHECK(!memcmp(a.states, d.states, a.count * 25));
        sink_free(&d);
    }
    T_CHECK(a.count == b.count && a.count == c.count);
    T_CHECK(!memcmp(a.states, b.states, a.count * 25) &&
            !memcmp(a.states, c.states, a.count * 25));
    T_CHECK(!memcmp(a.index, b.index, a.count * 8));
    check_puzzles(solver, r, &a, 1, 25);
    /* a puzzle regenerates alone from (seed, index) */
    {
        uint8_t st[25];
        uint64_t pr;
        T_CHECK(qn_gen_candidate(solver, &o, a.index[1234], st, &pr));
        T_CHECK(!memcmp(st, a.states + 1234 * 25, 25));
    }
    /* a different seed gives different puzzles */
    qn_seed_parse(&o.seed, "c0ffef", NULL);
    sink_free(&b);
    T_EQ(run(solver, &o, &b), QN_OK);
    T_CHECK(memcmp(a.states, b.states, 25 * 100) != 0);
    sink_free(&a);
    sink_free(&b);
    sink_free(&c);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/*
 * SAMPLE is uniform over the solvable states other than the goal. On 4x4
 * classic (4096 solvable of 65536 states, so the repair really moves
 * states) count how often each candidate state appears and compare with
 * the uniform expectation: chi-square with 4094 degrees of freedom, whose
 * mean is 4094 and standard deviation 90.5; 5 deviations is a bound a
 * correct sampler passes and a biased one (e.g. a repair that depends on
 * the state rather than its coset) fails by far.
 */
static void test_uniform(void)
{
    qn_rules *r;
    qn_solver *solver = load("rules/whack-a-mole-4x4.yaml", &r);
    qn_gen_opts o;
    enum { PER = 40, STATES = 4095 };
    uint32_t *hits = calloc(1 << 16, sizeof(uint32_t));
    uint8_t st[16];
    uint64_t pr, draws = (uint64_t)PER * STATES, solvable = 0;
    double chi = 0;

    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "5eed", NULL);
    o.mode = QN_GEN_SAMPLE;
    for (uint64_t i = 0; i < draws; i++) {
        uint32_t key = 0;
        qn_gen_candidate(solver, &o, i, st, &pr); /* off-target is fine here */
        for (int c = 0; c < 16; c++)
            key |= (uint32_t)st[c] << c;
        hits[key]++;
    }
    for (uint32_t key = 1; key < (1u << 16); key++) {
        uint8_t s[16];
        for (int c = 0; c < 16; c++)
            s[c] = (uint8_t)(key >> c & 1);
        if (!qn_system_is_solvable(qn_solver_system(solver), s)) {
            if (hits[key])
                T_FAILF("unsolvable state %u sampled", key);
            continue;
        }
        solvable++;
        chi += (hits[key] - (double)PER) * (hits[key] - (double)PER) / PER;
    }
    T_EQ(hits[0], 0); /* never the goal */
    T_EQ(solvable, STATES);
    if (chi > 4094 + 5 * 90.5)
        T_FAILF("chi-square %.1f over 4094 dof: not uniform", chi);
    else
        t_pass++;
    free(hits);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* 15 presses on 5x5: 7350 states exist (A079873); exhaustive reaches them. */
static void test_exhaustive(void)
{
    qn_rules *r;
    qn_solver *solver = load("rules/classic-5x5.yaml", &r);
    qn_distrib *dist = NULL;
    qn_gen_opts o;
    qn_gen_stats st;
    qn_gen_hooks h;
    sink s;
    qn_err err;

    T_EQ(qn_distrib_compute(&dist, qn_solver_system(solver), &err), QN_OK);
    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "15", NULL);
    o.count = 100;
    o.lo = o.hi = 15;
    o.distrib = dist;
    o.max_draws = 100000;
    memset(&s, 0, sizeof(s));
    s.n = 25;
    h = (qn_gen_hooks){NULL, collect, NULL, &s, NULL};
    T_EQ(qn_gen_run(solver, &o, &h, &st, &err), QN_OK);
    T_EQ(st.mode, QN_GEN_EXHAUSTIVE);
    T_EQ(s.count, 100);
    T_CHECK(st.rarity_exact && fabs(st.rarity * 8388608.0 - 7350) < 0.5);
    check_puzzles(solver, r, &s, 15, 15);
    sink_free(&s);
    /* an empty range is refused before any work */
    o.lo = 16, o.hi = 20;
    T_EQ(qn_gen_run(solver, &o, &h, &st, &err), QN_EINVAL);
    T_EQ(st.draws, 0);
    o.lo = 26, o.hi = 30;
    o.distrib = NULL;
    T_EQ(qn_gen_run(solver, &o, &h, &st, &err), QN_EINVAL);
    qn_distrib_free(dist);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* Filters: unique optimum and lit cells hold for every puzzle. */
static void test_filters(void)
{
    qn_rules *r;
    qn_solver *solver = load("rules/whack-a-mole-4x4.yaml", &r);
    qn_gen_opts o;
    sink s;
    long bad = 0;

    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "f117e5", NULL);
    o.count = 50;
    o.unique_optimum = 1;
    o.min_lit = 8;
    o.max_draws = 1000000;
    T_EQ(run(solver, &o, &s), QN_OK);
    for (uint64_t i = 0; i < s.count; i++) {
        int lit = 0;
        qn_answer a;
        qn_answer_init(&a, solver, NULL);
        qn_solver_answer(solver, &a, s.states + i * 16);
        for (int c = 0; c < 16; c++)
            lit += s.states[i * 16 + c] != 0;
        bad += a.mp.noptimal != 1 || lit < 8;
        qn_answer_release(&a);
    }
    T_EQ(bad, 0);
    T_EQ(s.count, 50);
    sink_free(&s);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* CLIMB reaches a range sampling rarely hits, every puzzle verified. */
static void test_climb(void)
{
    qn_rules *r;
    qn_solver *solver = load("rules/classic-5x5.yaml", &r);
    qn_gen_opts o;
    sink s;

    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "c11b", NULL);
    o.count = 20;
    o.lo = 14;
    o.hi = 15;
    o.mode = QN_GEN_CLIMB;
    o.jobs = 2;
    o.max_draws = 200000;
    T_EQ(run(solver, &o, &s), QN_OK);
    T_EQ(s.count, 20);
    check_puzzles(solver, r, &s, 14, 15);
    sink_free(&s);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* max_draws is exact, below one block and past several, and the run's
 * result does not depend on the number of workers. */
static void test_draw_limit(void)
{
    static const uint64_t limits[] = {5, 16, 17, 3000};
    qn_rules *r;
    qn_solver *solver = load("rules/classic-5x5.yaml", &r);

    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        uint64_t emitted = 0;
        for (int jobs = 0; jobs <= 3; jobs++) {
            qn_gen_opts o;
            qn_gen_stats st;
            qn_err err = QN_ERR_INIT;
            sink s;
            qn_gen_hooks h;

            qn_gen_opts_init(&o);
            qn_seed_parse(&o.seed, "d2a5", NULL);
            /* more than 3000 draws can find, fewer than the 1057823
             * puzzles that exist (asking for more is refused at once) */
            o.count = 100000;
            o.mode = QN_GEN_SAMPLE;
            o.max_draws = limits[i];
            o.jobs = jobs;
            memset(&s, 0, sizeof(s));
            s.n = 25;
            h = (qn_gen_hooks){NULL, collect, NULL, &s, NULL};
            T_EQ(qn_gen_run(solver, &o, &h, &st, &err), QN_ELIMIT);
            T_EQ(st.draws, limits[i]);
            T_CHECK(s.count == st.emitted && s.count <= limits[i]);
            if (jobs == 0)
                emitted = s.count;
            T_EQ(s.count, emitted);
            sink_free(&s);
        }
    }
    qn_solver_free(solver);
    qn_rules_free(r);
}

/*
 * Past the walk limit no grade is exact, so nothing can be emitted: the
 * run is refused before any draw. Classic 5x5 has 4 quiet patterns
 * (Anderson and Feil, 1998): limit 4 grades it, limit 3 cannot.
 */
static void test_walk_limit(void)
{
    qn_rules *r;
    qn_solver *solver = load("rules/classic-5x5.yaml", &r);
    qn_gen_opts o;
    qn_gen_stats st;
    qn_err err = QN_ERR_INIT;
    sink s;
    qn_gen_hooks h = {NULL, collect, NULL, &s, NULL};

    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "ab", NULL);
    o.count = 3;
    o.jobs = 0;
    o.max_draws = 1000;
    memset(&s, 0, sizeof(s));
    s.n = 25;
    qn_solver_set_walk_limit(solver, 3);
    T_EQ(qn_solver_check_exact(solver, &err), QN_ELIMIT);
    T_EQ(qn_gen_run(solver, &o, &h, &st, &err), QN_EINVAL);
    T_EQ(st.draws, 0);
    T_EQ(s.count, 0);
    T_CHECK(strstr(err.msg, "2^2 elements, more than the walk limit 3"));
    sink_free(&s);
    memset(&s, 0, sizeof(s));
    s.n = 25;
    qn_solver_set_walk_limit(solver, 4);
    T_EQ(qn_solver_check_exact(solver, NULL), QN_OK);
    T_EQ(qn_gen_run(solver, &o, &h, &st, &err), QN_OK);
    T_EQ(s.count, 3);
    sink_free(&s);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/*
 * Targets known before drawing (issue 20), on 3x3 Lights Out, which is
 * invertible: all 512 states are solvable and fall into 102 orbits under
 * the square's 8 symmetries (OEIS A054247), so 101 puzzles exist; with at
 * most one lit cell, 3 (a corner, an edge or the centre). A plan says so,
 * a run emits exactly those, and one more is refused before any draw.
 */
static void test_plan(void)
{
    qn_rules *r;
    qn_solver *solver = load("rules/classic-3x3.yaml", &r);
    qn_distrib *d = NULL;
    qn_gen_opts o;
    qn_gen_target_info info;
    qn_gen_stats st;
    qn_err err = QN_ERR_INIT;
    sink s;
    int lit_ok = 1;

    T_EQ(qn_distrib_compute(&d, qn_solver_system(solver), NULL), QN_OK);
    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "3", NULL);
    o.distrib = d;
    o.jobs = 0;
    o.max_draws = 100000;
    o.count = 101;
    o.max_lit = 0;
    o.min_lit = 1; /* restricted, so the census counts it: all but goal */
    T_EQ(qn_gen_plan(solver, &o, &info, &err), QN_OK);
    T_EQ(info.exact, 1);
    T_EQ((uint64_t)info.distinct, 101);
    T_EQ(info.states, 511);
    o.min_lit = 0;
    o.max_lit = 1;
    o.count = 3;
    T_EQ(qn_gen_plan(solver, &o, &info, &err), QN_OK);
    T_EQ((uint64_t)info.distinct, 3);
    T_EQ(info.mode, QN_GEN_EXHAUSTIVE);
    T_EQ(run(solver, &o, &s), QN_OK);
    T_EQ(s.count, 3);
    for (uint64_t i = 0; i < s.count; i++) {
        int lit = 0;
        for (int c = 0; c < 9; c++)
            lit += s.states[i * 9 + c] != qn_rules_goal(r)[c];
        lit_ok &= lit == 1;
    }
    T_CHECK(lit_ok);
    sink_free(&s);
    o.count = 4;
    {
        qn_gen_hooks h = {NULL, collect, NULL, &s, NULL};
        memset(&s, 0, sizeof(s));
        s.n = 9;
        T_EQ(qn_gen_run(solver, &o, &h, &st, &err), QN_EINVAL);
        T_EQ(st.draws, 0);
        T_CHECK(strstr(err.msg,
                       "only 3 distinct puzzles have at most 1 "
                       "lit cell on classic-3x3; asked for 4") != NULL);
        sink_free(&s);
    }
    qn_distrib_free(d);
    qn_solver_free(solver);
    qn_rules_free(r);
}

int main(void)
{
    test_reproducible();
    test_draw_limit();
    test_walk_limit();
    test_uniform();
    test_exhaustive();
    test_filters();
    test_climb();
    test_plan();
    return t_done();
}
