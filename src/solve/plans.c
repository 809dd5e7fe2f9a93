/*
 * plans.c: a state's solutions by press count (plans.h). One walk over the
 * solution coset feeds a bounded max-heap of the cheapest `limit` plans,
 * keyed by (total presses, per-cell counts), so memory stays limit * n
 * however large the coset; the heap is sorted at the end.
 */
#include "solve/plans.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "engine/minpress.h"

typedef struct walk {
    int n;
    int optimal;
    size_t limit, count, cap;
    uint8_t *x;        /* cap slots of n counts */
    uint64_t *presses; /* per slot */
    size_t *heap;      /* count slot numbers, the most expensive on top */
    uint64_t matched, best;
    int nomem; /* a slot could not be had: the walk stopped */
} walk;

/* -1, 0, 1 as slot a costs less than, as much as, more than slot b. */
static int cmp_slots(const walk *w, size_t a, size_t b)
{
    if (w->presses[a] != w->presses[b])
        return w->presses[a] < w->presses[b] ? -1 : 1;
    return memcmp(w->x + a * w->n, w->x + b * w->n, (size_t)w->n);
}

static void sift_down(walk *w, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, top = i, t;
        if (l < w->count && cmp_slots(w, w->heap[l], w->heap[top]) > 0)
            top = l;
        if (r < w->count && cmp_slots(w, w->heap[r], w->heap[top]) > 0)
            top = r;
        if (top == i)
            return;
        t = w->heap[i], w->heap[i] = w->heap[top], w->heap[top] = t;
        i = top;
    }
}

static void sift_up(walk *w, size_t i)
{
    while (i > 0) {
        size_t p = (i - 1) / 2, t;
        if (cmp_slots(w, w->heap[i], w->heap[p]) <= 0)
            return;
        t = w->heap[i], w->heap[i] = w->heap[p], w->heap[p] = t;
        i = p;
    }
}

/* Room for one more slot, growing the arrays by doubling up to the
 * limit: 0, or -1 when memory ran out (the arrays stay as they were). */
static int new_slot(walk *w)
{
    size_t cap = w->cap ? 2 * w->cap : 16;
    void *p;

    if (w->count < w->cap)
        return 0;
    if (cap > w->limit)
        cap = w->limit;
    if (!(p = QN_REALLOCN(w->x, cap * (size_t)w->n + 1, uint8_t)))
        return -1;
    w->x = p;
    if (!(p = QN_REALLOCN(w->presses, cap, uint64_t)))
        return -1;
    w->presses = p;
    if (!(p = QN_REALLOCN(w->heap, cap, size_t)))
        return -1;
    w->heap = p;
    w->cap = cap;
    return 0;
}

/* Keep x if it is among the `limit` cheapest seen so far: 0, or -1 when
 * memory ran out. */
static int offer(walk *w, const uint8_t *x, uint64_t sum)
{
    size_t s, top;

    if (w->count < w->limit) {
        if (new_slot(w))
            return -1;
        s = w->count;
        memcpy(w->x + s * w->n, x, (size_t)w->n);
        w->presses[s] = sum;
        w->heap[w->count++] = s;
        sift_up(w, w->count - 1);
        return 0;
    }
    top = w->heap[0];
    if (sum > w->presses[top] ||
        (sum == w->presses[top] &&
         memcmp(x, w->x + top * w->n, (size_t)w->n) >= 0))
        return 0;
    memcpy(w->x + top * w->n, x, (size_t)w->n);
    w->presses[top] = sum;
    sift_down(w, 0);
    return 0;
}

static int visit(void *ctx, const uint8_t *x)
{
    walk *w = ctx;
    uint64_t sum = 0;

    for (int i = 0; i < w->n; i++)
        sum += x[i];
    if (w->optimal && sum > w->best)
        return 0;
    if (w->optimal && sum < w->best) {
        w->best = sum; /* a cheaper optimum: what was kept is not one */
        w->matched = 0;
        w->count = 0;
    }
    w->matched++;
    if (offer(w, x, sum)) {
        w->nomem = 1;
        return 1; /* stop the walk */
    }
    return 0;
}

/* The heap's plans into out, cheapest first: 0, or -1 when memory ran
 * out (out left empty). */
static int take(qn_plans *out, walk *w)
{
    size_t n = w->count;

    /* heap sort in place: the most expensive goes to the end each time */
    while (w->count > 1) {
        size_t t = w->heap[0];
        w->heap[0] = w->heap[--w->count];
        w->heap[w->count] = t;
        sift_down(w, 0);
    }
    w->count = n;
    out->x = QN_ALLOCN(w->count * (size_t)w->n + 1, uint8_t);
    out->presses = QN_ALLOCN(w->count + 1, uint64_t);
    if (!out->x || !out->presses) {
        free(out->x), free(out->presses);
        out->x = NULL, out->presses = NULL;
        return -1;
    }
    out->count = n;
    for (size_t i = 0; i < w->count; i++) {
        memcpy(out->x + i * w->n, w->x + w->heap[i] * w->n, (size_t)w->n);
        out->presses[i] = w->presses[w->heap[i]];
    }
    out->matched = w->matched;
    return 0;
}

int qn_plans_find(qn_plans *out, const qn_solver *solver, const uint8_t *state,
                  uint64_t limit, int optimal, qn_err *err)
{
    const qn_system *sys = qn_solver_system(solver);
    walk w;
    int64_t seen;
    int rc = QN_OK;

    memset(out, 0, sizeof(*out));
    memset(&w, 0, sizeof(w));
    out->n = w.n = qn_solver_ncells(solver);
    if (limit < 1 || limit > QN_PLANS_MAX)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "a list holds 1..%d plans, not %llu", QN_PLANS_MAX,
                          (unsigned long long)limit);
    out->complete = qn_minpress_exact(sys, qn_solver_walk_limit(solver));
    if (optimal && !out->complete)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "cannot list the optimal plans: the kernel has "
                          "2^%.2f elements, past the walk limit of %llu",
                          qn_system_group_log2(sys, QN_KERNEL),
                          (unsigned long long)qn_solver_walk_limit(solver));
    w.optimal = optimal;
    w.limit = (size_t)limit;
    w.best = UINT64_MAX;
    seen = qn_solver_each_solution(
        solver, state, out->complete ? UINT64_MAX : limit, visit, &w);
    if (seen == QN_EUNSOLVABLE) {
        out->complete = 0;
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state is not solvable");
    } else if (w.nomem || seen == QN_ENOMEM || take(out, &w)) {
        out->complete = 0;
        rc = qn_err_nomem(err);
    }
    free(w.x);
    free(w.presses);
    free(w.heap);
    return rc;
}

void qn_plans_release(qn_plans *p)
{
    free(p->x);
    free(p->presses);
    memset(p, 0, sizeof(*p));
}
