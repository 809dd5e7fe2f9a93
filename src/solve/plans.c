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

/* A free slot, growing the arrays by doubling up to the limit. */
static size_t new_slot(walk *w)
{
    if (w->count == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        if (w->cap > w->limit)
            w->cap = w->limit;
        w->x = QN_RENEW(w->x, w->cap * (size_t)w->n, uint8_t);
        w->presses = QN_RENEW(w->presses, w->cap, uint64_t);
        w->heap = QN_RENEW(w->heap, w->cap, size_t);
    }
    return w->count;
}

/* Keep x if it is among the `limit` cheapest seen so far. */
static void offer(walk *w, const uint8_t *x, uint64_t sum)
{
    size_t s, top;

    if (w->count < w->limit) {
        s = new_slot(w);
        memcpy(w->x + s * w->n, x, (size_t)w->n);
        w->presses[s] = sum;
        w->heap[w->count++] = s;
        sift_up(w, w->count - 1);
        return;
    }
    top = w->heap[0];
    if (sum > w->presses[top] ||
        (sum == w->presses[top] &&
         memcmp(x, w->x + top * w->n, (size_t)w->n) >= 0))
        return;
    memcpy(w->x + top * w->n, x, (size_t)w->n);
    w->presses[top] = sum;
    sift_down(w, 0);
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
    offer(w, x, sum);
    return 0;
}

/* The heap's plans into out, cheapest first. */
static void take(qn_plans *out, walk *w)
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
    out->count = n;
    out->x = QN_NEWN(w->count * (size_t)w->n + 1, uint8_t);
    out->presses = QN_NEWN(w->count + 1, uint64_t);
    for (size_t i = 0; i < w->count; i++) {
        memcpy(out->x + i * w->n, w->x + w->heap[i] * w->n, (size_t)w->n);
        out->presses[i] = w->presses[w->heap[i]];
    }
    out->matched = w->matched;
}

int qn_plans_find(qn_plans *out, const qn_solver *solver, const uint8_t *state,
                  uint64_t limit, int optimal, qn_err *err)
{
    const qn_system *sys = qn_solver_system(solver);
    walk w;
    int64_t seen;

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
        qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state is not solvable");
    } else {
        take(out, &w);
    }
    free(w.x);
    free(w.presses);
    free(w.heap);
    return seen == QN_EUNSOLVABLE ? QN_EUNSOLVABLE : QN_OK;
}

void qn_plans_release(qn_plans *p)
{
    free(p->x);
    free(p->presses);
    memset(p, 0, sizeof(*p));
}
