/*
 * cmd_validate.c: `quench validate`: one verdict per submitted puzzle, in
 * input order, none dropped or merged, streamed so memory stays flat.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "base/file.h"
#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "base/version.h"
#include "cmd.h"
#include "generate/distrib.h"
#include "rules/state.h"
#include "store/store.h"
#include "validate/submit.h"
#include "validate/verdict.h"
#include "validate/verdict_stream.h"

const char cmd_validate_usage[] =
    "usage: quench validate RULES [FILE|-] [--jsonl|--json] [--from "
    "FORMAT] [--jobs N] [--db DB [--into PACK]]\n"
    "\n"
    "Judge submitted puzzles for the family in RULES: one verdict per\n"
    "record, in input order. Input (FILE, or stdin when absent or -) is\n"
    "detected or given by --from: text (one state a line, rows split by\n"
    "'/'), jsonl ({\"id\", \"state\", \"solution\"?, \"min_presses\"?} a line),\n"
    "csv (a header naming id,state,solution,min_presses) or json (an array\n"
    "of such records, or a quench-pack document from export). quench's own\n"
    "generate and export output reads as it is. A record's other fields\n"
    "(keys, columns) are kept as its metadata; a record whose \"rule\" or\n"
    "\"rule_hash\" is not RULES's hash is malformed.\n"
    "\n"
    "Verdicts: ok (with the least presses, the grade when the rule has\n"
    "tiers, and a witness solution), unsolvable (why, as solve says it,\n"
    "and the minimal repair), malformed (line, column and reason), trivial\n"
    "(already at the goal), duplicate (the same puzzle, up to the board's\n"
    "symmetries, as an earlier submission, cited by its id and number, or\n"
    "a stored puzzle), claim-mismatch (a claimed\n"
    "solution does not replay, or a claimed minimum is wrong: by how much).\n"
    "Every verdict but malformed names the puzzle by its id, as generate,\n"
    "the database and exports do.\n"
    "\n"
    "  --jsonl        one JSON object per verdict\n"
    "  --json         one JSON document: {\"verdicts\": [...], \"summary\"}\n"
    "  --from FORMAT  auto (default), text, jsonl, csv or json\n"
    "  --jobs N       judge on N threads (default: the number of cores);\n"
    "                 the verdicts are the same whatever N\n"
    "  --db DB        also call a puzzle stored in the SQLite database DB\n"
    "                 (\"-\" for $QUENCH_DB or db/quench.db) a duplicate\n"
    "  --into PACK    with --db: store the ok puzzles and add them to PACK\n"
    "                 (created when missing), a batch per transaction,\n"
    "                 with their submission id, FILE:LINE and metadata;\n"
    "                 verdicts are printed once their batch committed\n"
    "\n"
    "A line, CSV record or JSON element over 1 MiB is malformed as soon as\n"
    "the limit is passed; 64 MiB without a record (a line that never ends)\n"
    "end the input. A summary (counts per verdict) goes to stderr. Exit\n"
    "status: 0 when every submission is ok, 1 when any is rejected, 65 when\n"
    "the input as a whole cannot be read, 66 when FILE cannot be opened,\n"
    "74 when output cannot be written.\n";

enum out_format { OUT_TEXT, OUT_JSONL, OUT_JSON };

typedef struct vopts {
    const char *rules, *file, *db, *into;
    enum out_format out;
    qn_submit_format from;
    int jobs;
} vopts;

static int parse_from(const char *s, qn_submit_format *f)
{
    static const char *names[] = {"auto", "text", "jsonl", "csv", "json"};
    static const qn_submit_format fmts[] = {QN_SUBMIT_AUTO, QN_SUBMIT_TEXT,
                                            QN_SUBMIT_JSONL, QN_SUBMIT_CSV,
                                            QN_SUBMIT_JSON};
    for (size_t i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) {
            *f = fmts[i];
            return 0;
        }
    return -1;
}

static const struct option opts[] = {{"jsonl", no_argument, NULL, 'l'},
                                     {"json", no_argument, NULL, 'j'},
                                     {"from", required_argument, NULL, 'f'},
                                     {"db", required_argument, NULL, 'D'},
                                     {"into", required_argument, NULL, 'I'},
                                     {"jobs", required_argument, NULL, 'J'},
                                     {NULL, 0, NULL, 0}};

const cmd_grammar cmd_validate_grammar = {
    .opts = opts,
    .operands = "rules file",
    .values = "from=auto|text|jsonl|csv|json db=file into=pack",
};

static int parse_opts(vopts *o, int argc, char **argv)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t v;
    int c;

    memset(o, 0, sizeof(*o));
    o->jobs = ncpu > 0 ? (int)(ncpu > 256 ? 256 : ncpu) : 1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l':
            o->out = OUT_JSONL;
            break;
        case 'j':
            o->out = OUT_JSON;
            break;
        case 'f':
            if (parse_from(optarg, &o->from))
                return cli_usage_error("validate: --from takes auto, text, "
                                       "jsonl, csv or json, not '%s'",
                                       optarg);
            break;
        case 'D':
            o->db = optarg;
            break;
        case 'I':
            o->into = optarg;
            break;
        case 'J':
            if (cmd_parse_u64(optarg, &v) || v < 1 || v > 256)
                return cli_usage_error("validate: --jobs takes 1..256");
            o->jobs = (int)v;
            break;
        default:
            return cmd_bad_option("validate", argv, opts, NULL);
        }
    }
    if (optind >= argc)
        return cli_usage_error("validate: name a RULES file");
    o->rules = argv[optind++];
    o->file = optind < argc ? argv[optind++] : "-";
    if (optind < argc)
        return cli_usage_error("validate: one input FILE at most");
    if (o->into && !o->db)
        return cli_usage_error("validate: --into needs --db");
    if (o->into && cmd_check_pack_name("validate: --into", o->into))
        return QN_EXIT_USAGE;
    return QN_EXIT_OK;
}

/* The counts, and quench's own records that were not submissions (a
 * pack record of export, generate's header and summary): skipped, and
 * said so, so the count of verdicts is never a surprise. */
static void summary(const qn_judge *j, qn_buf *b, uint64_t total,
                    uint64_t skipped)
{
    qn_buf_addf(b, "validate: %llu %s:", (unsigned long long)total,
                qn_plural(total, "submission", "submissions"));
    for (int v = 0; v < QN_NVERDICTS; v++)
        qn_buf_addf(b, "%s %llu %s", v ? "," : "",
                    (unsigned long long)qn_judge_count(j, (qn_verdict)v),
                    qn_verdict_name((qn_verdict)v));
    if (skipped)
        qn_buf_addf(b,
                    "\nvalidate: skipped %llu %s not a "
                    "submission (quench's own pack, header and summary "
                    "records)",
                    (unsigned long long)skipped,
                    qn_plural(skipped, "record that is", "records that are"));
}

static void summary_json(qn_jsonw *w, const qn_judge *j, uint64_t total,
                         uint64_t skipped)
{
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "submissions"), qn_jsonw_uint(w, total);
    for (int v = 0; v < QN_NVERDICTS; v++) {
        qn_jsonw_key(w, qn_verdict_name((qn_verdict)v));
        qn_jsonw_uint(w, qn_judge_count(j, (qn_verdict)v));
    }
    qn_jsonw_key(w, "skipped"), qn_jsonw_uint(w, skipped);
    qn_jsonw_end(w);
}

typedef struct vrun {
    const vopts *o;
    const qn_solver *solver;
    qn_judge *j;
    qn_submit_reader *rd;
    qn_verdict_stream *vs;
    qn_buf out;
    uint64_t total;
    const char *source; /* the input's name in messages and provenance */
    char rule_hash[65]; /* RULES's content hash */
    /* --db / --into */
    qn_store *store;
    int64_t rule_id; /* 0: the rule is not stored, nothing to compare */
    int64_t pack_id;
    uint64_t in_batch, stored;
    uint64_t skipped; /* quench's own records passed over (summary) */
    uint8_t *key;
    qn_buf text;
    qn_err db_err;
    int write_status; /* a failed write's exit code (74, or 141) */
} vrun;

#define VALIDATE_BATCH 4096

/* Commit the open batch, then release the verdicts it covers. */
static int commit_batch(vrun *vr)
{
    if (qn_store_in_batch(vr->store) &&
        qn_store_commit(vr->store, &vr->db_err) != QN_OK)
        return QN_EDB;
    vr->in_batch = 0;
    return (vr->write_status = cmd_flush_out(&vr->out)) ? QN_EIO : QN_OK;
}

/*
 * Where a submission came from, into vr->text at its end: "FILE:LINE",
 * with ":COL" when the record does not begin its line (records of a JSON
 * document, which may share one). Returns the offset of its first byte.
 */
static size_t add_source(vrun *vr, const qn_submission *s)
{
    size_t at = vr->text.len;

    qn_buf_addf(&vr->text, "%s:%d", vr->source, s->line);
    if (s->col > 1)
        qn_buf_addf(&vr->text, ":%d", s->col);
    qn_buf_addc(&vr->text, '\0');
    return at;
}

/*
 * An ok puzzle meets the database: a duplicate when it is stored already;
 * with --into, stored (and added to the pack) otherwise, with its
 * provenance: the submission's own id, where it was read, its metadata.
 */
static int against_store(vrun *vr, const qn_verdict_item *it)
{
    const qn_rules *r = qn_solver_rules(vr->solver);
    const qn_submission *s = it->sub;
    int n = qn_solver_ncells(vr->solver), is_new, rc;
    size_t klen, witness_at, source_at;
    int64_t id;
    qn_store_puzzle sp;
    char grader[16];

    if (!vr->rule_id)
        return QN_OK; /* the rule was never stored: nothing to compare */
    klen = qn_store_canon_pack(vr->key, it->canon, n,
                               qn_solver_colours(vr->solver));
    if (!vr->o->into) {
        rc = qn_store_find_puzzle(vr->store, vr->rule_id, vr->key, klen, &id,
                                  &vr->db_err);
        /* same rule hash, same canonical form: the stored puzzle's id is
         * this puzzle's id, by the definition of the id */
        if (rc == QN_OK)
            qn_verdict_stream_stored(vr->vs, it->puzzle_id);
        return rc == QN_ENOTFOUND ? QN_OK : rc;
    }
    if (!qn_store_in_batch(vr->store) &&
        (rc = qn_store_begin(vr->store, &vr->db_err)) != QN_OK)
        return rc;
    qn_buf_reset(&vr->text);
    qn_state_format(&vr->text, qn_rules_layout(r), s->cells, '/');
    witness_at = vr->text.len + 1;
    qn_buf_addc(&vr->text, '\0');
    qn_state_format(&vr->text, qn_rules_layout(r), it->plan, '/');
    qn_buf_addc(&vr->text, '\0');
    source_at = add_source(vr, s);
    snprintf(grader, sizeof(grader), "%d", QN_GRADER_VERSION);
    memset(&sp, 0, sizeof(sp));
    sp.rule_id = vr->rule_id;
    sp.state = vr->text.buf;
    sp.canon = vr->key;
    sp.canon_len = klen;
    sp.min_presses = it->presses;
    sp.noptimal = it->noptimal;
    sp.witness = vr->text.buf + witness_at;
    sp.grade = qn_solver_grade(vr->solver, it->presses);
    sp.grader = grader;
    sp.stream_index = -1;
    sp.provenance = QN_STORE_VALIDATE;
    sp.uid = it->puzzle_id;
    sp.submission = s->has_id ? s->id : NULL;
    sp.source = vr->text.buf + source_at;
    sp.meta = s->meta;
    if (it->human_level >= 0) {
        sp.human_graded = 1;
        sp.human_level = it->human_level;
        sp.human_score = it->human_score;
        sp.human_model = it->human_model_version;
    }
    rc = qn_store_put_puzzle(vr->store, &sp, &id, &is_new, &vr->db_err);
    if (rc == QN_OK && !is_new)
        qn_verdict_stream_stored(vr->vs, it->puzzle_id);
    if (rc == QN_OK && is_new) {
        vr->stored++;
        vr->in_batch++;
        rc = qn_store_pack_add(vr->store, vr->pack_id, id, 0, &vr->db_err);
    }
    return rc;
}

/*
 * Verdicts as the stream wrote them go out in runs, straight from its
 * batches (qn_verdict_stream_text), not copied into vr->out first: a
 * run's bytes follow whatever vr->out holds, so that goes out before a
 * run starts, and the run goes out before vr->out gets more or the
 * stream moves past the run's batch. 0, or the write's exit status.
 */
typedef struct vrunout {
    const char *p;
    size_t n;
} vrunout;

static int put_run(vrun *vr, vrunout *run)
{
    if (run->n && fwrite(run->p, 1, run->n, stdout) != run->n)
        return vr->write_status = cmd_write_error("standard output", errno);
    run->n = 0;
    return 0;
}

/* The current verdict, into the run when it may go out as written. */
static int put_verdict(vrun *vr, vrunout *run)
{
    const char *p;
    size_t n;

    if (vr->o->into || !qn_verdict_stream_text(vr->vs, &p, &n)) {
        /* rewritten (a duplicate found by settling or the database), or
         * held until its batch is stored */
        if (put_run(vr, run))
            return vr->write_status;
        qn_verdict_stream_write(vr->vs, &vr->out);
        return 0;
    }
    if (run->n && run->p + run->n == p) {
        run->n += n;
        return 0;
    }
    if (put_run(vr, run) || (vr->write_status = cmd_flush_out(&vr->out)))
        return vr->write_status;
    run->p = p;
    run->n = n;
    return 0;
}

/* Read, judge and write every record; returns 0 or a whole-input code. */
static int judge_all(vrun *vr, qn_err *err)
{
    static const qn_verdict_style styles[] = {
        [OUT_TEXT] = QN_VERDICT_TEXT,
        [OUT_JSONL] = QN_VERDICT_JSONL,
        [OUT_JSON] = QN_VERDICT_JSON,
    };
    const qn_verdict_item *it;
    vrunout run = {NULL, 0};
    qn_jsonw w;
    int rc;

    vr->vs =
        qn_verdict_stream_new(vr->j, vr->rd, styles[vr->o->out], vr->o->jobs);
    if (!vr->vs)
        cli_oom();
    qn_jsonw_init(&w, &vr->out);
    if (vr->o->out == OUT_JSON) {
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "verdicts");
        qn_jsonw_arr(&w); /* the stream writes the elements */
    }
    while ((rc = qn_verdict_stream_next(vr->vs, &it, err)) == 1) {
        vr->total++;
        if (vr->store && it->verdict == QN_VERDICT_OK &&
            against_store(vr, it) != QN_OK) {
            *err = vr->db_err;
            rc = QN_EDB;
            break;
        }
        if (put_verdict(vr, &run) ||
            (qn_verdict_stream_batch_end(vr->vs) && put_run(vr, &run))) {
            rc = QN_EIO;
            break;
        }
        if (vr->o->into) {
            /* verdicts wait for their batch: printed means stored */
            if (vr->in_batch >= VALIDATE_BATCH &&
                (rc = commit_batch(vr)) != QN_OK) {
                if (!vr->write_status)
                    *err = vr->db_err;
                break;
            }
        } else if (vr->out.len > (1u << 16) &&
                   (vr->write_status = cmd_flush_out(&vr->out))) {
            rc = QN_EIO;
            break;
        }
    }
    if (rc == QN_ENOMEM)
        cli_oom(); /* nothing more is printed, nor committed */
    if (!vr->write_status && put_run(vr, &run))
        rc = QN_EIO;
    vr->skipped = qn_verdict_stream_skipped(vr->vs);
    if (vr->o->out == OUT_JSON) {
        qn_jsonw_end(&w);
        qn_jsonw_key(&w, "summary");
        summary_json(&w, vr->j, vr->total, vr->skipped);
        if (rc < 0) { /* say so inside the document, too */
            qn_jsonw_key(&w, "error"), qn_jsonw_str(&w, err->msg);
        }
        qn_jsonw_end(&w);
        qn_buf_addc(&vr->out, '\n');
    }
    if (vr->store && rc >= 0 && commit_batch(vr) != QN_OK) {
        if (!vr->write_status)
            *err = vr->db_err;
        rc = vr->write_status ? QN_EIO : QN_EDB;
    }
    if (rc < 0 && vr->store && qn_store_in_batch(vr->store)) {
        /* nothing of an unfinished batch is kept, or printed */
        qn_store_rollback(vr->store, NULL);
        qn_buf_reset(&vr->out);
    }
    return rc < 0 ? rc : 0;
}

/* --db: the rule's id (stored for --into), and the pack. */
static int setup_store(const cli_ctx *ctx, vrun *vr, const qn_rules *r)
{
    int rc, st;

    /* only --into stores: a plain --db compares (it only reads), and
     * must exist */
    st = cmd_open_store(
        ctx, cmd_db_path(strcmp(vr->o->db, "-") ? vr->o->db : NULL),
        vr->o->into ? QN_STORE_CREATE : QN_STORE_READONLY, &vr->store);
    if (st != QN_EXIT_OK)
        return st;
    if (!vr->o->into) {
        rc = qn_store_find_rule(vr->store, vr->rule_hash, &vr->rule_id,
                                &vr->db_err);
        if (rc == QN_ENOTFOUND)
            vr->rule_id = 0, rc = QN_OK;
    } else {
        rc = qn_store_put_ruleset(vr->store, r, &vr->rule_id, &vr->db_err);
        if (rc == QN_OK)
            rc = cmd_store_pack(vr->store, vr->o->into, &vr->pack_id,
                                &vr->db_err);
    }
    if (rc != QN_OK)
        return cli_report(ctx, &vr->db_err);
    vr->key = CLI_NEWN(
        qn_store_canon_size(qn_rules_ncells(r), qn_rules_colours(r)) + 1,
        uint8_t);
    return QN_EXIT_OK;
}

int cmd_validate(int argc, char **argv, cli_ctx *ctx)
{
    vopts o;
    vrun vr;
    qn_rules *r = NULL;
    qn_solver *solver = NULL;
    qn_err err = QN_ERR_INIT;
    FILE *in = NULL;
    int status, rc;

    if (cmd_wants_help(argc, argv, cmd_validate_usage))
        return QN_EXIT_OK;
    if ((status = parse_opts(&o, argc, argv)) != QN_EXIT_OK)
        return status;
    if ((status = cmd_load_game(ctx, o.rules, &r, &solver)) != QN_EXIT_OK)
        return status;
    memset(&vr, 0, sizeof(vr));
    qn_buf_init(&vr.out);
    qn_buf_init(&vr.text);
    vr.o = &o;
    vr.solver = solver;
    qn_rules_hash(r, vr.rule_hash);
    if (o.db && (status = setup_store(ctx, &vr, r)) != QN_EXIT_OK)
        goto done;
    if (qn_file_open_read(&in, o.file, &err) != QN_OK) {
        status = cli_report(ctx, &err);
        goto done;
    }
    vr.source = strcmp(o.file, "-") ? o.file : "<stdin>";
    rc = qn_submit_open(&vr.rd, in, vr.source, qn_rules_layout(r),
                        qn_rules_colours(r), o.from, &err);
    if (rc != QN_OK) {
        status = cli_report(ctx, &err);
        goto done;
    }
    qn_submit_expect_rule(vr.rd, vr.rule_hash);
    if (!(vr.j = qn_judge_new(solver)))
        cli_oom();
    rc = judge_all(&vr, &err);
    status = vr.write_status ? vr.write_status : cmd_finish_out(&vr.out);
    if (status == QN_EXIT_PIPE) {
        goto done; /* the reader left: nothing more to say */
    } else if (vr.write_status) {
        /* said by cmd_flush_out */
    } else if (rc < 0) {
        int ex = cli_report(ctx, &err);
        status = rc == QN_EDB ? QN_EXIT_IOERR : ex;
    } else if (status == QN_EXIT_OK &&
               qn_judge_count(vr.j, QN_VERDICT_OK) != vr.total) {
        status = QN_EXIT_REJECT;
    }
    if (!ctx->quiet) {
        qn_buf b = QN_BUF_INIT;
        summary(vr.j, &b, vr.total, vr.skipped);
        fprintf(stderr, "%s\n", b.buf);
        qn_buf_release(&b);
    }
done:
    qn_verdict_stream_free(vr.vs);
    qn_store_close(vr.store);
    qn_buf_release(&vr.text);
    free(vr.key);
    qn_submit_close(vr.rd);
    qn_judge_free(vr.j);
    qn_buf_release(&vr.out);
    qn_file_close(in);
    qn_solver_free(solver);
    qn_rules_free(r);
    return status;
}
