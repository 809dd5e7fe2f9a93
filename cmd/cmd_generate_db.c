/*
 * cmd_generate_db.c: `quench generate --db`: the run's bookkeeping in the
 * database. The rule and the run are recorded (or an interrupted run is
 * found again to resume), puzzles go in batches, one transaction each,
 * and a batch's records are printed only once it has committed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "base/version.h"
#include "cmd_generate.h"
#include "rules/puzzle_id.h"
#include "rules/state.h"
#include "solve/human_score.h"

/*
 * The options that define a run's output, for finding it again: not the
 * count (a larger -n extends the run, a smaller one prints its start) and
 * --max-draws as given; with_shard 0 gives the run family that a pack the
 * run creates records, the same for every shard.
 */
static void run_key(const gen_cli *gc, qn_buf *b, int with_shard)
{
    qn_buf_addf(b,
                "presses=%llu..%llu unique=%d min_lit=%d "
                "tier=%s mode=%s max_draws=%llu pack=%s",
                (unsigned long long)gc->o.lo, (unsigned long long)gc->o.hi,
                gc->o.unique_optimum, gc->o.min_lit, gc->tier ? gc->tier : "",
                qn_gen_mode_name(gc->o.mode),
                (unsigned long long)gc->max_draws_opt,
                gc->pack ? gc->pack : "");
    if (gc->o.human_levels) /* runs without it keep their key */
        qn_buf_addf(b, " human=%x", gc->o.human_levels);
    if (gc->human_model_path) /* another model scores another run */
        qn_buf_addf(b, " human_model=%d", gc->human_model.version);
    if (with_shard)
        qn_buf_addf(b, " shard=%llu/%llu", (unsigned long long)gc->o.shard,
                    (unsigned long long)gc->o.nshards);
}

/* The run family: "generate RULEHASH SEED OPTIONS" without the shard. */
static char *run_family(const gen_cli *gc)
{
    qn_buf b = QN_BUF_INIT;
    char hash[65];

    qn_rules_hash(qn_solver_rules(gc->solver), hash);
    qn_buf_addf(&b, "generate %s %s ", hash, gc->seed_hex);
    run_key(gc, &b, 0);
    return qn_buf_detach(&b, NULL);
}

/*
 * The same command finished before with the same count: it is printed
 * again from the database, which is left as it is (gc->from_db). Runs
 * kept by an older quench have no summary: they are replayed. A summary
 * is kept only when the run completed, so the run's records are the rows
 * it stored: COUNT of them unsharded, and for a shard its share of the
 * COUNT, which only the run itself finds out (the candidate index
 * decides, not the puzzle's rank).
 */
static int find_finished(gen_cli *gc, const qn_store_run *run)
{
    qn_store_run_info *info = &gc->done_run;
    qn_err err = QN_ERR_INIT;
    int rc = qn_store_run_lookup(gc->store, run, info, &err);

    if (rc == QN_ENOTFOUND)
        return QN_OK;
    if (rc != QN_OK) {
        gc->db_err = err;
        return rc;
    }
    gc->from_db = info->done && info->summary &&
                  info->requested == gc->o.count &&
                  (gc->o.nshards > 1 || info->stored == gc->o.count);
    return QN_OK;
}

/*
 * --db: store the rule, find an interrupted run with the same seed and
 * options or start a new one, and find or create the pack. A resumed run
 * replays its candidates from the start (cheap next to storing them):
 * the puzzles it stored before are met again and printed, not stored
 * twice, so the output, the count, the symmetry dedup and the shard split
 * come out exactly as in an uninterrupted run. A finished run asked again
 * for the same count is printed from the database instead.
 */
int cmd_generate_setup_store(gen_cli *gc)
{
    const qn_rules *r = qn_solver_rules(gc->solver);
    qn_buf key = QN_BUF_INIT;
    qn_store_run run;
    int rc, status;

    status = cmd_open_store(
        gc->ctx, cmd_db_path(strcmp(gc->db_opt, "-") ? gc->db_opt : NULL),
        QN_STORE_CREATE, &gc->store);
    if (status != QN_EXIT_OK)
        return status;
    rc = qn_store_put_ruleset(gc->store, r, &gc->rule_id, &gc->db_err);
    run_key(gc, &key, 1);
    gc->build = run_family(gc);
    memset(&run, 0, sizeof(run));
    run.command = "generate";
    run.rule_id = gc->rule_id;
    run.seed = gc->seed_hex;
    run.options = key.buf;
    run.tool_version = qn_version();
    run.requested = gc->o.count;
    if (rc == QN_OK)
        rc = find_finished(gc, &run);
    if (rc == QN_OK && gc->from_db) {
        qn_buf_release(&key);
        return QN_EXIT_OK;
    }
    if (rc == QN_OK)
        rc = qn_store_run_open(gc->store, &run, &gc->run_id, NULL, &gc->db_err);
    if (rc == QN_OK)
        rc = qn_store_run_totals(gc->store, gc->run_id, &gc->stored_before,
                                 &gc->dups_before, &gc->db_err);
    qn_buf_release(&key);
    if (rc == QN_OK && gc->pack)
        rc = cmd_store_build_pack(gc->store, gc->pack, gc->build, &gc->pack_id,
                                  &gc->db_err);
    if (rc != QN_OK)
        return cli_report(gc->ctx, &gc->db_err);
    gc->next_index = 0;
    gc->canon_key =
        CLI_NEWN(qn_store_canon_size(qn_solver_ncells(gc->solver),
                                     qn_solver_colours(gc->solver)) +
                     1,
                 uint8_t);
    if (gc->stored_before && !gc->ctx->quiet)
        fprintf(stderr, "quench: %s run %lld: %llu %s already stored\n",
                !gc->done_run.done                     ? "resuming"
                : gc->o.count > gc->done_run.requested ? "extending"
                                                       : "replaying",
                (long long)gc->run_id, (unsigned long long)gc->stored_before,
                qn_plural(gc->stored_before, "puzzle", "puzzles"));
    return QN_EXIT_OK;
}

void cmd_generate_keep_summary(gen_cli *gc, const qn_buf *summary)
{
    /* only the summary of the whole run (a smaller -n printed its start);
     * best effort: without it, the next identical command replays */
    if (gc->o.count >= gc->done_run.requested)
        qn_store_run_summary(gc->store, gc->run_id, summary->buf, NULL);
}

/* Commit the open batch with the run's progress, then print its records. */
int cmd_generate_commit_batch(gen_cli *gc)
{
    int rc;

    if (!qn_store_in_batch(gc->store))
        return QN_OK;
    rc = qn_store_run_progress(gc->store, gc->run_id, gc->next_index,
                               gc->stored_before + gc->stored,
                               gc->dups_before + gc->dups, &gc->db_err);
    if (rc == QN_OK)
        rc = qn_store_commit(gc->store, &gc->db_err);
    if (rc != QN_OK) {
        qn_store_rollback(gc->store, NULL);
        gc->db_failed = 1;
        return rc;
    }
    gc->in_batch = 0;
    /* what was waiting (the header), then the batch: written from where
     * they are, a batch's megabytes never copied */
    if (fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len ||
        fwrite(gc->pending.buf, 1, gc->pending.len, gc->out.f) !=
            gc->pending.len) {
        gc->write_failed = errno ? errno : EIO;
        return QN_EIO;
    }
    qn_buf_reset(&gc->buf);
    qn_buf_reset(&gc->pending);
    return QN_OK;
}

/* --db: store the puzzle in the open batch; print it after the commit. */
int cmd_generate_emit_stored(void *vctx, const qn_gen_puzzle *p)
{
    gen_cli *gc = vctx;
    qn_store_puzzle sp;
    int64_t id;
    int is_new, rc = QN_OK;
    char grader[16];

    if (!qn_store_in_batch(gc->store) &&
        qn_store_begin(gc->store, &gc->db_err) != QN_OK) {
        gc->db_failed = 1;
        return QN_GEN_STOP;
    }
    snprintf(grader, sizeof(grader), "%d", QN_GRADER_VERSION);
    memset(&sp, 0, sizeof(sp));
    sp.rule_id = gc->rule_id;
    sp.state_cells = p->state;
    sp.canon = gc->canon_key;
    sp.canon_len = qn_store_canon_pack(gc->canon_key, p->canon,
                                       qn_solver_ncells(gc->solver),
                                       qn_solver_colours(gc->solver));
    sp.min_presses = p->presses;
    sp.noptimal = p->noptimal;
    sp.witness_cells = p->plan;
    sp.grade = p->grade;
    sp.grader = grader;
    sp.seed = gc->seed_hex;
    sp.stream_index = (int64_t)p->index;
    sp.provenance = QN_STORE_GENERATE;
    sp.run_id = gc->run_id;
    sp.uid = p->uid;
    if (p->human_level >= 0) {
        sp.human_graded = 1;
        sp.human_level = p->human_level;
        sp.human_score = p->human_score;
        sp.human_model = p->human_model_version;
    }
    gc->next_index = p->index + 1;
    rc = qn_store_put_puzzle(gc->store, &sp, &id, &is_new, &gc->db_err);
    /* is_new 2: stored (and added, in the same transaction) by this run
     * before it was interrupted */
    if (rc == QN_OK && is_new == 1 && gc->pack_id)
        rc = qn_store_pack_append_build(gc->store, gc->pack_id, id, gc->build,
                                        &gc->db_err);
    if (rc != QN_OK) {
        qn_store_rollback(gc->store, NULL);
        gc->db_failed = 1;
        return QN_GEN_STOP;
    }
    if (!is_new) {
        gc->dups++;
        return QN_GEN_ALREADY;
    }
    /* is_new 2: stored by this run before (interrupted, or a smaller -n):
     * printed again, as an uninterrupted run prints it */
    if (is_new == 1)
        gc->stored++;
    qn_buf_add(&gc->pending, p->text, p->textlen);
    /* the records wait in memory for the commit: a batch also ends when
     * they fill DB_BATCH_BYTES, whatever the board's size */
    if ((++gc->in_batch >= gc->batch || gc->pending.len >= DB_BATCH_BYTES) &&
        cmd_generate_commit_batch(gc) != QN_OK)
        return QN_GEN_STOP;
    return QN_GEN_EMITTED;
}

/* cmd_generate_print_stored: one stored puzzle as generate printed it. */
typedef struct stored_print {
    gen_cli *gc;
    uint8_t *state, *plan;
    uint64_t n; /* records printed */
    qn_err err;
} stored_print;

/* The row's human grade as the run made it; a row stored before the
 * grade existed (migration 0006) is graded now, as the run would have. */
static void stored_human(gen_cli *gc, const qn_store_row *row, qn_gen_puzzle *p)
{
    qn_human_grade gr;
    qn_human_model m;
    int rc = QN_OK;

    p->human_level = row->human_level;
    p->human_score = row->human_score;
    p->human_model_version = row->human_model;
    if (row->human_level >= 0)
        return;
    m = gc->human_model;
    if (!gc->human && !gc->human_failed) {
        /* none where the ladder meets a limit; out of memory ends here */
        qn_err e = QN_ERR_INIT;
        if (qn_human_grader_new(&gc->human, gc->solver, &e) == QN_ENOMEM)
            cli_oom();
        gc->human_failed = !gc->human;
    }
    if (gc->human &&
        (rc = qn_human_grade_of(gc->human, p->state, p->plan, p->presses,
                                p->noptimal, &gr, NULL)) == QN_ENOMEM)
        cli_oom();
    if (gc->human && rc == QN_OK) {
        p->human_level = gr.level;
        p->human_score = qn_human_score_milli(&m, &gr);
        p->human_model_version = m.version;
    }
}

static int print_row(void *ctx, const qn_store_row *row)
{
    stored_print *sp = ctx;
    gen_cli *gc = sp->gc;
    const qn_rules *r = qn_solver_rules(gc->solver);
    unsigned k = qn_solver_colours(gc->solver);
    qn_gen_puzzle p;

    if (sp->n == gc->done_run.stored)
        return 1;
    if (qn_state_parse(sp->state, qn_rules_layout(r), k, row->state,
                       strlen(row->state), &sp->err) != QN_OK ||
        qn_state_parse(sp->plan, qn_rules_layout(r), k, row->witness,
                       strlen(row->witness), &sp->err) != QN_OK)
        return 2;
    memset(&p, 0, sizeof(p));
    p.index = (uint64_t)row->stream_index;
    p.state = sp->state;
    p.plan = sp->plan;
    p.presses = row->min_presses;
    p.noptimal = row->noptimal;
    p.exact = 1;
    /* graded now, as a replay would: the record is the run's output */
    p.grade = gc->o.tiers ? qn_tiers_grade(gc->o.tiers, p.presses)
                          : qn_solver_grade(gc->solver, p.presses);
    p.uid = row->uid;
    qn_puzzle_id_hex(p.id, row->uid);
    stored_human(gc, row, &p);
    qn_buf_reset(&gc->cell_text);
    cmd_generate_format_puzzle(gc, &p, &gc->cell_text);
    sp->n++;
    /* cell_text is rewritten for the next row: copy it out */
    if (cmd_generate_emit_copy(gc, gc->cell_text.buf, gc->cell_text.len))
        return 3;
    return 0;
}

int cmd_generate_print_stored(gen_cli *gc)
{
    stored_print sp = {gc, NULL, NULL, 0, QN_ERR_INIT};
    qn_err err = QN_ERR_INIT;
    size_t n = (size_t)qn_solver_ncells(gc->solver) + 1;
    int rc;

    sp.state = CLI_NEWN(n, uint8_t);
    sp.plan = CLI_NEWN(n, uint8_t);
    cmd_generate_write_header(gc);
    rc = qn_store_run_each(gc->store, gc->done_run.id, print_row, &sp, &err);
    free(sp.state);
    free(sp.plan);
    if (rc == 2 || ((rc == 0 || rc == 1) && sp.n != gc->done_run.stored)) {
        /* the run's rows no longer add up: say so, print nothing */
        cmd_out_discard(&gc->out);
        qn_err_source(&err, qn_store_path(gc->store));
        qn_err_set(&err, QN_EDB, 0, 0,
                   "run %lld holds %llu of its %llu %s%s%s: the "
                   "database is damaged",
                   (long long)gc->done_run.id, (unsigned long long)sp.n,
                   (unsigned long long)gc->done_run.stored,
                   qn_plural(gc->done_run.stored, "puzzle", "puzzles"),
                   rc == 2 ? ": " : "", rc == 2 ? sp.err.msg : "");
        return cli_report(gc->ctx, &err);
    }
    if (rc < 0) { /* a library code from the walk */
        cmd_out_discard(&gc->out);
        return cli_report(gc->ctx, &err);
    }
    qn_buf_adds(&gc->buf, gc->done_run.summary);
    rc = cmd_generate_close_output(gc);
    if (rc == QN_EXIT_OK && !gc->ctx->quiet)
        fprintf(stderr,
                "quench: %llu %s of finished run %lld, from the "
                "database\n",
                (unsigned long long)sp.n, qn_plural(sp.n, "puzzle", "puzzles"),
                (long long)gc->done_run.id);
    return rc;
}
