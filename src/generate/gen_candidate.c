/*
 * gen_candidate.c: how candidate `index` of a run is made (a uniform
 * sample, a draw from the target's census, or a climb toward the press
 * range or, spreading, toward one count of it) and graded against the
 * target.
 *
 * Uniformity of SAMPLE. A state d drawn uniformly from Z_k^n lies in one
 * coset of the image of A; the minimal repair adds a vector that depends
 * only on that coset and lands in the image (repair.h). All cosets have
 * |image| elements, so each solvable state is hit by exactly |cokernel|
 * draws: the result is uniform over the solvable states. Redrawing the
 * goal keeps it uniform over the rest. (Sampling presses x and taking A x
 * would be uniform too, as flip.c argues, since every solvable state has
 * |kernel| preimages; repairing a random state is what the design asks
 * for, and its test checks the same uniformity by chi-square.)
 */
#include "gen_internal.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/mem.h"
#include "generate/distrib.h"

#define REDRAWS 64 /* draws before a candidate gives up */
#ifndef CLIMB_STEPS
#define CLIMB_STEPS(n) ((n) + 20) /* tries before a climb is dropped */
#endif

/* A climb's moves: pressing cell j t times (t in 1..k-1). */
static size_t climb_moves(const genctx *c)
{
    return (size_t)c->n * (c->k - 1);
}

int qn_gen__scratch_init(scratch *s, const genctx *c)
{
    memset(s, 0, sizeof(*s));
    s->climbed = UINT64_MAX;
    if (qn_answer_init(&s->ans, c->solver, NULL) != QN_OK)
        return QN_ENOMEM; /* its only error */
    s->d = QN_ALLOCN((size_t)c->n + 1, uint8_t);
    s->refused = QN_ALLOCN(climb_moves(c) / 8 + 1, uint8_t);
    s->refused_list = QN_ALLOCN((size_t)CLIMB_STEPS(c->n) + 1, uint32_t);
    if (s->d && s->refused && s->refused_list)
        return QN_OK;
    qn_gen__scratch_release(s);
    return QN_ENOMEM;
}

void qn_gen__scratch_release(scratch *s)
{
    qn_answer_release(&s->ans);
    free(s->d);
    free(s->refused);
    free(s->refused_list);
    s->d = s->refused = NULL;
    s->refused_list = NULL;
}

/* The cells of state off their goal: 16 a step where SSE2 is. */
static int count_lit(const genctx *c, const uint8_t *state)
{
    const uint8_t *goal = c->goal;
    int n = c->n, lit = 0, i = 0;

#ifdef __SSE2__
    for (; i + 16 <= n; i += 16) {
        __m128i s = _mm_loadu_si128((const __m128i *)(state + i));
        __m128i g = _mm_loadu_si128((const __m128i *)(goal + i));
        lit += 16 - __builtin_popcount(
                        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(s, g)));
    }
#endif
    for (; i < n; i++)
        lit += state[i] != goal[i];
    return lit;
}

static int is_zero(const uint8_t *d, int n)
{
    for (int i = 0; i < n; i++)
        if (d[i])
            return 0;
    return 1;
}

/* state = goal + d (mod k); both below k, so one subtraction reduces
 * (in locals: a store to state may alias c's fields) */
static void add_goal(const genctx *c, uint8_t *state, const uint8_t *d)
{
    const uint8_t *goal = c->goal;
    unsigned k = c->k;
    int n = c->n;

    if (c->goal_zero) { /* the usual goal: all off */
        memcpy(state, d, (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++) {
        unsigned v = (unsigned)goal[i] + d[i];
        state[i] = (uint8_t)(v >= k ? v - k : v);
    }
}

/* A uniformly random solvable state other than the goal; 0 on failure,
 * -1 out of memory. */
int qn_gen__sample(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state)
{
    const qn_repair *rep = qn_solver_repair(c->solver);

    for (int t = 0; t < REDRAWS; t++) {
        int ok;

        qn_rng_cells(rng, s->d, c->n, c->k);
        ok = rep ? qn_repair_apply(rep, s->d)
                 : qn_system_is_solvable(qn_solver_system(c->solver), s->d);
        if (ok == QN_ENOMEM)
            return -1;
        if (!rep && !ok)
            continue; /* no repair table: rejection keeps it uniform */
        if (is_zero(s->d, c->n))
            continue;
        add_goal(c, state, s->d);
        return 1;
    }
    return 0;
}

/* The i-th target state with m presses (the census). */
static void put_nth(const genctx *c, scratch *s, uint8_t *state, size_t m,
                    uint64_t i)
{
    qn_census_nth(c->census, m, i, s->d);
    add_goal(c, state, s->d);
}

/* Uniform among the target's states with m presses. */
static void draw_at(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state,
                    size_t m)
{
    put_nth(c, s, state, m, qn_rng_below(rng, qn_census_states(c->census, m)));
}

/* Uniform among the target's states with lo..hi presses: a count m with
 * probability proportional to its states, then a state. */
static int exhaustive(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state)
{
    uint64_t r = qn_rng_below(rng, c->range_total);
    size_t len = qn_census_len(c->census);

    for (size_t m = (size_t)c->lo; m < len && m <= c->hi; m++) {
        uint64_t cnt = qn_census_states(c->census, m);
        if (r < cnt) {
            put_nth(c, s, state, m, r);
            return 1;
        }
        r -= cnt;
    }
    return 0;
}

static int is_zero_diff(const genctx *c, const uint8_t *state)
{
    return memcmp(state, c->goal, (size_t)c->n) == 0;
}

/* state += t * (column j of A): pressing cell j, t times. */
static void press(const genctx *c, uint8_t *state, int j, unsigned t)
{
    if (c->col_start) { /* the column's non-zero entries alone */
        for (uint32_t p = c->col_start[j]; p < c->col_start[j + 1]; p++) {
            uint32_t i = c->col_row[p];
            state[i] = (uint8_t)((state[i] + c->col_val[p] * t) % c->k);
        }
        return;
    }
    for (int i = 0; i < c->n; i++) {
        unsigned a = c->matrix[(size_t)i * c->n + j];
        if (a)
            state[i] = (uint8_t)((state[i] + a * t) % c->k);
    }
}

/*
 * Where a climb starts. A state made by pressing w distinct cells once
 * needs at most w presses, and usually exactly w when w is below about
 * half the board: another plan would have to be that press set plus a
 * quiet pattern, which tends to be heavier. So start from w = lo..lo+2
 * random presses; from a uniform sample only when lo is past the board's
 * cells. (Before #31 lo = 1 started from a sample too, about half the
 * board's presses, from which a climb rarely came down to 1 within its
 * tries: 1 classic 9x9 climb in 3,000 arrived.)
 */
static int climb_start(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state,
                       uint64_t lo)
{
    int w, n = c->n;
    int *cells = (int *)s->ans.repair_cell; /* n ints of scratch */

    if (lo < 1 || lo > (uint64_t)n)
        return qn_gen__sample(c, rng, s, state);
    w = (int)lo + (int)qn_rng_below(rng, 3);
    if (w > n)
        w = n;
    for (int i = 0; i < n; i++)
        cells[i] = i;
    memcpy(state, c->goal, (size_t)n);
    for (int i = 0; i < w; i++) { /* w distinct cells, Fisher-Yates */
        int j = i + (int)qn_rng_below(rng, (uint64_t)(n - i)), t = cells[i];
        cells[i] = cells[j];
        cells[j] = t;
        /* the puzzle is what pressing cells[i] undoes: subtract A e_j */
        press(c, state, cells[i], c->k - 1);
    }
    return !is_zero_diff(c, state);
}

/* The moves refused at the climb's present state: none (it moved). */
static void forget_refused(scratch *s)
{
    for (size_t i = 0; i < s->nrefused; i++)
        s->refused[s->refused_list[i] / 8] = 0;
    s->nrefused = 0;
}

/* Was move mv refused at this state? If not, it is now (the caller tries
 * it, and forgets every refusal when it is taken). */
static int refused_before(scratch *s, uint32_t mv)
{
    uint8_t bit = (uint8_t)(1u << (mv % 8));

    if (s->refused[mv / 8] & bit)
        return 1;
    s->refused[mv / 8] |= bit;
    s->refused_list[s->nrefused++] = mv;
    return 0;
}

/*
 * The climb below where every state has one solution (a trivial kernel):
 * A x + d = 0 has the unique solution x, which is also the plan, so
 * pressing cell j t more times makes it x - t e_j and the trial's
 * minimum is m - x_j + (x_j - t mod k), with no solve. The trial is the
 * goal exactly when that is 0. The same draws, the same steps, the same
 * grade count and the same end state as the solving loop, at O(1) a try
 * instead of a solve and a walk (issue #35).
 */
static int climb_unique(const genctx *c, qn_rng *rng, scratch *s,
                        uint8_t *state, uint64_t m, uint64_t lo, uint64_t hi,
                        int steps)
{
    uint8_t *x = s->d;

    memcpy(x, s->ans.plan, (size_t)c->n);
    while (steps-- > 0 && (m < lo || m > hi)) {
        int j = (int)qn_rng_below(rng, (uint64_t)c->n);
        unsigned t = 1 + (unsigned)qn_rng_below(rng, c->k - 1);
        unsigned xj = (x[j] + c->k - t) % c->k;
        uint64_t m2 = m - x[j] + xj;

        s->grades++;
        if (m2 == 0)
            continue;
        if ((m < lo && m2 >= m) || (m > hi && m2 <= m)) {
            press(c, state, j, t);
            x[j] = (uint8_t)xj;
            m = m2;
        }
    }
    s->climbed = m;
    return 1;
}

/*
 * Climb: from the start above, try random presses and keep those that do
 * not move the exact minimum away from the target range. A climb that
 * has not arrived after CLIMB_STEPS tries is dropped (local maxima are
 * common near the top, and a fresh start is cheaper than waiting). Each
 * step is graded exactly, and so is the candidate before it is emitted.
 * A move tried again at the same state would be refused again (the grade
 * is a function of the state), so it is not graded twice: the tries, the
 * random stream and so the result are the same, for fewer grades (a
 * quarter fewer on classic 9x9 near its top, where most climbs end at a
 * state no press raises: there every press changes a GF(2) count by
 * exactly one, the kernel's vectors being of even weight).
 */
int qn_gen__climb(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state,
                  uint64_t from, uint64_t lo, uint64_t hi)
{
    uint8_t *trial = s->d;
    uint64_t m;
    int steps = CLIMB_STEPS(c->n), made;

    forget_refused(s);
    s->climbed = UINT64_MAX;
    if ((made = climb_start(c, rng, s, state, from)) <= 0)
        return made;
    if (qn_solver_answer(c->solver, &s->ans, state) != QN_OK)
        return -1;
    s->grades++;
    m = s->ans.mp.presses;
    if (qn_system_kernel_ngens(qn_solver_system(c->solver)) == 0)
        return climb_unique(c, rng, s, state, m, lo, hi, steps);
    while (steps-- > 0 && (m < lo || m > hi)) {
        int j = (int)qn_rng_below(rng, (uint64_t)c->n);
        unsigned t = 1 + (unsigned)qn_rng_below(rng, c->k - 1);
        uint64_t m2;

        if (refused_before(s, (uint32_t)((size_t)j * (c->k - 1) + t - 1)))
            continue;
        memcpy(trial, state, (size_t)c->n);
        press(c, trial, j, t);
        if (qn_solver_answer(c->solver, &s->ans, trial) != QN_OK)
            return -1;
        s->grades++;
        if (!s->ans.exact || s->ans.at_goal)
            continue;
        m2 = s->ans.mp.presses;
        if ((m < lo && m2 >= m) || (m > hi && m2 <= m)) {
            memcpy(state, trial, (size_t)c->n);
            m = m2;
            forget_refused(s);
        }
    }
    return 1;
}

static int on_target(const genctx *c, const qn_answer *a, int lit, uint64_t lo,
                     uint64_t hi)
{
    return a->solvable && a->exact && !a->at_goal && a->mp.presses >= lo &&
           a->mp.presses <= hi &&
           (!c->o->unique_optimum || a->mp.noptimal == 1) &&
           lit >= c->o->min_lit && (c->o->max_lit <= 0 || lit <= c->o->max_lit);
}

/* A lit-cell test that needs no grade. */
static int lit_ok(const genctx *c, int lit)
{
    return lit >= c->o->min_lit && (c->o->max_lit <= 0 || lit <= c->o->max_lit);
}

/* Targets decided without grading: only "solvable, not the goal, lit". */
static int grade_free(const genctx *c)
{
    return c->lo <= 1 && c->hi == UINT64_MAX && !c->o->unique_optimum &&
           !c->o->human_levels && c->mode == QN_GEN_SAMPLE;
}

/* A human level target: is the graded state (s->ans) at one of its
 * levels? A level not decided (or no ladder) is not. */
static int human_ok(const genctx *c, const scratch *s, const uint8_t *state)
{
    qn_human_grade gr;

    if (!c->o->human_levels)
        return 1;
    return c->hg &&
           qn_human_grade_of(c->hg, state, s->ans.plan, s->ans.mp.presses,
                             s->ans.mp.noptimal, &gr, NULL) == QN_OK &&
           (c->o->human_levels >> gr.level & 1);
}

/*
 * Make candidate `index` into state; grade it into s->ans unless it is
 * another shard's and the target needs no grade (*graded says which).
 * Returns 1 if it is on target.
 */
int qn_gen__candidate(const genctx *c, qn_gen_mode mode, uint64_t index,
                      scratch *s, uint8_t *state, int *graded)
{
    qn_rng *rng;
    uint64_t lo = c->lo, hi = c->hi;
    int made = 1;

    if (!s->rng_have || index - s->rng_first >= QN_RNG_BATCH ||
        s->rng_used >> (index - s->rng_first) & 1 ||
        memcmp(&s->rng_seed, &c->o->seed, sizeof(s->rng_seed))) {
        /* candidates come in runs of consecutive indices: draw the next
         * few streams at once */
        qn_rng_init_batch(s->rng, QN_RNG_BATCH, &c->o->seed, index);
        s->rng_seed = c->o->seed;
        s->rng_first = index;
        s->rng_used = 0;
        s->rng_have = 1;
    }
    s->rng_used |= 1u << (index - s->rng_first); /* its stream is consumed */
    rng = &s->rng[index - s->rng_first];
    if (mode == QN_GEN_SPREAD) { /* exactly the count this index aims at */
        lo = hi = c->values[spread_slot(c, index)];
        if (c->census)
            draw_at(c, rng, s, state, (size_t)lo);
        else
            made = qn_gen__climb(c, rng, s, state, lo, lo, hi);
    } else if (mode == QN_GEN_EXHAUSTIVE) {
        made = exhaustive(c, rng, s, state);
    } else if (mode == QN_GEN_CLIMB) {
        made = qn_gen__climb(c, rng, s, state, lo, lo, hi);
    } else {
        made = qn_gen__sample(c, rng, s, state);
    }
    *graded = 0;
    if (made <= 0)
        return made;
    s->lit = count_lit(c, state); /* kept for the run's block */
    if (!mine(c, index) && grade_free(c))
        return lit_ok(c, s->lit);
    *graded = 1;
    if (qn_solver_answer(c->solver, &s->ans, state) != QN_OK)
        return -1;
    s->grades++;
    return on_target(c, &s->ans, s->lit, lo, hi) && human_ok(c, s, state);
}

int qn_gen__graded(const genctx *c, qn_gen_mode mode, uint64_t index,
                   scratch *s, uint8_t *state)
{
    int graded;

    return qn_gen__candidate(c, mode, index, s, state, &graded);
}
