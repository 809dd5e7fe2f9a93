/*
 * generate.c: ten distinct puzzles of a rule to standard output.
 *
 *   cc generate.c $(pkg-config --cflags --libs quench) -o generate
 *   ./generate rules/classic-5x5.yaml 2026
 *
 * One line a puzzle: its state, its exact least presses and its id. The
 * same seed (hex) gives the same ten puzzles. Exit status 0, 2 on error.
 */
#include <stdio.h>

#include <quench.h>

struct out {
    const qn_rules *r;
    qn_buf line;
    int nomem; /* a line could not be built */
};

/* Called on this thread for each puzzle, in order. */
static int emit(void *ctx, const qn_gen_puzzle *p)
{
    struct out *o = ctx;

    qn_buf_reset(&o->line);
    qn_rules_format_state(o->r, &o->line, p->state, '/');
    if (o->line.failed) { /* out of memory is sticky: checked once */
        o->nomem = 1;
        return QN_GEN_STOP;
    }
    printf("%s %llu %s\n", o->line.buf, (unsigned long long)p->presses, p->id);
    return QN_GEN_EMITTED;
}

int main(int argc, char **argv)
{
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    qn_solver *solver = NULL;
    qn_gen_opts o;
    qn_gen_hooks h = {0};
    qn_gen_stats st;
    struct out out = {NULL, QN_BUF_INIT, 0};
    int rc;

    if (argc != 3) {
        fprintf(stderr, "usage: generate RULES SEED\n");
        return 2;
    }
    if (qn_rng_global_init(&err) != QN_OK ||
        qn_rules_load_file(&r, argv[1], &err) != QN_OK ||
        qn_solver_new(&solver, r, &err) != QN_OK) {
        fprintf(stderr, "generate: %s: %s\n", argv[1], err.msg);
        qn_rules_free(r);
        return 2;
    }
    qn_gen_opts_init(&o);
    o.count = 10;
    o.max_draws = 1000000;
    rc = qn_seed_parse(&o.seed, argv[2], &err);
    out.r = r;
    h.emit = emit;
    h.ctx = &out;
    if (rc == QN_OK)
        rc = qn_gen_run(solver, &o, &h, &st, &err);
    if (out.nomem) { /* emit stopped the run: "stopped after N puzzles" */
        fprintf(stderr, "generate: out of memory\n");
        rc = QN_ENOMEM;
    } else if (rc != QN_OK) {
        fprintf(stderr, "generate: %s\n", err.msg);
    }
    qn_buf_release(&out.line);
    qn_solver_free(solver);
    qn_rules_free(r);
    return rc == QN_OK ? 0 : 2;
}
