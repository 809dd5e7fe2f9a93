/*
 * test_nomem_solve.c: solve, validate and campaign never exit the process
 * (issue #32 section 2). As tests/unit/test_nomem.c: each entry point is
 * run failing its n-th allocation (through qn_set_allocator) for every n
 * until a run makes fewer than n; each run must return QN_OK or
 * QN_ENOMEM with "out of memory" (an exit would end this program), leave
 * its objects valid (freed, or used again by the next run) and, when it
 * succeeds, give what a run with the C library's allocator gave.
 *
 * The counting allocator is tfail.h's, as in the other test_nomem_*
 * programs. Each sweep also asserts a least number of points returned
 * as QN_ENOMEM: on code that still exits there are none.
 */
/* tier: full (every allocation of each entry point: minutes) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/mem.h"
#include "campaign/campaign.h"
#include "quench.h"
#include "rules/recipe.h"
#include "solve/human_score.h"
#include "solve/plans.h"
#include "solve/solver.h"
#include "t.h"
#include "tfail.h"
#include "validate/submit.h"
#include "validate/verdict.h"
#include "validate/verdict_stream.h"

#define MAX_POINTS 200000L

/* A sweep of one run function: each run returns QN_OK (having checked
 * its result itself) or an error with err filled. */
typedef int run_fn(void *ctx, qn_err *err);

static void sweep(const char *what, run_fn *run, void *ctx, long min_nomem)
{
    long n, nomem = 0, ok = 0;
    qn_err err = QN_ERR_INIT;
    int rc;

    for (n = 1; n < MAX_POINTS; n++) {
        long made;

        qn_err_clear(&err);
        t_fail_after(n);
        rc = run(ctx, &err);
        made = t_counted();
        t_fail_after(-1);
        if (made < n) {
            if (rc != QN_OK)
                T_FAILF("%s: the run past the last allocation: rc %d '%s'",
                        what, rc, err.msg);
            break;
        }
        if (rc == QN_OK) {
            ok++; /* a failure it could do without */
            continue;
        }
        if (rc == QN_ENOMEM && err.code == QN_ENOMEM &&
            strstr(err.msg, "out of memory"))
            nomem++;
        else
            T_FAILF("%s, allocation %ld failing: rc %d, code %d, '%s'", what, n,
                    rc, err.code, err.msg);
    }
    /* and once more with memory: the objects are still usable */
    qn_err_clear(&err);
    rc = run(ctx, &err);
    if (rc != QN_OK)
        T_FAILF("%s: no run after the sweep: rc %d '%s'", what, rc, err.msg);
    printf("%s: %ld allocations: %ld QN_ENOMEM, %ld recovered\n", what, n - 1,
           nomem, ok);
    if (nomem < min_nomem)
        T_FAILF("%s: %ld points returned QN_ENOMEM, expected at least %ld",
                what, nomem, min_nomem);
}

/*
 * The same sweep, each run in a child process: for calls into layers
 * that may still end the process on a failed qn_buf append (generate's
 * buffers exit unless their code is converted: buf.h), which the
 * allocator cannot tell. A child that ends with 71 and "quench: out of
 * memory" counts as an exit in another layer; this test's own checks in
 * the child count as failures here.
 */
enum { K_PAST = 10, K_OK, K_NOMEM, K_WRONG };

static int child_run(run_fn *run, void *ctx, long n)
{
    qn_err err = QN_ERR_INIT;
    long fails = t_fail, made;
    int rc;

    t_fail_after(n);
    rc = run(ctx, &err);
    made = t_counted();
    t_fail_after(-1);
    if (t_fail != fails)
        return K_WRONG;
    if (made < n)
        return rc == QN_OK ? K_PAST : K_WRONG;
    if (rc == QN_OK)
        return K_OK;
    if (rc == QN_ENOMEM && err.code == QN_ENOMEM &&
        strstr(err.msg, "out of memory"))
        return K_NOMEM;
    fprintf(stderr, "allocation %ld failing: rc %d '%s'\n", n, rc, err.msg);
    return K_WRONG;
}

static void sweep_forked(const char *what, run_fn *run, void *ctx,
                         long min_nomem)
{
    long n, count[K_WRONG + 1] = {0}, exited = 0;

    fflush(stdout);
    fflush(stderr);
    for (n = 1; n < MAX_POINTS; n++) {
        int status, code;
        pid_t pid = fork();
        if (pid == 0) {
            /* the child's stderr says only what is wrong */
            _exit(child_run(run, ctx, n));
        }
        if (pid < 0 || waitpid(pid, &status, 0) != pid) {
            T_FAILF("%s: cannot run a child", what);
            return;
        }
        code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (code == 71) {
            exited++;
            continue;
        }
        if (code < K_PAST || code > K_WRONG) {
            T_FAILF("%s, allocation %ld failing: status %d", what, n, status);
            continue;
        }
        count[code]++;
        if (code == K_WRONG)
            T_FAILF("%s, allocation %ld failing: wrong (above)", what, n);
        if (code == K_PAST)
            break;
    }
    printf("%s: %ld allocations: %ld QN_ENOMEM, %ld recovered, %ld exits in "
           "other layers (generate's buffers)\n",
           what, n - 1, count[K_NOMEM], count[K_OK], exited);
    if (count[K_NOMEM] < min_nomem)
        T_FAILF("%s: %ld points returned QN_ENOMEM, expected at least %ld",
                what, count[K_NOMEM], min_nomem);
}

static int nomem(qn_err *err)
{
    return qn_err_nomem(err);
}

static qn_rules *load(const char *path, const char *text)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;
    int rc = text ? qn_rules_load_buf(&r, text, strlen(text), path, &err)
                  : qn_rules_load_file(&r, path, &err);

    if (rc != QN_OK)
        T_FAILF("%s: cannot load (%s)", path, err.msg);
    return r;
}

/* ------------------------------------------------------------------ */
/* Solving: the answer, min presses, repair, explanation */

/* A torus over Z/6 (6 = 2 x 3: the CRT joins two prime parts). */
static const char mod6_rule[] = "quench: 1\nname: torus-mod6\ncolours: 6\n"
                                "board: {grid: [4, 4], wrap: both}\n"
                                "press: {stencil: plus, self: true}\n";

typedef struct solve_case {
    const qn_rules *r;
    const uint8_t *states; /* nstates x ncells */
    int nstates, n;
    qn_buf ref; /* the reference run's account */
} solve_case;

/* Everything the solver says about the states, as text. */
static int account(const qn_solver *solver, const solve_case *sc, qn_buf *out,
                   qn_err *err)
{
    qn_answer a;
    int rc;

    if ((rc = qn_answer_init(&a, solver, err)) != QN_OK)
        return rc;
    for (int i = 0; i < sc->nstates && rc == QN_OK; i++) {
        const uint8_t *s = sc->states + (size_t)i * sc->n;
        if (qn_solver_answer(solver, &a, s) != QN_OK) {
            rc = nomem(err);
            break;
        }
        qn_buf_addf(out,
                    "state %d: goal %d solvable %d exact %d presses %llu "
                    "optimal %llu plan",
                    i, a.at_goal, a.solvable, a.exact,
                    (unsigned long long)a.mp.presses,
                    (unsigned long long)a.mp.noptimal);
        for (int c = 0; a.solvable && c < sc->n; c++)
            qn_buf_addf(out, " %u", a.plan[c]);
        qn_buf_addf(out, "\n repair %d:", a.repair_known);
        for (int c = 0; c < a.nrepair; c++)
            qn_buf_addf(out, " %d=%u", a.repair_cell[c], a.repair_value[c]);
        qn_buf_addc(out, '\n');
        if (!a.solvable)
            qn_solver_explain(solver, out, s, 8);
        qn_solver_cell_name(solver, out, sc->n - 1);
        qn_buf_addc(out, '\n');
    }
    qn_answer_release(&a);
    if (rc == QN_OK && out->failed)
        rc = nomem(err);
    return rc;
}

static int run_solve(void *ctx, qn_err *err)
{
    solve_case *sc = ctx;
    qn_solver *solver;
    qn_buf got = QN_BUF_INIT;
    int rc = qn_solver_new(&solver, sc->r, err);

    if (rc != QN_OK)
        return rc;
    if ((rc = qn_solver_check_exact(solver, err)) == QN_OK &&
        (rc = account(solver, sc, &got, err)) == QN_OK &&
        (got.len != sc->ref.len || memcmp(got.buf, sc->ref.buf, got.len)))
        T_FAILF("%s: the answers differ", qn_rules_name(sc->r));
    qn_buf_release(&got);
    qn_solver_free(solver);
    return rc;
}

/* Random states (values < k) and the goal. */
static uint8_t *some_states(const qn_rules *r, int count, uint64_t seed)
{
    int n = qn_rules_ncells(r);
    unsigned k = qn_rules_colours(r);
    uint8_t *s = malloc((size_t)count * n);

    memcpy(s, qn_rules_goal(r), (size_t)n);
    for (int i = n; i < count * n; i++)
        s[i] = (uint8_t)(t_rand(&seed) % k);
    return s;
}

static void test_solve(const char *path, const char *text, int nstates,
                       long min_nomem)
{
    solve_case sc;
    qn_solver *solver;
    qn_err err = QN_ERR_INIT;
    char what[96];

    memset(&sc, 0, sizeof(sc));
    if (!(sc.r = load(path, text)))
        return;
    sc.n = qn_rules_ncells(sc.r);
    sc.nstates = nstates;
    sc.states = some_states(sc.r, nstates, 0x5eed);
    qn_buf_init(&sc.ref);
    T_EQ(qn_solver_new(&solver, sc.r, &err), QN_OK);
    T_EQ(account(solver, &sc, &sc.ref, &err), QN_OK);
    /* the account holds solvable and unsolvable states both */
    T_CHECK(strstr(sc.ref.buf, "solvable 1") &&
            strstr(sc.ref.buf, "solvable 0"));
    qn_solver_free(solver);
    snprintf(what, sizeof(what), "solve %s", path);
    sweep(what, run_solve, &sc, min_nomem);
    qn_buf_release(&sc.ref);
    free((void *)sc.states);
    qn_rules_free((qn_rules *)sc.r);
}

/* solve --all and --optimal: the plan lists */
typedef struct plans_case {
    const qn_solver *solver;
    const uint8_t *state;
    qn_plans ref[2];
} plans_case;

static int run_plans(void *ctx, qn_err *err)
{
    plans_case *pc = ctx;

    for (int opt = 0; opt < 2; opt++) {
        qn_plans p;
        int rc = qn_plans_find(&p, pc->solver, pc->state, 16, opt, err);
        const qn_plans *w = &pc->ref[opt];
        if (rc != QN_OK) {
            T_CHECK(p.count == 0 && p.x == NULL);
            qn_plans_release(&p);
            return rc;
        }
        if (p.count != w->count || p.matched != w->matched ||
            memcmp(p.x, w->x, p.count * (size_t)p.n) ||
            memcmp(p.presses, w->presses, p.count * sizeof(*p.presses)))
            T_FAILF("plans (optimal %d) differ", opt);
        qn_plans_release(&p);
    }
    return QN_OK;
}

static void test_plans(void)
{
    qn_rules *r = load("rules/classic-5x5.yaml", NULL);
    qn_solver *solver;
    plans_case pc;
    qn_err err = QN_ERR_INIT;
    uint8_t state[25] = {1, 1, 0, 0, 0, 1}; /* a press of cell 0 */

    if (!r)
        return;
    T_EQ(qn_solver_new(&solver, r, &err), QN_OK);
    pc.solver = solver;
    pc.state = state;
    for (int opt = 0; opt < 2; opt++)
        T_EQ(qn_plans_find(&pc.ref[opt], solver, state, 16, opt, &err), QN_OK);
    /* classic 5x5: a kernel of 4 elements, so 4 plans; 1 press optimal */
    T_EQ(pc.ref[0].count, 4);
    T_EQ(pc.ref[1].count, 1);
    T_EQ(pc.ref[1].presses[0], 1);
    sweep("plans classic-5x5", run_plans, &pc, 4);
    qn_plans_release(&pc.ref[0]);
    qn_plans_release(&pc.ref[1]);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* ------------------------------------------------------------------ */
/* The human grade and its narration */

typedef struct human_case {
    const qn_solver *solver;
    const uint8_t *states;
    int nstates, n;
    qn_buf ref;
} human_case;

static int human_account(const human_case *hc, qn_buf *out, qn_err *err)
{
    qn_human_grader *hg = NULL;
    qn_human *h = NULL;
    qn_human_shares sh;
    int rc;

    if ((rc = qn_human_grader_new(&hg, hc->solver, err)) != QN_OK)
        return rc;
    for (int i = 0; i < hc->nstates && rc != QN_ENOMEM; i++) {
        const uint8_t *s = hc->states + (size_t)i * hc->n;
        qn_human_grade gr;
        rc = qn_human_grade_state(hg, s, &gr, err);
        if (rc == QN_OK) {
            qn_buf_addf(out, "state %d: level %d side %d", i, gr.level,
                        gr.side);
            for (int f = 0; f < QN_HF_COUNT; f++)
                qn_buf_addf(out, " %.6f", gr.f[f]);
            qn_buf_addc(out, '\n');
        } else if (rc != QN_ENOMEM) {
            qn_buf_addf(out, "state %d: code %d %s\n", i, rc, err->msg);
        }
        if (rc == QN_ENOMEM)
            break;
        rc = qn_human_narrate(hg, s, out, err);
    }
    if (rc != QN_ENOMEM && (rc = qn_human_new(&h, hc->solver, err)) == QN_OK &&
        (rc = qn_human_shares_compute(h, &sh, err)) == QN_OK) {
        qn_buf_addf(out, "shares %d %llu/%llu %d %llu/%llu %d %llu\n",
                    sh.top.known, (unsigned long long)sh.top.num,
                    (unsigned long long)sh.top.den, sh.any.known,
                    (unsigned long long)sh.any.num,
                    (unsigned long long)sh.any.den, sh.table_known,
                    (unsigned long long)sh.table_patterns);
    }
    qn_human_free(h);
    qn_human_grader_free(hg);
    if (rc != QN_ENOMEM && out->failed)
        rc = nomem(err);
    return rc == QN_ENOMEM ? rc : QN_OK;
}

static int run_human(void *ctx, qn_err *err)
{
    human_case *hc = ctx;
    qn_buf got = QN_BUF_INIT;
    int rc = human_account(hc, &got, err);

    if (rc == QN_OK &&
        (got.len != hc->ref.len || memcmp(got.buf, hc->ref.buf, got.len)))
        T_FAILF("human grades differ:\n%s\nwant\n%s", got.buf, hc->ref.buf);
    qn_buf_release(&got);
    return rc;
}

static void test_human(const char *path, int nstates, long min_nomem)
{
    qn_rules *r = load(path, NULL);
    qn_solver *solver;
    human_case hc;
    qn_err err = QN_ERR_INIT;
    char what[96];

    if (!r)
        return;
    T_EQ(qn_solver_new(&solver, r, &err), QN_OK);
    hc.solver = solver;
    hc.n = qn_rules_ncells(r);
    hc.nstates = nstates;
    /* presses of random cells: solvable states, of several levels */
    uint8_t *s = calloc((size_t)nstates, (size_t)hc.n);
    uint64_t seed = 42;
    for (int i = 0; i < nstates; i++) {
        memcpy(s + (size_t)i * hc.n, qn_rules_goal(r), (size_t)hc.n);
        for (int p = 0; p < 1 + i; p++)
            qn_solver_press(solver, s + (size_t)i * hc.n,
                            (int)(t_rand(&seed) % (uint64_t)hc.n));
    }
    hc.states = s;
    qn_buf_init(&hc.ref);
    T_EQ(human_account(&hc, &hc.ref, &err), QN_OK);
    T_CHECK(strstr(hc.ref.buf, "technique: ") != NULL);
    snprintf(what, sizeof(what), "human %s", path);
    sweep(what, run_human, &hc, min_nomem);
    qn_buf_release(&hc.ref);
    free(s);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* ------------------------------------------------------------------ */
/* validate: a stream of submissions */

typedef struct validate_case {
    const qn_solver *solver;
    const char *input;
    size_t len;
    int jobs;
    qn_buf ref; /* the verdicts */
    uint64_t counts[QN_NVERDICTS];
} validate_case;

static int judge_stream(const validate_case *vc, qn_buf *out, uint64_t *counts,
                        qn_err *err)
{
    FILE *in = fmemopen((void *)vc->input, vc->len, "r");
    qn_submit_reader *rd = NULL;
    qn_judge *j = NULL;
    qn_verdict_stream *vs = NULL;
    const qn_verdict_item *it;
    int rc;

    rc = qn_submit_open_rules(&rd, in, "subs", qn_solver_rules(vc->solver),
                              QN_SUBMIT_AUTO, err);
    if (rc == QN_OK && !(j = qn_judge_new(vc->solver)))
        rc = nomem(err);
    if (rc == QN_OK &&
        !(vs = qn_verdict_stream_new(j, rd, QN_VERDICT_JSONL, vc->jobs)))
        rc = nomem(err);
    while (rc == QN_OK && (rc = qn_verdict_stream_next(vs, &it, err)) == 1) {
        qn_verdict_stream_write(vs, out);
        rc = QN_OK;
        if (out->failed)
            rc = nomem(err);
    }
    for (int v = 0; j && v < QN_NVERDICTS; v++)
        counts[v] = qn_judge_count(j, (qn_verdict)v);
    qn_verdict_stream_free(vs);
    qn_judge_free(j);
    qn_submit_close(rd);
    fclose(in);
    return rc;
}

static int run_validate(void *ctx, qn_err *err)
{
    validate_case *vc = ctx;
    qn_buf got = QN_BUF_INIT;
    uint64_t counts[QN_NVERDICTS] = {0};
    int rc = judge_stream(vc, &got, counts, err);

    if (got.failed) {
        qn_buf_release(&got);
        return rc;
    }
    /* what came out is the verdicts of the first records, exactly: the
     * whole of them only when the stream said it ended */
    if (got.len > vc->ref.len || memcmp(got.buf, vc->ref.buf, got.len))
        T_FAILF("validate: the verdicts that came out differ");
    if (rc == QN_OK &&
        (got.len != vc->ref.len || memcmp(counts, vc->counts, sizeof(counts))))
        T_FAILF("validate: a complete stream's verdicts or counts differ");
    if (rc != QN_OK && got.len == vc->ref.len && vc->ref.len)
        T_FAILF("validate: every verdict came out, then rc %d", rc);
    qn_buf_release(&got);
    return rc;
}

/* Text lines (or JSON Lines records): solvable, unsolvable, malformed
 * and repeated states. */
static char *submissions(const qn_rules *r, int lines, int jsonl, size_t *len)
{
    qn_buf b = QN_BUF_INIT;
    int n = qn_rules_ncells(r);
    uint8_t cells[64];
    uint64_t seed = 7;

    for (int i = 0; i < lines; i++) {
        if (jsonl)
            qn_buf_addf(&b, "{\"id\":\"s%d\",\"state\":\"", i);
        if (i % 13 == 5) {
            qn_buf_adds(&b, "10x01/00000"); /* malformed */
        } else {
            if (i % 11 != 3) /* else a repeat of the state before */
                for (int c = 0; c < n; c++)
                    cells[c] = (uint8_t)(t_rand(&seed) & 1);
            qn_rules_format_state(r, &b, cells, '/');
        }
        qn_buf_adds(&b, jsonl ? "\"}\n" : "\n");
    }
    return qn_buf_detach(&b, len);
}

static void test_validate(int lines, int jsonl, int jobs, long min_nomem)
{
    qn_rules *r = load("rules/classic-5x5.yaml", NULL);
    qn_solver *solver;
    validate_case vc;
    qn_err err = QN_ERR_INIT;
    char what[96];

    if (!r)
        return;
    T_EQ(qn_solver_new(&solver, r, &err), QN_OK);
    memset(&vc, 0, sizeof(vc));
    vc.solver = solver;
    vc.jobs = jobs;
    vc.input = submissions(r, lines, jsonl, &vc.len);
    qn_buf_init(&vc.ref);
    T_EQ(judge_stream(&vc, &vc.ref, vc.counts, &err), QN_OK);
    /* every kind of verdict is there */
    T_CHECK(vc.counts[QN_VERDICT_OK] && vc.counts[QN_VERDICT_UNSOLVABLE] &&
            vc.counts[QN_VERDICT_MALFORMED] && vc.counts[QN_VERDICT_DUPLICATE]);
    snprintf(what, sizeof(what), "validate %d %s lines, %d jobs", lines,
             jsonl ? "JSON" : "text", jobs);
    sweep(what, run_validate, &vc, min_nomem);
    qn_buf_release(&vc.ref);
    free((void *)vc.input);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* A judge's own calls, one record at a time (the fuzzers' way). */
typedef struct judge_case {
    const qn_solver *solver;
    qn_submission sub[3];
    qn_verdict want[3];
} judge_case;

static int run_judge(void *ctx, qn_err *err)
{
    judge_case *jc = ctx;
    qn_judge *j = qn_judge_new(jc->solver);
    qn_ruling ru;
    int rc;

    if (!j)
        return nomem(err);
    if ((rc = qn_ruling_init(&ru, j, err)) != QN_OK) {
        qn_judge_free(j);
        return rc;
    }
    for (int i = 0; i < 3 && rc == QN_OK; i++) {
        rc = qn_judge_one(j, &ru, &jc->sub[i]);
        if (rc == QN_OK && ru.verdict != jc->want[i])
            T_FAILF("judge: record %d: %s", i, qn_verdict_name(ru.verdict));
    }
    if (rc != QN_OK)
        rc = nomem(err);
    qn_ruling_release(&ru);
    qn_judge_free(j);
    return rc;
}

static void test_judge(void)
{
    qn_rules *r = load("rules/classic-5x5.yaml", NULL);
    static const uint8_t lit1[25] = {1, 1, 0, 0, 0, 1}; /* solvable */
    static const uint8_t one[25] = {1};                 /* unsolvable */
    judge_case jc;
    qn_solver *solver;
    qn_err err = QN_ERR_INIT;

    if (!r)
        return;
    T_EQ(qn_solver_new(&solver, r, &err), QN_OK);
    memset(&jc, 0, sizeof(jc));
    jc.solver = solver;
    for (int i = 0; i < 3; i++) {
        jc.sub[i].seq = (uint64_t)i + 1;
        jc.sub[i].id = "x";
        jc.sub[i].ok = 1;
        jc.sub[i].cells = i == 1 ? one : lit1;
    }
    jc.want[0] = QN_VERDICT_OK;
    jc.want[1] = QN_VERDICT_UNSOLVABLE;
    jc.want[2] = QN_VERDICT_DUPLICATE;
    sweep("judge one by one", run_judge, &jc, 3);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* ------------------------------------------------------------------ */
/* campaign: a recipe planned */

typedef struct campaign_case {
    const qn_recipe *r;
    size_t nparts, nrules;
} campaign_case;

static int run_campaign(void *ctx, qn_err *err)
{
    campaign_case *cc = ctx;
    qn_campaign *c;
    int rc = qn_campaign_plan(&c, cc->r, 1, 0, err);

    if (rc != QN_OK) {
        T_CHECK(c == NULL);
        return rc;
    }
    if (qn_campaign_nparts(c) != cc->nparts ||
        qn_campaign_nrules(c) != cc->nrules)
        T_FAILF("campaign: the plan differs");
    qn_campaign_free(c);
    return QN_OK;
}

/* Two sections, two tiers of one: three parts, two rules (each run plans
 * them all: a small recipe keeps the forked sweep short). */
static const char recipe_text[] =
    "pack: small\nseed: 7\nsections:\n"
    "  - name: a\n    rules: ../classic-5x5.yaml\n"
    "    tiers: {easy: 2, medium: 2}\n"
    "  - name: b\n    rules: ../classic-3x3.yaml\n    count: 2\n";

static void test_campaign(void)
{
    const char *path = "rules/campaigns/small.yaml";
    const char *text = recipe_text;
    size_t len = strlen(recipe_text);
    qn_recipe *r;
    qn_campaign *c;
    campaign_case cc;
    qn_err err = QN_ERR_INIT;

    if (qn_recipe_load_buf(&r, text, len, path, &err) != QN_OK) {
        T_FAILF("%s: cannot load (%s)", path, err.msg);
        return;
    }
    T_EQ(qn_campaign_plan(&c, r, 1, 0, &err), QN_OK);
    cc.r = r;
    cc.nparts = qn_campaign_nparts(c);
    cc.nrules = qn_campaign_nrules(c);
    T_EQ(cc.nparts, 3);
    T_EQ(cc.nrules, 2);
    qn_campaign_free(c);
    sweep_forked("campaign plan (2 rules, 3 parts)", run_campaign, &cc, 5);
    qn_recipe_free(r);
}

int main(int argc, char **argv)
{
    t_alloc_hook();
    if (argc > 1 && !strcmp(argv[1], "campaign")) { /* one part alone */
        test_campaign();
        return t_done();
    }
    test_solve("rules/classic-5x5.yaml", NULL, 12, 1);
    test_solve("rules/ring6-mod8.yaml", NULL, 12, 1);
    test_solve("torus-mod6", mod6_rule, 12, 1);
    test_plans();
    test_human("rules/classic-5x5.yaml", 10, 30);
    test_human("rules/classic-9x9.yaml", 6, 30);
    test_human("rules/hexagon-3.yaml", 6, 30);
    test_judge();
    test_validate(40, 0, 1, 10);
    test_validate(1100, 0, 2, 10); /* two batches: a worker judges one */
    test_validate(500, 1, 2, 10);  /* two slices, parsed by their judges */
    test_campaign();
    return t_done();
}
