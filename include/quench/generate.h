/*
 * quench/generate.h: distinct puzzles of a rule whose exact minimal press
 * count lies in a range, reproducibly from a seed (docs/GENERATE.md).
 *
 * Fill a qn_gen_opts with qn_gen_opts_init, set the target, and call
 * qn_gen_run with hooks: emit (required) sees each puzzle on the calling
 * thread in candidate order; format (optional) runs in the worker
 * threads. The same seed and options give the same puzzles whatever
 * `jobs` is. qn_rng_global_init (quench/common.h) must have run once.
 */
#ifndef QN_PUBLIC_GENERATE_H
#define QN_PUBLIC_GENERATE_H

#include <signal.h>

#include "quench/common.h"
#include "quench/solve.h"

struct qn_distrib;
struct qn_tiers;
struct qn_human_model;

typedef enum qn_gen_mode {
    QN_GEN_AUTO,
    QN_GEN_SAMPLE,
    QN_GEN_EXHAUSTIVE,
    QN_GEN_CLIMB,
    QN_GEN_SPREAD
} qn_gen_mode;

/* "auto", "sample", "exhaustive", "climb" or "spread" (static). */
QN_API const char *qn_gen_mode_name(qn_gen_mode m);

/* The options of a run. distrib and tiers are internal (the CLI's):
 * leave them NULL. */
typedef struct qn_gen_opts {
    qn_seed seed;
    uint64_t count;     /* distinct puzzles wanted */
    uint64_t lo, hi;    /* accepted minimal press counts, inclusive */
    int unique_optimum; /* 1: exactly one optimal plan */
    int min_lit;        /* at least this many cells differ from goal */
    int max_lit;        /* at most this many (0: no bound) */
    int jobs;           /* worker threads; 0: none, the caller's thread
                           does the work (the output is the same) */
    uint64_t max_draws; /* candidates to try before giving up (exactly) */
    qn_gen_mode mode;   /* AUTO: SAMPLE for an unrestricted target;
                           EXHAUSTIVE when a distribution is given; else
                           SAMPLE, or when a pilot sample finds the
                           target rarer than 1 in 10^4, CLIMB for one
                           press count and SPREAD for a range */
    const struct qn_distrib *distrib; /* optional, borrowed */
    const struct qn_tiers *tiers;     /* optional, borrowed: grades */
    uint64_t start_index;    /* first candidate looked at (resuming a run) */
    uint64_t shard, nshards; /* emit only candidates with index % nshards
                                == shard (nshards 0 or 1: all); see below */
    uint64_t plan_budget;    /* states the plan's pilots may grade before it
                                gives up (QN_ELIMIT); 0: no limit */
    unsigned human_levels;   /* bit L set: puzzles at human level L (0 spot,
                                1 chase, 2 table, 3 global) are on target;
                                0: any level (docs/GENERATE.md, "Human
                                level targets") */
    const struct qn_human_model *human_model; /* optional, borrowed,
                                internal (the CLI's --human-model): the
                                human score's weights; NULL: the built-in
                                model (docs/GENERATE.md) */
} qn_gen_opts;

/* Defaults: count 1, presses 1.., 1 job, AUTO, the all-zero seed and
 * max_draws 0: set max_draws and the seed (qn_seed_parse,
 * qn_seed_random). */
QN_API void qn_gen_opts_init(qn_gen_opts *o);

/* What a spread's pilot climbs aimed at one count did. */
typedef struct qn_gen_pilot {
    uint64_t presses; /* the count they aimed at (0: none) */
    uint64_t climbs;  /* pilot climbs aimed at it */
    uint64_t arrived; /* of those, the ones that reached it */
} qn_gen_pilot;

/*
 * What a run would do with its target, known before drawing anything.
 * Distinct puzzles count as the run dedups them: up to the board's
 * symmetries, the goal excluded.
 */
typedef struct qn_gen_target_info {
    qn_gen_mode mode;     /* the mode that runs (AUTO resolved) */
    uint64_t lo, hi;      /* the press range the run aims at: an open end
                             resolved (the rule's largest count, exact or
                             estimated; see hi_estimated) */
    int hi_estimated;     /* SPREAD on a rule without the exact distribution
                             and an open range: hi is the last count the
                             pilot kept (see "Spread"; deterministic from
                             the seed) */
    uint64_t max_presses; /* no solvable state needs more presses than
                             this: the largest count of the exact
                             distribution (max_exact) or the coset bound
                             (qn_minpress_bound) */
    int max_exact;
    size_t counts;        /* SPREAD: the press counts it spreads over */
    uint64_t unreached;   /* SPREAD without the distribution: counts of
                             lo..hi left out (see first, ended) */
    int cannot_tell;      /* ... and none was reached: all of lo..hi are
                             kept, and whether any exists is not known */
    uint64_t first, last; /* ... the counts kept, first..last (lo..first-1
                             were not reached) */
    qn_gen_pilot slowest; /* ... the kept count whose pilot climbs arrived
                             least often: the run needs about climbs /
                             arrived draws a puzzle */
    qn_gen_pilot ended;   /* ... the count after last, whose climbs arrived
                             fewer than QN_GEN_PILOT_ARRIVALS times: it
                             and the counts above it up to left_hi (the
                             range's end, or the press bound for an open
                             one) are left out; presses 0: none (the
                             range's end or the press bound came first) */
    uint64_t left_hi;
    double at_least;      /* not exact: distinct puzzles proven to exist
                             (an unrestricted target: the solvable states
                             other than the goal over the symmetries,
                             rounded up), else 0; exact below 2^53 */
    double at_least_log2; /* its base-2 logarithm (boards past 2^1024
                             states have no double for at_least: then
                             at_least is HUGE_VAL) */
    uint64_t plan_grades; /* states the plan's pilots graded */
    int exact;            /* 1: states and distinct are exact (census) */
    uint64_t states;      /* exact: solvable states in the target */
    double distinct;      /* distinct puzzles: exact, or estimated from the
                             pilot as fraction * solvable states / symmetries
                             (-1: not estimated, no pilot ran) */
    double distinct_lo, distinct_hi; /* estimated: a 95 % interval (Wilson,
                                        from the pilot's hits) */
} qn_gen_target_info;

/*
 * Plan a run without running it: the mode and what the target holds, in
 * *info. QN_OK, or QN_EINVAL for an impossible target (with the reason),
 * QN_ELIMIT past o->plan_budget, QN_ENOMEM when out of memory.
 */
QN_API int qn_gen_plan(const qn_solver *solver, const qn_gen_opts *o,
                       qn_gen_target_info *info, qn_err *err);

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
    int human_level;         /* the technique ladder's rung (docs/GENERATE.md
                                "The human ladder"): 0 spot, 1 chase, 2
                                table, 3 global; -1 not decided (more than
                                1024 optimal plans) */
    int64_t human_score;     /* the human score model's prediction, in
                                thousandths (0 when human_level is -1) */
    int human_model_version; /* the model that scored it */
} qn_gen_puzzle;

typedef struct qn_gen_stats {
    uint64_t draws;        /* candidates looked at */
    uint64_t on_target;    /* of those, meeting the target */
    uint64_t duplicates;   /* on target but seen before */
    uint64_t emitted;      /* by the whole run (all shards) */
    uint64_t other_shards; /* of those, emitted by other shards */
    uint64_t ahead;        /* SPREAD: new and on target, but at a count
                              that was ahead of the others (not emitted) */
    uint64_t retired;      /* SPREAD: counts taken to have run out (see
                              QN_GEN_DRY) */
    qn_gen_mode mode;      /* the mode that ran */
    double rarity;         /* fraction of solvable states on target:
                              exact (EXHAUSTIVE), estimated (others), or
                              -1 when unknown */
    int rarity_exact;
    qn_gen_target_info target; /* what the plan knew before drawing */
} qn_gen_stats;

/* Runs in worker threads: format p into out (appending). */
typedef void qn_gen_format_fn(void *ctx, const qn_gen_puzzle *p, qn_buf *out);
/*
 * Runs on the calling thread, in index order. Returns QN_GEN_EMITTED, or
 * QN_GEN_ALREADY when the puzzle turned out to be known already (e.g. a
 * database refused it as a duplicate: not counted), or QN_GEN_STOP.
 * p's pointers (text among them) stay valid until the progress call that
 * follows returns: a block's puzzles are emitted, then progress runs
 * (set or not), then the block is reused. Consecutive puzzles' texts
 * often adjoin, so emit may keep them and write them as one span there.
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
 * Generate: QN_OK when o->count puzzles were emitted; QN_EINVAL for an
 * empty or too small target or a rule whose grades cannot be exact;
 * QN_ELIMIT when max_draws ran out first; QN_ERR when stopped by *stop
 * or emit; QN_ENOMEM when memory ran out in any thread (or a formatter's
 * appends failed): the run stops, the puzzles emitted before it are the
 * first ones of the run that did not fail, and nothing else was emitted.
 * *st (required) gets the run's figures. g, o and h are borrowed for
 * the call.
 */
QN_API int qn_gen_run(const qn_solver *solver, const qn_gen_opts *o,
                      const qn_gen_hooks *h, qn_gen_stats *st, qn_err *err);

/* Regenerate candidate `index` alone into state (n bytes), its minimal
 * presses in *presses: 1 if it is on target, else 0; QN_ENOMEM when out
 * of memory. */
QN_API int qn_gen_candidate(const qn_solver *solver, const qn_gen_opts *o,
                            uint64_t index, uint8_t *state, uint64_t *presses);

#endif
