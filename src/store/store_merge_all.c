/*
 * store_merge_all.c: db merge of several inputs, with every input's
 * PRAGMA quick_check on a thread of its own while the copies run.
 *
 * db merge promises that a damaged input leaves OUT as it was, so every
 * input is read whole by quick_check before the first commit into an OUT
 * that exists. Done first, in line, that read was 16% of a merge
 * (docs/PERFORMANCE.md). Here it runs beside the first input's copy, and
 * the first commit waits for it: the same promise, at no wall time where
 * a core is free. (Each copy's own pass reads its input's order and ids:
 * store_merge_keys.c.) The inputs are read-only to both threads, and each
 * thread has its own connections.
 *
 * An OUT built aside (qn_store_open_aside) is nobody's until every input
 * is merged, and a failure discards it whole: there the early read guards
 * nothing, and it is not made (its CPU was a fifth of the merge's). A
 * damaged input is still refused with its name: SQLite's own read of it
 * in the copy finds a damaged page, and the copy's pass checks every row
 * it reads against the input's checksummed key runs (every row there,
 * each with the id its state gives), so a row missing or altered fails
 * the merge (store_runs.c, qn_store__runs_copy). The thread starts with
 * the first merge, when the job knows which OUT it merges into.
 */
#include "store/store.h"

#include <pthread.h>
#include <stdlib.h>

#include "base/mem.h"
#include "store_internal.h"

struct qn_store_merge_job {
    char *const *in;
    int n, next;   /* inputs; the next one to merge */
    int committed; /* an input is merged: the checks are all done */
    int started;   /* the checks were started (or are not made) */
    pthread_t thread;
    int threaded;         /* the thread runs (and must be joined) */
    pthread_mutex_t lock; /* guards what follows */
    pthread_cond_t done;
    int checked, stop; /* inputs checked; stop after the current one */
    int failed;        /* a check failed: bad says why */
    qn_err bad;
};

/* Record input i's check that ended with rc, err: the first failure is
 * kept, and fails the whole merge before its first commit. */
static void checked(qn_store_merge_job *j, int rc, const qn_err *err)
{
    pthread_mutex_lock(&j->lock);
    if (rc != QN_OK && !j->failed) {
        j->failed = 1;
        j->bad = *err;
    }
    j->checked++;
    pthread_cond_broadcast(&j->done);
    pthread_mutex_unlock(&j->lock);
}

static int stopping(qn_store_merge_job *j)
{
    int stop;

    pthread_mutex_lock(&j->lock);
    stop = j->stop || j->failed;
    pthread_mutex_unlock(&j->lock);
    return stop;
}

static void *check_all(void *arg)
{
    qn_store_merge_job *j = arg;

    for (int i = 0; i < j->n && !stopping(j); i++) {
        qn_err err = QN_ERR_INIT;
        checked(j, qn_store_merge_check(j->in[i], &err), &err);
    }
    return NULL;
}

/* The gate of the first commit: every input checked, and all passed. */
static int all_checked(void *ctx, qn_err *err)
{
    qn_store_merge_job *j = ctx;
    int rc = QN_OK;

    pthread_mutex_lock(&j->lock);
    while (j->checked < j->n && !j->failed)
        pthread_cond_wait(&j->done, &j->lock);
    if (j->failed) {
        if (err)
            *err = j->bad;
        rc = j->bad.code;
    }
    pthread_mutex_unlock(&j->lock);
    return rc;
}

int qn_store_merge_start(qn_store_merge_job **out, char *const *in, int n,
                         qn_err *err)
{
    qn_store_merge_job *j;

    *out = NULL;
    /* the cheap checks first, each in line: a missing, foreign or newer
     * input is refused before the caller opens OUT */
    for (int i = 0; i < n; i++) {
        int rc = qn_store__merge_input_ok(in[i], 0, err);
        if (rc != QN_OK)
            return rc;
    }
    if (!(j = QN_ALLOC(qn_store_merge_job)))
        return qn_err_nomem(err);
    j->in = in;
    j->n = n;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->done, NULL);
    *out = j;
    return QN_OK;
}

/* The deep checks started (deep), or none to make: every input counts as
 * checked. */
static void start_checks(qn_store_merge_job *j, int deep)
{
    if (j->started)
        return;
    j->started = 1;
    if (!deep) {
        j->checked = j->n;
        return;
    }
    j->threaded = pthread_create(&j->thread, NULL, check_all, j) == 0;
    if (!j->threaded) /* no thread to be had: the checks in line */
        check_all(j);
}

int qn_store_merge_wait(qn_store_merge_job *j, qn_err *err)
{
    start_checks(j, 1);
    return all_checked(j, err);
}

int qn_store_merge_next(qn_store_merge_job *j, qn_store *s,
                        qn_store_merge_stats *stats_out, qn_err *err)
{
    int rc;

    if (j->next >= j->n)
        return QN_ENOTFOUND;
    start_checks(j, !s->aside);       /* an OUT built aside: none */
    if (!j->committed && stopping(j)) /* a check failed already */
        return all_checked(j, err);
    /* the id sets sized for every input at the first (store_merge_keys.c):
     * grown input by input, their rehashes moved 0.75M ids in 4 x 250k */
    s->merge_later = j->in + j->next + 1;
    s->merge_nlater = j->n - j->next - 1;
    rc = qn_store__merge(s, j->in[j->next], j->committed ? NULL : all_checked,
                         j, stats_out, err);
    s->merge_later = NULL;
    s->merge_nlater = 0;
    if (rc == QN_OK) {
        j->committed = 1;
        j->next++;
    }
    return rc;
}

void qn_store_merge_finish(qn_store_merge_job *j)
{
    if (!j)
        return;
    if (j->threaded) {
        pthread_mutex_lock(&j->lock);
        j->stop = 1;
        pthread_mutex_unlock(&j->lock);
        pthread_join(j->thread, NULL);
    }
    pthread_cond_destroy(&j->done);
    pthread_mutex_destroy(&j->lock);
    free(j);
}
