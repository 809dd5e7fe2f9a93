/*
 * main.c: the quench command line. Parses global options up to the first
 * non-option and dispatches to a subcommand from commands[] (errors reach
 * the user through cmd_report.c). Commands hold no algorithms: parse, call
 * src/, print.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "quench/buf.h"
#include "quench/mem.h"
#include "quench/rng.h"
#include "quench/text.h"
#include "quench/version.h"

static const struct command {
    const char *name;
    qn_cmd_fn *fn;
    const char *usage; /* first line is the synopsis */
    const char *summary;
} commands[] = {
    {"rules", cmd_rules, cmd_rules_usage,
     "check rule files and show their facts"},
    {"solve", cmd_solve, cmd_solve_usage,
     "solve one state exactly: least presses, plan, or repair"},
    {"show", cmd_show, cmd_show_usage,
     "draw a puzzle in the terminal: by id, from a pack, or a state"},
    {"validate", cmd_validate, cmd_validate_usage,
     "judge a stream of submitted puzzles, one verdict each"},
    {"generate", cmd_generate, cmd_generate_usage,
     "generate graded, distinct, reproducible puzzles"},
    {"pack", cmd_pack, cmd_pack_usage,
     "curate stored puzzles into ordered, versioned packs"},
    {"db", cmd_db, cmd_db_usage,
     "create, migrate, check, summarise and merge puzzle databases"},
    {"export", cmd_export, cmd_export_usage,
     "write a pack as json, jsonl, csv, Flip IDs, svg or html"},
    {"import", cmd_import, cmd_import_usage,
     "read an exported pack back, re-verifying every puzzle"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char main_usage[] =
    "usage: quench [-q] [-v] COMMAND [ARGS...]\n"
    "       quench help [COMMAND]\n"
    "       quench --version\n";

static void print_help(FILE *f)
{
    fputs(main_usage, f);
    fputs("\nquench generates, grades, validates and exports puzzles of the "
          "Lights Out\nfamily: A x + s = 0 over Z/k.\n\ncommands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("  help       show help for a command\n"
          "\nglobal options:\n"
          "  -q, --quiet     no summaries or progress on stderr\n"
          "  -v, --verbose   show the offending source line under errors\n"
          "  -h, --help      this help\n"
          "  --version       versions of quench and its libraries\n"
          "\nexit status: 0 ok, 1 verdict negative, 64 usage, 65 bad data, "
          "66 input\nmissing, 70 internal error, 71 out of memory, 73 cannot "
          "create output,\n74 i/o error, 75 busy (retry), 78 database too "
          "new, 130 interrupted.\nSee quench(1).\n",
          f);
}

static void print_version(void)
{
    printf("quench %s\n", qn_version());
    printf("sqlite %s\n", qn_version_sqlite());
    printf("libyaml %s\n", qn_version_yaml());
    printf("libsodium %s\n", qn_version_sodium());
}

static const struct command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

static int cmd_help(int argc, char **argv)
{
    const struct command *c;

    if (argc < 2) {
        print_help(stdout);
        return QN_EXIT_OK;
    }
    if (!(c = find(argv[1])))
        return qn_usage_error("no such command '%s' (see 'quench help')",
                              argv[1]);
    fputs(c->usage, stdout);
    return QN_EXIT_OK;
}

/*
 * Whatever a command printed must have reached its destination: a full
 * disk behind stdout turns success into 74 (as git does after every
 * builtin), a reader that left into a quiet 141, even where the command
 * itself did not check.
 */
static int finish_stdout(int status)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    if (status == QN_EXIT_OK || status == QN_EXIT_REJECT)
        return cmd_write_error("standard output", errno);
    return status;
}

/*
 * SIGINT, SIGTERM and SIGHUP in a command that does not stop gracefully
 * (generate does): remove the temporary output file, then die of the
 * signal as before, so the shell sees it.
 */
static void on_fatal_signal(int sig)
{
    cmd_out_signal_cleanup();
    raise(sig); /* SA_RESETHAND: the default action, once we return */
}

static void setup_signals(void)
{
    cmd_catch_stop_signals(on_fatal_signal, SA_RESETHAND);
    /* a closed pipe is a failed write (EPIPE), reported as 141 by
     * cmd_write_error after the command has tidied up: the database run
     * marked, the batch committed; never a death in the middle of it */
    signal(SIGPIPE, SIG_IGN);
    /* past a file size limit, let write() fail with EFBIG (reported as a
     * full disk, with nothing half-written) rather than die of SIGXFSZ */
    signal(SIGXFSZ, SIG_IGN);
}

static int run(int argc, char **argv)
{
    qn_ctx ctx = {0, 0};
    qn_err err = QN_ERR_INIT;
    const struct command *c;
    const char *fail = getenv("QN_FAIL_ALLOC");
    int i;

    qn_mem_hook_jansson();
    if (fail) {
        const char *libs = getenv("QN_FAIL_ALLOC_LIBS");
        qn_mem_fail_after(atol(fail));
        if (libs && strchr(libs, 's'))
            qn_mem_hook_sqlite();
    }
    setup_signals();
    if (qn_rng_global_init(&err) != QN_OK)
        return qn_report(&ctx, &err);
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_help(stdout);
            return QN_EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            print_version();
            return QN_EXIT_OK;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            ctx.quiet = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            ctx.verbose = 1;
        } else {
            fprintf(stderr, "quench: unknown option '%s'\n", a);
            fputs(main_usage, stderr);
            return QN_EXIT_USAGE;
        }
    }
    if (i == argc) {
        fputs(main_usage, stderr);
        return QN_EXIT_USAGE;
    }
    if (!strcmp(argv[i], "help"))
        return cmd_help(argc - i, argv + i);
    if (!(c = find(argv[i])))
        return qn_usage_error("'%s' is not a quench command (see 'quench "
                              "help')",
                              argv[i]);
    return c->fn(argc - i, argv + i, &ctx);
}

int main(int argc, char **argv)
{
    return finish_stdout(run(argc, argv));
}
