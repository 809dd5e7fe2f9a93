/*
 * gen_run.c: a run's candidates in blocks of consecutive indices, filled
 * by worker threads (or in the caller's thread) and consumed in index
 * order, so the output never depends on the number of threads.
 */
#include "gen_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/mem.h"
#include "generate/distrib.h"
#include "rules/canon.h"

#define BLOCK 1024    /* candidates per block, at most */
#define SEEN_AHEAD 8  /* consume's prefetch distance, in candidates */
#define FIRST_BLOCK 4 /* the first block's size; each next one doubles */

/* Block b holds candidates block_start(b) .. block_start(b + 1) - 1 past
 * start_index. Blocks grow from FIRST_BLOCK to BLOCK, so a run that
 * needs a few puzzles grades a few dozen candidates, not BLOCK per
 * worker, while long runs keep large blocks. Which candidate is which
 * never depends on the sizes, so neither does the output. */
static uint64_t block_start(uint64_t b)
{
    uint64_t grow = 0; /* doublings from FIRST_BLOCK to BLOCK */

    while ((uint64_t)FIRST_BLOCK << grow < BLOCK)
        grow++;
    if (b <= grow)
        return (uint64_t)FIRST_BLOCK * ((UINT64_C(1) << b) - 1);
    return (uint64_t)FIRST_BLOCK * ((UINT64_C(1) << grow) - 1) +
           (b - grow) * BLOCK;
}

/* A block of consecutive candidates, as a worker leaves it. */
typedef struct block {
    uint64_t first;
    int n;   /* candidates in the block */
    int cap; /* candidates the arrays hold */
    size_t ncells, keysize;
    uint8_t *ok;                   /* on target */
    uint8_t *state, *canon, *plan; /* n * ncells each */
    /* the view of each candidate of this shard on target, as hooks and
     * callers see it (text: set as it is consumed) */
    qn_gen_puzzle *pv;
    uint8_t *key; /* n packed canonical keys (qn_seen_prepare) */
    uint64_t *hash;
    size_t *off; /* n + 1 offsets into text */
    qn_buf text;
} block;

static void block_init(block *b, int ncells, size_t keysize)
{
    memset(b, 0, sizeof(*b));
    b->ncells = (size_t)ncells;
    b->keysize = keysize;
    qn_buf_init(&b->text);
}

/* p grown to n elements: 0, or -1 with p as it was (q: scratch). */
#define REGROW(p, n)                                                           \
    ((q = qn_reallocarray((p), (n), sizeof(*(p)))) ? ((p) = q, 0) : -1)

/* Room for n candidates. Slots grow with the blocks, so a short run never
 * allocates (and clears) BLOCK-sized arrays it does not use. QN_OK, or
 * QN_ENOMEM with the block as it was (the arrays that grew are larger,
 * cap is not). */
static int block_reserve(block *b, int n)
{
    size_t c = (size_t)n, cells = c * b->ncells + 1;
    void *q;

    if (n <= b->cap)
        return QN_OK;
    if (REGROW(b->ok, c) || REGROW(b->state, cells) ||
        REGROW(b->canon, cells) || REGROW(b->plan, cells) || REGROW(b->pv, c) ||
        REGROW(b->key, c * b->keysize + 1) || REGROW(b->hash, c) ||
        REGROW(b->off, c + 1))
        return QN_ENOMEM;
    b->cap = n;
    return QN_OK;
}

static void block_release(block *b)
{
    free(b->ok);
    free(b->state);
    free(b->canon);
    free(b->plan);
    free(b->pv);
    free(b->key);
    free(b->hash);
    free(b->off);
    qn_buf_release(&b->text);
}

/* The view of candidate i (graded into s->ans, lit cells s->lit) that
 * hooks and callers see, made once when the block is filled: its text
 * is the block's end, empty (the formatter's append goes there). */
static void view(const genctx *c, block *b, int i, const scratch *s)
{
    size_t o = (size_t)i * c->n;
    qn_gen_puzzle *p = &b->pv[i];

    memset(p, 0, sizeof(*p));
    p->index = b->first + (uint64_t)i;
    p->state = b->state + o;
    p->canon = b->canon + o;
    p->plan = b->plan + o;
    p->presses = s->ans.mp.presses;
    p->noptimal = s->ans.mp.noptimal;
    p->exact = 1;
    p->lit = s->lit;
    p->grade = c->o->tiers ? qn_tiers_grade(c->o->tiers, p->presses)
                           : qn_solver_grade(c->solver, p->presses);
    p->human_level = -1;
    p->human_model_version = c->model.version;
    /* the puzzle id (puzzle_id.h): the rule's key over the canon */
    p->uid = qn_puzzle_id(&c->id_key, p->canon, c->n);
    qn_puzzle_id_hex(p->id, p->uid);
    p->text = b->text.buf + b->text.len;
}

/* The view's human level and score (no level: -1, score 0). QN_OK, or
 * QN_ENOMEM. */
static int grade_human(const genctx *c, qn_gen_puzzle *p)
{
    qn_human_grade gr;
    int rc;

    if (!c->hg)
        return QN_OK;
    rc = qn_human_grade_of(c->hg, p->state, p->plan, p->presses, p->noptimal,
                           &gr, NULL);
    if (rc == QN_OK) {
        p->human_level = gr.level;
        p->human_score = qn_human_score_milli(&c->model, &gr);
    }
    return rc == QN_ENOMEM ? rc : QN_OK;
}

/* Fill block number num. QN_OK, or QN_ENOMEM (the block is not to be
 * consumed, but stays reusable). */
static int fill_block(const genctx *c, const qn_gen_hooks *h, block *b,
                      uint64_t num, scratch *s, const qn_seen *seen)
{
    size_t ks = qn_seen_key_size(seen);
    uint64_t first = c->o->start_index + block_start(num);
    int rc = QN_OK;

    b->first = first;
    b->n = (int)(block_start(num + 1) - block_start(num));
    if (block_reserve(b, b->n) != QN_OK)
        return QN_ENOMEM;
    qn_buf_reset(&b->text);
    /* the formatter's appends: text.failed is checked at the end */
    for (int i = 0; i < b->n && rc == QN_OK; i++) {
        size_t o = (size_t)i * c->n;
        b->off[i] = b->text.len;
        int graded, on;
        on = qn_gen__candidate(c, c->mode, first + (uint64_t)i, s, b->state + o,
                               &graded);
        b->ok[i] = (uint8_t)(on > 0);
        if (on < 0)
            rc = QN_ENOMEM;
        if (on <= 0)
            continue;
        qn_canon_form_table(c->canon, qn_solver_rules(c->solver), b->canon + o,
                            b->state + o);
        qn_seen_prepare(seen, b->key + (size_t)i * ks, &b->hash[i],
                        b->canon + o);
        if (!mine(c, first + (uint64_t)i))
            continue; /* another shard's: only its key counts here */
        memcpy(b->plan + o, s->ans.plan, (size_t)c->n);
        view(c, b, i, s);
        if (grade_human(c, &b->pv[i]) != QN_OK) {
            rc = QN_ENOMEM;
            continue;
        }
        if (h->format)
            h->format(h->ctx, &b->pv[i], &b->text);
    }
    b->off[b->n] = b->text.len;
    return rc == QN_OK && b->text.failed ? QN_ENOMEM : rc;
}

/* The worker pool: blocks are claimed in order and consumed in order. */
typedef struct pool {
    const genctx *c;
    const qn_gen_hooks *h;
    pthread_mutex_t mu;
    pthread_cond_t ready_cv, free_cv;
    uint64_t next;     /* next block number to claim */
    uint64_t consumed; /* blocks the consumer is done with */
    int stop;
    int nomem; /* a worker ran out of memory: the run ends (QN_ENOMEM) */
    int nslots;
    block *slots;
    uint64_t *holds; /* per slot: block number + 1 when ready, or 0 */
    qn_seen *seen;   /* read-only for workers (qn_seen_prepare) */
} pool;

/* A worker ran out of memory: tell the consumer, which ends the run. */
static void *worker_failed(pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->nomem = 1;
    pthread_cond_broadcast(&p->ready_cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void *worker(void *arg)
{
    pool *p = arg;
    scratch s;

    if (qn_gen__scratch_init(&s, p->c) != QN_OK)
        return worker_failed(p);
    for (;;) {
        uint64_t b;
        pthread_mutex_lock(&p->mu);
        while (!p->stop && p->next - p->consumed >= (uint64_t)p->nslots)
            pthread_cond_wait(&p->free_cv, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            break;
        }
        b = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (fill_block(p->c, p->h, &p->slots[b % (uint64_t)p->nslots], b, &s,
                       p->seen) != QN_OK) {
            worker_failed(p);
            break;
        }
        pthread_mutex_lock(&p->mu);
        p->holds[b % (uint64_t)p->nslots] = b + 1;
        pthread_cond_broadcast(&p->ready_cv);
        pthread_mutex_unlock(&p->mu);
    }
    qn_gen__scratch_release(&s);
    return NULL;
}

/*
 * SPREAD, on the consumer's side (gen.h, "Spread"): the puzzles each count
 * has emitted, and the fewest among the counts that still have puzzles
 * (floor, held by at_floor of them). A count may emit only at the floor.
 * A count of unknown size (no exact distribution) that reaches only
 * known puzzles QN_GEN_DRY times in a row while at the floor is retired:
 * taken to hold what it gave.
 */
typedef struct tally {
    uint64_t *emitted; /* per c->values slot */
    uint64_t *avail;   /* c->avail, a retired count's lowered */
    uint64_t *dry;     /* per slot: reached, nothing new, in a row */
    uint64_t floor;
    size_t at_floor;
} tally;

static int live(const tally *t, size_t slot)
{
    return t->emitted[slot] < t->avail[slot];
}

static void find_floor(const genctx *c, tally *t)
{
    t->floor = UINT64_MAX;
    t->at_floor = 0;
    for (size_t v = 0; v < c->nvalues; v++) {
        if (!live(t, v) || t->emitted[v] > t->floor)
            continue;
        if (t->emitted[v] < t->floor)
            t->floor = t->emitted[v], t->at_floor = 0;
        t->at_floor++;
    }
}

/* QN_OK, or QN_ENOMEM (tally_release is still safe). */
static int tally_init(tally *t, const genctx *c)
{
    t->emitted = QN_ALLOCN(c->nvalues + 1, uint64_t);
    t->dry = QN_ALLOCN(c->nvalues + 1, uint64_t);
    t->avail = QN_ALLOCN(c->nvalues + 1, uint64_t);
    if (!t->emitted || !t->dry || !t->avail)
        return QN_ENOMEM;
    if (c->nvalues)
        memcpy(t->avail, c->avail, c->nvalues * sizeof(*t->avail));
    find_floor(c, t);
    return QN_OK;
}

static void tally_release(tally *t)
{
    free(t->emitted);
    free(t->dry);
    free(t->avail);
}

/* Candidate `index` is on target and new: may its count emit it? (A
 * count out of puzzles gets only duplicates: seen refuses those.) */
static int tally_admits(const genctx *c, const tally *t, uint64_t index)
{
    size_t slot;

    if (!c->nvalues)
        return 1;
    slot = spread_slot(c, index);
    return !live(t, slot) || t->emitted[slot] == t->floor;
}

static void tally_add(const genctx *c, tally *t, uint64_t index)
{
    size_t slot;

    if (!c->nvalues)
        return;
    slot = spread_slot(c, index);
    t->emitted[slot]++;
    t->dry[slot] = 0;
    if (--t->at_floor == 0) /* the last one at the floor moved up */
        find_floor(c, t);
}

/* An admitted candidate of `index`'s count brought nothing new. */
static void tally_dry(const genctx *c, tally *t, uint64_t index,
                      qn_gen_stats *st)
{
    size_t slot;

    if (!c->nvalues)
        return;
    slot = spread_slot(c, index);
    if (c->avail[slot] != UINT64_MAX || !live(t, slot) ||
        ++t->dry[slot] < QN_GEN_DRY)
        return;
    t->avail[slot] = t->emitted[slot]; /* retired */
    st->retired++;
    find_floor(c, t);
}

/* Consumer side: emit the block's new on-target puzzles in order. */
static int consume(const genctx *c, const qn_gen_hooks *h, block *b,
                   qn_seen *seen, tally *t, qn_gen_stats *st)
{
    for (int i = 0; i < b->n; i++) {
        qn_gen_puzzle *p;
        /* the seen-set's slot a few candidates ahead: its probe would
         * otherwise wait for memory (a random slot of a large table) */
        if (i + SEEN_AHEAD < b->n && b->ok[i + SEEN_AHEAD])
            qn_seen_prefetch(seen, b->hash[i + SEEN_AHEAD]);
        if (st->draws >= c->o->max_draws)
            return 2; /* exactly max_draws, whatever the block sizes */
        st->draws++;
        if (!b->ok[i])
            continue;
        st->on_target++;
        if (!tally_admits(c, t, b->first + (uint64_t)i)) {
            st->ahead++; /* not marked seen: a later draw may emit it */
            continue;
        }
        int added = qn_seen_add_prepared(
            seen, b->key + (size_t)i * qn_seen_key_size(seen), b->hash[i],
            b->first + i, NULL);
        if (added < 0)
            return QN_ENOMEM; /* the set could not grow */
        if (!added) {
            st->duplicates++;
            tally_dry(c, t, b->first + (uint64_t)i, st);
            continue;
        }
        if (!mine(c, b->first + (uint64_t)i)) {
            st->emitted++; /* emitted by its own shard */
            st->other_shards++;
            tally_add(c, t, b->first + (uint64_t)i);
            if (st->emitted == c->o->count)
                return 1;
            continue;
        }
        p = &b->pv[i]; /* its text, now that the buffer has stopped moving */
        p->text = h->format ? b->text.buf + b->off[i] : NULL;
        p->textlen = h->format ? b->off[i + 1] - b->off[i] : 0;
        switch (h->emit(h->ctx, p)) {
        case QN_GEN_EMITTED:
            st->emitted++;
            tally_add(c, t, b->first + (uint64_t)i);
            break;
        case QN_GEN_ALREADY:
            st->duplicates++;
            tally_dry(c, t, b->first + (uint64_t)i, st);
            continue;
        default:
            return -1;
        }
        if (st->emitted == c->o->count)
            return 1;
    }
    return 0;
}

static int stopped(const qn_gen_hooks *h)
{
    return h->stop && *h->stop;
}

/* After consuming a block: report, and stop when asked to or out of
 * draws. Returns consume's result, or -1 (stopped) or 2 (no draws left). */
static int after_block(const genctx *c, const qn_gen_hooks *h, qn_gen_stats *st,
                       int rc)
{
    if (h->progress)
        h->progress(h->ctx, st);
    if (rc == 0 && stopped(h))
        rc = -1;
    if (rc == 0 && st->draws >= c->o->max_draws)
        rc = 2;
    return rc;
}

/* The run's set of canonical forms, sized for the puzzles it will hold
 * (every shard's: each holds the keys of all), so that it is not
 * rehashed as it fills. NULL when out of memory. */
static qn_seen *new_seen(const genctx *c)
{
    qn_seen *seen = qn_seen_new(c->n, c->k, NULL);
    uint64_t want = c->o->count, shards = c->o->nshards > 1 ? c->o->nshards : 1;

    want = want > QN_SEEN_RESERVE_MAX / shards ? QN_SEEN_RESERVE_MAX
                                               : want * shards;
    if (seen)
        (void)qn_seen_reserve(seen, (size_t)want); /* a hint */
    return seen;
}

/* jobs == 0: fill and consume each block in the caller's thread. For
 * callers that cannot have threads, and short runs, where starting a
 * worker costs more than the work (the fuzz target makes thousands a
 * second). */
static int run_inline(const genctx *c, const qn_gen_hooks *h, qn_gen_stats *st)
{
    qn_seen *seen = new_seen(c);
    scratch s;
    block blk;
    tally t = {0};
    int rc = 0;

    if (!seen)
        return QN_ENOMEM;
    if (qn_gen__scratch_init(&s, c) != QN_OK) {
        qn_seen_free(seen);
        return QN_ENOMEM;
    }
    if (tally_init(&t, c) != QN_OK)
        rc = QN_ENOMEM;
    block_init(&blk, c->n, qn_seen_key_size(seen));
    for (uint64_t b = 0; rc == 0; b++) {
        if (fill_block(c, h, &blk, b, &s, seen) != QN_OK)
            rc = QN_ENOMEM;
        else
            rc = after_block(c, h, st, consume(c, h, &blk, seen, &t, st));
    }
    block_release(&blk);
    tally_release(&t);
    qn_gen__scratch_release(&s);
    qn_seen_free(seen);
    return rc;
}

static int run_pool(const genctx *c, const qn_gen_hooks *h, qn_gen_stats *st)
{
    pool p;
    pthread_t *th;
    qn_seen *seen = new_seen(c);
    int jobs = c->o->jobs, rc = 0, started = 0;
    tally t = {0};

    memset(&p, 0, sizeof(p));
    p.nslots = 2 * jobs + 2;
    p.slots = QN_ALLOCN((size_t)p.nslots, block);
    p.holds = QN_ALLOCN((size_t)p.nslots, uint64_t);
    th = QN_ALLOCN((size_t)jobs, pthread_t);
    if (!seen || !p.slots || !p.holds || !th || tally_init(&t, c) != QN_OK) {
        free(p.slots);
        free(p.holds);
        free(th);
        tally_release(&t);
        qn_seen_free(seen);
        return QN_ENOMEM;
    }
    p.c = c;
    p.h = h;
    p.seen = seen;
    for (int i = 0; i < p.nslots; i++)
        block_init(&p.slots[i], c->n, qn_seen_key_size(seen));
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.ready_cv, NULL);
    pthread_cond_init(&p.free_cv, NULL);
    /* fewer workers make the same puzzles; none is out of resources */
    while (started < jobs &&
           pthread_create(&th[started], NULL, worker, &p) == 0)
        started++;
    if (!started)
        p.nomem = 1;
    for (uint64_t b = 0; rc == 0; b++) {
        block *blk = &p.slots[b % (uint64_t)p.nslots];
        pthread_mutex_lock(&p.mu);
        while (p.holds[b % (uint64_t)p.nslots] != b + 1 && !p.nomem)
            pthread_cond_wait(&p.ready_cv, &p.mu);
        /* a worker ran out of memory: end here, before any block past a
         * gap, so what was emitted is a prefix of the run's puzzles */
        if (p.holds[b % (uint64_t)p.nslots] != b + 1)
            rc = QN_ENOMEM;
        pthread_mutex_unlock(&p.mu);
        if (rc == 0)
            rc = after_block(c, h, st, consume(c, h, blk, seen, &t, st));
        pthread_mutex_lock(&p.mu);
        p.holds[b % (uint64_t)p.nslots] = 0;
        p.consumed++;
        if (rc)
            p.stop = 1;
        pthread_cond_broadcast(&p.free_cv);
        pthread_mutex_unlock(&p.mu);
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < p.nslots; i++)
        block_release(&p.slots[i]);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.ready_cv);
    pthread_cond_destroy(&p.free_cv);
    free(p.slots);
    free(p.holds);
    free(th);
    tally_release(&t);
    qn_seen_free(seen);
    return rc;
}

int qn_gen__run(const genctx *c, const qn_gen_hooks *h, qn_gen_stats *st)
{
    return c->o->jobs > 0 ? run_pool(c, h, st) : run_inline(c, h, st);
}
