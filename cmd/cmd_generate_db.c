/*
 * cmd_generate_db.c: `quench generate --db`: the run's bookkeeping in the
 * database. The rule and the run are recorded (or an interrupted run is
 * found again to resume), puzzles go in batches, one transaction each,
 * and a batch's records are printed only once it has committed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd_generate.h"
#include "quench/mem.h"
#include "quench/state.h"
#include "quench/version.h"

/* The options that define a run's output, for finding it to resume. */
static void run_key(const gen_cli *gc, qn_buf *b)
{
    qn_buf_addf(b, "count=%llu presses=%llu..%llu unique=%d min_lit=%d "
                   "tier=%s mode=%s max_draws=%llu pack=%s shard=%llu/%llu",
                (unsigned long long)gc->o.count,
                (unsigned long long)gc->o.lo, (unsigned long long)gc->o.hi,
                gc->o.unique_optimum, gc->o.min_lit,
                gc->tier ? gc->tier : "", qn_gen_mode_name(gc->o.mode),
                (unsigned long long)gc->o.max_draws,
                gc->pack ? gc->pack : "", (unsigned long long)gc->o.shard,
                (unsigned long long)gc->o.nshards);
}

/*
 * --db: store the rule, find an interrupted run with the same seed and
 * options or start a new one, and find or create the pack. A resumed run
 * replays its candidates from the start (cheap next to storing them):
 * the puzzles it stored before are met again, counted and not printed
 * twice, so the count, the symmetry dedup and the shard split come out
 * exactly as in an uninterrupted run.
 */
int cmd_generate_setup_store(gen_cli *gc)
{
    const qn_rules *r = qn_solver_rules(gc->g);
    qn_buf key = QN_BUF_INIT;
    qn_store_run run;
    int rc, status;

    status = cmd_open_store(gc->ctx,
                            cmd_db_path(strcmp(gc->db_opt, "-") ? gc->db_opt
                                                               : NULL),
                            QN_STORE_CREATE, &gc->store);
    if (status != QN_EXIT_OK)
        return status;
    rc = cmd_store_rule(gc->store, gc->rules, r, &gc->rule_id, &gc->db_err);
    run_key(gc, &key);
    memset(&run, 0, sizeof(run));
    run.command = "generate";
    run.rule_id = gc->rule_id;
    run.seed = gc->seed_hex;
    run.options = key.buf;
    run.tool_version = qn_version();
    run.requested = gc->o.count;
    if (rc == QN_OK)
        rc = qn_store_run_open(gc->store, &run, &gc->run_id, NULL,
                               &gc->db_err);
    if (rc == QN_OK)
        rc = qn_store_run_totals(gc->store, gc->run_id, &gc->stored_before,
                                 &gc->dups_before, &gc->db_err);
    qn_buf_release(&key);
    if (rc == QN_OK && gc->pack)
        rc = cmd_store_pack(gc->store, gc->pack, &gc->pack_id, &gc->db_err);
    if (rc != QN_OK)
        return qn_report(gc->ctx, &gc->db_err);
    gc->next_index = 0;
    gc->canon_key = QN_NEWN(qn_store_canon_size(qn_solver_ncells(gc->g),
                                                 qn_solver_colours(gc->g)) + 1,
                            uint8_t);
    if (gc->stored_before && !gc->ctx->quiet)
        fprintf(stderr, "quench: resuming run %lld: %llu puzzles already "
                        "stored\n",
                (long long)gc->run_id,
                (unsigned long long)gc->stored_before);
    return QN_EXIT_OK;
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
    qn_buf_add(&gc->buf, gc->pending.buf, gc->pending.len);
    qn_buf_reset(&gc->pending);
    if (fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len) {
        gc->write_failed = errno ? errno : EIO;
        return QN_EIO;
    }
    qn_buf_reset(&gc->buf);
    return QN_OK;
}

/* --db: store the puzzle in the open batch; print it after the commit. */
int cmd_generate_emit_stored(void *vctx, const qn_gen_puzzle *p)
{
    gen_cli *gc = vctx;
    const qn_rules *r = qn_solver_rules(gc->g);
    qn_store_puzzle sp;
    int64_t id;
    int is_new, rc = QN_OK;
    size_t witness_at;
    char grader[16];

    if (!qn_store_in_batch(gc->store) &&
        qn_store_begin(gc->store, &gc->db_err) != QN_OK) {
        gc->db_failed = 1;
        return QN_GEN_STOP;
    }
    qn_buf_reset(&gc->cell_text);
    qn_state_format(&gc->cell_text, qn_rules_layout(r), p->state, '/');
    witness_at = gc->cell_text.len + 1;
    qn_buf_addc(&gc->cell_text, '\0');
    qn_state_format(&gc->cell_text, qn_rules_layout(r), p->plan, '/');
    snprintf(grader, sizeof(grader), "%d", QN_GRADER_VERSION);
    memset(&sp, 0, sizeof(sp));
    sp.rule_id = gc->rule_id;
    sp.state = gc->cell_text.buf;
    sp.canon = gc->canon_key;
    sp.canon_len = qn_store_canon_pack(gc->canon_key, p->canon,
                                       qn_solver_ncells(gc->g),
                                       qn_solver_colours(gc->g));
    sp.min_presses = p->presses;
    sp.noptimal = p->noptimal;
    sp.witness = gc->cell_text.buf + witness_at;
    sp.grade = p->grade;
    sp.grader = grader;
    sp.seed = gc->seed_hex;
    sp.stream_index = (int64_t)p->index;
    sp.provenance = QN_STORE_GENERATE;
    sp.run_id = gc->run_id;
    sp.uid = p->uid;
    gc->next_index = p->index + 1;
    rc = qn_store_put_puzzle(gc->store, &sp, &id, &is_new, &gc->db_err);
    /* is_new 2: stored (and added, in the same transaction) by this run
     * before it was interrupted */
    if (rc == QN_OK && is_new == 1 && gc->pack_id)
        rc = qn_store_pack_add(gc->store, gc->pack_id, id, 0, &gc->db_err);
    if (rc != QN_OK) {
        qn_store_rollback(gc->store, NULL);
        gc->db_failed = 1;
        return QN_GEN_STOP;
    }
    if (is_new == 2) /* stored by this run before it was interrupted */
        return QN_GEN_EMITTED;
    if (!is_new) {
        gc->dups++;
        return QN_GEN_ALREADY;
    }
    gc->stored++;
    qn_buf_add(&gc->pending, p->text, p->textlen);
    if (++gc->in_batch >= gc->batch &&
        cmd_generate_commit_batch(gc) != QN_OK)
        return QN_GEN_STOP;
    return QN_GEN_EMITTED;
}
