/*
 * distrib.h: the exact distribution of minimal press counts over all
 * solvable states of a rule, and the difficulty tiers derived from it.
 *
 * Difficulty model (grader version QN_GRADER_VERSION)
 * ---------------------------------------------------
 * A puzzle's difficulty is its exact minimal number of clicks: the least
 * sum(x_i), each x_i in 0..k-1, over all press plans x that bring the state
 * to the goal (minpress.h). Nothing else enters the grade: not the number
 * of optimal solutions, not the number of lit cells, not how a human would
 * find the plan. The grade is a named tier, an inclusive range of press
 * counts:
 *
 *   1. When the rule file has `grading:` tiers, those are used verbatim; a
 *      press count outside every tier gets no grade.
 *   2. Otherwise, when the rule has at most QN_DISTRIB_MAX_STATES solvable
 *      states, five tiers "easy", "medium", "hard", "expert", "master" are
 *      cut from the exact distribution: over the solvable states other than
 *      the goal, weighted by how many states need each press count, tier t
 *      ends at the press count whose cumulative share is nearest to 10 %,
 *      40 %, 70 % and 95 % respectively (the first, easiest tier ends near
 *      the 10 % quantile; "master" is the hardest ~5 %). Ranges are then
 *      forced to be non-empty and contiguous, so the tiers cover 1..max
 *      exactly (max = the largest minimal press count of the rule). With
 *      fewer than five distinct press counts, each count is its own tier,
 *      named from the start of the list. Classic 5x5 gives easy 1-7,
 *      medium 8-9, hard 10, expert 11-12, master 13-15.
 *   3. Otherwise (too many states to enumerate) the same cut is applied to
 *      the press counts of a uniform sample of solvable states supplied by
 *      the generator, and the last tier is extended to an upper bound the
 *      caller supplies, since a sample may miss the hardest states. The
 *      generator draws that sample from the rule's own seed (qn_gen_tiers),
 *      so the tiers are the rule's, whatever the run's seed (grader
 *      version 2; version 1 drew it from the run's seed).
 *
 * Under rule 2 a uniformly random solvable state thus lands in "master"
 * roughly 5 % of the time (press counts are discrete: 5.6 % for classic
 * 5x5, whose shipped rule file has its own tiers; the numbers above are
 * what the default would be). The goal itself (0 presses) is never
 * graded.
 *
 * Exact distribution: the minimal press count of an offset d (a solvable
 * state minus the goal) is the distance from 0 to -d in the Cayley graph of
 * the image of A with the n single-press moves A e_j, since presses commute
 * and x_j < k. qn_distrib_compute labels every image element with its
 * distance, either by a breadth-first search (O(|image| * n)) or, for
 * k = 2 with a small kernel, by a direct sweep over the kernel coset of
 * every state (O(|image| * |kernel|) popcounts). Classic 5x5 (2^23 states)
 * takes a few tens of milliseconds.
 */
#ifndef QN_DISTRIB_H
#define QN_DISTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/jsonw.h"
#include "engine/system.h"
#include "rules/rules.h"

/*
 * The grading algorithm's version: bump whenever grading changes (the
 * difficulty model above, the default tier cuts, the names); it is stored
 * with every grade.
 */
#define QN_GRADER_VERSION 3

/* The oldest grader version whose tiers and grades are this version's:
 * version 3 added the human grade (human.h) beside them and changed
 * neither, so a grade of version 2 or 3 names the same tier. */
#define QN_GRADER_TIERS_SINCE 2

/* The largest image (number of solvable states) qn_distrib_compute takes:
 * its table holds 1 byte per state (2 for k > 2 with long distances), 64
 * MB at the limit. */
#define QN_DISTRIB_MAX_STATES ((uint64_t)1 << 26)

typedef struct qn_distrib qn_distrib;

/*
 * Compute the exact histogram of minimal presses over the image of the
 * system's matrix (every solvable state, as an offset from the goal).
 * sys is borrowed only during the call. On success *out is the caller's
 * (qn_distrib_free); on failure *out is NULL. Errors: QN_ELIMIT when the
 * image has more than QN_DISTRIB_MAX_STATES elements (the message gives
 * its size). The result is immutable: any number of threads may query it.
 *
 * Method: k = 2 with 2^(nullity) <= 8 * ncols sweeps every state's kernel
 * coset (popcounts, sequential); other k = 2 systems run a BFS whose
 * moves are XORs; k > 2 runs a BFS over coordinates from a diagonal form
 * of A over Z/k, a move being a few table lookups. Measured (one core):
 * classic 5x5 0.045 s; 4x4 plus mod 3 (4.8 M states) 0.41 s; at the
 * limit, 2^26 states, 1.1 s for a k = 2 rank-26 system with kernel 2^4 and
 * 5-7 s with kernel 2^14 (BFS, 40 cells). Memory: 1 byte per state (2 for
 * k > 2 when distances may pass 254), a rank directory of at most 1/4
 * byte per state, and during a BFS level lists of 1/4 byte per state.
 * Errors (with *out NULL): QN_ELIMIT past 2^26 states, QN_ENOMEM.
 */
int qn_distrib_compute(qn_distrib **out, const qn_system *sys, qn_err *err);
void qn_distrib_free(qn_distrib *d); /* NULL-safe */

/* Largest minimal press count + 1 (>= 1: the goal needs 0 presses). */
size_t qn_distrib_len(const qn_distrib *d);
/* Number of solvable states needing exactly m presses (0 when m >= len). */
uint64_t qn_distrib_count(const qn_distrib *d, size_t m);
/* Number of solvable states (the image size, goal included). */
uint64_t qn_distrib_total(const qn_distrib *d);
/* Cells of a state (the system's rows): the length of qn_distrib_nth's
 * output. */
int qn_distrib_ncells(const qn_distrib *d);

/*
 * The i-th (0-based) state needing exactly m presses: writes the offset
 * d_out (ncells values < k; the puzzle is goal + d_out, i.e. the system
 * state with A x + d_out = 0) and returns its image index. Requires
 * m < len and i < qn_distrib_count(d, m) (asserted).
 *
 * Order: increasing image index, a fixed function of the matrix (the index
 * of a state is the mixed-radix number of its coordinates in a
 * decomposition of the image computed by qn_distrib_compute: for k = 2 the
 * bits of its coordinates over the pivot columns of A's reduced echelon
 * form). So i -> state is a bijection from 0..count-1 onto the states with
 * m presses, and a uniform i gives a uniform such state (for a uniform
 * state in a range of press counts, first pick m with probability
 * proportional to its count). Cost: a binary
 * search over blocks plus a scan of one block (fewer than max(256, 32 *
 * len) table entries, counted 64 at a time) and O(ncells * log2 |image|) to
 * decode.
 */
uint64_t qn_distrib_nth(const qn_distrib *d, size_t m, uint64_t i,
                        uint8_t *d_out);

/* Write the histogram as a JSON array of integers: [count for 0, 1, ...]. */
void qn_distrib_json(const qn_distrib *d, qn_jsonw *w);

/* ---------------------------------------------------------------------
 * Targets and their census. A target is a set of solvable states other
 * than the goal, by properties every symmetry of the board preserves, so
 * it is a union of puzzles (orbits). Plain value.
 */
typedef struct qn_target {
    uint64_t lo, hi;      /* minimal press counts, inclusive (1..: not the
                             goal; hi UINT64_MAX: no bound) */
    int min_lit, max_lit; /* cells that differ from the goal, inclusive;
                             max_lit 0: no bound */
    int unique_optimum;   /* 1: exactly one optimal press plan */
} qn_target;

/* Every state but the goal: presses 1.., any lit cells, any optimum. */
void qn_target_init(qn_target *t);

/*
 * Say what the target asks, as the predicate of "N distinct puzzles ...":
 * "need exactly 15 presses", "need 13..15 presses and have at least 25 lit
 * cells", "have a unique optimal plan", "exist" (everything). one: the
 * singular ("needs", "has", "exists"). out's failed flag says whether
 * memory ran out.
 */
void qn_target_describe(qn_buf *out, const qn_target *t, int one);

/*
 * The census of a target: per press count m, the target's solvable states
 * and its distinct puzzles, counted as the generator dedups them (up to
 * the rule's symmetries, qn_rules_sym), and the i-th of its states.
 *
 * Counting: a press range alone reads the distribution; lit-cell bounds
 * and unique optima scan every state once (lit cells by an incremental
 * decode; unique optima from the distance table, distrib_unique.c), and
 * then keep one bit per state and a directory like qn_distrib_nth's.
 * Distinct puzzles come from Burnside's lemma: the states each symmetry
 * fixes are enumerated (k^cycles of them) and located by solving. Classic
 * 5x5: a press range ~0.1 s; with lit bounds ~0.1 s more; unique optima
 * ~0.5 s more.
 *
 * d, sys and r must describe the same rule (sys the system d was computed
 * from, r its rules); d and r are borrowed and must outlive the census; sys
 * only during the call. The census is immutable: threads may share it.
 * Errors (with *out NULL): QN_ELIMIT when unique optima are asked on a
 * rule of 254 or more presses, or a symmetry fixes more than 2^26 states;
 * QN_ENOMEM.
 */
typedef struct qn_census qn_census;

int qn_census_new(qn_census **out, const qn_distrib *d, const qn_system *sys,
                  const qn_rules *r, const qn_target *t, qn_err *err);
void qn_census_free(qn_census *c); /* NULL-safe */

/* qn_distrib_len of its distribution: every m below has a count. */
size_t qn_census_len(const qn_census *c);
/* Target states needing exactly m presses (0 outside the target). */
uint64_t qn_census_states(const qn_census *c, size_t m);
/* Distinct puzzles among them (up to symmetry; 0 outside the target). */
uint64_t qn_census_distinct(const qn_census *c, size_t m);
/*
 * The i-th target state needing m presses (i < qn_census_states(c, m),
 * asserted) as an offset from the goal, as qn_distrib_nth; returns its
 * image index. For a press-range target it is qn_distrib_nth itself.
 */
uint64_t qn_census_nth(const qn_census *c, size_t m, uint64_t i,
                       uint8_t *d_out);

/*
 * How many orbits the rule's symmetry group (qn_rules_sym) has on its
 * solvable states, the goal's included: so a rule holds *out - 1 distinct
 * puzzles in all, as the generator dedups them. Needs neither the
 * distribution nor an enumeration: Burnside's lemma, each symmetry's fixed
 * solvable states counted by linear algebra (the states constant on its
 * cycles that meet the cokernel's conditions: distrib_orbits.c), one
 * small factorisation per symmetry. sys and r must be the same rule.
 * Errors: QN_ELIMIT when the rule has 2^64 or more solvable states,
 * QN_ENOMEM.
 */
int qn_image_orbits(const qn_system *sys, const qn_rules *r, uint64_t *out,
                    qn_err *err);

/* ---------------------------------------------------------------------
 * Grading tiers: named inclusive press-count ranges, in increasing order,
 * disjoint. Plain value; no heap.
 */
#define QN_TIERS_MAX QN_RULES_MAX_TIERS
#define QN_TIERS_DEFAULT 5 /* easy, medium, hard, expert, master */

typedef struct qn_tiers {
    size_t n;                                       /* 0..QN_TIERS_MAX */
    char name[QN_TIERS_MAX][QN_RULES_MAX_NAME + 1]; /* NUL-terminated */
    uint64_t lo[QN_TIERS_MAX], hi[QN_TIERS_MAX];    /* lo <= hi */
} qn_tiers;

/*
 * Copy the rule file's `grading:` tiers into out and return their number
 * (0 when the rule has none: derive default tiers instead).
 */
size_t qn_tiers_from_rules(qn_tiers *out, const qn_rules *r);

/*
 * Default tiers cut from the exact distribution (model above): covering
 * 1..len-1 with no gap or overlap. out->n is 0 when the only solvable
 * state is the goal.
 */
int qn_tiers_from_distrib(qn_tiers *out, const qn_distrib *d);

/*
 * Default tiers cut from the minimal press counts of n sampled states
 * (zeros, the goal, are ignored; the array is not changed). The tiers
 * cover 1..max(max_presses, largest sample): pass a proven upper bound on
 * the press count (e.g. ncells * (k - 1)) or 0 to end at the largest
 * sample. out->n is 0 when that range is empty.
 * Both return QN_OK, or QN_ENOMEM (out not changed).
 */
int qn_tiers_from_samples(qn_tiers *out, const uint64_t *presses, size_t n,
                          uint64_t max_presses);

/* The name of default tier i < QN_TIERS_DEFAULT ("easy", ...); static. */
const char *qn_tiers_default_name(size_t i);

/* The tier containing `presses` (borrowed from t), or NULL if none does. */
const char *qn_tiers_grade(const qn_tiers *t, uint64_t presses);

/*
 * The tier called name: its index, or -1 when t has none. On -1 out gets
 * what to say about it: "its tiers: easy 1-5, ..." ("none") and the
 * closest names ("; did you mean 'hard'?", quench/suggest.h); out's
 * failed flag says whether memory ran out for them.
 */
long qn_tiers_find(const qn_tiers *t, const char *name, qn_buf *out);

#endif
