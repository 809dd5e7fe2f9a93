/*
 * cmd_generate.c: `quench generate`: the main job. Graded, solvable,
 * distinct puzzles for a rule, reproducible from the printed seed, as
 * JSON Lines (a header, one record per puzzle, a summary). This file runs
 * the command: grading, signals, progress and how the run ends.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/text.h"
#include "cmd_generate.h"
#include "solve/human_score.h"

/* The signal that asked us to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
static volatile sig_atomic_t interrupted;

/*
 * The first stop signal ends the run gracefully: the current record is
 * finished, the batch committed, the summary written. A second one stops
 * at once (the open batch rolls back, the temporary file goes).
 */
static void on_stop_signal(int sig)
{
    if (interrupted) {
        cmd_out_signal_cleanup();
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    interrupted = sig;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "12 s", "3 min 20 s", "2 h 5 min": a duration to read at a glance. */
static void fmt_duration(char *buf, size_t n, double s)
{
    unsigned long long t = (unsigned long long)(s + 0.5);

    if (t < 60)
        snprintf(buf, n, "%llu s", t);
    else if (t < 3600)
        snprintf(buf, n, "%llu min %llu s", t / 60, t % 60);
    else
        snprintf(buf, n, "%llu h %llu min", t / 3600, t / 60 % 60);
}

/* Draws seen before the rate of new puzzles on target is trusted. */
#define WARN_MIN_DRAWS 10000

/*
 * Once enough draws are in: when the puzzles found so far, extrapolated,
 * need more draws than --max-draws allows (or none was found in a tenth
 * of them), say so once: the run goes on, but will likely end short with
 * exit 75. Checked at every block, so where it fires does not depend on
 * timing, only on the seed and the options.
 */
static void warn_unreachable(gen_cli *gc, const qn_gen_stats *st)
{
    double need;

    if (gc->warned || gc->ctx->quiet || st->draws < WARN_MIN_DRAWS ||
        st->emitted >= gc->o.count)
        return;
    if (st->emitted == 0 && st->draws * 10 < gc->o.max_draws)
        return;
    need = st->emitted
               ? (double)st->draws * (double)gc->o.count / (double)st->emitted
               : INFINITY;
    if (need <= (double)gc->o.max_draws)
        return;
    gc->warned = 1;
    if (gc->progress_tty)
        fputs("\r\033[K", stderr);
    if (st->emitted)
        fprintf(stderr,
                "quench: warning: %llu %s on target in %llu draws: at that "
                "rate %llu need about %.0f draws, more than --max-draws %llu; "
                "the run will likely stop short (exit 75)\n",
                (unsigned long long)st->emitted,
                qn_plural(st->emitted, "puzzle", "puzzles"),
                (unsigned long long)st->draws, (unsigned long long)gc->o.count,
                ceil(need), (unsigned long long)gc->o.max_draws);
    else
        fprintf(stderr,
                "quench: warning: no puzzle on target in %llu draws; the run "
                "will likely stop short of %llu at --max-draws %llu (exit "
                "75)\n",
                (unsigned long long)st->draws, (unsigned long long)gc->o.count,
                (unsigned long long)gc->o.max_draws);
}

/*
 * The progress line: on a terminal redrawn in place every 0.2 s; with -v
 * off a terminal, a line a second. The first is drawn at the first block,
 * whatever the time, so a run shows one however fast it is.
 */
static void progress(void *vctx, const qn_gen_stats *st)
{
    gen_cli *gc = vctx;
    double t = now(), el = t - gc->t0, rate;
    char eta[32] = "unknown";

    /* the block is reused after this: write what emit kept of it (a
     * failure stops the run at the next emit) */
    cmd_generate_flush_span(gc);
    warn_unreachable(gc, st);
    if (!gc->progress ||
        (gc->shown && t - gc->last_progress < (gc->progress_tty ? 0.2 : 1)))
        return;
    gc->shown = 1;
    gc->last_progress = t;
    rate = el > 0 ? (double)st->emitted / el : 0;
    if (st->emitted >= gc->o.count)
        snprintf(eta, sizeof(eta), "0 s");
    else if (rate > 0)
        fmt_duration(eta, sizeof(eta),
                     (double)(gc->o.count - st->emitted) / rate);
    fprintf(stderr,
            "%squench: %llu/%llu %s, %llu %s, %.1f s, %.3g puzzles/s, ETA "
            "%s%s",
            gc->progress_tty ? "\r" : "", (unsigned long long)st->emitted,
            (unsigned long long)gc->o.count,
            qn_plural(gc->o.count, "puzzle", "puzzles"),
            (unsigned long long)st->draws,
            qn_plural(st->draws, "draw", "draws"), el, rate, eta,
            gc->progress_tty ? "\033[K" : "\n");
}

/* "no tier 'x' in this rule's grading; its tiers: easy 1-5, ...; did you
 * mean 'y'?" (qn_tiers_find) */
static int unknown_tier(const gen_cli *gc, const qn_buf *why, qn_err *err)
{
    return qn_err_set(err, QN_EINVAL, 0, 0,
                      "no tier '%s' in this rule's grading; %s", gc->tier,
                      why->buf);
}

/* Grading tiers: the rule's own, else from the exact distribution, else
 * sampled (qn_gen_tiers); the distribution also selects restricted
 * targets exactly. */
static int setup_grading(gen_cli *gc, double after, qn_err *err)
{
    const qn_rules *r = qn_solver_rules(gc->solver);
    const qn_gen_opts *o = &gc->o;
    int need_dist = qn_rules_ntiers(r) == 0 || gc->tier || o->lo > 1 ||
                    o->hi != UINT64_MAX || o->unique_optimum ||
                    o->min_lit > 0 || o->max_lit > 0 || o->human_levels ||
                    o->mode == QN_GEN_SPREAD;
    qn_err de = QN_ERR_INIT;

    if (need_dist && qn_distrib_compute(&gc->dist, qn_solver_system(gc->solver),
                                        &de) != QN_OK)
        gc->dist = NULL; /* too large: sampled tiers, sampling modes */
    if (de.code == QN_ENOMEM)
        cli_oom();
    cmd_say_tiers_wait(gc->ctx, gc->solver, gc->dist, after);
    if (!qn_gen_tiers(gc->solver, gc->dist, &gc->tiers))
        cli_oom();
    gc->o.tiers = &gc->tiers;
    gc->o.distrib = gc->dist;
    if (gc->tier) {
        qn_buf why = QN_BUF_INIT;
        long i = qn_tiers_find(&gc->tiers, gc->tier, &why);
        if (i < 0) {
            unknown_tier(gc, &why, err);
            qn_buf_release(&why);
            return err->code;
        }
        if (gc->tiers.lo[i] > gc->o.lo)
            gc->o.lo = gc->tiers.lo[i];
        if (gc->tiers.hi[i] < gc->o.hi)
            gc->o.hi = gc->tiers.hi[i];
    }
    return QN_OK;
}

static const char *stop_reason(void)
{
    switch (interrupted) {
    case SIGTERM:
        return "terminated (SIGTERM)";
    case SIGHUP:
        return "hung up (SIGHUP)";
    default:
        return "interrupted";
    }
}

static int finish(gen_cli *gc, int rc, const qn_gen_stats *st, qn_err *err)
{
    uint64_t mine = st->emitted - st->other_shards; /* this shard's */

    if (gc->progress_tty)
        fputs("\r\033[K", stderr);
    if (rc == QN_OK) {
        if (!gc->ctx->quiet)
            fprintf(stderr, "quench: %llu %s from %llu %s (%s mode), %.2f s\n",
                    (unsigned long long)mine,
                    qn_plural(mine, "puzzle", "puzzles"),
                    (unsigned long long)st->draws,
                    qn_plural(st->draws, "draw", "draws"),
                    qn_gen_mode_name(st->mode), now() - gc->t0);
        return QN_EXIT_OK;
    }
    if (interrupted) {
        if (gc->store)
            fprintf(stderr,
                    "quench: %s: %llu %s stored in this "
                    "session (%llu in the run); run the same "
                    "command again to resume\n",
                    stop_reason(), (unsigned long long)gc->stored,
                    qn_plural(gc->stored, "puzzle", "puzzles"),
                    (unsigned long long)(gc->stored_before + gc->stored));
        else
            fprintf(stderr, "quench: %s: %llu %s produced\n", stop_reason(),
                    (unsigned long long)mine,
                    qn_plural(mine, "puzzle", "puzzles"));
        return QN_EXIT_SIGNAL + interrupted;
    }
    if (rc == QN_ELIMIT) {
        cli_report(gc->ctx, err);
        return QN_EXIT_TEMPFAIL;
    }
    return cli_report(gc->ctx, err);
}

/* The run's status in the database once qn_gen_run has returned rc. */
static const char *run_status(const gen_cli *gc, int rc)
{
    if (rc == QN_OK)
        return "done";
    /* a signal, or the reader of our output gone: resumable, not broken */
    if (interrupted || gc->write_failed == EPIPE)
        return "interrupted";
    return "failed";
}

/* No puzzle of the rule can be graded exactly under --walk-limit: refuse
 * before anything is printed. An exit status. */
static int check_gradable(gen_cli *gc)
{
    qn_err err = QN_ERR_INIT, why = QN_ERR_INIT;

    qn_solver_set_walk_limit(gc->solver, gc->walk_limit);
    if (qn_solver_check_exact(gc->solver, &why) == QN_OK)
        return QN_EXIT_OK;
    if (why.code == QN_ENOMEM)
        return cli_report(gc->ctx, &why);
    qn_err_set(&err, QN_ELIMIT, 0, 0, "%s (see --walk-limit)", why.msg);
    qn_err_source(&err, gc->rules);
    return cli_report(gc->ctx, &err);
}

/* The seed (drawn when not given, and always said) and the draw budget. */
static void settle_seed(gen_cli *gc)
{
    gc->max_draws_opt = gc->o.max_draws;
    if (!gc->have_seed)
        qn_seed_random(&gc->o.seed);
    qn_seed_format(&gc->o.seed, gc->seed_hex);
    if (!gc->ctx->quiet)
        fprintf(stderr, "quench: seed %s\n", gc->seed_hex);
    if (gc->o.max_draws == 0)
        gc->o.max_draws = gc->o.count * 1000 + 1000000;
}

/* A spread whose pilot left counts out, or could not tell: say so (the
 * summary record has the figures). */
static void say_plan(const gen_cli *gc, const qn_gen_target_info *t)
{
    qn_buf why = QN_BUF_INIT;

    if (gc->ctx->quiet || t->mode != QN_GEN_SPREAD)
        return;
    if (t->cannot_tell)
        fprintf(stderr,
                "quench: warning: no pilot climb reached a count of the "
                "spread, which may not exist; spreading over %llu..%llu "
                "(the run may stop short, exit 75)\n",
                (unsigned long long)t->lo, (unsigned long long)t->hi);
    else if (qn_gen_describe_left_out(&why, t))
        fprintf(stderr, "quench: spread over %llu..%llu; %s\n",
                (unsigned long long)t->first, (unsigned long long)t->last,
                why.buf);
    qn_buf_release(&why);
}

/* Everything before the first record: the checks, the seed, the grading,
 * the plan, the database and the output. The plan comes before the
 * database and the output: a target refused (65) creates nothing. An
 * exit status (reported). */
static int setup(gen_cli *gc, qn_err *err)
{
    qn_gen_target_info info;
    double after;
    int status;

    if ((status = check_gradable(gc)) != QN_EXIT_OK ||
        (status = cmd_estimate_after(&after)) != QN_EXIT_OK)
        return status;
    settle_seed(gc);
    if (setup_grading(gc, after, err) != QN_OK ||
        qn_gen_prepare(&gc->prep, gc->solver, &gc->o, &info, err) != QN_OK)
        return cli_report(gc->ctx, err);
    say_plan(gc, &info);
    cmd_generate_prepare_format(gc);
    if (gc->db_opt && (status = cmd_generate_setup_store(gc)) != QN_EXIT_OK)
        return status;
    return cmd_out_open(&gc->out, gc->out_path);
}

/* The header, then the run with the stop signals caught; qn_gen_run's
 * code. */
static int run(gen_cli *gc, qn_gen_stats *st, qn_err *err)
{
    qn_gen_hooks hooks;

    gc->t0 = gc->last_progress = now();
    gc->progress_tty = !gc->ctx->quiet && isatty(2);
    gc->progress = gc->progress_tty || (!gc->ctx->quiet && gc->ctx->verbose);
    cmd_catch_stop_signals(on_stop_signal, SA_RESTART);
    cmd_generate_write_header(gc);
    hooks = (qn_gen_hooks){cmd_generate_format_puzzle,
                           gc->store ? cmd_generate_emit_stored
                                     : cmd_generate_emit_puzzle,
                           progress, gc, &interrupted};
    return qn_gen_run_prepared(gc->prep, &hooks, st, err);
}

/* --db, once the run returned rc: what was stored is kept, on success,
 * interrupt or error alike (also when only printing it failed). An exit
 * status: a database failure is reported and the output dropped. */
static int close_store(gen_cli *gc, int rc, const qn_buf *summary)
{
    if (!gc->db_failed)
        cmd_generate_commit_batch(gc);
    if (!gc->db_failed && rc == QN_OK)
        cmd_generate_keep_summary(gc, summary);
    if (!gc->db_failed)
        qn_store_run_finish(gc->store, gc->run_id, run_status(gc, rc), NULL);
    if (!gc->db_failed)
        return QN_EXIT_OK;
    cmd_out_discard(&gc->out);
    return cli_report(gc->ctx, &gc->db_err);
}

/* The run and its end: the database, the summary, the output's commit
 * and what is said on stderr. An exit status. */
static int run_to_end(gen_cli *gc, qn_err *err)
{
    qn_gen_stats st;
    qn_buf summary = QN_BUF_INIT;
    int rc, status;

    if (gc->from_db)
        return cmd_generate_print_stored(gc);
    rc = run(gc, &st, err);
    /* out of memory ends the command as any allocation failure of the
     * CLI does: no summary, the output file not made (its temporary is
     * removed at exit), --db's committed batches kept for a resume */
    if (rc == QN_ENOMEM)
        cli_oom();
    cmd_generate_write_summary(gc, &st, rc == QN_OK, &summary);
    if (gc->store && (status = close_store(gc, rc, &summary)) != QN_EXIT_OK) {
        qn_buf_release(&summary);
        return status;
    }
    qn_buf_add(&gc->buf, summary.buf, summary.len);
    qn_buf_release(&summary);
    status = cmd_generate_close_output(gc);
    if (status == QN_EXIT_OK)
        status = finish(gc, rc, &st, err);
    return status;
}

static void release(gen_cli *gc)
{
    qn_store_close(gc->store);
    free(gc->build);
    free(gc->done_run.summary);
    qn_buf_release(&gc->pending);
    qn_buf_release(&gc->cell_text);
    qn_human_grader_free(gc->human);
    free(gc->canon_key);
    qn_buf_release(&gc->buf);
    for (size_t i = 0; i < gc->tiers.n; i++)
        qn_buf_release(&gc->grade_esc[i]);
    qn_gen_prepared_free(gc->prep);
    qn_distrib_free(gc->dist);
    qn_solver_free(gc->solver);
}

int cmd_generate(int argc, char **argv, cli_ctx *ctx)
{
    gen_cli gc;
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;
    int status;

    if (cmd_wants_help(argc, argv, cmd_generate_usage))
        return QN_EXIT_OK;
    memset(&gc, 0, sizeof(gc));
    gc.ctx = ctx;
    qn_buf_init(&gc.buf);
    qn_buf_init(&gc.pending);
    qn_buf_init(&gc.cell_text);
    if ((status = cmd_generate_parse_opts(&gc, argc, argv)) != QN_EXIT_OK ||
        (status = cmd_generate_load_model(&gc)) != QN_EXIT_OK)
        return status;
    if ((status = cmd_load_game(ctx, gc.rules, &r, &gc.solver)) != QN_EXIT_OK)
        return status;
    status = setup(&gc, &err);
    if (status == QN_EXIT_OK)
        status = run_to_end(&gc, &err);
    release(&gc);
    qn_rules_free(r);
    return status;
}
