/*
 * gen.c: the generator (see gen.h for the contract): the options, the
 * entry points (a plan kept to run later, a run, one candidate, sampled
 * tiers); the plan is made in gen_plan.c, candidates in gen_candidate.c,
 * and a run goes through them in blocks in gen_run.c.
 */
#include "generate/gen.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/mem.h"
#include "base/text.h"
#include "engine/minpress.h"
#include "gen_internal.h"
#include "generate/distrib.h"

const char *qn_gen_mode_name(qn_gen_mode m)
{
    static const char *const names[] = {"auto", "sample", "exhaustive", "climb",
                                        "spread"};
    return (unsigned)m < 5 ? names[m] : "?";
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

struct qn_gen_prepared {
    qn_gen_opts o; /* the context points here */
    genctx c;
    qn_gen_stats st; /* what the plan found */
    int ran;
};

int qn_gen_prepare(qn_gen_prepared **out, const qn_solver *solver,
                   const qn_gen_opts *o, qn_gen_target_info *info, qn_err *err)
{
    qn_gen_prepared *p = QN_ALLOC(qn_gen_prepared);
    int rc;

    *out = NULL;
    if (!p)
        return qn_err_nomem(err);
    p->o = *o;
    p->st.rarity = -1;
    rc = qn_gen__ctx_init(&p->c, solver, &p->o);
    if (rc != QN_OK)
        rc = qn_err_nomem(err);
    else
        rc = qn_gen__plan(&p->c, &p->st, err);
    if (info)
        *info = p->st.target;
    if (rc != QN_OK) {
        qn_gen_prepared_free(p);
        return rc;
    }
    *out = p;
    return QN_OK;
}

void qn_gen_prepared_free(qn_gen_prepared *p)
{
    if (!p)
        return;
    qn_gen__ctx_release(&p->c);
    free(p);
}

int qn_gen_prepared_heavy(const qn_gen_prepared *p)
{
    return p->c.census != NULL;
}

int qn_gen_plan(const qn_solver *solver, const qn_gen_opts *o,
                qn_gen_target_info *info, qn_err *err)
{
    qn_gen_prepared *p;
    int rc = qn_gen_prepare(&p, solver, o, info, err);

    qn_gen_prepared_free(p);
    return rc;
}

int qn_gen_run_prepared(qn_gen_prepared *p, const qn_gen_hooks *h,
                        qn_gen_stats *st, qn_err *err)
{
    const qn_gen_opts *o = &p->o;
    int rc;

    *st = p->st;
    if (p->ran++)
        return qn_err_set(err, QN_ERR, 0, 0, "a prepared run runs once");
    if (o->count == 0)
        return QN_OK;
    /* the human grades: none (levels -1) if the ladder meets a limit */
    if (!p->c.hg &&
        qn_human_grader_new(&p->c.hg, p->c.solver, err) == QN_ENOMEM)
        return QN_ENOMEM;
    qn_err_clear(err);
    rc = qn_gen__run(&p->c, h, st);
    if (rc == 1)
        return QN_OK;
    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    if (rc == 2)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "found %llu of %llu %s in %llu %s: the target is "
                          "too rare or has too few distinct puzzles",
                          (unsigned long long)st->emitted,
                          (unsigned long long)o->count,
                          qn_plural(o->count, "puzzle", "puzzles"),
                          (unsigned long long)st->draws,
                          qn_plural(st->draws, "draw", "draws"));
    return qn_err_set(err, QN_ERR, 0, 0, "stopped after %llu %s",
                      (unsigned long long)st->emitted,
                      qn_plural(st->emitted, "puzzle", "puzzles"));
}

int qn_gen_run(const qn_solver *solver, const qn_gen_opts *o,
               const qn_gen_hooks *h, qn_gen_stats *st, qn_err *err)
{
    qn_gen_prepared *p;
    int rc;

    memset(st, 0, sizeof(*st));
    st->rarity = -1;
    rc = qn_gen_prepare(&p, solver, o, &st->target, err);
    if (rc == QN_OK)
        rc = qn_gen_run_prepared(p, h, st, err);
    qn_gen_prepared_free(p);
    return rc;
}

int qn_gen_candidate(const qn_solver *solver, const qn_gen_opts *o,
                     uint64_t index, uint8_t *state, uint64_t *presses)
{
    genctx c;
    qn_gen_stats st;
    qn_err e = QN_ERR_INIT;
    scratch s;
    int ok = 0;

    memset(&st, 0, sizeof(st));
    if (qn_gen__ctx_init(&c, solver, o) != QN_OK) {
        ok = QN_ENOMEM;
    } else if (qn_gen__plan(&c, &st, &e) == QN_OK) {
        if (qn_gen__scratch_init(&s, &c) != QN_OK) {
            ok = QN_ENOMEM;
        } else {
            ok = qn_gen__graded(&c, c.mode, index, &s, state);
            *presses = s.ans.mp.presses;
            qn_gen__scratch_release(&s);
        }
        if (ok < 0)
            ok = QN_ENOMEM;
    } else if (e.code == QN_ENOMEM) {
        ok = QN_ENOMEM;
    }
    qn_gen__ctx_release(&c);
    return ok;
}

int qn_gen_sample_presses(const qn_solver *solver, const qn_seed *seed,
                          uint64_t *out, size_t n, size_t *got)
{
    qn_gen_opts o;
    genctx c;
    scratch s;
    uint8_t *state = NULL;
    int rc = QN_ENOMEM;

    *got = 0;
    qn_gen_opts_init(&o);
    o.seed = *seed;
    o.seed.b[1] ^= 0xa5; /* a stream of its own, apart from the run's */
    if (qn_gen__ctx_init(&c, solver, &o) != QN_OK) {
        qn_gen__ctx_release(&c);
        return QN_ENOMEM;
    }
    c.mode = QN_GEN_SAMPLE;
    if (qn_gen__scratch_init(&s, &c) != QN_OK) {
        qn_gen__ctx_release(&c);
        return QN_ENOMEM;
    }
    if ((state = QN_ALLOCN((size_t)c.n + 1, uint8_t)))
        rc = QN_OK;
    for (size_t i = 0; i < n && rc == QN_OK; i++) {
        qn_rng rng;
        qn_rng_init(&rng, &o.seed, i);
        int made = qn_gen__sample(&c, &rng, &s, state);
        if (made == 0)
            continue;
        if (made < 0 || qn_solver_answer(solver, &s.ans, state) != QN_OK)
            rc = QN_ENOMEM;
        else if (s.ans.exact)
            out[(*got)++] = s.ans.mp.presses;
    }
    free(state);
    qn_gen__scratch_release(&s);
    qn_gen__ctx_release(&c);
    return rc;
}

void qn_gen_rule_seed(const qn_solver *solver, qn_seed *out)
{
    char hex[65];

    qn_rules_hash(qn_solver_rules(solver), hex);
    qn_seed_parse(out, hex, NULL); /* 64 hex digits: always a seed */
}

const char *qn_gen_tiers(const qn_solver *solver, const qn_distrib *d,
                         qn_tiers *out)
{
    uint64_t *p;
    size_t got = 0;
    qn_seed seed;
    int rc = QN_OK;

    if (qn_tiers_from_rules(out, qn_solver_rules(solver)))
        return "rule";
    if (d)
        return qn_tiers_from_distrib(out, d) == QN_OK ? "distribution" : NULL;
    if (!(p = QN_ALLOCN(QN_GEN_TIER_SAMPLE, uint64_t)))
        return NULL;
    qn_gen_rule_seed(solver, &seed);
    /* no state of a rule past the walk limit is graded exactly: its
     * sample would be empty, and costs a solve per state */
    if (qn_solver_check_exact(solver, NULL) == QN_OK)
        rc = qn_gen_sample_presses(solver, &seed, p, QN_GEN_TIER_SAMPLE, &got);
    /* the last tier ends where no state can pass: the coset bound */
    if (rc == QN_OK)
        rc = qn_tiers_from_samples(out, p, got,
                                   qn_minpress_bound(qn_solver_system(solver)));
    free(p);
    return rc == QN_OK ? "sample" : NULL;
}

const char *qn_gen_rule_tiers(const qn_rules *r, qn_tiers *out, qn_err *err)
{
    qn_solver *solver = NULL;
    qn_distrib *d = NULL;
    qn_err e = QN_ERR_INIT;
    const char *source;
    int rc;

    out->n = 0;
    rc = qn_solver_new(&solver, r, &e);
    if (rc != QN_OK) { /* out of memory is no "no tiers" */
        if (rc == QN_ENOMEM)
            qn_err_nomem(err);
        return NULL;
    }
    if (!qn_rules_ntiers(r) &&
        qn_distrib_compute(&d, qn_solver_system(solver), &e) != QN_OK) {
        d = NULL; /* too large: the tiers are cut from a sample */
        if (e.code == QN_ENOMEM) {
            qn_solver_free(solver);
            qn_err_nomem(err);
            return NULL;
        }
    }
    source = qn_gen_tiers(solver, d, out);
    if (!source)
        qn_err_nomem(err);
    qn_distrib_free(d);
    qn_solver_free(solver);
    return source;
}

#define PROBE_MAX 64      /* states a tiers estimate grades at most */
#define PROBE_SECONDS 0.1 /* ... and it stops once this long has passed */

static double seconds_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * The first 1, 2, 4, ... states of qn_gen_tiers' own sample, graded
 * until PROBE_SECONDS passed or PROBE_MAX were, and the time of the last
 * batch scaled to the QN_GEN_TIER_SAMPLE states.
 */
double qn_gen_tiers_estimate(const qn_solver *solver,
                             const struct qn_distrib *d, size_t *probed)
{
    uint64_t p[PROBE_MAX];
    qn_seed seed;
    double took = 0;
    size_t n = 0;

    *probed = 0;
    if (qn_rules_ntiers(qn_solver_rules(solver)) || d ||
        qn_solver_check_exact(solver, NULL) != QN_OK)
        return 0; /* tiers without a sample, or no state graded */
    qn_gen_rule_seed(solver, &seed);
    while (took < PROBE_SECONDS && n < PROBE_MAX) {
        double t0 = seconds_now();
        size_t got;
        n = n ? 2 * n : 1;
        if (qn_gen_sample_presses(solver, &seed, p, n, &got) != QN_OK)
            return -1;
        took = seconds_now() - t0;
    }
    *probed = n;
    return took / (double)n * QN_GEN_TIER_SAMPLE;
}
