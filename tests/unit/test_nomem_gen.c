/* tier: full (a generate run failing each allocation in turn: 21 s) */
/*
 * test_nomem_gen.c: the generator never exits the process on allocation
 * failure (issue #32 section 2). As test_nomem.c: each call is run
 * failing its n-th allocation (tfail.h), for every n until a run makes
 * fewer than n; each run must return QN_OK with the result of a run with
 * the C library's allocator, or QN_ENOMEM with "out of memory" (objects
 * valid: a constructor's *out NULL, and the same call made again with
 * memory to spare gives the reference result).
 *
 * Each failure point runs in a child process, so that an exit in a layer
 * not converted yet (engine, solve, rules/canon.c: other branches) ends
 * the child and not the sweep. Such an exit is attributed from the
 * stack of the exit (backtrace in an atexit handler, addr2line): the
 * innermost frame of the library outside src/base/ names the code that
 * ended the process (qn_mem_oom, an exiting qn_x* allocator).
 * One in src/generate/ fails the test; the others are counted and
 * printed (they vanish as those layers convert). Leaks show under ASan
 * (a child exits through exit(), so LeakSanitizer looks).
 *
 * With threads (jobs 1 and 2) which allocation fails varies from run to
 * run; every run is still held to the same rule (QN_ENOMEM, or the
 * reference puzzles exactly: a failure in a block the run never needed
 * does not matter). jobs 0 and 1 are swept at every point; jobs 2 at a
 * few seeded random points.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <execinfo.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>
#include <unistd.h>

#include "base/mem.h"
#include "generate/distrib.h"
#include "generate/distrib_exact.h"
#include "generate/gen.h"
#include "quench.h"
#include "t.h"
#include "tfail.h"

/* The public qn_buf_add, as a program's formatter calls it (base/buf.h
 * names the library's own variant the same). */
#undef qn_buf_add

#define MAX_POINTS 100000L
#define MAX_FRAMES 48

static int verdict_fd = -1; /* the child's pipe to the parent */
static int verdict_sent;

/* ------------------------------------------------------------------ */
/* A result: what a call made, as bytes (plain malloc: not counted). */

typedef struct res {
    char *b;
    size_t len, cap;
} res;

static void res_add(res *r, const void *p, size_t n)
{
    if (r->len + n > r->cap) {
        r->cap = (r->len + n) * 2 + 64;
        r->b = realloc(r->b, r->cap);
        if (!r->b)
            abort();
    }
    memcpy(r->b + r->len, p, n);
    r->len += n;
}

static void res_u64(res *r, uint64_t v)
{
    res_add(r, &v, sizeof(v));
}

static void res_free(res *r)
{
    free(r->b);
    memset(r, 0, sizeof(*r));
}

/* A call under test: fills r (on QN_OK), returns its code. */
typedef int call_fn(const void *arg, res *r, qn_err *err);

/* ------------------------------------------------------------------ */
/* The child's side of a failure point. */

enum { V_OK = 'O', V_NOMEM = 'N', V_BAD = 'F', V_EXIT = 'X' };

typedef struct verdict {
    char v;
    long made;
    int nframes;
    uintptr_t frames[MAX_FRAMES]; /* V_EXIT: offsets in the executable */
    char why[320];
} verdict;

static uintptr_t exe_base;

static int find_base(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    exe_base = (uintptr_t)info->dlpi_addr; /* the first: the program */
    return 1;
}

static void send_verdict(const verdict *v)
{
    ssize_t w = write(verdict_fd, v, sizeof(*v));
    (void)w;
    verdict_sent = 1;
}

/* The child exits before it said anything: a layer ended the process.
 * The stack of exit() names the code that decided to. */
static void at_exit(void)
{
    void *frames[MAX_FRAMES];
    verdict v;

    if (verdict_sent || verdict_fd < 0)
        return;
    memset(&v, 0, sizeof(v));
    v.v = V_EXIT;
    v.nframes = backtrace(frames, MAX_FRAMES);
    for (int i = 0; i < v.nframes; i++)
        v.frames[i] = (uintptr_t)frames[i] - exe_base;
    send_verdict(&v);
}

static void child(call_fn *fn, const void *arg, const res *ref, long n)
{
    verdict v;
    res r = {0};
    qn_err err = QN_ERR_INIT;
    int rc;

    memset(&v, 0, sizeof(v));
    atexit(at_exit);
    t_fail_after(n);
    rc = fn(arg, &r, &err);
    v.made = t_counted();
    t_fail_after(-1);
    if (rc == QN_OK) {
        v.v = r.len == ref->len && !memcmp(r.b, ref->b, r.len) ? V_OK : V_BAD;
        if (v.v == V_BAD)
            snprintf(v.why, sizeof(v.why), "QN_OK with another result");
    } else if (rc == QN_ENOMEM && err.code == QN_ENOMEM &&
               strstr(err.msg, "out of memory")) {
        /* objects valid: the same call again, with memory, gives it all */
        res again = {0};
        qn_err e2 = QN_ERR_INIT;
        int rc2 = fn(arg, &again, &e2);
        v.v = rc2 == QN_OK && again.len == ref->len &&
                      !memcmp(again.b, ref->b, again.len)
                  ? V_NOMEM
                  : V_BAD;
        if (v.v == V_BAD)
            snprintf(v.why, sizeof(v.why), "no reference result after it");
        res_free(&again);
    } else {
        v.v = V_BAD;
        snprintf(v.why, sizeof(v.why), "rc %d, code %d, '%s'", rc, err.code,
                 err.msg);
    }
    res_free(&r);
    send_verdict(&v);
    exit(0); /* LeakSanitizer looks at this exit */
}

/* ------------------------------------------------------------------ */
/* The parent's side. */

typedef struct tally {
    long points, ok, nomem, exits, exits_gen;
    char layers[512]; /* the files exits came from */
} tally;

/* Stacks already attributed (the same allocation fails at many points). */
#define SEEN_STACKS 256
static struct {
    int nframes;
    uintptr_t frames[MAX_FRAMES];
    char file[160];
} seen_stack[SEEN_STACKS];
static int nseen_stacks;

/* The source file of the innermost library frame outside src/base/ (the
 * code that called exit, qn_mem_oom or an exiting qn_x* allocator), into
 * file. */
static void attribute(const verdict *v, char *file, size_t size)
{
    char cmd[4096], line[1024];
    size_t at;
    FILE *p;

    for (int i = 0; i < nseen_stacks; i++)
        if (seen_stack[i].nframes == v->nframes &&
            !memcmp(seen_stack[i].frames, v->frames,
                    (size_t)v->nframes * sizeof(v->frames[0]))) {
            snprintf(file, size, "%s", seen_stack[i].file);
            return;
        }
    snprintf(file, size, "?");
    at = (size_t)snprintf(cmd, sizeof(cmd), "addr2line -i -e /proc/%d/exe",
                          (int)getpid());
    for (int i = 0; i < v->nframes && at < sizeof(cmd) - 24; i++)
        at += (size_t)snprintf(cmd + at, sizeof(cmd) - at, " %#lx",
                               (unsigned long)(v->frames[i] - 1));
    if (!(p = popen(cmd, "r")))
        return;
    while (fgets(line, sizeof(line), p)) {
        char *src = strstr(line, "src/");
        if (!src || !strncmp(src, "src/base/", 9))
            continue;
        src[strcspn(src, ":")] = '\0';
        snprintf(file, size, "%s", src);
        break;
    }
    while (fgets(line, sizeof(line), p))
        ;
    pclose(p);
    if (nseen_stacks < SEEN_STACKS) {
        seen_stack[nseen_stacks].nframes = v->nframes;
        memcpy(seen_stack[nseen_stacks].frames, v->frames, sizeof(v->frames));
        snprintf(seen_stack[nseen_stacks].file,
                 sizeof(seen_stack[nseen_stacks].file), "%s", file);
        nseen_stacks++;
    }
}

/* Run failure point n in a child. Returns the allocations the run made
 * (n or more: the run met point n). */
static long point(const char *what, call_fn *fn, const void *arg,
                  const res *ref, long n, tally *t)
{
    int fd[2], status;
    pid_t pid;
    verdict v;
    ssize_t got;

    fflush(stdout);
    fflush(stderr);
    if (pipe(fd) != 0 || (pid = fork()) < 0) {
        T_FAILF("%s: cannot fork", what);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        /* "quench: out of memory" of the layers that still exit */
        if (!getenv("T_VERBOSE") && !freopen("/dev/null", "w", stderr))
            _exit(1);
        verdict_fd = fd[1];
        child(fn, arg, ref, n);
    }
    close(fd[1]);
    memset(&v, 0, sizeof(v));
    got = read(fd[0], &v, sizeof(v));
    close(fd[0]);
    waitpid(pid, &status, 0);
    if (got != (ssize_t)sizeof(v)) {
        T_FAILF("%s, allocation %ld failing: the child said nothing "
                "(status %d)",
                what, n, status);
        return -1;
    }
    if (v.v == V_EXIT) {
        char file[160];
        attribute(&v, file, sizeof(file));
        t->points++;
        t->exits++;
        if (!strncmp(file, "src/generate/", 13)) {
            t->exits_gen++;
            T_FAILF("%s, allocation %ld failing: the process exited in %s",
                    what, n, file);
        } else if (!strstr(t->layers, file) &&
                   strlen(t->layers) + strlen(file) + 2 < sizeof(t->layers)) {
            strcat(t->layers, t->layers[0] ? " " : "");
            strcat(t->layers, file);
        }
        return n; /* it exited at n: later points are worth a look */
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        T_FAILF("%s, allocation %ld failing: child status %d (a leak?)", what,
                n, status);
    if (v.made < n) {
        T_CHECK(v.v == V_OK);
        return v.made;
    }
    t->points++;
    if (v.v == V_OK)
        t->ok++;
    else if (v.v == V_NOMEM)
        t->nomem++;
    else
        T_FAILF("%s, allocation %ld failing: %s", what, n, v.why);
    return v.made;
}

static void report(const char *what, const tally *t)
{
    printf("%s: %ld points: %ld QN_ENOMEM, %ld QN_OK unchanged, %ld exits in "
           "layers not converted yet (%s)\n",
           what, t->points, t->nomem, t->ok, t->exits - t->exits_gen,
           t->layers[0] ? t->layers : "none");
}

/* Every failure point of fn(arg), until a run completes. */
static void sweep(const char *what, call_fn *fn, const void *arg)
{
    res ref = {0};
    qn_err err = QN_ERR_INIT;
    tally t;
    long n;

    memset(&t, 0, sizeof(t));
    t_fail_after(-1);
    if (fn(arg, &ref, &err) != QN_OK) {
        T_FAILF("%s: no reference run (%s)", what, err.msg);
        res_free(&ref);
        return;
    }
    for (n = 1; n < MAX_POINTS; n++)
        if (point(what, fn, arg, &ref, n, &t) < n)
            break;
    T_CHECK(n < MAX_POINTS);
    /* the base code exits at each of generate's own allocations */
    T_CHECK(t.nomem > 0);
    T_EQ(t.exits_gen, 0);
    report(what, &t);
    res_free(&ref);
}

/* Seeded random points (runs with threads: the order varies). */
static void sample(const char *what, call_fn *fn, const void *arg, long max,
                   int npoints, unsigned seed)
{
    res ref = {0};
    qn_err err = QN_ERR_INIT;
    tally t;

    memset(&t, 0, sizeof(t));
    if (fn(arg, &ref, &err) != QN_OK) {
        T_FAILF("%s: no reference run (%s)", what, err.msg);
        res_free(&ref);
        return;
    }
    srand(seed);
    for (int i = 0; i < npoints; i++)
        point(what, fn, arg, &ref, 1 + rand() % max, &t);
    T_EQ(t.exits_gen, 0);
    report(what, &t);
    res_free(&ref);
}

/* ------------------------------------------------------------------ */
/* The calls. */

static qn_rules *rules5;
static qn_solver *solver5;   /* classic-5x5 */
static qn_distrib *distrib5; /* its exact distribution */

typedef struct gen_arg {
    const qn_solver *solver;
    qn_gen_opts o;
    int format;
} gen_arg;

static int collect(void *ctx, const qn_gen_puzzle *p)
{
    res *r = ctx;

    res_u64(r, p->index);
    res_u64(r, p->presses);
    res_u64(r, p->uid);
    res_u64(r, (uint64_t)(int64_t)p->human_level);
    res_add(r, p->state, 25);
    if (p->text)
        res_add(r, p->text, p->textlen);
    return QN_GEN_EMITTED;
}

/* A formatter in the worker threads, through the public qn_buf. */
static void format(void *ctx, const qn_gen_puzzle *p, qn_buf *out)
{
    (void)ctx;
    for (int i = 0; i < 25; i++)
        qn_buf_add(out, p->state[i] ? "1" : "0", 1);
    qn_buf_add(out, "\n", 1);
}

static int call_run(const void *arg, res *r, qn_err *err)
{
    const gen_arg *a = arg;
    qn_gen_hooks h = {a->format ? format : NULL, collect, NULL, r, NULL};
    qn_gen_stats st;
    int rc = qn_gen_run(a->solver, &a->o, &h, &st, err);

    if (rc == QN_OK) {
        res_u64(r, st.draws);
        res_u64(r, st.emitted);
        res_u64(r, st.duplicates);
    }
    return rc;
}

static int call_plan(const void *arg, res *r, qn_err *err)
{
    const gen_arg *a = arg;
    qn_gen_target_info info;
    int rc = qn_gen_plan(a->solver, &a->o, &info, err);

    if (rc == QN_OK) {
        res_u64(r, (uint64_t)info.mode);
        res_u64(r, info.counts);
        res_u64(r, info.first);
        res_u64(r, info.last);
        res_u64(r, info.plan_grades);
    }
    return rc;
}

static int call_candidate(const void *arg, res *r, qn_err *err)
{
    const gen_arg *a = arg;
    uint8_t state[25];
    uint64_t presses = 0;
    int rc = qn_gen_candidate(a->solver, &a->o, 77, state, &presses);

    if (rc == QN_ENOMEM)
        return qn_err_set(err, QN_ENOMEM, 0, 0, "out of memory");
    res_u64(r, (uint64_t)rc);
    res_u64(r, presses);
    res_add(r, state, sizeof(state));
    return QN_OK;
}

static int call_distrib(const void *arg, res *r, qn_err *err)
{
    qn_distrib *d = (qn_distrib *)1;
    int rc = qn_distrib_compute(&d, qn_solver_system(arg), err);

    if (rc != QN_OK) {
        T_CHECK(d == NULL);
        return rc;
    }
    for (size_t m = 0; m < qn_distrib_len(d); m++)
        res_u64(r, qn_distrib_count(d, m));
    qn_distrib_free(d);
    return QN_OK;
}

typedef struct census_arg {
    const qn_distrib *d;
    const qn_solver *solver;
    qn_target t;
} census_arg;

static int call_census(const void *arg, res *r, qn_err *err)
{
    const census_arg *a = arg;
    qn_census *c = (qn_census *)1;
    int rc = qn_census_new(&c, a->d, qn_solver_system(a->solver),
                           qn_solver_rules(a->solver), &a->t, err);
    uint8_t d[QN_RULES_MAX_CELLS];

    if (rc != QN_OK) {
        T_CHECK(c == NULL);
        return rc;
    }
    for (size_t m = 0; m < qn_census_len(c); m++) {
        res_u64(r, qn_census_states(c, m));
        res_u64(r, qn_census_distinct(c, m));
        if (qn_census_states(c, m)) {
            qn_census_nth(c, m, qn_census_states(c, m) / 2, d);
            res_add(r, d, (size_t)qn_solver_ncells(a->solver));
        }
    }
    qn_census_free(c);
    return QN_OK;
}

static int call_exact(const void *arg, res *r, qn_err *err)
{
    qn_exact_dist *x = (qn_exact_dist *)1;
    int rc = qn_exact_dist_compute(&x, qn_solver_system(arg), err);

    if (rc != QN_OK) {
        T_CHECK(x == NULL);
        return rc;
    }
    for (size_t m = 0; m < qn_exact_dist_len(x); m++) {
        uint64_t v = 0;
        qn_exact_dist_count_u64(x, m, &v);
        res_u64(r, v);
    }
    qn_exact_dist_free(x);
    return QN_OK;
}

static int call_tiers(const void *arg, res *r, qn_err *err)
{
    qn_tiers t;
    const char *src = qn_gen_tiers(arg, NULL, &t);

    if (!src)
        return qn_err_nomem(err);
    res_add(r, src, strlen(src));
    for (size_t i = 0; i < t.n; i++) {
        res_u64(r, t.lo[i]);
        res_u64(r, t.hi[i]);
    }
    return QN_OK;
}

static qn_solver *load(const char *path, qn_rules **r)
{
    qn_solver *solver = NULL;
    qn_err err = QN_ERR_INIT;

    if (qn_rules_load_file(r, path, &err) != QN_OK ||
        qn_solver_new(&solver, *r, &err) != QN_OK)
        T_FAILF("%s: %s", path, err.msg);
    return solver;
}

static void opts(gen_arg *a, const qn_solver *solver, uint64_t count, int jobs)
{
    memset(a, 0, sizeof(*a));
    a->solver = solver;
    qn_gen_opts_init(&a->o);
    qn_seed_parse(&a->o.seed, "5eed", NULL);
    a->o.count = count;
    a->o.jobs = jobs;
    a->o.max_draws = 100000;
}

static void test_runs(void)
{
    gen_arg a;

    /* an unrestricted target (SAMPLE), in the caller's thread and with
     * one worker beside the consumer, formatted in the workers */
    opts(&a, solver5, 12, 0);
    a.format = 1;
    sweep("run sample, jobs 0", call_run, &a);
    a.o.jobs = 1;
    sweep("run sample, jobs 1", call_run, &a);
    a.o.jobs = 2;
    sample("run sample, jobs 2", call_run, &a, 200, 16, 7);

    /* --presses with the exact distribution: EXHAUSTIVE from the census */
    opts(&a, solver5, 6, 0);
    a.o.lo = 12, a.o.hi = 13;
    a.o.distrib = distrib5;
    sweep("run --presses 12..13 (census), jobs 0", call_run, &a);
    a.o.jobs = 2;
    sample("run --presses 12..13 (census), jobs 2", call_run, &a, 150, 12, 11);

    /* --presses without it: a pilot, then a spread of climbs (pilot
     * climbs in threads) */
    opts(&a, solver5, 4, 0);
    a.o.lo = 3, a.o.hi = 4;
    a.o.mode = QN_GEN_SPREAD;
    sweep("run --presses 3..4 spread, jobs 0", call_run, &a);
    sweep("plan --presses 3..4 spread, jobs 0", call_plan, &a);
    a.o.jobs = 2;
    sample("plan --presses 3..4 spread, jobs 2", call_plan, &a, 60, 12, 13);
    opts(&a, solver5, 1, 0);
    a.o.lo = a.o.hi = 5;
    a.o.mode = QN_GEN_CLIMB;
    sweep("candidate --presses 5 climb", call_candidate, &a);
}

static void test_distrib(void)
{
    census_arg ca;
    qn_rules *rt = NULL, *r4 = NULL;
    qn_solver *torus = load("rules/torus-5x5.yaml", &rt);
    qn_solver *s4 = load("rules/whack-a-mole-4x4.yaml", &r4);
    qn_distrib *d4 = NULL;

    sweep("distrib classic-5x5", call_distrib, solver5);
    if (s4 && qn_distrib_compute(&d4, qn_solver_system(s4), NULL) == QN_OK) {
        ca.d = d4, ca.solver = s4;
        qn_target_init(&ca.t);
        ca.t.lo = 3, ca.t.hi = 5, ca.t.min_lit = 4, ca.t.unique_optimum = 1;
        sweep("census 3..5, 4 lit, unique optimum (whack-a-mole-4x4)",
              call_census, &ca);
    }
    qn_distrib_free(d4);
    qn_solver_free(s4);
    qn_rules_free(r4);
    sweep("exact distribution classic-5x5", call_exact, solver5);
    if (torus) /* no grading: section: tiers cut from a sample */
        sweep("tiers sampled torus-5x5", call_tiers, torus);
    qn_solver_free(torus);
    qn_rules_free(rt);
}

int main(void)
{
    qn_err err = QN_ERR_INIT;

    qn_rng_global_init(NULL);
    t_alloc_hook();
    dl_iterate_phdr(find_base, NULL);
    solver5 = load("rules/classic-5x5.yaml", &rules5);
    if (!solver5 ||
        qn_distrib_compute(&distrib5, qn_solver_system(solver5), &err) != QN_OK)
        return t_done();
    test_distrib();
    test_runs();
    qn_distrib_free(distrib5);
    qn_solver_free(solver5);
    qn_rules_free(rules5);
    return t_done();
}
