/*
 * cmd_common.c: the steps several commands share: loading a rule into a
 * game, reading an input file whole, and writing results to stdout with
 * the write checked.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/mem.h"
#include "base/suggest.h"
#include "cmd.h"
#include "generate/gen.h"
#include "rules/puzzle_id.h"
#include "store/store.h"

int cmd_load_game(const cli_ctx *ctx, const char *path, qn_rules **r_out,
                  qn_solver **g_out)
{
    qn_err err = QN_ERR_INIT;
    int rc;

    *r_out = NULL;
    *g_out = NULL;
    rc = qn_rules_load_file(r_out, path, &err);
    if (rc == QN_OK)
        rc = qn_solver_new(g_out, *r_out, &err);
    if (rc == QN_OK)
        return QN_EXIT_OK;
    if (!err.source[0])
        qn_err_source(&err, path);
    qn_rules_free(*r_out);
    *r_out = NULL;
    return cli_report(ctx, &err);
}

int cmd_read_all(const char *path, size_t max, char **out, size_t *len,
                 qn_err *err)
{
    return qn_file_read_all(out, len, path, max, err);
}

int cmd_flush_out(qn_buf *out)
{
    if (out->len && fwrite(out->buf, 1, out->len, stdout) != out->len)
        return cmd_write_error("standard output", errno);
    qn_buf_reset(out);
    return QN_EXIT_OK;
}

int cmd_finish_out(qn_buf *out)
{
    int rc = cmd_flush_out(out);

    if (rc == QN_EXIT_OK && fflush(stdout) != 0)
        return cmd_write_error("standard output", errno);
    return rc;
}

int cmd_wants_help(int argc, char **argv, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 1;
        }
    }
    return 0;
}

int cmd_is_puzzle_ref(const char *ref)
{
    uint64_t lo, hi;

    if (ref[0] == '#')
        return ref[1] && strspn(ref + 1, "0123456789") == strlen(ref + 1);
    return qn_puzzle_id_prefix(ref, &lo, &hi) == 0;
}

int cmd_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;

    if (!*s || *s == '-')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

const char *cmd_db_path(const char *opt)
{
    const char *env = getenv("QUENCH_DB");

    if (opt)
        return opt;
    return env && *env ? env : "db/quench.db";
}

/* mkdir -p of the directory part of path; an exit status (73 said). */
static int make_parent(const char *path)
{
    char *dir = cli_xstrdup(path);
    int st = QN_EXIT_OK;

    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            st = cmd_cannot_create(dir, errno);
            break;
        }
        *p = '/';
    }
    free(dir);
    return st;
}

/*
 * A database that does not exist yet is created here, empty (SQLite
 * reads an empty file as an empty database), so that a failure says
 * why as every output does (73, "cannot create: Permission denied"):
 * SQLite would say "unable to open database file" with a stale errno.
 * The file stays if the open then fails, as SQLite would leave it: by
 * then another process may be using it.
 */
static int make_db(const char *path)
{
    int fd;

    if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) >= 0) {
        close(fd);
        return QN_EXIT_OK;
    }
    if (errno == EEXIST) /* there (or made meanwhile): SQLite's to open */
        return QN_EXIT_OK;
    return cmd_cannot_create(path, errno);
}

/*
 * $QUENCH_BUSY_TIMEOUT: unset or empty for the default, else a number of
 * milliseconds 0..CMD_BUSY_MAX (a day). Anything else is a usage error,
 * said before any database is touched: atoi read "abc" as 0 (no wait at
 * all) and a number past INT_MAX as a negative wait.
 */
#define CMD_BUSY_MAX 86400000

static int busy_timeout(int *ms_out)
{
    const char *busy = getenv("QUENCH_BUSY_TIMEOUT");
    uint64_t ms;

    *ms_out = -1;
    if (!busy || !*busy)
        return QN_EXIT_OK;
    if (cmd_parse_u64(busy, &ms) || ms > CMD_BUSY_MAX)
        return cli_usage_error("QUENCH_BUSY_TIMEOUT is '%s': it must be a "
                               "number of milliseconds, 0 to %d",
                               busy, CMD_BUSY_MAX);
    *ms_out = (int)ms;
    return QN_EXIT_OK;
}

#define CMD_ESTIMATE_AFTER 2 /* seconds: longer waits are announced */

int cmd_estimate_after(double *secs)
{
    const char *env = getenv("QUENCH_ESTIMATE_AFTER");
    uint64_t after = CMD_ESTIMATE_AFTER;

    if (env && *env && (cmd_parse_u64(env, &after) || after > 86400))
        return cli_usage_error("QUENCH_ESTIMATE_AFTER is '%s': it must be a "
                               "number of seconds, 0 to 86400",
                               env);
    *secs = (double)after;
    return QN_EXIT_OK;
}

void cmd_say_tiers_wait(const cli_ctx *ctx, const qn_solver *solver,
                        const struct qn_distrib *d, double after)
{
    size_t probed;
    double secs;

    if (ctx->quiet)
        return;
    secs = qn_gen_tiers_estimate(solver, d, &probed);
    if (secs < 0)
        cli_oom();
    if (probed && secs >= after)
        fprintf(stderr,
                "quench: sampling this rule's grading tiers (%d states "
                "graded, %zu timed): about %.0f s; a grading: section in the "
                "rule file skips this\n",
                QN_GEN_TIER_SAMPLE, probed, secs < 1 ? 1 : secs);
}

int cmd_open_store(const cli_ctx *ctx, const char *path, unsigned flags,
                   qn_store **out)
{
    qn_err err = QN_ERR_INIT;
    int st, busy;

    *out = NULL;
    if ((st = busy_timeout(&busy)))
        return st;
    /* "" and ":memory:" are SQLite's in-memory databases */
    if ((flags & QN_STORE_CREATE) && *path && strcmp(path, ":memory:") &&
        ((st = make_parent(path)) || (st = make_db(path))))
        return st;
    if (qn_store_open(out, path, flags, &err) != QN_OK)
        return cli_report(ctx, &err);
    if (busy >= 0)
        qn_store_set_busy_timeout(*out, busy);
    return QN_EXIT_OK;
}

int cmd_store_build_pack(qn_store *s, const char *name, const char *build,
                         int64_t *id_out, qn_err *err)
{
    int rc = qn_store_pack_find(s, name, id_out, err);

    if (rc == QN_ENOTFOUND) {
        qn_store_pack pk;
        memset(&pk, 0, sizeof(pk));
        pk.name = name;
        pk.build = build;
        rc = qn_store_pack_create(s, &pk, id_out, err);
    }
    return rc;
}

int cmd_store_pack(qn_store *s, const char *name, int64_t *id_out, qn_err *err)
{
    return cmd_store_build_pack(s, name, NULL, id_out, err);
}

int cmd_check_pack(const char *cmd, const qn_store_pack *p)
{
    qn_err err = QN_ERR_INIT;

    if (qn_store_pack_check(p, &err) == QN_OK)
        return QN_EXIT_OK;
    return cli_usage_error("%s: %s", cmd, err.msg);
}

int cmd_check_pack_name(const char *cmd, const char *name)
{
    qn_store_pack p;

    memset(&p, 0, sizeof(p));
    p.name = name;
    return cmd_check_pack(cmd, &p);
}

static int offer_pack(void *ctx, const qn_store_pack *p)
{
    qn_suggest_add(ctx, p->name);
    return 0;
}

/* err says there is no pack called name: add "; did you mean 'x'?" */
static void suggest_pack(qn_store *s, const char *name, qn_err *err)
{
    qn_suggest sg;
    qn_buf b = QN_BUF_INIT;
    size_t len = strlen(err->msg);

    qn_suggest_init(&sg, name);
    /* no names is no suggestion: the error stays the one found */
    qn_store_pack_list(s, NULL, offer_pack, &sg, NULL);
    qn_suggest_format(&sg, &b);
    if (b.len)
        snprintf(err->msg + len, sizeof(err->msg) - len, "%s", b.buf);
    qn_buf_release(&b);
    qn_suggest_release(&sg);
}

int cmd_find_pack(qn_store *s, const char *name, int64_t *id_out, qn_err *err)
{
    int rc = qn_store_pack_find(s, name, id_out, err);

    if (rc == QN_ENOTFOUND)
        suggest_pack(s, name, err);
    return rc;
}

int cmd_take_db_opt(int argc, char **argv, const char *cmd, const char **opt,
                    char ***args, int *nargs)
{
    char **a = CLI_NEWN((size_t)argc + 1, char *);
    int n = 0;

    *opt = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--db")) {
            if (i + 1 == argc) {
                free(a);
                return cli_usage_error("%s: --db needs a PATH", cmd);
            }
            *opt = argv[++i];
        } else if (!strncmp(argv[i], "--db=", 5)) {
            *opt = argv[i] + 5;
        } else {
            a[n++] = argv[i];
        }
    }
    *args = a;
    *nargs = n;
    return QN_EXIT_OK;
}

void cmd_catch_stop_signals(void (*fn)(int), int flags)
{
    static const int stop[] = {SIGINT, SIGTERM, SIGHUP};

    for (size_t i = 0; i < sizeof(stop) / sizeof(*stop); i++) {
        struct sigaction sa, old;
        /* ignored when we started (nohup, a background job of a
         * non-interactive shell): the caller wants it ignored */
        if (sigaction(stop[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = fn;
        sa.sa_flags = flags;
        sigemptyset(&sa.sa_mask);
        sigaction(stop[i], &sa, NULL);
    }
}
