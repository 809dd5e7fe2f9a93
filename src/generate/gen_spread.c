/*
 * gen_spread.c: the counts a spread covers on a rule without the exact
 * distribution (gen.h, "Spread"). Pilot climbs aim at each count, up
 * from the range's start; the spread keeps the counts they reach often
 * enough and says what it left out, and why.
 *
 * Why a rate and not a reach: every count of a spread gets as many
 * puzzles, so the run needs about as many draws a puzzle as its rarest
 * count needs climbs an arrival. Classic 9x9 --presses 35.. kept any
 * count one of 1,024 climbs reached: count 37, reached by about one
 * climb in 5,000, got in for about one seed in ten, and those runs drew a
 * million candidates (2 to 4 minutes) against 25,000 for 35..36. Climbs
 * aimed past 37 pass it no more often than climbs aimed at it: on GF(2)
 * rules whose kernel vectors have even weight every press moves the
 * count by exactly one, so a climb never jumps a count, and climbs end at
 * states no press raises (more tries do not help: 1,000 tries a climb
 * reach 37 no more often than n + 20).
 *
 * The climbs of a count are computed in rounds by o->jobs threads and
 * taken in index order, stopping where the serial loop would: what the
 * pilot finds (and the grades it counts against the budget) is a
 * function of the seed and options, whatever the threads.
 */
#include "gen_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#define ROUND_FIRST 8  /* climbs in a count's first round */
#define ROUND_SHARE 32 /* climbs a thread takes in a round, at most */
#define LEAD_MISSES 4  /* counts not reached before the plan cannot tell */

/* One thread's share of a round: climbs first..first+n-1 aimed at v. */
typedef struct aimer {
    const genctx *c;
    const qn_seed *seed;
    uint64_t v, first, n;
    uint8_t *arrived; /* per climb: it reached v */
    uint64_t *grades; /* per climb: states it graded */
    int running;      /* on a thread of its own */
    int nomem;        /* a grade ran out of memory: the share stopped */
    scratch s;
    uint8_t *state;
} aimer;

static void *climb_share(void *arg)
{
    aimer *a = arg;
    const genctx *c = a->c;

    for (uint64_t i = 0; i < a->n; i++) {
        uint64_t before = a->s.grades;
        qn_rng rng;

        a->arrived[i] = 0;
        int made;

        qn_rng_init(&rng, a->seed,
                    (a->v - c->lo) * QN_GEN_PILOT_CLIMBS + a->first + i);
        made = qn_gen__climb(c, &rng, &a->s, a->state, a->v, a->v, a->v);
        if (made > 0) {
            a->s.grades++; /* the end's grade, counted as before */
            if (a->s.climbed != UINT64_MAX) { /* known without solving */
                a->arrived[i] = a->s.climbed == a->v;
            } else if (qn_solver_answer(c->solver, &a->s.ans, a->state) ==
                       QN_OK) {
                a->arrived[i] = a->s.ans.exact && a->s.ans.mp.presses == a->v;
            } else {
                made = -1;
            }
        }
        if (made < 0) {
            a->nomem = 1;
            break;
        }
        a->grades[i] = a->s.grades - before;
    }
    return NULL;
}

/* The pilot's threads and what a round leaves. */
typedef struct pilot {
    const genctx *c;
    qn_seed seed; /* the pilot's own, apart from the run's */
    int nthreads;
    aimer *aim;
    pthread_t *th;
    uint8_t *arrived; /* per climb of a round */
    uint64_t *grades;
    uint64_t graded; /* by the climbs taken, in index order */
} pilot;

static void pilot_release(pilot *p);

/* QN_OK, or QN_ENOMEM with p released. */
static int pilot_init(pilot *p, const genctx *c)
{
    size_t round = (size_t)ROUND_SHARE * (c->o->jobs > 1 ? c->o->jobs : 1);

    memset(p, 0, sizeof(*p));
    p->c = c;
    p->seed = c->o->seed;
    p->seed.b[2] ^= 0x3c;
    p->nthreads = c->o->jobs > 1 ? c->o->jobs : 1;
    p->aim = QN_ALLOCN((size_t)p->nthreads, aimer);
    p->th = QN_ALLOCN((size_t)p->nthreads, pthread_t);
    p->arrived = QN_ALLOCN(round, uint8_t);
    p->grades = QN_ALLOCN(round, uint64_t);
    if (!p->aim || !p->th || !p->arrived || !p->grades) {
        pilot_release(p);
        return QN_ENOMEM;
    }
    for (int t = 0; t < p->nthreads; t++) {
        p->aim[t].c = c;
        p->aim[t].seed = &p->seed;
        if (qn_gen__scratch_init(&p->aim[t].s, c) != QN_OK ||
            !(p->aim[t].state = QN_ALLOCN((size_t)c->n + 1, uint8_t))) {
            pilot_release(p);
            return QN_ENOMEM;
        }
    }
    return QN_OK;
}

static void pilot_release(pilot *p)
{
    for (int t = 0; p->aim && t < p->nthreads; t++) {
        qn_gen__scratch_release(&p->aim[t].s);
        free(p->aim[t].state);
    }
    free(p->aim);
    free(p->th);
    free(p->arrived);
    free(p->grades);
    memset(p, 0, sizeof(*p));
}

/* Climbs first..first+n-1 aimed at v, shared among the threads (the
 * caller's thread takes the first share, and any a thread could not be
 * started for). QN_OK, or QN_ENOMEM when a share ran out of memory. */
static int climb_round(pilot *p, uint64_t v, uint64_t first, uint64_t n)
{
    int rc = QN_OK;

    uint64_t per = (n + (uint64_t)p->nthreads - 1) / (uint64_t)p->nthreads;
    int used = 0;

    for (uint64_t at = 0; at < n; at += per, used++) {
        aimer *a = &p->aim[used];
        a->v = v;
        a->first = first + at;
        a->n = n - at < per ? n - at : per;
        a->arrived = p->arrived + at;
        a->grades = p->grades + at;
        a->nomem = 0;
        a->running =
            used > 0 && pthread_create(&p->th[used], NULL, climb_share, a) == 0;
    }
    for (int t = 0; t < used; t++) /* and the shares no thread took */
        if (!p->aim[t].running)
            climb_share(&p->aim[t]);
    for (int t = 1; t < used; t++)
        if (p->aim[t].running)
            pthread_join(p->th[t], NULL);
    for (int t = 0; t < used; t++)
        if (p->aim[t].nomem)
            rc = QN_ENOMEM;
    return rc;
}

/* Is the count's pilot done? When QN_GEN_PILOT_ARRIVALS arrived, or
 * the climbs number QN_GEN_PILOT_CLIMBS, or QN_GEN_PILOT_REACH for each
 * arrival plus one: a count arriving once in 5,000 (classic 9x9's 37)
 * is given up after 2,048 or 4,096 climbs nearly always, one arriving
 * once in 250 (its 36) nearly never (e^-8 for none in the first 2,048). */
static int aim_done(const qn_gen_pilot *m)
{
    return m->arrived == QN_GEN_PILOT_ARRIVALS ||
           m->climbs == QN_GEN_PILOT_CLIMBS ||
           m->climbs >= QN_GEN_PILOT_REACH * (m->arrived + 1);
}

/*
 * Pilot climbs aimed at exactly v, taken in index order until aim_done,
 * into *m. Rounds start small (a count most climbs reach takes a few)
 * and double. -1 past the budget, checked before each climb as a serial
 * loop would; -2 out of memory.
 */
static int aim(pilot *p, uint64_t v, qn_gen_pilot *m)
{
    uint64_t round = ROUND_FIRST,
             most = (uint64_t)ROUND_SHARE * (uint64_t)p->nthreads;

    m->presses = v;
    m->climbs = m->arrived = 0;
    while (!aim_done(m)) {
        uint64_t n = QN_GEN_PILOT_CLIMBS - m->climbs;
        if (n > round)
            n = round;
        if (climb_round(p, v, m->climbs, n) != QN_OK)
            return -2;
        for (uint64_t i = 0; i < n && !aim_done(m); i++) {
            if (qn_gen__over_budget(p->c, p->graded))
                return -1;
            p->graded += p->grades[i];
            m->arrived += p->arrived[i];
            m->climbs++;
        }
        round = round * 2 < most ? round * 2 : most;
    }
    return 0;
}

/* m's climbs arrive less often than a's (arrivals per climb; both at
 * most QN_GEN_PILOT_CLIMBS, so the products are exact). */
static int rarer(const qn_gen_pilot *m, const qn_gen_pilot *a)
{
    return m->arrived * a->climbs < a->arrived * m->climbs;
}

/*
 * Counting up from lo (never past the coset bound), pilot climbs aim at
 * each count. The spread starts at the first count one of them reaches
 * and goes on while QN_GEN_PILOT_ARRIVALS of a count's climbs arrive; the
 * first count short of that ends it (info->ended): it and the counts
 * above it are left out. Counts before the first reached are left out
 * too (info->unreached counts those of lo..hi). For an open range
 * (info->hi_estimated) the last count kept is the end. When none of the
 * first LEAD_MISSES is reached the plan cannot tell (info->cannot_tell):
 * every count of an explicit range is kept, lo alone of an open one. So
 * the pilot costs at most QN_GEN_PILOT_CLIMBS climbs for each count kept
 * and the one that ends the spread, and QN_GEN_PILOT_REACH for each of
 * the LEAD_MISSES counts or fewer not reached before the first.
 */
int qn_gen__spread_counts(genctx *c, qn_gen_target_info *info, qn_err *err)
{
    uint64_t hi = c->hi < c->maxp ? c->hi : c->maxp, misses = 0;
    int open = c->hi == UINT64_MAX, rc = 0;
    qn_gen_pilot m;
    pilot p;

    if (pilot_init(&p, c) != QN_OK)
        return qn_err_nomem(err);
    c->values = QN_ALLOCN((size_t)(hi - c->lo + 1), uint64_t);
    c->avail = QN_ALLOCN((size_t)(hi - c->lo + 1), uint64_t);
    if (!c->values || !c->avail) {
        pilot_release(&p);
        return qn_err_nomem(err); /* the arrays are freed with c */
    }
    for (uint64_t v = c->lo; v <= hi; v++) {
        int lead = c->nvalues == 0;
        if ((rc = aim(&p, v, &m)) < 0)
            break;
        if (lead ? m.arrived > 0 : m.arrived == QN_GEN_PILOT_ARRIVALS) {
            qn_gen__add_value(c, v, UINT64_MAX);
            if (!info->slowest.presses || rarer(&m, &info->slowest))
                info->slowest = m;
        } else if (!lead) {
            info->ended = m; /* seldom reached: the end */
            info->left_hi = hi;
            break;
        } else if (++misses == LEAD_MISSES) {
            break; /* nothing within reach */
        }
    }
    info->plan_grades += p.graded;
    pilot_release(&p);
    if (rc == -2)
        return qn_err_nomem(err);
    if (rc < 0)
        return qn_gen__budget_error(c, err);
    if (c->nvalues) {
        info->first = c->values[0];
        info->last = c->values[c->nvalues - 1];
        if (open)
            hi = info->last;
        info->unreached = hi - c->lo + 1 - c->nvalues;
    } else { /* nothing reached: cannot tell */
        info->cannot_tell = 1;
        if (open)
            hi = c->lo;
        for (uint64_t v = c->lo; v <= hi; v++)
            qn_gen__add_value(c, v, UINT64_MAX);
    }
    info->hi_estimated = open;
    info->hi = hi;
    return QN_OK;
}

/* "a..b" or "a" */
static void counts_text(qn_buf *out, uint64_t a, uint64_t b)
{
    qn_buf_addf(out, "%llu", (unsigned long long)a);
    if (b > a)
        qn_buf_addf(out, "..%llu", (unsigned long long)b);
}

int qn_gen_describe_left_out(qn_buf *out, const qn_gen_target_info *t)
{
    int parts = 0;

    if (t->mode != QN_GEN_SPREAD || !t->first)
        return 0;
    if (t->first > t->lo) {
        counts_text(out, t->lo, t->first - 1);
        qn_buf_addf(out,
                    " not reached: none of %d pilot climbs aimed at %s "
                    "arrived",
                    QN_GEN_PILOT_REACH, t->first - t->lo == 1 ? "it" : "each");
        parts++;
    }
    if (t->ended.presses) {
        if (parts++)
            qn_buf_adds(out, "; ");
        counts_text(out, t->ended.presses, t->left_hi);
        qn_buf_addf(out,
                    " left out: %llu of %llu pilot climbs aimed at %llu "
                    "arrived, and a count is kept when %d of at most %d do",
                    (unsigned long long)t->ended.arrived,
                    (unsigned long long)t->ended.climbs,
                    (unsigned long long)t->ended.presses, QN_GEN_PILOT_ARRIVALS,
                    QN_GEN_PILOT_CLIMBS);
    }
    return parts;
}
