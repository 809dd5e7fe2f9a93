/*
 * gen.h: reproducible, graded, solvable puzzles.
 *
 * Candidate i of a batch depends only on (batch seed, i): its random
 * stream is qn_rng_init(seed, i). The run looks at candidates in index
 * order, keeps those that meet the target and are new up to the board's
 * symmetries, and stops after `count` of them. Workers compute candidates
 * in blocks, in parallel; the calling thread takes blocks in index order,
 * so the output is the same for any number of threads.
 *
 * How a candidate is made (see gen_candidate.c for the argument):
 *   SAMPLE      a uniformly random state, moved onto the solvable states by
 *               the minimal repair (a fixed translation per coset, so the
 *               result is uniform over solvable states); the goal itself
 *               is redrawn.
 *   EXHAUSTIVE  a uniformly random state among all solvable states whose
 *               minimal press count is in the target range, drawn from the
 *               exact distribution (rules with at most 2^26 states).
 *               With lit-cell bounds or unique optima, uniform among the
 *               states that also meet those (the target's census).
 *   CLIMB       a SAMPLE candidate moved press by press toward the target
 *               range (moves that do not leave it farther), every step
 *               graded exactly; candidates that do not arrive are dropped.
 *               It stops at the first count of the range it reaches, so a
 *               range A..B mostly yields A.
 *   SPREAD      equal numbers of puzzles at every press count of the range
 *               (see "Spread" below): candidate i aims at the range's
 *               (i mod W)-th count and is an EXHAUSTIVE draw among that
 *               count's target states (rules with the exact distribution)
 *               or a CLIMB to exactly that count (other rules).
 * Every candidate is graded exactly before it can be emitted.
 *
 * Spread. The counts of a spread are the range's press counts that have
 * at least one puzzle in the target (exact distribution), or, on other
 * rules, the counts of A..B (an open B estimated, see qn_gen_target_info;
 * never past the coset bound) that pilot climbs aimed at them reach
 * often enough: counting up from A, the first count one of its pilot
 * climbs reaches, then each next count while QN_GEN_PILOT_ARRIVALS of
 * its climbs arrive before it is given up (a count arriving once in 250
 * climbs nearly always, once in 1,000 about half the time, once in 5,000
 * nearly never; see QN_GEN_PILOT_CLIMBS). The first count short of that
 * ends the spread: it and the counts above it are left out (the plan
 * says which, and what its climbs did), since every count gets as many
 * puzzles and a count seldom reached would make the whole run wait on
 * it. When none of the first four counts is reached, all of A..B are
 * kept, A alone of an open range (the plan says it cannot tell). The run
 * takes the candidates in index order and emits an on-target new puzzle
 * at count v only when no other count still having puzzles has fewer
 * emitted than v: so after any number N of puzzles every count has N / W
 * of them, rounded down or up,
 * except counts that ran out of distinct puzzles, which have all of
 * theirs. Without the exact distribution how many a count has is not
 * known: a count is taken to have run out (retired) when QN_GEN_DRY
 * candidates in a row aimed at it, while it held the others back, reached
 * it but brought nothing new (a puzzle seen before, or refused by emit).
 * The rule does not look at `count`, so the first N puzzles of a longer
 * run are a shorter run's (a larger -n extends a run), and it is decided
 * in index order on the calling thread, so shards, resumes and --jobs
 * give the same puzzles.
 */
#ifndef QN_GEN_H
#define QN_GEN_H

#include "quench/generate.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/rng.h"
#include "solve/solver.h"

struct qn_distrib;
struct qn_tiers;

const char *qn_gen_mode_name(qn_gen_mode m);

/* SPREAD without the exact distribution: candidates in a row that reach
 * a count holding the others back but bring nothing new before the count
 * is retired (see "Spread" above). */
#define QN_GEN_DRY 256

/* SPREAD without the exact distribution: pilot climbs aim at a count
 * until QN_GEN_PILOT_ARRIVALS of them arrive, or they number
 * QN_GEN_PILOT_CLIMBS, or QN_GEN_PILOT_REACH for each arrival plus one
 * (none in the first 2,048, at most one in the first 4,096, ...); a count
 * after the first is kept when its arrivals came (see "Spread" above). */
#define QN_GEN_PILOT_CLIMBS 8192
#define QN_GEN_PILOT_ARRIVALS 8
#define QN_GEN_PILOT_REACH 2048

/*
 * Shards. Shard I of N emits exactly the puzzles of the unsharded run
 * whose candidate index is I mod N: every shard still makes every
 * candidate's state and canonical form (cheap), so that "new up to
 * symmetry" and "stop after count" are decided exactly as in the single
 * run, but grades, formats and hands over only its own candidates. That
 * split needs a target that does not depend on the grade (no press range,
 * tier or unique-optimum filter); with such a target every shard grades
 * every candidate, which is still exact but not faster.
 */

/* Defaults: count 1, any presses >= 1, 1 job, AUTO. */
void qn_gen_opts_init(qn_gen_opts *o);

/*
 * Plan a run without running it: choose the mode, check the target and
 * fill *info (for a caller, e.g. a campaign, that reports each section's
 * size before generating). Returns QN_OK; QN_EINVAL for an impossible
 * target, with a message that says why: an empty range, a range past the
 * most presses any state needs (exact, or the coset bound), more puzzles
 * asked than the target holds ("only 1049 distinct puzzles need exactly
 * 15 presses on classic-5x5; asked for 2000": the census, with the exact
 * distribution; on any rule, more than the rule's puzzles in all, counted
 * by qn_image_orbits when the count passes (solvable states - 1) /
 * symmetries), or a rule no puzzle of which can be graded exactly;
 * QN_ELIMIT when the pilots pass o->plan_budget. Costs what the run's own
 * planning costs: the census with a distribution (0.02-1 s for classic
 * 5x5), else a pilot of 20,000 samples for a restricted target and, for
 * a spread, climbs aimed at each count until QN_GEN_PILOT_ARRIVALS
 * arrive: at most QN_GEN_PILOT_CLIMBS for each count kept and the one
 * that ends it, QN_GEN_PILOT_REACH for each of the (at most 4) counts
 * before the first reached (classic 9x9 35..: about 5,000 climbs, 0.4
 * million grades; o->jobs threads share them).
 */
int qn_gen_plan(const qn_solver *solver, const qn_gen_opts *o,
                qn_gen_target_info *info, qn_err *err);

/*
 * The same plan, kept to run later: *out (the caller's, freed with
 * qn_gen_prepared_free) holds its own copy of *o and whatever the plan
 * computed (census, spread counts), so that qn_gen_run_prepared does not
 * plan again; info as qn_gen_plan. A caller can so refuse an impossible
 * target before it creates anything (generate --db), or report a plan and
 * run it. On failure *out is NULL.
 */
typedef struct qn_gen_prepared qn_gen_prepared;
int qn_gen_prepare(qn_gen_prepared **out, const qn_solver *solver,
                   const qn_gen_opts *o, qn_gen_target_info *info, qn_err *err);
void qn_gen_prepared_free(qn_gen_prepared *p); /* NULL-safe */
/* 1 when p holds a census (memory up to about 1/4 byte per solvable
 * state): a caller holding many plans may free it and prepare again. */
int qn_gen_prepared_heavy(const qn_gen_prepared *p);

/*
 * What a spread's plan left out, in words (appended to out): "37..41 left
 * out: 0 of 2048 pilot climbs aimed at 37 arrived, and a count is kept
 * when 8 of at most 8192 do", after "1..2 not reached: ..." when counts
 * at the start were not. Returns 0 (nothing appended) when nothing was
 * left out, or the spread is not a pilot's (exact distribution, cannot
 * tell). out's failed flag says whether memory ran out.
 */
int qn_gen_describe_left_out(qn_buf *out, const qn_gen_target_info *t);

/*
 * Generate. Returns QN_OK when `count` puzzles were emitted; QN_EINVAL
 * for an empty or too small target (checked before any work when the
 * distribution or the board's bounds prove it, see qn_gen_plan), or when
 * no puzzle can be graded exactly
 * (the kernel is past the solver's walk limit: qn_solver_check_exact);
 * QN_ELIMIT when max_draws ran out first
 * (st says how many were emitted); QN_ERR when stopped by *stop or emit.
 */
int qn_gen_run(const qn_solver *solver, const qn_gen_opts *o,
               const qn_gen_hooks *h, qn_gen_stats *st, qn_err *err);
/* Run a prepared plan (once): as qn_gen_run with its options. */
int qn_gen_run_prepared(qn_gen_prepared *p, const qn_gen_hooks *h,
                        qn_gen_stats *st, qn_err *err);

/*
 * Regenerate candidate `index` alone (what the run computed for it),
 * into caller buffers of ncells bytes. Returns 1 if it is on target, 0
 * if not, QN_ENOMEM when out of memory.
 */
int qn_gen_candidate(const qn_solver *solver, const qn_gen_opts *o,
                     uint64_t index, uint8_t *state, uint64_t *presses);

/* The rule's own seed (its content hash, qn_rules_hash): what sampled
 * tiers and `rules show --sample` draw from, the same on every run. */
void qn_gen_rule_seed(const qn_solver *solver, qn_seed *out);

/* States sampled for default tiers when the exact distribution is out of
 * reach. */
#define QN_GEN_TIER_SAMPLE 4096

/*
 * The tiers runs grade with (distrib.h, "Difficulty model"): the rule's
 * own; else cut from d (the rule's exact distribution, or NULL); else from
 * the exact press counts of QN_GEN_TIER_SAMPLE uniform solvable states
 * drawn from the rule's own seed, so every run and `rules show` cut the
 * same ones. Returns where they came from: "rule", "distribution" or
 * "sample" (static); NULL when out of memory.
 */
const char *qn_gen_tiers(const qn_solver *solver, const struct qn_distrib *d,
                         struct qn_tiers *out);

/*
 * The tiers a run of rule r grades with, made as `generate` makes them:
 * qn_gen_tiers with the exact distribution when it is within reach.
 * Returns their source as qn_gen_tiers does, or NULL (out->n = 0) when r
 * does not compile into a solver, or when out of memory (then err, may
 * be NULL, says QN_ENOMEM; else it is left alone).
 */
const char *qn_gen_rule_tiers(const qn_rules *r, struct qn_tiers *out,
                              qn_err *err);

/*
 * The exact minimal press counts of n uniform solvable states (SAMPLE
 * candidates 0..n-1 of a stream derived from seed), for tiers cut from a
 * sample when the exact distribution is out of reach. Counts that could
 * not be proven minimal are left out; *got says how many were written.
 * QN_OK, or QN_ENOMEM.
 */
int qn_gen_sample_presses(const qn_solver *solver, const qn_seed *seed,
                          uint64_t *out, size_t n, size_t *got);

/*
 * Before qn_gen_tiers (issue #35): how long it will take, in seconds
 * (wall clock, at the machine's present load), from a short timed probe
 * of the first states of its sample (about 0.1 s at most, unless a
 * single state takes longer); *probed says how many were graded. 0
 * (and *probed 0) when qn_gen_tiers samples nothing: the rule has its
 * own tiers, d is given, or no state can be graded exactly; -1 when out
 * of memory.
 */
double qn_gen_tiers_estimate(const qn_solver *solver,
                             const struct qn_distrib *d, size_t *probed);

#endif
