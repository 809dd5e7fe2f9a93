/*
 * json_attempts.c: an attempt log (attempts.h, docs/ATTEMPTS.md) read
 * line by line with jansson: the header, rule lines through the pack
 * reader's rule parser (json_rule.c), and attempts checked against the
 * rule they name.
 */
#include "export/attempts.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "export_internal.h"
#include "json_get.h"

static const char *const line_keys[] = {"format", "version", "rule", "attempt",
                                        NULL};
static const char *const attempt_keys[] = {"player",
                                           "pack",
                                           "position",
                                           "puzzle",
                                           "rule",
                                           "state",
                                           "human_level",
                                           "human_score",
                                           "human_model_version",
                                           "started",
                                           "first_press_ms",
                                           "time_ms",
                                           "presses",
                                           "undos",
                                           "hints",
                                           "outcome",
                                           NULL};

typedef struct log_ctx {
    qn_attempt_log *log;
    size_t cap_rules, cap_attempts;
    int header, line;
} log_ctx;

/* A string member of at most max bytes into out (max + 1 bytes). */
static int jfixed(json_t *o, const char *key, char *out, size_t max,
                  qn_err *err, const qn_export__where *at)
{
    char *s = NULL;
    int rc = qn_export__jtext(o, key, max, &s, err, at);
    if (rc == QN_OK)
        memcpy(out, s, strlen(s) + 1);
    free(s);
    return rc;
}

/* An integer member, or null (-1) when nullable. */
static int jint_or_null(json_t *o, const char *key, long long lo, long long hi,
                        int nullable, long long *out, qn_err *err,
                        const qn_export__where *at)
{
    json_t *v = json_object_get(o, key);
    if (nullable && v && json_is_null(v)) {
        *out = -1;
        return QN_OK;
    }
    return qn_export__jint(o, key, lo, hi, out, err, at);
}

static int parse_attempt(log_ctx *x, json_t *ja, qn_err *err,
                         const qn_export__where *at)
{
    qn_attempt a = {0};
    a.line = x->line;
    char hash[65], outcome[16];
    long long v;
    int rc;

    if (!json_is_object(ja))
        return qn_export__jbad(err, at, "'attempt' must be an object");
    if ((rc = qn_export__jkeys(ja, attempt_keys, err, at)) ||
        (rc = jfixed(ja, "player", a.player, 64, err, at)) ||
        (rc = jfixed(ja, "puzzle", a.puzzle, 16, err, at)) ||
        (rc = jfixed(ja, "rule", hash, 64, err, at)) ||
        (rc = jfixed(ja, "outcome", outcome, 15, err, at)))
        return rc;
    if (strlen(a.puzzle) != 16 || strspn(a.puzzle, "0123456789abcdef") != 16)
        return qn_export__jbad(err, at,
                               "'puzzle' must be 16 lowercase hex digits");
    if (!strcmp(outcome, "solved"))
        a.solved = 1;
    else if (strcmp(outcome, "abandoned"))
        return qn_export__jbad(
            err, at, "'outcome' is '%s', not solved or abandoned", outcome);
    for (a.rule = 0; a.rule < x->log->nrules; a.rule++)
        if (!strcmp(x->log->rules[a.rule].hash, hash))
            break;
    if (a.rule == x->log->nrules)
        return qn_export__jbad(
            err, at, "rule %.12s... is not given on a line before", hash);
    const qn_pack_rule *pr = &x->log->rules[a.rule];
    if ((rc = jint_or_null(ja, "time_ms", 0, QN_ATTEMPTS_MAX_TIME_MS, 0, &v,
                           err, at)))
        return rc;
    a.time_ms = v;
    if ((rc = jint_or_null(ja, "first_press_ms", 0, QN_ATTEMPTS_MAX_TIME_MS, 1,
                           &v, err, at)))
        return rc;
    a.first_ms = v;
    if (a.first_ms > a.time_ms)
        return qn_export__jbad(err, at,
                               "'first_press_ms' %lld is after 'time_ms' %lld",
                               (long long)a.first_ms, (long long)a.time_ms);
    if ((rc = qn_export__jint(ja, "presses", 0, INT32_MAX, &v, err, at)))
        return rc;
    a.presses = v;
    if ((rc = qn_export__jint(ja, "undos", 0, INT32_MAX, &v, err, at)))
        return rc;
    a.undos = v;
    if ((rc = qn_export__jint(ja, "hints", 0, INT32_MAX, &v, err, at)))
        return rc;
    a.hints = v;
    if (a.solved && a.time_ms < 1)
        return qn_export__jbad(err, at, "a solved attempt takes 'time_ms' > 0");
    if ((rc = jint_or_null(ja, "human_model_version", 1, 1000000, 1, &v, err,
                           at)))
        return rc;
    a.model_version = v < 0 ? 0 : (int)v;
    if (!(a.state = QN_ALLOCN((size_t)pr->ncells + 1, uint8_t)))
        return qn_err_nomem(err);
    if ((rc = qn_export__jcells(ja, "state", pr->ncells, pr->colours, a.state,
                                err, at))) {
        free(a.state);
        return rc;
    }
    if (!memcmp(a.state, pr->goal, (size_t)pr->ncells)) {
        free(a.state);
        return qn_export__jbad(err, at, "puzzle %s: the state is the goal",
                               a.puzzle);
    }
    if (x->log->nattempts == x->cap_attempts) {
        size_t cap = x->cap_attempts ? 2 * x->cap_attempts : 64;
        qn_attempt *more = QN_REALLOCN(x->log->attempts, cap, qn_attempt);
        if (!more) {
            free(a.state);
            return qn_err_nomem(err);
        }
        x->log->attempts = more;
        x->cap_attempts = cap;
    }
    x->log->attempts[x->log->nattempts++] = a;
    return QN_OK;
}

static int parse_line(log_ctx *x, json_t *o, qn_err *err,
                      const qn_export__where *at)
{
    json_t *v;
    int rc;

    if (!json_is_object(o))
        return qn_export__jbad(err, at, "a line must be a JSON object");
    if ((rc = qn_export__jkeys(o, line_keys, err, at)))
        return rc;
    if (json_object_get(o, "format")) {
        char *fmt = NULL;
        long long ver;
        if ((rc = qn_export__jtext(o, "format", 64, &fmt, err, at)) == QN_OK &&
            strcmp(fmt, "quench-attempts"))
            rc = qn_export__jbad(err, at, "format is '%s', not quench-attempts",
                                 fmt);
        free(fmt);
        if (rc ||
            (rc = qn_export__jint(o, "version", 1, 1000000, &ver, err, at)))
            return rc;
        if (ver != QN_ATTEMPTS_VERSION)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "attempt log version %lld; this quench reads "
                              "version %d",
                              ver, QN_ATTEMPTS_VERSION);
        if (json_object_size(o) != 2)
            return qn_export__jbad(err, at,
                                   "a header has 'format' and 'version' only");
        x->header = 1;
        return QN_OK;
    }
    if (!x->header)
        return qn_export__jbad(
            err, at,
            "the first line must be the header "
            "{\"format\":\"quench-attempts\",\"version\":1}");
    if (json_object_size(o) != 1)
        return qn_export__jbad(err, at,
                               "a line holds one 'rule' or one 'attempt'");
    if ((v = json_object_get(o, "attempt")))
        return parse_attempt(x, v, err, at);
    if (!(v = json_object_get(o, "rule")))
        return qn_export__jbad(err, at, "'version' without 'format'");
    if (x->log->nrules == QN_ATTEMPTS_MAX_RULES)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "more than %d rule lines in one file",
                          QN_ATTEMPTS_MAX_RULES);
    if (x->log->nrules == x->cap_rules) {
        size_t cap = x->cap_rules ? 2 * x->cap_rules : 4;
        qn_pack_rule *more = QN_REALLOCN(x->log->rules, cap, qn_pack_rule);
        if (!more)
            return qn_err_nomem(err);
        x->log->rules = more;
        x->cap_rules = cap;
    }
    qn_pack_rule *pr = &x->log->rules[x->log->nrules];
    memset(pr, 0, sizeof(*pr));
    x->log->nrules++;
    if ((rc = qn_export__json_rule(pr, v, err, at)))
        return rc;
    for (size_t r = 0; r + 1 < x->log->nrules; r++)
        if (!strcmp(x->log->rules[r].hash, pr->hash))
            return qn_export__jbad(err, at, "rule %.12s... given twice",
                                   pr->hash);
    return QN_OK;
}

int qn_attempt_log_parse(qn_attempt_log *out, const char *text, size_t len,
                         const char *source, qn_err *err)
{
    log_ctx x = {out, 0, 0, 0, 0};
    qn_export__where at = {""};
    int rc = QN_OK, lineno = 0;

    memset(out, 0, sizeof(*out));
    if (len > QN_ATTEMPTS_MAX_FILE)
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "an attempt log holds at most %u bytes",
                        QN_ATTEMPTS_MAX_FILE);
    for (size_t i = 0; rc == QN_OK && i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len, ll = end - i;
        const char *s = text + i;
        lineno++;
        i = end + 1;
        if (ll && s[ll - 1] == '\r')
            ll--;
        size_t w = 0;
        while (w < ll && (s[w] == ' ' || s[w] == '\t'))
            w++;
        if (w == ll)
            continue; /* a blank line */
        if (ll > QN_ATTEMPTS_MAX_LINE) {
            rc = qn_err_set(err, QN_ELIMIT, lineno, 1,
                            "a line holds at most %u bytes",
                            QN_ATTEMPTS_MAX_LINE);
            break;
        }
        if ((rc = qn_export__json_depth(s, ll, err)) != QN_OK) {
            err->line = lineno, err->col = err->col ? err->col : 1;
            break;
        }
        json_error_t je;
        qn_json_nomem_clear();
        json_t *o = json_loadb(s, ll, JSON_REJECT_DUPLICATES, &je);
        if (qn_json_nomem() || /* a syntax error may be its symptom */
            (!o && json_error_code(&je) == json_error_out_of_memory)) {
            json_decref(o);
            rc = qn_err_nomem(err);
            break;
        }
        if (!o) {
            rc = qn_err_set(err, QN_ESYNTAX, lineno,
                            je.column > 0 ? je.column : 1, "invalid JSON: %s",
                            je.text);
            break;
        }
        x.line = lineno;
        rc = parse_line(&x, o, err, &at);
        json_decref(o);
        if (rc != QN_OK && !err->line)
            err->line = lineno, err->col = (int)w + 1;
    }
    if (rc == QN_OK && !x.header)
        rc = qn_err_set(err, QN_EINVAL, lineno ? lineno : 1, 1,
                        "no header line {\"format\":\"quench-attempts\","
                        "\"version\":1}");
    if (rc != QN_OK)
        qn_attempt_log_release(out);
    qn_err_source(err, source ? source : "");
    return rc;
}

void qn_attempt_log_release(qn_attempt_log *log)
{
    if (!log)
        return;
    for (size_t r = 0; r < log->nrules; r++)
        qn_pack_rule_release(&log->rules[r]);
    for (size_t a = 0; a < log->nattempts; a++)
        free(log->attempts[a].state);
    free(log->rules);
    free(log->attempts);
    memset(log, 0, sizeof(*log));
}
