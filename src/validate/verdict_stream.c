/*
 * verdict_stream.c: a submission stream judged in batches by worker
 * threads and settled in input order by the caller (see verdict_stream.h).
 * The caller's thread reads every batch (or, for text and JSON Lines at
 * --jobs 2 and up, only cuts it off the input as a slice of lines) and settles
 * every record, so the reader, the set of accepted puzzles and the counts have
 * one owner; a worker (or the caller's thread, rather than wait) owns a
 * batch from claiming it to marking it judged, parsing its slice with a
 * reader of its own.
 */
#include "validate/verdict_stream.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "rules/rules.h"
#include "rules/state.h"
#include "verdict_internal.h"

#define BATCH_MAX 1024 /* records in a batch, at most */
/* A batch closes near this size, so that the batches in flight (one a
 * judge, one being read or settled) fit a core's L2 cache with their
 * verdicts: 1 MiB batches, six in flight at --jobs 2, did not, and that
 * run spent about a fifth more CPU than --jobs 1 on the same lines
 * (docs/PERFORMANCE.md). Each batch costs a sleep and a wakeup or so at
 * --jobs 2 (the worker waits while the caller settles), so not smaller:
 * 256 KiB measured a few percent less CPU than 128 KiB, 64 KiB more. */
#define BATCH_BYTES (1 << 18)
/* A TEXT or JSON Lines input's lines go to the judges as slices of at most this
 * many bytes (and cap records), which they parse themselves: the reading thread
 * only finds the line ends (qn_submit_take_slice). */
#define SLICE_BYTES (1 << 15)
#define NONE SIZE_MAX /* an absent string or array */
#define PREFETCH 8    /* records settled ahead of their lookup */

/* One record as the reader gave it; its strings and cells in the arena. */
typedef struct rec {
    uint64_t seq, min_presses;
    uint64_t skipped; /* qn_submit_skipped once it was read */
    size_t id, cells, solution, meta, note, err; /* arena offsets or NONE */
    size_t meta_len;
    int line, col;
    unsigned char ok, has_id, has_solution, has_min;
} rec;

/* What judging left for the caller: the verdict and where it is written. */
typedef struct res {
    qn_verdict_marks m; /* in the batch's text */
    uint64_t puzzle_id, presses, noptimal, hash;
    uint64_t dup_of; /* duplicate: the first's handle (qn_judge__first),
                        or (stored) the stored puzzle's id */
    int64_t human_score;
    signed char human_level;
    unsigned char prepared; /* the verdict as written */
    unsigned char verdict;  /* as settled: prepared, or a duplicate */
    unsigned char has_puzzle_id, stored;
} res;

typedef struct batch {
    uint64_t num;       /* its place in the input: batch 0 comes first */
    int n;              /* records */
    int judged;         /* under the stream's lock once workers run */
    int nomem;          /* judging it ran out of memory (set before judged) */
    int sliced;         /* its records are the slice sl, parsed by its judge */
    qn_submit_slice sl; /* the slice (its bytes in raw) */
    uint64_t skipped;   /* sliced: qn_submit_skipped when it was cut */
    qn_buf raw;         /* sliced: the slice's bytes */
    rec *recs;          /* cap each, allocated on first use */
    res *res;
    uint8_t *key;   /* cap seen keys (ok and claim-mismatch) */
    uint8_t *canon; /* cap * ncells (records with a puzzle id) */
    uint8_t *plan;  /* cap * ncells (ok and claim-mismatch) */
    qn_buf arena;   /* the records' strings and cells */
    qn_buf text;    /* their verdicts, written */
    char apart[64]; /* the next slot's fields off this one's lines */
} batch;

/*
 * Three groups, 64 bytes apart so that one thread's writes never pull
 * cache lines from under another's reads: what is fixed (read by the
 * workers for every record), the caller's side (written for every
 * record), and what the lock guards.
 */
struct qn_verdict_stream {
    char apart0[64];
    qn_judge *j;
    qn_submit_reader *rd;
    qn_verdict_writer *w;
    size_t ncells, keysize;
    int cap;  /* records a batch holds */
    int jobs; /* threads judging: the caller's and jobs - 1 workers */
    int nslots;
    batch *slots; /* batch b sits in slot b % nslots */
    char apart1[64];
    /* the caller's side */
    uint64_t nread; /* batches read (published) */
    uint64_t cur;   /* the batch being taken from */
    batch *curb;    /* its slot (NULL before the first), so that a record
                       costs no division */
    int pos;        /* the record of cur handed out next */
    int have;       /* pos is handed out (the current item) */
    int cur_judged;
    int end, rd_rc; /* the reader ended: with rd_rc (0 or < 0) */
    qn_err rd_err;
    int dead; /* out of memory: rd_rc (QN_ENOMEM) from now on */
    uint64_t skipped;
    qn_submission sub; /* the current item's record */
    qn_verdict_item item;
    qn_ruling ruling; /* judging in the caller's thread */
    qn_submission scratch;
    qn_submit_reader *sr; /* the caller's reader of slices */
    int slicing; /* 1: cut TEXT or JSONL input into slices (jobs > 1) */
    char apart2[64];
    /* the workers */
    pthread_t *th;
    int nth; /* running */
    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv;
    uint64_t nclaimed; /* batches claimed by workers */
    int stop;
    int failed; /* a batch ran out of memory: the workers stop */
    char apart3[64];
};

static batch *slot(const qn_verdict_stream *vs, uint64_t b)
{
    return &vs->slots[b % (uint64_t)vs->nslots];
}

/* Records a batch holds: about BATCH_BYTES of records, rulings and
 * verdicts for this board, at least one. */
static int batch_cap(size_t ncells, size_t keysize, size_t verdict_bytes)
{
    size_t per =
        sizeof(rec) + sizeof(res) + keysize + 4 * ncells + 64 + verdict_bytes;
    size_t cap = BATCH_BYTES / per;

    return cap < 1 ? 1 : cap > BATCH_MAX ? BATCH_MAX : (int)cap;
}

qn_verdict_stream *qn_verdict_stream_new(qn_judge *j, qn_submit_reader *rd,
                                         qn_verdict_style style, int jobs)
{
    qn_verdict_stream *vs = QN_ALLOC(qn_verdict_stream);
    const qn_solver *solver = qn_judge__solver(j);

    if (!vs)
        return NULL;
    vs->j = j;
    vs->rd = rd;
    if (!(vs->w = qn_verdict_writer_new(solver, style))) {
        free(vs);
        return NULL;
    }
    vs->ncells = (size_t)qn_solver_ncells(solver);
    vs->keysize = qn_judge__key_size(j);
    vs->cap = batch_cap(
        vs->ncells, vs->keysize,
        style == QN_VERDICT_TEXT
            ? qn_state_format_max(qn_rules_layout(qn_solver_rules(solver))) +
                  160
            : 4 * vs->ncells + 240);
    vs->jobs = jobs < 1 ? 1 : jobs;
    /* a batch per judge and one being read or settled */
    vs->nslots = vs->jobs > 1 ? vs->jobs + 1 : 1;
    if (!(vs->slots = QN_ALLOCN((size_t)vs->nslots, batch)) ||
        qn_ruling_init(&vs->ruling, j, NULL) != QN_OK) {
        qn_verdict_writer_free(vs->w);
        free(vs->slots);
        free(vs);
        return NULL;
    }
    for (int i = 0; i < vs->nslots; i++) {
        qn_buf_init(&vs->slots[i].arena);
        qn_buf_init(&vs->slots[i].text);
        qn_buf_init(&vs->slots[i].raw);
    }
    /* slices pay where another thread parses them; a reader of slices
     * that cannot be had only means the caller's thread parses */
    vs->slicing = vs->jobs > 1 &&
                  (qn_submit_detected(rd) == QN_SUBMIT_TEXT ||
                   qn_submit_detected(rd) == QN_SUBMIT_JSONL) &&
                  qn_submit_open_slices(&vs->sr, rd) == QN_OK;
    pthread_mutex_init(&vs->mu, NULL);
    pthread_cond_init(&vs->work_cv, NULL);
    pthread_cond_init(&vs->done_cv, NULL);
    return vs;
}

/* Copy n bytes into the arena; returns their offset. */
static size_t keep(qn_buf *arena, const void *p, size_t n)
{
    size_t at = arena->len;

    /* a few bytes a field, a few fields a record: without a call while
     * the arena has room (and its NUL after, as qn_buf_add keeps it) */
    if (!arena->failed && at + n < arena->alloc) {
        memcpy(arena->buf + at, p, n);
        arena->len = at + n;
        arena->buf[at + n] = '\0';
        return at;
    }
    qn_buf_add(arena, p, n);
    return at;
}

static size_t keep_str(qn_buf *arena, const char *s)
{
    return s ? keep(arena, s, strlen(s) + 1) : NONE;
}

/* Record s as r, its strings and cells into a; skipped:
 * qn_submit_skipped once it was read. */
static void keep_record(rec *r, qn_buf *a, const qn_submission *s,
                        size_t ncells, uint64_t skipped)
{
    r->seq = s->seq;
    r->min_presses = s->min_presses;
    r->skipped = skipped;
    r->id = keep_str(a, s->id ? s->id : "");
    r->cells = s->ok ? keep(a, s->cells, ncells) : NONE;
    r->solution = s->has_solution ? keep(a, s->solution, ncells) : NONE;
    r->meta = NONE;
    if (s->meta) {
        r->meta = keep(a, s->meta, s->meta_len);
        qn_buf_addc(a, '\0');
    }
    r->meta_len = s->meta_len;
    r->note = keep_str(a, s->note);
    r->err = s->ok ? NONE : keep(a, &s->err, sizeof(s->err));
    r->line = s->line;
    r->col = s->col;
    r->ok = (unsigned char)s->ok;
    r->has_id = (unsigned char)s->has_id;
    r->has_solution = (unsigned char)s->has_solution;
    r->has_min = (unsigned char)s->has_min;
}

/* The stream ends with out of memory, as with a reader's error: the
 * records before come out first, then QN_ENOMEM (never a partial set of
 * verdicts taken for the whole). */
static void out_of_memory(qn_verdict_stream *vs)
{
    vs->end = 1;
    vs->rd_rc = qn_err_nomem(&vs->rd_err);
}

/* Cut the next slice off the reader into b (its judge parses it):
 * returns 1, or 0 when the reader's next records are for
 * qn_submit_next. Out of memory: b is left empty and the stream ends
 * so. */
/* A batch's arrays, had once its first record is: a slot the input never
 * reaches costs nothing, so running out of memory for one cannot end a
 * stream whose every record came out. QN_OK or QN_ENOMEM. */
static int arrays(const qn_verdict_stream *vs, batch *b)
{
    size_t c = (size_t)vs->cap;

    if (!b->recs)
        b->recs = QN_ALLOCN(c, rec);
    if (!b->res)
        b->res = QN_ALLOCN(c, res);
    if (!b->key)
        b->key = QN_ALLOCN(c * vs->keysize + 1, uint8_t);
    if (!b->canon)
        b->canon = QN_ALLOCN(c * vs->ncells + 1, uint8_t);
    if (!b->plan)
        b->plan = QN_ALLOCN(c * vs->ncells + 1, uint8_t);
    return b->recs && b->res && b->key && b->canon && b->plan ? QN_OK
                                                              : QN_ENOMEM;
}

static int fill_slice(qn_verdict_stream *vs, batch *b)
{
    b->sliced = 0;
    if (!vs->slicing ||
        !qn_submit_take_slice(vs->rd, SLICE_BYTES, vs->cap, &b->sl))
        return 0;
    if (arrays(vs, b) != QN_OK) {
        out_of_memory(vs);
        return 1;
    }
    qn_buf_reset(&b->raw);
    qn_buf_add(&b->raw, b->sl.p, b->sl.n);
    if (b->raw.failed) {
        out_of_memory(vs);
        return 1;
    }
    b->sl.p = b->raw.buf;
    b->sliced = 1;
    b->skipped = qn_submit_skipped(vs->rd);
    b->n = (int)b->sl.records;
    return 1;
}

/* Read the next batch into b: a slice, or up to cap records or about
 * BATCH_BYTES read here. Out of memory: b is left empty and the stream
 * ends so. */
static void fill(qn_verdict_stream *vs, batch *b)
{
    const qn_submission *s;
    int rc;

    b->n = 0;
    qn_buf_reset(&b->arena);
    if (fill_slice(vs, b))
        return;
    while (b->n < vs->cap && b->arena.len < BATCH_BYTES) {
        rc = qn_submit_next(vs->rd, &s, &vs->rd_err);
        if (rc <= 0) {
            vs->end = 1;
            vs->rd_rc = rc;
            break;
        }
        if (!b->n && arrays(vs, b) != QN_OK) {
            out_of_memory(vs); /* this record and the rest are lost */
            return;
        }
        keep_record(&b->recs[b->n++], &b->arena, s, vs->ncells,
                    qn_submit_skipped(vs->rd));
        if (b->arena.failed)
            break;
    }
    if (b->arena.failed) {
        b->n = 0;
        out_of_memory(vs);
    }
}

/* Record i of b as a qn_submission, pointing into the arena. */
static void view(const batch *b, int i, qn_submission *s)
{
    const rec *r = &b->recs[i];
    const char *a = b->arena.buf;

    s->seq = r->seq;
    s->id = a + r->id;
    s->has_id = r->has_id;
    s->line = r->line;
    s->col = r->col;
    s->ok = r->ok;
    if (r->ok)
        s->err.code = QN_OK;
    else
        memcpy(&s->err, a + r->err, sizeof(s->err));
    s->cells = r->cells == NONE ? NULL : (const uint8_t *)a + r->cells;
    s->has_solution = r->has_solution;
    s->solution = r->solution == NONE ? NULL : (const uint8_t *)a + r->solution;
    s->has_min = r->has_min;
    s->min_presses = r->min_presses;
    s->meta = r->meta == NONE ? NULL : a + r->meta;
    s->meta_len = r->meta_len;
    s->note = r->note == NONE ? NULL : a + r->note;
}

static int pending(unsigned char v)
{
    return v == QN_VERDICT_OK || v == QN_VERDICT_CLAIM_MISMATCH;
}

/* Parse a sliced batch's records with sr, the judge's reader of slices:
 * QN_OK, or QN_ENOMEM. b->n was counted when it was cut, so it is only
 * read here. */
static int parse_slice(const qn_verdict_stream *vs, batch *b,
                       qn_submit_reader *sr)
{
    const qn_submission *s;
    int i = 0, rc;

    qn_submit_read_slice(sr, b->sl.p, b->sl.n, b->sl.line, b->sl.seq);
    while (i < b->n && (rc = qn_submit_next(sr, &s, NULL)) == 1)
        keep_record(&b->recs[i++], &b->arena, s, vs->ncells, b->skipped);
    if (i < b->n || b->arena.failed)
        return QN_ENOMEM; /* a slice's reader fails no other way */
    return QN_OK;
}

/* Judge every record of b and write its verdict as judged (settling may
 * still make it a duplicate), parsing it first when it is a slice (with
 * sr). Touches nothing of vs but what is fixed. Out of memory: b->nomem
 * (the batch is no verdicts). */
static void judge_batch(const qn_verdict_stream *vs, batch *b, qn_ruling *r,
                        qn_submission *s, qn_submit_reader *sr)
{
    size_t n = vs->ncells;

    b->nomem = 0;
    qn_buf_reset(&b->text);
    if (b->sliced && parse_slice(vs, b, sr) != QN_OK) {
        b->nomem = 1;
        return;
    }
    for (int i = 0; i < b->n && !b->text.failed; i++) {
        res *x = &b->res[i];
        view(b, i, s);
        if (qn_judge_prepare(vs->j, r, s) != QN_OK) {
            b->nomem = 1;
            break;
        }
        x->prepared = x->verdict = (unsigned char)r->verdict;
        x->has_puzzle_id = (unsigned char)r->has_puzzle_id;
        x->puzzle_id = r->puzzle_id;
        x->stored = 0;
        x->dup_of = 0;
        if (r->has_puzzle_id)
            memcpy(b->canon + (size_t)i * n, r->canon, n);
        if (pending(x->prepared)) {
            memcpy(b->key + (size_t)i * vs->keysize, r->seen_key, vs->keysize);
            x->hash = r->seen_hash;
            memcpy(b->plan + (size_t)i * n, r->ans.plan, n);
            x->presses = r->ans.mp.presses;
            x->noptimal = r->ans.mp.noptimal;
            x->human_level = (signed char)r->human_level;
            x->human_score = r->human_score;
        }
        qn_verdict_write(vs->w, &b->text, s, r, b->num == 0 && i == 0, &x->m);
    }
    if (b->text.failed)
        b->nomem = 1;
}

/* A worker that cannot have its ruling is one fewer: the caller's thread
 * judges what no worker claims. One whose batch runs out of memory
 * stops the others (the caller stops at that batch). */
static void *worker(void *arg)
{
    qn_verdict_stream *vs = arg;
    qn_submission *s = QN_ALLOC(qn_submission);
    qn_submit_reader *sr = NULL;
    qn_ruling r;

    /* from the caller's reader of slices, whose fields it reads never
     * change (vs->rd's position does) */
    if (vs->slicing && qn_submit_open_slices(&sr, vs->sr) != QN_OK)
        sr = NULL;
    if (!s || (vs->slicing && !sr) ||
        qn_ruling_init(&r, vs->j, NULL) != QN_OK) {
        qn_submit_close(sr);
        free(s);
        return NULL;
    }
    pthread_mutex_lock(&vs->mu);
    for (;;) {
        batch *b;
        while (!vs->stop && !vs->failed && vs->nclaimed == vs->nread)
            pthread_cond_wait(&vs->work_cv, &vs->mu);
        if (vs->stop || vs->failed)
            break;
        b = slot(vs, vs->nclaimed++);
        pthread_mutex_unlock(&vs->mu);
        judge_batch(vs, b, &r, s, sr);
        pthread_mutex_lock(&vs->mu);
        b->judged = 1;
        if (b->nomem) {
            vs->failed = 1;
            pthread_cond_broadcast(&vs->work_cv);
        }
        pthread_cond_broadcast(&vs->done_cv);
    }
    pthread_mutex_unlock(&vs->mu);
    qn_ruling_release(&r);
    qn_submit_close(sr);
    free(s);
    return NULL;
}

/* The workers, once a second batch shows the input is worth them: jobs -
 * 1 of them, the caller's thread being the last judge. A thread that
 * cannot start is one fewer; with none, the caller judges alone. */
static void start_workers(qn_verdict_stream *vs)
{
    if (!(vs->th = QN_ALLOCN((size_t)vs->jobs, pthread_t)))
        return;
    for (int i = 0; i < vs->jobs - 1; i++)
        if (pthread_create(&vs->th[vs->nth], NULL, worker, vs) == 0)
            vs->nth++;
}

/* Hand a filled batch to the workers (or keep it for the caller). */
static void publish(qn_verdict_stream *vs, batch *b)
{
    b->num = vs->nread;
    if (vs->jobs > 1 && vs->nread == 1 && !vs->th)
        start_workers(vs);
    pthread_mutex_lock(&vs->mu);
    b->judged = 0;
    vs->nread++;
    pthread_cond_signal(&vs->work_cv);
    pthread_mutex_unlock(&vs->mu);
}

/* Read batches while slots are free: one per batch taken, so the workers
 * always have the next ones. */
static void top_up(qn_verdict_stream *vs)
{
    while (!vs->end && vs->nread < vs->cur + (uint64_t)vs->nslots) {
        batch *b = slot(vs, vs->nread);
        fill(vs, b);
        if (!b->n)
            break; /* the reader ended right away */
        publish(vs, b);
    }
}

static void wait_judged(qn_verdict_stream *vs, batch *b)
{
    if (!vs->nth) {
        /* no workers (one job, a short input): none will ever claim it */
        judge_batch(vs, b, &vs->ruling, &vs->scratch, vs->sr);
        return;
    }
    /* rather than wait while a worker finishes b, judge a batch no worker
     * has claimed yet: the caller's thread is one of the jobs */
    pthread_mutex_lock(&vs->mu);
    while (!b->judged) {
        if (vs->nclaimed < vs->nread) {
            batch *x = slot(vs, vs->nclaimed++);
            pthread_mutex_unlock(&vs->mu);
            judge_batch(vs, x, &vs->ruling, &vs->scratch, vs->sr);
            pthread_mutex_lock(&vs->mu);
            x->judged = 1;
            if (x->nomem) {
                vs->failed = 1;
                pthread_cond_broadcast(&vs->work_cv);
            }
            continue;
        }
        pthread_cond_wait(&vs->done_cv, &vs->mu);
    }
    pthread_mutex_unlock(&vs->mu);
}

/* Settle record pos of the current batch and make it the current item:
 * QN_OK, or QN_ENOMEM (nothing settled). */
static int settle(qn_verdict_stream *vs, batch *b, int i)
{
    res *x = &b->res[i];
    const rec *r = &b->recs[i];
    qn_verdict_item *it = &vs->item;
    qn_verdict v = (qn_verdict)x->prepared;

    /* the set's slots are cache misses: start the next ones now */
    for (int k = i ? i + PREFETCH : 0; k <= i + PREFETCH && k < b->n; k++)
        if (pending(b->res[k].prepared))
            qn_judge__prefetch(vs->j, b->res[k].hash);
    if (qn_judge__settle(vs->j, &v, b->key + (size_t)i * vs->keysize, x->hash,
                         r->seq, b->arena.buf + r->id, r->has_id,
                         &x->dup_of) != QN_OK)
        return QN_ENOMEM;
    x->verdict = (unsigned char)v;
    view(b, i, &vs->sub);
    vs->skipped = r->skipped;
    it->sub = &vs->sub;
    it->verdict = (qn_verdict)x->verdict;
    it->has_puzzle_id = x->has_puzzle_id;
    it->puzzle_id = x->puzzle_id;
    it->canon = x->has_puzzle_id ? b->canon + (size_t)i * vs->ncells : NULL;
    it->plan = NULL;
    it->presses = it->noptimal = 0;
    it->human_level = -1;
    it->human_score = 0;
    it->human_model_version = qn_judge__human_model(vs->j);
    if (pending(x->prepared)) {
        it->plan = b->plan + (size_t)i * vs->ncells;
        it->presses = x->presses;
        it->noptimal = x->noptimal;
        it->human_level = x->human_level;
        it->human_score = x->human_score;
    }
    return QN_OK;
}

int qn_verdict_stream_next(qn_verdict_stream *vs, const qn_verdict_item **out,
                           qn_err *err)
{
    batch *b;

    *out = NULL;
    if (vs->dead) {
        if (err)
            *err = vs->rd_err;
        return vs->rd_rc;
    }
    if (vs->have) {
        vs->have = 0;
        vs->pos++;
    }
    if (!vs->curb || vs->pos >= vs->curb->n) {
        /* the batch is taken whole (or none was read): its slot is free,
         * so read while slots are */
        while (vs->cur < vs->nread && vs->pos >= slot(vs, vs->cur)->n) {
            vs->cur++;
            vs->pos = 0;
            vs->cur_judged = 0;
        }
        top_up(vs);
        if (vs->cur == vs->nread) {
            vs->skipped = qn_submit_skipped(vs->rd);
            if (vs->rd_rc < 0 && err)
                *err = vs->rd_err;
            return vs->rd_rc;
        }
        vs->curb = slot(vs, vs->cur);
    }
    b = vs->curb;
    if (!vs->cur_judged) {
        wait_judged(vs, b);
        vs->cur_judged = 1;
    }
    if (b->nomem || settle(vs, b, vs->pos) != QN_OK) {
        out_of_memory(vs); /* this record and the rest are not judged */
        vs->dead = 1;
        if (err)
            *err = vs->rd_err;
        return vs->rd_rc;
    }
    vs->have = 1;
    *out = &vs->item;
    return 1;
}

void qn_verdict_stream_stored(qn_verdict_stream *vs, uint64_t puzzle_id)
{
    res *x = &vs->curb->res[vs->pos];

    assert(vs->have && x->verdict == QN_VERDICT_OK);
    qn_judge__recount(vs->j, QN_VERDICT_OK, QN_VERDICT_DUPLICATE);
    x->verdict = QN_VERDICT_DUPLICATE;
    x->stored = 1;
    x->dup_of = puzzle_id;
    vs->item.verdict = QN_VERDICT_DUPLICATE;
}

void qn_verdict_stream_write(qn_verdict_stream *vs, qn_buf *out)
{
    const batch *b = vs->curb;
    const res *x = &b->res[vs->pos];

    assert(vs->have);
    if (x->verdict == x->prepared) {
        qn_buf_add(out, b->text.buf + x->m.start, x->m.end - x->m.start);
        return;
    }
    assert(x->verdict == QN_VERDICT_DUPLICATE);
    if (x->stored) {
        qn_verdict_write_duplicate(vs->w, out, b->text.buf, &x->m, 1, x->dup_of,
                                   "", 0);
    } else {
        const char *id;
        int has_id;
        uint64_t seq = qn_judge__first(vs->j, x->dup_of, &id, &has_id);
        qn_verdict_write_duplicate(vs->w, out, b->text.buf, &x->m, 0, seq, id,
                                   has_id);
    }
}

int qn_verdict_stream_text(const qn_verdict_stream *vs, const char **p,
                           size_t *n)
{
    const batch *b = vs->curb;
    const res *x = &b->res[vs->pos];

    assert(vs->have);
    if (x->verdict != x->prepared)
        return 0;
    *p = b->text.buf + x->m.start;
    *n = x->m.end - x->m.start;
    return 1;
}

int qn_verdict_stream_batch_end(const qn_verdict_stream *vs)
{
    assert(vs->have);
    return vs->pos + 1 >= vs->curb->n;
}

uint64_t qn_verdict_stream_skipped(const qn_verdict_stream *vs)
{
    return vs->skipped;
}

void qn_verdict_stream_free(qn_verdict_stream *vs)
{
    if (!vs)
        return;
    pthread_mutex_lock(&vs->mu);
    vs->stop = 1;
    pthread_cond_broadcast(&vs->work_cv);
    pthread_mutex_unlock(&vs->mu);
    for (int i = 0; i < vs->nth; i++)
        pthread_join(vs->th[i], NULL);
    for (int i = 0; i < vs->nslots; i++) {
        batch *b = &vs->slots[i];
        free(b->recs);
        free(b->res);
        free(b->key);
        free(b->canon);
        free(b->plan);
        qn_buf_release(&b->arena);
        qn_buf_release(&b->text);
        qn_buf_release(&b->raw);
    }
    qn_submit_close(vs->sr);
    pthread_mutex_destroy(&vs->mu);
    pthread_cond_destroy(&vs->work_cv);
    pthread_cond_destroy(&vs->done_cv);
    qn_ruling_release(&vs->ruling);
    qn_verdict_writer_free(vs->w);
    free(vs->slots);
    free(vs->th);
    free(vs);
}
