/*
 * cmd_complete.c: `quench completions`: shell completion for bash, zsh
 * and fish. The scripts are thin: at each Tab they hand the words on the
 * line to `quench completions --candidates`, which walks them through
 * the command table (main.c, cmd_table) and each command's grammar
 * (cmd.h, cmd_grammar), the tables --help and the parsers use, and
 * answers: commands, subcommands, options, fixed option values, pack
 * names from the database the line names, grading tiers of the rule file
 * on the line; or "files" for the shell to complete file names. So the
 * completion of this binary can never drift from its command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cmd.h"
#include "generate/distrib.h"
#include "store/store.h"

const char cmd_completions_usage[] =
    "usage: quench completions (bash | zsh | fish)\n"
    "       quench completions --candidates [--] WORD...\n"
    "\n"
    "Print the completion script for a shell. Every candidate comes from\n"
    "quench itself at completion time: commands, subcommands and options\n"
    "from the same tables as --help, pack names from the database on the\n"
    "line (--db, else $QUENCH_DB, else db/quench.db; read only), grading\n"
    "tiers from the rule file on the line. To use one without installing\n"
    "(make install puts them where each shell looks):\n"
    "  bash:  source <(quench completions bash)\n"
    "  zsh:   quench completions zsh > ~/.zfunc/_quench  (with ~/.zfunc\n"
    "         in fpath, before compinit)\n"
    "  fish:  quench completions fish > ~/.config/fish/completions/quench.fish\n"
    "\n"
    "--candidates is what the scripts call: WORD... are the words after\n"
    "'quench' up to the one being completed (possibly empty). It prints\n"
    "'words' and then one candidate a line (a TAB before its description,\n"
    "if any), or the single line 'files' when file names are wanted.\n";

static const struct option opts[] = {{"candidates", no_argument, NULL, 'c'},
                                     {NULL, 0, NULL, 0}};

const cmd_grammar cmd_completions_grammar = {
    .opts = opts,
    .operands = "shell",
};

/* ---- the scripts ------------------------------------------------------ */

static const char bash_script[] =
    "# bash completion for quench (quench completions bash). Every\n"
    "# candidate comes from quench's own command table at completion time.\n"
    "_quench()\n"
    "{\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} q=${COMP_WORDS[0]} line\n"
    "    local -a out\n"
    "    [[ $q == \"~\"/* ]] && q=$HOME${q#\"~\"}\n"
    "    mapfile -t out < <(\"$q\" completions --candidates -- \\\n"
    "        \"${COMP_WORDS[@]:1:COMP_CWORD}\" 2>/dev/null)\n"
    "    COMPREPLY=()\n"
    "    # --db=FILE: bash splits the '=' off, and completes after it\n"
    "    [[ $cur == = ]] && cur=\n"
    "    case ${out[0]-} in\n"
    "    files)\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
    "        ;;\n"
    "    words)\n"
    "        for line in \"${out[@]:1}\"; do\n"
    "            COMPREPLY+=(\"${line%%$'\\t'*}\")\n"
    "        done\n"
    "        ;;\n"
    "    esac\n"
    "    return 0\n"
    "}\n"
    "complete -F _quench quench\n";

static const char zsh_script[] =
    "#compdef quench\n"
    "# zsh completion for quench (quench completions zsh). Every\n"
    "# candidate comes from quench's own command table at completion time.\n"
    "_quench() {\n"
    "    local -a out cands descs\n"
    "    local line\n"
    "    out=(\"${(@f)$(${~words[1]} completions --candidates -- \\\n"
    "        \"${(@Q)words[2,CURRENT]}\" 2>/dev/null)}\")\n"
    "    case ${out[1]} in\n"
    "    files)\n"
    "        compset -P '--*='\n"
    "        _files\n"
    "        ;;\n"
    "    words)\n"
    "        for line in \"${(@)out[2,-1]}\"; do\n"
    "            [[ -n $line ]] || continue\n"
    "            cands+=(\"${line%%$'\\t'*}\")\n"
    "            if [[ $line == *$'\\t'* ]]; then\n"
    "                descs+=(\"${line%%$'\\t'*}  -- ${line#*$'\\t'}\")\n"
    "            else\n"
    "                descs+=(\"$line\")\n"
    "            fi\n"
    "        done\n"
    "        (( ${#cands} )) && compadd -l -d descs -a cands\n"
    "        ;;\n"
    "    esac\n"
    "}\n"
    "_quench \"$@\"\n";

static const char fish_script[] =
    "# fish completion for quench (quench completions fish). Every\n"
    "# candidate comes from quench's own command table at completion time.\n"
    "function __quench_complete\n"
    "    set -l words (commandline -opc)\n"
    "    set -l cur (commandline -ct)\n"
    "    set -l q $words[1]\n"
    "    set -e words[1]\n"
    "    type -q $q; or return\n"
    "    set -l out (command $q completions --candidates -- $words \"$cur\" "
    "2>/dev/null)\n"
    "    switch \"$out[1]\"\n"
    "        case files\n"
    "            set -l pre (string match -r -- '^--[^=]*=' \"$cur\")\n"
    "            set -l val (string replace -r -- '^--[^=]*=' '' \"$cur\")\n"
    "            for f in (__fish_complete_path \"$val\")\n"
    "                echo \"$pre$f\"\n"
    "            end\n"
    "        case words\n"
    "            set -e out[1]\n"
    "            printf '%s\\n' $out\n"
    "    end\n"
    "end\n"
    "complete -c quench -f -a '(__quench_complete)'\n";

/* ---- the candidates --------------------------------------------------- */

#define MAX_OPERANDS 64

/* What the words before the cursor said. */
typedef struct line {
    const cmd_entry *cmd;
    const cmd_grammar *scope;  /* the command's grammar, or its sub's */
    const cmd_grammar *parent; /* the command's, when scope is a sub */
    const char *operand[MAX_OPERANDS];
    int noperands;
    const char *db; /* --db on the line */
    int dashdash;
} line;

/* The candidates printed: the prefix being completed, and a buffer. */
typedef struct answer {
    const cli_ctx *ctx; /* its command table */
    const char *cur;
    const char *pre; /* printed before each candidate ("--db=") */
    qn_buf out;
} answer;

static void offer(answer *a, const char *word, const char *desc)
{
    if (strncmp(word, a->cur, strlen(a->cur)))
        return;
    qn_buf_addf(&a->out, "%s%s", a->pre, word);
    if (desc && *desc)
        qn_buf_addf(&a->out, "\t%s", desc);
    qn_buf_addc(&a->out, '\n');
}

/* The option of g (or its parent) that word names: "--db", "--ti" (an
 * abbreviation, as getopt_long reads it), "-o" (by its short letter). */
static const struct option *option_of(const line *l, const char *word)
{
    const cmd_grammar *gs[2] = {l->scope, l->parent};

    for (int k = 0; k < 2; k++) {
        const struct option *found = NULL;
        int n = 0;
        for (const struct option *o = gs[k] ? gs[k]->opts : NULL; o && o->name;
             o++) {
            if (word[1] != '-') {
                if (word[1] && !word[2] && o->val == word[1])
                    return o;
                continue;
            }
            size_t len = strcspn(word + 2, "=");
            if (strncmp(o->name, word + 2, len))
                continue;
            if (strlen(o->name) == len)
                return o;
            found = n++ ? NULL : o;
        }
        if (found)
            return found;
    }
    return NULL;
}

/* The kind of name's value: "NAME=KIND" in values; NULL when free. */
static const char *value_kind(const char *values, const char *name, char *kind,
                              size_t size)
{
    size_t n = strlen(name);

    for (const char *p = values; p && *p;) {
        size_t len = strcspn(p, " ");
        if (len > n && !strncmp(p, name, n) && p[n] == '=') {
            snprintf(kind, size, "%.*s", (int)(len - n - 1), p + n + 1);
            return kind;
        }
        p += len + (p[len] == ' ');
    }
    return NULL;
}

static int add_pack(void *ctx, const qn_store_pack *p)
{
    offer(ctx, p->name, p->title);
    return 0;
}

/* The packs of the database on the line, read only and quietly: a
 * completion never creates, migrates or complains. */
static void offer_packs(answer *a, const line *l)
{
    const char *db = l->db && strcmp(l->db, "-") ? l->db : NULL;
    qn_store *s = NULL;

    if (qn_store_open(&s, cmd_db_path(db), QN_STORE_READONLY, NULL) != QN_OK)
        return;
    qn_store_pack_list(s, NULL, add_pack, a, NULL);
    qn_store_close(s);
}

static void offer_tiers(answer *a, const line *l)
{
    qn_tiers t;

    if (!l->noperands || cmd_rule_tiers(l->operand[0], &t) != QN_OK)
        return;
    for (size_t i = 0; i < t.n; i++) {
        char desc[64];
        snprintf(desc, sizeof(desc), "%llu..%llu presses",
                 (unsigned long long)t.lo[i], (unsigned long long)t.hi[i]);
        offer(a, t.name[i], desc);
    }
}

static void offer_commands(answer *a)
{
    for (size_t i = 0; i < a->ctx->ncommands; i++)
        offer(a, a->ctx->commands[i].name, a->ctx->commands[i].summary);
}

static void offer_subs(answer *a, const cmd_grammar *g)
{
    for (const cmd_grammar *s = g ? g->subs : NULL; s && s->name; s++)
        offer(a, s->name, s->summary);
}

/* Candidates of a kind (cmd.h, cmd_grammar); 1 when files are wanted. */
static int offer_kind(answer *a, const line *l, const char *kind)
{
    if (!strcmp(kind, "file") || !strcmp(kind, "rules"))
        return 1;
    if (!strcmp(kind, "pack"))
        offer_packs(a, l);
    else if (!strcmp(kind, "tier"))
        offer_tiers(a, l);
    else if (!strcmp(kind, "command"))
        offer_commands(a);
    else if (!strcmp(kind, "subcommand") && l->noperands) {
        const cmd_entry *c = cmd_find(a->ctx, l->operand[l->noperands - 1]);
        offer_subs(a, c ? c->grammar : NULL);
    } else if (!strcmp(kind, "shell")) {
        offer(a, "bash", NULL), offer(a, "zsh", NULL), offer(a, "fish", NULL);
    } else if (strchr(kind, '|')) {
        char w[64];
        for (const char *p = kind; *p;) {
            size_t len = strcspn(p, "|");
            snprintf(w, sizeof(w), "%.*s", (int)len, p);
            offer(a, w, NULL);
            p += len + (p[len] == '|');
        }
    }
    return 0;
}

/* The kind of operand i: the i-th word of ops, the last one repeating
 * when followed by "..."; "" past the end. */
static void operand_kind(const char *ops, int i, char *kind, size_t size)
{
    const char *p = ops ? ops : "", *last = NULL;
    size_t len = 0;

    *kind = '\0';
    for (int k = 0; *p; k++) {
        len = strcspn(p, " ");
        last = p;
        if (k == i)
            break;
        p += len + (p[len] == ' ');
        if (!*p) {
            if (len < 3 || strncmp(last + len - 3, "...", 3))
                return; /* past the end */
            break;
        }
    }
    if (!last)
        return;
    if (len >= 3 && !strncmp(last + len - 3, "...", 3))
        len -= 3;
    snprintf(kind, size, "%.*s", (int)len, last);
}

static void offer_options(answer *a, const line *l)
{
    const cmd_grammar *gs[2] = {l->scope, l->parent};
    static const char *const global[] = {"--quiet", "--verbose", "--help",
                                         "-q",      "-v",        "-h"};

    for (int k = 0; k < 2; k++)
        for (const struct option *o = gs[k] ? gs[k]->opts : NULL; o && o->name;
             o++) {
            char w[80];
            if (k && l->scope && cmd_find_opt(l->scope->opts, o->name))
                continue; /* the subcommand's own says it */
            snprintf(w, sizeof(w), "--%s", o->name);
            offer(a, w, NULL);
        }
    for (size_t i = 0; i < sizeof(global) / sizeof(*global); i++)
        offer(a, global[i], NULL);
    if (!l->cmd)
        offer(a, "--version", NULL);
}

/* The value of option o: 1 when files are wanted. */
static int offer_value(answer *a, const line *l, const struct option *o)
{
    char kind[256];
    const cmd_grammar *gs[2] = {l->scope, l->parent};

    for (int k = 0; k < 2; k++)
        if (gs[k] && value_kind(gs[k]->values, o->name, kind, sizeof(kind)))
            return offer_kind(a, l, kind);
    return 0;
}

/* One word before the cursor (not an option's value). */
static int take_word(const cli_ctx *ctx, line *l, const char *w)
{
    if (!l->cmd) {
        if (!(l->cmd = cmd_find(ctx, w)))
            return -1;
        l->scope = l->cmd->grammar;
    } else if (l->scope && l->scope->subs && !l->parent) {
        const cmd_grammar *sub = cmd_find_sub(l->scope, w);
        if (!sub)
            return -1;
        l->parent = l->scope;
        l->scope = sub;
    } else if (l->noperands < MAX_OPERANDS) {
        l->operand[l->noperands++] = w;
    }
    return 0;
}

static int is_db(const struct option *o)
{
    return o && !strcmp(o->name, "db");
}

/*
 * Walk words[0..n-2] through the grammar, then answer for words[n-1].
 * Returns 1 when files are wanted, 0 for the words in a->out.
 */
static int candidates(answer *a, char **words, int n)
{
    line l;
    const struct option *pending = NULL;
    const char *cur = words[n - 1];

    memset(&l, 0, sizeof(l));
    for (int i = 0; i < n - 1; i++) {
        const char *w = words[i];
        if (pending) {
            if (is_db(pending))
                l.db = w;
            pending = NULL;
        } else if (!l.dashdash && !strcmp(w, "--")) {
            l.dashdash = 1;
        } else if (!l.dashdash && w[0] == '-' && w[1]) {
            const struct option *o = option_of(&l, w);
            const char *eq = strchr(w, '=');
            if (eq && is_db(o))
                l.db = eq + 1;
            else if (!eq && o && o->has_arg == required_argument) {
                pending = o;
                /* bash splits "--db=x" into "--db", "=", "x" */
                if (i + 1 < n && !strcmp(words[i + 1], "="))
                    i++;
            }
        } else if (take_word(a->ctx, &l, w)) {
            return 0; /* not a command line quench takes: no guesses */
        }
    }
    a->cur = cur;
    if (pending && !strcmp(cur, "="))
        a->cur = "";
    if (pending)
        return offer_value(a, &l, pending);
    if (!l.dashdash && !strncmp(cur, "--", 2) && strchr(cur, '=')) {
        const struct option *o = option_of(&l, cur);
        size_t pre = (size_t)(strchr(cur, '=') - cur) + 1;
        static char prefix[128];
        snprintf(prefix, sizeof(prefix), "%.*s", (int)pre, cur);
        a->pre = prefix;
        a->cur = cur + pre;
        return o && o->has_arg == required_argument ? offer_value(a, &l, o) : 0;
    }
    if (!l.dashdash && cur[0] == '-') {
        offer_options(a, &l);
        return 0;
    }
    if (!l.cmd) {
        offer_commands(a);
        return 0;
    }
    if (l.scope && l.scope->subs && !l.parent) {
        offer_subs(a, l.scope);
        return 0;
    }
    {
        char kind[64];
        operand_kind(l.scope ? l.scope->operands : "file", l.noperands, kind,
                     sizeof(kind));
        return offer_kind(a, &l, kind);
    }
}

static int print_candidates(const cli_ctx *ctx, int argc, char **argv)
{
    answer a;
    int files, st;
    char *empty[] = {(char *)"", NULL};

    if (argc > 0 && !strcmp(argv[0], "--"))
        argc--, argv++;
    if (argc == 0) { /* nothing typed yet: complete an empty word */
        argc = 1;
        argv = empty;
    }
    memset(&a, 0, sizeof(a));
    a.ctx = ctx;
    a.pre = "";
    qn_buf_init(&a.out);
    files = candidates(&a, argv, argc);
    fputs(files ? "files\n" : "words\n", stdout);
    st = files ? QN_EXIT_OK : cmd_finish_out(&a.out);
    qn_buf_release(&a.out);
    return st;
}

int cmd_completions(int argc, char **argv, cli_ctx *ctx)
{
    /* the words to complete are data, --help among them */
    if (argc > 1 && !strcmp(argv[1], "--candidates"))
        return print_candidates(ctx, argc - 2, argv + 2);
    if (cmd_wants_help(argc, argv, cmd_completions_usage))
        return QN_EXIT_OK;
    if (argc != 2)
        return cli_usage_error("completions: name one shell: bash, zsh or "
                               "fish");
    if (!strcmp(argv[1], "bash"))
        fputs(bash_script, stdout);
    else if (!strcmp(argv[1], "zsh"))
        fputs(zsh_script, stdout);
    else if (!strcmp(argv[1], "fish"))
        fputs(fish_script, stdout);
    else if (argv[1][0] == '-')
        return cmd_unknown_option("completions", argv[1], opts);
    else
        return cli_usage_error("completions: no script for '%s': bash, zsh "
                               "or fish",
                               argv[1]);
    return QN_EXIT_OK;
}
