/*
 * cmd_db.c: `quench db init|migrate|check|stats|merge`: create and upgrade
 * the puzzle database, verify it (SQLite's checks, then every stored
 * witness replayed against its rule), summarise it, and merge shards.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "quench/buf.h"
#include "quench/canon.h"
#include "quench/solver.h"
#include "quench/mem.h"
#include "quench/puzzle_id.h"
#include "quench/rules.h"
#include "quench/state.h"
#include "quench/store.h"
#include "quench/text.h"

const char cmd_db_usage[] =
    "usage: quench db [--db PATH] (init | migrate | check | stats | merge OUT IN...)\n"
    "\n"
    "  init            create the database (and its directory) at the\n"
    "                  current schema version; harmless when it exists\n"
    "  migrate         apply pending schema migrations, one transaction\n"
    "                  each, and print the versions\n"
    "  check           PRAGMA integrity_check and foreign_key_check, then\n"
    "                  replay every stored witness against its rule and\n"
    "                  recompute the minimum; exit 65 when a puzzle is\n"
    "                  wrong, 74 when the file is damaged\n"
    "  stats           counts, and the difficulty histogram per rule\n"
    "  merge OUT IN... copy rules, runs, puzzles and packs of the shard\n"
    "                  databases IN into OUT (created when missing), one\n"
    "                  transaction per IN; merging twice changes nothing.\n"
    "                  Every IN is checked (there, undamaged, this schema\n"
    "                  version) before OUT is touched\n"
    "\n"
    "  --db PATH       the database (default: $QUENCH_DB, else\n"
    "                  db/quench.db); not used by merge\n"
    "  QUENCH_BUSY_TIMEOUT=MS  how long to wait for another writer\n"
    "                  (default 5000) before exit 75\n";

static int db_init(const qn_ctx *ctx, const char *path)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    int v = 0, st = cmd_open_store(ctx, path, QN_STORE_CREATE, &s);

    if (st)
        return st;
    if (qn_store_version(s, &v, &err) != QN_OK)
        st = qn_report(ctx, &err);
    else if (!ctx->quiet)
        printf("%s: schema version %d\n", path, v);
    qn_store_close(s);
    return st;
}

static int db_migrate(const qn_ctx *ctx, const char *path)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    int from = 0, to = 0;
    int st = cmd_open_store(ctx, path, QN_STORE_CREATE | QN_STORE_NO_MIGRATE, &s);

    if (st)
        return st;
    if (qn_store_migrate(s, &from, &to, &err) != QN_OK)
        st = qn_report(ctx, &err);
    else if (from == to)
        printf("%s: schema version %d, up to date\n", path, to);
    else
        printf("%s: schema version %d -> %d\n", path, from, to);
    qn_store_close(s);
    return st;
}

/* Witness verification state for `db check`. */
typedef struct checker {
    const qn_ctx *ctx;
    const char *path;
    qn_rules *rules;
    qn_solver *game;
    int rule_ok;
    qn_answer ans;
    int have_ans;
    uint8_t *state, *plan, *canon;
    qn_puzzle_id_key id_key;
    int64_t checked, bad;
} checker;

static void checker_drop(checker *c)
{
    if (c->have_ans)
        qn_answer_release(&c->ans);
    c->have_ans = 0;
    qn_solver_free(c->game);
    qn_rules_free(c->rules);
    free(c->state);
    free(c->plan);
    free(c->canon);
    c->game = NULL;
    c->rules = NULL;
    c->state = c->plan = c->canon = NULL;
}

static int check_rule(void *ctx, int64_t rule_id, const char *hash,
                      const char *name, const char *yaml)
{
    checker *c = ctx;
    qn_err err = QN_ERR_INIT;
    char src[96], h[65];
    int n;

    checker_drop(c);
    c->rule_ok = 0;
    snprintf(src, sizeof(src), "rule %lld (%s)", (long long)rule_id, name);
    if (qn_rules_load_buf(&c->rules, yaml, strlen(yaml), src, &err) !=
            QN_OK ||
        qn_solver_new(&c->game, c->rules, &err) != QN_OK) {
        qn_report(c->ctx, &err);
        c->bad++;
        return 0;
    }
    qn_rules_hash(c->rules, h);
    if (strcmp(h, hash)) {
        qn_err_set(&err, QN_EINVAL, 0, 0,
                   "%s: stored hash %s, the YAML hashes to %s", src, hash, h);
        qn_err_source(&err, c->path);
        qn_report(c->ctx, &err);
        c->bad++;
        return 0;
    }
    n = qn_rules_ncells(c->rules);
    c->state = qn_xmalloc((size_t)n);
    c->plan = qn_xmalloc((size_t)n);
    c->canon = qn_xmalloc((size_t)n);
    qn_puzzle_id_key_init(&c->id_key, h);
    qn_answer_init(&c->ans, c->game);
    c->have_ans = 1;
    c->rule_ok = 1;
    return 0;
}

/* The id is what lookups and exports name the puzzle by: it must be the
 * one its content gives (c->state holds the parsed state). */
static int stored_id_wrong(checker *c, const qn_store_row *row)
{
    qn_canon_form(c->rules, c->canon, c->state);
    return qn_puzzle_id(&c->id_key, c->canon, qn_rules_ncells(c->rules)) !=
           row->uid;
}

static int check_puzzle(void *ctx, const qn_store_row *row)
{
    checker *c = ctx;
    const qn_layout *l;
    unsigned k;
    const char *why = NULL;

    if (!c->rule_ok) {
        c->bad++;
        return 0;
    }
    l = qn_rules_layout(c->rules);
    k = qn_rules_colours(c->rules);
    c->checked++;
    if (qn_state_parse(c->state, l, k, row->state, strlen(row->state),
                       NULL) != QN_OK)
        why = "the state does not parse under its rule";
    else if (qn_state_parse(c->plan, l, k, row->witness,
                            strlen(row->witness), NULL) != QN_OK)
        why = "the witness does not parse under its rule";
    else if (!qn_solver_replays(c->game, c->state, c->plan))
        why = "the witness does not solve the state";
    else if (qn_solver_answer(c->game, &c->ans, c->state) != QN_OK ||
             !c->ans.solvable)
        why = "the state is not solvable";
    else if (c->ans.mp.presses != row->min_presses)
        why = "the stored minimum is not the minimum";
    else if (c->ans.exact && c->ans.mp.noptimal != row->noptimal)
        why = "the stored optimal count is wrong";
    else if (stored_id_wrong(c, row))
        why = "the stored id is not the puzzle's (puzzle_id.h)";
    if (why) {
        qn_err err = QN_ERR_INIT;
        char id[QN_PUZZLE_ID_HEX];
        qn_puzzle_id_hex(id, row->uid);
        c->bad++;
        qn_err_set(&err, QN_EINVAL, 0, 0, "puzzle %s (#%lld, %s): %s", id,
                   (long long)row->id, row->rule_name, why);
        qn_err_source(&err, c->path);
        qn_report(c->ctx, &err);
    }
    return 0;
}

static int db_check(const qn_ctx *ctx, const char *path)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    checker c;
    int64_t nproblems = 0;
    int rc, st = cmd_open_store(ctx, path, 0, &s);

    if (st)
        return st;
    if (qn_store_check(s, &nproblems, &err) != QN_OK) {
        st = qn_report(ctx, &err);
        qn_store_close(s);
        return st;
    }
    memset(&c, 0, sizeof(c));
    c.ctx = ctx;
    c.path = path;
    rc = qn_store_each_puzzle(s, check_rule, check_puzzle, &c, &err);
    checker_drop(&c);
    qn_store_close(s);
    if (rc != QN_OK)
        return qn_report(ctx, &err);
    if (c.bad) {
        fprintf(stderr, "%s: %lld of %lld puzzles failed verification\n",
                path, (long long)c.bad, (long long)c.checked);
        return QN_EXIT_DATAERR;
    }
    if (!ctx->quiet)
        printf("%s: ok (integrity, foreign keys, %lld witnesses "
               "verified)\n",
               path, (long long)c.checked);
    return QN_EXIT_OK;
}

typedef struct hist {
    qn_buf *out;
    char last[65];
} hist;

static int add_hist(void *ctx, const char *name, const char *hash,
                    uint64_t presses, int64_t count)
{
    hist *h = ctx;

    if (strcmp(h->last, hash)) {
        char head[16];
        snprintf(h->last, sizeof(h->last), "%s", hash);
        snprintf(head, sizeof(head), "%.12s", hash);
        /* escaped: an old database, or one edited by hand, may hold
         * anything (text.h) */
        qn_buf_addc(h->out, '\n');
        qn_text_escape(h->out, name);
        qn_buf_adds(h->out, " (");
        qn_text_escape(h->out, head);
        qn_buf_adds(h->out, ")\n  presses  puzzles\n");
    }
    qn_buf_addf(h->out, "  %7llu  %7lld\n", (unsigned long long)presses,
                (long long)count);
    return 0;
}

static int db_stats(const qn_ctx *ctx, const char *path)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    qn_store_counts n;
    qn_buf out = QN_BUF_INIT;
    hist h = {&out, ""};
    int v = 0, st = cmd_open_store(ctx, path, 0, &s);

    if (st)
        return st;
    if (qn_store_version(s, &v, &err) != QN_OK ||
        qn_store_counts_get(s, &n, &err) != QN_OK) {
        st = qn_report(ctx, &err);
        goto done;
    }
    qn_buf_addf(&out,
                "database:  %s (schema version %d)\nrules:     %lld\n"
                "puzzles:   %lld\npacks:     %lld (%lld entries)\n"
                "runs:      %lld\n",
                path, v, (long long)n.rules, (long long)n.puzzles,
                (long long)n.packs, (long long)n.pack_entries,
                (long long)n.runs);
    if (qn_store_histogram(s, add_hist, &h, &err) != QN_OK) {
        st = qn_report(ctx, &err);
        goto done;
    }
    st = cmd_finish_out(&out);
done:
    qn_buf_release(&out);
    qn_store_close(s);
    return st;
}

/* IN names OUT itself, by another name (a link, ./OUT) or the same. */
static int same_file(const char *out, const char *in)
{
    struct stat a, b;

    if (!strcmp(out, in))
        return 1;
    return stat(out, &a) == 0 && stat(in, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/*
 * Every input is checked (there, a quench database at this schema
 * version, undamaged) before OUT is opened or created: a bad input leaves
 * OUT as it was. Then one transaction per input.
 */
static int db_merge(const qn_ctx *ctx, int argc, char **argv)
{
    qn_store *s;
    int st;

    if (argc < 2)
        return qn_usage_error("db merge: name OUT and at least one IN");
    for (int i = 1; i < argc; i++)
        if (same_file(argv[0], argv[i]))
            return qn_usage_error("db merge: '%s' is OUT ('%s') itself",
                                  argv[i], argv[0]);
    for (int i = 1; i < argc; i++) {
        qn_err err = QN_ERR_INIT;
        if (qn_store_merge_check(argv[i], &err) != QN_OK)
            return qn_report(ctx, &err);
    }
    if ((st = cmd_open_store(ctx, argv[0], QN_STORE_CREATE, &s)))
        return st;
    for (int i = 1; i < argc; i++) {
        qn_err err = QN_ERR_INIT;
        qn_store_merge_stats m;
        if (qn_store_merge(s, argv[i], &m, &err) != QN_OK) {
            st = qn_report(ctx, &err);
            break;
        }
        if (!ctx->quiet)
            printf("%s: +%lld puzzles (%lld duplicates), +%lld rules, "
                   "+%lld packs, +%lld pack entries, +%lld runs\n",
                   argv[i], (long long)m.puzzles, (long long)m.duplicates,
                   (long long)m.rules, (long long)m.packs,
                   (long long)m.pack_entries, (long long)m.runs);
    }
    qn_store_close(s);
    return st;
}

int cmd_db(int argc, char **argv, qn_ctx *ctx)
{
    const char *opt = NULL;
    char **args;
    int n = 0, st;

    if (cmd_wants_help(argc, argv, cmd_db_usage))
        return QN_EXIT_OK;
    /* --db PATH / --db=PATH anywhere after the command word */
    if ((st = cmd_take_db_opt(argc, argv, "db", &opt, &args, &n)))
        return st;
    if (n < 1) {
        st = qn_usage_error("db: expected init, migrate, check, stats or "
                            "merge (see 'quench db --help')");
    } else if (!strcmp(args[0], "merge")) {
        st = db_merge(ctx, n - 1, args + 1);
    } else if (n > 1) {
        st = qn_usage_error("db %s: unexpected argument '%s'", args[0],
                            args[1]);
    } else if (!strcmp(args[0], "init")) {
        st = db_init(ctx, cmd_db_path(opt));
    } else if (!strcmp(args[0], "migrate")) {
        st = db_migrate(ctx, cmd_db_path(opt));
    } else if (!strcmp(args[0], "check")) {
        st = db_check(ctx, cmd_db_path(opt));
    } else if (!strcmp(args[0], "stats")) {
        st = db_stats(ctx, cmd_db_path(opt));
    } else {
        st = qn_usage_error("db: unknown subcommand '%s'", args[0]);
    }
    free(args);
    return st;
}
