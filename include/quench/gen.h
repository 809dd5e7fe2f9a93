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
 *   CLIMB       a SAMPLE candidate moved press by press toward the target
 *               range (moves that do not leave it farther), every step
 *               graded exactly; candidates that do not arrive are dropped.
 * Every candidate is graded exactly before it can be emitted.
 */
#ifndef QN_GEN_H
#define QN_GEN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "quench/buf.h"
#include "quench/err.h"
#include "quench/solver.h"
#include "quench/rng.h"

struct qn_distrib;
struct qn_tiers;

typedef enum qn_gen_mode {
    QN_GEN_AUTO,
    QN_GEN_SAMPLE,
    QN_GEN_EXHAUSTIVE,
    QN_GEN_CLIMB
} qn_gen_mode;

const char *qn_gen_mode_name(qn_gen_mode m);

typedef struct qn_gen_opts {
    qn_seed seed;
    uint64_t count;       /* distinct puzzles wanted */
    uint64_t lo, hi;      /* accepted minimal press counts, inclusive */
    int unique_optimum;   /* 1: exactly one optimal plan */
    int min_lit;          /* at least this many cells differ from goal */
    int jobs;             /* worker threads; 0: none, the caller's thread
                             does the work (the output is the same) */
    uint64_t max_draws;   /* candidates to try before giving up (exactly) */
    qn_gen_mode mode;     /* AUTO: EXHAUSTIVE when a distribution is given
                             and the range is restricted, else SAMPLE, or
                             CLIMB when a pilot sample finds the target
                             rarer than 1 in 10^4 */
    const struct qn_distrib *distrib; /* optional, borrowed */
    const struct qn_tiers *tiers;     /* optional, borrowed: grades */
    uint64_t start_index; /* first candidate looked at (resuming a run) */
    uint64_t shard, nshards; /* emit only candidates with index % nshards
                                == shard (nshards 0 or 1: all); see below */
} qn_gen_opts;

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

/* One emitted puzzle; every pointer is borrowed for the callback. */
typedef struct qn_gen_puzzle {
    uint64_t index;       /* candidate number: (seed, index) remakes it */
    const uint8_t *state; /* ncells values as the player sees them */
    const uint8_t *canon; /* canonical form under the board's symmetries */
    uint64_t presses;     /* exact minimal press count */
    uint64_t noptimal;    /* optimal plans */
    int exact;            /* presses proven minimal */
    const uint8_t *plan;  /* lexicographically smallest optimal plan */
    int lit;              /* cells that differ from the goal */
    const char *grade;    /* tier name, or NULL */
    uint64_t uid;         /* the puzzle id (puzzle_id.h) */
    char id[17];          /* the same, 16 hex digits */
    const char *text;     /* what the formatter wrote, or NULL */
    size_t textlen;
} qn_gen_puzzle;

typedef struct qn_gen_stats {
    uint64_t draws;       /* candidates looked at */
    uint64_t on_target;   /* of those, meeting the target */
    uint64_t duplicates;  /* on target but seen before */
    uint64_t emitted;     /* by the whole run (all shards) */
    uint64_t other_shards;/* of those, emitted by other shards */
    qn_gen_mode mode;     /* the mode that ran */
    double rarity;        /* fraction of solvable states on target:
                             exact (EXHAUSTIVE), estimated (others), or
                             -1 when unknown */
    int rarity_exact;
} qn_gen_stats;

/* Runs in worker threads: format p into out (appending). */
typedef void qn_gen_format_fn(void *ctx, const qn_gen_puzzle *p,
                              qn_buf *out);
/*
 * Runs on the calling thread, in index order. Returns QN_GEN_EMITTED, or
 * QN_GEN_ALREADY when the puzzle turned out to be known already (e.g. a
 * database refused it as a duplicate: not counted), or QN_GEN_STOP.
 */
enum { QN_GEN_EMITTED = 0, QN_GEN_STOP = 1, QN_GEN_ALREADY = 2 };
typedef int qn_gen_emit_fn(void *ctx, const qn_gen_puzzle *p);
/* Runs on the calling thread every block: progress. */
typedef void qn_gen_progress_fn(void *ctx, const qn_gen_stats *st);

typedef struct qn_gen_hooks {
    qn_gen_format_fn *format; /* may be NULL */
    qn_gen_emit_fn *emit;
    qn_gen_progress_fn *progress; /* may be NULL */
    void *ctx;
    volatile sig_atomic_t *stop; /* set (e.g. by SIGINT) to stop early */
} qn_gen_hooks;

/*
 * Generate. Returns QN_OK when `count` puzzles were emitted; QN_EINVAL
 * for an empty target (checked before any work when the distribution or
 * the board's bounds prove it), or when no puzzle can be graded exactly
 * (the kernel is past the game's walk limit: qn_solver_check_exact);
 * QN_ELIMIT when max_draws ran out first
 * (st says how many were emitted); QN_ERR when stopped by *stop or emit.
 */
int qn_gen_run(const qn_solver *g, const qn_gen_opts *o, const qn_gen_hooks *h,
               qn_gen_stats *st, qn_err *err);

/*
 * Regenerate candidate `index` alone (what the run computed for it),
 * into caller buffers of ncells bytes. Returns 1 if it is on target.
 */
int qn_gen_candidate(const qn_solver *g, const qn_gen_opts *o, uint64_t index,
                     uint8_t *state, uint64_t *presses);

/*
 * The exact minimal press counts of n uniform solvable states (SAMPLE
 * candidates 0..n-1 of a stream derived from seed), for tiers cut from a
 * sample when the exact distribution is out of reach. Counts that could
 * not be proven minimal are left out; returns how many were written.
 */
size_t qn_gen_sample_presses(const qn_solver *g, const qn_seed *seed,
                             uint64_t *out, size_t n);

#endif
