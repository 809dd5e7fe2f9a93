/*
 * cmd_generate.h: what the files of `quench generate` share: the run's
 * state and the steps each file provides (options in cmd_generate_opts.c,
 * the JSON Lines output in cmd_generate_out.c, --db in cmd_generate_db.c).
 */
#ifndef QN_CMD_GENERATE_H
#define QN_CMD_GENERATE_H

#include <stdint.h>

#include "base/jsonw.h"
#include "cmd.h"
#include "generate/distrib.h"
#include "generate/gen.h"
#include "solve/human_score.h"
#include "store/store.h"

/*
 * --db batches: one transaction per DB_BATCH puzzles by default. The
 * unique key is a hash, so a batch's inserts land all over its index and
 * a commit writes nearly every index page to the WAL whatever the batch's
 * size: few large commits, not many small ones (1M classic 7x7: 4096 a
 * batch wrote ~5 GB of WAL, docs/PERFORMANCE.md). Kept well inside the
 * 64 MiB page cache (store.c), beyond which a transaction spills pages
 * mid-way; and a batch also ends once its records, which wait in memory
 * for the commit, fill DB_BATCH_BYTES.
 */
#define DB_BATCH 65536
#define DB_BATCH_BYTES (32u << 20)

typedef struct gen_cli {
    const char *rules, *out_path, *tier;
    char seed_hex[65];
    int have_seed;
    uint64_t walk_limit;
    uint64_t max_draws_opt; /* --max-draws as given (0: the default) */
    qn_gen_opts o;
    cli_ctx *ctx;
    qn_solver *solver;
    qn_tiers tiers;
    qn_buf grade_esc[QN_TIERS_MAX]; /* tier names as JSON strings */
    size_t grade_max;
    char head[128], tail[128]; /* constant record parts */
    size_t head_len, tail_len;
    int plain_cells; /* cell i at position i (no mask, no hex offsets)
                        and colours <= 10: cells are written 8 a step */
    qn_distrib *dist;
    qn_gen_prepared *prep; /* the run's plan, made before anything is
                              created (a refused target leaves nothing) */
    cmd_out out;
    qn_buf buf;
    double t0, last_progress;
    int progress;      /* progress lines on stderr (a terminal, or -v) */
    int progress_tty;  /* ... redrawn in place on a terminal */
    int shown, warned; /* a progress line drawn; the target warned of */
    int write_failed;
    /* emitted text not written yet: adjoining puzzles' texts in the
     * generator's block, valid until the block's progress call */
    const char *span;
    size_t spanlen;
    /* --db */
    const char *db_opt, *pack;
    qn_store *store;
    int64_t rule_id, run_id, pack_id;
    uint64_t stored_before, dups_before; /* from an interrupted run */
    char *build; /* the run family (a pack it creates records it) */
    qn_store_run_info done_run; /* the same command, finished: from_db */
    int from_db;                /* print the finished run from the database */
    uint64_t stored, dups, in_batch, next_index;
    qn_buf pending;   /* records of the open batch, printed on commit */
    qn_buf cell_text; /* scratch for state and witness text */
    struct qn_human_grader *human; /* replays: grades stored rows that
                                      have none (made before 0006) */
    int human_failed; /* the ladder met a limit: no grades, no retry */
    const char *human_model_path; /* --human-model FILE, or NULL */
    qn_human_model human_model;   /* its weights, else the built-in's */
    uint8_t *canon_key;
    qn_err db_err;
    int db_failed;
    uint64_t batch; /* puzzles per transaction */
    int shard_spec;
} gen_cli;

/* cmd_generate_opts.c: the command line into gc (defaults first); an exit
 * status (64 after saying what is wrong). */
int cmd_generate_parse_opts(gen_cli *gc, int argc, char **argv);

/* --human-model FILE into gc->human_model (and gc->o.human_model); an
 * exit status (65 a bad model file, 66 a missing one, reported). */
int cmd_generate_load_model(gen_cli *gc);

/* cmd_generate_out.c: the records. Escape the constant parts once, after
 * the seed and the tiers are known. */
void cmd_generate_prepare_format(gen_cli *gc);
/* qn_gen_hooks: one puzzle's record (worker threads); its emit without
 * --db (buffered to gc->out). */
void cmd_generate_format_puzzle(void *vctx, const qn_gen_puzzle *p,
                                qn_buf *out);
int cmd_generate_emit_puzzle(void *vctx, const qn_gen_puzzle *p);
/* Write what emit_puzzle kept (after what waits in gc->buf): at each
 * block's progress call, before the block is reused. 0, or -1 with
 * gc->write_failed set. */
int cmd_generate_flush_span(gen_cli *gc);
/* emit_puzzle for a text that does not outlive the call: copied. */
int cmd_generate_emit_copy(gen_cli *gc, const char *text, size_t len);
/* The header and summary records, into gc->buf. */
void cmd_generate_write_header(gen_cli *gc);
/* What a spread's pilot left out and measured (keys PREFIX left_out,
 * PREFIX ended, PREFIX slowest): the summary's, and pack build --plan's. */
void cmd_generate_write_pilot(qn_jsonw *w, const qn_gen_target_info *t,
                              const char *prefix);
void cmd_generate_write_summary(gen_cli *gc, const qn_gen_stats *st, int done,
                                qn_buf *out);
/* Flush what is buffered, then commit the output (for -o: fsync, rename);
 * an exit status. */
int cmd_generate_close_output(gen_cli *gc);

/* cmd_generate_db.c: open the database, store the rule, open or resume the
 * run, find the pack; an exit status (reported). */
int cmd_generate_setup_store(gen_cli *gc);
/* qn_gen_hooks emit with --db: the puzzle into the open batch. */
int cmd_generate_emit_stored(void *vctx, const qn_gen_puzzle *p);
/* A finished run of the same command: its records from the database, in
 * stream order, and its summary, as it printed them (gc->from_db). An
 * exit status. */
int cmd_generate_print_stored(gen_cli *gc);
/* Keep the finished run's summary record for cmd_generate_print_stored. */
void cmd_generate_keep_summary(gen_cli *gc, const qn_buf *summary);
/* Commit the open batch with the run's progress, then print its records;
 * a library code (gc->db_failed and gc->db_err, or gc->write_failed). */
int cmd_generate_commit_batch(gen_cli *gc);

#endif
