/*
 * solver.c: a rule compiled for answers: goal offset, solving, explaining
 * and repairing states.
 */
#include "solve/solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct qn_solver {
    const qn_rules *rules;
    qn_system *sys;
    qn_repair *rep; /* NULL when too large */
    int n;
    unsigned k;
    const uint8_t *goal;
    uint64_t limit;
};

static int solver_new(qn_solver **out, const qn_rules *r, int repair,
                      qn_err *err)
{
    qn_solver *solver;
    int rc, n = qn_rules_ncells(r);

    *out = NULL;
    if (!(solver = QN_ALLOC(qn_solver)))
        return qn_err_nomem(err);
    solver->rules = r;
    solver->n = n;
    solver->k = qn_rules_colours(r);
    solver->goal = qn_rules_goal(r);
    solver->limit = QN_MINPRESS_DEFAULT_LIMIT;
    rc = qn_system_new(&solver->sys, qn_rules_matrix(r), n, n, solver->k, err);
    if (rc) {
        free(solver);
        return rc;
    }
    /* too many unsolvable classes is not fatal: repairs become unknown;
     * running out of memory is */
    if (repair) {
        qn_err e = QN_ERR_INIT;
        rc = qn_repair_new(&solver->rep, solver->sys, &e);
        if (rc == QN_ENOMEM) {
            qn_system_free(solver->sys);
            free(solver);
            return qn_err_nomem(err);
        }
        if (rc != QN_OK)
            solver->rep = NULL;
    }
    *out = solver;
    return QN_OK;
}

int qn_solver_new(qn_solver **out, const qn_rules *r, qn_err *err)
{
    return solver_new(out, r, 1, err);
}

int qn_solver_new_bare(qn_solver **out, const qn_rules *r, qn_err *err)
{
    return solver_new(out, r, 0, err);
}

void qn_solver_free(qn_solver *solver)
{
    if (!solver)
        return;
    qn_repair_free(solver->rep);
    qn_system_free(solver->sys);
    free(solver);
}

const qn_rules *qn_solver_rules(const qn_solver *solver)
{
    return solver->rules;
}
const qn_system *qn_solver_system(const qn_solver *solver)
{
    return solver->sys;
}
int qn_solver_ncells(const qn_solver *solver)
{
    return solver->n;
}
unsigned qn_solver_colours(const qn_solver *solver)
{
    return solver->k;
}
const qn_repair *qn_solver_repair(const qn_solver *solver)
{
    return solver->rep;
}

void qn_solver_set_walk_limit(qn_solver *solver, uint64_t limit)
{
    solver->limit = limit;
}

uint64_t qn_solver_walk_limit(const qn_solver *solver)
{
    return solver->limit;
}

void qn_solver_press(const qn_solver *solver, uint8_t *state, int cell)
{
    const uint8_t *a = qn_rules_matrix(solver->rules);

    for (int i = 0; i < solver->n; i++)
        state[i] =
            (uint8_t)((state[i] + a[(size_t)i * solver->n + cell]) % solver->k);
}

int qn_solver_check_exact(const qn_solver *solver, qn_err *err)
{
    qn_buf size = QN_BUF_INIT;
    char lim[32];
    int rc;

    if (qn_minpress_exact(solver->sys, solver->limit))
        return QN_OK;
    qn_system_group_factors(solver->sys, QN_KERNEL, &size);
    if (size.failed) {
        qn_buf_release(&size);
        return qn_err_nomem(err);
    }
    if (solver->limit && !(solver->limit & (solver->limit - 1)))
        snprintf(lim, sizeof(lim), "2^%d", __builtin_ctzll(solver->limit));
    else
        snprintf(lim, sizeof(lim), "%llu", (unsigned long long)solver->limit);
    rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                    "cannot grade exactly: the kernel has %s elements, more "
                    "than the walk limit %s",
                    size.buf, lim);
    qn_buf_release(&size);
    return rc;
}

int qn_answer_init(qn_answer *a, const qn_solver *solver, qn_err *err)
{
    memset(a, 0, sizeof(*a));
    a->plan = QN_ALLOCN((size_t)solver->n + 1, uint8_t);
    a->repair_cell = QN_ALLOCN((size_t)solver->n + 1, int);
    a->repair_value = QN_ALLOCN((size_t)solver->n + 1, uint8_t);
    if (!a->plan || !a->repair_cell || !a->repair_value) {
        qn_answer_release(a);
        return qn_err_nomem(err);
    }
    return QN_OK;
}

void qn_answer_release(qn_answer *a)
{
    free(a->plan);
    free(a->repair_cell);
    free(a->repair_value);
    memset(a, 0, sizeof(*a));
}

/* d = state - goal (mod k): what the presses must cancel. Cells below k
 * (every valid state) need one subtraction at most, not a division by
 * the variable k, which cost more than the rest of a small board's
 * answer; 16 cells at a time where SSE2 is (validate takes it twice a
 * line). */
static void offset(const qn_solver *solver, uint8_t *d, const uint8_t *state)
{
    /* in locals: a store to d (bytes) may alias the solver's fields, which
     * the loops would otherwise load again each cell */
    const uint8_t *goal = solver->goal;
    unsigned k = solver->k, big = 0;
    int n = solver->n, i = 0;

#ifdef __SSE2__
    /* goal < k <= 255: s - g, plus k where s < g (then g -sat s > 0) */
    const __m128i vk = _mm_set1_epi8((char)k), zero = _mm_setzero_si128();
    const __m128i top = _mm_set1_epi8((char)(k - 1));
    __m128i in = _mm_set1_epi8(-1);

    /* the last 16 cells again where n is no multiple of 16: the same
     * bytes written twice */
    for (int last = n - 16; i < n && n >= 16; i += 16) {
        __m128i s, g, lt;
        if (i > last)
            i = last;
        s = _mm_loadu_si128((const __m128i *)(state + i));
        g = _mm_loadu_si128((const __m128i *)(goal + i));
        lt = _mm_cmpeq_epi8(_mm_subs_epu8(g, s), zero);
        in = _mm_and_si128(in, _mm_cmpeq_epi8(_mm_max_epu8(s, top), top));
        _mm_storeu_si128(
            (__m128i *)(d + i),
            _mm_add_epi8(_mm_sub_epi8(s, g), _mm_andnot_si128(lt, vk)));
    }
    big = _mm_movemask_epi8(in) != 0xffff;
#endif
    for (int j = i; j < n; j++)
        big |= state[j] >= k;
    if (big) { /* not a state of this rule: reduce it too */
        for (i = 0; i < n; i++)
            d[i] = (uint8_t)((state[i] + k - goal[i]) % k);
        return;
    }
    for (; i < n; i++) {
        unsigned v = state[i] + k - goal[i];
        d[i] = (uint8_t)(v - (v >= k) * k);
    }
}

int qn_solver_answer(const qn_solver *solver, qn_answer *a,
                     const uint8_t *state)
{
    return qn_solver_answer_class(solver, a, state, NULL);
}

int qn_solver_answer_class(const qn_solver *solver, qn_answer *a,
                           const uint8_t *state, uint64_t *cls)
{
    uint8_t stack[4096], *d = stack;
    uint64_t q;
    int rc;

    /* n <= QN_RULES_MAX_CELLS = 4096 */
    offset(solver, d, state);
    a->at_goal = 1;
    for (int i = 0; i < solver->n; i++)
        if (d[i]) {
            a->at_goal = 0;
            break;
        }
    a->nrepair = 0;
    a->repair_known = 0;
    /* the class (cokernel conditions, a parity each for two colours) says
     * whether the state is solvable for less than solving it: most
     * states judged (three in four of random classic 5x5) are not */
    q = solver->rep ? qn_repair_class(solver->rep, d) : 0;
    if (q) {
        memset(&a->mp, 0, sizeof(a->mp)); /* as qn_minpress_solve leaves it */
        rc = QN_EUNSOLVABLE;
    } else {
        rc = qn_minpress_solve(solver->sys, &a->mp, a->plan, d, solver->limit,
                               NULL);
        if (rc == QN_ENOMEM)
            return QN_ENOMEM;
    }
    a->solvable = rc != QN_EUNSOLVABLE;
    a->exact = rc == QN_OK;
    if (!a->solvable && cls)
        *cls = solver->rep ? q : UINT64_MAX;
    if (!a->solvable && solver->rep) {
        a->repair_known = 1;
        a->nrepair =
            qn_repair_find(solver->rep, d, a->repair_cell, a->repair_value);
        if (a->nrepair < 0) { /* out of memory */
            a->nrepair = 0, a->repair_known = 0;
            return QN_ENOMEM;
        }
        for (int i = 0; i < a->nrepair; i++) {
            int c = a->repair_cell[i];
            a->repair_value[i] =
                (uint8_t)((a->repair_value[i] + solver->goal[c]) % solver->k);
        }
    }
    return QN_OK;
}

uint64_t qn_solver_class(const qn_solver *solver, const uint8_t *state)
{
    uint8_t stack[4096], *d = stack;

    if (!solver->rep)
        return UINT64_MAX;
    offset(solver, d, state);
    return qn_repair_class(solver->rep, d);
}

/* A count or coordinate (>= 0) in decimal: explaining is done for every
 * unsolvable submission `validate` judges, so without printf. */
static void add_uint(qn_buf *out, unsigned v)
{
    char d[16];
    int n = 0;

    do
        d[sizeof(d) - 1 - n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    qn_buf_add(out, d + sizeof(d) - n, (size_t)n);
}

static void cell_name(const qn_solver *solver, qn_buf *out, int cell)
{
    const qn_layout *l = qn_rules_layout(solver->rules);
    int r, c;

    if (l->kind == QN_LAYOUT_GRAPH) {
        qn_buf_adds(out, "cell ");
        add_uint(out, (unsigned)cell);
        return;
    }
    qn_layout_rc(l, cell, &r, &c);
    qn_buf_addc(out, '(');
    add_uint(out, (unsigned)r);
    qn_buf_addc(out, ',');
    add_uint(out, (unsigned)c);
    qn_buf_addc(out, ')');
}

void qn_solver_cell_name(const qn_solver *solver, qn_buf *out, int cell)
{
    cell_name(solver, out, cell);
}

const char *qn_solver_cell_legend(const qn_solver *solver)
{
    if (qn_rules_layout(solver->rules)->kind == QN_LAYOUT_GRAPH)
        return "numbered from 0 as in the rule file";
    return "(row, col), from (0,0) at the top left";
}

/*
 * A condition c . d == 0 (mod m) on the offset state d. For m = 2 with 0/1
 * weights it is a parity: "an even number of lit cells among ...".
 */
static void explain_one(const qn_solver *solver, qn_buf *out, const uint8_t *c,
                        unsigned m, unsigned v)
{
    int shown = 0, total = 0, unit = 1;

    for (int i = 0; i < solver->n; i++)
        if (c[i]) {
            total++;
            unit &= c[i] == 1;
        }
    if (m == 2 && unit) {
        qn_buf_adds(out, "the ");
        add_uint(out, (unsigned)total);
        qn_buf_adds(out, " cells ");
    } else
        qn_buf_adds(out, "the weighted sum over ");
    for (int i = 0; i < solver->n && shown < 12; i++) {
        if (!c[i])
            continue;
        qn_buf_adds(out, shown ? ", " : "");
        if (!(m == 2 && unit) && c[i] != 1)
            qn_buf_addf(out, "%u*", c[i]);
        cell_name(solver, out, i);
        shown++;
    }
    if (total > shown)
        qn_buf_addf(out, ", ... (%d more)", total - shown);
    if (m == 2 && unit)
        qn_buf_adds(out, " must differ from the goal in an even number of "
                         "places (they differ in an odd number)");
    else
        qn_buf_addf(out,
                    " of the difference from the goal must be a "
                    "multiple of %u (it is %u mod %u)",
                    m, v, m);
}

void qn_solver_explain(const qn_solver *solver, qn_buf *out,
                       const uint8_t *state, int max)
{
    uint8_t stack[4096], *d = stack;
    size_t nc = qn_system_cokernel_ngens(solver->sys);
    int failed = 0;

    offset(solver, d, state);
    for (size_t j = 0; j < nc; j++) {
        const uint8_t *c = qn_system_condition(solver->sys, j);
        unsigned m = qn_system_cokernel_order(solver->sys, j);
        unsigned long acc = 0;
        for (int i = 0; i < solver->n; i++)
            acc += (unsigned long)c[i] * d[i];
        if (acc % m == 0)
            continue;
        if (++failed <= max) {
            explain_one(solver, out, c, m, (unsigned)(acc % m));
            qn_buf_addc(out, '\n');
        }
    }
    if (failed > max)
        qn_buf_addf(out, "... and %d more conditions\n", failed - max);
}

const char *qn_solver_grade(const qn_solver *solver, uint64_t presses)
{
    size_t nt = qn_rules_ntiers(solver->rules);

    for (size_t i = 0; i < nt; i++)
        if (presses >= (uint64_t)qn_rules_tier_lo(solver->rules, i) &&
            presses <= (uint64_t)qn_rules_tier_hi(solver->rules, i))
            return qn_rules_tier_name(solver->rules, i);
    return NULL;
}

int qn_solver_replays(const qn_solver *solver, const uint8_t *state,
                      const uint8_t *plan)
{
    uint8_t stack[4096], *y = stack;

    qn_system_apply(solver->sys, y, plan, state);
    return memcmp(y, solver->goal, (size_t)solver->n) == 0;
}

int64_t qn_solver_each_solution(const qn_solver *solver, const uint8_t *state,
                                uint64_t limit, qn_solution_fn *fn, void *ctx)
{
    uint8_t stack[4096];

    int64_t n;

    offset(solver, stack, state);
    n = qn_minpress_each(solver->sys, stack, limit, fn, ctx);
    return n; /* QN_ENOMEM too */
}
