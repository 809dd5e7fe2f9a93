/*
 * gen.c: the generator (see gen.h for the contract).
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
#include "quench/gen.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "quench/canon.h"
#include "quench/distrib.h"
#include "quench/hash.h"
#include "quench/mem.h"

#define BLOCK 1024        /* candidates per block, at most */
#define FIRST_BLOCK 4     /* the first block's size; each next one doubles */
#define PILOT 20000       /* SAMPLE draws that estimate a target's rarity */
#define CLIMB_RARITY 1e-4 /* rarer targets are climbed to, not sampled */
#define REDRAWS 64        /* draws before a candidate gives up */
#ifndef CLIMB_STEPS
#define CLIMB_STEPS(n) ((n) + 20) /* tries before a climb is dropped */
#endif

const char *qn_gen_mode_name(qn_gen_mode m)
{
    static const char *const names[] = {"auto", "sample", "exhaustive",
                                        "climb"};
    return (unsigned)m < 4 ? names[m] : "?";
}

void qn_gen_opts_init(qn_gen_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->count = 1;
    o->lo = 1;
    o->hi = UINT64_MAX;
    o->jobs = 1;
    o->mode = QN_GEN_AUTO;
}

/* What every candidate computation reads; immutable during a run. */
typedef struct genctx {
    const qn_solver *g;
    const qn_gen_opts *o;
    qn_gen_mode mode;
    int n;
    unsigned k;
    const uint8_t *goal;
    const uint8_t *matrix;
    uint8_t rule_digest[QN_HASH_BYTES];
    uint64_t range_total;  /* EXHAUSTIVE: states with lo..hi presses */
} genctx;

/* Per-thread buffers. */
typedef struct scratch {
    qn_answer ans;
    uint8_t *d;
} scratch;

static void scratch_init(scratch *s, const genctx *c)
{
    qn_answer_init(&s->ans, c->g);
    s->d = QN_NEWN((size_t)c->n + 1, uint8_t);
}

static void scratch_release(scratch *s)
{
    qn_answer_release(&s->ans);
    free(s->d);
}

static int is_zero(const uint8_t *d, int n)
{
    for (int i = 0; i < n; i++)
        if (d[i])
            return 0;
    return 1;
}

/* state = goal + d (mod k) */
static void add_goal(const genctx *c, uint8_t *state, const uint8_t *d)
{
    for (int i = 0; i < c->n; i++)
        state[i] = (uint8_t)((c->goal[i] + d[i]) % c->k);
}

/* A uniformly random solvable state other than the goal; 0 on failure. */
static int sample(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state)
{
    const qn_repair *rep = qn_solver_repair(c->g);

    for (int t = 0; t < REDRAWS; t++) {
        qn_rng_cells(rng, s->d, c->n, c->k);
        if (rep)
            qn_repair_apply(rep, s->d);
        else if (!qn_system_is_solvable(qn_solver_system(c->g), s->d))
            continue; /* no repair table: rejection keeps it uniform */
        if (is_zero(s->d, c->n))
            continue;
        add_goal(c, state, s->d);
        return 1;
    }
    return 0;
}

/* Uniform among the states with lo..hi presses, from the distribution. */
static int exhaustive(const genctx *c, qn_rng *rng, scratch *s,
                      uint8_t *state)
{
    const qn_distrib *dist = c->o->distrib;
    uint64_t r = qn_rng_below(rng, c->range_total);
    size_t len = qn_distrib_len(dist);

    for (size_t m = (size_t)c->o->lo; m < len && m <= c->o->hi; m++) {
        uint64_t cnt = qn_distrib_count(dist, m);
        if (r < cnt) {
            qn_distrib_nth(dist, m, r, s->d);
            add_goal(c, state, s->d);
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
 * quiet pattern, which tends to be heavier. So for a hard target
 * (lo above what sampling reaches) start from w = lo..lo+2 random presses;
 * otherwise from a uniform sample.
 */
static int climb_start(const genctx *c, qn_rng *rng, scratch *s,
                       uint8_t *state)
{
    int w, n = c->n;
    int *cells = (int *)s->ans.repair_cell; /* n ints of scratch */

    if (c->o->lo <= 1 || c->o->lo > (uint64_t)n)
        return sample(c, rng, s, state);
    w = (int)c->o->lo + (int)qn_rng_below(rng, 3);
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

/*
 * Climb: from the start above, try random presses and keep those that do
 * not move the exact minimum away from the target range. A climb that
 * has not arrived after CLIMB_STEPS tries is dropped (local maxima are
 * common near the top, and a fresh start is cheaper than waiting). Each
 * step is graded exactly, and so is the candidate before it is emitted.
 */
static int climb(const genctx *c, qn_rng *rng, scratch *s, uint8_t *state)
{
    uint8_t *trial = s->d;
    uint64_t m;
    int steps = CLIMB_STEPS(c->n);

    if (!climb_start(c, rng, s, state))
        return 0;
    qn_solver_answer(c->g, &s->ans, state);
    m = s->ans.mp.presses;
    while (steps-- > 0 && (m < c->o->lo || m > c->o->hi)) {
        int j = (int)qn_rng_below(rng, (uint64_t)c->n);
        unsigned t = 1 + (unsigned)qn_rng_below(rng, c->k - 1);
        uint64_t m2;

        memcpy(trial, state, (size_t)c->n);
        press(c, trial, j, t);
        qn_solver_answer(c->g, &s->ans, trial);
        if (!s->ans.exact || s->ans.at_goal)
            continue;
        m2 = s->ans.mp.presses;
        if ((m < c->o->lo && m2 >= m) || (m > c->o->hi && m2 <= m)) {
            memcpy(state, trial, (size_t)c->n);
            m = m2;
        }
    }
    return 1;
}

static int on_target(const genctx *c, const qn_answer *a, int lit)
{
    return a->solvable && a->exact && !a->at_goal &&
           a->mp.presses >= c->o->lo && a->mp.presses <= c->o->hi &&
           (!c->o->unique_optimum || a->mp.noptimal == 1) &&
           lit >= c->o->min_lit;
}

static int count_lit(const genctx *c, const uint8_t *state)
{
    int lit = 0;

    for (int i = 0; i < c->n; i++)
        lit += state[i] != c->goal[i];
    return lit;
}

/* Does the run need candidate `index` graded and emitted here? */
static int mine(const genctx *c, uint64_t index)
{
    return c->o->nshards <= 1 || index % c->o->nshards == c->o->shard;
}

/* Targets decided without grading: only "solvable, not the goal, lit". */
static int grade_free(const genctx *c)
{
    return c->o->lo <= 1 && c->o->hi == UINT64_MAX &&
           !c->o->unique_optimum && c->mode == QN_GEN_SAMPLE;
}

/*
 * Make candidate `index` into state; grade it into s->ans unless it is
 * another shard's and the target needs no grade (*graded says which).
 * Returns 1 if it is on target.
 */
static int candidate2(const genctx *c, qn_gen_mode mode, uint64_t index,
                      scratch *s, uint8_t *state, int *graded)
{
    qn_rng rng;
    int made;

    qn_rng_init(&rng, &c->o->seed, index);
    if (mode == QN_GEN_EXHAUSTIVE)
        made = exhaustive(c, &rng, s, state);
    else if (mode == QN_GEN_CLIMB)
        made = climb(c, &rng, s, state);
    else
        made = sample(c, &rng, s, state);
    *graded = 0;
    if (!made)
        return 0;
    if (!mine(c, index) && grade_free(c))
        return count_lit(c, state) >= c->o->min_lit;
    *graded = 1;
    qn_solver_answer(c->g, &s->ans, state);
    return on_target(c, &s->ans, count_lit(c, state));
}

/* The same, always graded (pilot, sampling, regeneration: no shards). */
static int candidate(const genctx *c, qn_gen_mode mode, uint64_t index,
                     scratch *s, uint8_t *state)
{
    int graded;

    return candidate2(c, mode, index, s, state, &graded);
}

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
    int n;            /* candidates in the block */
    int cap;          /* candidates the arrays hold */
    size_t ncells, keysize;
    uint8_t *ok;      /* on target */
    uint8_t *state, *canon, *plan; /* n * ncells each */
    uint64_t *presses, *nopt;
    int *lit;
    char (*id)[17];
    uint8_t *key;     /* n packed canonical keys (qn_seen_prepare) */
    uint64_t *hash;
    size_t *off;      /* n + 1 offsets into text */
    qn_buf text;
} block;

static void block_init(block *b, int ncells, size_t keysize)
{
    memset(b, 0, sizeof(*b));
    b->ncells = (size_t)ncells;
    b->keysize = keysize;
    qn_buf_init(&b->text);
}

/* Room for n candidates. Slots grow with the blocks, so a short run never
 * allocates (and clears) BLOCK-sized arrays it does not use. */
static void block_reserve(block *b, int n)
{
    size_t c = (size_t)n;

    if (n <= b->cap)
        return;
    b->ok = QN_RENEW(b->ok, c, uint8_t);
    b->state = QN_RENEW(b->state, c * b->ncells + 1, uint8_t);
    b->canon = QN_RENEW(b->canon, c * b->ncells + 1, uint8_t);
    b->plan = QN_RENEW(b->plan, c * b->ncells + 1, uint8_t);
    b->presses = QN_RENEW(b->presses, c, uint64_t);
    b->nopt = QN_RENEW(b->nopt, c, uint64_t);
    b->lit = QN_RENEW(b->lit, c, int);
    b->id = qn_xreallocarray(b->id, c, sizeof(*b->id));
    b->key = QN_RENEW(b->key, c * b->keysize + 1, uint8_t);
    b->hash = QN_RENEW(b->hash, c, uint64_t);
    b->off = QN_RENEW(b->off, c + 1, size_t);
    b->cap = n;
}

static void block_release(block *b)
{
    free(b->ok);
    free(b->state);
    free(b->canon);
    free(b->plan);
    free(b->presses);
    free(b->nopt);
    free(b->lit);
    free(b->id);
    free(b->key);
    free(b->hash);
    free(b->off);
    qn_buf_release(&b->text);
}

/* The content id: SipHash of the canonical form, keyed by the rule. */
static void content_id(const genctx *c, const uint8_t *canon, char id[17])
{
    static const char hex[] = "0123456789abcdef";
    uint64_t v = qn_hash_short(c->rule_digest, canon, (size_t)c->n);

    for (int i = 15; i >= 0; i--, v >>= 4)
        id[i] = hex[v & 15];
    id[16] = '\0';
}

/* The view of candidate i of a block that hooks and callers see. */
static void view(const genctx *c, const block *b, int i, qn_gen_puzzle *p)
{
    size_t o = (size_t)i * c->n;

    memset(p, 0, sizeof(*p));
    p->index = b->first + (uint64_t)i;
    p->state = b->state + o;
    p->canon = b->canon + o;
    p->plan = b->plan + o;
    p->presses = b->presses[i];
    p->noptimal = b->nopt[i];
    p->exact = 1;
    p->lit = b->lit[i];
    p->grade = c->o->tiers ? qn_tiers_grade(c->o->tiers, p->presses)
                           : qn_solver_grade(c->g, p->presses);
    memcpy(p->id, b->id[i], sizeof(p->id));
    p->text = b->text.buf + b->off[i];
    p->textlen = b->off[i + 1] - b->off[i];
}

static void fill_block(const genctx *c, const qn_gen_hooks *h, block *b,
                       uint64_t num, scratch *s, const qn_seen *seen)
{
    size_t ks = qn_seen_key_size(seen);
    uint64_t first = c->o->start_index + block_start(num);

    b->first = first;
    b->n = (int)(block_start(num + 1) - block_start(num));
    block_reserve(b, b->n);
    qn_buf_reset(&b->text);
    for (int i = 0; i < b->n; i++) {
        size_t o = (size_t)i * c->n;
        b->off[i] = b->text.len;
        int graded;
        b->ok[i] = (uint8_t)candidate2(c, c->mode, first + (uint64_t)i, s,
                                       b->state + o, &graded);
        if (!b->ok[i])
            continue;
        qn_canon_form(qn_solver_rules(c->g), b->canon + o, b->state + o);
        qn_seen_prepare(seen, b->key + (size_t)i * ks, &b->hash[i],
                        b->canon + o);
        if (!mine(c, first + (uint64_t)i))
            continue; /* another shard's: only its key counts here */
        memcpy(b->plan + o, s->ans.plan, (size_t)c->n);
        b->presses[i] = s->ans.mp.presses;
        b->nopt[i] = s->ans.mp.noptimal;
        b->lit[i] = count_lit(c, b->state + o);
        content_id(c, b->canon + o, b->id[i]);
        if (h->format) {
            qn_gen_puzzle p;
            b->off[i + 1] = b->off[i]; /* view() reads it */
            view(c, b, i, &p);
            h->format(h->ctx, &p, &b->text);
        }
    }
    b->off[b->n] = b->text.len;
}

/* The worker pool: blocks are claimed in order and consumed in order. */
typedef struct pool {
    const genctx *c;
    const qn_gen_hooks *h;
    pthread_mutex_t mu;
    pthread_cond_t ready_cv, free_cv;
    uint64_t next;       /* next block number to claim */
    uint64_t consumed;   /* blocks the consumer is done with */
    int stop;
    int nslots;
    block *slots;
    uint64_t *holds;     /* per slot: block number + 1 when ready, or 0 */
    qn_seen *seen;       /* read-only for workers (qn_seen_prepare) */
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    scratch s;

    scratch_init(&s, p->c);
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
        fill_block(p->c, p->h, &p->slots[b % (uint64_t)p->nslots], b, &s,
                   p->seen);
        pthread_mutex_lock(&p->mu);
        p->holds[b % (uint64_t)p->nslots] = b + 1;
        pthread_cond_broadcast(&p->ready_cv);
        pthread_mutex_unlock(&p->mu);
    }
    scratch_release(&s);
    return NULL;
}

/* Consumer side: emit the block's new on-target puzzles in order. */
static int consume(const genctx *c, const qn_gen_hooks *h, const block *b,
                   qn_seen *seen, qn_gen_stats *st)
{
    for (int i = 0; i < b->n; i++) {
        qn_gen_puzzle p;
        if (st->draws >= c->o->max_draws)
            return 2; /* exactly max_draws, whatever the block sizes */
        st->draws++;
        if (!b->ok[i])
            continue;
        st->on_target++;
        if (!qn_seen_add_prepared(seen,
                                  b->key + (size_t)i * qn_seen_key_size(seen),
                                  b->hash[i], b->first + i, NULL)) {
            st->duplicates++;
            continue;
        }
        if (!mine(c, b->first + (uint64_t)i)) {
            st->emitted++; /* emitted by its own shard */
            st->other_shards++;
            if (st->emitted == c->o->count)
                return 1;
            continue;
        }
        view(c, b, i, &p);
        if (!h->format)
            p.text = NULL, p.textlen = 0;
        switch (h->emit(h->ctx, &p)) {
        case QN_GEN_EMITTED:
            st->emitted++;
            break;
        case QN_GEN_ALREADY:
            st->duplicates++;
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
static int after_block(const genctx *c, const qn_gen_hooks *h,
                       qn_gen_stats *st, int rc)
{
    if (h->progress)
        h->progress(h->ctx, st);
    if (rc == 0 && stopped(h))
        rc = -1;
    if (rc == 0 && st->draws >= c->o->max_draws)
        rc = 2;
    return rc;
}

/* jobs == 0: fill and consume each block in the caller's thread. For
 * callers that cannot have threads, and short runs, where starting a
 * worker costs more than the work (the fuzz target makes thousands a
 * second). */
static int run_inline(const genctx *c, const qn_gen_hooks *h,
                      qn_gen_stats *st)
{
    qn_seen *seen = qn_seen_new(c->n, c->k);
    scratch s;
    block blk;
    int rc = 0;

    scratch_init(&s, c);
    block_init(&blk, c->n, qn_seen_key_size(seen));
    for (uint64_t b = 0; rc == 0; b++) {
        fill_block(c, h, &blk, b, &s, seen);
        rc = after_block(c, h, st, consume(c, h, &blk, seen, st));
    }
    block_release(&blk);
    scratch_release(&s);
    qn_seen_free(seen);
    return rc;
}

static int run_pool(const genctx *c, const qn_gen_hooks *h, qn_gen_stats *st)
{
    pool p;
    pthread_t *th;
    qn_seen *seen = qn_seen_new(c->n, c->k);
    int jobs = c->o->jobs, rc = 0;

    memset(&p, 0, sizeof(p));
    p.c = c;
    p.h = h;
    p.seen = seen;
    p.nslots = 2 * jobs + 2;
    p.slots = QN_NEWN((size_t)p.nslots, block);
    p.holds = QN_NEWN((size_t)p.nslots, uint64_t);
    for (int i = 0; i < p.nslots; i++)
        block_init(&p.slots[i], c->n, qn_seen_key_size(seen));
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.ready_cv, NULL);
    pthread_cond_init(&p.free_cv, NULL);
    th = QN_NEWN((size_t)jobs, pthread_t);
    for (int i = 0; i < jobs; i++)
        pthread_create(&th[i], NULL, worker, &p);
    for (uint64_t b = 0; rc == 0; b++) {
        block *blk = &p.slots[b % (uint64_t)p.nslots];
        pthread_mutex_lock(&p.mu);
        while (p.holds[b % (uint64_t)p.nslots] != b + 1)
            pthread_cond_wait(&p.ready_cv, &p.mu);
        pthread_mutex_unlock(&p.mu);
        rc = after_block(c, h, st, consume(c, h, blk, seen, st));
        pthread_mutex_lock(&p.mu);
        p.holds[b % (uint64_t)p.nslots] = 0;
        p.consumed++;
        if (rc)
            p.stop = 1;
        pthread_cond_broadcast(&p.free_cv);
        pthread_mutex_unlock(&p.mu);
    }
    for (int i = 0; i < jobs; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < p.nslots; i++)
        block_release(&p.slots[i]);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.ready_cv);
    pthread_cond_destroy(&p.free_cv);
    free(p.slots);
    free(p.holds);
    free(th);
    qn_seen_free(seen);
    return rc;
}

/* Fraction of uniform samples on target, from a pilot run. */
static double pilot(const genctx *c)
{
    scratch s;
    uint8_t *state = QN_NEWN((size_t)c->n + 1, uint8_t);
    uint64_t hits = 0;
    /* a seed of its own, so the pilot never shares candidate streams */
    qn_gen_opts o = *c->o;
    genctx pc = *c;

    o.seed.b[0] ^= 0x5a;
    pc.o = &o;
    scratch_init(&s, c);
    for (uint64_t i = 0; i < PILOT; i++)
        hits += (uint64_t)candidate(&pc, QN_GEN_SAMPLE, i, &s, state);
    scratch_release(&s);
    free(state);
    return (double)hits / PILOT;
}

static int restricted(const qn_gen_opts *o)
{
    return o->lo > 1 || o->hi != UINT64_MAX || o->unique_optimum ||
           o->min_lit > 0;
}

/* Choose the mode and check the target is not empty. */
static int plan_run(genctx *c, qn_gen_stats *st, qn_err *err)
{
    const qn_gen_opts *o = c->o;
    uint64_t maxp = (uint64_t)c->n * (c->k - 1);
    qn_err e = QN_ERR_INIT;

    /* Every puzzle is graded exactly before it is emitted. Past the walk
     * limit no grade is exact, for any state: say so now, rather than
     * draw until max_draws and blame the target's rarity. */
    if (qn_solver_check_exact(c->g, &e) != QN_OK)
        return qn_err_set(err, QN_EINVAL, 0, 0, "%s", e.msg);
    if (o->lo > o->hi)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "empty press range %llu..%llu",
                          (unsigned long long)o->lo,
                          (unsigned long long)o->hi);
    if (o->lo > maxp)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "no state needs %llu presses: %d cells allow at "
                          "most %llu",
                          (unsigned long long)o->lo, c->n,
                          (unsigned long long)maxp);
    if (o->min_lit > c->n)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "--min-lit %d exceeds the %d cells", o->min_lit,
                          c->n);
    if (o->distrib) {
        uint64_t total = qn_distrib_total(o->distrib);
        c->range_total = 0;
        for (size_t m = (size_t)o->lo;
             m < qn_distrib_len(o->distrib) && m <= o->hi; m++)
            c->range_total += qn_distrib_count(o->distrib, m);
        if (c->range_total == 0)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "no solvable state needs %llu..%llu presses "
                              "(the most any needs is %zu)",
                              (unsigned long long)o->lo,
                              (unsigned long long)o->hi,
                              qn_distrib_len(o->distrib) - 1);
        st->rarity = (double)c->range_total / (double)total;
        st->rarity_exact = 1;
    }
    c->mode = o->mode;
    if (c->mode == QN_GEN_AUTO) {
        if (!restricted(o))
            c->mode = QN_GEN_SAMPLE;
        else if (o->distrib && (o->lo > 1 || o->hi != UINT64_MAX))
            c->mode = QN_GEN_EXHAUSTIVE;
        else {
            double f = pilot(c);
            if (!st->rarity_exact)
                st->rarity = f;
            c->mode = f >= CLIMB_RARITY ? QN_GEN_SAMPLE : QN_GEN_CLIMB;
        }
    }
    if (c->mode == QN_GEN_EXHAUSTIVE && !o->distrib)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "exhaustive selection needs the exact "
                          "distribution");
    st->mode = c->mode;
    return QN_OK;
}

static void ctx_init(genctx *c, const qn_solver *g, const qn_gen_opts *o)
{
    const qn_rules *r = qn_solver_rules(g);
    char hex[65];

    memset(c, 0, sizeof(*c));
    c->g = g;
    c->o = o;
    c->n = qn_solver_ncells(g);
    c->k = qn_solver_colours(g);
    c->goal = qn_rules_goal(r);
    c->matrix = qn_rules_matrix(r);
    qn_hash h;

    qn_rules_hash(r, hex);
    qn_hash_init(&h);
    qn_hash_update(&h, hex, 64);
    qn_hash_final(&h, c->rule_digest);
}

int qn_gen_run(const qn_solver *g, const qn_gen_opts *o, const qn_gen_hooks *h,
               qn_gen_stats *st, qn_err *err)
{
    genctx c;
    int rc;

    memset(st, 0, sizeof(*st));
    st->rarity = -1;
    ctx_init(&c, g, o);
    if ((rc = plan_run(&c, st, err)) != QN_OK)
        return rc;
    if (o->count == 0)
        return QN_OK;
    rc = o->jobs > 0 ? run_pool(&c, h, st) : run_inline(&c, h, st);
    if (rc == 1)
        return QN_OK;
    if (rc == 2)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "found %llu of %llu puzzles in %llu draws: the "
                          "target is too rare or has too few distinct "
                          "puzzles",
                          (unsigned long long)st->emitted,
                          (unsigned long long)o->count,
                          (unsigned long long)st->draws);
    return qn_err_set(err, QN_ERR, 0, 0, "stopped after %llu puzzles",
                      (unsigned long long)st->emitted);
}

int qn_gen_candidate(const qn_solver *g, const qn_gen_opts *o, uint64_t index,
                     uint8_t *state, uint64_t *presses)
{
    genctx c;
    qn_gen_stats st;
    scratch s;
    int ok;

    memset(&st, 0, sizeof(st));
    ctx_init(&c, g, o);
    if (plan_run(&c, &st, NULL) != QN_OK)
        return 0;
    scratch_init(&s, &c);
    ok = candidate(&c, c.mode, index, &s, state);
    *presses = s.ans.mp.presses;
    scratch_release(&s);
    return ok;
}

size_t qn_gen_sample_presses(const qn_solver *g, const qn_seed *seed,
                             uint64_t *out, size_t n)
{
    qn_gen_opts o;
    genctx c;
    scratch s;
    uint8_t *state;
    size_t got = 0;

    qn_gen_opts_init(&o);
    o.seed = *seed;
    o.seed.b[1] ^= 0xa5; /* a stream of its own, apart from the run's */
    ctx_init(&c, g, &o);
    c.mode = QN_GEN_SAMPLE;
    scratch_init(&s, &c);
    state = QN_NEWN((size_t)c.n + 1, uint8_t);
    for (size_t i = 0; i < n; i++) {
        qn_rng rng;
        qn_rng_init(&rng, &o.seed, i);
        if (!sample(&c, &rng, &s, state))
            continue;
        qn_solver_answer(g, &s.ans, state);
        if (s.ans.exact)
            out[got++] = s.ans.mp.presses;
    }
    free(state);
    scratch_release(&s);
    return got;
}
