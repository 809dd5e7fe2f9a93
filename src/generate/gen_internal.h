/*
 * gen_internal.h: what the generator's files share: the run's context,
 * the per-thread scratch, how a candidate is made (gen_candidate.c) and how
 * a run goes through them in blocks (gen_run.c). Not installed.
 */
#ifndef QN_GEN_INTERNAL_H
#define QN_GEN_INTERNAL_H

#include <stdint.h>

#include "generate/gen.h"
#include "rules/puzzle_id.h"
#include "solve/human_score.h"

/* What every candidate computation reads; immutable during a run. */
typedef struct genctx {
    const qn_solver *solver;
    const qn_gen_opts *o;
    qn_gen_mode mode;
    int n;
    unsigned k;
    const uint8_t *goal;
    int goal_zero; /* every cell's goal is 0 */
    const uint8_t *matrix;
    /* the matrix's non-zero entries column by column (col_start[j] to
     * col_start[j + 1] in col_row, col_val), for pressing a cell without
     * reading its whole column; NULL when the matrix is too dense */
    uint32_t *col_start, *col_row;
    uint8_t *col_val;
    qn_puzzle_id_key id_key;      /* the rule's key for puzzle ids */
    struct qn_canon_table *canon; /* canonical forms by table, or NULL */
    uint64_t lo, hi;              /* the press range, open ends resolved */
    uint64_t maxp;                /* no state needs more presses: the exact
                                     largest count (distribution) or the coset
                                     bound (qn_minpress_bound) */
    int maxp_exact;
    struct qn_census *census; /* owned by the run: the target's states
                                 (EXHAUSTIVE, SPREAD with a distribution) */
    uint64_t range_total;     /* EXHAUSTIVE: target states with lo..hi */
    int human_counted;        /* the census holds the human levels too */
    /* SPREAD: the press counts it spreads over, and how many distinct
     * puzzles each has (UINT64_MAX: unknown) */
    size_t nvalues;
    uint64_t *values, *avail;
    /* the human grade of each emitted puzzle (human_score.h): built when
     * the run starts (NULL: no grade, levels -1) */
    qn_human_grader *hg;
    qn_human_model model;
} genctx;

/* Per-thread buffers. */
typedef struct scratch {
    qn_answer ans;
    uint8_t *d;
    uint64_t grades; /* states graded (qn_solver_answer): pilots count
                        their cost in it */
    int lit;         /* the last candidate's lit cells (count_lit), when
                        qn_gen__candidate made one */
    /* a climb's moves (cell, times) refused at its present state: one
     * bit per move, and the moves whose bits are set */
    uint8_t *refused;
    uint32_t *refused_list;
    size_t nrefused;
    /* where the last climb ended, in presses, when the rule's kernel is
     * trivial (its unique solution is kept up to date: no grade needed
     * to know it); UINT64_MAX otherwise */
    uint64_t climbed;
    /* streams rng_first .. rng_first + QN_RNG_BATCH - 1 of the seed
     * rng_seed, drawn together (qn_rng_init_batch); rng_have says whether
     * they are set */
    qn_rng rng[QN_RNG_BATCH];
    qn_seed rng_seed;
    uint64_t rng_first;
    unsigned rng_used; /* bit i: stream rng_first + i was consumed */
    int rng_have;
} scratch;

/* Does the run need candidate `index` graded and emitted here? */
static inline int mine(const genctx *c, uint64_t index)
{
    return c->o->nshards <= 1 || index % c->o->nshards == c->o->shard;
}

/* gen_candidate.c: QN_OK or QN_ENOMEM (s released); release is safe
 * after either. */
int qn_gen__scratch_init(scratch *s, const genctx *c);
void qn_gen__scratch_release(scratch *s);
/* A uniformly random solvable state other than the goal; 0 on failure. */
int qn_gen__sample(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state);
/*
 * Make candidate `index` into state; grade it into s->ans unless it is
 * another shard's and the target needs no grade (*graded says which).
 * Returns 1 if it is on target, 0 if not, -1 when the grade ran out of
 * memory (qn_solver_answer). Once a state is made, s->lit holds its lit
 * cells.
 */
int qn_gen__candidate(const genctx *c, qn_gen_mode mode, uint64_t index,
                      scratch *s, uint8_t *state, int *graded);
/* SPREAD: the position in c->values that candidate `index` aims at. */
static inline size_t spread_slot(const genctx *c, uint64_t index)
{
    return (size_t)(index % c->nvalues);
}
/* A climb toward lo..hi from a fresh start near `from` presses (pilots
 * use it too); 0 when no start was found, -1 out of memory. The state
 * may not have arrived: grade it. */
int qn_gen__climb(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state,
                  uint64_t from, uint64_t lo, uint64_t hi);

/* The plan's pilots stop, and the plan fails, past o->plan_budget states
 * graded. */
static inline int qn_gen__over_budget(const genctx *c, uint64_t grades)
{
    return c->o->plan_budget && grades > c->o->plan_budget;
}
static inline int qn_gen__budget_error(const genctx *c, qn_err *err)
{
    return qn_err_set(err, QN_ELIMIT, 0, 0,
                      "planning would grade more than %llu states (the "
                      "planning budget)",
                      (unsigned long long)c->o->plan_budget);
}
/* SPREAD: one more count to spread over, holding `have` puzzles
 * (UINT64_MAX: unknown). */
static inline void qn_gen__add_value(genctx *c, uint64_t v, uint64_t have)
{
    c->values[c->nvalues] = v;
    c->avail[c->nvalues++] = have;
}

/* gen_spread.c: a spread's counts on a rule without the exact
 * distribution, from pilot climbs aimed at each (gen.h, "Spread"), into
 * c->values and *info; QN_ELIMIT past the budget. */
int qn_gen__spread_counts(genctx *c, qn_gen_target_info *info, qn_err *err);

/* gen_plan.c: the context of a run over solver with options o (borrowed),
 * its plan (mode, target checks, pilots: gen.h, qn_gen_plan) into st,
 * and its release (safe after a failed init). QN_OK or QN_ENOMEM. */
int qn_gen__ctx_init(genctx *c, const qn_solver *solver, const qn_gen_opts *o);
int qn_gen__plan(genctx *c, qn_gen_stats *st, qn_err *err);
void qn_gen__ctx_release(genctx *c);
/* A candidate as qn_gen__candidate makes it, always graded (pilots,
 * sampling, regeneration: no shards); 1 if on target, -1 out of
 * memory. */
int qn_gen__graded(const genctx *c, qn_gen_mode mode, uint64_t index,
                   scratch *s, uint8_t *state);

/* gen_run.c: the candidates of c in blocks, with c->o->jobs workers (0:
 * in the caller's thread), until done. Returns 1 when count puzzles were
 * emitted, 2 when out of draws, -1 when stopped or an emit failed,
 * QN_ENOMEM when memory ran out in any thread (the puzzles emitted
 * before stay emitted: a prefix of the run's). */
int qn_gen__run(const genctx *c, const qn_gen_hooks *h, qn_gen_stats *st);

#endif
