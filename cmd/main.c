/*
 * main.c: the quench command line. The command table (cmd_table: help,
 * dispatch, completion), the global options (-q and -v before or after
 * the command word) and the dispatch to a subcommand (errors reach the
 * user through cmd_report.c). Commands hold no algorithms: parse, call
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

#include "base/buf.h"
#include "base/mem.h"
#include "base/rng.h"
#include "base/suggest.h"
#include "base/text.h"
#include "base/version.h"
#include "cmd.h"

static int cmd_help(int argc, char **argv, cli_ctx *ctx);

static const char help_usage[] =
    "usage: quench help [COMMAND [SUBCOMMAND]]\n"
    "\n"
    "Without COMMAND: the list of commands and the global options. With\n"
    "COMMAND: how to use it, as 'quench COMMAND --help' prints it; a\n"
    "SUBCOMMAND (pack add, db stats, rules show) is checked and its\n"
    "command's help, which covers every subcommand, printed.\n";

static const cmd_grammar help_grammar = {
    .operands = "command subcommand",
};

static const cmd_entry cmd_table[] = {
    {"rules", cmd_rules, cmd_rules_usage,
     "check rule files and show their facts", &cmd_rules_grammar},
    {"solve", cmd_solve, cmd_solve_usage,
     "solve one state exactly: least presses, plan, or repair",
     &cmd_solve_grammar},
    {"show", cmd_show, cmd_show_usage,
     "draw a puzzle in the terminal: by id, from a pack, or a state",
     &cmd_show_grammar},
    {"validate", cmd_validate, cmd_validate_usage,
     "judge a stream of submitted puzzles, one verdict each",
     &cmd_validate_grammar},
    {"generate", cmd_generate, cmd_generate_usage,
     "generate graded, distinct, reproducible puzzles", &cmd_generate_grammar},
    {"pack", cmd_pack, cmd_pack_usage,
     "curate stored puzzles into ordered, versioned packs", &cmd_pack_grammar},
    {"db", cmd_db, cmd_db_usage,
     "create, migrate, check, summarise and merge puzzle databases",
     &cmd_db_grammar},
    {"calibrate", cmd_calibrate, cmd_calibrate_usage,
     "fit the human score's weights to players' attempt logs",
     &cmd_calibrate_grammar},
    {"export", cmd_export, cmd_export_usage,
     "write a pack as json, jsonl, csv, Flip IDs, svg, html or png",
     &cmd_export_grammar},
    {"import", cmd_import, cmd_import_usage,
     "read an exported pack back, re-verifying every puzzle",
     &cmd_import_grammar},
    {"completions", cmd_completions, cmd_completions_usage,
     "print the shell completion script for bash, zsh or fish",
     &cmd_completions_grammar},
    {"help", cmd_help, help_usage, "show help for a command", &help_grammar},
};

#define NCOMMANDS (sizeof(cmd_table) / sizeof(cmd_table[0]))

/* The global options, before the command or anywhere after it (-q, -v;
 * not after "--"). */
static const struct option global_opts[] = {{"quiet", no_argument, NULL, 'q'},
                                            {"verbose", no_argument, NULL, 'v'},
                                            {"help", no_argument, NULL, 'h'},
                                            {"version", no_argument, NULL, 'V'},
                                            {NULL, 0, NULL, 0}};

static const char main_usage[] = "usage: quench [-q] [-v] COMMAND [ARGS...]\n"
                                 "       quench help [COMMAND [SUBCOMMAND]]\n"
                                 "       quench --version\n";

static void print_help(FILE *f)
{
    fputs(main_usage, f);
    fputs("\nquench generates, grades, validates and exports puzzles of the "
          "Lights Out\nfamily: A x + s = 0 over Z/k.\n\ncommands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-12s %s\n", cmd_table[i].name, cmd_table[i].summary);
    fputs("\nglobal options (before or after the command, not after --):\n"
          "  -q, --quiet     no summaries, progress or \"what I did\" lines\n"
          "  -v, --verbose   the offending source line under errors; the\n"
          "                  progress of long runs even off a terminal\n"
          "  -h, --help      this help (after a command: its help)\n"
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
    printf("jansson %s\n", qn_version_jansson());
    printf("libpng %s\n", qn_version_libpng());
}

/* "'x' is not a quench command (see 'quench help'); did you mean 'y'?" */
static int not_a_command(const char *word)
{
    qn_suggest s;
    qn_buf b = QN_BUF_INIT;
    int st;

    qn_suggest_init(&s, word);
    for (size_t i = 0; i < NCOMMANDS; i++)
        qn_suggest_add(&s, cmd_table[i].name);
    qn_suggest_format(&s, &b);
    st = cli_usage_error("'%s' is not a quench command (see 'quench help')%s",
                         word, b.len ? b.buf : "");
    qn_buf_release(&b);
    qn_suggest_release(&s);
    return st;
}

static int cmd_help(int argc, char **argv, cli_ctx *ctx)
{
    const cmd_entry *c;

    if (cmd_wants_help(argc, argv, help_usage))
        return QN_EXIT_OK;
    if (argc < 2) {
        print_help(stdout);
        return QN_EXIT_OK;
    }
    if (argc > 3)
        return cli_usage_error("help: expected COMMAND [SUBCOMMAND], got "
                               "'%s' too",
                               argv[3]);
    if (!(c = cmd_find(ctx, argv[1])))
        return not_a_command(argv[1]);
    if (argc == 3 && !(c->grammar && c->grammar->subs))
        return cli_usage_error("help: '%s' has no subcommands", c->name);
    if (argc == 3 && !cmd_find_sub(c->grammar, argv[2]))
        return cmd_bad_subcommand(c->name, argv[2], c->grammar);
    fputs(c->usage, stdout);
    return QN_EXIT_OK;
}

static int is_flag(const char *a, const char *s, const char *l)
{
    return !strcmp(a, s) || !strcmp(a, l);
}

/*
 * -q and -v after the command word, anywhere before "--": taken out of
 * argv[from..] (which keeps its NULL end) and set in ctx. The value of
 * an option that takes one (--title -q) is skipped, as getopt_long will
 * read it. Returns the new argc.
 */
static int take_global_flags(int argc, char **argv, int from,
                             const cmd_grammar *g, cli_ctx *ctx)
{
    int n = from, i;

    for (i = from; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (is_flag(a, "-q", "--quiet")) {
            ctx->quiet = 1;
            continue;
        }
        if (is_flag(a, "-v", "--verbose")) {
            ctx->verbose = 1;
            continue;
        }
        argv[n++] = argv[i];
        if (cmd_takes_value(g, a) && i + 1 < argc)
            argv[n++] = argv[++i];
    }
    while (i < argc)
        argv[n++] = argv[i++];
    argv[n] = NULL;
    return n;
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
    cli_ctx ctx = {0, 0, cmd_table, NCOMMANDS};
    qn_err err = QN_ERR_INIT;
    const cmd_entry *c;
    int i;

    cli_mem_setup();
    setup_signals();
    if (qn_rng_global_init(&err) != QN_OK)
        return cli_report(&ctx, &err);
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (is_flag(a, "-h", "--help")) {
            print_help(stdout);
            return QN_EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            print_version();
            return QN_EXIT_OK;
        } else if (is_flag(a, "-q", "--quiet")) {
            ctx.quiet = 1;
        } else if (is_flag(a, "-v", "--verbose")) {
            ctx.verbose = 1;
        } else {
            cmd_unknown_option(NULL, a, global_opts);
            fputs(main_usage, stderr);
            return QN_EXIT_USAGE;
        }
    }
    if (i == argc) {
        fputs(main_usage, stderr);
        return QN_EXIT_USAGE;
    }
    if (!(c = cmd_find(&ctx, argv[i])))
        return not_a_command(argv[i]);
    argc = take_global_flags(argc, argv, i + 1, c->grammar, &ctx);
    return c->fn(argc - i, argv + i, &ctx);
}

int main(int argc, char **argv)
{
    return finish_stdout(run(argc, argv));
}
