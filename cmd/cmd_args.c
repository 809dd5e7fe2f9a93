/*
 * cmd_args.c: what the grammar tables (cmd.h, cmd_grammar) answer for
 * every command: a subcommand or option by name, why getopt_long refused
 * a word (with the closest option: "did you mean"), and which option
 * words take the next word as their value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/suggest.h"
#include "cmd.h"

const cmd_entry *cmd_find(const cli_ctx *ctx, const char *name)
{
    for (size_t i = 0; i < ctx->ncommands; i++)
        if (!strcmp(ctx->commands[i].name, name))
            return &ctx->commands[i];
    return NULL;
}

const cmd_grammar *cmd_find_sub(const cmd_grammar *g, const char *name)
{
    for (const cmd_grammar *s = g ? g->subs : NULL; s && s->name; s++)
        if (!strcmp(s->name, name))
            return s;
    return NULL;
}

const struct option *cmd_find_opt(const struct option *opts, const char *name)
{
    for (const struct option *o = opts; o && o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

/*
 * The option of opts that "--NAME" (len bytes of name) selects as
 * getopt_long reads it: the exact name, else the only one it abbreviates.
 * *nprefix counts the options it abbreviates.
 */
static const struct option *resolve(const struct option *opts, const char *name,
                                    size_t len, int *nprefix)
{
    const struct option *first = NULL;

    *nprefix = 0;
    for (const struct option *o = opts; o && o->name; o++) {
        if (strncmp(o->name, name, len))
            continue;
        if (strlen(o->name) == len)
            return o;
        if (!(*nprefix)++)
            first = o;
    }
    return *nprefix == 1 ? first : NULL;
}

/* "quench: CMD: unknown option 'WORD'; did you mean '--x'?" */
static int unknown(const char *cmd, const char *word, const char *typed,
                   const struct option *opts)
{
    qn_suggest s;
    qn_buf b = QN_BUF_INIT;
    int st;

    qn_suggest_init(&s, typed);
    for (const struct option *o = opts; o && o->name; o++)
        qn_suggest_add(&s, o->name);
    for (int i = 0; i < s.n; i++) { /* the options as they are typed */
        qn_buf_addf(&b, "--%s", s.cand[i]);
        free(s.cand[i]);
        s.cand[i] = qn_buf_detach(&b, NULL);
    }
    qn_suggest_format(&s, &b);
    st = cli_usage_error("%s%sunknown option '%s'%s", cmd ? cmd : "",
                         cmd ? ": " : "", word, b.len ? b.buf : "");
    qn_buf_release(&b);
    qn_suggest_release(&s);
    return st;
}

static int bad_long(const char *cmd, const char *word,
                    const struct option *opts)
{
    const char *name = word + 2;
    size_t len = strcspn(name, "=");
    int nprefix;
    const struct option *o = resolve(opts, name, len, &nprefix);

    if (o && name[len] == '=' && o->has_arg == no_argument)
        return cli_usage_error("%s: option '--%s' takes no value", cmd,
                               o->name);
    if (o)
        return cli_usage_error("%s: option '--%s' needs a value", cmd, o->name);
    if (nprefix > 1) {
        qn_buf b = QN_BUF_INIT;
        int st;
        for (const struct option *p = opts; p && p->name; p++)
            if (!strncmp(p->name, name, len))
                qn_buf_addf(&b, "%s--%s", b.len ? ", " : "", p->name);
        st = cli_usage_error("%s: option '%.*s' is ambiguous: %s", cmd,
                             (int)(len + 2), word, b.buf);
        qn_buf_release(&b);
        return st;
    }
    {
        char typed[80];
        snprintf(typed, sizeof(typed), "%.*s", (int)len, name);
        return unknown(cmd, word, typed, opts);
    }
}

int cmd_bad_option(const char *cmd, char **argv, const struct option *opts,
                   const char *shortopts)
{
    const char *word = argv[optind - 1];
    const char *at;

    /* a short option inside a word ("-xy", "-presses") leaves optind on
     * that word; one at its end moves optind past it */
    if (optopt && argv[optind] && argv[optind][0] == '-' &&
        argv[optind][1] != '-' && strchr(argv[optind] + 1, optopt))
        word = argv[optind];
    if (word[0] == '-' && word[1] == '-' && word[2])
        return bad_long(cmd, word, opts);
    at = optopt && shortopts ? strchr(shortopts, optopt) : NULL;
    if (at && at[1] == ':')
        return cli_usage_error("%s: option '-%c' needs a value", cmd, optopt);
    /* "-presses": a long option with one dash */
    if (word[0] == '-' && strlen(word) > 2)
        return unknown(cmd, word, word + 1, opts);
    return unknown(cmd, word, word + 1, NULL);
}

int cmd_unknown_option(const char *cmd, const char *word,
                       const struct option *opts)
{
    char typed[80];
    const char *name = word + strspn(word, "-");

    snprintf(typed, sizeof(typed), "%.*s", (int)strcspn(name, "="), name);
    return unknown(cmd, word, typed, opts);
}

int cmd_bad_subcommand(const char *cmd, const char *word, const cmd_grammar *g)
{
    qn_suggest s;
    qn_buf b = QN_BUF_INIT;
    int st;

    qn_suggest_init(&s, word);
    for (const cmd_grammar *sub = g ? g->subs : NULL; sub && sub->name; sub++)
        qn_suggest_add(&s, sub->name);
    qn_suggest_format(&s, &b);
    st = cli_usage_error("%s: unknown subcommand '%s' (see 'quench %s "
                         "--help')%s",
                         cmd, word, cmd, b.len ? b.buf : "");
    qn_buf_release(&b);
    qn_suggest_release(&s);
    return st;
}

static int table_takes_value(const struct option *opts, const char *shortopts,
                             const char *word)
{
    if (word[0] != '-' || !word[1])
        return 0;
    if (word[1] == '-') {
        const char *name = word + 2;
        int nprefix;
        const struct option *o;
        if (strchr(name, '='))
            return 0;
        o = resolve(opts, name, strlen(name), &nprefix);
        return o && o->has_arg == required_argument;
    }
    if (word[2] || !shortopts) /* "-n5" holds its value */
        return 0;
    {
        const char *at = strchr(shortopts, word[1]);
        return at && word[1] != ':' && at[1] == ':';
    }
}

int cmd_takes_value(const cmd_grammar *g, const char *word)
{
    if (!g)
        return 0;
    if (table_takes_value(g->opts, g->shortopts, word))
        return 1;
    for (const cmd_grammar *s = g->subs; s && s->name; s++)
        if (cmd_takes_value(s, word))
            return 1;
    return 0;
}
