/*
 * cmd_db.c: `quench db init|migrate|check|stats|merge`: create and upgrade
 * the puzzle database, verify it (SQLite's checks, then every stored
 * witness replayed against its rule), summarise it, and merge shards.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "cmd.h"
#include "export/export.h"
#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "rules/state.h"
#include "solve/solver.h"
#include "store/store.h"

const char cmd_db_usage[] =
    "usage: quench db [--db PATH] (init | migrate | check | stats | merge OUT IN...) [--json]\n"
    "\n"
    "  init            create the database (and its directory) at the\n"
    "                  current schema version; harmless when it exists\n"
    "  migrate         apply pending schema migrations, all in one\n"
    "                  transaction, and print the versions; then rewrite\n"
    "                  the file without its free pages (VACUUM) when they\n"
    "                  are a quarter of it or more, as a migration that\n"
    "                  rebuilt a table leaves them\n"
    "  check           PRAGMA integrity_check and foreign_key_check, then\n"
    "                  replay every stored witness against its rule and\n"
    "                  recompute the minimum and the id; exit 65 when a\n"
    "                  puzzle is wrong or stored twice, 74 when the file\n"
    "                  is damaged\n"
    "  stats           counts, and the difficulty histogram per rule\n"
    "  merge OUT IN... copy rules, runs, puzzles and packs of the shard\n"
    "                  databases IN into OUT (created when missing), one\n"
    "                  transaction per IN; merging twice changes nothing.\n"
    "                  Every IN is checked (there, undamaged, this schema\n"
    "                  version) before anything is committed to OUT\n"
    "\n"
    "  --db PATH       the database (default: $QUENCH_DB, else\n"
    "                  db/quench.db); not used by merge\n"
    "  --json          one JSON object on stdout instead of the text:\n"
    "                  init {database, schema_version}; migrate\n"
    "                  {database, from, to, bytes_before, bytes_after};\n"
    "                  check {database, ok,\n"
    "                  checked, failed, problems: [{kind, row, id, rule,\n"
    "                  problem}]}; stats {database, schema_version,\n"
    "                  rules, puzzles, packs, pack_entries, runs,\n"
    "                  histogram: [{rule, rule_hash, counts: [{presses,\n"
    "                  puzzles}]}]}; merge {output, inputs: [{input,\n"
    "                  puzzles, duplicates, rules, packs, pack_entries,\n"
    "                  runs}]}\n"
    "  QUENCH_BUSY_TIMEOUT=MS  how long to wait for another writer\n"
    "                  (0..86400000, default 5000) before exit 75\n";

enum { DB_INIT, DB_MIGRATE, DB_CHECK, DB_STATS, DB_MERGE };

static const struct option db_opts[] = {{"db", required_argument, NULL, 'D'},
                                        {"json", no_argument, NULL, 'j'},
                                        {NULL, 0, NULL, 0}};

static const cmd_grammar db_subs[] = {
    {"init", "create the database at the current schema", DB_INIT, db_opts,
     NULL, "", "db=file", NULL},
    {"migrate", "apply pending schema migrations", DB_MIGRATE, db_opts, NULL,
     "", "db=file", NULL},
    {"check", "verify the file and every stored witness", DB_CHECK, db_opts,
     NULL, "", "db=file", NULL},
    {"stats", "counts and the difficulty histogram per rule", DB_STATS, db_opts,
     NULL, "", "db=file", NULL},
    {"merge", "merge shard databases IN into OUT", DB_MERGE, db_opts, NULL,
     "file file...", "db=file", NULL},
    {NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL}};

const cmd_grammar cmd_db_grammar = {
    .opts = db_opts,
    .values = "db=file",
    .subs = db_subs,
};

/* A subcommand's run: its database, --json and the JSON being written. */
typedef struct db_run {
    const cli_ctx *ctx;
    const char *path;
    int json;
    qn_buf out;
    qn_jsonw w;
} db_run;

static int db_init(db_run *d)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    int v = 0, st = cmd_open_store(d->ctx, d->path, QN_STORE_CREATE, &s);

    if (st)
        return st;
    if (qn_store_version(s, &v, &err) != QN_OK) {
        st = cli_report(d->ctx, &err);
    } else if (d->json) {
        qn_jsonw_obj(&d->w);
        qn_jsonw_key(&d->w, "database"), qn_jsonw_str(&d->w, d->path);
        qn_jsonw_key(&d->w, "schema_version"), qn_jsonw_int(&d->w, v);
        qn_jsonw_end(&d->w);
    } else if (!d->ctx->quiet) {
        qn_buf_addf(&d->out, "%s: schema version %d\n", d->path, v);
    }
    qn_store_close(s);
    return st;
}

/* A migration's free pages given back (qn_store_compact): the migration
 * is committed whatever happens here, and the message says so. */
static int compact(db_run *d, qn_store *s, int64_t *before, int64_t *after)
{
    qn_err err = QN_ERR_INIT;
    char why[sizeof(err.msg)];

    if (qn_store_compact(s, before, after, &err) == QN_OK)
        return QN_EXIT_OK;
    memcpy(why, err.msg, sizeof(why));
    qn_err_set(&err, err.code, 0, 0,
               "compacting: %s (migrated, and whole; run 'db migrate' "
               "again to compact)",
               why);
    return cli_report(d->ctx, &err);
}

static void migrated(db_run *d, int from, int to, int64_t before, int64_t after)
{
    if (d->json) {
        qn_jsonw_obj(&d->w);
        qn_jsonw_key(&d->w, "database"), qn_jsonw_str(&d->w, d->path);
        qn_jsonw_key(&d->w, "from"), qn_jsonw_int(&d->w, from);
        qn_jsonw_key(&d->w, "to"), qn_jsonw_int(&d->w, to);
        qn_jsonw_key(&d->w, "bytes_before"), qn_jsonw_int(&d->w, before);
        qn_jsonw_key(&d->w, "bytes_after"), qn_jsonw_int(&d->w, after);
        qn_jsonw_end(&d->w);
        return;
    }
    if (d->ctx->quiet)
        return;
    if (from == to)
        qn_buf_addf(&d->out, "%s: schema version %d, up to date\n", d->path,
                    to);
    else
        qn_buf_addf(&d->out, "%s: schema version %d -> %d\n", d->path, from,
                    to);
    if (after != before)
        qn_buf_addf(&d->out, "%s: compacted, %.1f MB -> %.1f MB\n", d->path,
                    (double)before / 1e6, (double)after / 1e6);
}

static int db_migrate(db_run *d)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    int from = 0, to = 0;
    int64_t before = 0, after = 0;
    int st = cmd_open_store(d->ctx, d->path,
                            QN_STORE_CREATE | QN_STORE_NO_MIGRATE, &s);

    if (st)
        return st;
    if (qn_store_migrate(s, &from, &to, &err) != QN_OK)
        st = cli_report(d->ctx, &err);
    else if ((st = compact(d, s, &before, &after)) == QN_EXIT_OK)
        migrated(d, from, to, before, after);
    qn_store_close(s);
    return st;
}

/* Witness verification state for `db check`. */
typedef struct checker {
    const cli_ctx *ctx;
    const char *path;
    qn_rules *rules;
    qn_solver *game;
    int rule_ok;
    qn_answer ans;
    int have_ans;
    uint8_t *state, *plan, *canon;
    qn_seen *seen; /* the rule's canonical forms so far: one row each */
    int64_t checked, bad;
    qn_jsonw *w; /* --json: the "problems" array is open; else NULL */
} checker;

/* A problem as a member of "problems" (--json). */
static void json_problem(checker *c, const char *kind, int64_t row,
                         const char *id, const char *rule, const char *why)
{
    if (!c->w)
        return;
    qn_jsonw_obj(c->w);
    qn_jsonw_key(c->w, "kind"), qn_jsonw_str(c->w, kind);
    qn_jsonw_key(c->w, "row"), qn_jsonw_int(c->w, row);
    qn_jsonw_key(c->w, "id");
    if (id)
        qn_jsonw_str(c->w, id);
    else
        qn_jsonw_null(c->w);
    qn_jsonw_key(c->w, "rule"), qn_jsonw_str(c->w, rule);
    qn_jsonw_key(c->w, "problem"), qn_jsonw_str(c->w, why);
    qn_jsonw_end(c->w);
}

static void checker_drop(checker *c)
{
    if (c->have_ans)
        qn_answer_release(&c->ans);
    c->have_ans = 0;
    qn_solver_free(c->game);
    qn_rules_free(c->rules);
    qn_seen_free(c->seen);
    c->seen = NULL;
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
    if (qn_rules_load_buf(&c->rules, yaml, strlen(yaml), src, &err) != QN_OK ||
        qn_solver_new(&c->game, c->rules, &err) != QN_OK) {
        if (err.code == QN_ENOMEM) /* not the stored rule's fault */
            cli_oom();
        cli_report(c->ctx, &err);
        json_problem(c, "rule", rule_id, NULL, name, err.msg);
        c->bad++;
        return 0;
    }
    qn_rules_hash(c->rules, h);
    if (strcmp(h, hash)) {
        qn_err_set(&err, QN_EINVAL, 0, 0,
                   "%s: stored hash %s, the YAML hashes to %s", src, hash, h);
        qn_err_source(&err, c->path);
        cli_report(c->ctx, &err);
        json_problem(c, "rule", rule_id, NULL, name, err.msg);
        c->bad++;
        return 0;
    }
    /* a board an import stored unchecked: its puzzles are still checked */
    if (qn_pack_rule_stored_board(c->rules, src, &err) != QN_OK) {
        qn_err_source(&err, c->path);
        cli_report(c->ctx, &err);
        json_problem(c, "rule", rule_id, NULL, name, err.msg);
        c->bad++;
    }
    n = qn_rules_ncells(c->rules);
    c->state = cli_xmalloc((size_t)n);
    c->plan = cli_xmalloc((size_t)n);
    c->canon = cli_xmalloc((size_t)n);
    if (qn_answer_init(&c->ans, c->game, NULL) != QN_OK ||
        !(c->seen = qn_seen_new(n, qn_rules_colours(c->rules), NULL)))
        cli_oom();
    c->have_ans = 1;
    c->rule_ok = 1;
    return 0;
}

/* One row a canonical form a rule (c->state holds row's): the store
 * promises it, and the promise must be checked from the states
 * themselves, not from the stored canonical keys the unique index sees
 * (a key edited by hand lets a second copy in). *first: the earlier row.
 * The row's id needs no check here: the store computes it from the
 * state, and qn_store_check has compared it with its key run's. */
static int stored_twice(checker *c, const qn_store_row *row, int64_t *first)
{
    uint64_t f = 0;
    int r;

    qn_canon_form(c->rules, c->canon, c->state);
    r = qn_seen_add(c->seen, c->canon, (uint64_t)row->id, &f);

    if (r < 0)
        cli_oom();
    *first = (int64_t)f;
    return r == 0;
}

static int check_puzzle(void *ctx, const qn_store_row *row)
{
    checker *c = ctx;
    const qn_layout *l;
    unsigned k;
    const char *why = NULL;
    char twice[64];
    int64_t first;

    if (!c->rule_ok) {
        c->bad++;
        return 0;
    }
    l = qn_rules_layout(c->rules);
    k = qn_rules_colours(c->rules);
    c->checked++;
    if (qn_state_parse(c->state, l, k, row->state, strlen(row->state), NULL) !=
        QN_OK)
        why = "the state does not parse under its rule";
    else if (qn_state_parse(c->plan, l, k, row->witness, strlen(row->witness),
                            NULL) != QN_OK)
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
    else if (stored_twice(c, row, &first)) {
        snprintf(twice, sizeof(twice), "the same puzzle as #%lld is stored",
                 (long long)first);
        why = twice;
    }
    if (why) {
        qn_err err = QN_ERR_INIT;
        char id[QN_PUZZLE_ID_HEX];
        qn_puzzle_id_hex(id, row->uid);
        c->bad++;
        qn_err_set(&err, QN_EINVAL, 0, 0, "puzzle %s (#%lld, %s): %s", id,
                   (long long)row->id, row->rule_name, why);
        qn_err_source(&err, c->path);
        cli_report(c->ctx, &err);
        json_problem(c, "puzzle", row->id, id, row->rule_name, why);
    }
    return 0;
}

static int db_check(db_run *d)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    checker c;
    int64_t nproblems = 0;
    int rc, st = cmd_open_store(d->ctx, d->path, QN_STORE_READONLY, &s);

    if (st)
        return st;
    if (qn_store_check(s, &nproblems, &err) != QN_OK) {
        st = cli_report(d->ctx, &err);
        qn_store_close(s);
        return st;
    }
    memset(&c, 0, sizeof(c));
    c.ctx = d->ctx;
    c.path = d->path;
    if (d->json) {
        c.w = &d->w;
        qn_jsonw_obj(c.w);
        qn_jsonw_key(c.w, "database"), qn_jsonw_str(c.w, d->path);
        qn_jsonw_key(c.w, "problems");
        qn_jsonw_arr(c.w);
    }
    rc = qn_store_each_puzzle(s, check_rule, check_puzzle, &c, &err);
    checker_drop(&c);
    qn_store_close(s);
    if (rc != QN_OK) {
        qn_buf_reset(&d->out); /* no half a document */
        return cli_report(d->ctx, &err);
    }
    if (d->json) {
        qn_jsonw_end(c.w);
        qn_jsonw_key(c.w, "ok"), qn_jsonw_bool(c.w, c.bad == 0);
        qn_jsonw_key(c.w, "checked"), qn_jsonw_int(c.w, c.checked);
        qn_jsonw_key(c.w, "failed"), qn_jsonw_int(c.w, c.bad);
        qn_jsonw_end(c.w);
    }
    if (c.bad) {
        fprintf(stderr, "%s: %lld of %lld %s failed verification\n", d->path,
                (long long)c.bad, (long long)c.checked,
                qn_plural((uint64_t)c.checked, "puzzle", "puzzles"));
        return QN_EXIT_DATAERR;
    }
    if (!d->ctx->quiet && !d->json)
        qn_buf_addf(&d->out,
                    "%s: ok (integrity, foreign keys, %lld %s verified)\n",
                    d->path, (long long)c.checked,
                    qn_plural((uint64_t)c.checked, "witness", "witnesses"));
    return QN_EXIT_OK;
}

typedef struct hist {
    qn_buf *out;
    qn_jsonw *w; /* --json: the "histogram" array is open; else NULL */
    char last[65];
} hist;

static int add_hist(void *ctx, const char *name, const char *hash,
                    uint64_t presses, int64_t count)
{
    hist *h = ctx;
    int first = strcmp(h->last, hash) != 0;

    if (first)
        snprintf(h->last, sizeof(h->last), "%s", hash);
    if (h->w) {
        if (first) {
            if (h->w->depth > 2) { /* the last rule's counts and object */
                qn_jsonw_end(h->w);
                qn_jsonw_end(h->w);
            }
            qn_jsonw_obj(h->w);
            qn_jsonw_key(h->w, "rule"), qn_jsonw_str(h->w, name);
            qn_jsonw_key(h->w, "rule_hash"), qn_jsonw_str(h->w, hash);
            qn_jsonw_key(h->w, "counts");
            qn_jsonw_arr(h->w);
        }
        qn_jsonw_obj(h->w);
        qn_jsonw_key(h->w, "presses"), qn_jsonw_uint(h->w, presses);
        qn_jsonw_key(h->w, "puzzles"), qn_jsonw_int(h->w, count);
        qn_jsonw_end(h->w);
        return 0;
    }
    if (first) {
        char head[16];
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

static void stats_json(db_run *d, int v, const qn_store_counts *n)
{
    qn_jsonw *w = &d->w;

    qn_jsonw_obj(w);
    qn_jsonw_key(w, "database"), qn_jsonw_str(w, d->path);
    qn_jsonw_key(w, "schema_version"), qn_jsonw_int(w, v);
    qn_jsonw_key(w, "rules"), qn_jsonw_int(w, n->rules);
    qn_jsonw_key(w, "puzzles"), qn_jsonw_int(w, n->puzzles);
    qn_jsonw_key(w, "packs"), qn_jsonw_int(w, n->packs);
    qn_jsonw_key(w, "pack_entries"), qn_jsonw_int(w, n->pack_entries);
    qn_jsonw_key(w, "runs"), qn_jsonw_int(w, n->runs);
    qn_jsonw_key(w, "histogram");
    qn_jsonw_arr(w);
}

static void stats_text(db_run *d, int v, const qn_store_counts *n)
{
    qn_buf_addf(&d->out,
                "database:  %s (schema version %d)\nrules:     %lld\n"
                "puzzles:   %lld\npacks:     %lld (%lld %s)\n"
                "runs:      %lld\n",
                d->path, v, (long long)n->rules, (long long)n->puzzles,
                (long long)n->packs, (long long)n->pack_entries,
                qn_plural((uint64_t)n->pack_entries, "entry", "entries"),
                (long long)n->runs);
}

static int db_stats(db_run *d)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    qn_store_counts n;
    hist h = {&d->out, d->json ? &d->w : NULL, ""};
    int v = 0, st = cmd_open_store(d->ctx, d->path, QN_STORE_READONLY, &s);

    if (st)
        return st;
    if (qn_store_version(s, &v, &err) != QN_OK ||
        qn_store_counts_get(s, &n, &err) != QN_OK) {
        st = cli_report(d->ctx, &err);
        goto done;
    }
    if (d->json)
        stats_json(d, v, &n);
    else
        stats_text(d, v, &n);
    if (qn_store_histogram(s, add_hist, &h, &err) != QN_OK) {
        qn_buf_reset(&d->out); /* no half a report */
        st = cli_report(d->ctx, &err);
        goto done;
    }
    while (d->json && d->w.depth > 0) /* counts, rule, histogram, top */
        qn_jsonw_end(&d->w);
done:
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

/* One merged input, in the text or the JSON. */
static void merged(db_run *d, const char *in, const qn_store_merge_stats *m)
{
    qn_jsonw *w = &d->w;

    if (d->json) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "input"), qn_jsonw_str(w, in);
        qn_jsonw_key(w, "puzzles"), qn_jsonw_int(w, m->puzzles);
        qn_jsonw_key(w, "duplicates"), qn_jsonw_int(w, m->duplicates);
        qn_jsonw_key(w, "rules"), qn_jsonw_int(w, m->rules);
        qn_jsonw_key(w, "packs"), qn_jsonw_int(w, m->packs);
        qn_jsonw_key(w, "pack_entries"), qn_jsonw_int(w, m->pack_entries);
        qn_jsonw_key(w, "runs"), qn_jsonw_int(w, m->runs);
        qn_jsonw_end(w);
        return;
    }
    if (d->ctx->quiet)
        return;
    qn_buf_addf(
        &d->out,
        "%s: +%lld %s (%lld %s), +%lld %s, +%lld %s, +%lld pack "
        "%s, +%lld %s\n",
        in, (long long)m->puzzles,
        qn_plural((uint64_t)m->puzzles, "puzzle", "puzzles"),
        (long long)m->duplicates,
        qn_plural((uint64_t)m->duplicates, "duplicate", "duplicates"),
        (long long)m->rules, qn_plural((uint64_t)m->rules, "rule", "rules"),
        (long long)m->packs, qn_plural((uint64_t)m->packs, "pack", "packs"),
        (long long)m->pack_entries,
        qn_plural((uint64_t)m->pack_entries, "entry", "entries"),
        (long long)m->runs, qn_plural((uint64_t)m->runs, "run", "runs"));
}

/* 0: OUT exists; 1: it does not, its directory does; 2: neither. */
static int out_is_new(const char *out)
{
    struct stat sb;
    char *dir, *slash;
    int rc;

    if (stat(out, &sb) == 0 || errno != ENOENT)
        return 0;
    dir = cli_xstrdup(out);
    slash = strrchr(dir, '/');
    if (!slash)
        rc = 1;
    else {
        slash[slash == dir] = '\0'; /* "/x": "/" */
        rc = stat(dir, &sb) == 0 ? 1 : 2;
    }
    free(dir);
    return rc;
}

/* Take away the OUT this merge created (nothing was committed to it). */
static void remove_new_out(const char *out)
{
    static const char *const ext[] = {"-wal", "-shm", "-journal"};
    qn_buf b = QN_BUF_INIT;

    unlink(out);
    for (size_t i = 0; i < sizeof(ext) / sizeof(*ext); i++) {
        qn_buf_reset(&b);
        qn_buf_addf(&b, "%s%s", out, ext[i]);
        unlink(b.buf);
    }
    qn_buf_release(&b);
}

/*
 * A new OUT is built aside: in OUT.quench-merge-PID-N beside it (N from 0
 * up, the first name free: created here, exclusively, as make_db makes a
 * new database), without SQLite's log, and renamed OUT when every input
 * is merged (qn_store_aside_publish). A failure removes the file, and so
 * does a stop signal (Ctrl-C, kill, a closed terminal); only a kill -9 or
 * a crash leaves it, never OUT: such a file is dead (no quench opens it
 * again) and may be removed.
 */
static const char *volatile aside_tmp;

static void aside_stop(int sig)
{
    const char *tmp = aside_tmp;

    if (tmp)
        unlink(tmp); /* async-signal-safe; its log and index never exist */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The file to build OUT in, opened into *s: an exit code (reported). */
static int open_aside(const cli_ctx *ctx, const char *out, qn_buf *tmp,
                      qn_store **s)
{
    qn_err err = QN_ERR_INIT;
    sigset_t stop, was;
    int fd = -1, e = 0;

    /* A stop signal between the file's creation and its handler would
     * leave the file (t548 under ASan met it): held back until the
     * handler knows the file. One thread yet: sigprocmask. */
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, &was);
    for (unsigned n = 0; fd < 0 && n < 100; n++) {
        qn_buf_reset(tmp);
        qn_buf_addf(tmp, "%s.quench-merge-%ld-%u", out, (long)getpid(), n);
        if (tmp->failed)
            break;
        fd = open(tmp->buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (e = errno) != EEXIST)
            break;
    }
    if (fd >= 0) {
        close(fd);
        aside_tmp = tmp->buf;
        cmd_catch_stop_signals(aside_stop, 0);
    }
    sigprocmask(SIG_SETMASK, &was, NULL);
    if (tmp->failed)
        return cli_report(ctx, (qn_err_nomem(&err), &err));
    if (fd < 0) /* as cmd_open_store says it of OUT */
        return cmd_cannot_create(out, e);
    if (qn_store_open_aside(s, tmp->buf, &err) != QN_OK) {
        remove_new_out(tmp->buf);
        aside_tmp = NULL;
        return cli_report(ctx, &err);
    }
    return QN_EXIT_OK;
}

/*
 * Every input is checked (there, a quench database at this schema
 * version, undamaged) before anything is committed to OUT: a bad input
 * leaves OUT as it was. The cheap checks come before OUT is opened;
 * PRAGMA quick_check, which reads each input whole, runs on a thread of
 * its own beside the first copy (qn_store_merge_start), and an OUT this
 * merge created is removed again if the first input fails. Where OUT's
 * directory would be new too, the checks finish before it is made. Then
 * one transaction per input.
 */
static int db_merge(db_run *d, int argc, char **argv)
{
    qn_store_merge_job *job;
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    qn_buf tmp = QN_BUF_INIT;
    struct stat sb;
    int st, fresh, aside, n = 0;

    if (argc < 2)
        return cli_usage_error("db merge: name OUT and at least one IN");
    for (int i = 1; i < argc; i++)
        if (same_file(argv[0], argv[i]))
            return cli_usage_error("db merge: '%s' is OUT ('%s') itself",
                                   argv[i], argv[0]);
    fresh = out_is_new(argv[0]);
    if (qn_store_merge_start(&job, argv + 1, argc - 1, &err) != QN_OK ||
        (fresh == 2 && qn_store_merge_wait(job, &err) != QN_OK)) {
        qn_store_merge_finish(job);
        return cli_report(d->ctx, &err);
    }
    /* a new OUT in a directory that is there is built aside (not a
     * dangling link, nor SQLite's in-memory names) */
    aside = fresh == 1 && *argv[0] && strcmp(argv[0], ":memory:") &&
            lstat(argv[0], &sb) != 0 && errno == ENOENT;
    if (aside && (st = open_aside(d->ctx, argv[0], &tmp, &s))) {
        qn_store_merge_finish(job);
        qn_buf_release(&tmp);
        return st;
    }
    if (!aside && (st = cmd_open_store(d->ctx, argv[0], QN_STORE_CREATE, &s))) {
        qn_store_merge_finish(job);
        return st;
    }
    if (d->json) {
        qn_jsonw_obj(&d->w);
        qn_jsonw_key(&d->w, "output"), qn_jsonw_str(&d->w, argv[0]);
        qn_jsonw_key(&d->w, "inputs");
        qn_jsonw_arr(&d->w);
    }
    for (qn_store_merge_stats m; st == QN_EXIT_OK && n < argc - 1; n++) {
        if (qn_store_merge_next(job, s, &m, &err) != QN_OK) {
            if (aside && !strcmp(err.source, tmp.buf)) /* OUT, to the user */
                qn_err_source(&err, argv[0]);
            st = cli_report(d->ctx, &err);
        } else
            merged(d, argv[1 + n], &m);
    }
    qn_store_merge_finish(job);
    if (aside) {
        if (st == QN_EXIT_OK && qn_store_aside_publish(s, argv[0], &err))
            st = cli_report(d->ctx, &err);
        else if (st != QN_EXIT_OK)
            qn_store_close(s);
        if (st != QN_EXIT_OK) { /* nothing is in OUT: nothing merged */
            remove_new_out(tmp.buf);
            if (!d->json)
                qn_buf_reset(&d->out);
        }
        aside_tmp = NULL;
        qn_buf_release(&tmp);
    } else {
        qn_store_close(s);
    }
    if (!aside && st != QN_EXIT_OK && n == 1 && fresh) /* the first failed */
        remove_new_out(argv[0]);
    if (d->json && st == QN_EXIT_OK) {
        qn_jsonw_end(&d->w);
        qn_jsonw_end(&d->w);
    }
    /* what merged before a failure is said, as it stays merged; a
     * document cut short is not */
    if (d->json && st != QN_EXIT_OK)
        qn_buf_reset(&d->out);
    return st;
}

/* The subcommand's words after getopt: --json, --db and the operands. */
static int parse(int argc, char **argv, const char **db, int *json)
{
    int c;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", db_opts, NULL)) != -1) {
        if (c == 'j')
            *json = 1;
        else if (c == 'D')
            *db = optarg;
        else
            return cmd_bad_option("db", argv, db_opts, NULL);
    }
    return QN_EXIT_OK;
}

int cmd_db(int argc, char **argv, cli_ctx *ctx)
{
    const cmd_grammar *sub;
    const char *db = NULL;
    db_run d;
    int st, n;

    if (cmd_wants_help(argc, argv, cmd_db_usage))
        return QN_EXIT_OK;
    memset(&d, 0, sizeof(d));
    /* --db PATH and --json anywhere after the command word */
    if ((st = parse(argc, argv, &db, &d.json)))
        return st;
    argv += optind;
    n = argc - optind;
    if (n < 1)
        return cli_usage_error("db: expected init, migrate, check, stats or "
                               "merge (see 'quench db --help')");
    if (!(sub = cmd_find_sub(&cmd_db_grammar, argv[0])))
        return cmd_bad_subcommand("db", argv[0], &cmd_db_grammar);
    if (sub->id != DB_MERGE && n > 1)
        return cli_usage_error("db %s: unexpected argument '%s'", argv[0],
                               argv[1]);
    d.ctx = ctx;
    d.path = cmd_db_path(db);
    qn_buf_init(&d.out);
    qn_jsonw_init(&d.w, &d.out);
    switch (sub->id) {
    case DB_INIT:
        st = db_init(&d);
        break;
    case DB_MIGRATE:
        st = db_migrate(&d);
        break;
    case DB_CHECK:
        st = db_check(&d);
        break;
    case DB_STATS:
        st = db_stats(&d);
        break;
    default:
        st = db_merge(&d, n - 1, argv + 1);
        break;
    }
    if (d.json && d.out.len)
        qn_buf_addc(&d.out, '\n');
    /* a report is printed whole, also db check's that found problems */
    if (d.out.len) {
        int wst = cmd_finish_out(&d.out);
        if (st == QN_EXIT_OK)
            st = wst;
    }
    qn_buf_release(&d.out);
    return st;
}
