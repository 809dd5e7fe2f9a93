/*
 * cmd.h: what the subcommands share: the context main() sets up, the exit
 * statuses (sysexits vocabulary), and the one error reporter.
 */
#ifndef QN_CMD_H
#define QN_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "base/err.h"

/* Exit statuses: the table in the README and the man page. */
enum cli_exit {
    QN_EXIT_OK = 0,         /* success */
    QN_EXIT_REJECT = 1,     /* ran fine, verdict negative (like grep/diff) */
    QN_EXIT_USAGE = 64,     /* bad command line */
    QN_EXIT_DATAERR = 65,   /* bad input data: YAML, state, submission */
    QN_EXIT_NOINPUT = 66,   /* an input file is missing or unreadable */
    QN_EXIT_SOFTWARE = 70,  /* internal error (a bug) */
    QN_EXIT_OSERR = 71,     /* out of memory */
    QN_EXIT_CANTCREAT = 73, /* cannot create an output file */
    QN_EXIT_IOERR = 74,     /* read or write failed */
    QN_EXIT_TEMPFAIL = 75,  /* database busy: retry later */
    QN_EXIT_CONFIG = 78,    /* database newer than this binary */
    QN_EXIT_SIGNAL = 128,   /* + the signal: 129 SIGHUP, 130 SIGINT, 143
                               SIGTERM: stopped early, what was produced
                               is kept (generate) */
    QN_EXIT_INTERRUPTED = 130,
    QN_EXIT_PIPE = 141 /* standard output closed by its reader (as
                          if killed by SIGPIPE), said quietly */
};

struct cmd_entry;
typedef struct cli_ctx {
    int verbose; /* -v: the offending source line under errors; progress
                    lines of long runs even when stderr is no terminal */
    int quiet;   /* -q: no progress, summary or "what I did" chatter */
    const struct cmd_entry *commands; /* the command table (main.c), for */
    size_t ncommands;                 /* help and completion */
} cli_ctx;

/*
 * A command line's grammar: what a command, or one of its subcommands,
 * accepts. The one table behind parsing (getopt_long), "did you mean",
 * help, the global -q/-v scan and shell completion (cmd_complete.c), so
 * none of them can drift from the others.
 *
 * operands: what each operand is, for completion: kinds separated by
 * spaces, the last one repeated when followed by "...". Kinds: "file",
 * "rules" (a rule file), "pack" (a pack of the database), "command",
 * "subcommand" (of the command named by the operand before), "shell",
 * "none" (free text). values: the kind of each option's value as
 * "NAME=KIND" separated by spaces, where KIND may also be fixed words
 * "a|b|c" or "tier" (a grading tier of the RULES operand); an option not
 * listed takes free text.
 */
typedef struct cmd_grammar {
    const char *name;          /* a subcommand's word; NULL ends a
                                  list of subcommands */
    const char *summary;       /* a subcommand's one line */
    int id;                    /* the command's own tag for it */
    const struct option *opts; /* getopt_long's table, or NULL */
    const char *shortopts;     /* getopt's, or NULL */
    const char *operands;
    const char *values;
    const struct cmd_grammar *subs; /* subcommands, or NULL */
} cmd_grammar;

/* A command of the table in main.c (help, completion and dispatch),
 * which reaches the commands through ctx->commands. */
typedef int cli_cmd_fn(int argc, char **argv, struct cli_ctx *ctx);
typedef struct cmd_entry {
    const char *name;
    cli_cmd_fn *fn;
    const char *usage; /* the first line is the synopsis */
    const char *summary;
    const cmd_grammar *grammar; /* NULL: options and operands unknown */
} cmd_entry;

/* cmd_args.c */
/* The command of ctx's table called name, or NULL. */
const cmd_entry *cmd_find(const cli_ctx *ctx, const char *name);
/* The subcommand of g called name, or NULL. */
const cmd_grammar *cmd_find_sub(const cmd_grammar *g, const char *name);
/* The long option of opts called name (exactly), or NULL. */
const struct option *cmd_find_opt(const struct option *opts, const char *name);
/*
 * getopt_long refused argv[optind - 1] (with optopt as it set it): say why
 * as "quench: CMD: ..." (an unknown option with the closest of opts, a
 * missing value, a value given to a flag, an ambiguous abbreviation) and
 * return 64.
 */
int cmd_bad_option(const char *cmd, char **argv, const struct option *opts,
                   const char *shortopts);
/* "quench: CMD: unknown option 'WORD'; did you mean '--x'?" (CMD NULL:
 * "quench: unknown option ..."), x the closest of opts; 64. */
int cmd_unknown_option(const char *cmd, const char *word,
                       const struct option *opts);
/* "quench: CMD: unknown subcommand 'WORD' (see 'quench CMD --help')",
 * with the closest of g's subcommands; 64. */
int cmd_bad_subcommand(const char *cmd, const char *word, const cmd_grammar *g);
/*
 * 1 when the option word (as on the command line: "-o", "--db", an
 * abbreviation "--ti") takes its value from the next word in g or one of
 * its subcommands: the global -q/-v scan must then skip that word.
 */
int cmd_takes_value(const cmd_grammar *g, const char *word);

/*
 * Print err to stderr as "FILE:LINE:COL: message" (or "FILE: message", or
 * "quench: message") and return the exit status for its code.
 */
int cli_report(const cli_ctx *ctx, const qn_err *err);
/* The exit status for a library code. */
int cli_exit_for(qn_code code);
/* "quench: " + message on stderr; returns QN_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) QN_PRINTF(1, 2);

/* cli_mem.c: install the allocator (QN_FAIL_ALLOC injection) before any
 * other library call; cli_oom prints "quench: out of memory", exits 71. */
void cli_mem_setup(void);
_Noreturn void cli_oom(void);
/* The CLI's own allocations: as qn_malloc and the rest (base/mem.h), but
 * out of memory ends the command (cli_oom) instead of returning NULL. */
void *cli_xmalloc(size_t size);
void *cli_xcalloc(size_t n, size_t size);
void *cli_xrealloc(void *p, size_t size);
void *cli_xreallocarray(void *p, size_t n, size_t size);
char *cli_xstrdup(const char *s);
char *cli_xstrndup(const char *s, size_t n);
void *cli_xmemdup(const void *p, size_t size);
#define CLI_NEW(type) ((type *)cli_xcalloc(1, sizeof(type)))
#define CLI_NEWN(n, type) ((type *)cli_xcalloc((n), sizeof(type)))
#define CLI_RENEW(p, n, type)                                                  \
    ((type *)cli_xreallocarray((p), (n), sizeof(type)))

/* cmd_common.c */
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "rules/rules.h"
#include "solve/solver.h"

/* Before grading tiers from a sample (qn_gen_tiers, issue #35): the
 * shortest wait worth announcing, QUENCH_ESTIMATE_AFTER seconds (default
 * 2), into *secs, or exit 64 for a bad value (an exit status); then say
 * on stderr when qn_gen_tiers_estimate expects that long or more,
 * unless quiet. */
struct qn_distrib;
int cmd_estimate_after(double *secs);
void cmd_say_tiers_wait(const cli_ctx *ctx, const qn_solver *solver,
                        const struct qn_distrib *d, double after);

/* Load a rule file and compile it; reports errors; returns an exit code. */
int cmd_load_game(const cli_ctx *ctx, const char *path, qn_rules **r_out,
                  qn_solver **g_out);
/* Read a whole file ("-" = stdin) of at most max bytes into *out,
 * NUL-terminated (*len excludes the NUL); free() it. */
int cmd_read_all(const char *path, size_t max, char **out, size_t *len,
                 qn_err *err);
/*
 * cmd_output.c: an output destination. path NULL or "-" is standard
 * output. A regular file, or a name that does not exist yet, is written
 * through a temporary file beside it (".NAME.XXXXXX": 0666 less the umask
 * when new, the old file's permissions when replaced), fsync'd and renamed
 * over it on commit, so readers see the old file or the whole new one. A
 * symbolic link is followed to the file it names, which is replaced; a
 * device or FIFO is written in place, never replaced. Exit codes after
 * reporting: 73 cannot create, 74 write failed, 141 closed pipe (quiet).
 */
typedef struct cmd_out {
    const char *name; /* for messages: path as given, or "standard output" */
    FILE *f;          /* write here; NULL once committed or discarded */
    char *target;     /* the file written or replaced, links followed */
    char *tmp;        /* the temporary file; NULL when written in place */
} cmd_out;

int cmd_out_open(cmd_out *o, const char *path);
/* Flush, fsync, rename into place; an exit code. o is released. */
int cmd_out_commit(cmd_out *o);
/* Drop the output: the temporary file goes, the target is untouched. */
void cmd_out_discard(cmd_out *o);
/* The whole of data to path (or stdout) through cmd_out; an exit code. */
int cmd_write_atomic(const char *path, const char *data, size_t len);
/* For fatal-signal handlers: remove the temporary file being written.
 * Async-signal-safe. */
void cmd_out_signal_cleanup(void);
/*
 * A write to name failed with errno e: 141 for EPIPE (the reader left,
 * nothing said), else 74 after "quench: NAME: write failed: ...".
 */
int cmd_write_error(const char *name, int e);
/* "quench: PATH: cannot create: REASON" (strerror(e)); returns 73. The
 * wording of every file or directory quench fails to make. */
int cmd_cannot_create(const char *path, int e);
/*
 * Install fn (sigaction flags) for SIGINT, SIGTERM and SIGHUP, the signals
 * that ask a process to stop (Ctrl-C, kill, timeout, Slurm, docker stop,
 * Kubernetes; a closed terminal), except those ignored at start-up.
 */
void cmd_catch_stop_signals(void (*fn)(int), int flags);
/* Write out to stdout and empty it; exit code (74 on a failed write). */
int cmd_flush_out(qn_buf *out);
/* cmd_flush_out, then fflush(stdout). */
int cmd_finish_out(qn_buf *out);
/* If argv holds --help or -h: print usage to stdout and return 1. */
int cmd_wants_help(int argc, char **argv, const char *usage);
/* A decimal uint64 option value; -1 when malformed. */
int cmd_parse_u64(const char *s, uint64_t *out);
/* A puzzle reference as qn_store_puzzle_resolve reads it: an id prefix
 * (4 to 16 hex digits) or "#ROW". 1 or 0. */
int cmd_is_puzzle_ref(const char *ref);
/*
 * Pull "--db PATH" / "--db=PATH" out of argv[1..] for subcommand-style
 * commands (pack, db): *opt is its value (or NULL), *args (free() it) the
 * remaining words, *nargs their number. Returns an exit code.
 */
int cmd_take_db_opt(int argc, char **argv, const char *cmd, const char **opt,
                    char ***args, int *nargs);
/* The database: --db's value, else $QUENCH_DB, else db/quench.db. */
const char *cmd_db_path(const char *opt);
/*
 * Open (with QN_STORE_CREATE: create, with its directory) the database at
 * path, honouring $QUENCH_BUSY_TIMEOUT (ms); reports errors; exit code.
 */
struct qn_store;
int cmd_open_store(const cli_ctx *ctx, const char *path, unsigned flags,
                   struct qn_store **out);
/* The id of the pack called name, created when missing. */
int cmd_store_pack(struct qn_store *s, const char *name, int64_t *id_out,
                   qn_err *err);
/* The same for a generator run: a pack it creates records the run family
 * `build` (store.h, qn_store_pack_append_build). */
int cmd_store_build_pack(struct qn_store *s, const char *name,
                         const char *build, int64_t *id_out, qn_err *err);
/*
 * A pack name, or a pack's name and texts, given on the command line:
 * 0 when they pass qn_store_pack_check, else 64 (usage) after saying
 * "quench: CMD: " and what is wrong.
 */
struct qn_store_pack;
int cmd_check_pack(const char *cmd, const struct qn_store_pack *p);
int cmd_check_pack_name(const char *cmd, const char *name);
/* qn_store_pack_find; its QN_ENOTFOUND says "; did you mean 'x'?" with
 * the closest names s holds, if any is close. Every command that takes
 * an existing pack's name looks it up so. */
int cmd_find_pack(struct qn_store *s, const char *name, int64_t *id_out,
                  qn_err *err);

/* `quench solve`'s options, shared with its big-board half. */
typedef struct solve_opts {
    const char *rules, *state, *file, *output;
    const char *id, *db; /* --id REF: a stored puzzle (its rule too) */
    const char *color;   /* --color WHEN; NULL = auto */
    int json, all, optimal, steps, plain, has_fill;
    int human; /* --human: with --steps, the technique in words */
    unsigned fill;
    int sw, sh; /* --size, 0 when absent */
    uint64_t limit, walk_limit;
} solve_opts;
struct qn_grid_rule;
/* cmd_solve_opts.c: parse solve's arguments into *o (QN_EXIT_* status). */
int cmd_solve_parse_opts(solve_opts *o, int argc, char **argv);
/* --fill V must be a colour below k: 0, or -1 after reporting (exit 65). */
int cmd_solve_check_fill(const cli_ctx *ctx, const solve_opts *o, unsigned k);
/* The report to stdout, or to stderr when -o - has the image there. */
int cmd_solve_report(const solve_opts *o, qn_buf *out);
/* What a stored puzzle says about itself, for a heading. */
typedef struct cmd_stored {
    uint64_t uid; /* its puzzle id */
    uint64_t min_presses;
    char grade[72]; /* "" when ungraded */
} cmd_stored;
/*
 * cmd_solve_id.c: the stored puzzle ref names (an id, a unique prefix, or
 * #ROW) in the database db (--db's value, or NULL): its rule loaded into
 * *r and its state text into *state (both the caller's), its heading into
 * *info when not NULL. An exit status: 64 (after "quench: CMD: ...") when
 * ref is not a reference or names several puzzles, else as reported.
 */
int cmd_load_stored(const cli_ctx *ctx, const char *cmd, const char *db,
                    const char *ref, qn_rules **r, char **state,
                    cmd_stored *info);
/* --id: the stored puzzle's rule (compiled into *r, *g)
 * and state (text into *state, the caller's); an exit status. */
int cmd_solve_load_id(const cli_ctx *ctx, const solve_opts *o, qn_rules **r,
                      qn_solver **g, char **state);
/* cmd_solve_list.c: --all or --optimal (plans.h) as text into out or
 * into the JSON w (when not NULL); an exit status (65 and reported when
 * --optimal meets a kernel past the walk limit). */
struct qn_jsonw;
int cmd_solve_list(const cli_ctx *ctx, const solve_opts *o,
                   const qn_solver *solver, const uint8_t *cells, qn_buf *out,
                   struct qn_jsonw *w);
/* --steps: play plan on cells one press at a time, a board (in colour
 * when asked) after each; into w as "steps" when not NULL. */
int cmd_solve_steps(const solve_opts *o, const qn_solver *solver,
                    const uint8_t *cells, const uint8_t *plan, qn_buf *out,
                    struct qn_jsonw *w, int colour);
/* cmd_rules_human.c: the technique ladder in `rules show` (human.h): the
 * object "human" of --json, and the text lines, labels `width` wide. */
struct qn_jsonw;
void cmd_rules_human_json(struct qn_jsonw *w, const qn_rules *r);
void cmd_rules_human_text(qn_buf *out, const qn_rules *r, int width);
/* A known share (human.h) as "num/den", "1" or "0", into buf. */
struct qn_human_share;
void cmd_human_share_text(char *buf, size_t size,
                          const struct qn_human_share *s);

/* cmd_solve_grid.c: solve a rule read as a big grid (rules.h). */
int cmd_solve_grid(const cli_ctx *ctx, const solve_opts *o,
                   const struct qn_grid_rule *r);

/* Each command's grammar, beside its usage text. */
extern const cmd_grammar cmd_rules_grammar, cmd_solve_grammar,
    cmd_validate_grammar, cmd_generate_grammar, cmd_pack_grammar,
    cmd_db_grammar, cmd_export_grammar, cmd_import_grammar,
    cmd_completions_grammar;

cli_cmd_fn cmd_rules, cmd_solve, cmd_validate, cmd_generate;
/* cmd_rules.c: the grading tiers runs of the rule file at path use (as
 * `rules show --tiers` prints them), quietly: a library code. */
struct qn_tiers;
int cmd_rule_tiers(const char *path, struct qn_tiers *out);
/* cmd_rules_table.c: `rules table` and its options (cmd_rules.c's
 * grammar). */
int cmd_rules_table(int argc, char **argv, cli_ctx *ctx);
extern const struct option cmd_rules_table_opts[];
/* cmd_rules_dist.c: a system's kernel as "(Z/8)^2 x (Z/2)^2", "trivial". */
struct qn_system;
void cmd_kernel_group(qn_buf *b, const struct qn_system *sys);
/*
 * cmd_rules_dist.c: `rules show --distribution`, by the best method the
 * rule's structure allows: method "invertible" or "kernel classes"
 * (exact, distrib_exact.h), "enumerated" (exact, d: the caller's
 * distrib.h table, borrowed, or NULL), else "sampled" (nsample uniform
 * states from the rule's seed, 0: QN_GEN_TIER_SAMPLE), with why.
 */
struct qn_exact_dist;
struct qn_distrib;
struct qn_jsonw;
typedef struct cmd_dist {
    const char *method;
    struct qn_exact_dist *x;       /* exact by structure, or NULL */
    const struct qn_distrib *d;    /* exact by enumeration (borrowed) */
    size_t len;                    /* counts for 0..len-1 presses */
    uint64_t *hist, drawn, graded; /* sampled */
    char why[320];                 /* why not exact */
} cmd_dist;
int cmd_dist_init(cmd_dist *dd, const qn_rules *r, const struct qn_system *sys,
                  const struct qn_distrib *d, size_t nsample);
void cmd_dist_release(cmd_dist *dd);
int cmd_dist_exact(const cmd_dist *dd);
void cmd_dist_text(qn_buf *out, const cmd_dist *dd);
void cmd_dist_csv(qn_buf *out, const cmd_dist *dd);
void cmd_dist_json(struct qn_jsonw *w, const cmd_dist *dd);
/* The histogram of dd as svg, or as png (0 or the error of
 * qn_png_histogram). */
int cmd_dist_plot(qn_buf *out, const cmd_dist *dd, const char *name, int png,
                  qn_err *err);
/* rules show and rules table: when status is QN_EXIT_OK, write the svg a
 * to the file svg and the png b to png (each when named, atomically, the
 * svg first); release both; the status of the first failure. */
int cmd_write_plots(int status, const char *svg, qn_buf *a, const char *png,
                    qn_buf *b);
extern const char cmd_rules_usage[], cmd_solve_usage[], cmd_validate_usage[];
extern const char cmd_generate_usage[];

/* cmd_export_dir.c: export --format dir into the folder out (docs/EXPORT.md
 * "dir"); force: replace an existing dir export. An exit status. */
struct qn_pack_doc;
int cmd_export_dir(const struct qn_pack_doc *doc, const char *out, int force);
/* cmd_pack_svg.c: pack show --svg of the pack `name` into out. */
int cmd_pack_svg(struct qn_store *s, const char *name, qn_buf *out,
                 qn_err *err);
/* cmd_pack_build.c: `pack build RECIPE`: plan, or build into s (NULL
 * with plan), the plan's pilots under budget graded states (0: the
 * default, QN_CAMPAIGN_PLAN_BUDGET); the report into out; an exit
 * status. */
int cmd_pack_build(const cli_ctx *ctx, struct qn_store *s, const char *recipe,
                   int plan, int jobs, uint64_t budget, int json, qn_buf *out);

cli_cmd_fn cmd_pack, cmd_db;
extern const char cmd_pack_usage[], cmd_db_usage[];

cli_cmd_fn cmd_export, cmd_import;
extern const char cmd_export_usage[], cmd_import_usage[];

cli_cmd_fn cmd_show;
extern const char cmd_show_usage[];
extern const cmd_grammar cmd_show_grammar;
/*
 * cmd_show.c: whether to draw in colour on `f` for --color WHEN (NULL:
 * auto), from NO_COLOR and TERM (term.h, qn_term_use_colour); -1 after a
 * usage error when WHEN is not auto, always or never.
 */
int cmd_colour_for(FILE *f, const char *cmd, const char *when);
/* cmd_calibrate.c: `quench calibrate`, the human model fitted to logs */
cli_cmd_fn cmd_calibrate;
extern const char cmd_calibrate_usage[];
extern const cmd_grammar cmd_calibrate_grammar;
/* cmd_complete.c: `quench completions`: the scripts and the candidates
 * they ask for. */
cli_cmd_fn cmd_completions;
extern const char cmd_completions_usage[];

#endif
